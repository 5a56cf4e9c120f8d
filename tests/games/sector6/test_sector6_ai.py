"""Sector 6 computer players: legal actions from a view alone at every step, budgets kept,
reproducible with `iterations`, and the `normal` player clearly better than chance."""

from __future__ import annotations

import json
import random
import time

import pytest
from sector6_positions import position

from engine.ai import choose, levels
from games.sector6.ai import Kept, evaluate, greedy_turn, turns
from games.sector6.ai.position import Position, root_turns, turn_actions
from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.state import (
    ACT_STEP,
    BLOCKED_STEP,
    BUILD,
    DRAW_STEP,
    MOVE_STEP,
    PLACE_STEP,
)


def advance(seats: int, seed: int, actions: int, mode: str = "full") -> Sector6State:
    state = GAME.new_state(seats, seed, {"mode": mode})
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    return state


def first_in_step(step: str, seats: int = 3, seed: int = 4) -> Sector6State:
    state = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    while state.step != step or state.is_terminal():
        state.apply(state.sample_action(rng))
    return state


def test_the_levels_are_offered():
    assert levels("sector6") == ["random", "easy", "normal", "hard"]


@pytest.mark.parametrize("level", ["random", "normal", "hard"])
@pytest.mark.parametrize("step", [DRAW_STEP, PLACE_STEP, MOVE_STEP, ACT_STEP])
def test_every_level_returns_a_legal_action_at_every_step(level, step):
    state = first_in_step(step)
    text = choose(state.view(state.current_seat()), level=level, seed=5, iterations=40)
    assert text in {a.text() for a in state.legal_actions()}


@pytest.mark.parametrize("level", ["random", "normal", "hard"])
@pytest.mark.parametrize("mode", ["full", "novice"])
def test_a_blocked_player_gets_a_legal_rotation_or_pass(level, mode):
    tiles = {
        "C4": ("alternating", 0),
        "D3": ("single", 4),
        "C5": ("single", 0),
        "E4": ("bend", 4),
        "E5": ("entry", 1),
        "F4": ("entry", 1),
        "F5": ("single", 1),
    }
    state = position(tiles, prisoners={0: ["C4", "E4"], 1: ["E5", "F4"]}, mode=mode)
    assert state.step == BLOCKED_STEP
    legal = {a.text() for a in state.legal_actions()}
    for turn in turns(state):
        assert turn[0].text() in legal
    assert all(len(t) == (2 if mode == "full" else 1) for t in turns(state))


@pytest.mark.parametrize(("seats", "seed", "actions"), [(2, 1, 0), (3, 2, 7), (4, 3, 80)])
def test_players_decide_from_the_view_alone(seats, seed, actions):
    """A view rebuilt from JSON, with no seed or supply anywhere, gives the same decision."""
    state = advance(seats, seed, actions)
    view = state.view(state.current_seat())
    text = json.dumps(view)
    assert "seed" not in view and "supplies" not in text
    for level in ("normal", "hard"):
        a = choose(view, level=level, seed=3, iterations=120)
        assert a == choose(json.loads(text), level=level, seed=3, iterations=120)
        assert a in {x.text() for x in state.legal_actions()}


def test_hard_with_iterations_is_deterministic():
    state = advance(2, 11, 70)
    while state.phase == BUILD:
        state.apply(state.sample_action(random.Random(1)))
    view = state.view(state.current_seat())
    first = choose(view, level="hard", seed=2, iterations=400)
    assert first == choose(view, level="hard", seed=2, iterations=400)


@pytest.mark.parametrize("budget", [0.05, 0.3])
def test_hard_keeps_to_its_time_budget(budget):
    state = advance(4, 12, 140)
    assert state.phase != BUILD
    started = time.perf_counter()
    choose(state.view(state.current_seat()), level="hard", seed=1, budget_s=budget)
    assert time.perf_counter() - started < budget + 0.25


def test_normal_takes_oxygen_in_reach():
    """A corridor of ones with a blue four at its end: the greedy player goes for the four."""
    tiles = {f"C{row}": ("single", 1) for row in range(2, 7)}
    tiles |= {"C7": ("straight", 1), "A2": ("entry", 1)}  # open N and S only
    state = position(tiles, prisoners={0: ["C2"], 1: ["A2"]}, markers={"C2": 0})
    best = max(turns(state), key=lambda t: evaluate(_after(state, t), 0))
    assert best[0].text() == "move C2 C7"


def _after(state: Sector6State, turn) -> Sector6State:
    copy = state.copy()
    for action in turn:
        copy.apply(action)
    return copy


def _clock_position(mine: int, theirs: int) -> Sector6State:
    """Seat 0 on a 1 with a 4 down the corridor, one turn left on the oxygen clock; `mine`
    and `theirs` points collected already (in blue markers)."""
    tiles = {f"C{row}": ("single", 1) for row in range(2, 7)}
    tiles |= {"C7": ("straight", 1), "A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C3"], 1: ["A2"]}, markers={"C2": 0})
    state.collected[0][4], state.collected[1][4] = mine // 4, theirs // 4
    state.play_turns = state.rules.clock_rounds * 2 - 1
    return state


@pytest.mark.parametrize(("mine", "theirs", "ends"), [(12, 0, True), (0, 20, False)])
def test_normal_plays_the_oxygen_clock(mine, theirs, ends):
    """With one turn left on the clock, a leader steps onto the 4 and lets the clock stop
    (collecting would start it again); a trailing player collects to keep the game going."""
    state = _clock_position(mine, theirs)
    position_ = Position(state)
    turn = greedy_turn(position_, root_turns(state, position_), random.Random(1))
    actions = [a.text() for a in turn_actions(state, turn)]
    assert actions[0] == "move C3 C7"
    after = state.copy()
    for text in actions:
        after.apply(text)
    assert after.is_terminal() == ends
    assert (actions[1] == "collect") != ends


def _match(levels_: tuple[str, str], deals: range, iterations: int) -> tuple[float, int]:
    """(wins of the first level, its total score margin) over `deals` played from both seats."""
    wins, margin = 0.0, 0
    for seed in deals:
        for first in (0, 1):
            seats = levels_ if first == 0 else levels_[::-1]
            state = GAME.new_state(2, seed)
            k = 0
            while not state.is_terminal():
                seat = state.current_seat()
                level = seats[seat]
                state.apply(choose(state.view(seat), level=level, seed=k, iterations=iterations))
                k += 1
            outcome = state.outcome()
            me = seats.index(levels_[0])
            if me in outcome.winners:
                wins += 1 / len(outcome.winners)
            margin += outcome.scores[me] - outcome.scores[1 - me]
    return wins, margin


@pytest.mark.slow  # a strength comparison
def test_normal_beats_random():
    """Every game of a fixed set, each deal from both seats, by a wide margin."""
    wins, margin = _match(("normal", "random"), range(1), 1)
    assert wins == 2
    assert margin >= 2 * 20


@pytest.mark.slow  # a strength comparison: thousands of play-outs a move
def test_hard_beats_normal():
    """Two rounds of play-outs already win most of a fixed set of games against the greedy
    player, each deal from both seats."""
    wins, margin = _match(("hard", "normal"), range(2), 2000)
    assert wins >= 3
    assert margin > 0


def _race(seats: int, seed: int, moves: int) -> list[Sector6State]:
    """A random game's positions from the complete maze on, up to `moves` actions later."""
    rng = random.Random(seed)
    state = GAME.new_state(seats, seed, {"mode": "full"})
    while state.phase == BUILD:
        state.apply(state.sample_action(rng))
    out = []
    for _ in range(moves):
        if state.is_terminal():
            break
        out.append(state.copy())
        state.apply(state.sample_action(rng))
    return out


def test_a_kept_race_carried_on_is_the_position_rebuilt_from_the_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The AI keeps a game's position between decisions once the maze is complete; carried
    on with the actions since, it is what a rebuild from the whole history gives, and the
    decisions taken from it are the same ones, number for number."""
    import games.sector6.ai as ai

    def decided(kept: Kept, view: dict, level: str) -> str:  # type: ignore[type-arg]
        monkeypatch.setattr(ai, "KEPT", kept)
        return choose(view, level=level, seed=3, iterations=40)

    kept = Kept()
    checked = 0
    for state in _race(4, 11, 120)[::7]:
        seat = state.current_seat()
        view = state.view(seat)
        carried = kept.rebuilt(view, random.Random(5))
        rebuilt = Sector6State.from_view(view, random.Random(5))
        assert carried.to_dict() == rebuilt.to_dict()
        assert carried.view(seat) == rebuilt.view(seat)
        for level in ("normal", "hard"):
            assert decided(kept, view, level) == decided(Kept(), view, level)
        checked += 1
    assert checked >= 10
    assert len(kept._states) == 1, "one position kept for the game, whichever seat asks"
