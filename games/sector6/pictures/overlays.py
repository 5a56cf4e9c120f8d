"""What the Sector 6 board draws over the tiles to show the last turn: the arrow of a move
and a curved arrow on every tile a rotation turned, clockwise or anticlockwise (cyan on the
tile the player turned, pale cyan on the tiles its gears turned the other way).

Both are drawn before the tile labels and tokens, so they never hide a label. The move's
arrow is drawn straight onto the board in a palette colour; the curved arrow is drawn here in
RGB, supersampled, with its coverage mask, for the palette to be built from
(`palette`) and the board to paste once mapped onto it
(`sprites.turn_piece`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from games.sector6.pictures.style import SS, Sector6Theme, hex_canvas

TURN_RADIUS = 0.6  # the curved arrow's radius, in hexagon radii: between tokens and walls
TURN_GAP = (-117.0, -63.0)  # degrees (y down) left open above the centre for the label
PLAYER, GEARS = 1, 2  # who turned a tile: as the ring numbers of `tiles.ring_rgb`


def move_arrow(
    draw: ImageDraw.ImageDraw,
    colour: int,
    radius: int,
    a: tuple[float, float],
    b: tuple[float, float],
) -> None:
    """A line from the centre `a` to the edge of the token at `b`, with a head; `colour` a
    palette index."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    stop = length - radius * 0.75  # short of the label of a tile entered from above
    start = radius * 0.25
    width = max(3, round(radius * 0.07))
    p0 = (ax + ux * start, ay + uy * start)
    p1 = (ax + ux * stop, ay + uy * stop)
    draw.line([p0, p1], fill=colour, width=width)
    head = radius * 0.2
    left = (p1[0] - ux * head - uy * head * 0.6, p1[1] - uy * head + ux * head * 0.6)
    right = (p1[0] - ux * head + uy * head * 0.6, p1[1] - uy * head - ux * head * 0.6)
    draw.polygon([(p1[0] + ux * 2, p1[1] + uy * 2), left, right], fill=colour)


def turned_tiles(last: Mapping[str, Any]) -> dict[str, tuple[int, frozenset[bool]]]:
    """Every tile the last turn rotated: (PLAYER or GEARS, the ways it turned: True for
    clockwise), from the view's list of rotations. A tile the player turned and gears turned
    too (a blocked player's second rotation) counts as the player's."""
    out: dict[str, tuple[int, set[bool]]] = {}
    for turn in last.get("turns") or ():
        clockwise = bool(turn["clockwise"])
        who, ways = out.get(turn["cell"], (PLAYER, set()))
        out[turn["cell"]] = (PLAYER, ways | {clockwise})
        for cell in turn.get("geared") or ():
            who, ways = out.get(cell, (GEARS, set()))
            out[cell] = (who, ways | {not clockwise})
    return {cell: (who, frozenset(ways)) for cell, (who, ways) in out.items()}


def turn_rgb(
    theme: Sector6Theme, radius: int, who: int, ways: frozenset[bool]
) -> tuple[Image.Image, Image.Image]:
    """A curved arrow round a tile's middle: clockwise (True in `ways`), anticlockwise
    (False), or both heads for a tile turned both ways in one turn; `who` PLAYER or GEARS."""
    w, h, cx, cy = hex_canvas(radius)
    colour = theme.turn_ring if who == PLAYER else theme.gear_ring
    img = Image.new("RGB", (w, h), theme.ink)
    cover = Image.new("L", (w, h), 0)
    r = TURN_RADIUS * radius * SS
    width = max(2 * SS, round(radius * 0.07 * SS))
    edge = max(SS, round(radius * 0.022 * SS))  # a dark edge: the arrow shows on any floor
    head = max(5 * SS, radius * 0.24 * SS)
    # the arc runs clockwise on the picture from just right of the label round the bottom
    # to just left of it; a head at its end turns it clockwise, at its start anticlockwise
    start, end = TURN_GAP[1], TURN_GAP[0] + 360
    trim = math.degrees(head * 0.7 / r)  # the arc stops inside each head
    a0 = start + (trim if False in ways else 0)
    a1 = end - (trim if True in ways else 0)
    heads = []
    for clockwise in sorted(ways):
        tip = math.radians(end if clockwise else start)
        sign = 1 if clockwise else -1  # the way the arc runs at the tip, in angle
        tx, ty = cx + r * math.cos(tip), cy + r * math.sin(tip)
        dx, dy = -math.sin(tip) * sign, math.cos(tip) * sign  # along the arc, forwards
        nx, ny = math.cos(tip), math.sin(tip)  # away from the centre
        bx, by = tx - dx * head, ty - dy * head
        heads.append(
            [
                (tx + dx * head * 0.2, ty + dy * head * 0.2),
                (bx + nx * head * 0.6, by + ny * head * 0.6),
                (bx - nx * head * 0.6, by - ny * head * 0.6),
            ]
        )
    for layer, fill, grow in ((cover, 255, edge), (img, colour, 0)):
        draw = ImageDraw.Draw(layer)
        box = (cx - r - grow, cy - r - grow, cx + r + grow, cy + r + grow)  # drawn inwards
        draw.arc(box, a0, a1, fill=fill, width=width + 2 * grow)
        for points in heads:
            mx, my = sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3
            grown = []
            for px, py in points:  # each corner moved out from the middle by twice `grow`
                d = math.hypot(px - mx, py - my) or 1.0
                grown.append((px + (px - mx) * 2 * grow / d, py + (py - my) * 2 * grow / d))
            draw.polygon(grown, fill=fill)
    return img, cover
