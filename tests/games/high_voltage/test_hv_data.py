"""The High Voltage data files: the shipped set matches the design, every kind of broken
edit fails loudly with a message naming the file and the problem, and saved games are
checked when read back."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
from hv_positions import GAME

import data
from data import DataError
from games.high_voltage.rules.rules_data import (
    CARDS_FILE,
    SETUP_FILE,
    default_rules,
    parse_cards,
    parse_setup,
)
from games.high_voltage.rules.state import HighVoltageState

SETUP_DOC = data.load_json(SETUP_FILE, expected_format="high-voltage-setup", expected_version=1)
CARDS_DOC = data.load_json(CARDS_FILE, expected_format="high-voltage-cards", expected_version=1)
COLOURS = ("red", "yellow", "green", "blue")


# ---------------------------------------------------------------- the shipped data


def test_shipped_card_set_matches_the_design():
    """16 straights and 16 curves (4 per colour), 8 two-colour crossings with every colour on
    4 paths, 4 two-colour double curves with every colour on 2 paths, 4 DANGER cards."""
    _, cards = default_rules()
    kinds = Counter(face.kind for face in cards.faces)
    assert kinds == {"straight": 16, "curve": 16, "crossing": 8, "double_curve": 4, "danger": 4}
    for kind, per_colour in (("straight", 4), ("curve", 4), ("crossing", 4), ("double_curve", 2)):
        colours = Counter(p.colour for f in cards.faces if f.kind == kind for p in f.paths)
        assert colours == dict.fromkeys(COLOURS, per_colour), kind
    for face in cards.faces:
        if face.kind in ("crossing", "double_curve"):
            assert len({p.colour for p in face.paths}) == 2


def test_shipped_setup_matches_the_rules():
    setup, _ = default_rules()
    assert (setup.grid_size, setup.start_empty) == (7, "D4")
    assert set(setup.start_face_up) == {"D3", "C4", "E4", "D5"}
    assert (setup.action_tokens, setup.special_tokens) == (5, 1)
    assert (setup.energy_tokens, setup.point_tokens) == (36, 20)
    assert (setup.min_line_cards, setup.max_high_voltage_on_line) == (4, 3)
    assert [setup.points_for_length(n) for n in range(4, 12)] == [0, 1, 1, 2, 2, 3, 3, 3]
    assert setup.station_colour_cycle == COLOURS


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_deal(seats):
    state = GAME.new_state(seats, 77)
    names = state.geo.names
    assert state.grid[names.index("D4")] == -1 and state.grid.count(-1) == 1
    assert sorted(c for c in state.grid if c >= 0) == list(range(48))
    up = {names[state.pos[c]] for c in range(48) if state.card_up[c]}
    assert up == {"D3", "C4", "E4", "D5"}
    assert state.face_down == 44
    assert len(set(state.seat_colour)) == seats
    assert state.action_tokens == [5] * seats and state.special_tokens == [1] * seats
    assert (state.energy_supply, state.point_supply) == (36, 20)
    # The same seed deals the same game; the deal depends on the seed.
    assert GAME.new_state(seats, 77) == state
    assert any(GAME.new_state(seats, s).grid != state.grid for s in range(78, 81))


def test_each_company_has_seven_stations():
    state = GAME.new_state(2, 1)
    colours = Counter(st.colour for st in state.geo.stations.values())
    assert len(state.geo.stations) == 28 and set(colours.values()) == {7}


# ---------------------------------------------------------------- broken files


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{not json", "is not valid JSON (line 1"),
        ("[1, 2]", "must hold a JSON object at the top level"),
        ('{"format": "chess", "version": 1}', "'format' must be 'high-voltage-cards'"),
        ('{"format": "high-voltage-cards", "version": 2}', "'version' must be 1, found 2"),
        ('{"format": "high-voltage-cards"}', "'version' must be 1, found None"),
    ],
)
def test_parse_json_names_the_file_and_the_problem(text, problem):
    with pytest.raises(DataError) as caught:
        data.parse_json(CARDS_FILE, text, expected_format="high-voltage-cards", expected_version=1)
    message = str(caught.value)
    assert message.startswith("games/high_voltage/cards.json: ")
    assert problem in message
    assert caught.value.path == CARDS_FILE


def test_a_missing_file_is_a_data_error():
    with pytest.raises(DataError) as caught:
        data.load_json("games/high_voltage/nothing.json", expected_format="x", expected_version=1)
    assert str(caught.value).startswith("games/high_voltage/nothing.json: cannot be read")


def _setup_with(**changes):
    doc = copy.deepcopy(SETUP_DOC)
    for key, value in changes.items():
        if value is KeyError:
            del doc[key]
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"energy_tokens": KeyError}, "missing key 'energy_tokens'"),
        ({"start_face_up": ["D3", "Z9"]}, "'start_face_up' has 'Z9', not a card's cell"),
        ({"start_face_up": ["D3", "D4"]}, "'start_face_up' has 'D4', not a card's cell"),
        ({"start_empty": "H8"}, "'start_empty' 'H8' is not a cell of the grid"),
        ({"grid_size": "7"}, "'grid_size' must be a whole number"),
        ({"action_tokens": True}, "'action_tokens' must be a whole number"),
        ({"action_tokens": -1}, "'action_tokens' cannot be negative"),
        ({"colours": ["red", "red", "green", "blue"]}, "four different colour names"),
        ({"station_colour_cycle": ["red", "purple"]}, "must list colours from 'colours'"),
        ({"length_points": [{"min_cards": 4}]}, "entries need 'min_cards' and 'points'"),
        (
            {"length_points": [{"min_cards": 5, "points": 1}, {"min_cards": 4, "points": 0}]},
            "ascending 'min_cards' order",
        ),
        ({"max_players": 5}, "min_players <= max_players <= 4"),
    ],
)
def test_parse_setup_names_the_file_and_the_problem(changes, problem):
    with pytest.raises(DataError) as caught:
        parse_setup(_setup_with(**changes))
    assert str(caught.value).startswith("games/high_voltage/setup.json: ")
    assert problem in str(caught.value)


def _cards_with(index, **card):
    doc = copy.deepcopy(CARDS_DOC)
    doc["cards"][index] = {"id": index, **card}
    return doc


SETUP, _ = default_rules()


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        (
            _cards_with(3, kind="straight", paths=[["N", "S", "purple"]]),
            "card 3: colour 'purple' is not one of red, yellow, green, blue",
        ),
        (
            _cards_with(0, kind="straight", paths=[["N", "E", "red"]]),
            "card 0: a straight card's paths join opposite edges",
        ),
        (
            _cards_with(16, kind="curve", paths=[["E", "W", "red"]]),
            "card 16: a curve card's paths join neighbouring edges",
        ),
        (
            _cards_with(32, kind="crossing", paths=[["N", "S", "red"]]),
            "card 32: a crossing card has 2 path(s)",
        ),
        (
            _cards_with(40, kind="double_curve", paths=[["N", "E", "red"], ["E", "S", "blue"]]),
            "card 40: two paths share an edge",
        ),
        (
            _cards_with(5, kind="straight", paths=[["N", "N", "red"]]),
            "card 5: a path joins two different edges",
        ),
        (_cards_with(7, kind="diagonal", paths=[]), "card 7: kind must be one of"),
        (_cards_with(44, kind="danger", paths=[["N", "S", "red"]]), "a danger card has 0 path"),
        ({**CARDS_DOC, "cards": CARDS_DOC["cards"][:47]}, "needs 48 cards for a 7x7 grid"),
        ({**CARDS_DOC, "cards": [*CARDS_DOC["cards"], CARDS_DOC["cards"][0]]}, "found 49"),
        ({"format": "high-voltage-cards", "version": 1}, "missing the list 'cards'"),
    ],
)
def test_parse_cards_names_the_file_and_the_problem(doc, problem):
    with pytest.raises(DataError) as caught:
        parse_cards(doc, SETUP)
    assert str(caught.value).startswith("games/high_voltage/cards.json: ")
    assert problem in str(caught.value)


def test_card_ids_must_run_in_order():
    doc = copy.deepcopy(CARDS_DOC)
    doc["cards"][5]["id"] = 6
    with pytest.raises(DataError, match="card 5 has id 6; ids run 0, 1, 2"):
        parse_cards(doc, SETUP)
    doc["cards"][5] = "straight"
    with pytest.raises(DataError, match="card 5 must be an object"):
        parse_cards(doc, SETUP)


def test_the_shipped_documents_parse_cleanly():
    """The broken variants above differ from a document that is accepted."""
    setup = parse_setup(copy.deepcopy(SETUP_DOC))
    assert len(parse_cards(copy.deepcopy(CARDS_DOC), setup)) == 48


# ---------------------------------------------------------------- saved games


def _saved(**changes):
    doc = json.loads(json.dumps(GAME.new_state(2, 5).to_dict()))
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"format": "chess-state"}, "Not a High Voltage state"),
        ({"version": 99}, "version 99 is not supported"),
        ({"grid": [0] * 49}, "every card exactly once and one empty cell"),
        ({"energy": [3] * 48}, "energy values are 0, 1 or 2"),
        ({"phase": "dancing"}, "unknown phase 'dancing'"),
        ({"seat": 2}, "out of range"),
        ({"rot": [0] * 47}, "'rot' must be a list of 48 values"),
        ({"history": None}, "incomplete or malformed"),
    ],
)
def test_a_broken_saved_game_is_refused(changes, problem):
    with pytest.raises(ValueError, match=problem):
        HighVoltageState.from_dict(_saved(**changes))


def test_a_saved_game_missing_a_key_is_refused():
    doc = _saved()
    del doc["energy_supply"]
    with pytest.raises(ValueError, match="incomplete or malformed"):
        GAME.state_from_dict(doc)


def test_a_saved_game_keeps_its_own_card_set():
    """A later fix to cards.json must not change a game already under way."""
    doc = _saved()
    doc["cards"][0] = ["straight", [["N", "S", "blue"]]]
    state = GAME.state_from_dict(doc)
    assert state.cards.faces[0].paths[0].colour == "blue"
    assert default_rules()[1].faces[0].paths[0].colour == "red"
