"""Sector 6 computer players: legal actions from a view alone at every step, budgets kept,
reproducible with `iterations`, and the `normal` player clearly better than chance."""

from __future__ import annotations

import json
import random
import time

import pytest
from sector6_positions import position

from engine.ai import choose, levels
from engine.sector6 import GAME, Sector6State
from engine.sector6.ai import evaluate, turns
from engine.sector6.state import ACT_STEP, BLOCKED_STEP, BUILD, DRAW_STEP, MOVE_STEP, PLACE_STEP


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


def test_three_levels_are_offered():
    assert levels("sector6") == ["random", "normal", "hard"]


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
    copy = state.clone()
    for action in turn:
        copy.apply(action)
    return copy


def test_normal_beats_random():
    wins = 0.0
    for seed in range(3):
        seats = ["normal", "random"] if seed % 2 == 0 else ["random", "normal"]
        state = GAME.new_state(2, seed)
        while not state.is_terminal():
            seat = state.current_seat()
            state.apply(choose(state.view(seat), level=seats[seat], seed=seed))
        outcome = state.outcome()
        if seats.index("normal") in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins >= 2.5
