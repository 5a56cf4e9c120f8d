"""Sector 6 over random games: every game ends, replays from its seed and history, survives
JSON, keeps every tile and marker accounted for, and never shows a seat what it may not see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.board import sides_of
from games.sector6.rules.ending import (
    END_CLOCK,
    END_DEAD,
    END_HELD,
    END_LIMIT,
    END_REASONS,
    dead_markers,
    quiet_turns,
)
from games.sector6.rules.state import BUILD, MODES, OVER, PLAY


def check_books(state: Sector6State) -> None:
    """Everything the state keeps incrementally agrees with a recount from scratch."""
    rules = state.rules
    on_table = [p for p in range(len(rules.tiles)) if state.where[p] >= 0]
    assert sorted(on_table) == sorted(state.order)
    for piece in state.order:
        cell = state.where[piece]
        assert state.piece_at[cell] == piece
        tile = rules.tiles[piece]
        assert len(sides_of(state.walls[cell])) == tile.value  # turning keeps every wall
    assert sum(p >= 0 for p in state.piece_at) == len(state.order)
    for seat in range(state.seats):
        placed = [p for p in state.order if state.placer[p] == seat and rules.tiles[p].value]
        drawn = int(state.drawn >= 0 and state.seat == seat)
        assert len(placed) + drawn + state.supply_left(seat) == len(state.supplies[seat])
        entries = [p for p in state.order if rules.tiles[p].owner == seat]
        assert len(entries) + state.entries_left(seat) == rules.entries_per_player
    if state.phase == BUILD:
        assert not any(state.marker) and not any(any(c) for c in state.collected)
        return
    for value in rules.values:
        tiles = sum(1 for p in state.order if rules.tiles[p].value == value)
        on_board = sum(1 for c in state.maze_cells if state.marker[c] == value)
        collected = sum(c[value] for c in state.collected)
        assert on_board + collected == tiles, value
    cells = [c for seat in range(state.seats) for c in state.prisoners[seat]]
    assert len(cells) == len(set(cells)) == rules.entries_per_player * state.seats
    for seat in range(state.seats):
        for cell in state.prisoners[seat]:
            assert state.prisoner[cell] == seat + 1 and state.piece_at[cell] >= 0
    assert sum(1 for p in state.prisoner if p) == len(cells)
    if state.phase == OVER:
        free = state.free_markers()
        assert free == 0 or state.end_reason != END_HELD
        if state.end_reason == END_DEAD:
            assert free > 0 and len(dead_markers(state)) == free
        if state.end_reason == END_CLOCK:
            assert quiet_turns(state) == state.rules.clock_rounds * state.seats


def check_views(state: Sector6State) -> None:
    """Views are JSON, never carry the seed or a supply, and show a drawn face to its drawer
    only; a view rebuilds a position that looks the same from that seat."""
    for seat in [None, *range(state.seats)]:
        view = state.view(seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert "seed" not in view and "supplies" not in text
        drawn = view["drawn"]
        if drawn is not None and seat != drawn["seat"]:
            assert drawn == {"seat": state.seat}
        if seat is not None and not state.is_terminal():
            rebuilt = Sector6State.from_view(view, random.Random(seat))
            assert rebuilt.view(seat) == view


def play(seats: int, seed: int, mode: str, checks_every: int = 0) -> Sector6State:
    state = GAME.new_state(seats, seed, {"mode": mode})
    rng = random.Random(seed)
    for n in range(3000):
        if state.is_terminal():
            return state
        action = state.sample_action(rng)
        if n % 23 == 0:
            assert action in state.legal_actions()
        state.apply(action)
        if checks_every and n % checks_every == 0:
            check_books(state)
    raise AssertionError("a random game did not end")


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    seats=st.integers(2, 4),
    mode=st.sampled_from(MODES),
)
def test_random_games_end_replay_and_survive_json(seed, seats, mode):
    state = play(seats, seed, mode, checks_every=11)
    check_books(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason in END_REASONS
    assert outcome.reason != END_LIMIT  # the backstop: the end rules come first
    assert GAME.replay(seats, seed, state.history, {"mode": mode}) == state
    assert GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert state.legal_actions() == [] and state.current_seat() is None


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    seats=st.integers(2, 4),
    mode=st.sampled_from(MODES),
    stop=st.integers(0, 160),
)
def test_positions_mid_game_round_trip_and_keep_secrets(seed, seats, mode, stop):
    state = GAME.new_state(seats, seed, {"mode": mode})
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    check_books(state)
    check_views(state)
    again = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and again.view(None) == state.view(None)
    copy = state.copy()
    assert copy == state
    if not copy.is_terminal():
        copy.apply(copy.sample_action(random.Random(1)))
        assert copy != state  # the copy shares no list with the original


def test_the_drawn_phase_is_covered_by_the_view_checks():
    """A drawn tile sits in the state for a moment only; check that moment explicitly."""
    state = GAME.new_state(4, 77)
    state.apply("draw")
    check_views(state)
    check_books(state)


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    a, b = GAME.new_state(3, 5), GAME.new_state(3, 5)
    assert a == b and a.to_dict() == b.to_dict()
    assert GAME.new_state(3, 6) != a


def test_competition_phases_are_reached_in_every_mode():
    for mode in MODES:
        state = GAME.new_state(2, 8, {"mode": mode})
        rng = random.Random(8)
        while state.phase == BUILD:
            state.apply(state.sample_action(rng))
        assert state.phase in (PLAY, OVER)
        check_books(state)


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("history", ["draw", "draw"], "does not replay"),
        ("collected", [[0, 9, 0, 0, 0], [0, 0, 0, 0, 0]], "disagrees with its history"),
        ("format", "pylons-state", "Not a Sector 6 state"),
        ("version", 99, "version 99 is not supported"),
        ("quiet_since", 3, "disagrees with its history"),
        ("supplies", [[0, 0], [1]], "supply 0"),
    ],
)
def test_a_tampered_save_is_refused(key, value, problem):
    state = play(2, 3, "full")
    data = json.loads(json.dumps(state.to_dict()))
    data[key] = value
    with pytest.raises(ValueError, match=problem):
        GAME.state_from_dict(data)


def test_a_save_without_a_field_is_refused():
    data = GAME.new_state(2, 1).to_dict()
    del data["supplies"]
    with pytest.raises(ValueError, match="incomplete or malformed"):
        GAME.state_from_dict(data)
