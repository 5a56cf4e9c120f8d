"""The private Sector 6 pictures, read back pixel by pixel: the drawn tile in its six turns
(walls where the engine would put them) and a player's prisoner token."""

from __future__ import annotations

import io
import math

from PIL import Image

from games.sector6 import pictures as sector6_pictures
from games.sector6.pictures.board import SECTOR6_THEME as THEME
from games.sector6.pictures.pieces import TILE_RADIUS, TURNS, tile_slot
from games.sector6.rules.board import SIDES, mask_of, turn_mask

APOTHEM = (TILE_RADIUS - THEME.grout / 2) * math.cos(math.radians(30))


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def closed_sides(img: Image.Image, slot: int) -> set[str]:
    """Sides of the tile drawn in `slot` whose edge shows a wall, probed just inside each edge."""
    x0, y0, x1, y1 = tile_slot(slot)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    found = set()
    for side, name in enumerate(SIDES):
        angle = math.radians(270 + 60 * side)
        x = round(cx + (APOTHEM - 2) * math.cos(angle))
        y = round(cy + (APOTHEM - 2) * math.sin(angle))
        if img.getpixel((x, y)) == THEME.wall:
            found.add(name)
    return found


def test_each_turn_shows_the_walls_where_the_engine_turns_them() -> None:
    walls = ["N", "NE", "SE"]
    img = decode(sector6_pictures.sector6_tile_png({"walls": walls, "value": 3, "colour": "green"}))
    for slot, degrees in enumerate(TURNS):
        mask = turn_mask(mask_of(walls), degrees // 60)
        expected = {SIDES[i] for i in range(6) if mask >> i & 1}
        assert closed_sides(img, slot) == expected, f"r{degrees}"
    x0, y0, x1, y1 = tile_slot(0)
    assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == THEME.floors[3]


def test_the_seat_picture_shows_the_prisoner_in_its_colour() -> None:
    from games import find_game

    view = find_game("sector6").new_state(4, 1).view(3)
    img = decode(sector6_pictures.sector6_seat_png(view, 1))
    colours = {colour for _, colour in img.getcolors(1 << 16) or []}
    assert THEME.seat_fill[1] in colours and THEME.seat_fill[0] not in colours
