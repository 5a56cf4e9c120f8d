"""The Sector 6 board picture posted after every move: the maze and a panel.

The maze is drawn as flat-topped hexagons scaled to fill the picture: the more the maze
spreads, the smaller its tiles (the radius is rounded down to a multiple of `RADIUS_STEP`
pixels, so a game in progress keeps reusing the same cached pieces). While the maze is
built, the picture is a window on the table that stays where it is until the maze and the
cells next to it no longer fit in it, and then moves to centre a whole cell
(`_build_layout`): most placements move no piece, so a board redraws only the new piece
and the players do not see the maze jump. The window follows from the placements in their
order, as the view lists them, never from what was drawn before. Every tile carries the
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
milliseconds once its pieces exist. A board is drawn over the last board of its look, with
only the boxes of the pieces a move changed drawn again (`render.overdraw`): a move changes a few of
the maze's hundreds of pieces.
Only the view is read: the picture shows nothing the view does not (in particular never a
drawn tile's face: that is private).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

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
from render.canvas import Canvas, _label
from render.encode import FASTEST, png_bytes
from render.overdraw import Boards, Drawn, Op, draw_pieces, piece_op

__all__ = [
    "SECTOR6_THEME",
    "Sector6Theme",
    "cell_centre",
    "clock_text",
    "forget_boards",
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
    image, drawn = _board(view, names, theme, language, clock, moves, keep=True)
    # The maze is mostly flat floor and steel: at the fastest level its boards stay about
    # two thirds of the 150 kB a board may take.
    png = png_bytes(image, FASTEST, band_edges(theme), known=drawn.known, encoded=drawn.encoded)
    _drawn.keep(drawn)
    return png


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


class Layout(NamedTuple):
    """Where the maze sits: the hexagon radius and the pixel of column 0, row 0's centre.

    A tuple: it is part of the key of every piece a board looks up (a few hundred), and a
    tuple's hash and comparison are Python's own, where a dataclass's run its methods."""

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
    columns, rows = _table(view)
    return sorted(set(_middle(columns, rows)).intersection(legal), key=cell_colrow)


def _table(view: View) -> tuple[int, int]:
    table = view.get("table") or {}
    return int(table.get("columns", 20)), int(table.get("rows", 20))


@cache
def _middle(columns: int, rows: int) -> tuple[str, ...]:
    """The cells offered for the first piece: seven columns and five rows at the table's
    middle."""
    c, r = (columns - 1) // 2, (rows - 1) // 2
    return tuple(
        f"{LETTERS[c + dc]}{r + dr + 1}"
        for dc in range(-3, 4)
        for dr in range(-2, 3)
        if 0 <= c + dc < columns and 0 <= r + dr < rows
    )


def layout(view: View, theme: Sector6Theme = SECTOR6_THEME) -> Layout:
    """Where the maze sits. While it is built, a window that moves in steps (`_build_layout`);
    afterwards the maze alone, fitted into the board area."""
    tiles = tuple(t["cell"] for t in view.get("tiles") or ())
    if view.get("phase") == "build":
        return _build_layout(tiles, *_table(view), theme)
    return _fit(_box(tiles or ("A1",)), theme)  # no tiles and not building: not in a game


Box = tuple[float, float, float, float]  # cell centres' left, right, top, bottom, in radii


def _box(names: Sequence[str]) -> Box:
    points = [_units(*cell_colrow(n)) for n in names]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), max(xs), min(ys), max(ys)


def _fit(box: Box, theme: Sector6Theme) -> Layout:
    """The largest radius (in steps of `RADIUS_STEP`) at which the cells of `box` fit into the
    board area (at least the `MIN_SPAN` window), and the box's middle at the area's middle."""
    left, right, top, bottom = box
    min_w, min_h = 1.5 * (MIN_SPAN[0] - 1), SQ3 * (MIN_SPAN[1] - 0.5)
    span_x, span_y = max(right - left, min_w), max(bottom - top, min_h)
    fit = min(
        (theme.width - 2 * PAD) / (span_x + 2), (theme.board_height - 2 * PAD) / (span_y + SQ3)
    )
    radius = int(min(max(fit, theme.min_radius), theme.max_radius)) // RADIUS_STEP * RADIUS_STEP
    return _centred(radius, (left + right) / 2, (top + bottom) / 2, theme)


def _centred(radius: int, mid_x: float, mid_y: float, theme: Sector6Theme) -> Layout:
    """The layout at `radius` with the point `mid_x`, `mid_y` (in radii) at the middle of the
    board area."""
    return Layout(
        radius,
        round(theme.width / 2 - mid_x * radius),
        round(theme.board_height / 2 - mid_y * radius),
    )


def _fits(lay: Layout, box: Box, theme: Sector6Theme) -> bool:
    """True if every cell of `box` shows whole on the board area at `lay`, `PAD` or more from
    its edges."""
    left, right, top, bottom = box
    r, half_h = lay.radius, SQ3 / 2 * lay.radius
    return (
        lay.x0 + (left - 1) * r >= PAD
        and lay.x0 + (right + 1) * r <= theme.width - PAD
        and lay.y0 + top * r - half_h >= PAD
        and lay.y0 + bottom * r + half_h <= theme.board_height - PAD
    )


@lru_cache(maxsize=1024)  # a few games' placement histories; each call walks its history
def _build_layout(tiles: tuple[str, ...], columns: int, rows: int, theme: Sector6Theme) -> Layout:
    """The window on the maze while it is built, from the pieces in the order they were
    placed (the view lists them so): a function of the position alone, whatever was drawn
    before. The window starts on the middle of the table. After each placement it stays
    where it is as long as the maze and every cell next to it (where the next pieces may go:
    a cell of margin all round) show whole in it; only when they would not is it fitted
    again (`_snapped`). So most placements move no piece, and when the maze moves it moves
    by whole cells, once its margin is used up."""
    lay = _snapped(_box(_middle(columns, rows)), theme)
    far_x, far_y = 1.5 * (columns - 1), SQ3 * (rows - 0.5)
    box: Box | None = None
    for name in tiles:
        x, y = _units(*cell_colrow(name))
        ring = (max(x - 1.5, 0.0), min(x + 1.5, far_x), max(y - SQ3, 0.0), min(y + SQ3, far_y))
        box = ring if box is None else _union(box, ring)
        if not _fits(lay, box, theme):
            lay = _snapped(box, theme)
    return lay


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3])


# The room a window fitted again while the maze is built leaves round the maze and the cells
# next to it, in radii on each side: half a column and half a row, so that the next pieces
# seldom move it at once (the margin of its hysteresis).
BUILD_ROOM = (0.75, SQ3 / 2)


def _snapped(box: Box, theme: Sector6Theme) -> Layout:
    """`box` and `BUILD_ROOM` round it at the largest radius at which they fit with the
    middle of a whole cell at the board area's middle, that cell the nearest to the box's
    middle that lets them fit. At the smallest radius, the nearest cell, fitting or not (a
    maze wider than the picture at the smallest radius: not in a game)."""
    box = (
        box[0] - BUILD_ROOM[0],
        box[1] + BUILD_ROOM[0],
        box[2] - BUILD_ROOM[1],
        box[3] + BUILD_ROOM[1],
    )
    mid_x, mid_y = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    cells = sorted(
        {
            _units(col, row)
            for col in (math.floor(mid_x / 1.5), math.ceil(mid_x / 1.5))
            for row in (
                math.floor(mid_y / SQ3 - 0.5 * (col & 1)),
                math.ceil(mid_y / SQ3 - 0.5 * (col & 1)),
            )
        },
        key=lambda c: (math.dist(c, (mid_x, mid_y)), c),
    )
    radius = _fit(box, theme).radius
    while True:
        for x, y in cells:
            lay = _centred(radius, x, y, theme)
            if _fits(lay, box, theme):
                return lay
        if radius - RADIUS_STEP < theme.min_radius:
            return _centred(radius, *cells[0], theme)
        radius -= RADIUS_STEP


def cell_centre(view: View, name: str, theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, int]:
    """The pixel at the centre of a named cell in the picture of `view`."""
    x, y = layout(view, theme).centre(name)
    return round(x), round(y)


def marker_centre(view: View, name: str, theme: Sector6Theme = SECTOR6_THEME) -> tuple[int, int]:
    """Where a marker's disc sits on a cell (beside the prisoner when there is one)."""
    lay = layout(view, theme)
    x, y = lay.centre(name)
    tile: Mapping[str, Any] = next((t for t in view.get("tiles") or () if t["cell"] == name), {})
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
    return _board(view, names, theme, language, clock, moves, keep=False)[0]


def _board(
    view: View,
    names: Sequence[str] | None,
    theme: Sector6Theme,
    language: str,
    clock: str | None,
    moves: Sequence[str] | None,
    *,
    keep: bool,
) -> tuple[Image.Image, Drawn]:
    """The board, drawn over the last board this process drew in the same look when there
    is one (see `render.overdraw`), else on the ground, and what to keep of it. `keep`: the
    last board is taken out of the store and drawn on itself (the caller puts the new one back
    once it is encoded: no one else draws on it meanwhile); otherwise the board is drawn whole
    and the store is left alone."""
    texts = texts_for(language)
    ops = _maze(view, theme, texts)
    image, drawn = draw_pieces(
        ops, ground(theme), _panel_ground(theme), (theme, language), _drawn, keep=keep
    )
    draw_panel(Canvas(image, theme, sector6_palette), view, names, texts, clock, moves)
    return image, drawn


DRAWN_KEPT = 4  # boards kept, one per look (theme, language): ~1.6 MB each with the scratch
_drawn = Boards(DRAWN_KEPT)


def forget_boards() -> None:
    """Forget the boards kept to draw the next ones over (benchmarks: a process that has not
    drawn this game lately; tests)."""
    _drawn.forget()


@cache
def _panel_ground(theme: Sector6Theme) -> Image.Image:
    """The ground below the maze, where the panel is drawn afresh on every board."""
    return ground(theme).crop((0, theme.board_height, theme.width, ground(theme).height))


def _text(
    canvas: Canvas[Sector6Theme], xy: tuple[float, float], text: str, size: int, fg: Any, bg: Any
) -> Op:
    """A label centred on `xy`, as `Canvas.text` draws it (anchor 'mm')."""
    label = _label(canvas._look, text, size, True, fg, bg)
    w, h = label.size
    x, y = round(xy[0] - w // 2), round(xy[1] - h // 2)
    return (("text", text, size, fg, bg, x, y), (x, y, x + w, y + h), label, None)


def _maze(view: View, theme: Sector6Theme, texts: Texts) -> list[Op]:
    """The maze's pieces in the order they are drawn. Layers, bottom up: free cells, tiles,
    rings, cogs, the curved arrows of rotations and the move's arrow, labels, tokens."""
    canvas = Canvas(ground(theme), theme, sector6_palette)  # for its look; never drawn on
    lay = layout(view, theme)
    radius = lay.radius
    half_w, half_h = hex_half(radius)
    tiles = {t["cell"]: t for t in view.get("tiles") or ()}
    label_size = max(SMALL, round(radius * 0.27))
    gears = bool((view.get("rules") or {}).get("gears", True))
    ops: list[Op] = []

    def at(name: str, key: tuple[Any, ...], piece: tuple[Image.Image, Image.Image]) -> None:
        x, y = lay.centre(name)
        ops.append(piece_op(key, piece, (round(x) - half_w, round(y) - half_h)))

    for name in free_cells(view):
        at(name, ("free", radius), free_piece(theme, radius))
        ops.append(
            _text(canvas, lay.centre(name), name, label_size, theme.free_edge, theme.background)
        )
    # A tile's hexagon and its label, found again by what the view says of it: most of a
    # board's pieces are the tiles of the board before (see `_tile_ops`).
    cells = [
        _tile_ops(theme, lay, name, _kind(tile), tuple(tile["walls"]), gears, int(tile["value"]))
        for name, tile in tiles.items()
    ]
    ops += [cell[0] for cell in cells]
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
            at(name, ("ring", radius, ring), ring_piece(theme, radius, ring))
    ops += _cogs(theme, lay, view)
    for name, (who, ways) in turned_tiles(last).items():
        if name in tiles:
            at(name, ("turn", radius, who, ways), turn_piece(theme, radius, who, ways))
    if last.get("from") and last.get("to") and last["from"] in tiles and last["to"] in tiles:
        ops.append(_arrow(theme, radius, lay.centre(last["from"]), lay.centre(last["to"])))
    ops += [cell[1] for cell in cells]
    ops += _tokens(theme, lay, view, texts)
    return ops


@lru_cache(maxsize=4096)  # a few games' mazes at a few sizes: small tuples of cached pieces
def _tile_ops(
    theme: Sector6Theme,
    lay: Layout,
    name: str,
    kind: int,
    walls: tuple[str, ...],
    gears: bool,
    value: int,
) -> tuple[Op, Op]:
    """A tile's hexagon and its label where `lay` puts them: all they depend on is in the
    arguments, none of it hidden (a tile on the maze is face up)."""
    radius = lay.radius
    half_w, half_h = hex_half(radius)
    x, y = lay.centre(name)
    key = (radius, kind, _mask(walls), gears)
    hexagon = piece_op(
        ("tile", *key), tile_piece(theme, *key), (round(x) - half_w, round(y) - half_h)
    )
    canvas = Canvas(ground(theme), theme, sector6_palette)  # for its look; never drawn on
    label_size = max(SMALL, round(radius * 0.27))
    label = _text(
        canvas, (x, y - radius * 0.5), name, label_size, theme.label_ink, theme.floors[value]
    )
    return hexagon, label


def _arrow(theme: Sector6Theme, radius: int, a: tuple[float, float], b: tuple[float, float]) -> Op:
    """The move's arrow from `a` to `b` (`overlays.move_arrow`); its box holds the line with
    its width and the head, with a margin."""
    colour = sector6_palette_index(theme, theme.move_ring)
    reach = math.ceil(radius * 0.5) + 4
    box = (
        math.floor(min(a[0], b[0])) - reach,
        math.floor(min(a[1], b[1])) - reach,
        math.ceil(max(a[0], b[0])) + reach + 1,
        math.ceil(max(a[1], b[1])) + reach + 1,
    )

    def draw(image: Image.Image) -> None:
        move_arrow(ImageDraw.Draw(image), colour, radius, a, b)

    return (("arrow", colour, radius, a, b), box, None, draw)


def _cogs(theme: Sector6Theme, lay: Layout, view: View) -> list[Op]:
    """A cog on the middle of every side where two gears meet."""
    return [_cog(theme, lay, name, side) for name, side in meshes(view)]


@lru_cache(maxsize=4096)  # the meshes of a few games' mazes: small tuples of cached pieces
def _cog(theme: Sector6Theme, lay: Layout, name: str, side: int) -> Op:
    """The cog on side `side` of tile `name`, where `lay` puts it."""
    size = cog_size(lay.radius)
    half = token_half(size)
    apothem = lay.radius * SQ3 / 2
    x, y = lay.centre(name)
    angle = math.radians(270 + 60 * side)
    cx, cy = x + apothem * math.cos(angle), y + apothem * math.sin(angle)
    return piece_op(("cog", size), cog_piece(theme, size), (round(cx) - half, round(cy) - half))


def _tokens(theme: Sector6Theme, lay: Layout, view: View, texts: Texts) -> list[Op]:
    """Markers, prisoners and the pawn outlines of empty entry points."""
    dead = set((view.get("markers") or {}).get("dead_cells") or ())
    letters = seat_letters([str(p.get("colour", "")) for p in view.get("players") or ()], texts)
    ops: list[Op] = []
    for tile in view.get("tiles") or ():
        name = tile["cell"]
        seat = tile.get("prisoner")
        letter = None
        if seat is not None:
            seat = int(seat)
            letter = letters[seat] if seat < len(letters) else str(seat + 1)
        door = int(tile["owner"]) if tile["kind"] == "entry" else None
        marker = int(tile["marker"]) if tile.get("marker") else 0
        if marker or seat is not None or door is not None:
            ops += _token_ops(theme, lay, name, marker, name in dead, seat, letter, door)
    return ops


@lru_cache(maxsize=4096)  # the tokens of a few games' mazes: small tuples of cached pieces
def _token_ops(
    theme: Sector6Theme,
    lay: Layout,
    name: str,
    marker: int,
    dead: bool,
    seat: int | None,
    letter: str | None,
    door: int | None,
) -> tuple[Op, ...]:
    """What stands on one tile: its marker (0: none; `dead`: out of reach), the prisoner of
    `seat` with its `letter`, or, on the empty entry point of seat `door`, its pawn outline."""
    radius = lay.radius
    small = max(8, round(radius * 0.3))
    half = token_half(small)
    x, y = lay.centre(name)
    ops = []
    if marker:
        dx, dy = MARKER_WITH_PRISONER if seat is not None else MARKER_ALONE
        ops.append(
            piece_op(
                ("marker", small, marker, dead),
                marker_piece(theme, small, marker, dead=dead),
                (round(x + dx * radius) - half, round(y + dy * radius) - half),
            )
        )
    if seat is not None:
        ops.append(
            piece_op(
                ("prisoner", small, seat, letter),
                prisoner_piece(theme, small, seat, str(letter)),
                (round(x + PRISONER[0] * radius) - half, round(y + PRISONER[1] * radius) - half),
            )
        )
    elif door is not None and not marker:
        ops.append(
            piece_op(
                ("door", small, door),
                door_piece(theme, small, door),
                (round(x) - half, round(y + 0.14 * radius) - half),
            )
        )
    return tuple(ops)


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
