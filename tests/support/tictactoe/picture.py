"""Tic-tac-toe's pictures, drawn with Pillow: the board after every move and a player's mark
for the start-of-game message. Pure functions of a view (and the words to write on them), so a
drawing process can make them as well as the bot's own.

Every board is mapped onto one fixed palette, built once from a specimen board, as the other
games' boards are: the PNG stays small and repeatable, and the animated replay, which puts
every position on the first one's palette, shows each board exactly as it was posted."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.canvas import fit, shrink, to_indexed
from render.encode import FAST, SMALL, build_palette, png_bytes
from render.fonts import font

RGB = tuple[int, int, int]
PALETTE: dict[str, RGB] = {
    "paper": (246, 243, 234),
    "band": (40, 44, 52),
    "band_text": (246, 243, 234),
    "grid": (60, 64, 72),
    "label": (120, 124, 132),
    "X": (36, 99, 196),
    "O": (206, 58, 48),
    "last": (255, 230, 150),
    "line": (30, 150, 80),
}
CELL = 120  # pixels per cell
MARGIN = 36  # room for the column letters and row numbers
BAND = 56  # the line of text above the board
SIZE = 3
COLUMNS = "ABC"


def _centre(column: int, row: int) -> tuple[float, float]:
    return (MARGIN + (column + 0.5) * CELL, BAND + MARGIN + (row + 0.5) * CELL)


def _draw_mark(draw: ImageDraw.ImageDraw, mark: str, x: float, y: float, radius: float) -> None:
    width = max(4, int(radius / 4))
    if mark == "X":
        for dx in (-radius, radius):
            draw.line((x - dx, y - radius, x + dx, y + radius), fill=PALETTE["X"], width=width)
    else:
        box = (x - radius, y - radius, x + radius, y + radius)
        draw.ellipse(box, outline=PALETTE["O"], width=width)


def _where(cell: str) -> tuple[int, int]:
    return COLUMNS.index(cell[0]), int(cell[1:]) - 1


def board_png(view: Mapping[str, Any], headline: str) -> bytes:
    """The board of `view` with `headline` (who is to play, or the result) written above it."""
    return png_bytes(board_image(view, headline), FAST)


def board_image(view: Mapping[str, Any], headline: str) -> Image.Image:
    """The board as a 'P' image on the fixed palette (see the module docstring)."""
    return to_indexed(_board_rgb(view, headline), _palette())


@functools.cache
def _palette() -> Image.Image:
    """The palette of every board: the flat colours exactly, then the shades of their edges
    as a specimen board with every kind of mark, line and label shows them."""
    cells = [
        {"cell": f"{c}{r}", "mark": "XO"[(i + r) % 2]}
        for r in (1, 2, 3)
        for i, c in enumerate(COLUMNS)
    ]
    specimen = {"cells": cells, "last": {"cell": "B2"}, "line": ["A1", "B2", "C3"]}
    return build_palette(
        _board_rgb(specimen, "Ada (X) · Bruno (O) 123456789"), tuple(PALETTE.values())
    )


def _board_rgb(view: Mapping[str, Any], headline: str) -> Image.Image:
    """The board drawn in full colour: the last mark shaded, a winning line struck through."""
    side = MARGIN * 2 + CELL * SIZE
    picture = Image.new("RGB", (side, BAND + side), PALETTE["paper"])
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, side, BAND), fill=PALETTE["band"])
    words, size = shrink(headline, 22, side - 24)
    draw.text((side / 2, BAND / 2), words, font=font(size), fill=PALETTE["band_text"], anchor="mm")
    last = (view.get("last") or {}).get("cell")
    if last:
        column, row = _where(last)
        x0, y0 = MARGIN + column * CELL, BAND + MARGIN + row * CELL
        draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=PALETTE["last"])
    labels = font(18, False)
    for i in range(SIZE):
        x, _ = _centre(i, 0)
        draw.text(
            (x, BAND + MARGIN / 2), COLUMNS[i], font=labels, fill=PALETTE["label"], anchor="mm"
        )
        _, y = _centre(0, i)
        draw.text((MARGIN / 2, y), str(i + 1), font=labels, fill=PALETTE["label"], anchor="mm")
    for k in range(1, SIZE):
        x = MARGIN + k * CELL
        draw.line((x, BAND + MARGIN, x, BAND + MARGIN + SIZE * CELL), fill=PALETTE["grid"], width=4)
        y = BAND + MARGIN + k * CELL
        draw.line((MARGIN, y, MARGIN + SIZE * CELL, y), fill=PALETTE["grid"], width=4)
    for cell in view["cells"]:
        if cell["mark"]:
            _draw_mark(draw, cell["mark"], *_centre(*_where(cell["cell"])), CELL * 0.3)
    line: Sequence[str] | None = view.get("line")
    if line:
        start, end = _centre(*_where(line[0])), _centre(*_where(line[-1]))
        draw.line((*start, *end), fill=PALETTE["line"], width=10)
    return picture


def mark_png(mark: str, caption: str) -> bytes:
    """A player's mark under `caption` ("You play"), for the message each player gets."""
    width, height = 240, 200
    picture = Image.new("RGB", (width, height), PALETTE["paper"])
    draw = ImageDraw.Draw(picture)
    draw.text(
        (width / 2, 28),
        fit(caption, 22, width - 16),
        font=font(22),
        fill=PALETTE["grid"],
        anchor="mm",
    )
    _draw_mark(draw, mark, width / 2, 118, 56)
    return png_bytes(picture, SMALL)
