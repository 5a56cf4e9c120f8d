"""The High Voltage board picture posted after every move.

Built from cached layers: a static base (background, coordinates, panel ground), one sprite
per score card and per grid cell (its highlight ring baked in), then the panel's labels.
Only public parts of the view are read, so a seat's view gives the spectator's picture
except for that seat's own colour disc in the panel: the drawn card's face, present in its
drawer's view, is never drawn here.

The lines a player may declare can be outlined on top (`highlight`): each in a colour of its
own, round its cards and its two stations, and labelled with its name as the prompt's
buttons say it. A line is only where it runs and between which stations, all of it on the
face-up board for everyone to see, so the outline tells nothing the board does not.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, texts_for
from games.high_voltage.pictures.layout import (
    board_side,
    cell_box,
    frame_box,
    grid_origin,
    station_facing,
)
from games.high_voltage.pictures.palette import THEME, HighVoltageTheme
from games.high_voltage.pictures.panel import (
    LAST_TOP,
    PLAYERS_TOP,
    ROW_H,
    SMALL,
    draw_panel,
    panel_ground,
    specimen_text,
)
from games.high_voltage.pictures.sprites import (
    DANGER,
    HIGH_VOLTAGE,
    NO_TOKEN,
    EdgePair,
    cell_sprite,
    disc_icon,
    edge_pair,
    frame_sprite,
    path_key,
)
from render.canvas import Canvas, paste, shrink, text_width, to_indexed
from render.encode import FAST, StoredPalette, build_palette, png_bytes
from render.fonts import font
from render.theme import RGB

View = Mapping[str, Any]

_SIDE_OF_EDGE = {"N": "north", "E": "east", "S": "south", "W": "west"}


def hv_board_png(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: HighVoltageTheme = THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    highlight: Sequence[Mapping[str, Any]] = (),
    moves: Sequence[str] | None = None,
) -> bytes:
    """The board as PNG bytes. `names` are display names by seat (default 'Seat 1'...);
    `language` is a language code of `data.texts` for the panel's words; `clock` the time
    the player to move has left, already in words of that language ("42 minutes left"),
    drawn in the panel under the turn number (None: no clock, the picture as without one);
    `highlight` the lines to outline, as the view's `closable` gives them (their `line`,
    `cells` and `stations`); `moves` the last turn's actions in words of that language, as
    the presenter says them ("rotated E4 to 90°"), for the panel's last line (None: only the
    lines it scored)."""
    image = _board(view, names, theme, language, clock, highlight, moves, keep=True)
    return png_bytes(image, FAST, band_edges(theme, int(view.get("grid_size", 7))))


@cache
def band_edges(theme: HighVoltageTheme, n: int = 7) -> tuple[int, ...]:
    """The rows where the board's parts meet, where the PNG's bands start (see
    `render.encode.banded_png`): the frame, each row of cards, the panel's row of each player
    (the player to move changes with every move) and its last turn's lines."""
    side = board_side(theme, n)
    o = grid_origin(theme)
    cards = [o + k * theme.cell for k in range(n + 1)]
    players = [side + PLAYERS_TOP - 3 + k * ROW_H for k in range(5)]
    return (theme.margin, *cards, side - theme.margin, side, *players, side + LAST_TOP)


def hv_board_image(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: HighVoltageTheme = THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    highlight: Sequence[Mapping[str, Any]] = (),
    moves: Sequence[str] | None = None,
) -> Image.Image:
    """The board as a palette image, before PNG encoding. The clock is drawn with the rest
    of the panel's changing parts, never into the cached base: its text changes with every
    post."""
    return _board(view, names, theme, language, clock, highlight, moves, keep=False)


def _board(
    view: View,
    names: Sequence[str] | None,
    theme: HighVoltageTheme,
    language: str,
    clock: str | None,
    highlight: Sequence[Mapping[str, Any]],
    moves: Sequence[str] | None,
    *,
    keep: bool,
) -> Image.Image:
    """The board, drawn on a copy of the last board this process drew in the same look when
    there is one (see `_Drawn`), else on the base; `keep`: the picture is kept as the last
    board (it is handed to no one who could draw on it)."""
    n = int(view.get("grid_size", 7))
    look = (theme, n, language)
    cells = _cell_keys(view, theme, n, texts_for(language)("picture.hv.danger_card"))
    frame = _frame_keys(view, n)
    with _drawn_lock:
        before = None if highlight else _drawn.get(look)
    if before is None:
        canvas = Canvas(_base(theme, n, language).copy(), theme, board_palette)
    else:
        canvas = Canvas(before.image.copy(), theme, board_palette)
        paste(canvas.image, _panel_ground(theme, n, language), (0, board_side(theme, n)))
    for number, key in enumerate(frame):
        if before is None or before.frame[number] != key:
            canvas.sprite(frame_sprite, *key, at=frame_box(number, theme, n)[:2])
    for index, key in enumerate(cells):
        if before is None or before.cells[index] != key:
            canvas.sprite(cell_sprite, *key, at=cell_box(index, theme, n)[:2])
    if highlight:
        outline_lines(canvas, highlight, n)
    draw_panel(
        canvas,
        view,
        names,
        top=board_side(theme, n),
        texts=texts_for(language),
        clock=clock,
        moves=moves,
    )
    if keep and not highlight:
        with _drawn_lock:
            _drawn[look] = _Drawn(canvas.image, cells, frame)
            _drawn.move_to_end(look)
            while len(_drawn) > DRAWN_KEPT:
                _drawn.popitem(last=False)
    return canvas.image


@dataclass(frozen=True)
class _Drawn:
    """A board drawn last in its look, and what each of its cards and score cards shows.

    A card's picture is all its cell's pixels and depends on its sprite's key alone (a score
    card's likewise), the rest of the board above the panel is the base's, and the panel is
    drawn afresh on the base's panel ground: so a board drawn over the last one, with only the
    cards whose key differ pasted again, is the board drawn from the base, pixel for pixel.
    After a move most cards are as they were: the board of a game drawn after its last move
    pastes two or three cards instead of eighty. The image is never drawn on again (a board
    is drawn on a copy). A board with lines outlined on it is neither drawn over nor kept."""

    image: Image.Image
    cells: tuple[tuple[Any, ...], ...]
    frame: tuple[tuple[Any, ...], ...]


DRAWN_KEPT = 8  # boards kept, one per look (theme, grid size, language): ~1.2 MB each
_drawn: OrderedDict[tuple[HighVoltageTheme, int, str], _Drawn] = OrderedDict()
_drawn_lock = threading.Lock()


def forget_boards() -> None:
    """Forget the boards kept to draw the next ones over (benchmarks: a process that has not
    drawn this game lately; tests)."""
    with _drawn_lock:
        _drawn.clear()


def _cell_keys(
    view: View, theme: HighVoltageTheme, n: int, danger: str
) -> tuple[tuple[Any, ...], ...]:
    """The `cell_sprite` arguments of every cell, in the view's order."""
    lit_cells, _ = traced(view, n)
    last = view.get("last") or {}
    changed = set(last.get("cells") or [])
    drawn = (view.get("drawn") or {}).get("cell")
    keys = []
    for cell in view["cells"]:
        name = cell["cell"]
        ring = None
        if name == drawn:
            ring = theme.drawn_outline
        elif name in changed:
            ring = theme.changed_outline
        key = _cell_key(cell, lit_cells.get(name, frozenset()), ring)
        if key[1] == "danger":
            key = (*key, danger)
        keys.append(key)
    return tuple(keys)


LABEL_SIZE = 21  # a line's name on its outline, in pixels: read at the size Discord shows it


def outline_lines(
    canvas: Canvas[HighVoltageTheme], lines: Sequence[Mapping[str, Any]], n: int = 7
) -> None:
    """Outline each line round its cards and its two stations in its own colour, the k-th
    outline through a card or station inside the ones before it (two lines often share a
    card), and label it with its name on one of its cards, the middlemost not labelled
    already."""
    theme = canvas.theme
    draw = ImageDraw.Draw(canvas.image)
    width = theme.line_mark_width
    depth: dict[tuple[str, object], int] = defaultdict(int)
    labelled: set[str] = set()
    labels: list[tuple[str, tuple[int, int, int, int], RGB]] = []
    for i, line in enumerate(lines):
        colour = theme.line_marks[i % len(theme.line_marks)]
        ink = _palette_index(theme, colour)
        cells = list(line.get("cells") or [])
        boxes = [(("cell", c), cell_box(c, theme, n)) for c in cells]
        boxes += [(("station", s), frame_box(int(s), theme, n)) for s in line.get("stations", [])]
        for key, (x0, y0, x1, y1) in boxes:
            inset = theme.gutter // 2 + depth[key] * (width + 2)
            depth[key] += 1
            draw.rounded_rectangle(
                (x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset),
                radius=theme.radius,
                outline=ink,
                width=width,
            )
        if not cells:
            continue
        middle = (len(cells) - 1) / 2
        by_middle = sorted(cells, key=lambda c: abs(cells.index(c) - middle))
        spot = next((c for c in by_middle if c not in labelled), by_middle[0])
        labelled.add(spot)
        labels.append((str(line.get("line", "")), cell_box(spot, theme, n), colour))
    for name, box, colour in labels:  # over every outline: no name is hidden by another line
        _label(canvas, name, box, colour)


def _label(
    canvas: Canvas[HighVoltageTheme], name: str, box: tuple[int, int, int, int], colour: RGB
) -> None:
    """A line's name in dark ink on a tag of its colour, at the foot of one of its cards."""
    theme = canvas.theme
    x0, _, x1, y1 = box
    # As wide as the card and its gutters at most: a name never runs onto the next card.
    text, size = shrink(name, LABEL_SIZE, x1 - x0 - 6, smallest=LABEL_SIZE - 4)
    width = round(text_width(text, size)) + 6
    height = size + 6
    mid = (x0 + x1) // 2
    bottom = y1 - theme.gutter - theme.line_mark_width - 4
    ImageDraw.Draw(canvas.image).rectangle(
        (mid - width // 2, bottom - height, mid + width // 2, bottom),
        fill=_palette_index(theme, colour),
    )
    canvas.text((mid, bottom - height // 2), text, size=size, fg=theme.ink, bg=colour, anchor="mm")


@cache
def _palette_index(theme: HighVoltageTheme, colour: RGB) -> int:
    """The board palette's entry for one of the theme's flat colours (held exactly)."""
    flat = board_palette(theme).getpalette() or []
    entries = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    return entries.index(colour)


def _cell_key(
    cell: Mapping[str, Any], glow: frozenset[EdgePair], ring: tuple[int, int, int] | None
) -> tuple[Any, ...]:
    """The `cell_sprite` arguments for one cell of the view: all a face-up card looks like."""
    state = cell["state"]
    if state != "up":
        return (state, None, (), NO_TOKEN, frozenset(), ring)
    energy = cell.get("energy", NO_TOKEN)
    if energy not in (HIGH_VOLTAGE, DANGER):
        energy = NO_TOKEN
    paths = tuple(path_key(p) for p in cell.get("paths", []))
    return ("up", cell.get("kind", ""), paths, energy, glow, ring)


def traced(view: View, n: int = 7) -> tuple[dict[str, frozenset[EdgePair]], set[int]]:
    """Paths and stations of the lines scored by the last action: per cell the paths a line
    runs along (found from the edge it enters by), and the station numbers at both ends."""
    cells = {c["cell"]: c for c in view["cells"]}
    lit: dict[str, set[EdgePair]] = defaultdict(set)
    stations: set[int] = set()
    for line in (view.get("last") or {}).get("lines") or []:
        names, entries = line.get("cells") or [], line.get("entries") or []
        for i, (name, entry) in enumerate(zip(names, entries, strict=False)):
            card = cells.get(name, {})
            exit_edge = None
            for path in card.get("paths", []):
                a, b = path["edges"]
                if entry in (a, b):
                    lit[name].add(edge_pair(a, b))
                    exit_edge = b if a == entry else a
                    break
            if i == 0:
                stations.add(_station_at(name, entry, n))
            if i == len(names) - 1 and exit_edge is not None:
                stations.add(_station_at(name, exit_edge, n))
    stations.discard(-1)
    return {name: frozenset(pairs) for name, pairs in lit.items()}, stations


def _station_at(cell: str, edge: str, n: int) -> int:
    """The station beyond `edge` of `cell`, or -1 when that edge faces another cell."""
    col, row = ord(cell[0].upper()) - 65, int(cell[1:]) - 1
    side = _SIDE_OF_EDGE[edge]
    on_border = {
        "north": row == 0,
        "south": row == n - 1,
        "west": col == 0,
        "east": col == n - 1,
    }[side]
    return station_facing(side, cell, n) if on_border else -1


def _frame_keys(view: View, n: int) -> tuple[tuple[Any, ...], ...]:
    """The `frame_sprite` arguments of every score card, by its number."""
    _, lit = traced(view, n)
    colours = {s["station"]: s["colour"] for s in view.get("stations", [])}
    ring = 4 * (n + 1)
    markers: dict[int, list[str]] = defaultdict(list)
    scores = view.get("company_scores") or {}
    for colour in view.get("colours") or list(scores):
        if colour in scores:
            markers[int(scores[colour]) % ring].append(colour)
    return tuple(
        (number, n, colours.get(number), tuple(markers.get(number, ())), number in lit)
        for number in range(ring)
    )


@cache
def _base(theme: HighVoltageTheme, n: int, language: str) -> Image.Image:
    """Background, coordinates and the panel's fixed labels: identical on every board of a
    language."""
    side = board_side(theme, n)
    img = Image.new("RGB", (side, side + theme.panel_height), theme.background)
    draw = ImageDraw.Draw(img)
    f = font(max(SMALL, round(theme.margin * 0.62)))
    o = grid_origin(theme)
    half = theme.margin / 2
    for i in range(n):
        mid = o + i * theme.cell + theme.cell / 2
        letter, digit = chr(65 + i), str(i + 1)
        draw.text((mid, half), letter, fill=theme.coordinate_text, font=f, anchor="mm")
        draw.text((mid, side - half), letter, fill=theme.coordinate_text, font=f, anchor="mm")
        draw.text((half, mid), digit, fill=theme.coordinate_text, font=f, anchor="mm")
        draw.text((side - half, mid), digit, fill=theme.coordinate_text, font=f, anchor="mm")
    panel_ground(img, theme, side, texts_for(language))
    return to_indexed(img, board_palette(theme))


@cache
def _panel_ground(theme: HighVoltageTheme, n: int, language: str) -> Image.Image:
    """The base's panel: what a board drawn over another starts its panel from."""
    side = board_side(theme, n)
    return _base(theme, n, language).crop((0, side, side, side + theme.panel_height))


@cache
def board_palette(theme: HighVoltageTheme) -> Image.Image:
    """The fixed palette boards are encoded with. The default theme's is read from its file:
    built, it would cost every process that draws boards, the bot and each drawing worker,
    about a second of CPU as it starts."""
    return STORED_PALETTE.load() if theme == THEME else specimen_palette(theme)


def specimen_palette(theme: HighVoltageTheme) -> Image.Image:
    """The palette built from a specimen of every sprite kind: the truth the stored file is
    checked against, and the palette of any theme but the default."""
    return build_palette(_specimen(theme), theme.base_colours())


STORED_PALETTE = StoredPalette(
    Path(__file__).with_name("palette.txt"), "High Voltage board", partial(specimen_palette, THEME)
)


def _specimen(theme: HighVoltageTheme) -> Image.Image:
    """A sheet of representative sprites and texts: the shades a board can contain."""
    tiles: list[Image.Image] = [cell_sprite(theme, "down"), cell_sprite(theme, "empty")]
    tiles.append(cell_sprite(theme, "up", "danger", (), NO_TOKEN))
    names = [c.name for c in theme.companies]
    for i, colour in enumerate(names):
        other = names[(i + 1) % len(names)]
        third = names[(i + 2) % len(names)]
        for energy in (NO_TOKEN, HIGH_VOLTAGE, DANGER):
            tiles.append(cell_sprite(theme, "up", "straight", (("N", "S", colour),), energy))
            tiles.append(cell_sprite(theme, "up", "curve", (("N", "E", colour),), energy))
        tiles.append(
            cell_sprite(theme, "up", "crossing", (("N", "S", colour), ("E", "W", other)), NO_TOKEN)
        )
        tiles.append(
            cell_sprite(
                theme, "up", "double_curve", (("N", "E", colour), ("S", "W", third)), NO_TOKEN
            )
        )
        tiles.append(
            cell_sprite(
                theme, "up", "curve", (("E", "S", colour),), NO_TOKEN, frozenset({("E", "S")})
            )
        )
        tiles.append(frame_sprite(theme, 1 + i, 7, colour, (colour,), False))
        tiles.append(frame_sprite(theme, 1 + i, 7, colour, (), True))
        for bg in (theme.panel, theme.panel_row):
            tiles.append(disc_icon(theme, colour, 28, bg))
    for ring in (theme.changed_outline, theme.drawn_outline):
        tiles.append(cell_sprite(theme, "down", None, (), NO_TOKEN, frozenset(), ring))
        tiles.append(
            cell_sprite(theme, "up", "straight", (("N", "S", "red"),), NO_TOKEN, frozenset(), ring)
        )
    tiles.append(frame_sprite(theme, 0, 7, None, tuple(names), False))
    tiles.append(frame_sprite(theme, 12, 7, "red", tuple(names), False))
    cols = 8
    t = theme.cell
    rows = (len(tiles) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * t, rows * t + 3 * t), theme.panel)
    for i, tile in enumerate(tiles):
        sheet.paste(tile, ((i % cols) * t, (i // cols) * t))
    specimen_text(sheet, (0, rows * t), theme)
    return sheet
