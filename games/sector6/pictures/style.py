"""What every part of the Sector 6 pictures shares: the theme, the sizes and the geometry of
a piece (a sprite drawn supersampled, reduced and mapped onto the board's palette).

The bottom of the Sector 6 pictures: the drawings (`tiles`, `tokens`,
`overlays`, `panel_layout`) need only this, the palette is built from the
drawings, and the pieces (`sprites`) map a drawing onto the palette, so the
imports point one way."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from render.theme import RGB, Theme

View = Mapping[str, Any]

SS = 4  # supersampling of the pieces
SQ3 = math.sqrt(3.0)
SIDES = ("N", "NE", "SE", "S", "SW", "NW")
SHAPES = ("circle", "square", "triangle", "diamond")
PAD = 20
# The smallest text of the board: 20 pixels on a board 1000 wide reads as 11 once Discord
# shows it about 550 wide (`render.fonts.least_size`).
SMALL = 20


@dataclass(frozen=True)
class Sector6Theme(Theme):
    """Sizes and colours of the Sector 6 board: light tiles on the dark ground of the other
    boards, so all games look like one bot. 1000 x 1060 pixels: the maze in the top 840."""

    __hash__ = Theme.__hash__  # worked out once (see `render.theme.Theme`)

    width: int = 1000
    board_height: int = 840
    panel_height: int = 220
    max_radius: int = 84
    min_radius: int = 24
    grout: float = 2.0  # dark gap between two tiles, in pixels
    wall: RGB = (58, 64, 80)
    wall_light: RGB = (112, 120, 140)
    tile_edge: RGB = (150, 146, 136)
    label_ink: RGB = (52, 56, 66)
    free_edge: RGB = (92, 104, 130)
    floors: tuple[RGB, ...] = (
        (172, 178, 192),  # entry points
        # Light enough for the dark labels and the markers on them, saturated enough to be
        # the colour the texts name the tile by ("a yellow tile", never a cream one).
        (242, 176, 168),  # 1: red
        (246, 218, 110),  # 2: yellow
        (170, 220, 182),  # 3: green
        (176, 200, 246),  # 4: blue
    )
    markers: tuple[RGB, ...] = (
        (0, 0, 0),
        (214, 58, 62),
        (242, 190, 24),
        (40, 156, 92),
        (50, 108, 228),
    )
    marker_ink: tuple[RGB, ...] = (
        (255, 255, 255),
        (255, 255, 255),
        (40, 34, 20),
        (255, 255, 255),
        (255, 255, 255),
    )
    seat_fill: tuple[RGB, ...] = ((240, 128, 24), (140, 72, 206), (250, 250, 250), (34, 36, 42))
    seat_ink: tuple[RGB, ...] = ((32, 24, 16), (255, 255, 255), (28, 31, 38), (255, 255, 255))
    move_ring: RGB = (255, 79, 216)
    turn_ring: RGB = (0, 196, 232)
    gear_ring: RGB = (150, 228, 244)
    dead_marker: RGB = (128, 132, 144)  # a marker out of reach: grey, whatever its value
    dead_ink: RGB = (232, 234, 240)
    clock: RGB = (255, 120, 96)  # the oxygen clock's badge
    gear: RGB = (214, 128, 38)  # gear teeth (full mode only) and the cog where two gears meet

    def sector6_colours(self) -> tuple[RGB, ...]:
        """Flat colours that must survive palette reduction exactly (tests sample them)."""
        flat = [
            self.background,
            self.wall,
            self.wall_light,
            self.tile_edge,
            self.label_ink,
            self.free_edge,
            *self.floors,
            *self.markers[1:],
            *self.marker_ink,
            *self.seat_fill,
            *self.seat_ink,
            self.move_ring,
            self.turn_ring,
            self.gear_ring,
            self.dead_marker,
            self.dead_ink,
            self.clock,
            self.gear,
            self.coordinate_text,
            self.panel,
            self.panel_row,
            self.text,
            self.text_dim,
            self.ink,
            self.winner,
        ]
        return tuple(dict.fromkeys(flat))


SECTOR6_THEME = Sector6Theme()
"""The theme of the Sector 6 board picture."""


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon, starting at the east corner, clockwise."""
    return [
        (cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def hex_canvas(radius: int) -> tuple[int, int, float, float]:
    """Size (supersampled) of a piece covering one hexagon, and its centre."""
    w = (2 * radius + 3) * SS
    h = (2 * (math.ceil(SQ3 * radius / 2) + 1) + 1) * SS
    return w, h, (radius + 1 + 0.5) * SS, (math.ceil(SQ3 * radius / 2) + 1 + 0.5) * SS


def hex_half(radius: int) -> tuple[int, int]:
    """Half the width and height of a hexagon piece: where its centre is, from its corner."""
    return radius + 1, math.ceil(SQ3 * radius / 2) + 1


def token_half(size: int) -> int:
    """Half the side of a token piece of `size` (room for a pawn's or a diamond's tips)."""
    return math.ceil(size * 1.35) + 2


def token_canvas(size: int) -> tuple[int, float]:
    """Side (supersampled) of a token piece of `size`, and its centre."""
    side = (2 * token_half(size) + 1) * SS
    return side, side / 2
