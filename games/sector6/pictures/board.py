"""The Sector 6 board picture posted after every move: the maze and a panel.

The maze is drawn as flat-topped hexagons scaled to fill the picture: the more the maze
spreads, the smaller its tiles (the radius is rounded down to a multiple of `RADIUS_STEP`
pixels, so a game in progress keeps reusing the same cached pieces). Every tile carries the
label that commands accept (`C4`); its walls are steel bars (`tiles`), in full
mode with gear teeth and a cog wherever two walls meet (their gears turn each other). Tiles
are tinted by value and every oxygen marker is a disc in its value's colour with its number
on it; prisoners are pawns in their player's colour with the player's head shape and letter
(`tokens`), so a prisoner never reads as a marker and the picture reads the
same for colour-blind players and in greyscale. Entry points are grey tiles ringed in their
owner's colour. The last turn is ringed: where a prisoner came from and went to (joined by
an arrow) or the piece just placed in magenta, tiles turned by the player in cyan and tiles
turned by gears in pale cyan, each turned tile with a curved arrow the way it turned
(`overlays`). While the maze is being built, the cells where the next piece
may go (as the engine's view lists them) show their labels in dashed outlines. A marker no
prisoner can ever reach again (out of play by the end rules) is a grey disc. The panel
(`panel`) counts what each player collected, the markers free, held and out
of reach, and once a stretch without a collection has lasted long enough, a badge shows the
rounds the oxygen clock has left.

A render copies a cached ground and pastes cached pieces through one-bit masks (pieces are
drawn supersampled once per process and size, then mapped onto a fixed palette:
`sprites`, `palette`), which keeps a board at a few
milliseconds once its pieces exist.
Only the view is read: the picture shows nothing the view does not (in particular never a
drawn tile's face: that is private).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, Texts, texts_for
from games.sector6.pictures.overlays import move_arrow, turned_tiles
from games.sector6.pictures.palette import ground, sector6_palette, sector6_palette_index
from games.sector6.pictures.panel import (
    clock_text,
    draw_panel,
    last_line,
    markers_text,
    status_line,
)
from games.sector6.pictures.panel_layout import CARD_H, CARD_TOP
from games.sector6.pictures.sprites import (
    cog_piece,
    door_piece,
    free_piece,
    marker_piece,
    prisoner_piece,
    ring_piece,
    tile_piece,
    turn_piece,
)
from games.sector6.pictures.style import (
    PAD,
    SECTOR6_THEME,
    SIDES,
    SMALL,
    SQ3,
    Sector6Theme,
    View,
    hex_half,
    token_half,
)
from games.sector6.pictures.tiles import cog_size
from games.sector6.pictures.tokens import seat_letters
from render.canvas import Canvas, paste
from render.encode import FAST, png_bytes

__all__ = [
    "SECTOR6_THEME",
    "Sector6Theme",
    "cell_centre",
    "clock_text",
    "free_cells",
    "last_line",
    "layout",
    "marker_centre",
    "markers_text",
    "meshes",
    "prisoner_centre",
    "sector6_board_image",
    "sector6_board_png",
    "status_line",
    "warm_up",
]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RADIUS_STEP = 4
MIN_SPAN = (7, 6)  # the smallest window shown, in columns and rows (an empty table)


def warm_up(theme: Sector6Theme = SECTOR6_THEME) -> None:
    """Get the palette now (read from its file for the default theme, about half a second
    to build for another), so the first board a player sees is as quick as the rest.
    Optional: without it the first board pays."""
    sector6_palette(theme)


def sector6_board_png(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: Sector6Theme = SECTOR6_THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> bytes:
    """The maze and its panel as PNG bytes. `names` are display names by seat (default
    'Player 1', 'Player 2', ...); `language` a language code of `data.texts` for the panel;
    `clock` the time the player to move has left (the turn clock, not the game's oxygen
    clock), already in words of that language ("42 minutes left"), drawn at the right end of
    the status line (None: no clock, the picture as without one); `moves` the last turn's
    actions in words of that language, as the presenter says them ("moved a prisoner from
    C2 to C5"), for the panel's last line (None: no last line)."""
    image = sector6_board_image(
        view, names=names, theme=theme, language=language, clock=clock, moves=moves
    )
    return png_bytes(image, FAST, band_edges(theme))


@cache
def band_edges(theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, ...]:
    """The rows where the picture's parts meet, where the PNG's bands start (see
    `render.encode.banded_png`): the maze, whose hexagons fall on no rows of their own, then
    the players' cards (the one to move is lit) and the status line."""
    top = theme.board_height + CARD_TOP
    return (theme.board_height, top, top + CARD_H)


# ---------------------------------------------------------------------- layout


@cache  # a board asks for every cell's place a few times; there are some hundred cells
def cell_colrow(name: str) -> tuple[int, int]:
    """(column, row) of a label, both from 0: 'C4' is (2, 3)."""
    return LETTERS.index(name[0].upper()), int(name[1:]) - 1


def _units(col: int, row: int) -> tuple[float, float]:
    """A cell's centre in units of the hexagon radius (odd columns sit half a cell lower)."""
    return 1.5 * col, SQ3 * (row + 0.5 * (col & 1))


@cache
def _neighbours(name: str) -> tuple[str, ...]:
    col, row = cell_colrow(name)
    odd = col & 1
    steps = ((0, -1), (1, -1 + odd), (1, odd), (0, 1), (-1, odd), (-1, -1 + odd))
    out = []
    for dc, dr in steps:
        c, r = col + dc, row + dr
        if 0 <= c < len(LETTERS) and r >= 0:
            out.append(f"{LETTERS[c]}{r + 1}")
        else:
            out.append("")
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """Where the maze sits: the hexagon radius and the pixel of column 0, row 0's centre."""

    radius: int
    x0: float
    y0: float

    def centre(self, name: str) -> tuple[float, float]:
        col, row = cell_colrow(name)
        ux, uy = _units(col, row)
        return self.x0 + ux * self.radius, self.y0 + uy * self.radius


def free_cells(view: View) -> list[str]:
    """The cells where the next piece may go while the maze is being built, as the view
    lists them (the engine's own placement rule); for the first piece, which may go
    anywhere, the middle of the table."""
    if view.get("phase") != "build":
        return []
    legal = list(view.get("build_cells") or ())
    if view.get("tiles"):
        return sorted(legal, key=cell_colrow)
    table = view.get("table") or {}
    columns, rows = int(table.get("columns", 20)), int(table.get("rows", 20))
    c, r = (columns - 1) // 2, (rows - 1) // 2
    middle = {
        f"{LETTERS[c + dc]}{r + dr + 1}"
        for dc in range(-3, 4)
        for dr in range(-2, 3)
        if 0 <= c + dc < columns and 0 <= r + dr < rows
    }
    return sorted(middle.intersection(legal), key=cell_colrow)


def layout(view: View, theme: Sector6Theme = SECTOR6_THEME) -> Layout:
    """Fit the maze (and the free cells round it while building) into the board area."""
    names = [t["cell"] for t in view.get("tiles") or ()] + free_cells(view)
    if not names:  # no tiles and not building: cannot happen in a real game
        names = ["A1"]
    points = [_units(*cell_colrow(n)) for n in names]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    min_w, min_h = 1.5 * (MIN_SPAN[0] - 1), SQ3 * (MIN_SPAN[1] - 0.5)
    span_x, span_y = max(max(xs) - min(xs), min_w), max(max(ys) - min(ys), min_h)
    fit = min(
        (theme.width - 2 * PAD) / (span_x + 2), (theme.board_height - 2 * PAD) / (span_y + SQ3)
    )
    radius = int(min(max(fit, theme.min_radius), theme.max_radius)) // RADIUS_STEP * RADIUS_STEP
    mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return Layout(
        radius,
        round(theme.width / 2 - mid_x * radius),
        round(theme.board_height / 2 - mid_y * radius),
    )


def cell_centre(view: View, name: str, theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, int]:
    """The pixel at the centre of a named cell in the picture of `view`."""
    x, y = layout(view, theme).centre(name)
    return round(x), round(y)


def marker_centre(view: View, name: str, theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, int]:
    """Where a marker's disc sits on a cell (beside the prisoner when there is one)."""
    lay = layout(view, theme)
    x, y = lay.centre(name)
    tile = next((t for t in view.get("tiles") or () if t["cell"] == name), {})
    dx, dy = MARKER_WITH_PRISONER if tile.get("prisoner") is not None else MARKER_ALONE
    return round(x + dx * lay.radius), round(y + dy * lay.radius)


def prisoner_centre(view: View, name: str, theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, int]:
    lay = layout(view, theme)
    x, y = lay.centre(name)
    return round(x + PRISONER[0] * lay.radius), round(y + PRISONER[1] * lay.radius)


MARKER_ALONE = (0.0, 0.16)
MARKER_WITH_PRISONER = (-0.34, 0.2)
PRISONER = (0.3, 0.14)


def meshes(view: View) -> list[tuple[str, int]]:
    """Where two gears meet (full mode only): (cell, side) for every side closed on both
    tiles, each pair once, from the cell with the lower label order."""
    if not (view.get("rules") or {}).get("gears"):
        return []
    walls = {t["cell"]: set(t["walls"]) for t in view.get("tiles") or ()}
    out = []
    for name, closed in walls.items():
        for side, other in enumerate(_neighbours(name)):
            meet = SIDES[side] in closed and SIDES[(side + 3) % 6] in walls.get(other, ())
            if meet and cell_colrow(name) < cell_colrow(other):
                out.append((name, side))
    return sorted(out, key=lambda m: (cell_colrow(m[0]), m[1]))


# ---------------------------------------------------------------------- the picture


def sector6_board_image(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: Sector6Theme = SECTOR6_THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> Image.Image:
    """The board as a palette image, before PNG encoding. Layers, bottom up: free cells,
    tiles, rings, cogs, the curved arrows of rotations and the move's arrow, labels, tokens,
    so an arrow never hides a label. The turn `clock` is drawn with the panel, on the copy of
    the cached ground, never into the ground: its text changes with every post."""
    texts = texts_for(language)
    image = ground(theme).copy()
    canvas = Canvas(image, theme, sector6_palette)
    lay = layout(view, theme)
    radius = lay.radius
    half_w, half_h = hex_half(radius)
    tiles = {t["cell"]: t for t in view.get("tiles") or ()}
    label_size = max(SMALL, round(radius * 0.27))
    gears = bool((view.get("rules") or {}).get("gears", True))

    def at(name: str, sprite: Image.Image, mask: Image.Image | None = None) -> None:
        x, y = lay.centre(name)
        paste(image, sprite, (round(x) - half_w, round(y) - half_h), mask)

    for name in free_cells(view):
        at(name, *free_piece(theme, radius))
        x, y = lay.centre(name)
        canvas.text(
            (x, y), name, size=label_size, fg=theme.free_edge, bg=theme.background, anchor="mm"
        )
    for name, tile in tiles.items():
        at(name, *tile_piece(theme, radius, _kind(tile), _mask(tile["walls"]), gears))
    last = view.get("last") or {}
    rings: dict[str, int] = {}
    for name in last.get("geared") or ():
        rings[name] = 2
    for name in last.get("rotated") or ():
        rings[name] = 1
    for key in ("placed", "from", "to"):
        if last.get(key):
            rings[last[key]] = 0
    for name, ring in rings.items():
        if name in tiles:
            at(name, *ring_piece(theme, radius, ring))
    _cogs(image, theme, lay, view)
    for name, (who, ways) in turned_tiles(last).items():
        if name in tiles:
            at(name, *turn_piece(theme, radius, who, ways))
    if last.get("from") and last.get("to") and last["from"] in tiles and last["to"] in tiles:
        colour = sector6_palette_index(theme, theme.move_ring)
        move_arrow(
            ImageDraw.Draw(image), colour, radius, lay.centre(last["from"]), lay.centre(last["to"])
        )
    for name, tile in tiles.items():
        x, y = lay.centre(name)
        floor = theme.floors[int(tile["value"])]
        canvas.text(
            (x, y - radius * 0.5),
            name,
            size=label_size,
            fg=theme.label_ink,
            bg=floor,
            anchor="mm",
        )
    _tokens(image, theme, lay, view, texts)
    draw_panel(canvas, view, names, texts, clock, moves)
    return image


def _cogs(image: Image.Image, theme: Sector6Theme, lay: Layout, view: View) -> None:
    """A cog on the middle of every side where two gears meet."""
    size = cog_size(lay.radius)
    sprite, mask = cog_piece(theme, size)
    half = token_half(size)
    apothem = lay.radius * SQ3 / 2
    for name, side in meshes(view):
        x, y = lay.centre(name)
        angle = math.radians(270 + 60 * side)
        cx, cy = x + apothem * math.cos(angle), y + apothem * math.sin(angle)
        paste(image, sprite, (round(cx) - half, round(cy) - half), mask)


def _tokens(image: Image.Image, theme: Sector6Theme, lay: Layout, view: View, texts: Texts) -> None:
    """Markers, prisoners and the pawn outlines of empty entry points."""
    radius = lay.radius
    small = max(8, round(radius * 0.3))
    half = token_half(small)
    dead = set((view.get("markers") or {}).get("dead_cells") or ())
    letters = seat_letters([str(p.get("colour", "")) for p in view.get("players") or ()], texts)
    for tile in view.get("tiles") or ():
        name = tile["cell"]
        x, y = lay.centre(name)
        has_prisoner = tile.get("prisoner") is not None
        if tile.get("marker"):
            dx, dy = MARKER_WITH_PRISONER if has_prisoner else MARKER_ALONE
            sprite, mask = marker_piece(theme, small, int(tile["marker"]), dead=name in dead)
            paste(
                image, sprite, (round(x + dx * radius) - half, round(y + dy * radius) - half), mask
            )
        if has_prisoner:
            seat = int(tile["prisoner"])
            letter = letters[seat] if seat < len(letters) else str(seat + 1)
            sprite, mask = prisoner_piece(theme, small, seat, letter)
            paste(
                image,
                sprite,
                (round(x + PRISONER[0] * radius) - half, round(y + PRISONER[1] * radius) - half),
                mask,
            )
        elif tile["kind"] == "entry" and not tile.get("marker"):
            sprite, mask = door_piece(theme, small, int(tile["owner"]))
            paste(image, sprite, (round(x) - half, round(y + 0.14 * radius) - half), mask)


def _kind(tile: Mapping[str, Any]) -> int:
    """0-3: an entry point of that seat's; 4-7: a maze tile worth 1-4."""
    if tile["kind"] == "entry":
        return int(tile["owner"])
    return 3 + int(tile["value"])


def _mask(walls: Sequence[str]) -> int:
    mask = 0
    for side in walls:
        mask |= 1 << SIDES.index(side)
    return mask
