"""The High Voltage panel's footer, its sentences read rather than glanced at: what the player
does now (the detail line), the turn clock and the last turn. Each is drawn whole in every
language with the longest values a game gives (four seats, 32-character names, the widest
clock), clear of its neighbours, and tall enough to read once Discord shows the picture
550 pixels wide.
"""

from __future__ import annotations

import io
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops

from data.texts import texts_for
from games import find_game
from games.high_voltage.pictures import THEME, hv_board_png
from games.high_voltage.pictures.layout import board_side
from games.high_voltage.pictures.panel import (
    CLOCK_SIZE,
    CLOCK_TOP,
    COL_ACTIONS,
    DETAIL_SIZE,
    DETAIL_TOP,
    FOOTER_SIZE,
    LAST_LINES,
    LAST_TOP,
    PAD,
    PLAYERS_TOP,
    SPLIT,
    clock_room,
    detail_room,
    last_move,
    status,
)
from hvbot.messages.presenters import presenter_for
from render.canvas import text_width, wrap
from render.fonts import LEAST_SHOWN, SHOWN_WIDTH, drawable, font

Box = tuple[int, int, int, int]
LANGUAGES = ("en", "it", "fr", "de")
LONG_NAMES = [
    "Bartholomew Montgomery-Smythe XY",
    "Wilhelmina Featherstonehaugh-Lee",
    "Maximilian Alexander von Habsbur",
    "Anastasia Konstantinopoulou-Dar",
]
WIDTH = board_side(THEME)
TOP = board_side(THEME)  # the panel starts under the square board
SPLIT_X = round(WIDTH * SPLIT)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def ink(img: Image.Image, area: Box) -> Box | None:
    """The box of every pixel in `area` that is not the panel's ground, in the picture's
    coordinates."""
    crop = img.crop(area)
    box = ImageChops.difference(crop, Image.new("RGB", crop.size, THEME.panel)).getbbox()
    return (
        None
        if box is None
        else (box[0] + area[0], box[1] + area[1], box[2] + area[0], box[3] + area[1])
    )


def shown(pixels: int) -> float:
    return pixels * SHOWN_WIDTH / WIDTH


@cache
def base_view() -> dict[str, Any]:
    state = find_game("high-voltage").new_state(4, 5)
    rng = random.Random(5)
    for _ in range(12):
        state.apply(state.sample_action(rng))
    return dict(state.view(None))


def phases() -> dict[str, dict[str, Any]]:
    """Every kind of detail line, with its longest values."""
    view = base_view()
    return {
        "actions": view | {"phase": "actions", "double_turn": False},
        "double turn": view | {"phase": "actions", "double_turn": True, "actions_taken": 1},
        "placing": view | {"phase": "placing", "drawn": {"cell": "G7"}},
        "declaring": view | {"phase": "declaring", "closable": [{}] * 12},
        "shared win": view
        | {"phase": "over", "current_seat": None, "outcome": {"winners": [0, 1, 2, 3]}},
    }


def widest_clock(language: str) -> str:
    """The widest the bot's clock says in `language` (two digits of minutes, hours, days)."""
    texts = texts_for(language)
    said = [
        texts("picture.clock_left", left=texts(f"bot.time.{unit}", count=count))
        for unit, count in (("minutes", 119), ("hours", 47), ("days", 14))
    ]
    return "⏳ " + max(said, key=lambda s: text_width(s, CLOCK_SIZE))


def labels_top(img: Image.Image) -> int:
    """The first row of the column labels' ink ("action tokens", "special", "points")."""
    box = ink(img, (COL_ACTIONS, TOP + PLAYERS_TOP - 32, SPLIT_X - 8, TOP + PLAYERS_TOP - 4))
    assert box is not None
    return box[1]


def test_the_footer_font_reads_once_discord_shrinks_the_picture() -> None:
    """A line of capitals and descenders, measured as Pillow draws it."""
    for size in (DETAIL_SIZE, CLOCK_SIZE, FOOTER_SIZE):
        _, top, _, bottom = font(size, False).getbbox("Draw, rotate, move or swap a card")
        assert shown(bottom - top) >= LEAST_SHOWN, size


def test_the_actions_line_is_tall_enough_as_drawn() -> None:
    img = decode(hv_board_png(phases()["actions"], names=LONG_NAMES))
    box = ink(img, (0, TOP + DETAIL_TOP - 6, SPLIT_X - 8, labels_top(img)))
    assert box is not None
    assert shown(box[3] - box[1]) >= LEAST_SHOWN, box  # "D" to the "p" of "swap"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("phase", list(phases()))
def test_the_detail_line_is_whole_and_clear_of_its_neighbours(language: str, phase: str) -> None:
    view = phases()[phase]
    texts = texts_for(language)
    detail = status(view, LONG_NAMES, texts)[1]
    clock = widest_clock(language)
    img = decode(hv_board_png(view, names=LONG_NAMES, language=language, clock=clock))
    below = labels_top(img)
    box = ink(img, (0, TOP + DETAIL_TOP - 6, SPLIT_X - 8, below))
    assert box is not None
    assert box[3] < below, "the detail runs into the column labels"
    assert box[2] <= SPLIT_X - PAD, "the detail runs past the left half"
    if phase == "shared win":  # every winner named, the names cut rather than the words
        assert text_width(detail, DETAIL_SIZE, False) > detail_room(WIDTH)
        assert box[2] - PAD >= detail_room(WIDTH) - 120, box
        return
    assert text_width(detail, DETAIL_SIZE, False) <= detail_room(WIDTH), detail
    # Drawn to its last letter: the ink is as wide as the whole text, not an ellipsis short.
    assert abs((box[2] - PAD) - text_width(detail, DETAIL_SIZE, False)) <= 3, (box, detail)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widest_clock_is_whole_under_the_supply(language: str) -> None:
    view = phases()["actions"]
    clock = widest_clock(language)
    words = drawable(clock)
    assert text_width(words, CLOCK_SIZE) <= clock_room(WIDTH), words
    plain = decode(hv_board_png(view, names=LONG_NAMES, language=language))
    clocked = decode(hv_board_png(view, names=LONG_NAMES, language=language, clock=clock))
    box = ImageChops.difference(plain, clocked).getbbox()
    assert box is not None
    supply = ink(plain, (SPLIT_X + 8, TOP + 40, WIDTH, TOP + CLOCK_TOP - 2))
    assert supply is not None and box[1] > supply[3], "the clock runs into the supply's labels"
    assert box[3] < TOP + LAST_TOP - 4, "the clock runs into the last turn"
    assert box[0] >= SPLIT_X and box[2] <= WIDTH - PAD + 1, box
    assert abs((box[2] - box[0]) - text_width(words, CLOCK_SIZE)) <= 3, (box, words)
    assert shown(box[3] - box[1]) >= LEAST_SHOWN - 3  # lower case only: no capital, no "p"


@cache
def double_turn_view() -> dict[str, Any]:
    """A real game's position right after the longest turn: two actions by the special
    token's double turn, each a drawn card placed (the longest wording of a move)."""
    best: tuple[int, dict[str, Any]] | None = None
    for seed in range(12):
        state = find_game("high-voltage").new_state(4, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
            view = state.view(None)
            said = last_move(
                view,
                LONG_NAMES,
                texts_for("it"),
                presenter_for("high-voltage", "it").last_moves(view),
            )
            if best is None or len(said) > best[0]:
                best = (len(said), dict(view))
    assert best is not None
    return best[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_last_turn_is_said_whole(language: str) -> None:
    view = double_turn_view()
    texts = texts_for(language)
    moves = presenter_for("high-voltage", language).last_moves(view)
    said = last_move(view, LONG_NAMES, texts, moves)
    three = text_width(said, FOOTER_SIZE, False) > 2 * (WIDTH - 2 * PAD)
    assert three or language == "en", "no longer the longest turn"
    lines = wrap(said, FOOTER_SIZE, WIDTH - 2 * PAD, LAST_LINES, bold=False)
    assert " ".join(lines) == " ".join(said.split()), lines
    img = decode(hv_board_png(view, names=LONG_NAMES, language=language, moves=moves))
    box = ink(img, (0, TOP + LAST_TOP - 6, WIDTH, TOP + THEME.panel_height))
    assert box is not None and box[3] < TOP + THEME.panel_height - 1, box
    third = ink(img, (0, TOP + LAST_TOP + 2 * 26 - 2, WIDTH, TOP + THEME.panel_height))
    assert (third is not None) == (len(lines) == 3), "a third line exactly when it is needed"
