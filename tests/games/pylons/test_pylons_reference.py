"""The fixed racing opponent for Pylons (`games.pylons.ai.reference.runner`), and the `normal`
level beating it: a level that never blocks a racing chain loses to this player."""

from __future__ import annotations

import random

import pytest

from engine.ai import levels
from games.pylons.ai.reference import Racer, race, runner
from games.pylons.rules import GAME


def test_the_runner_is_not_a_level_players_can_choose():
    assert "runner" not in levels("pylons")


def test_the_runner_keeps_the_board_and_plays_legal_moves():
    state = GAME.new_state(2, 4)
    assert runner(state.view(0), random.Random(1)) == "keep"
    state.apply("keep")
    rng = random.Random(2)
    while not state.is_terminal():
        seat = state.current_seat()
        text = runner(state.view(seat), rng)
        assert text in {a.text() for a in state.legal_actions()}
        state.apply(text)
    assert state.outcome().reason == "connected"  # two racers: the first to arrive wins


@pytest.mark.parametrize("swamps", ["on", "off"])
def test_every_runner_pylon_shortens_its_own_connection_by_one(swamps):
    """Against random pylons, until it connects: one pylon nearer every move."""
    state = GAME.new_state(2, 8, {"swamps": swamps})
    if swamps == "on":
        state.apply("keep")
    rng = random.Random(3)
    runner_moves = 0
    while not state.is_terminal():
        seat = state.current_seat()
        if seat == 1:
            state.apply(state.sample_action(rng))
            continue
        before = Racer(state, 0).distance()
        state.apply(runner(state.view(0), rng))
        runner_moves += 1
        if not state.is_terminal():
            assert Racer(state, 0).distance() == before - 1
    assert state.outcome().winners == (0,) and state.outcome().reason == "connected"
    assert runner_moves <= 30


@pytest.mark.parametrize("normal_seat", [0, 1])
@pytest.mark.parametrize("seed", [504, 1025, 1028])
def test_normal_beats_the_runner(seed, normal_seat):
    """Seed 504 is where a one-move-deep `normal` was first seen losing to a racing chain
    down columns H-L; 1025 and 1028 are deals it lost from both seats."""
    assert race("normal", seed, "on", normal_seat) == (normal_seat,)
