"""The computer players' lean position (`position.Position`) plays every turn exactly as
the rules engine does: same turns on offer, same board, scores, clock and end after each."""

from __future__ import annotations

import random

import pytest

from games.sector6.ai.position import Position, root_turns, turn_actions
from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.state import BUILD, MOVE_STEP


def _engine_turns(state: Sector6State) -> set[tuple[str, ...]]:
    """Every complete turn by the engine's own legal actions, as texts."""
    out: set[tuple[str, ...]] = set()

    def walk(s: Sector6State, done: tuple[str, ...]) -> None:
        if s.is_terminal() or s.seat != state.seat or (done and s.step == MOVE_STEP):
            out.add(done)
            return
        for action in s.legal_actions():
            after = s.copy()
            after.apply(action)
            walk(after, (*done, action.text()))

    walk(state, ())
    return out


def _played(state: Sector6State, turn: tuple[int, int, int]) -> tuple[str, ...]:
    """The texts of a turn's actions, up to the one that ends the game."""
    real = state.copy()
    texts = []
    for action in turn_actions(state, turn):
        if real.is_terminal():
            break
        real.apply(action)
        texts.append(action.text())
    return tuple(texts)


def _same(position: Position, state: Sector6State) -> None:
    assert position.over == state.is_terminal()
    assert position.walls == state.walls
    assert position.marker == state.marker
    assert position.prisoner == state.prisoner
    assert position.collected == state.collected
    assert position.play_turns == state.play_turns
    assert position.quiet_since == state.quiet_since
    if not state.is_terminal():
        assert position.seat == state.seat


@pytest.mark.parametrize("mode", ["full", "veteran", "novice"])
@pytest.mark.parametrize("seats", [2, 3])
def test_position_plays_every_turn_as_the_engine(mode, seats):
    rng = random.Random(f"{mode}{seats}")
    checked = 0
    for seed in range(2):
        state = GAME.new_state(seats, seed, {"mode": mode})
        while state.phase == BUILD:
            state.apply(state.sample_action(rng))
        while not state.is_terminal() and checked < 60 * (seed + 1):
            position = Position(state)
            options = root_turns(state, position)
            texts = {_played(state, t) for t in options}
            if state.step == MOVE_STEP or checked % 5 == 0:
                assert texts == _engine_turns(state)
            for turn in rng.sample(options, min(4, len(options))):
                after = position.copy()
                after.play(turn)
                real = state.copy()
                for action in turn_actions(state, turn):
                    if not real.is_terminal():  # a move may end the game before its act
                        real.apply(action)
                _same(after, real)
            checked += 1
            state.apply(state.sample_action(rng))
    assert checked >= 60
