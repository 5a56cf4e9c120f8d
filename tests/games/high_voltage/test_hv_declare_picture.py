"""The picture of the lines a player may declare: each closable line outlined in a colour of
its own round its cards and stations and labelled with its name, on the board everyone sees,
and nothing else changed (decoded pixels)."""

from __future__ import annotations

import asyncio
import io

from hv_positions import THROUGH_C4, build
from PIL import Image, ImageChops

from games.high_voltage.pictures import THEME, hv_board_png
from games.high_voltage.pictures.layout import cell_box, frame_box
from games.high_voltage.presenter import HighVoltagePresenter
from games.high_voltage.rules.state import HighVoltageState

Box = tuple[int, int, int, int]


def rgb(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def two_lines() -> HighVoltageState:
    """S3-S21 down column C and S12-S28 along row 4, both closed by turning the crossing on
    C4, which they share."""
    state = build({**THROUGH_C4, "C4": (32, 0, 0)}, empty="G7", colours=["red", "blue"])
    state.apply("rotate C4 r90")
    assert [line["line"] for line in state.view(0)["closable"]] == ["S3-S21", "S12-S28"]
    return state


def count(img: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if img.getpixel((x, y)) == colour)


def inside(box: Box, boxes: list[Box]) -> bool:
    x0, y0, x1, y1 = box
    return any(a <= x0 and b <= y0 and x1 <= c and y1 <= d for a, b, c, d in boxes)


def test_each_closable_line_is_outlined_in_its_own_colour_with_its_stations() -> None:
    state = two_lines()
    lines = state.view(0)["closable"]
    plain = rgb(hv_board_png(state.view(None)))
    lit = rgb(hv_board_png(state.view(None), highlight=lines))
    first, second = THEME.line_marks[:2]
    for line, colour, other in ((lines[0], first, second), (lines[1], second, first)):
        boxes = [cell_box(c, THEME) for c in line["cells"]]
        boxes += [frame_box(s, THEME) for s in line["stations"]]
        for box in boxes:
            assert count(lit, box, colour) > count(plain, box, colour) + 150, (line["line"], box)
        # A card of one line alone carries no outline of the other (no more of its colour).
        alone = cell_box(next(c for c in line["cells"] if c != "C4"), THEME)
        assert count(lit, alone, other) <= count(plain, alone, other)
    # C4 holds both lines: both outlines, one inside the other.
    assert count(lit, cell_box("C4", THEME), first) > 150
    assert count(lit, cell_box("C4", THEME), second) > 150
    # A card on neither line is untouched.
    assert lit.crop(cell_box("A1", THEME)).tobytes() == plain.crop(cell_box("A1", THEME)).tobytes()


def test_only_the_lines_cards_and_stations_change() -> None:
    state = two_lines()
    lines = state.view(0)["closable"]
    plain = rgb(hv_board_png(state.view(None)))
    lit = rgb(hv_board_png(state.view(None), highlight=lines))
    allowed = [cell_box(c, THEME) for ln in lines for c in ln["cells"]]
    allowed += [frame_box(s, THEME) for ln in lines for s in ln["stations"]]
    diff = ImageChops.difference(plain, lit)
    changed = 0
    for y in range(0, plain.height, 2):
        for x in range(0, plain.width, 2):
            if diff.getpixel((x, y)) != (0, 0, 0):
                changed += 1
                assert inside((x, y, x + 1, y + 1), allowed), (x, y)
    assert changed > 1000


def test_the_prompt_shows_the_public_board_with_the_lines_outlined() -> None:
    """The declarer's prompt is drawn from the board everyone sees: neither the declarer's
    colour nor anything else of their own view reaches the picture."""
    state = two_lines()
    seat = state.current_seat()
    own = state.view(seat)
    assert own["players"][seat]["colour"] == "red"
    prompt = asyncio.run(HighVoltagePresenter("en").prompt(own, ["Ada", "Bo"]))
    assert prompt is not None
    ((name, picture, alt),) = prompt.files
    assert name.endswith(".png")
    assert "S3-S21" in alt and "S12-S28" in alt, alt
    expected = hv_board_png(state.view(None), names=["Ada", "Bo"], highlight=own["closable"])
    assert picture == expected
    # Another deal with the same public board (the colours the other way round) gives the
    # same picture: it holds nothing of what the declarer alone knows.
    other = build({**THROUGH_C4, "C4": (32, 0, 0)}, empty="G7", colours=["blue", "red"])
    other.apply("rotate C4 r90")
    again = asyncio.run(HighVoltagePresenter("en").prompt(other.view(seat), ["Ada", "Bo"]))
    assert again is not None and again.files[0].data == picture
    assert again.files[0].alt == alt, "nor does its description"
