"""High Voltage actions: their text form, and the rules for draw, rotate, move, swap and the
special action token, each checked on a hand-built position."""

from __future__ import annotations

import pytest
from hv_positions import DANGER, HIGH_VOLTAGE, Down, build, cell, play

from engine import ActionSyntaxError, IllegalActionError
from games.high_voltage.rules import (
    Declare,
    DeclareNone,
    Draw,
    Move,
    Place,
    Rotate,
    Swap,
    parse_action,
)

# ---------------------------------------------------------------- text form

CANONICAL = [
    ("draw C3", Draw("C3")),
    ("draw C3 empty r90", Draw("C3", "empty", 90)),
    ("draw C3 here r0", Draw("C3", "here", 0)),
    ("draw C3 D4 r180 special=double", Draw("C3", "D4", 180, "double")),
    ("place here r270", Place("here", 270)),
    ("place empty r0", Place("empty", 0)),
    ("rotate E4 r180", Rotate("E4", 180)),
    ("rotate E4 r90 special=double", Rotate("E4", 90, "double")),
    ("move E4 r90", Move("E4", 90)),
    ("move E4 r90 special=danger", Move("E4", 90, "danger")),
    ("swap B2 F6 r0 r270", Swap("B2", "F6", 0, 270)),
    ("swap B2 F6 r0 r270 special=double", Swap("B2", "F6", 0, 270, "double")),
    ("declare S3-S17", Declare(3, 17)),
    ("declare none", DeclareNone()),
]


@pytest.mark.parametrize(("text", "action"), CANONICAL)
def test_canonical_text_round_trips(text, action):
    """The log, the bot and the replays all rely on parse(text(a)) == a and back."""
    assert parse_action(text) == action
    assert action.text() == text
    assert parse_action(action.text()) == action


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("declare S17-S3", "declare S3-S17"),  # stations are kept lower first
        ("declare 17-3", "declare S3-S17"),
        ("close s3 - s17", "declare S3-S17"),
        ("declare pass", "declare none"),
        ("DRAW c3 TO d4 R90", "draw C3 D4 r90"),
        ("pick c3", "draw C3"),
        ("turn e4 90", "rotate E4 r90"),
        ("rotate e4 270°", "rotate E4 r270"),
        ("  swap b2, f6, r0, r270  ", "swap B2 F6 r0 r270"),
        ("move e4 r90 special=none", "move E4 r90"),
    ],
)
def test_forgiving_spellings_normalise(typed, canonical):
    """A person may type loosely; the stored text is always the one canonical form."""
    assert parse_action(typed).text() == canonical


def test_declare_order_of_stations_does_not_matter():
    assert Declare(17, 3) == Declare(3, 17)
    assert hash(Declare(17, 3)) == hash(Declare(3, 17))
    assert Declare(17, 3).name == "S3-S17"


@pytest.mark.parametrize(("text", "action"), CANONICAL)
def test_repr_round_trips_and_actions_are_values(text, action):
    """Actions are frozen values: repr evaluates back to an equal action, equal ones hash
    alike and can be used as dict keys (the AI and the tests do)."""
    names = {cls.__name__: cls for cls in (Draw, Place, Rotate, Move, Swap, Declare, DeclareNone)}
    assert eval(repr(action), names) == action
    assert {action: 1}[parse_action(text)] == 1
    with pytest.raises(AttributeError):
        action.special = "double"  # frozen: an action never changes after it is made


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "it is empty"),
        ("fly C3", "'fly' is not an action"),
        ("draw", "draw takes a cell"),
        ("draw C3 empty", "draw takes a cell"),
        ("draw C3 empty r45", "r0, r90, r180 or r270"),
        ("rotate 3C r90", "not a cell like C3"),
        ("rotate E4", "rotate takes a cell and an orientation"),
        ("move E4 r90 r180", "move takes a cell and an orientation"),
        ("swap B2 F6 r0", "swap takes two cells and an orientation for each"),
        ("move E4 r90 special=triple", "special must be danger or double"),
        ("place here", "place takes where"),
        ("place here r90 special=double", "announce special tokens with the draw"),
        ("declare S3", "declare takes two stations"),
        ("declare S3-S17 special=double", "declaring a line takes no special token"),
        ("special=double", "names no action"),
    ],
)
def test_bad_text_is_a_syntax_error_that_shows_the_legal_forms(text, why):
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(text)
    message = str(caught.value)
    assert why in message
    # Whatever was wrong, the player is shown what a well-formed action looks like.
    for form in ("draw C3", "rotate E4 r90", "swap B2 F6 r0 r270", "declare none"):
        assert form in message


def test_a_cell_outside_the_grid_is_a_syntax_error_naming_the_range():
    state = build({"B2": (0, 0)})
    before = state.to_dict()
    with pytest.raises(ActionSyntaxError, match="A1 to G7"):
        state.apply("rotate H9 r90")
    assert state.to_dict() == before


# ---------------------------------------------------------------- rotation


def _legal(kind: str, frm: int, to: int) -> bool:
    """The rule, worked out by hand from the pictures: a straight or a two-colour crossing
    looks the same after a half turn, a curve or a two-colour double curve never does."""
    if to == frm:
        return False
    if kind in ("straight", "crossing"):
        return (to - frm) % 180 != 0
    return True


EXEMPLARS = {"straight": 0, "curve": 16, "crossing": 32, "double_curve": 40}


@pytest.mark.parametrize("kind", sorted(EXEMPLARS))
@pytest.mark.parametrize("frm", [0, 90, 180, 270])
@pytest.mark.parametrize("to", [0, 90, 180, 270])
def test_rotation_is_legal_only_if_the_picture_changes(kind, frm, to):
    state = build({"B2": (EXEMPLARS[kind], frm)})
    before = state.to_dict()
    if _legal(kind, frm, to):
        state.apply(f"rotate B2 r{to}")
        assert state.rot[EXEMPLARS[kind]] == to // 90
        assert state.history == [f"rotate B2 r{to}"]
        assert state.seat == 1  # the turn passed
    else:
        with pytest.raises(IllegalActionError, match="Legal: "):
            state.apply(f"rotate B2 r{to}")
        assert state.to_dict() == before


def test_illegal_rotation_message_lists_the_legal_orientations():
    state = build({"B2": (0, 0), "C2": (32, 90)})
    with pytest.raises(IllegalActionError) as straight:
        state.apply("rotate B2 r180")
    assert "same picture" in str(straight.value)
    assert str(straight.value).endswith("Legal: r90, r270.")
    with pytest.raises(IllegalActionError) as crossing:
        state.apply("rotate C2 r270")
    assert crossing.value.args[0].endswith("Legal: r0, r180.")
    with pytest.raises(IllegalActionError, match="already at r90"):
        state.apply("rotate C2 r90")


def test_legal_actions_offer_exactly_the_legal_rotations():
    state = build({"B2": (0, 90), "C2": (16, 0)})
    offered = {a.text() for a in state.legal_actions() if isinstance(a, Rotate) and not a.special}
    assert {t for t in offered if t.startswith("rotate B2")} == {"rotate B2 r0", "rotate B2 r180"}
    assert {t for t in offered if t.startswith("rotate C2")} == {
        "rotate C2 r90",
        "rotate C2 r180",
        "rotate C2 r270",
    }


@pytest.mark.parametrize(
    ("layout", "why"),
    [
        ({"B2": (44, 0)}, "B2 is a DANGER card"),
        ({"B2": (16, 0, DANGER)}, "B2 carries a DANGER token"),
    ],
)
def test_danger_cannot_be_rotated_even_with_the_special_token(layout, why):
    state = build(layout)
    before = state.to_dict()
    for text in ("rotate B2 r90", "rotate B2 r90 special=double", "rotate B2 r90 special=danger"):
        with pytest.raises(IllegalActionError, match=why):
            state.apply(text)
    assert state.to_dict() == before


def test_a_high_voltage_token_does_not_stop_rotation():
    state = build({"B2": (16, 0, HIGH_VOLTAGE)})
    state.apply("rotate B2 r90")
    assert state.rot[16] == 1


def test_special_danger_is_not_for_rotations():
    state = build({"B2": (16, 0)})
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="only for moving or swapping"):
        state.apply("rotate B2 r90 special=danger")
    assert state.to_dict() == before


@pytest.mark.parametrize(("cell_name", "why"), [("D4", "empty cell"), ("A1", "face down")])
def test_rotate_needs_a_face_up_card(cell_name, why):
    state = build({"B2": (16, 0)})
    with pytest.raises(IllegalActionError, match=why):
        state.apply(f"rotate {cell_name} r90")


# ---------------------------------------------------------------- draw


def test_draw_only_from_a_face_down_cell():
    state = build({"B2": (16, 0), "C3": Down(5)})
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="B2 is face up already"):
        state.apply("draw B2")
    with pytest.raises(IllegalActionError, match="D4 is the empty cell"):
        state.apply("draw D4 here r0")
    assert state.to_dict() == before


@pytest.mark.parametrize(
    ("place", "lands_on", "empty_after"), [("here", "C3", "D4"), ("empty", "D4", "C3")]
)
def test_a_drawn_card_goes_back_or_into_the_empty_cell(place, lands_on, empty_after):
    state = build({"C3": Down(5)})
    face_down = state.face_down
    state.apply(f"draw C3 {place} r90")
    assert state.grid[cell(lands_on)] == 5
    assert state.card_up[5] and state.rot[5] == 1
    assert state.grid.count(-1) == 1 and state.grid[cell(empty_after)] == -1
    assert state.face_down == face_down - 1


def test_a_drawn_card_goes_nowhere_else():
    state = build({"C3": Down(5)})
    state.apply("draw C3")
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        state.apply("place E4 r0")
    # The message names the two places the card may go.
    assert "C3" in str(caught.value) and "D4" in str(caught.value)
    assert state.to_dict() == before
    with pytest.raises(IllegalActionError, match="First place the card you drew from C3"):
        state.apply("rotate B2 r90")
    state.apply("place D4 r0")  # naming the empty cell is the same as "empty"
    assert state.grid[cell("D4")] == 5
    assert state.history == ["draw C3", "place empty r0"]


def test_one_step_draw_equals_draw_then_place():
    one = build({"C3": Down(33)})
    two = build({"C3": Down(33)})
    one.apply("draw C3 empty r90")
    play(two, "draw C3", "place empty r90")
    a, b = one.to_dict(), two.to_dict()
    assert a.pop("history") == ["draw C3 empty r90"]
    assert b.pop("history") == ["draw C3", "place empty r90"]
    assert a == b


def test_the_drawn_face_is_seen_by_the_drawer_only():
    state = build({"C3": Down(32)}, seats=3, seat=1)
    state.apply("draw C3")
    assert state.phase == "placing"
    mine = state.view(1)["drawn"]
    assert mine["cell"] == "C3"
    assert mine["kind"] == "crossing"
    assert {(tuple(p["edges"]), p["colour"]) for p in mine["paths"]} == {
        (("N", "S"), "red"),
        (("E", "W"), "yellow"),
    }
    for other in (0, 2, None):
        view = state.view(other)
        assert view["drawn"] == {"cell": "C3"}
        assert view["cells"][cell("C3")] == {"cell": "C3", "state": "down"}
    # The drawer's own board still shows the cell face down until the card is placed.
    assert state.view(1)["cells"][cell("C3")]["state"] == "down"


def test_a_placed_card_is_public():
    state = build({"C3": Down(32)})
    state.apply("draw C3 here r90")
    for viewer in (0, 1, None):
        entry = state.view(viewer)["cells"][cell("C3")]
        assert entry["state"] == "up" and entry["kind"] == "crossing" and entry["rotation"] == 90


# ---------------------------------------------------------------- move and swap


def test_move_spends_an_action_token_and_fills_the_empty_cell():
    state = build({"B2": (16, 0)})
    state.apply("move B2 r180")
    assert state.action_tokens == [4, 5]
    assert state.special_tokens == [1, 1]
    assert state.grid[cell("D4")] == 16 and state.rot[16] == 2
    assert state.grid[cell("B2")] == -1


def test_swap_spends_an_action_token_and_turns_both_cards():
    state = build({"B2": (16, 0), "F6": (0, 0)})
    state.apply("swap B2 F6 r90 r270")
    assert state.action_tokens == [4, 5]
    assert state.grid[cell("B2")] == 0 and state.grid[cell("F6")] == 16
    assert (state.rot[16], state.rot[0]) == (1, 3)
    assert state.pos[16] == cell("F6") and state.pos[0] == cell("B2")


@pytest.mark.parametrize("text", ["move B2 r90", "swap B2 F6 r0 r0"])
def test_without_action_tokens_move_and_swap_are_refused(text):
    state = build({"B2": (16, 0), "F6": (0, 0)}, action_tokens=[0, 5])
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="no action tokens left"):
        state.apply(text)
    assert state.to_dict() == before
    offered = {type(a) for a in state.legal_actions() if not a.special}
    assert Move not in offered and Swap not in offered


@pytest.mark.parametrize(
    ("layout", "text"),
    [
        ({"B2": (16, 0, DANGER), "F6": (0, 0)}, "move B2 r90"),
        ({"B2": (44, 0), "F6": (0, 0)}, "move B2 r90"),
        ({"B2": (16, 0, DANGER), "F6": (0, 0)}, "swap F6 B2 r0 r0"),
        ({"B2": (44, 0), "F6": (0, 0)}, "swap B2 F6 r0 r0"),
    ],
)
def test_danger_moves_and_swaps_need_the_special_token(layout, text):
    state = build(layout)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="add special=danger"):
        state.apply(text)
    with pytest.raises(IllegalActionError, match="add special=danger"):
        state.apply(text + " special=double")
    assert state.to_dict() == before
    state.apply(text + " special=danger")
    # The special token pays instead of an action token.
    assert state.special_tokens == [0, 1]
    assert state.action_tokens == [5, 5]
    card = layout["B2"][0]
    assert state.pos[card] != cell("B2")


def test_special_danger_on_an_ordinary_card_is_refused():
    state = build({"B2": (16, 0), "F6": (0, 0)})
    before = state.to_dict()
    for text in ("move B2 r90 special=danger", "swap B2 F6 r0 r0 special=danger"):
        with pytest.raises(IllegalActionError, match="spend an action token"):
            state.apply(text)
    with pytest.raises(IllegalActionError, match="only for moving or swapping"):
        state.apply("draw A1 here r0 special=danger")
    assert state.to_dict() == before


def test_danger_move_after_the_special_token_is_used():
    state = build({"B2": (16, 0, DANGER)}, special_tokens=[0, 1])
    with pytest.raises(IllegalActionError, match="yours is used"):
        state.apply("move B2 r90 special=danger")
    assert not any(a.special == "danger" for a in state.legal_actions())


def test_a_double_turn_gives_the_same_seat_a_second_action():
    state = build({"B2": (16, 0), "C2": (17, 0)})
    state.apply("rotate B2 r90 special=double")
    assert state.seat == 0 and state.double_turn
    assert state.special_tokens == [0, 1]
    with pytest.raises(IllegalActionError, match="special action token already"):
        state.apply("rotate C2 r90 special=double")
    state.apply("rotate C2 r90")
    assert state.seat == 1 and not state.double_turn
    assert state.turns_played == 1


def test_a_double_turn_is_announced_with_the_first_action_only():
    """Even a seat that still holds a special token (setup data may hand out more than one)
    cannot turn its second action into a third."""
    state = build({"B2": (16, 0), "C2": (17, 0)}, special_tokens=[2, 1])
    state.apply("rotate B2 r90 special=double")
    before = state.to_dict()
    for text in ("rotate C2 r90 special=double", "move C2 r90 special=double"):
        with pytest.raises(IllegalActionError, match="first action of the turn"):
            state.apply(text)
    assert state.to_dict() == before
    assert not any(a.special == "double" for a in state.legal_actions())


@pytest.mark.parametrize(
    "first",
    ["draw A1 here r0 special=double", "move B2 r0 special=double", "draw A1 special=double"],
)
def test_double_turn_can_be_announced_with_any_first_action(first):
    state = build({"B2": (16, 0), "C2": (17, 0)})
    state.apply(first)
    if state.phase == "placing":
        state.apply("place here r0")
    assert state.seat == 0 and state.actions_taken == 1
    state.apply("rotate C2 r180")
    assert state.seat == 1


def test_no_special_is_offered_on_the_second_action_of_a_double_turn():
    """The double turn spent the one special token, so neither another double nor a DANGER
    move is offered (B3 carries a DANGER token that could otherwise be moved)."""
    state = build({"B2": (16, 0), "C2": (17, 0), "B3": (18, 0, DANGER)})
    assert any(a.special == "danger" for a in state.legal_actions())
    state.apply("rotate B2 r90 special=double")
    assert all(a.special is None for a in state.legal_actions())


def test_the_special_token_is_one_per_game():
    state = build({"B2": (16, 0), "C2": (17, 0)})
    play(state, "rotate B2 r90 special=double", "rotate C2 r90", "rotate B2 r180")
    assert state.seat == 0 and state.special_tokens == [0, 1]
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="used your special action token already"):
        state.apply("rotate C2 r180 special=double")
    assert state.to_dict() == before
    assert all(a.special is None for a in state.legal_actions())


def test_declaring_outside_the_declaring_step_is_refused():
    state = build({"B2": (16, 0)})
    for text in ("declare S1-S28", "declare none", "place here r0"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
