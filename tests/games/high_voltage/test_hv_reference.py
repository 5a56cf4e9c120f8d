"""The fixed High Voltage reference opponent (the greedy line closer): it plays legally, from
its own view only, closes and declares the lines that pay it, and is no level players choose."""

from __future__ import annotations

import random

import pytest
from hv_positions import GAME, build, close_by_rotating, route
from test_hv_ai import hidden_variant, positions

from engine.ai import levels
from games.high_voltage.ai import reference
from games.high_voltage.rules import parse_action


def test_the_reference_player_is_not_a_level_players_can_choose():
    assert reference.NAME not in levels("high-voltage")


def test_the_reference_player_decides_legally_and_from_its_view_only():
    rng = random.Random(5)
    for i, state in enumerate(positions(20, seed=31)):
        seat = state.current_seat()
        text = reference.decide(state.view(seat), random.Random(i))
        assert parse_action(text) in set(state.legal_actions()), text
        other = hidden_variant(state, seat, rng)
        assert reference.decide(other.view(seat), random.Random(i)) == text
    with pytest.raises(ValueError, match="own seat"):
        reference.decide(state.view(None), random.Random(0))


def test_the_reference_player_closes_and_declares_its_own_lines_only():
    layout = route(["A1", "A2", "A3", "A4"], "N", "W")  # pays red 6 and no one else
    card, right, _ = layout["A4"]
    away = 90 * GAME.new_state(2, 1).cards.legal_turns[card][right // 90][0]
    for colour, closes, declares in (
        ("red", f"rotate A4 r{right}", "declare S1-S28"),
        ("blue", "draw", "declare none"),
    ):
        options = {"colours": [colour, "green"], "empty": "G1"}
        state = build({**layout, "A4": (card, away)}, **options)
        assert reference.decide(state.view(0), random.Random(0)).startswith(closes)
        state = close_by_rotating({**layout, "A4": (card, right)}, "A4", away, **options)
        assert state.phase == "declaring"
        assert reference.decide(state.view(0), random.Random(0)) == declares
