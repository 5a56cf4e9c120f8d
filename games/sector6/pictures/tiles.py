"""The hexagons of the Sector 6 board: maze tiles and entry points with their walls, the rings
that mark the last turn, the dashed outline of a cell where a piece may go, and the cog drawn
where two gears meet.

A wall is a steel bar along a closed side. In full mode every wall is also a gear: it carries
teeth in the gear colour, and where two walls meet (their gears turn each other) a cog sits on
the shared side, large enough to see when a chat shows the picture at half size. The veteran
and novice modes have no gears, so their walls are plain bars.

Drawn here in RGB, supersampled, each with its coverage mask: the palette is built from these
drawings (`palette`) and the board pastes them once reduced and mapped onto it
(`sprites`).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.sector6.pictures.style import SS, Sector6Theme, hex_canvas, hex_points, token_canvas

COG = 0.24  # the cog's outer radius, in hexagon radii


def _side_frame(side: int) -> tuple[float, float, float, float]:
    """(outward normal x, y, tangent x, y) of a side; side 0 is N, clockwise."""
    angle = math.radians(270 + 60 * side)
    return math.cos(angle), math.sin(angle), -math.sin(angle), math.cos(angle)


def _wall(
    draw: ImageDraw.ImageDraw,
    theme: Sector6Theme,
    radius: int,
    centre: tuple[float, float],
    apothem: float,
    side: int,
    gears: bool,
) -> None:
    """A closed side: a steel bar along the edge; with `gears`, three teeth in the gear
    colour towards the middle."""
    cx, cy = centre
    nx, ny, tx, ty = _side_frame(side)

    def point(depth: float, along: float) -> tuple[float, float]:
        d = apothem - depth
        return cx + nx * d + tx * along, cy + ny * d + ty * along

    bar = 0.19 * radius * SS  # thick enough to read as a wall with the picture at half size
    tooth = 0.09 * radius * SS
    half_out = apothem * math.tan(math.radians(30))
    half_in = (apothem - bar) * math.tan(math.radians(30))
    if gears:
        width = 0.14 * radius * SS
        for k in (-1, 0, 1):
            mid = k * half_in * 0.58
            draw.polygon(
                [
                    point(bar - 2 * SS, mid - width / 2),
                    point(bar - 2 * SS, mid + width / 2),
                    point(bar + tooth, mid + width * 0.32),
                    point(bar + tooth, mid - width * 0.32),
                ],
                fill=theme.gear,
                outline=theme.wall,
                width=SS,
            )
    draw.polygon(
        [point(0, -half_out), point(0, half_out), point(bar, half_in), point(bar, -half_in)],
        fill=theme.wall,
    )
    # a light line along the bar: it reads as metal, not as a shadow
    draw.line(
        [point(bar * 0.45, -half_in * 0.9), point(bar * 0.45, half_in * 0.9)],
        fill=theme.wall_light,
        width=max(1, round(0.02 * radius * SS)),
    )


def tile_rgb(
    theme: Sector6Theme, radius: int, kind: int, mask: int, gears: bool = True
) -> tuple[Image.Image, Image.Image]:
    """A hexagon: kind 0-3 an entry point ringed in that seat's colour, 4-7 a maze tile
    worth 1-4 tinted by value; `mask` has a bit per closed side (N first, clockwise);
    `gears`: its walls carry gear teeth (full mode)."""
    w, h, cx, cy = hex_canvas(radius)
    img = Image.new("RGB", (w, h), theme.background)
    cover = Image.new("L", (w, h), 0)
    draw, cdraw = ImageDraw.Draw(img), ImageDraw.Draw(cover)
    r = (radius - theme.grout / 2) * SS
    value = kind - 3 if kind >= 4 else 0
    floor = theme.floors[value]
    outline = theme.seat_fill[kind] if kind < 4 else theme.tile_edge
    points = hex_points(cx, cy, r)
    draw.polygon(points, fill=outline)
    cdraw.polygon(points, fill=255)
    rim = (0.09 if kind < 4 else 0.025) * radius * SS
    draw.polygon(hex_points(cx, cy, r - rim / math.cos(math.radians(30))), fill=floor)
    apothem = r * math.cos(math.radians(30))
    for side in range(6):
        if mask >> side & 1:
            _wall(draw, theme, radius, (cx, cy), apothem, side, gears)
    return img, cover


def supply_rgb(theme: Sector6Theme, radius: int) -> tuple[Image.Image, Image.Image]:
    """A maze tile as the panel counts the tiles left to place while the maze is built: a
    light hexagon with two facing walls, in no value's colour (a supply holds every value)."""
    w, h, cx, cy = hex_canvas(radius)
    img = Image.new("RGB", (w, h), theme.text)
    cover = Image.new("L", (w, h), 0)
    draw, cdraw = ImageDraw.Draw(img), ImageDraw.Draw(cover)
    r = (radius - theme.grout / 2) * SS
    points = hex_points(cx, cy, r)
    draw.polygon(points, fill=theme.tile_edge)
    cdraw.polygon(points, fill=255)
    rim = 0.06 * radius * SS
    draw.polygon(hex_points(cx, cy, r - rim / math.cos(math.radians(30))), fill=theme.text)
    apothem = r * math.cos(math.radians(30))
    for side in (0, 3):
        _wall(draw, theme, radius, (cx, cy), apothem, side, False)
    return img, cover


def ring_rgb(theme: Sector6Theme, radius: int, ring: int) -> tuple[Image.Image, Image.Image]:
    """An outline just inside a hexagon's edge: 0 the last move or placement, 1 a tile the
    player turned, 2 a tile turned by gears."""
    w, h, cx, cy = hex_canvas(radius)
    colour = (theme.move_ring, theme.turn_ring, theme.gear_ring)[ring]
    img = Image.new("RGB", (w, h), colour)
    cover = Image.new("L", (w, h), 0)
    r = (radius - theme.grout / 2) * SS
    width = round(max(3.0, radius * 0.075) * SS)
    ImageDraw.Draw(cover).polygon(hex_points(cx, cy, r), outline=255, width=width)
    return img, cover


def free_rgb(theme: Sector6Theme, radius: int) -> tuple[Image.Image, Image.Image]:
    """A dashed outline of a cell where the next piece may go."""
    w, h, cx, cy = hex_canvas(radius)
    img = Image.new("RGB", (w, h), theme.free_edge)
    cover = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(cover)
    points = hex_points(cx, cy, (radius - theme.grout * 2) * SS)
    width = round(1.5 * SS)
    for k in range(6):
        (ax, ay), (bx, by) = points[k], points[(k + 1) % 6]
        for n in range(4):
            s0, s1 = n / 4 + 0.04, n / 4 + 0.17
            draw.line(
                [
                    (ax + (bx - ax) * s0, ay + (by - ay) * s0),
                    (ax + (bx - ax) * s1, ay + (by - ay) * s1),
                ],
                fill=255,
                width=width,
            )
    return img, cover


def cog_size(radius: int) -> int:
    """The token size a cog is drawn at on hexagons of `radius` (see `token_canvas`)."""
    return max(5, round(radius * COG))


def cog_rgb(theme: Sector6Theme, size: int) -> tuple[Image.Image, Image.Image]:
    """A cog wheel: pasted on the middle of a side where two gears meet (full mode)."""
    side, c = token_canvas(size)
    img = Image.new("RGB", (side, side), theme.gear)
    cover = Image.new("L", (side, side), 0)
    draw, cdraw = ImageDraw.Draw(img), ImageDraw.Draw(cover)
    outer, body, hole = size * SS, size * 0.72 * SS, size * 0.3 * SS
    teeth = 8
    points = []
    for k in range(teeth * 4):
        angle = 2 * math.pi * k / (teeth * 4)
        r = outer if k % 4 in (1, 2) else body
        points.append((c + r * math.cos(angle), c + r * math.sin(angle)))
    line = max(SS, round(size * 0.14 * SS))
    draw.polygon(points, fill=theme.gear, outline=theme.ink, width=line)
    cdraw.polygon(points, fill=255)
    box = (c - hole, c - hole, c + hole, c + hole)
    draw.ellipse(box, fill=theme.wall, outline=theme.ink, width=line)
    return img, cover
