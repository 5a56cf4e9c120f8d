"""The tokens on the Sector 6 board: oxygen markers and prisoners.

A marker is a disc in its value's colour with the value on it. A prisoner is a pawn (a head
on a flared body on a base: a shape no marker has) in its player's colour, its head in the
player's shape (circle, square, triangle, diamond) and the initial of the player's colour on
its body, so a prisoner never reads as a marker, and players are told apart in greyscale and
by colour-blind players. An empty entry point shows the outline of its owner's pawn.

Drawn here in RGB, supersampled, each with its coverage mask: the palette is built from these
drawings (`palette`) and the pictures paste them once reduced and mapped onto
it (`sprites`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from data.texts import ENGLISH, Texts
from games.sector6.pictures.style import SHAPES, SS, Sector6Theme, token_canvas
from render.fonts import icon_font
from render.theme import RGB

SEAT_LETTERS = "ABCD"  # when two colours of a language share an initial


def seat_letters(colours: Sequence[str], texts: Texts = ENGLISH) -> list[str]:
    """The letter on each seat's pawns: the initial of its colour in the picture's language
    ('O' for orange), or A, B, C, D if two colours share an initial."""
    letters = []
    for colour in colours:
        key = f"picture.colours.{colour}"
        word = texts(key) if texts.has(key) else colour
        letters.append((word.strip()[:1] or "?").upper())
    if len(set(letters)) < len(letters):
        return list(SEAT_LETTERS[: len(letters)])
    return letters


def marker_rgb(
    theme: Sector6Theme, size: int, value: int, bg: RGB | None, dead: bool = False
) -> tuple[Image.Image, Image.Image]:
    """An oxygen marker: a disc of radius `size` in its value's colour with the value on it
    (`bg`: drawn on that ground, for the panel; the mask is the disc either way); `dead`, out
    of reach for good: grey, so the eye skips it, its value still readable."""
    side, c = token_canvas(size)
    fill = theme.dead_marker if dead else theme.markers[value]
    ink = theme.dead_ink if dead else theme.marker_ink[value]
    img = Image.new("RGB", (side, side), bg or fill)
    cover = Image.new("L", (side, side), 0)
    r = size * SS
    box = (c - r, c - r, c + r, c + r)
    ImageDraw.Draw(img).ellipse(
        box, fill=fill, outline=theme.ink, width=max(SS, round(size * 0.12 * SS))
    )
    ImageDraw.Draw(cover).ellipse(box, fill=255)
    # The value as the marker's own mark: as large as its disc, which the board sizes with its
    # tiles (at the radii games reach, 11 pixels or more as Discord shows the board).
    f = icon_font(round(size * 1.25 * SS))
    ImageDraw.Draw(img).text((c, c + 0.04 * r), str(value), fill=ink, font=f, anchor="mm")
    return img, cover


def _shape(draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, **kw: Any) -> None:
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), **kw)
    elif shape == "square":
        s = r * 0.88
        draw.rounded_rectangle((x - s, y - s, x + s, y + s), radius=r * 0.2, **kw)
    elif shape == "triangle":
        draw.polygon(
            [(x, y - r * 1.2), (x + r * 1.15, y + r * 0.8), (x - r * 1.15, y + r * 0.8)], **kw
        )
    else:
        draw.polygon(
            [(x, y - r * 1.12), (x + r * 1.12, y), (x, y + r * 1.12), (x - r * 1.12, y)], **kw
        )


def _pawn(draw: ImageDraw.ImageDraw, shape: str, c: float, r: float, grow: float, **kw: Any):
    """A pawn of height about 2.6 r round the point (c, c): base, flared body, a head in
    `shape`; `grow` widens every part (for a mask a little larger than the picture)."""
    g = grow
    draw.rounded_rectangle(
        (c - r - g, c + 0.92 * r - g, c + r + g, c + 1.3 * r + g), radius=0.15 * r, **kw
    )
    draw.polygon(
        [
            (c - 0.34 * r - g, c - 0.3 * r - g),
            (c + 0.34 * r + g, c - 0.3 * r - g),
            (c + 0.84 * r + g, c + 0.98 * r),
            (c - 0.84 * r - g, c + 0.98 * r),
        ],
        **kw,
    )
    _shape(draw, shape, c, c - 0.74 * r, 0.5 * r + g, **kw)


def prisoner_rgb(
    theme: Sector6Theme, size: int, seat: int, letter: str, bg: RGB | None
) -> tuple[Image.Image, Image.Image]:
    """A prisoner: a pawn in the seat's colour, its head in the seat's shape, `letter` on its
    body (`bg`: drawn on that ground, for the panel; the mask is the pawn either way)."""
    side, c = token_canvas(size)
    img = Image.new("RGB", (side, side), bg or theme.seat_fill[seat])
    cover = Image.new("L", (side, side), 0)
    r = size * SS
    shape = SHAPES[seat % len(SHAPES)]
    outline = theme.ink if seat != 3 else theme.seat_fill[2]
    line = max(SS, round(size * 0.13 * SS))
    draw = ImageDraw.Draw(img)
    _pawn(draw, shape, c, r, line / 2, fill=outline)
    _pawn(draw, shape, c, r, -line / 2, fill=theme.seat_fill[seat])
    _pawn(ImageDraw.Draw(cover), shape, c, r, line / 2 + SS, fill=255)
    f = icon_font(round(size * 0.95 * SS))
    draw.text((c, c + 0.4 * r), letter, fill=theme.seat_ink[seat], font=f, anchor="mm")
    return img, cover


def door_rgb(theme: Sector6Theme, size: int, seat: int) -> tuple[Image.Image, Image.Image]:
    """An empty entry point: the outline of its owner's pawn."""
    side, c = token_canvas(size)
    img = Image.new("RGB", (side, side), theme.seat_fill[seat])
    cover = Image.new("L", (side, side), 0)
    r = size * SS
    shape = SHAPES[seat % len(SHAPES)]
    line = round(size * 0.2 * SS)
    draw = ImageDraw.Draw(cover)
    _pawn(draw, shape, c, r, line / 2, fill=255)
    _pawn(draw, shape, c, r, -line / 2, fill=0)
    return img, cover
