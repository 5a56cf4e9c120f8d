"""Sector 6's end rules: markers out of reach, the oxygen clock, saves from before them, and
the construction fallback that keeps novice mazes whole.

The dead-marker test is checked against an exhaustive search of the positions reachable on
small boards (`reachable`, written here from the rules and not from the engine's code): a
marker the engine calls dead must be one no prisoner can ever stand on."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sector6_positions import LAYOUTS, position

from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.board import opposite, turn_mask
from games.sector6.rules.ending import (
    END_CLOCK,
    END_DEAD,
    END_LIMIT,
    dead_markers,
    live_cells,
    quiet_turns,
)
from games.sector6.rules.state import MOVE_STEP, OVER, PLAY

# ---------------------------------------------------------------------- brute force

Walls = dict[int, int]  # cell -> closed sides, for every cell holding a piece


def _lines(state: Sector6State, walls: Walls, prisoners: frozenset[int]) -> Iterator[tuple]:
    """(from, to) of every move any prisoner could make: straight out through a side open on
    both tiles, over tiles only, never through or onto a prisoner."""
    neighbour = state.table.neighbour
    for a in prisoners:
        for side in range(6):
            if walls[a] >> side & 1:
                continue
            n = neighbour[a][side]
            while n in walls and not walls[n] >> opposite(side) & 1 and n not in prisoners:
                yield a, n
                if walls[n] >> side & 1:
                    break
                n = neighbour[n][side]


def _turned(state: Sector6State, walls: Walls, cell: int, steps: int, gears: bool) -> Walls:
    """`walls` after turning `cell` by `steps` sixths; with gears, every neighbour whose wall
    meets a wall of `cell` (judged before) turns the other way, one level deep."""
    after = dict(walls)
    after[cell] = turn_mask(walls[cell], steps)
    if gears:
        for side, n in enumerate(state.table.neighbour[cell]):
            if n in walls and walls[cell] >> side & 1 and walls[n] >> opposite(side) & 1:
                after[n] = turn_mask(walls[n], 6 - steps)
    return after


def reachable(state: Sector6State, limit: int = 40_000) -> tuple[set[int], bool]:
    """Every cell some prisoner stands on in some position reachable from `state`, and
    whether the search was exhaustive (it stops after `limit` positions).

    The search is looser than the game, so it finds at least everything the game can reach:
    any prisoner may move at any time (turn order, markers and whether a player is blocked
    are ignored), the tile it left may then turn either way, and a tile under a prisoner may
    turn either way at any time (the blocked player's rotations)."""
    rotations, gears = state.rotations, state.gears
    walls0 = {c: state.walls[c] for c in range(state.table.cells) if state.piece_at[c] >= 0}
    cells = sorted(walls0)
    start = (tuple(walls0[c] for c in cells), frozenset(c for s in state.prisoners for c in s))
    seen = {start}
    todo = [start]
    stood: set[int] = set(start[1])
    while todo:
        packed, prisoners = todo.pop()
        walls = dict(zip(cells, packed, strict=True))
        nexts: list[tuple[Walls, frozenset[int]]] = []
        for a, b in _lines(state, walls, prisoners):
            moved = prisoners - {a} | {b}
            nexts.append((walls, moved))
            if rotations:
                nexts += [(_turned(state, walls, a, k, gears), moved) for k in (1, 5)]
        if rotations:
            for c in prisoners:
                nexts += [(_turned(state, walls, c, k, gears), prisoners) for k in (1, 5)]
        for walls_after, prisoners_after in nexts:
            key = (tuple(walls_after[c] for c in cells), prisoners_after)
            if key in seen:
                continue
            if len(seen) >= limit:
                return stood, False
            seen.add(key)
            stood |= prisoners_after
            todo.append(key)
    return stood, True


# ---------------------------------------------------------------------- small positions

WINDOW = [f"{col}{row}" for col in "CDEF" for row in range(3, 7)]  # 16 cells, 4 x 4


@st.composite
def small_positions(draw: st.DrawFn) -> Sector6State:
    """3-8 pieces on a 4 x 4 patch of the table (gaps allowed), 1-3 prisoners on them."""
    mode = draw(st.sampled_from(["full", "veteran", "novice"]))
    cells = draw(st.lists(st.sampled_from(WINDOW), min_size=3, max_size=8, unique=True))
    entries = draw(st.integers(0, min(3, len(cells) - 1)))
    tiles: dict[str, tuple[str, int]] = {}
    left = {layout: 4 for layout in LAYOUTS}  # the box holds at least four of each
    for k, label in enumerate(cells):
        if k < entries:
            tiles[label] = ("entry", k % 2)
            continue
        layout = draw(st.sampled_from(sorted(name for name, n in left.items() if n)))
        left[layout] -= 1
        tiles[label] = (layout, draw(st.integers(0, 5)))
    count = draw(st.integers(1, min(3, len(cells))))
    held = draw(st.lists(st.sampled_from(cells), min_size=count, max_size=count, unique=True))
    prisoners = {0: held[::2], 1: held[1::2]}
    return position(tiles, prisoners=prisoners, mode=mode)


def check_dead_is_never_reached(state: Sector6State) -> None:
    dead = dead_markers(state)
    if not dead:
        return
    stood, _ = reachable(state)
    assert not stood & set(dead), [state.name(c) for c in stood & set(dead)]


@settings(max_examples=60, deadline=None)
@given(small_positions())
def test_a_marker_called_dead_is_never_reached(state):
    check_dead_is_never_reached(state)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(small_positions())
def test_a_marker_called_dead_is_never_reached_in_many_positions(state):
    check_dead_is_never_reached(state)


@pytest.mark.slow
def test_small_positions_do_have_dead_markers_and_the_search_finds_the_rest():
    """The property above is not empty: its positions have dead markers in every mode, and
    the search is strong enough to reach tiles the test calls live (most of them)."""
    rng = random.Random(6)
    dead_seen = {"full": 0, "veteran": 0, "novice": 0}
    live_reached = live_total = 0
    for _ in range(300):
        mode = rng.choice(sorted(dead_seen))
        cells = rng.sample(WINDOW, rng.randint(3, 7))
        layouts = rng.sample(sorted(LAYOUTS) * 2, len(cells) - 1)  # at most twice each
        pairs = zip(cells[1:], layouts, strict=True)
        tiles = {c: (layout, rng.randrange(6)) for c, layout in pairs}
        tiles[cells[0]] = ("entry", 0)
        state = position(tiles, prisoners={0: [cells[0]]}, mode=mode)
        dead = set(dead_markers(state))
        dead_seen[mode] += len(dead)
        stood, complete = reachable(state)
        assert not stood & dead
        if complete:
            live = {c for c in state.maze_cells if c not in dead}
            live_total += len(live)
            live_reached += len(live & stood)
    assert min(dead_seen.values()) >= 20, dead_seen
    assert live_reached >= 0.6 * live_total


# ---------------------------------------------------------------------- dead markers

# C2 is seat 0's entry point with its prisoner; C3 (one wall, on its SE side) lies south of
# it; D3 (one wall, NW) lies south-east of C3, every other side of D3 facing a gap. Seat 1's
# prisoner waits on an entry point far away (H8), where it cannot move.
SEALED = {
    "C2": ("entry", 0),
    "C3": ("single", 2),
    "D3": ("single", 5),
    "H8": ("entry", 1),
}


def sealed(mode: str, **changes: tuple[str, int]) -> Sector6State:
    return position({**SEALED, **changes}, prisoners={0: ["C2"], 1: ["H8"]}, mode=mode)


def dead_names(state: Sector6State) -> set[str]:
    return {state.name(c) for c in dead_markers(state)}


def test_a_tile_showing_only_walls_and_gaps_is_dead_without_gears():
    """D3's only wall faces C3 and its open sides face gaps: nothing can ever walk in. With
    gears, C3 can be turned until its wall meets D3's and turns it: D3 is live."""
    assert dead_names(sealed("novice")) == {"D3"}
    assert sealed("novice").view(None)["markers"]["dead_cells"] == ["D3"]
    assert dead_names(sealed("veteran")) == {"D3"}
    assert dead_names(sealed("full")) == set()


def test_a_tile_open_towards_a_tile_that_may_turn_is_live_unless_novice():
    """D3 now opens towards C3 while C3 shows it a wall: a prisoner on C3 can turn C3 and walk
    in (veteran, full), but in novice mode walls never move."""
    state = sealed("veteran", D3=("single", 3))  # D3's wall on its S side, facing a gap
    assert dead_names(state) == set()
    assert dead_names(sealed("full", D3=("single", 3))) == set()
    assert dead_names(sealed("novice", D3=("single", 3))) == {"D3"}


def test_a_wall_facing_an_entry_point_turns_no_gear():
    """With C3 an entry point (no walls, so no gears), D3 is sealed even in full mode; a maze
    tile there could gear it round."""
    assert dead_names(sealed("full", C3=("entry", 0))) == {"D3"}
    assert dead_names(sealed("full")) == set()


def test_a_prisoner_inside_a_group_keeps_it_live():
    """D4 lies south of D3, open towards it (its one wall on its S side, facing a gap). With a
    prisoner on D3 the way into D4 is open; without one, D3 and D4 are a group whose open
    sides face only each other and gaps, and whose one wall towards the maze (D3's NW) meets
    C3: sealed for good without gears."""
    tiles = {**SEALED, "D4": ("single", 3)}
    state = position(tiles, prisoners={0: ["C2", "D3"], 1: ["H8"]}, mode="veteran")
    assert dead_names(state) == set()
    state = position(tiles, prisoners={0: ["C2"], 1: ["H8"]}, mode="veteran")
    assert dead_names(state) == {"D3", "D4"}
    tiles["D4"] = ("single", 0)  # D4's wall faces D3: it shuts itself in, prisoner or not
    state = position(tiles, prisoners={0: ["C2", "D3"], 1: ["H8"]}, mode="veteran")
    assert dead_names(state) == {"D4"}


@pytest.mark.parametrize("mode", ["novice", "veteran"])
def test_moving_onto_the_last_live_marker_ends_the_game_as_out_of_reach(mode):
    state = sealed(mode)
    state.apply("move C2 C3")
    assert state.phase == OVER and state.end_reason == END_DEAD
    outcome = state.outcome()
    assert outcome.details["taken_at_end"] == [[1], []]  # C3's marker, under the prisoner
    assert outcome.details["left_on_board"]["1"] == 1  # D3's, out of reach: no one's
    assert outcome.details["out_of_reach"] == 1
    assert outcome.scores == (1, 0)


def test_with_gears_the_same_move_does_not_end_the_game():
    state = sealed("full")
    state.apply("move C2 C3")
    assert state.phase == PLAY
    assert state.view(None)["markers"] == {"free": 1, "held": 1, "dead": 0, "dead_cells": []}


@pytest.mark.parametrize("mode", ["full", "veteran"])
def test_a_rotation_that_seals_the_last_free_marker_ends_the_game(mode):
    """Seat 0's prisoner leaves D3 (one wall, N) for the entry point C3 and turns D3 left:
    D3's wall now faces C3, an entry point, and its open sides only gaps."""
    tiles = {"C3": ("entry", 0), "D3": ("single", 0), "H8": ("entry", 1)}
    state = position(tiles, prisoners={0: ["D3"], 1: ["H8"]}, mode=mode)
    state.apply("move D3 C3")
    assert state.phase == PLAY and state.view(None)["markers"]["free"] == 1
    state.apply("rotate left")
    assert state.phase == OVER and state.end_reason == END_DEAD
    assert state.outcome().scores == (0, 0)


def test_the_dead_test_stops_early_but_agrees_with_the_full_search():
    state = sealed("full")
    full = live_cells(state)
    quick = live_cells(state, stop_at_free_marker=True)
    assert all(quick[c] <= full[c] for c in range(state.table.cells))


# ---------------------------------------------------------------------- the oxygen clock

# A north-south corridor of one-wall tiles in column C (walls NE); seat 0 starts on C2, seat
# 1 on an entry point (A2) that touches nothing, so it only ever turns A2 (a blocked turn).
CORRIDOR = {f"C{row}": ("single", 1) for row in range(2, 8)} | {"A2": ("entry", 1)}


def corridor() -> Sector6State:
    return position(CORRIDOR, prisoners={0: ["C2"], 1: ["A2"]}, mode="full")


def shuttle(state: Sector6State, rounds: int, collect_at: int | None = None) -> None:
    """Seat 0 goes C2 -> C3 -> C2 ... (stepping onto markers, collecting only in round
    `collect_at`); seat 1 turns A2 twice. One call plays `rounds` full rounds."""
    for k in range(rounds):
        here = state.name(state.prisoners[0][0])
        there = "C3" if here == "C2" else "C2"
        state.apply(f"move {here} {there}")
        state.apply("collect" if k == collect_at else "done")
        if state.is_terminal():
            return
        state.apply("rotate A2 left")
        state.apply("rotate A2 left")


def test_twelve_rounds_without_a_collection_end_the_competition():
    state = corridor()
    assert state.rules.clock_rounds == 12 and state.rules.clock_shown_from == 8
    shuttle(state, 6)
    clock = state.view(None)["oxygen_clock"]
    assert clock["rounds_passed"] == 6 and not clock["shown"]
    shuttle(state, 1)
    clock = state.view(None)["oxygen_clock"]
    assert clock["shown"] and clock["rounds_left"] == 5 and clock["turns_left"] == 10
    shuttle(state, 4)
    assert state.view(0)["oxygen_clock"]["rounds_left"] == 1  # the last round
    assert not state.is_terminal()
    here = state.name(state.prisoners[0][0])
    state.apply(f"move {here} {'C3' if here == 'C2' else 'C2'}")
    state.apply("done")
    assert not state.is_terminal()  # seat 1 has not played its twelfth turn yet
    state.apply("rotate A2 left")
    state.apply("rotate A2 left")
    assert state.phase == OVER and state.end_reason == END_CLOCK
    assert quiet_turns(state) == 24
    outcome = state.outcome()
    assert outcome.details["taken_at_end"] == [[1], []]  # the marker under seat 0's prisoner
    assert outcome.details["left_on_board"]["1"] == 5  # the free ones go to no one
    assert outcome.details["out_of_reach"] == 0
    assert not state.view(None)["oxygen_clock"]["shown"]  # over: no clock to show


def test_collecting_sets_the_clock_back_and_stepping_onto_a_marker_does_not():
    state = corridor()
    shuttle(state, 10)  # every round steps onto a marker
    assert state.view(None)["oxygen_clock"]["rounds_passed"] == 10
    shuttle(state, 1, collect_at=0)
    assert state.view(None)["oxygen_clock"]["rounds_passed"] == 0
    shuttle(state, 11)
    assert state.phase == PLAY  # 11 quiet rounds since the collection
    shuttle(state, 1)
    assert state.end_reason == END_CLOCK


def played(seed: int, mode: str, until: int, legacy: bool = False, quiet: int = 0) -> Sector6State:
    """A random game of two, `until` competition turns in and `quiet` turns after its last
    collection, at the start of a turn (or over); `legacy` plays it as the engine did before
    the end rules, with only the rulebook's end and the turn limit."""
    state = GAME.new_state(2, seed, {"mode": mode})
    if legacy:
        state.ending_from = 10**9
    rng = random.Random(seed)
    while not state.is_terminal() and (
        state.play_turns < until or quiet_turns(state) < quiet or state.step != MOVE_STEP
    ):
        state.apply(state.sample_action(rng))
    return state


def test_the_clock_survives_saving_cloning_and_views():
    state = played(4, "full", 40)
    assert state.phase == PLAY and quiet_turns(state) > 0
    again = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.quiet_since == state.quiet_since
    assert again.view(None)["oxygen_clock"] == state.view(None)["oxygen_clock"]
    copy = state.copy()
    assert copy.view(1)["oxygen_clock"] == state.view(1)["oxygen_clock"]
    rebuilt = Sector6State.from_view(state.view(0), random.Random(0))
    assert rebuilt.quiet_since == state.quiet_since


def as_version_1(data: dict) -> dict:
    """A save as the engine wrote it before the end rules: version 1, no clock fields."""
    old = {k: v for k, v in data.items() if k not in ("quiet_since", "ending_rules_from")}
    old["version"] = 1
    return old


def test_a_game_saved_before_the_end_rules_loads_and_follows_them_from_there():
    """Played under the old ending, this game idled far past twelve rounds without a
    collection; loaded, it replays as it was played, then the clock (counting from its last
    collection) ends it at the next turn's end."""
    state = played(11, "full", 0, legacy=True, quiet=30)
    assert state.phase == PLAY and quiet_turns(state) >= 30
    loaded = GAME.state_from_dict(as_version_1(json.loads(json.dumps(state.to_dict()))))
    assert loaded.phase == PLAY and loaded.history == state.history
    assert loaded.ending_from == len(state.history)
    resaved = GAME.state_from_dict(json.loads(json.dumps(loaded.to_dict())))
    assert resaved == loaded and resaved.ending_from == loaded.ending_from
    view = loaded.view(loaded.current_seat())
    assert Sector6State.from_view(view, random.Random(1)).view(view["viewer"]) == view
    loaded.apply(loaded.legal_actions()[0])  # a move
    loaded.apply("done")
    assert loaded.end_reason == END_CLOCK


def test_a_game_finished_before_the_end_rules_still_loads_as_it_ended():
    state = played(11, "full", 10**6, legacy=True)
    assert state.end_reason == END_LIMIT and state.play_turns == 2 * 100  # the old backstop
    loaded = GAME.state_from_dict(as_version_1(json.loads(json.dumps(state.to_dict()))))
    assert loaded.phase == OVER and loaded.outcome() == state.outcome()


# ---------------------------------------------------------------------- construction


def test_seed_1035_novice_keeps_the_galleries_rule_and_the_maze_whole():
    """The seed 1035 deal for two in novice mode, built by random choices that bring the 11th
    tile (a two-wall tile with facing walls) where no cell touching two pieces can join it to
    a corridor. Every placement offered then still joins an open side to an open side,
    touching one piece only; the old fallback, dropping the galleries rule, offered only
    placements that join nothing. At the end no tile is walled off: every marker is live."""
    state = GAME.new_state(2, 1035, {"mode": "novice"})
    rng = random.Random(4404)
    tiles = 0
    while state.phase != PLAY:
        if state.step == "place" and tiles == 10:
            base = state.rules.tiles[state.drawn].walls
            two = [c for c in state.frontier() if state._touching(c) >= 2]
            assert not any(state._joins(c, turn_mask(base, r)) for c in two for r in range(6))
            offered = state.placements(state.drawn)
            assert offered and all(state._joins(c, turn_mask(base, r)) for c, r in offered)
            assert all(state._touching(c) == 1 for c, _ in offered)
        action = state.sample_action(rng)
        state.apply(action)
        tiles += action.text().startswith("place ") and "entry" not in action.text()
    assert tiles == 28
    assert dead_markers(state) == []
    assert state.view(None)["markers"] == {"free": 28, "held": 0, "dead": 0, "dead_cells": []}
