"""The Sector 6 board picture posted after every move: the maze and a panel.

The maze is drawn as flat-topped hexagons scaled to fill the picture: the more the maze
spreads, the smaller its tiles (the radius is rounded down to a multiple of `RADIUS_STEP`
pixels, so a game in progress keeps reusing the same cached pieces). Every tile carries the
label that commands accept (`C4`); its walls are steel bars with gear teeth, so two walls
that meet (gears that turn each other in full mode) read as one thick toothed bar. Tiles are
tinted by value and every oxygen marker is a disc in its value's colour with its number on
it; prisoners are tokens in their player's colour, each player with its own shape and
number, so the picture reads the same for colour-blind players and in greyscale. Entry points
are grey tiles ringed in their owner's colour. The last turn is ringed: where a prisoner came
from and went to (joined by an arrow) or the piece just placed in magenta, tiles turned by the
player in cyan and tiles turned by gears in pale cyan. While the maze is being built, the free
cells next to it show their labels in dashed outlines, so the player to move sees where a
piece may go. A marker no prisoner can ever reach again (out of play by the end rules) is a
grey disc; the panel counts the markers free, held and out of reach, and once a stretch
without a collection has lasted long enough, a badge shows the rounds the oxygen clock has
left.

A render copies a cached ground and pastes cached pieces through one-bit masks (pieces are
drawn supersampled once per process and size, then mapped onto a fixed palette), which keeps
a board at a few milliseconds once its pieces exist. Only the view is read: the picture shows
nothing the view does not (in particular never a drawn tile's face: that is private).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, ENGLISH, Texts, texts_for
from render.canvas import (
    Canvas,
    finish_piece,
    rounded_band,
    shorten_names,
    shrink,
    text_rgb,
    to_indexed,
)
from render.encode import FAST, build_palette, png_bytes
from render.fonts import font
from render.palette import RGB, Theme

View = Mapping[str, Any]
Piece = tuple[Image.Image, Image.Image]  # ('P' picture, '1' mask)

SS = 4  # supersampling of the pieces
SQ3 = math.sqrt(3.0)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SIDES = ("N", "NE", "SE", "S", "SW", "NW")
RADIUS_STEP = 4
MIN_SPAN = (7, 6)  # the smallest window shown, in columns and rows (an empty table)
PAD = 20
CARD_H = 84
CLOCK_H = 36  # the oxygen clock's badge, beside the status line
CLOCK_MAX = 380  # its widest, in pixels: a long translation shrinks, then is cut
SHAPES = ("circle", "square", "triangle", "diamond")


@dataclass(frozen=True)
class Sector6Theme(Theme):
    """Sizes and colours of the Sector 6 board: light tiles on the dark ground of the other
    boards, so all games look like one bot. 1000 x 1040 pixels: the maze in the top 840."""

    width: int = 1000
    board_height: int = 840
    panel_height: int = 200
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
        (247, 211, 206),  # 1: red
        (248, 233, 186),  # 2: yellow
        (204, 234, 212),  # 3: green
        (206, 220, 248),  # 4: blue
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


def warm_up(theme: Sector6Theme = SECTOR6_THEME) -> None:
    """Build the palette now (about a third of a second), so the first board a player sees
    is as quick as the rest. Optional: without it the first board pays."""
    sector6_palette(theme)


def sector6_board_png(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: Sector6Theme = SECTOR6_THEME,
    language: str = DEFAULT,
) -> bytes:
    """The maze and its panel as PNG bytes. `names` are display names by seat (default
    'Player 1', 'Player 2', ...); `language` a language code of `data.texts` for the panel."""
    image = sector6_board_image(view, names=names, theme=theme, language=language)
    return png_bytes(image, FAST)


# ---------------------------------------------------------------------- layout


def cell_colrow(name: str) -> tuple[int, int]:
    """(column, row) of a label, both from 0: 'C4' is (2, 3)."""
    return LETTERS.index(name[0].upper()), int(name[1:]) - 1


def _units(col: int, row: int) -> tuple[float, float]:
    """A cell's centre in units of the hexagon radius (odd columns sit half a cell lower)."""
    return 1.5 * col, SQ3 * (row + 0.5 * (col & 1))


def _neighbours(name: str) -> list[str]:
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
    return out


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
    """Empty cells next to the maze while it is being built (where pieces may go)."""
    if view.get("phase") != "build":
        return []
    table = view.get("table") or {}
    columns, rows = int(table.get("columns", 20)), int(table.get("rows", 20))
    placed = {t["cell"] for t in view.get("tiles") or ()}
    if not placed:  # the first tile goes anywhere: show the middle of the table
        c, r = (columns - 1) // 2, (rows - 1) // 2
        return sorted(
            (
                f"{LETTERS[c + dc]}{r + dr + 1}"
                for dc in range(-3, 4)
                for dr in range(-2, 3)
                if 0 <= c + dc < columns and 0 <= r + dr < rows
            ),
            key=cell_colrow,
        )
    out = set()
    for name in placed:
        for other in _neighbours(name):
            if other and other not in placed:
                col, row = cell_colrow(other)
                if col < columns and row < rows:
                    out.add(other)
    return sorted(out, key=cell_colrow)


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


def seat_name(seat: int, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return texts("picture.player", number=seat + 1)


# ---------------------------------------------------------------------- the picture


def sector6_board_image(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: Sector6Theme = SECTOR6_THEME,
    language: str = DEFAULT,
) -> Image.Image:
    """The board as a palette image, before PNG encoding."""
    image = _ground(theme).copy()
    canvas = Canvas(image, theme, sector6_palette)
    lay = layout(view, theme)
    radius = lay.radius
    half_w, half_h = radius + 1, math.ceil(SQ3 * radius / 2) + 1
    tiles = {t["cell"]: t for t in view.get("tiles") or ()}
    label_size = max(12, round(radius * 0.27))

    def at(name: str, sprite: Image.Image, mask: Image.Image | None = None) -> None:
        x, y = lay.centre(name)
        image.paste(sprite, (round(x) - half_w, round(y) - half_h), mask)

    for name in free_cells(view):
        at(name, *free_piece(theme, radius))
        x, y = lay.centre(name)
        canvas.text(
            (x, y), name, size=label_size, fg=theme.free_edge, bg=theme.background, anchor="mm"
        )
    for name, tile in tiles.items():
        at(name, *tile_piece(theme, radius, _kind(tile), _mask(tile["walls"])))
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
    if last.get("from") and last.get("to") and last["from"] in tiles and last["to"] in tiles:
        _arrow(image, theme, lay, last["from"], last["to"])
    small = max(8, round(radius * 0.3))
    half = token_half(small)
    dead = set((view.get("markers") or {}).get("dead_cells") or ())
    for name, tile in tiles.items():
        x, y = lay.centre(name)
        has_prisoner = tile.get("prisoner") is not None
        if tile.get("marker"):
            dx, dy = MARKER_WITH_PRISONER if has_prisoner else MARKER_ALONE
            sprite, mask = marker_piece(theme, small, int(tile["marker"]), dead=name in dead)
            image.paste(
                sprite,
                (round(x + dx * radius) - half, round(y + dy * radius) - half),
                mask,
            )
        if has_prisoner:
            sprite, mask = prisoner_piece(theme, small, int(tile["prisoner"]))
            image.paste(
                sprite,
                (
                    round(x + PRISONER[0] * radius) - half,
                    round(y + PRISONER[1] * radius) - half,
                ),
                mask,
            )
        elif tile["kind"] == "entry" and not tile.get("marker"):
            sprite, mask = door_piece(theme, small, int(tile["owner"]))
            image.paste(
                sprite,
                (round(x) - half, round(y + 0.14 * radius) - half),
                mask,
            )
    _panel(canvas, view, names, texts_for(language))
    return image


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


def _arrow(image: Image.Image, theme: Sector6Theme, lay: Layout, a: str, b: str) -> None:
    """A line from the centre of `a` to the edge of `b`'s token, with a head."""
    (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    stop = length - lay.radius * 0.55
    start = lay.radius * 0.25
    draw = ImageDraw.Draw(image)
    colour = sector6_palette_index(theme, theme.move_ring)
    width = max(3, round(lay.radius * 0.07))
    p0 = (ax + ux * start, ay + uy * start)
    p1 = (ax + ux * stop, ay + uy * stop)
    draw.line([p0, p1], fill=colour, width=width)
    head = lay.radius * 0.2
    left = (p1[0] - ux * head - uy * head * 0.6, p1[1] - uy * head + ux * head * 0.6)
    right = (p1[0] - ux * head + uy * head * 0.6, p1[1] - uy * head - ux * head * 0.6)
    draw.polygon([(p1[0] + ux * 2, p1[1] + uy * 2), left, right], fill=colour)


# ---------------------------------------------------------------------- panel


def status_line(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """Whose turn it is and what they do, or how the game ended, in one line."""
    say = texts
    outcome = view.get("outcome")
    if outcome:
        winners = [seat_name(int(s), names, say) for s in outcome.get("winners") or ()]
        why = str(outcome.get("reason"))
        key = f"picture.sector6.reason_{why}"
        reason = say(key) if say.has(key) else why
        if len(winners) == 1:
            return say("picture.sector6.over_wins", reason=reason, player=winners[0])
        return say("picture.sector6.over_share", reason=reason, players=" & ".join(winners))
    seat = view.get("current_seat")
    who = seat_name(int(seat or 0), names, say)
    step = view.get("step")
    if step == "draw":
        if not view.get("tiles"):
            return say("picture.sector6.draw_first", player=who)
        return say("picture.sector6.draw", player=who)
    if step == "place":
        return say("picture.sector6.place", player=who)
    if step == "act":
        return say("picture.sector6.act", player=who, cell=view.get("pending"))
    if step == "blocked":
        if (view.get("rules") or {}).get("rotations", True):
            left = int(view.get("rotations_left") or 0)
            return say("picture.sector6.blocked", player=who, count=left)
        return say("picture.sector6.blocked_pass", player=who)
    return say("picture.sector6.to_move", player=who)


def clock_text(view: View, texts: Texts = ENGLISH) -> str:
    """The oxygen clock's badge ("Oxygen clock: 4 rounds left"), or "" while it is hidden."""
    clock = view.get("oxygen_clock") or {}
    if not clock.get("shown") or view.get("phase") != "play":
        return ""
    return texts("picture.sector6.clock", count=int(clock.get("rounds_left") or 0))


def markers_text(view: View, texts: Texts = ENGLISH) -> str:
    """Markers free, held and out of reach ("Markers: 6 free · 1 held · 1 out of reach"),
    while the competition runs; the out-of-reach part only when there are some."""
    counts = view.get("markers")
    if not counts or view.get("phase") != "play":  # at the end the outcome says it all
        return ""
    key = "picture.sector6.markers_dead" if counts.get("dead") else "picture.sector6.markers"
    return texts(key, free=counts["free"], held=counts["held"], dead=counts.get("dead", 0))


def last_line(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """What the last turn did, in its action words."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("actions"):
        return ""
    text = f"{seat_name(int(last['seat']), names, texts)}: {', '.join(last['actions'])}"
    if last.get("geared"):
        text += texts("picture.sector6.gears", cells=", ".join(last["geared"]))
    return text


def _panel(canvas: Canvas, view: View, names: Sequence[str] | None, texts: Texts) -> None:
    theme: Sector6Theme = canvas.theme  # type: ignore[assignment]
    top = theme.board_height
    players = list(view.get("players") or ())
    count = max(1, len(players))
    card_w = min(300, (theme.width - (count + 1) * PAD) // count)
    left = (theme.width - count * card_w - (count - 1) * PAD) // 2
    over = view.get("phase") == "over"
    current = None if over else view.get("current_seat")
    winners = set((view.get("outcome") or {}).get("winners") or ()) if over else set()
    building = view.get("phase") == "build"
    for k, player in enumerate(players):
        seat = int(player["seat"])
        x, y = left + k * (card_w + PAD), top + 14
        lit = seat == current or seat in winners
        bg = theme.panel_row if lit else theme.panel
        if lit:
            edge = theme.seat_fill[seat] if seat == current else theme.winner
            canvas.sprite(card_band, card_w, CARD_H, edge, at=(x, y))
        sprite, mask = prisoner_piece(theme, 15, seat, bg)
        canvas.image.paste(sprite, (x + 26 - token_half(15), y + 26 - token_half(15)), mask)
        canvas.text(
            (x + 48, y + 12),
            seat_name(seat, names, texts),
            size=20,
            fg=theme.text,
            bg=bg,
            max_width=card_w - 110,
        )
        canvas.text(
            (x + card_w - 12, y + 6),
            str(player.get("score", 0)),
            size=34,
            fg=theme.text,
            bg=bg,
            anchor="ra",
        )
        if building:
            tiles, entries = int(player["supply_left"]), int(player["entries_left"])
            canvas.text(
                (x + 14, y + 52),
                texts(
                    "picture.sector6.supply",
                    tiles=texts("picture.sector6.tiles", count=tiles),
                    entries=texts("picture.sector6.entries", count=entries),
                ),
                size=15,
                bold=False,
                fg=theme.text_dim,
                bg=bg,
                max_width=card_w - 24,
            )
            continue
        collected = player.get("collected") or {}
        cx = x + 14
        for value in (1, 2, 3, 4):
            sprite, mask = marker_piece(theme, 11, value, bg)
            canvas.image.paste(sprite, (cx + 11 - token_half(11), y + 61 - token_half(11)), mask)
            canvas.text(
                (cx + 28, y + 53),
                f"×{collected.get(str(value), 0)}",
                size=16,
                bold=False,
                fg=theme.text_dim,
                bg=bg,
            )
            cx += (card_w - 20) // 4
    y = top + 14 + CARD_H + 18
    room = theme.width - 2 * PAD
    clock = clock_text(view, texts)
    if clock:
        label, size = shrink(clock, 19, CLOCK_MAX - 28)
        w = math.ceil((font(size).getlength(label) + 30) / 10) * 10  # few band sizes
        x = theme.width - PAD - w
        canvas.sprite(card_band, w, CLOCK_H, theme.clock, at=(x, y - 7))
        canvas.text(
            (x + w / 2, y - 7 + CLOCK_H / 2),
            label,
            size=size,
            fg=theme.clock,
            bg=theme.panel_row,
            anchor="mm",
        )
        room -= w + 20
    canvas.text(
        (PAD, y),
        shorten_names(lambda shown: status_line(view, shown, texts), names, 21, room),
        size=21,
        fg=theme.text,
        bg=theme.panel,
        max_width=room,
    )
    room = theme.width - 2 * PAD
    counts = markers_text(view, texts)
    if counts:
        label, size = shrink(counts, 16, room / 2, bold=False)
        room -= canvas.text(
            (theme.width - PAD, y + 36),
            label,
            size=size,
            bold=False,
            fg=theme.text_dim,
            bg=theme.panel,
            anchor="ra",
        )
        room -= 24
    canvas.text(
        (PAD, y + 36),
        last_line(view, names, texts),
        size=16,
        bold=False,
        fg=theme.text_dim,
        bg=theme.panel,
        max_width=room,
    )


@cache
def card_band(theme: Sector6Theme, width: int, height: int, edge: RGB) -> Image.Image:
    """The rounded band behind the player to move (edged in their colour) or a winner."""
    return rounded_band(
        width, height, ground=theme.panel, fill=theme.panel_row, edge=edge, supersample=SS
    )


# ---------------------------------------------------------------------- pieces


def _finish(theme: Sector6Theme, img: Image.Image, mask: Image.Image) -> Piece:
    """Reduce a supersampled piece and its coverage mask; map the piece onto the palette."""
    return finish_piece(img, mask, sector6_palette(theme), supersample=SS, cover_at=100)


def _hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon, starting at the east corner, clockwise."""
    return [
        (cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def _canvas(radius: int) -> tuple[int, int, float, float]:
    """Size (supersampled) of a piece covering one hexagon, and its centre."""
    w = (2 * radius + 3) * SS
    h = (2 * (math.ceil(SQ3 * radius / 2) + 1) + 1) * SS
    return w, h, (radius + 1 + 0.5) * SS, (math.ceil(SQ3 * radius / 2) + 1 + 0.5) * SS


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
) -> None:
    """A closed side: a steel bar along the edge with three gear teeth towards the middle,
    so two walls that meet read as one toothed bar (their gears mesh)."""
    cx, cy = centre
    nx, ny, tx, ty = _side_frame(side)

    def point(depth: float, along: float) -> tuple[float, float]:
        d = apothem - depth
        return cx + nx * d + tx * along, cy + ny * d + ty * along

    bar = 0.13 * radius * SS
    tooth = 0.075 * radius * SS
    half_out = apothem * math.tan(math.radians(30))
    half_in = (apothem - bar) * math.tan(math.radians(30))
    draw.polygon(
        [point(0, -half_out), point(0, half_out), point(bar, half_in), point(bar, -half_in)],
        fill=theme.wall,
    )
    width = 0.13 * radius * SS
    for k in (-1, 0, 1):
        mid = k * half_in * 0.58
        draw.polygon(
            [
                point(bar - 1, mid - width / 2),
                point(bar - 1, mid + width / 2),
                point(bar + tooth, mid + width * 0.32),
                point(bar + tooth, mid - width * 0.32),
            ],
            fill=theme.wall,
        )
    # a light line along the bar: the toothed rack reads as metal, not as a shadow
    draw.line(
        [point(bar * 0.45, -half_in * 0.9), point(bar * 0.45, half_in * 0.9)],
        fill=theme.wall_light,
        width=max(1, round(0.02 * radius * SS)),
    )


def _tile_rgb(
    theme: Sector6Theme, radius: int, kind: int, mask: int
) -> tuple[Image.Image, Image.Image]:
    w, h, cx, cy = _canvas(radius)
    img = Image.new("RGB", (w, h), theme.background)
    cover = Image.new("L", (w, h), 0)
    draw, cdraw = ImageDraw.Draw(img), ImageDraw.Draw(cover)
    r = (radius - theme.grout / 2) * SS
    value = kind - 3 if kind >= 4 else 0
    floor = theme.floors[value]
    outline = theme.seat_fill[kind] if kind < 4 else theme.tile_edge
    points = _hex_points(cx, cy, r)
    draw.polygon(points, fill=outline)
    cdraw.polygon(points, fill=255)
    rim = (0.09 if kind < 4 else 0.025) * radius * SS
    draw.polygon(_hex_points(cx, cy, r - rim / math.cos(math.radians(30))), fill=floor)
    apothem = r * math.cos(math.radians(30))
    for side in range(6):
        if mask >> side & 1:
            _wall(draw, theme, radius, (cx, cy), apothem, side)
    return img, cover


@lru_cache(maxsize=1024)  # up to ~30 kB a piece: a few radii of every tile kept
def tile_piece(theme: Sector6Theme, radius: int, kind: int, mask: int) -> Piece:
    """A hexagon: kind 0-3 an entry point ringed in that seat's colour, 4-7 a maze tile
    worth 1-4 tinted by value; `mask` has a bit per closed side (N first, clockwise)."""
    return _finish(theme, *_tile_rgb(theme, radius, kind, mask))


def _ring_rgb(theme: Sector6Theme, radius: int, ring: int) -> tuple[Image.Image, Image.Image]:
    w, h, cx, cy = _canvas(radius)
    colour = (theme.move_ring, theme.turn_ring, theme.gear_ring)[ring]
    img = Image.new("RGB", (w, h), colour)
    cover = Image.new("L", (w, h), 0)
    r = (radius - theme.grout / 2) * SS
    width = round(max(3.0, radius * 0.075) * SS)
    ImageDraw.Draw(cover).polygon(_hex_points(cx, cy, r), outline=255, width=width)
    return img, cover


@lru_cache(maxsize=256)
def ring_piece(theme: Sector6Theme, radius: int, ring: int) -> Piece:
    """An outline just inside a hexagon's edge: 0 the last move or placement, 1 a tile the
    player turned, 2 a tile turned by gears."""
    return _finish(theme, *_ring_rgb(theme, radius, ring))


def _free_rgb(theme: Sector6Theme, radius: int) -> tuple[Image.Image, Image.Image]:
    w, h, cx, cy = _canvas(radius)
    img = Image.new("RGB", (w, h), theme.free_edge)
    cover = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(cover)
    points = _hex_points(cx, cy, (radius - theme.grout * 2) * SS)
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


@cache
def free_piece(theme: Sector6Theme, radius: int) -> Piece:
    """A dashed outline of a free cell next to the maze."""
    return _finish(theme, *_free_rgb(theme, radius))


def token_half(size: int) -> int:
    """Half the side of a token piece of `size` (room for a diamond's or triangle's tips)."""
    return math.ceil(size * 1.35) + 2


def _disc_canvas(size: int) -> tuple[int, float]:
    side = (2 * token_half(size) + 1) * SS
    return side, side / 2


def _marker_rgb(
    theme: Sector6Theme, size: int, value: int, bg: RGB | None, dead: bool = False
) -> tuple[Image.Image, Image.Image]:
    side, c = _disc_canvas(size)
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
    f = font(round(size * 1.25 * SS))
    ImageDraw.Draw(img).text((c, c + 0.04 * r), str(value), fill=ink, font=f, anchor="mm")
    return img, cover


@cache
def marker_piece(
    theme: Sector6Theme, size: int, value: int, bg: RGB | None = None, dead: bool = False
) -> Piece:
    """An oxygen marker: a disc of radius `size` in its value's colour with the value on it;
    `dead`, out of reach for good: grey, so the eye skips it, its value still readable."""
    img, cover = _marker_rgb(theme, size, value, bg, dead)
    if bg is not None:
        cover = Image.new("L", cover.size, 255)
    return _finish(theme, img, cover)


def _shape(draw: ImageDraw.ImageDraw, shape: str, c: float, r: float, **kw: Any) -> None:
    if shape == "circle":
        draw.ellipse((c - r, c - r, c + r, c + r), **kw)
    elif shape == "square":
        s = r * 0.88
        draw.rounded_rectangle((c - s, c - s, c + s, c + s), radius=r * 0.2, **kw)
    elif shape == "triangle":
        draw.polygon(
            [(c, c - r * 1.3), (c + r * 1.25, c + r * 0.9), (c - r * 1.25, c + r * 0.9)], **kw
        )
    else:
        draw.polygon(
            [(c, c - r * 1.12), (c + r * 1.12, c), (c, c + r * 1.12), (c - r * 1.12, c)], **kw
        )


def _prisoner_rgb(
    theme: Sector6Theme, size: int, seat: int, bg: RGB | None
) -> tuple[Image.Image, Image.Image]:
    side, c = _disc_canvas(size)
    img = Image.new("RGB", (side, side), bg or theme.seat_fill[seat])
    cover = Image.new("L", (side, side), 0)
    r = size * SS
    shape = SHAPES[seat % len(SHAPES)]
    outline = theme.ink if seat != 3 else theme.seat_fill[2]
    _shape(
        ImageDraw.Draw(img),
        shape,
        c,
        r,
        fill=theme.seat_fill[seat],
        outline=outline,
        width=max(SS, round(size * 0.14 * SS)),
    )
    _shape(ImageDraw.Draw(cover), shape, c, r + SS, fill=255)
    f = font(round(size * (0.9 if shape == "triangle" else 1.05) * SS))
    dy = 0.3 * r if shape == "triangle" else 0.04 * r
    ImageDraw.Draw(img).text(
        (c, c + dy), str(seat + 1), fill=theme.seat_ink[seat], font=f, anchor="mm"
    )
    return img, cover


@cache
def prisoner_piece(theme: Sector6Theme, size: int, seat: int, bg: RGB | None = None) -> Piece:
    """A prisoner: the seat's shape (circle, square, triangle, diamond) in its colour with
    the seat's number; on a `bg` the whole square is pasted (for the panel)."""
    img, cover = _prisoner_rgb(theme, size, seat, bg)
    if bg is not None:
        cover = Image.new("L", cover.size, 255)
    return _finish(theme, img, cover)


def _door_rgb(theme: Sector6Theme, size: int, seat: int) -> tuple[Image.Image, Image.Image]:
    side, c = _disc_canvas(size)
    img = Image.new("RGB", (side, side), theme.seat_fill[seat])
    cover = Image.new("L", (side, side), 0)
    r = size * SS
    shape = SHAPES[seat % len(SHAPES)]
    _shape(ImageDraw.Draw(cover), shape, c, r, outline=255, width=round(size * 0.22 * SS))
    return img, cover


@cache
def door_piece(theme: Sector6Theme, size: int, seat: int) -> Piece:
    """An empty entry point: the outline of its owner's prisoner shape."""
    return _finish(theme, *_door_rgb(theme, size, seat))


# ---------------------------------------------------------------------- ground and palette


def _ground_rgb(theme: Sector6Theme) -> Image.Image:
    img = Image.new("RGB", (theme.width, theme.board_height + theme.panel_height), theme.background)
    ImageDraw.Draw(img).rectangle(
        (0, theme.board_height, theme.width, theme.board_height + theme.panel_height),
        fill=theme.panel,
    )
    return img


@cache
def _ground(theme: Sector6Theme) -> Image.Image:
    return to_indexed(_ground_rgb(theme), sector6_palette(theme))


@cache
def sector6_palette(theme: Sector6Theme) -> Image.Image:
    """The fixed palette Sector 6 boards are encoded with, from a specimen of every piece."""
    return build_palette(_specimen(theme), theme.sector6_colours())


@cache
def sector6_palette_index(theme: Sector6Theme, colour: RGB) -> int:
    """The palette entry of one of the theme's exact colours (for drawing straight onto a
    board)."""
    flat = sector6_palette(theme).getpalette() or []
    for i in range(0, len(flat), 3):
        if tuple(flat[i : i + 3]) == colour:
            return i // 3
    raise ValueError(f"{colour} is not an exact colour of the Sector 6 palette")


def _specimen(theme: Sector6Theme) -> Image.Image:
    """One of every kind of piece at a middle size, so the palette holds their edge shades."""
    radius, size = 60, 18
    tiles: list[Image.Image] = []
    masks = (0b000001, 0b000011, 0b001001, 0b000111, 0b010101, 0b001111, 0b011011, 0)
    for kind in range(8):
        for mask in masks[:: 1 if kind >= 4 else 7]:
            tiles.append(_tile_rgb(theme, radius, kind, mask)[0].reduce(SS))
    for ring in range(3):
        ring_img, ring_cover = _ring_rgb(theme, radius, ring)
        base = _tile_rgb(theme, radius, 5, 0)[0]
        base.paste(ring_img, (0, 0), ring_cover)
        tiles.append(base.reduce(SS))
    for value in (1, 2, 3, 4):
        for bg in (None, theme.panel, theme.panel_row):
            tiles.append(_marker_rgb(theme, size, value, bg)[0].reduce(SS))
        tiles.append(_marker_rgb(theme, size, value, None, dead=True)[0].reduce(SS))
    for seat in range(4):
        for bg in (None, theme.panel, theme.panel_row):
            tiles.append(_prisoner_rgb(theme, size, seat, bg)[0].reduce(SS))
    for seat in range(4):
        tiles.append(card_band(theme, 200, CARD_H, theme.seat_fill[seat]))
    tiles.append(card_band(theme, 200, CLOCK_H, theme.clock))
    width = theme.width
    placed, x, y, row_h = [], 0, 0, 0
    for tile in tiles:
        if x + tile.width > width:
            x, y, row_h = 0, y + row_h, 0
        placed.append((tile, (x, y)))
        x += tile.width
        row_h = max(row_h, tile.height)
    y += row_h
    texts = [
        ("Player 1234567890 to move · turn of", 21, True, theme.text, theme.panel),
        ("Game over: wins share the win blocked", 21, True, theme.text, theme.panel),
        ("Player 1234567890", 20, True, theme.text, theme.panel_row),
        ("0123456789", 34, True, theme.text, theme.panel_row),
        ("0123456789", 34, True, theme.text, theme.panel),
        ("×0123456789 tiles entries to place", 16, False, theme.text_dim, theme.panel_row),
        ("×0123456789 tiles entries to place", 16, False, theme.text_dim, theme.panel),
        ("move C4 C7, rotate right (gears)", 16, False, theme.text_dim, theme.panel),
        ("Oxygen clock: 0123456789 rounds left", 19, True, theme.clock, theme.panel_row),
    ]
    for floor in theme.floors:
        texts.append(("ABCDEFGHIJKLMNOPQRST 0123456789", 18, True, theme.label_ink, floor))
    texts.append(("ABCDEFGHIJKLMNOPQRST 0123456789", 18, True, theme.free_edge, theme.background))
    sheet = Image.new("RGB", (width, y + 36 * len(texts)), theme.panel)
    for tile, where in placed:
        sheet.paste(tile, where)
    for n, (text, size_px, bold, fg, bg) in enumerate(texts):
        sheet.paste(text_rgb(text, size_px, bold, fg, bg), (4, y + 36 * n))
    return sheet
