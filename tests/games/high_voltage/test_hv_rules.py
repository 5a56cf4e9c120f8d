"""Scoring a declared line: company points per segment, point tokens by length, energy
tokens on every card, and several lines declared one after another."""

from __future__ import annotations

import pytest
from hv_positions import (
    DANGER,
    HIGH_VOLTAGE,
    NO_TOKEN,
    THROUGH_C4,
    build,
    cell,
    close_by_rotating,
    route,
    station_colour,
)

from engine import IllegalActionError

COLOURS = ("red", "yellow", "green", "blue")

# S3 (green) down column C, west along row 4, down to A5 and out west to S27 (blue). Seven
# cards; two of them have a second path whose colour is not on the line.
COLOURFUL = {
    "C1": (0, 0),  # red straight N-S
    "C2": (33, 0),  # crossing: N-S green (on the line), E-W blue (not)
    "C3": (4, 0),  # yellow straight
    "C4": (28, 270),  # blue curve N-W
    "B4": (1, 90),  # red straight E-W
    "A4": (40, 270),  # double curve: E-S yellow (on the line), W-N red (not)
    "A5": (24, 270),  # green curve N-W
}


def test_company_points_count_every_segment_and_both_stations():
    assert (station_colour(3), station_colour(27)) == ("green", "blue")
    state = close_by_rotating(COLOURFUL, "A5", 0)
    assert [line.name for line in state.closable_lines()] == ["S3-S27"]
    expected = {"red": 2, "yellow": 2, "green": 3, "blue": 2}  # 7 cards + 2 station segments
    # Players see the points before they choose.
    assert state.view(1)["closable"][0]["points"] == expected
    assert state.view(1)["closable"][0]["point_tokens"] == 2
    state.apply("declare S3-S27")
    assert state.company == [expected[c] for c in COLOURS]
    assert state.declared[-1]["points"] == expected
    assert state.point_tokens == [2, 0] and state.point_supply == 18
    assert state.view(None)["company_scores"] == expected


def chain(length: int):
    """A line of `length` cards from S1: down column A, then east along row 7 if longer
    than 7, out through the west side (up to 7 cards) or the south side."""
    if length <= 7:
        return route([f"A{r}" for r in range(1, length + 1)], "N", "W")
    cells = [f"A{r}" for r in range(1, 8)] + [f"{chr(65 + c)}7" for c in range(1, length - 6)]
    return route(cells, "N", "S")


@pytest.mark.parametrize(
    ("length", "tokens"),
    [(4, 0), (5, 1), (6, 1), (7, 2), (8, 2), (9, 3), (10, 3), (12, 3)],
)
def test_point_tokens_by_line_length(length, tokens):
    state = close_by_rotating(chain(length), "A1", 90, empty="G1")
    (line,) = state.closable_lines()
    assert len(line) == length
    state.apply(f"declare {line.name}")
    assert state.point_tokens == [tokens, 0]
    assert state.point_supply == 20 - tokens
    assert state.declared[-1]["point_tokens"] == tokens


@pytest.mark.parametrize(("supply", "taken"), [(2, 2), (1, 1), (0, 0)])
def test_a_short_point_supply_gives_what_is_left(supply, taken):
    state = close_by_rotating(chain(9), "A1", 90, empty="G1", point_supply=supply)
    assert state.view(0)["closable"][0]["point_tokens"] == taken
    state.apply("declare S1-S21")
    assert state.point_tokens == [taken, 0]
    assert state.point_supply == supply - taken
    assert state.company != [0, 0, 0, 0]  # the companies still score in full


L5 = route(["A1", "A2", "A3", "A4", "A5"], "N", "W")  # S1 ... S27


def test_energy_tokens_go_on_every_card_and_flip_high_voltage_to_danger():
    layout = {
        at: (card, degrees, HIGH_VOLTAGE if at in ("A2", "A4") else NO_TOKEN)
        for at, (card, degrees, _) in L5.items()
    }
    state = close_by_rotating(layout, "A5", 0)
    assert state.energy_supply == 34  # two tokens lie on the board already
    state.apply("declare S1-S27")
    energy = {at: state.energy[state.grid[cell(at)]] for at in L5}
    assert energy == {
        "A1": HIGH_VOLTAGE,
        "A2": DANGER,
        "A3": HIGH_VOLTAGE,
        "A4": DANGER,
        "A5": HIGH_VOLTAGE,
    }
    assert state.energy_supply == 31  # flipping takes no token from the supply
    record = state.declared[-1]
    assert (record["tokens_placed"], record["tokens_flipped"]) == (3, 2)


def cross(token: int, **options):
    """Two lines through the crossing on C4 (red N-S, yellow E-W), C4 carrying `token`."""
    return build({**THROUGH_C4, "C4": (32, 0, token)}, empty="G7", **options)


def test_two_lines_through_a_crossing_are_both_offered_and_both_score():
    state = cross(NO_TOKEN)
    state.apply("rotate C4 r90")  # N-S now yellow, E-W now red
    assert [line.name for line in state.closable_lines()] == ["S3-S21", "S12-S28"]
    state.apply("declare S12-S28")
    assert state.declared[-1]["points"] == {"red": 2, "yellow": 0, "green": 4, "blue": 3}
    assert [line.name for line in state.closable_lines()] == ["S3-S21"]  # one HV token on it
    assert state.seat == 0 and state.phase == "declaring"
    state.apply("declare S3-S21")
    assert state.declared[-1]["points"] == {"red": 3, "yellow": 4, "green": 2, "blue": 0}
    assert state.company == [5, 4, 6, 3]
    assert state.point_tokens == [4, 0]
    assert state.energy[32] == DANGER
    assert (state.declared[-1]["tokens_placed"], state.declared[-1]["tokens_flipped"]) == (6, 1)
    assert state.energy_supply == 36 - 7 - 6
    assert state.seat == 1 and state.phase == "action"


@pytest.mark.parametrize(("first", "second"), [("S3-S21", "S12-S28"), ("S12-S28", "S3-S21")])
def test_the_first_declared_line_can_invalidate_the_second(first, second):
    """The shared crossing already carries HIGH VOLTAGE: the first line flips it to DANGER,
    so the second line is re-checked, no longer valid, and the action ends."""
    state = cross(HIGH_VOLTAGE)
    state.apply("rotate C4 r90")
    assert {line.name for line in state.closable_lines()} == {first, second}
    state.apply(f"declare {first}")
    assert state.energy[32] == DANGER
    assert state.closable_lines() == []
    assert state.phase == "action" and state.seat == 1
    assert [rec["line"] for rec in state.declared] == [first]
    assert state.history == ["rotate C4 r90", f"declare {first}"]


def test_declare_none_scores_nothing_and_passes_the_turn():
    state = close_by_rotating(L5, "A5", 0)
    before = state.to_dict()
    state.apply("declare none")
    assert state.company == before["company"] and state.point_tokens == before["point_tokens"]
    assert state.energy == before["energy"] and state.energy_supply == before["energy_supply"]
    assert state.declared == [] and state.seat == 1 and state.phase == "action"
    assert state.history[-1] == "declare none"


def test_in_the_declaring_step_only_offered_lines_or_none_are_accepted():
    state = close_by_rotating(L5, "A5", 0)
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as wrong_line:
        state.apply("declare S1-S28")
    assert "S1-S27" in str(wrong_line.value) and "declare none" in str(wrong_line.value)
    with pytest.raises(IllegalActionError, match="First choose which lines to declare"):
        state.apply("rotate A5 r90")
    assert state.to_dict() == before
    state.apply("declare S27-S1")  # station order does not matter
    assert [rec["line"] for rec in state.declared] == ["S1-S27"]
