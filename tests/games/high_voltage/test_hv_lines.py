"""Which lines a turn may close: every validity condition on its own, and the rule that a turn
may only close a line one of its own actions changed.

Each scenario lays a chain of cards from station to station with one card turned out of
place, turns it into place, and checks what the engine offers. For the invalid lines the test
first proves the chain really connects the two stations, so the only reason it is refused is
the condition under test.
"""

from __future__ import annotations

from hv_positions import (
    DANGER,
    HIGH_VOLTAGE,
    Down,
    build,
    cell,
    close_by_rotating,
    play,
    route,
    station,
)

from games.high_voltage.rules import Declare, DeclareNone

L4 = route(["A1", "A2", "A3", "A4"], "N", "W")  # S1 down column A, out west to S28


def offered(state):
    return [line.name for line in state.closable_lines()]


def connected(state, first, second):
    """The chain from station `first` really reaches station `second` (the engine's walk)."""
    line = state._board.line_from(first)
    assert line is not None and {line.first, line.second} == {first, second}
    return line


def why_not(state, line):
    setup = state.setup
    return state._board.problem(line, setup.min_line_cards, setup.max_high_voltage_on_line)


def test_stations_of_the_basic_chain():
    """The helper's station numbering agrees with the rules' frame: north of A1 is 1, west of
    A4 is 28 (25 is west of A7, counting clockwise)."""
    assert station("A1", "N") == 1 and station("A4", "W") == 28
    assert station("G1", "E") == 9 and station("G7", "S") == 17 and station("A7", "S") == 23


def test_a_valid_line_is_offered_with_declare_and_declare_none():
    state = close_by_rotating(L4, "A4", 0)
    assert offered(state) == ["S1-S28"]
    assert state.phase == "declaring" and state.seat == 0
    assert state.legal_actions() == [Declare(1, 28), DeclareNone()]
    assert [c["line"] for c in state.view(None)["closable"]] == ["S1-S28"]


def test_fewer_than_four_cards_is_not_a_line():
    three = route(["A1", "A2", "A3"], "N", "W")
    state = close_by_rotating(three, "A3", 0)
    line = connected(state, 1, 29)
    assert len(line) == 3
    assert "only 3 cards long" in why_not(state, line)
    assert offered(state) == [] and state.phase == "action" and state.seat == 1


def test_both_stations_on_the_same_side_short_circuit():
    u_turn = route(["B1", "B2", "C2", "D2", "E2", "E1"], "N", "N")  # S2 ... S5, both north
    state = close_by_rotating(u_turn, "C2", 0)
    line = connected(state, 2, 5)
    assert len(line) == 6
    assert why_not(state, line) == "both stations are on the same side of the square"
    assert offered(state) == []
    # The same shape leaving by the west side is a valid line.
    l_shape = route(["E1", "E2", "D2", "C2", "B2", "A2"], "N", "W")  # S5 ... S30
    assert offered(close_by_rotating(l_shape, "C2", 0)) == ["S5-S30"]


L5 = route(["A1", "A2", "A3", "A4", "A5"], "N", "W")  # S1 ... S27


def _with_energy(layout, tokens):
    return {at: (card, degrees, tokens.get(at, 0)) for at, (card, degrees, *_) in layout.items()}


def test_a_danger_token_on_the_line_makes_it_invalid():
    state = close_by_rotating(_with_energy(L5, {"A3": DANGER}), "A5", 0)
    line = connected(state, 1, 27)
    assert why_not(state, line) == "A3 carries a DANGER token"
    assert offered(state) == []
    # With a HIGH VOLTAGE token instead, the same line is fine.
    assert offered(close_by_rotating(_with_energy(L5, {"A3": HIGH_VOLTAGE}), "A5", 0)) == ["S1-S27"]


def test_a_danger_card_carries_no_line():
    """A DANGER card has no path: the chain stops there from both ends."""
    broken = {**L5, "A3": (44, 0)}
    state = close_by_rotating(broken, "A5", 0)
    assert state._board.line_from(1) is None and state._board.line_from(27) is None
    assert offered(state) == []


def test_three_high_voltage_tokens_are_allowed_four_are_not():
    three = _with_energy(L5, {"A1": HIGH_VOLTAGE, "A2": HIGH_VOLTAGE, "A4": HIGH_VOLTAGE})
    assert offered(close_by_rotating(three, "A5", 0)) == ["S1-S27"]
    four = _with_energy(L5, {at: HIGH_VOLTAGE for at in ("A1", "A2", "A3", "A4")})
    state = close_by_rotating(four, "A5", 0)
    line = connected(state, 1, 27)
    assert why_not(state, line) == "4 of its cards carry HIGH VOLTAGE tokens (at most 3)"
    assert offered(state) == []
    # The card that was turned counts too.
    four_with_closer = _with_energy(L5, {at: HIGH_VOLTAGE for at in ("A1", "A2", "A3", "A5")})
    assert offered(close_by_rotating(four_with_closer, "A5", 0)) == []


# S3 down column C, through the crossing on C3, round C4-D4-D3 and back across C3 westwards
# to S29: a closed chain of 8 cards that passes the crossing twice.
LOOP = {
    "C1": (0, 0),
    "C2": (1, 0),
    "C3": (32, 0),  # crossing: N-S and E-W
    "C4": (16, 0),  # curve N-E
    "D4": (17, 270),  # curve W-N
    "D3": (18, 180),  # curve S-W
    "B3": (2, 90),
    "A3": (3, 90),
}


def test_a_chain_that_passes_a_card_twice_is_not_a_line():
    state = close_by_rotating(LOOP, "D3", 0, empty="G7")
    line = connected(state, 3, 29)
    assert [state.geo.names[c] for c in line.cells] == [
        "C1",
        "C2",
        "C3",
        "C4",
        "D4",
        "D3",
        "C3",
        "B3",
        "A3",
    ]
    # Long enough, two sides, no tokens: passing C3 twice is the only fault.
    assert why_not(state, line) == "it passes the same card twice"
    assert offered(state) == [] and state.phase == "action"


# ---------------------------------------------------------------- changed this turn

L4X = route(["A1", "A2", "A3", "A4"], "N", "W", cards=[0, 32, 1, 16])  # A2: a crossing


def test_a_complete_line_is_not_offered_after_an_unrelated_action():
    state = build({**L4X, "F6": (20, 0)})
    state.apply("rotate F6 r90")
    assert connected(state, 1, 28) and offered(state) == []
    assert state.phase == "action" and state.seat == 1


def test_turning_a_two_colour_crossing_keeps_the_line_and_offers_it():
    state = build({**L4X, "F6": (20, 0)})
    state.apply("rotate A2 r90")  # N-S now carries the crossing's other colour
    assert offered(state) == ["S1-S28"]
    state.apply("declare S1-S28")
    assert state.declared[-1]["points"]["yellow"] == 1  # the E-W colour of card 32, now N-S


def test_swapping_two_cards_of_a_line_offers_it():
    state = build(L4X)
    state.apply("swap A1 A3 r0 r180")
    assert offered(state) == ["S1-S28"]


def test_moving_a_card_into_the_gap_offers_the_line():
    card, degrees, _ = L4X["A3"]
    layout = {**L4X, "F6": (card, 90)}
    del layout["A3"]
    state = build(layout, empty="A3")
    assert state._board.line_from(1) is None
    state.apply(f"move F6 r{degrees}")
    assert offered(state) == ["S1-S28"]


def test_drawing_the_missing_card_offers_the_line():
    card, _, _ = L4["A4"]
    state = build({**L4, "A4": Down(card)})
    state.apply("draw A4 here r270")
    assert offered(state) == ["S1-S28"]


def test_only_lines_through_a_changed_card_are_offered():
    other = route(["G1", "G2", "G3", "G4"], "N", "E", cards=[4, 5, 6, 24])  # S7 ... S12
    state = build({**L4X, **other})
    assert why_not(state, connected(state, 7, 12)) is None  # valid, but nobody changed it
    state.apply("rotate A2 r270")
    assert offered(state) == ["S1-S28"]


def test_an_undeclared_line_needs_a_new_change_before_it_can_be_declared():
    state = close_by_rotating({**L4X, "F6": (20, 0), "F5": (21, 0)}, "A4", 0)
    assert offered(state) == ["S1-S28"]
    state.apply("declare none")
    assert state.seat == 1 and state.declared == []
    state.apply("rotate F6 r90")  # seat 1 does something else: nothing to declare
    assert offered(state) == [] and state.seat == 0
    state.apply("rotate F5 r90")
    assert offered(state) == [] and state.seat == 1
    state.apply("rotate A2 r90")  # seat 1 changes a card of the line: now it may be closed
    assert offered(state) == ["S1-S28"]
    assert state.seat == 1


def test_a_double_turn_may_close_a_line_its_first_action_changed():
    """The design says "the turn's own action(s)": a line completed by the first action of a
    double turn and left undeclared may still be declared after the second action."""
    card, right, _ = L4["A4"]
    state = build({**L4, "A4": (card, 0), "F6": (20, 0)})
    state.apply(f"rotate A4 r{right} special=double")
    assert offered(state) == ["S1-S28"]
    state.apply("declare none")
    assert state.seat == 0
    state.apply("rotate F6 r90")
    assert offered(state) == ["S1-S28"]
    play(state, "declare S1-S28")
    assert state.seat == 1 and state.changed == set()


def test_a_line_declared_this_action_is_not_offered_again():
    """After scoring, every card of a 4-card line carries a token, so it cannot be closed a
    second time by the same action."""
    state = close_by_rotating(L4, "A4", 0)
    state.apply("declare S1-S28")
    assert offered(state) == [] and state.seat == 1
    assert [state.energy[state.grid[cell(a)]] for a in ("A1", "A2", "A3", "A4")] == [1] * 4
