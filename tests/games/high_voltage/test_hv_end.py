"""The end of the game: energy supply exhausted, last card placed, no valid line possible
(checked against brute force), no legal action, and the final result."""

from __future__ import annotations

import itertools
import random

import pytest
from hv_positions import (
    DANGER,
    HIGH_VOLTAGE,
    NO_TOKEN,
    SIZE,
    THROUGH_C4,
    Down,
    build,
    cell,
    close_by_rotating,
    kind_of,
    name,
    random_walk,
    route,
    shapes,
)

from engine import IllegalActionError

L4 = route(["A1", "A2", "A3", "A4"], "N", "W")  # S1 ... S28


def assert_over(state, reason):
    assert state.is_terminal() and state.phase == "over"
    assert state.current_seat() is None and state.legal_actions() == []
    assert state.outcome().reason == reason
    with pytest.raises(IllegalActionError, match="The game is over"):
        state.apply("declare none")


# ---------------------------------------------------------------- energy tokens


def test_running_out_of_energy_during_a_line_ends_the_game_after_it():
    state = close_by_rotating(L4, "A4", 0, energy_supply=2)
    state.apply("declare S1-S28")
    assert state.energy_supply == 0
    # Tokens go on the line's cards in order until the supply is empty.
    assert [state.energy[state.grid[cell(a)]] for a in ("A1", "A2", "A3", "A4")] == [1, 1, 0, 0]
    assert state.declared[-1]["tokens_placed"] == 2
    assert state.company != [0, 0, 0, 0]  # the line itself still scored
    assert_over(state, "energy_tokens_exhausted")


def test_running_out_of_energy_ends_the_game_even_with_lines_left_to_declare():
    state = build({**THROUGH_C4, "C4": (32, 0)}, empty="G7", energy_supply=7)
    state.apply("rotate C4 r90")
    assert len(state.closable_lines()) == 2
    state.apply("declare S3-S21")
    assert_over(state, "energy_tokens_exhausted")
    assert len(state.declared) == 1


@pytest.mark.parametrize(("supply", "over"), [(3, True), (4, True), (5, False)])
def test_the_game_ends_when_the_last_energy_token_is_placed(supply, over):
    state = close_by_rotating(L4, "A4", 0, energy_supply=supply)
    state.apply("declare S1-S28")
    assert state.energy_supply == max(0, supply - 4)
    assert state.is_terminal() is over
    if over:
        assert_over(state, "energy_tokens_exhausted")
    else:
        assert state.seat == 1


def test_flipping_tokens_with_an_empty_supply_is_not_reached_mid_game():
    """Only HIGH VOLTAGE cards on the line and one token left: flipping takes none, so the
    one placement empties the supply and ends the game."""
    layout = {
        at: (card, degrees, HIGH_VOLTAGE if at != "A4" else NO_TOKEN)
        for at, (card, degrees, _) in L4.items()
    }
    state = close_by_rotating(layout, "A4", 0, energy_supply=1)
    state.apply("declare S1-S28")
    assert state.declared[-1]["tokens_flipped"] == 3
    assert_over(state, "energy_tokens_exhausted")


# ---------------------------------------------------------------- the last card

LAST_CARD = {**{at: L4[at] for at in ("A1", "A2", "A3")}, "A4": Down(L4["A4"][0])}


def test_the_last_card_placed_ends_the_game_after_its_lines_are_declared():
    state = build(LAST_CARD, rest="danger", energy_supply=10)
    assert state.face_down == 1
    state.apply("draw A4 here r270")
    assert not state.is_terminal()  # its line may still be declared
    assert [line.name for line in state.closable_lines()] == ["S1-S28"]
    state.apply("declare S1-S28")
    assert state.company == [6, 0, 0, 0]  # four red cards, red S1 and S28: scored first
    assert_over(state, "last_card_placed")


def test_the_last_card_placed_ends_the_game_when_its_line_is_not_declared():
    state = build(LAST_CARD, rest="danger", energy_supply=10)
    state.apply("draw A4 here r270")
    state.apply("declare none")
    assert_over(state, "last_card_placed")
    assert state.company == [0, 0, 0, 0]


@pytest.mark.parametrize("steps", [["draw A4 here r0"], ["draw A4", "place empty r90"]])
def test_the_last_card_placed_without_a_line_ends_the_game_at_once(steps):
    state = build(LAST_CARD, rest="danger", energy_supply=10)
    for text in steps:
        state.apply(text)
    assert_over(state, "last_card_placed")


def test_a_card_left_face_down_keeps_the_game_going():
    state = build({**LAST_CARD, "G7": Down(40)}, rest="danger", energy_supply=10)
    state.apply("draw A4 here r0")
    assert not state.is_terminal() and state.seat == 1


# ---------------------------------------------------------------- no valid line possible


def _nearly_spent(extra_clean_cells):
    """L4 with HIGH VOLTAGE on A1-A3 (A4 out of place), one face-down card, and some clean
    face-up cards far from it; everything else is DANGER."""
    layout = {
        at: (card, degrees, HIGH_VOLTAGE if at != "A4" else NO_TOKEN)
        for at, (card, degrees, _) in L4.items()
    }
    layout["A4"] = (layout["A4"][0], 0)
    layout["G7"] = Down(40)
    for at, card in zip(extra_clean_cells, (41, 42, 43), strict=False):
        layout[at] = (card, 0)
    return build(layout, rest="danger", energy_supply=10)


def test_the_game_ends_once_fewer_than_four_cards_could_carry_a_line():
    """After the line, A1-A3 carry DANGER and A4 HIGH VOLTAGE: what could still carry a line
    is the face-down card, one clean card and at most the one HIGH VOLTAGE card: 3 < 4."""
    state = _nearly_spent(["G3"])
    assert not state.no_line_possible()
    play_line(state)
    assert_over(state, "no_valid_line_possible")


def test_the_game_goes_on_while_four_cards_could_still_carry_a_line():
    """Never too early: with one more clean card the count is 4 and the game goes on."""
    state = _nearly_spent(["G3", "E3"])
    play_line(state)
    assert not state.is_terminal() and state.seat == 1
    assert not state.no_line_possible()


def play_line(state):
    state.apply("rotate A4 r270")
    assert [line.name for line in state.closable_lines()] == ["S1-S28"]
    state.apply("declare S1-S28")


def test_drawing_a_danger_card_can_end_the_game():
    """Face-down cards count as usable (nobody knows what they hide); once one turns out to
    be a DANGER card, only three usable cards remain."""
    state = build(
        {"A1": Down(44), "G7": Down(5), "C3": (16, 0), "E5": (17, 0)},
        rest="danger",
        energy_supply=10,
    )
    assert not state.no_line_possible()
    state.apply("draw A1 here r0")
    assert_over(state, "no_valid_line_possible")


def frozen(layout, **options):
    """A position where only rotations remain: nothing face down, no action or special
    tokens, every card not in `layout` unusable."""
    options.setdefault("action_tokens", [0, 0])
    options.setdefault("special_tokens", [0, 0])
    empty = options.pop("empty", "G7")
    return build(layout, rest="danger", empty=empty, energy_supply=10, **options)


ROTATABLE_L = {"A1": (0, 90), "A2": (1, 90), "A3": (2, 90), "A4": (16, 0)}


def test_rotations_can_still_make_a_line():
    state = frozen(ROTATABLE_L)
    assert state._board.line_from(1) is None  # no line now...
    assert not state.no_line_possible()  # ...but turning the cards makes S1-S28


def test_rotations_cannot_make_a_line_without_a_curve_where_one_is_needed():
    state = frozen({**ROTATABLE_L, "A4": (3, 0)})  # four straights in a column
    assert state.no_line_possible()


def test_with_tokens_left_moves_might_still_make_a_line():
    """The same dead column is not the end while someone can still move or swap."""
    assert not frozen({**ROTATABLE_L, "A4": (3, 0)}, action_tokens=[0, 1]).no_line_possible()
    assert not frozen({**ROTATABLE_L, "A4": (3, 0)}, special_tokens=[1, 0]).no_line_possible()
    layout = {**ROTATABLE_L, "A4": (3, 0), "G6": Down(20)}
    assert not frozen(layout).no_line_possible()


@pytest.mark.parametrize(("tokens", "possible"), [(3, True), (4, False)])
def test_rotation_only_lines_respect_the_high_voltage_limit(tokens, possible):
    layout = {
        at: (card, degrees, HIGH_VOLTAGE if i < tokens else NO_TOKEN)
        for i, (at, (card, degrees)) in enumerate(ROTATABLE_L.items())
    }
    assert frozen(layout).no_line_possible() is not possible


@pytest.mark.parametrize(("tokens", "possible"), [(3, True), (4, False)])
def test_rotation_search_counts_high_voltage_tokens_on_the_line(tokens, possible):
    """A clean card far away keeps the simple count at 4, so the search itself must notice
    that the only possible line would carry 4 HIGH VOLTAGE tokens."""
    layout = {
        at: (card, degrees, HIGH_VOLTAGE if i < tokens else NO_TOKEN)
        for i, (at, (card, degrees)) in enumerate(ROTATABLE_L.items())
    }
    layout["F6"] = (20, 0)
    assert frozen(layout).no_line_possible() is not possible


def test_scattered_cards_cannot_form_a_line():
    state = frozen({"B2": (16, 0), "D2": (17, 0), "F2": (18, 0), "B6": (19, 0), "D6": (0, 0)})
    assert state.no_line_possible()


# ---------------------------------------------------------------- brute force


def brute_force_line_exists(state) -> bool:
    """Try every orientation of every usable face-up card and look for a valid line with the
    engine's path-following; the "changed this turn" rule does not matter here (a player can
    always turn a card of the line away and back)."""
    board = state._board
    setup = state.setup
    usable = [
        card
        for card in range(len(state.cards))
        if state.card_up[card] and not state._is_danger(card)
    ]
    choices = []
    for card in usable:
        pictures = {}  # orientations with different path geometry
        for quarters in range(4):
            pictures.setdefault(state.cards.exits[card][quarters], quarters)
        choices.append(list(pictures.values()))
    starts = [st.number for st in state.geo.stations.values() if state.grid[st.cell] in usable]
    saved = list(state.rot)
    try:
        for combo in itertools.product(*choices):
            for card, quarters in zip(usable, combo, strict=True):
                state.rot[card] = quarters
            for number in starts:
                line = board.line_from(number)
                if line is not None and (
                    board.problem(line, setup.min_line_cards, setup.max_high_voltage_on_line)
                    is None
                ):
                    return True
        return False
    finally:
        state.rot[:] = saved


def random_frozen(rng: random.Random):
    """4-7 usable cards, some with HIGH VOLTAGE tokens, the rest of the board unusable.

    Most positions follow a random chain of cells from the frame to the frame with cards that
    mostly fit its shape, so that a line is often (not always) within reach; the others are
    cards dropped anywhere."""
    count = rng.randint(4, 7)
    high_voltage = rng.choice((0.0, 0.15, 0.6))  # share of cards with a HIGH VOLTAGE token
    cells: list[int] = []
    kinds: list[str] = []
    walk = None
    for _ in range(100 if rng.random() < 0.8 else 0):
        walk = random_walk(rng, set())
        if walk is not None and 4 <= len(walk[0]) <= count:
            break
        walk = None
    if walk is not None:
        chain, enter, leave = walk
        for here, (a, b) in zip(chain, shapes(chain, enter, leave), strict=True):
            straight = "NESW".index(a) % 2 == "NESW".index(b) % 2
            fits = ("straight", "crossing") if straight else ("curve", "double_curve")
            cells.append(cell(here))
            kinds.append(rng.choice(fits) if rng.random() < 0.85 else rng.choice(KINDS))
    while len(cells) < count:
        candidate = rng.randrange(SIZE * SIZE)
        if candidate not in cells:
            cells.append(candidate)
            kinds.append(rng.choice(KINDS))
    pools = {kind: [c for c in range(44) if kind_of(c) == kind] for kind in KINDS}
    for pool in pools.values():
        rng.shuffle(pool)
    spare = {"crossing": "straight", "double_curve": "curve"}  # only 8 and 4 of those
    layout = {
        name(at): (
            (pools[kind] or pools[spare[kind]]).pop(),
            90 * rng.randrange(4),
            HIGH_VOLTAGE if rng.random() < high_voltage else NO_TOKEN,
        )
        for at, kind in zip(cells, kinds, strict=True)
    }
    empty = next(i for i in range(SIZE * SIZE) if i not in cells)
    return frozen(layout, empty=name(empty))


KINDS = ("straight", "curve", "crossing", "double_curve")


def test_brute_force_agrees_on_the_hand_made_positions():
    assert brute_force_line_exists(frozen(ROTATABLE_L))
    assert not brute_force_line_exists(frozen({**ROTATABLE_L, "A4": (3, 0)}))


@pytest.mark.parametrize("seed", range(10))
def test_no_line_possible_matches_brute_force(seed):
    """Sound (True means brute force finds no line) and, in these rotation-only positions,
    exact (False means brute force finds one)."""
    rng = random.Random(seed)
    found = {True: 0, False: 0}
    for _ in range(60):
        state = random_frozen(rng)
        exists = brute_force_line_exists(state)
        assert state.no_line_possible() is not exists, state.view(None)["cells"]
        found[exists] += 1
    # Both answers occur, so the comparison tested something either way.
    assert found[True] >= 3 and found[False] >= 3


# ---------------------------------------------------------------- no legal action


@pytest.mark.parametrize(
    ("layout", "options", "any_action"),
    [
        ({}, {}, False),  # only DANGER left and no tokens: nothing at all
        ({}, {"special_tokens": [1, 0]}, True),  # the special token moves a DANGER card
        ({}, {"action_tokens": [1, 0]}, False),  # action tokens cannot move DANGER cards
        ({"B2": (16, 0)}, {}, True),  # a rotation
        ({"B2": Down(16)}, {}, True),  # a draw
    ],
)
def test_no_legal_action_check_agrees_with_legal_actions(layout, options, any_action):
    """The "no legal action" end rests on `_has_action`; it must agree with the list of
    legal actions in every kind of position."""
    state = frozen(layout, **options)
    assert state._has_action() is any_action
    assert bool(state.legal_actions()) is any_action


# ---------------------------------------------------------------- the result


def finished(colours, company, point_tokens):
    """Play the last card (no line) in a position with given scores, colours and tokens."""
    state = build(
        {"A4": Down(16)},
        seats=len(colours),
        rest="danger",
        energy_supply=10,
        colours=colours,
        company=company,
        point_tokens=point_tokens,
    )
    state.apply("draw A4 here r0")
    assert state.outcome().reason == "last_card_placed"
    return state.outcome()


def test_final_score_is_company_points_plus_point_tokens():
    result = finished(["blue", "red"], company=[5, 9, 1, 4], point_tokens=[3, 1])
    assert result.scores == (4 + 3, 5 + 1)
    assert result.winners == (0,)
    assert result.details["colours"] == ["blue", "red"]
    assert result.details["company_scores"] == {"red": 5, "yellow": 9, "green": 1, "blue": 4}
    assert result.details["unowned"] == ["yellow", "green"]  # they scored, but no one's
    assert result.details["point_tokens"] == [3, 1]


def test_a_tie_is_a_shared_win():
    result = finished(["green", "yellow", "red"], company=[2, 6, 5, 0], point_tokens=[1, 0, 4])
    assert result.scores == (6, 6, 6)
    assert result.winners == (0, 1, 2)
    assert result.details["unowned"] == ["blue"]


def test_with_four_players_every_colour_is_owned():
    result = finished(["red", "yellow", "green", "blue"], [1, 2, 3, 4], [0, 0, 1, 0])
    assert result.details["unowned"] == []
    assert result.winners == (2, 3)


def test_colours_are_revealed_to_everyone_at_the_end():
    state = build({"A4": Down(16)}, seats=3, rest="danger", energy_supply=10)
    assert [p["colour"] for p in state.view(None)["players"]] == [None] * 3
    state.apply("draw A4 here r0")
    colours = [state.setup.colours[c] for c in state.seat_colour]
    for viewer in (None, 0, 1, 2):
        view = state.view(viewer)
        assert [p["colour"] for p in view["players"]] == colours
        assert view["outcome"]["reason"] == "last_card_placed"


def test_apply_after_the_end_is_refused():
    state = build({"A4": Down(16)}, rest="danger", energy_supply=10)
    state.apply("draw A4 here r0")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="The game is over"):
        state.apply("rotate A4 r90")
    assert state.to_dict() == before


def test_outcome_is_none_while_the_game_runs():
    state = build({"B2": (16, 0)})
    assert state.outcome() is None and not state.is_terminal()
    assert state.view(None)["outcome"] is None


def test_energy_tokens_show_in_every_view():
    layout = {**L4, "A1": (*L4["A1"][:2], HIGH_VOLTAGE)}
    state = close_by_rotating(layout, "A4", 0)
    state.apply("declare S1-S28")
    for viewer in (0, 1, None):
        cells = state.view(viewer)["cells"]
        assert cells[cell("A1")]["energy"] == "danger"
        assert cells[cell("A2")]["energy"] == "high_voltage"
        assert cells[cell("B2")] == {"cell": "B2", "state": "down"}
    assert state.energy[L4["A1"][0]] == DANGER
