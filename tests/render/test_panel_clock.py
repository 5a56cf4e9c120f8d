"""The turn clock on the board pictures' panels: the time the person to move has left.

Each picture is drawn with and without a clock and decoded; the pixels that differ must all
lie in the part of the panel the clock belongs to, so a clock drawn over the board, another
player's card or off the picture fails. Without a clock (None) a picture must stay the same
to the byte: the bot posts it after every move of every game without a clock.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops
from same_pictures import same_picture
from sector6_positions import position

from games import find_game
from games.high_voltage.pictures import THEME, hv_board_image, hv_board_png
from games.high_voltage.pictures.layout import board_side as hv_board_side
from games.high_voltage.pictures.panel import CLOCK_TOP, LAST_TOP, clock_room
from games.high_voltage.rules import Draw
from games.pylons.pictures import PYLONS_THEME, pylons_board_image, pylons_board_png
from games.pylons.pictures.board import CARD_H as PYLONS_CARD_H
from games.pylons.pictures.board import CLOCK_MAX as PYLONS_CLOCK_MAX
from games.pylons.pictures.board import PAD as PYLONS_PAD
from games.pylons.pictures.board import board_side as pylons_board_side
from games.sector6.pictures import SECTOR6_THEME, sector6_board_image, sector6_board_png
from games.sector6.pictures.panel_layout import CARD_H as SECTOR6_CARD_H
from games.sector6.pictures.panel_layout import TURN_CLOCK_MAX
from games.sector6.pictures.style import PAD as SECTOR6_PAD
from hvbot.messages.presenters import presenter_for
from render.fonts import drawable, font

Box = tuple[int, int, int, int]  # left, top, right (exclusive), bottom (exclusive)
View = dict[str, Any]

CLOCK = "⏳ 42 minutes left"
LONG = "⏳ 3 days, 23 hours and 59 minutes left to make your move"  # ~55 characters
WORDY = "il reste 59 minutes"  # the widest clock the bot says (in French)
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri"]


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def changed(a: bytes, b: bytes) -> Box | None:
    """The bounding box of the pixels that differ between two pictures of the same size."""
    first, second = decode(a).convert("RGB"), decode(b).convert("RGB")
    assert first.size == second.size
    return ImageChops.difference(first, second).getbbox()


def changed_in(a: bytes, b: bytes, area: Box) -> Box | None:
    """`changed`, for the pixels inside `area` only (in the picture's coordinates)."""
    first, second = (decode(png).convert("RGB").crop(area) for png in (a, b))
    box = ImageChops.difference(first, second).getbbox()
    if box is None:
        return None
    return (box[0] + area[0], box[1] + area[1], box[2] + area[0], box[3] + area[1])


def rightmost_ink(png: bytes, area: Box, ground: tuple[int, int, int], gap: int = 10) -> Box:
    """The x span of the rightmost run of inked columns (any pixel not `ground`) in `area`,
    runs being apart by at least `gap` bare columns: a right-aligned label, told apart from
    the text left of it."""
    crop = decode(png).convert("RGB").crop(area)
    bare = Image.new("RGB", crop.size, ground)
    ink = ImageChops.difference(crop, bare).convert("L")
    columns = [x for x in range(ink.width) if ink.crop((x, 0, x + 1, ink.height)).getbbox()]
    assert columns, "nothing drawn there"
    right = left = columns[-1]
    for x in reversed(columns[:-1]):
        if left - x > gap:
            break
        left = x
    return left + area[0], area[1], right + 1 + area[0], area[3]


def inside(box: Box | None, area: Box) -> bool:
    return box is not None and all(
        (box[0] >= area[0], box[1] >= area[1], box[2] <= area[2], box[3] <= area[3])
    )


def played(game: str, seats: int, seed: int, *, until_over: bool = False) -> Any:
    """A real game: played at random to its end, or for a few moves."""
    state = find_game(game).new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(10_000 if until_over else 12):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    assert state.is_terminal() == until_over
    return state


# ----------------------------------------------------------------------------- High Voltage


def hv_view(*, placing: bool = False) -> View:
    """Four seats a few moves in; `placing`: the player to move has just drawn a card (the
    panel's detail line is then short, so it never needs to make room for a long clock)."""
    state = played("high-voltage", 4, 5)
    if placing:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Draw)))
        assert state.view(None)["phase"] == "placing"
    return state.view(None)


def hv_corner(n: int = 7) -> Box:
    """The clock's place: the right half under the supply, down to the divider's end."""
    top = hv_board_side(THEME, n)
    left = round(hv_board_side(THEME, n) * 0.6) + 16
    return (
        left - 2,
        top + CLOCK_TOP - 4,
        left + clock_room(hv_board_side(THEME, n)) + 1,
        top + LAST_TOP - 14,
    )


def test_hv_clock_is_drawn_under_the_supply_only() -> None:
    view = hv_view()
    plain = hv_board_png(view, names=NAMES)
    box = changed(plain, hv_board_png(view, names=NAMES, clock=CLOCK))
    assert inside(box, hv_corner()), box
    assert box is not None and box[0] <= hv_corner()[0] + 4, "left-aligned with the scores"


def test_hv_long_clock_is_cut_to_its_room() -> None:
    view = hv_view(placing=True)
    assert font(21).getlength(drawable(LONG)) > clock_room(hv_board_side(THEME))
    plain, clocked = hv_board_png(view), hv_board_png(view, clock=LONG)
    assert inside(changed(plain, clocked), hv_corner())
    _, top, right, bottom = hv_corner()
    assert changed_in(plain, clocked, (right - 30, top, right, bottom)), "cut at its room's end"


def test_hv_clock_leaves_the_detail_as_it_is() -> None:
    """In French the detail nearly fills its line: the clock takes none of it."""
    view = hv_view()
    box = changed(hv_board_png(view, language="fr"), hv_board_png(view, language="fr", clock=LONG))
    assert inside(box, hv_corner()), box


def test_hv_image_takes_the_clock_too() -> None:
    view = hv_view()
    with_clock = hv_board_image(view, names=NAMES, clock=CLOCK).convert("RGB")
    without = hv_board_image(view, names=NAMES).convert("RGB")
    assert inside(ImageChops.difference(with_clock, without).getbbox(), hv_corner())


# ----------------------------------------------------------------------------- Pylons


def pylons_view(seat: int) -> View:
    """Blue on K12 and M13, red on L14 and D3 (seed 31); then `seat` is to move."""
    state = find_game("pylons").new_state(2, 31)
    state.apply("keep")
    for cell in ("K12", "L14", "M13", "D3", "E5")[: 4 + seat]:
        state.apply(f"place {cell}")
    view = state.view(None)
    assert view["current_seat"] == seat
    return view


def pylons_card(seat: int) -> Box:
    """The card of a player, from the right of its pylon to the left of its score."""
    top = pylons_board_side()
    card_w = (PYLONS_THEME.cell * 24 + 2 * PYLONS_THEME.margin - 3 * PYLONS_PAD) // 2
    x = PYLONS_PAD + seat * (card_w + PYLONS_PAD)
    return (x + 52, top + 12, x + card_w - 14, top + 12 + PYLONS_CARD_H)


@pytest.mark.parametrize("seat", [0, 1])
def test_pylons_clock_is_on_the_card_of_the_player_to_move(seat: int) -> None:
    view = pylons_view(seat)
    plain = pylons_board_png(view, names=NAMES[:2])
    box = changed(plain, pylons_board_png(view, names=NAMES[:2], clock=CLOCK))
    left, top, right, _ = pylons_card(seat)
    name_row = (left + 40, top, right - 40, top + 36)  # after "Ada" or "Bruno", before "score"
    assert inside(box, name_row), box


def test_pylons_long_clock_and_long_name_share_the_card() -> None:
    view = pylons_view(0)
    names = ["Bartholomew Montgomery-Smythe", "Wilhelmina Featherstonehaugh"]
    assert font(12, False).getlength(drawable(LONG)) > PYLONS_CLOCK_MAX
    box = changed(
        pylons_board_png(view, names=names), pylons_board_png(view, names=names, clock=LONG)
    )
    assert inside(box, pylons_card(0)), box


def test_pylons_image_takes_the_clock_too() -> None:
    view = pylons_view(0)
    with_clock = pylons_board_image(view, clock=CLOCK).convert("RGB")
    without = pylons_board_image(view).convert("RGB")
    assert inside(ImageChops.difference(with_clock, without).getbbox(), pylons_card(0))


# ----------------------------------------------------------------------------- Sector 6


def sector6_view() -> View:
    """Player 1 has just moved C2 -> C5 and may still collect, rotate or end the turn."""
    tiles = {f"C{row}": ("single", 1) for row in range(2, 8)}
    tiles |= {"D5": ("row", 0), "D6": ("entry", 0), "E6": ("entry", 1), "A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C2", "D6"], 1: ["A2", "E6"]})
    state.apply("move C2 C5")
    return state.view(None)


def sector6_status_row() -> Box:
    """The status line: under the cards, above the last turn's line."""
    y = SECTOR6_THEME.board_height + 14 + SECTOR6_CARD_H + 18
    return (SECTOR6_PAD, y - 8, SECTOR6_THEME.width - SECTOR6_PAD + 1, y + 30)


def test_sector6_clock_ends_the_status_line() -> None:
    view = sector6_view()
    plain = sector6_board_png(view, names=NAMES[:2])
    box = changed(plain, sector6_board_png(view, names=NAMES[:2], clock=CLOCK))
    _, top, right, bottom = sector6_status_row()
    assert inside(box, (right - TURN_CLOCK_MAX - 1, top, right, bottom)), box
    assert box is not None and box[2] >= right - 4, "right-aligned at the panel's edge"


def test_sector6_clock_stands_left_of_the_oxygen_badge() -> None:
    view = sector6_view()
    view["oxygen_clock"] = {"shown": True, "rounds_left": 4}
    plain = sector6_board_png(view)
    badge = changed(sector6_board_png(view | {"oxygen_clock": {}}), plain)
    box = changed(plain, sector6_board_png(view, clock=CLOCK))
    assert badge is not None and box is not None
    assert inside(box, sector6_status_row()), box
    assert box[2] <= badge[0], (box, badge)


def test_sector6_long_clock_is_cut_to_its_room() -> None:
    view = sector6_view()
    assert font(13).getlength(drawable(LONG)) > TURN_CLOCK_MAX
    box = changed(sector6_board_png(view), sector6_board_png(view, clock=LONG))
    _, top, right, bottom = sector6_status_row()
    assert inside(box, (right - TURN_CLOCK_MAX - 1, top, right, bottom)), box


def test_sector6_image_takes_the_clock_too() -> None:
    view = sector6_view()
    with_clock = sector6_board_image(view, clock=CLOCK).convert("RGB")
    without = sector6_board_image(view).convert("RGB")
    assert inside(ImageChops.difference(with_clock, without).getbbox(), sector6_status_row())


# ----------------------------------------------------------------------------- every game

Drawer = Callable[..., bytes]
GAMES: dict[str, tuple[Drawer, Callable[[], View]]] = {
    "high-voltage": (hv_board_png, hv_view),
    "pylons": (pylons_board_png, lambda: pylons_view(0)),
    "sector6": (sector6_board_png, sector6_view),
}


@pytest.mark.parametrize("game", GAMES)
def test_no_clock_is_the_picture_as_before(game: str) -> None:
    draw, view = GAMES[game]
    shown = view()
    for language in ("en", "de"):
        before = draw(copy.deepcopy(shown), names=NAMES, language=language)
        assert draw(shown, names=NAMES, language=language, clock=None) == before
        assert draw(shown, names=NAMES, language=language, clock="") == before


@pytest.mark.parametrize("game", GAMES)
def test_the_clock_is_drawn_and_keeps_the_palette(game: str) -> None:
    draw, view = GAMES[game]
    plain, clocked = draw(view()), draw(view(), clock=CLOCK)
    assert plain != clocked
    assert decode(clocked).mode == "P"
    assert decode(clocked).getpalette() == decode(plain).getpalette()


@pytest.mark.parametrize("game", GAMES)
def test_emoji_the_font_lacks_are_left_out_not_drawn_as_boxes(game: str) -> None:
    draw, view = GAMES[game]
    shown = view()
    assert draw(shown, clock="⏳ 42 minutes left") == draw(shown, clock="42 minutes left")
    assert draw(shown, clock="⌛️") == draw(shown)


@pytest.mark.parametrize(("game", "seats"), [("high-voltage", 4), ("pylons", 2), ("sector6", 3)])
def test_a_finished_game_shows_no_clock(game: str, seats: int) -> None:
    draw, _ = GAMES[game]
    view = played(game, seats, 4, until_over=True).view(None)
    assert same_picture(draw(view, clock=CLOCK), draw(view))


@pytest.mark.parametrize("game", GAMES)
def test_the_presenter_hands_the_clock_to_the_picture(game: str) -> None:
    draw, view = GAMES[game]
    shown, names = view(), NAMES[:2] if game != "high-voltage" else NAMES
    presenter = presenter_for(game, "fr")
    moves = presenter.last_moves(shown)
    assert same_picture(
        presenter.board_png(shown, names, clock=CLOCK),
        draw(shown, names=names, language="fr", clock=CLOCK, moves=moves),
    )
    assert same_picture(
        presenter.board_png(shown, names), draw(shown, names=names, language="fr", moves=moves)
    )


def clock_area(game: str) -> Box:
    """Where a long clock changes a game's picture: the clock, and in Pylons the name beside
    it, which is cut to make room."""
    if game == "high-voltage":
        return hv_corner()
    if game == "pylons":
        left, top, right, bottom = pylons_card(0)
        return (left + 60, top, right, bottom)
    _, top, right, bottom = sector6_status_row()
    return (right - TURN_CLOCK_MAX - 1, top, right, bottom)


@pytest.mark.parametrize("game", GAMES)
def test_the_longest_wording_stays_whole(game: str) -> None:
    """A clock as long as the bot's wordings get (French) is drawn whole at a size that reads
    in Discord: its last letter is drawn, where a cut text would show the same ellipsis for
    any ending. Longer, it is cut rather than shrunk below that size."""
    draw, view = GAMES[game]
    shown = view() if game != "high-voltage" else hv_view(placing=True)
    area = clock_area(game)
    plain = draw(shown, names=NAMES)
    clocked = draw(shown, names=NAMES, clock=WORDY)
    assert inside(changed(plain, clocked), area)
    other_end = draw(shown, names=NAMES, clock=WORDY[:-1] + "o")
    assert changed(clocked, other_end) is not None, "the end of the text is cut off"
    longer = WORDY + " " + WORDY + " " + WORDY  # too long: cut, so its end is never drawn
    assert draw(shown, clock=longer) == draw(shown, clock=longer[:-1] + "o")


def test_drawable_keeps_the_words_and_drops_what_the_font_cannot_draw() -> None:
    assert drawable("⏳ 42 minutes left") == "42 minutes left"
    assert drawable("⌛️ noch  3 Std.", bold=False) == "noch 3 Std."
    assert drawable("Il reste 2 jours · déjà ↔ ×3") == "Il reste 2 jours · déjà ↔ ×3"
