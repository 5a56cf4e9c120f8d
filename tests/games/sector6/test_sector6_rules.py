"""Sector 6 rules, scenario by scenario: labels and action texts, movement, gears, the
blocked rule, construction, the end, who takes what, and the tie-breaks."""

from __future__ import annotations

import json
import random

import pytest
from sector6_positions import position, walls_after

from engine import ActionSyntaxError, IllegalActionError
from games import find_game
from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.actions import (
    Collect,
    Done,
    Draw,
    Move,
    Pass,
    Place,
    PlaceEntry,
    Rotate,
    parse_action,
)
from games.sector6.rules.board import DIRECTIONS, grid, opposite
from games.sector6.rules.rules_data import default_rules
from games.sector6.rules.state import ACT_STEP, BLOCKED_STEP, MOVE_STEP, OVER, PLAY


def names(state: Sector6State, cells) -> set[str]:
    return {state.name(c) for c in cells}


def walls(state: Sector6State, label: str) -> set[str]:
    tile = next(t for t in state.view(None)["tiles"] if t["cell"] == label)
    return set(tile["walls"])


# ---------------------------------------------------------------------- labels and texts


def test_the_game_is_registered_with_its_mode_option():
    game = find_game("Sector 6")
    assert game is GAME and find_game("s6") is GAME
    (spec,) = game.options
    assert spec.name == "mode" and spec.default == "full"
    assert spec.choices == ("full", "veteran", "novice")
    with pytest.raises(ValueError, match="must be one of full, veteran, novice"):
        game.new_state(2, 1, {"mode": "easy"})
    with pytest.raises(ValueError, match="2-4 players"):
        game.new_state(5, 1)


def test_labels_name_every_cell_once_and_read_back_in_any_case():
    table = default_rules().grid
    assert len(set(table.names)) == table.cells
    for c in (0, 57, table.cells - 1):
        name = table.names[c]
        assert table.parse(name) == c and table.parse(name.lower()) == c
        assert table.cell_of(*table.axial(c)) == c
    assert table.parse("c 4") == table.index["C4"]
    assert table.parse("Z1") is None and table.parse("C0") is None and table.parse("4C") is None


def test_neighbours_are_mutual_through_opposite_sides():
    table = grid(9, 9)
    for c in range(table.cells):
        for side, n in enumerate(table.neighbour[c]):
            if n >= 0:
                assert table.neighbour[n][opposite(side)] == c
                dq, dr = DIRECTIONS[side]
                assert table.axial(n) == (table.q[c] + dq, table.r[c] + dr)


def test_every_second_column_sits_half_a_cell_lower():
    """C4's neighbours on the east are D3 and D4; D4's are E4 and E5."""
    table = default_rules().grid
    around = [table.names[n] for n in table.neighbour[table.index["C4"]]]
    assert around == ["C3", "D3", "D4", "C5", "B4", "B3"]
    around = [table.names[n] for n in table.neighbour[table.index["D4"]]]
    assert around == ["D3", "E4", "E5", "D5", "C5", "C4"]


@pytest.mark.parametrize(
    ("text", "action", "canonical"),
    [
        ("draw", Draw(), "draw"),
        ("Place c4 R120", Place("C4", 2), "place C4 r120"),
        ("place tile C4 r2", Place("C4", 2), "place C4 r120"),
        ("place C4 300", Place("C4", 5), "place C4 r300"),
        ("place entry d7", PlaceEntry("D7"), "place entry D7"),
        ("entry D7", PlaceEntry("D7"), "place entry D7"),
        ("move C4 C7", Move("C4", "C7"), "move C4 C7"),
        ("move c4 to c12", Move("C4", "C12"), "move C4 C12"),
        ("collect", Collect(), "collect"),
        ("rotate left", Rotate(None, False), "rotate left"),
        ("rotate C4 cw", Rotate("C4", True), "rotate C4 right"),
        ("turn c 4 anticlockwise", Rotate("C4", False), "rotate C4 left"),
        ("done", Done(), "done"),
        ("skip", Done(), "done"),
        ("PASS", Pass(), "pass"),
    ],
)
def test_action_texts_read_back(text, action, canonical):
    assert parse_action(text) == action
    assert action.text() == canonical
    assert parse_action(canonical) == action


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("jump C4", "not an action"),
        ("place C4", "a cell and a rotation"),
        ("place C4 r90", "not a rotation"),
        ("move C4", "move takes"),
        ("move C4 7C", "not a cell"),
        ("rotate C4 up", "not a direction"),
        ("collect C4", "collect takes nothing"),
    ],
)
def test_text_that_is_no_action_says_why(text, why):
    with pytest.raises(ActionSyntaxError, match=why) as caught:
        parse_action(text)
    assert "Examples:" in str(caught.value)


# ---------------------------------------------------------------------- movement

# A north-south corridor in column C: single-wall tiles turned so the wall faces NE.
CORRIDOR = {f"C{row}": ("single", 1) for row in range(2, 8)}


def corridor(**changes) -> Sector6State:
    tiles = dict(CORRIDOR)
    tiles["A2"] = ("entry", 1)
    for label, tile in changes.items():
        if tile is None:
            tiles.pop(label)
        else:
            tiles[label] = tile
    return position(tiles, prisoners={0: ["C2"], 1: ["A2"]})


def reach(state: Sector6State, label: str) -> set[str]:
    return names(state, state.reach(state.table.index[label]))


def test_a_prisoner_goes_any_distance_in_a_straight_line():
    state = corridor()
    assert reach(state, "C2") == {"C3", "C4", "C5", "C6", "C7"}
    state.apply("move C2 C7")
    assert state.view(None)["players"][0]["prisoners"] == ["C7"]
    assert state.step == ACT_STEP and state.view(None)["pending"] == "C2"


def test_a_wall_on_the_far_side_of_a_tile_stops_the_line_there():
    state = corridor(C5=("single", 3))  # wall on C5's S side
    assert reach(state, "C2") == {"C3", "C4", "C5"}
    with pytest.raises(IllegalActionError, match="C5 has a wall on its S side: the line ends"):
        state.apply("move C2 C6")


def test_a_wall_on_the_near_side_of_the_next_tile_blocks_too():
    state = corridor(C6=("single", 0))  # wall on C6's N side, C5 open
    assert reach(state, "C2") == {"C3", "C4", "C5"}
    with pytest.raises(IllegalActionError, match="C6 has a wall on its N side"):
        state.apply("move C2 C7")


def test_a_wall_on_the_starting_tile_blocks_that_way_out():
    tiles = {**CORRIDOR, "C2": ("single", 3), "A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C2", "C7"], 1: ["A2"]})
    assert reach(state, "C2") == set()
    with pytest.raises(IllegalActionError, match="C2 has a wall on its S side"):
        state.apply("move C2 C3")


def test_a_gap_blocks():
    state = corridor(C5=None)
    assert reach(state, "C2") == {"C3", "C4"}
    with pytest.raises(IllegalActionError, match="no tile on C5: prisoners cannot cross a gap"):
        state.apply("move C2 C6")


def test_prisoners_block_passing_and_landing():
    state = position({**CORRIDOR, "A2": ("entry", 1)}, prisoners={0: ["C2"], 1: ["C5"]}, seat=0)
    assert reach(state, "C2") == {"C3", "C4"}
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="stands on C5: no prisoner may pass through"):
        state.apply("move C2 C6")
    with pytest.raises(IllegalActionError, match="stands on C5: no prisoner may stop on"):
        state.apply("move C2 C5")
    assert state.to_dict() == before


def test_own_prisoners_block_as_well():
    state = position(dict(CORRIDOR), prisoners={0: ["C2", "C4"], 1: []})
    assert reach(state, "C2") == {"C3"}


def test_moves_run_in_straight_lines_only():
    state = corridor(D3=("single", 1), B2=("entry", 1))
    with pytest.raises(IllegalActionError, match="not in a straight line") as caught:
        state.apply("move C2 D4")
    assert "Moves you can make: from C2:" in str(caught.value)
    with pytest.raises(IllegalActionError, match="at least one tile"):
        state.apply("move C2 C2")


def test_a_diagonal_line_works_like_any_other():
    """C4 NE D3 NE E3 NE F2: the odd columns' offsets are handled by axial steps."""
    tiles = {label: ("single", 0) for label in ("C4", "D3", "E3", "F2")}
    tiles["A1"] = ("entry", 1)
    state = position(tiles, prisoners={0: ["C4"], 1: ["A1"]})
    assert reach(state, "C4") == {"D3", "E3", "F2"}


def test_only_your_own_prisoner_moves():
    state = corridor()
    with pytest.raises(IllegalActionError, match="someone else's prisoner"):
        state.apply("move A2 B2")
    with pytest.raises(IllegalActionError, match="C3 holds no prisoner: your prisoners are on C2"):
        state.apply("move C3 C4")


def test_collect_takes_the_marker_of_the_tile_left_and_ends_the_turn():
    state = corridor()
    state.apply("move C2 C4")
    assert {a.text() for a in state.legal_actions()} == {
        "collect",
        "rotate C2 left",
        "rotate C2 right",
        "done",
    }
    state.apply("collect")
    view = state.view(None)
    assert view["players"][0]["collected"]["1"] == 1 and view["scores"][0] == 1
    assert state.marker[state.table.index["C2"]] == 0
    assert state.current_seat() == 1
    assert view["last"]["actions"] == ["move C2 C4", "collect"]


def test_collecting_an_empty_tile_is_refused_and_changes_nothing():
    state = corridor()
    state.marker[state.table.index["C2"]] = 0
    state.apply("move C2 C3")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="C2 has no oxygen marker left: now rotate"):
        state.apply("collect")
    assert state.to_dict() == before


def test_moving_twice_in_a_turn_is_refused():
    state = corridor()
    state.apply("move C2 C3")
    with pytest.raises(IllegalActionError, match="moved this turn already: now collect"):
        state.apply("move C3 C4")


def test_only_the_tile_just_left_may_be_turned_after_a_move():
    state = corridor()
    state.apply("move C2 C4")
    with pytest.raises(IllegalActionError, match=r"Only the tile your prisoner just left \(C2\)"):
        state.apply("rotate C3 left")
    state.apply("rotate left")
    assert state.history[-1] == "rotate C2 left"
    assert walls(state, "C2") == {"N"}


# ---------------------------------------------------------------------- gears

# C4 has walls N, SE, SW. C3 (walls N and S) meets it with its S wall; C2's S wall meets C3's
# N wall; D4's NW wall meets C4's SE wall; C5's N wall faces C4's open S side; B4's N wall
# is not on the side it shares with C4 (B4's NE side is open). D3 is an empty entry point.
GEARS = {
    "C4": ("alternating", 0),
    "C3": ("facing", 0),
    "C2": ("single", 3),
    "D4": ("single", 5),
    "C5": ("single", 0),
    "B4": ("single", 0),
    "D3": ("entry", 0),
    "A1": ("entry", 1),
}


def test_the_gear_scenario_is_laid_as_described():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    assert walls(state, "C4") == {"N", "SE", "SW"}
    assert walls(state, "C3") == {"N", "S"}
    assert walls(state, "C2") == {"S"} and walls(state, "D4") == {"NW"}
    assert walls(state, "C5") == {"N"} and walls(state, "B4") == {"N"}


def test_meshing_gears_turn_the_other_way_one_level_deep_judged_before():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    state.apply("move C4 D3")
    state.apply("rotate right")
    assert walls(state, "C4") == {"NE", "S", "NW"}  # turned clockwise
    assert walls(state, "C3") == {"NW", "SE"}  # met C4: turned anticlockwise
    assert walls(state, "D4") == {"SW"}  # met C4: turned anticlockwise
    assert walls(state, "C2") == {"S"}  # meets C3 only: gears go one level deep
    assert walls(state, "C5") == {"N"}  # would meet C4 only after the turn
    assert walls(state, "B4") == {"N"}  # its side against C4 is open: no meshing
    last = state.view(None)["last"]
    assert last["rotated"] == ["C4"] and sorted(last["geared"]) == ["C3", "D4"]
    assert state.history[-1] == "rotate C4 right"


def test_the_view_lists_each_rotation_of_the_last_turn_with_its_way_and_gears():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    state.apply("move C4 D3")
    state.apply("rotate right")
    (turn,) = state.view(None)["last"]["turns"]
    assert turn["cell"] == "C4" and turn["clockwise"] is True
    assert sorted(turn["geared"]) == ["C3", "D4"]
    assert state.copy().view(None)["last"]["turns"] == [turn]
    state.apply("rotate A1 left")  # player 2 is blocked: a new turn starts a new list
    assert [t["cell"] for t in state.view(None)["last"]["turns"]] == ["A1"]


def test_a_loaded_game_shows_its_last_rotations_as_played():
    """Saves do not store the list: the replay rebuilds it."""
    state, rng = GAME.new_state(3, 11), random.Random(11)
    while not state.view(None)["last"]["geared"]:
        state.apply(state.sample_action(rng))
    turns = state.view(None)["last"]["turns"]
    assert turns and turns[-1]["geared"] == state.view(None)["last"]["geared"]
    again = Sector6State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.view(None)["last"]["turns"] == turns


def test_a_blocked_turn_lists_both_rotations_in_order():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]}, mode="veteran")
    state.apply("move C4 D3")
    state.apply("rotate left")
    state.apply("rotate A1 left")
    state.apply("rotate A1 right")
    turns = state.view(None)["last"]["turns"]
    assert [(t["cell"], t["clockwise"], t["geared"]) for t in turns] == [
        ("A1", False, []),
        ("A1", True, []),
    ]


def test_gears_turn_the_other_way_for_an_anticlockwise_turn_too():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    state.apply("move C4 D3")
    state.apply("rotate left")
    assert walls(state, "C4") == {"NW", "NE", "S"}
    assert walls(state, "C3") == {"NE", "SW"} and walls(state, "D4") == {"N"}


def test_veteran_mode_has_no_gears():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]}, mode="veteran")
    state.apply("move C4 D3")
    state.apply("rotate right")
    assert walls(state, "C4") == {"NE", "S", "NW"}
    assert walls(state, "C3") == {"N", "S"} and walls(state, "D4") == {"NW"}
    assert state.view(None)["last"]["geared"] == []


def test_novice_mode_has_no_rotations_and_ends_a_turn_without_choices_by_itself():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]}, mode="novice")
    state.apply("move C4 D3")
    assert [a.text() for a in state.legal_actions()] == ["collect", "done"]
    with pytest.raises(IllegalActionError, match="Novice mode has no rotations"):
        state.apply("rotate right")
    state.apply("done")
    assert state.current_seat() == 1
    # an entry point left has no marker: nothing to choose, the move was the whole turn
    state = position(GEARS, prisoners={0: ["D3"], 1: ["A1"]}, mode="novice")
    state.apply("move D3 D4")
    assert state.current_seat() == 1 and state.history == ["move D3 D4"]


def test_markers_and_prisoners_turn_with_their_tile():
    state = position(GEARS, prisoners={0: ["C4"], 1: ["C3"]})
    state.apply("move C4 D3")
    state.apply("rotate right")
    c3 = state.table.index["C3"]
    assert state.prisoner[c3] == 2 and state.marker[c3] == 2


def test_walls_after_helper_matches_the_engine():
    assert walls_after("straight", 1) == {"NE", "SE", "SW", "NW"}


# ---------------------------------------------------------------------- blocked


def boxed(mode: str = "full", stuck: bool = False) -> Sector6State:
    """Player 1's prisoners sit on C4 (walls N, SE, SW: open NE, S, NW) and E4 (open SE
    and S only); every way out of both is shut by a wall, a gap or player 2's prisoners on
    the entry points E5 and F4. Unless `stuck`, player 2's F4 prisoner can step onto F5."""
    tiles = {
        "C4": ("alternating", 0),
        "D3": ("single", 4),  # wall SW: faces C4's open NE side
        "C5": ("single", 0),  # wall N: faces C4's open S side
        "E4": ("bend", 4),  # walls SW, NW, N, NE
        "E5": ("entry", 1),  # south of E4
        "F4": ("entry", 1),  # south-east of E4
    }
    if not stuck:
        tiles["F5"] = ("single", 1)  # south of F4, open on its N side
    return position(tiles, prisoners={0: ["C4", "E4"], 1: ["E5", "F4"]}, mode=mode)


def test_a_blocked_player_makes_two_rotations_and_the_turn_ends():
    state = boxed()
    assert walls(state, "E4") == {"SW", "NW", "N", "NE"}
    assert state.step == BLOCKED_STEP and state.view(0)["rotations_left"] == 2
    assert {a.text() for a in state.legal_actions()} == {
        "rotate C4 left",
        "rotate C4 right",
        "rotate E4 left",
        "rotate E4 right",
    }
    with pytest.raises(IllegalActionError, match="Neither of your prisoners can move"):
        state.apply("move C4 D3")
    with pytest.raises(IllegalActionError, match="D3 holds none of your prisoners"):
        state.apply("rotate D3 left")
    with pytest.raises(IllegalActionError, match="rotate C4 or E4 left or right"):
        state.apply("rotate left")
    state.apply("rotate C4 right")
    assert state.current_seat() == 0 and state.view(0)["rotations_left"] == 1
    assert walls(state, "C4") == {"NE", "S", "NW"}  # now C4 could move: the turn goes on
    state.apply("rotate E4 left")
    assert walls(state, "E4") == {"S", "SW", "NW", "N"}
    assert state.current_seat() == 1 and state.step == MOVE_STEP
    assert state.view(None)["last"]["actions"] == ["rotate C4 right", "rotate E4 left"]


def test_the_same_tile_may_take_both_rotations():
    state = boxed()
    state.apply("rotate E4 right")
    state.apply("rotate E4 right")
    assert walls(state, "E4") == {"N", "NE", "SE", "S"}
    assert state.current_seat() == 1


def test_a_player_with_one_prisoner_free_must_move():
    state = boxed()
    f4 = state.table.index["F4"]
    state.prisoner[f4] = 0
    state.prisoners[1] = [state.table.index["E5"]]
    state._start_turn(0)
    assert state.step == MOVE_STEP
    assert {a.text() for a in state.legal_actions()} == {"move E4 F4"}


def test_a_blocked_novice_passes():
    state = boxed("novice")
    assert [a.text() for a in state.legal_actions()] == ["pass"]
    with pytest.raises(IllegalActionError, match="pass"):
        state.apply("rotate C4 left")
    state.apply("pass")
    assert state.current_seat() == 1 and state.history == ["pass"]


def test_pass_is_only_for_blocked_novices():
    state = boxed()
    with pytest.raises(IllegalActionError, match="make 2 more rotations"):
        state.apply("pass")
    with pytest.raises(IllegalActionError, match="only when neither of your prisoners can move"):
        corridor().apply("pass")


def test_novice_game_ends_when_no_one_can_ever_move():
    """Player 2's prisoners are boxed in as well: nothing can change any more, so the game
    ends at once and each player takes the markers under their prisoners."""
    state = boxed("novice", stuck=True)
    assert state.is_terminal() and state.end_reason == "no_one_can_move"
    outcome = state.outcome()
    assert outcome.details["taken_at_end"] == [[3, 4], []]  # C4 and E4
    assert outcome.scores == (7, 0) and outcome.winners == (0,)
    assert outcome.details["left_on_board"] == {"1": 2, "2": 0, "3": 0, "4": 0}


def test_in_full_mode_a_table_where_no_one_can_move_goes_on_rotating():
    state = boxed("full", stuck=True)
    assert not state.is_terminal() and state.step == BLOCKED_STEP


# ---------------------------------------------------------------------- the end


def test_moving_onto_the_last_free_marker_ends_the_game_at_once():
    state = corridor()
    for label in ("C2", "C3", "C4", "C5", "C6"):
        state.marker[state.table.index[label]] = 0
    state.prisoner[state.table.index["A2"]] = 0
    state.prisoners[1] = []
    state.apply("move C2 C7")  # C7's marker (1) was the last one free
    assert state.is_terminal() and state.phase == OVER
    outcome = state.outcome()
    assert outcome.reason == "all_oxygen_held"
    assert outcome.scores == (1, 0) and outcome.details["taken_at_end"] == [[1], []]
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("collect")


def test_leaving_a_marker_behind_keeps_the_game_going_until_it_is_collected():
    state = corridor()
    for label in ("C3", "C4", "C5", "C6"):
        state.marker[state.table.index[label]] = 0
    state.apply("move C2 C7")  # C2's marker is free again
    assert not state.is_terminal()
    state.apply("collect")  # now every marker left (C7's) is under a prisoner
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.scores == (2, 0)
    assert outcome.details["collected"][0] == {"1": 2, "2": 0, "3": 0, "4": 0}
    assert outcome.details["left_on_board"] == {"1": 0, "2": 0, "3": 0, "4": 0}


def test_markers_under_prisoners_go_to_their_owners_at_the_end():
    tiles = {label: ("single", 1) for label in ("C2", "C3", "C4", "C5")}
    tiles |= {"D3": ("bend", 0), "E3": ("row", 5)}
    state = position(tiles, prisoners={0: ["C2", "D3"], 1: ["C5", "E3"]})
    state.marker[state.table.index["C4"]] = 0
    state.apply("move C2 C3")  # C3 was the last free marker; C2's is free again
    state.apply("collect")
    outcome = state.outcome()
    assert outcome.details["taken_at_end"] == [[1, 4], [1, 3]]
    assert outcome.scores == (1 + 1 + 4, 1 + 3)


def test_the_turn_limit_ends_the_game_as_if_by_the_rules():
    state = corridor()
    state.max_turns = state.play_turns + 1
    state.apply("move C2 C3")
    state.apply("done")
    assert state.is_terminal() and state.end_reason == "turn_limit"
    outcome = state.outcome()
    assert outcome.details["taken_at_end"] == [[1], []]  # C3's marker, under player 1
    assert outcome.details["left_on_board"]["1"] == 5  # the free ones go to no one


def ended(collected: list[dict[int, int]]) -> Sector6State:
    """A finished game in which each player collected `collected` (value -> markers)."""
    state = corridor()
    state.marker = [0] * len(state.marker)
    for seat, counts in enumerate(collected):
        for value, n in counts.items():
            state.collected[seat][value] = n
    state._finish("all_oxygen_held")
    return state


@pytest.mark.parametrize(
    ("collected", "winners", "decided"),
    [
        ([{4: 2}, {3: 2}], (0,), "score"),
        ([{4: 1, 2: 2}, {3: 2, 2: 1}], (0,), "blue"),  # 8 each: one blue against none
        ([{4: 1, 3: 1, 1: 1}, {4: 1, 2: 2}], (0,), "green"),  # 8, one blue each
        ([{2: 3, 1: 1}, {2: 2, 1: 3}], (0,), "yellow"),  # 7, no blue or green
        ([{2: 1, 1: 1}, {1: 3}], (0,), "yellow"),
        ([{4: 1, 1: 1}, {4: 1, 1: 1}], (0, 1), "shared"),
    ],
)
def test_tie_breaks_blue_then_green_then_yellow_else_shared(collected, winners, decided):
    state = ended(collected)
    outcome = state.outcome()
    assert outcome.winners == winners
    assert outcome.details["decided_by"] == decided
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)


# ---------------------------------------------------------------------- construction


def fresh(mode: str = "full", seats: int = 2) -> Sector6State:
    return GAME.new_state(seats, 4, {"mode": mode})


def test_supplies_follow_the_table_for_the_player_count():
    rules = default_rules()
    for seats, each in ((2, 14), (3, 8), (4, 8)):
        state = GAME.new_state(seats, 9)
        assert [len(s) for s in state.supplies] == [each] * seats
        values = [sorted(rules.tiles[p].value for p in s) for s in state.supplies]
        want = sorted(v for v, n in rules.supplies[seats].items() for _ in range(n))
        assert values == [want] * seats
        pieces = [p for s in state.supplies for p in s]
        assert len(pieces) == len(set(pieces))
    assert GAME.new_state(3, 9).supplies != GAME.new_state(3, 10).supplies


def test_a_turn_is_draw_then_place_or_an_entry_point():
    state = fresh()
    seat = state.current_seat()
    assert state.legal_actions()[0].text() == "draw"
    with pytest.raises(IllegalActionError, match="Draw a tile first"):
        state.apply("place J10 r0")
    state.apply("draw")
    assert state.current_seat() == seat
    with pytest.raises(IllegalActionError, match="drawn a tile: it must be placed"):
        state.apply("place entry J10")
    with pytest.raises(IllegalActionError, match="drawn a tile already"):
        state.apply("draw")
    state.apply("place A1 r60")  # the first piece goes anywhere, even in a corner
    assert state.current_seat() == 1 - seat
    assert state.view(None)["tiles"][0]["cell"] == "A1"
    assert state.view(None)["tiles"][0]["rotation"] == 60


def test_the_second_piece_must_touch_the_first():
    state = fresh()
    state.apply("draw")
    state.apply("place J10 r0")
    state.apply("draw")
    with pytest.raises(IllegalActionError, match="must touch the first") as caught:
        state.apply("place M10 r0")
    assert "J9" in str(caught.value)
    state.apply("place J9 r0")


def test_from_the_third_piece_on_two_neighbours_are_needed():
    state = fresh()
    for cell in ("J10", "J9"):
        state.apply("draw")
        state.apply(f"place {cell} r0")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="touches 1 placed piece; from the third") as c:
        state.apply("place entry J11")
    assert str(c.value).endswith("Cells that would do: I10, K10.")
    assert state.to_dict() == before
    legal = {a.text() for a in state.legal_actions()}
    assert legal == {"draw", "place entry I10", "place entry K10"}
    state.apply("place entry K10")


def arranged(mode: str, first: list[str], second: list[str]) -> Sector6State:
    """A two-player deal where player 1 (who starts) draws tiles of the `first` layouts in
    that order and player 2 those of `second`; the rest of each supply is filled up."""
    rules = default_rules()
    pool = list(range(rules.maze_tiles))

    def take(test) -> int:
        piece = next(p for p in pool if test(rules.tiles[p]))
        pool.remove(piece)
        return piece

    supplies = []
    for head in (first, second):
        supply = [take(lambda t, layout=layout: t.layout == layout) for layout in head]
        want = dict(rules.supplies[2])
        for piece in supply:
            want[rules.tiles[piece].value] -= 1
        for value, n in want.items():
            supply += [take(lambda t, value=value: t.value == value) for _ in range(n)]
        supplies.append(supply)
    return Sector6State(rules, 2, 0, mode, supplies, 0)


def test_the_galleries_rule_in_veteran_and_novice_modes():
    """J10 is a four-wall tile open on its NW and SW sides only (towards I10 and I11). An
    entry point on J9 would meet J10's N wall and join no corridor: refused in veteran and
    novice modes, fine in full mode."""
    for mode, allowed in (("full", True), ("veteran", False), ("novice", False)):
        state = arranged(mode, ["bend"], [])
        state.apply("draw")
        state.apply("place J10 r0")
        assert walls(state, "J10") == {"N", "NE", "SE", "S"}
        legal = {a.text() for a in state.legal_actions() if isinstance(a, PlaceEntry)}
        assert "place entry I10" in legal and "place entry I11" in legal
        assert ("place entry J9" in legal) is allowed, mode
        assert (len(legal) == 6) is allowed
        if not allowed:
            with pytest.raises(IllegalActionError, match="Cells that would do: I10, I11"):
                state.apply("place entry J9")


def test_galleries_also_weigh_the_new_tiles_rotation():
    """J11 lies south of J10, whose only wall is on its N side. A one-wall tile on J11 turned
    r0 puts its wall against J10's open S side and joins nothing; r60 is fine."""
    state = arranged("veteran", ["single"], ["single"])
    state.apply("draw")
    state.apply("place J10 r0")
    state.apply("draw")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match=r"galleries rule\). On J11 use r60, r120"):
        state.apply("place J11 r0")
    assert state.to_dict() == before
    state.apply("place J11 r60")
    full = arranged("full", ["single"], ["single"])
    for text in ("draw", "place J10 r0", "draw", "place J11 r0"):
        full.apply(text)


def test_entry_points_and_supplies_run_out_and_the_competition_begins():
    state = fresh(seats=2)
    first = state.first_seat
    while state.phase != PLAY:
        state.apply(state.legal_actions()[0])
    view = state.view(None)
    assert len(view["tiles"]) == 2 * 14 + 2 * 2
    assert view["current_seat"] == first and view["step"] in ("move", "blocked")
    entries = [t for t in view["tiles"] if t["kind"] == "entry"]
    assert all(t["prisoner"] == t["owner"] and t["marker"] is None for t in entries)
    tiles = [t for t in view["tiles"] if t["kind"] == "tile"]
    assert all(t["marker"] == t["value"] == len(t["walls"]) for t in tiles)
    assert all(p["supply_left"] == 0 and p["entries_left"] == 0 for p in view["players"])
    with pytest.raises(IllegalActionError, match="The maze is complete"):
        state.apply("draw")


def test_a_refused_action_changes_nothing_anywhere():
    state = fresh()
    state.apply("draw")
    saved = json.dumps(state.to_dict())
    for text in ("place Z99 r0", "place entry J10", "move J10 J11", "collect", "done", "pass"):
        with pytest.raises((IllegalActionError, ActionSyntaxError)):
            state.apply(text)
        assert json.dumps(state.to_dict()) == saved


# ---------------------------------------------------------------------- hidden supplies


def test_a_drawn_tile_shows_to_its_drawer_alone():
    state = GAME.new_state(3, 12)
    drawer = state.current_seat()
    state.apply("draw")
    mine = state.view(drawer)["drawn"]
    assert mine["seat"] == drawer and {"value", "walls", "layout"} <= set(mine)
    for seat in [None, *(s for s in range(3) if s != drawer)]:
        assert state.view(seat)["drawn"] == {"seat": drawer}


def test_the_view_names_the_cells_where_the_next_piece_may_go():
    """The same cells as the legal placements, for the drawn tile and for an entry point, in
    every mode, from the first piece (anywhere) to the last; none once the maze is done."""
    for mode in ("full", "veteran", "novice"):
        state = GAME.new_state(3, 7, {"mode": mode})
        rng = random.Random(7)
        checked = 0
        while state.phase == "build":
            legal = {a.cell for a in state.legal_actions() if isinstance(a, Place | PlaceEntry)}
            if legal:
                assert set(state.view(None)["build_cells"]) == legal, mode
                checked += 1
            state.apply(state.sample_action(rng))
        assert checked > 30 and state.view(None)["build_cells"] == []


def test_supply_order_never_reaches_a_view():
    """Two deals that differ only in the order of one supply look the same to everyone."""
    a = GAME.new_state(3, 12)
    seat = a.current_seat()
    other = (seat + 1) % 3
    supplies = [list(s) for s in a.supplies]
    supplies[other].reverse()
    b = Sector6State(a.rules, 3, 12, "full", supplies, a.first_seat)
    for s in (a, b):
        s.apply("draw")
        s.apply(s.legal_actions()[0])
        s.apply("draw")  # the other seat's tile: different in a and b
    assert a.supplies != b.supplies
    for viewer in [None, seat, (seat + 2) % 3]:
        assert a.view(viewer) == b.view(viewer)
    assert "layout" in a.view(other)["drawn"] and "layout" in b.view(other)["drawn"]
    text = json.dumps(a.view(None))
    assert "supplies" not in text and "seed" not in text


def test_what_is_left_by_value_is_public_and_includes_the_drawn_tile():
    state = GAME.new_state(2, 3)
    seat = state.current_seat()
    state.apply("draw")
    player = state.view(None)["players"][seat]
    assert player["supply_left"] == 13 and sum(player["unplaced"].values()) == 14


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_seats_unplaced_values_are_its_supply_less_the_tiles_it_placed(seats: int) -> None:
    rules = default_rules()
    supply = rules.supplies[seats]
    for seed in range(3):
        state = GAME.new_state(seats, seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_terminal():
                break
            view = state.view(None)
            for player in view["players"]:
                placed = [
                    t["value"]
                    for t in view["tiles"]
                    if t["kind"] == "tile" and t["placed_by"] == player["seat"]
                ]
                expected = {str(v): n - placed.count(v) for v, n in supply.items()}
                assert player["unplaced"] == expected
            state.apply(state.sample_action(rng))
