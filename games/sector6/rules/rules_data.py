"""The Sector 6 components, read from `games/sector6/` once and checked.

Every number the design reconstructs from the rulebook (wall layouts, the supply table, the
markers, the entry points, the size of the table) or decides itself (the oxygen clock, the
backstop on turns) lives in those files, so an owner of the physical game can correct one
without touching code. Any problem is a `DataError` naming the file, raised at start-up
instead of a subtly wrong game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from data import DataError, load_json
from games.sector6.rules.board import SIDES, Grid, grid, mask_of

TILES_FILE = "games/sector6/tiles.json"
SUPPLIES_FILE = "games/sector6/supplies.json"
MARKERS_FILE = "games/sector6/markers.json"
ENTRIES_FILE = "games/sector6/entries.json"
SETUP_FILE = "games/sector6/setup.json"
SHAPES = ("circle", "square", "triangle", "diamond")


@dataclass(frozen=True)
class Tile:
    """One physical piece: a maze tile (value 1-4) or an entry point (value 0, an owner)."""

    id: int
    value: int  # walls on a maze tile and the marker it gets; 0 on an entry point
    walls: int  # closed sides at rotation r0, bit i = side SIDES[i]
    layout: str  # a maze tile's layout id, or "entry"
    owner: int = -1  # the seat of an entry point


@dataclass(frozen=True)
class Seat:
    colour: str
    shape: str


@dataclass(frozen=True)
class Rules:
    """Everything the rules read from data, in the shapes the engine wants."""

    values: tuple[int, ...]  # marker/tile values, ascending
    colours: Mapping[int, str]  # value -> colour name
    layouts: Mapping[str, tuple[int, int, str]]  # layout -> (value, walls at r0, name)
    tiles: tuple[Tile, ...]  # maze tiles, then entry points (owner order)
    maze_tiles: int  # how many of `tiles` are maze tiles
    supplies: Mapping[int, Mapping[int, int]]  # players -> value -> tiles each
    markers: Mapping[int, int]  # value -> markers in the box
    entries_per_player: int
    seats: tuple[Seat, ...]
    grid: Grid
    min_players: int
    max_players: int
    max_rounds: int  # the backstop: competition turns per player, never reached by the rules
    clock_rounds: int  # full rounds without a collection that end the competition
    clock_shown_from: int  # the round of such a stretch from which the board shows the clock
    tie_break: tuple[int, ...]

    def entry(self, seat: int, k: int) -> int:
        """The id of entry point `k` of `seat`."""
        return self.maze_tiles + seat * self.entries_per_player + k


def _need(doc: Mapping[str, Any], key: str, kind: type, path: str) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DataError(path, f"{key!r} must be a {kind.__name__}, found {value!r}")
    return value


def _tiles(doc: Mapping[str, Any]) -> tuple[dict[int, str], dict[str, tuple[int, int, str]], list]:
    path = TILES_FILE
    if doc.get("sides") != list(SIDES):
        raise DataError(path, f"'sides' must be {list(SIDES)} (clockwise from the top)")
    colours: dict[int, str] = {}
    for item in _need(doc, "values", list, path):
        value = _need(item, "value", int, path)
        if value in colours or not 1 <= value <= 6:
            raise DataError(path, f"value {value!r} is repeated or not 1-6")
        colours[value] = _need(item, "colour", str, path)
    layouts: dict[str, tuple[int, int, str]] = {}
    expanded: list[tuple[int, int, str]] = []
    for item in _need(doc, "tiles", list, path):
        layout = _need(item, "layout", str, path)
        value = _need(item, "value", int, path)
        if layout in layouts or layout == "entry":
            raise DataError(path, f"layout {layout!r} is repeated or reserved")
        if value not in colours:
            raise DataError(
                path, f"layout {layout!r} has value {value}, not one of {list(colours)}"
            )
        walls = _need(item, "walls", list, path)
        try:
            mask = mask_of(walls)
        except KeyError as exc:
            raise DataError(
                path, f"layout {layout!r} names an unknown side {exc.args[0]!r}"
            ) from exc
        if len(set(walls)) != len(walls) or len(walls) != value:
            raise DataError(path, f"layout {layout!r} is worth {value} so needs {value} walls")
        count = _need(item, "count", int, path)
        if count < 1:
            raise DataError(path, f"layout {layout!r} needs a count of at least 1")
        layouts[layout] = (value, mask, str(item.get("name", layout)))
        expanded += [(value, mask, layout)] * count
    return colours, layouts, expanded


@cache
def default_rules() -> Rules:
    """The rules as shipped, read once per process."""
    tiles_doc = load_json(TILES_FILE, expected_format="sector6-tiles", expected_version=1)
    supplies_doc = load_json(SUPPLIES_FILE, expected_format="sector6-supplies", expected_version=1)
    markers_doc = load_json(MARKERS_FILE, expected_format="sector6-markers", expected_version=1)
    entries_doc = load_json(ENTRIES_FILE, expected_format="sector6-entries", expected_version=1)
    setup_doc = load_json(SETUP_FILE, expected_format="sector6-setup", expected_version=1)
    return build_rules(tiles_doc, supplies_doc, markers_doc, entries_doc, setup_doc)


def build_rules(
    tiles_doc: Mapping[str, Any],
    supplies_doc: Mapping[str, Any],
    markers_doc: Mapping[str, Any],
    entries_doc: Mapping[str, Any],
    setup_doc: Mapping[str, Any],
) -> Rules:
    """Check the five documents against each other and build the rules (split out so tests
    can feed broken documents without touching the files)."""
    colours, layouts, expanded = _tiles(tiles_doc)
    values = tuple(sorted(colours))
    in_box = {v: sum(1 for t in expanded if t[0] == v) for v in values}

    path = SETUP_FILE
    columns = _need(setup_doc, "columns", int, path)
    rows = _need(setup_doc, "rows", int, path)
    try:
        table = grid(columns, rows)
    except ValueError as exc:
        raise DataError(path, str(exc)) from exc
    if columns < 7 or rows < 7:
        raise DataError(path, "the table must be at least 7 x 7 cells")
    low = _need(setup_doc, "min_players", int, path)
    high = _need(setup_doc, "max_players", int, path)
    if not 1 <= low <= high:
        raise DataError(path, "min_players must be at least 1 and at most max_players")
    max_rounds = _need(setup_doc, "max_rounds", int, path)
    if max_rounds < 1:
        raise DataError(path, "max_rounds must be at least 1")
    clock_rounds = _need(setup_doc, "oxygen_clock_rounds", int, path)
    if clock_rounds < 1:
        raise DataError(path, "oxygen_clock_rounds must be at least 1")
    shown_from = _need(setup_doc, "oxygen_clock_shown_from", int, path)
    if not 1 <= shown_from <= clock_rounds:
        raise DataError(path, "oxygen_clock_shown_from must be 1 to oxygen_clock_rounds")
    tie_break = tuple(_need(setup_doc, "tie_break", list, path))
    if any(v not in colours for v in tie_break) or len(set(tie_break)) != len(tie_break):
        raise DataError(path, f"tie_break must list distinct values among {list(values)}")

    path = ENTRIES_FILE
    per_player = _need(entries_doc, "per_player", int, path)
    if per_player < 1:
        raise DataError(path, "per_player must be at least 1")
    seats = []
    for item in _need(entries_doc, "seats", list, path):
        shape = _need(item, "shape", str, path)
        if shape not in SHAPES:
            raise DataError(path, f"shape {shape!r} is not one of {', '.join(SHAPES)}")
        seats.append(Seat(_need(item, "colour", str, path), shape))
    if len(seats) < high:
        raise DataError(path, f"{high} players need {high} seats, found {len(seats)}")
    if len({s.colour for s in seats}) != len(seats) or len({s.shape for s in seats}) != len(seats):
        raise DataError(path, "every seat needs its own colour and its own shape")

    path = SUPPLIES_FILE
    supplies: dict[int, dict[int, int]] = {}
    table_doc = _need(supplies_doc, "players", dict, path)
    for players in range(low, high + 1):
        row = table_doc.get(str(players))
        if not isinstance(row, dict):
            raise DataError(path, f"no supply for {players} players")
        counts = {}
        for value in values:
            n = row.get(str(value), 0)
            if not isinstance(n, int) or n < 0:
                raise DataError(path, f"{players} players: value {value} needs a count, not {n!r}")
            if n * players > in_box[value]:
                raise DataError(
                    path,
                    f"{players} players x {n} tiles of value {value} is more than the "
                    f"{in_box[value]} in the box",
                )
            counts[value] = n
        if set(row) - {str(v) for v in values}:
            raise DataError(path, f"{players} players: unknown values {sorted(row)}")
        supplies[players] = counts
        pieces = players * (sum(counts.values()) + per_player)
        if pieces > table.cells // 4:
            raise DataError(
                path, f"{players} players place {pieces} pieces: the table is too small"
            )

    # Every collection sets the oxygen clock back, so a game lasts at most (markers + 1) x
    # oxygen_clock_rounds rounds: a backstop below that could cut short a game still in
    # progress, one at or above it only catches a bug.
    most = max(players * sum(supplies[players].values()) for players in supplies)
    if max_rounds < (most + 1) * clock_rounds:
        raise DataError(
            SETUP_FILE,
            f"max_rounds must be at least {(most + 1) * clock_rounds}: (the {most} markers of "
            f"the largest game + 1) x oxygen_clock_rounds, or it may end a game the end rules "
            f"are still ending",
        )

    path = MARKERS_FILE
    markers: dict[int, int] = {}
    for item in _need(markers_doc, "markers", list, path):
        value = _need(item, "value", int, path)
        if value not in colours or value in markers:
            raise DataError(path, f"marker value {value!r} is repeated or not a tile value")
        markers[value] = _need(item, "count", int, path)
    for value in values:
        if markers.get(value, 0) < in_box[value]:
            raise DataError(
                path,
                f"{in_box[value]} tiles of value {value} need as many markers, found "
                f"{markers.get(value, 0)}",
            )

    tiles = [Tile(i, v, m, layout) for i, (v, m, layout) in enumerate(expanded)]
    base = len(tiles)
    for seat in range(len(seats)):
        for k in range(per_player):
            tiles.append(Tile(base + seat * per_player + k, 0, 0, "entry", seat))
    return Rules(
        values=values,
        colours=colours,
        layouts=layouts,
        tiles=tuple(tiles),
        maze_tiles=base,
        supplies=supplies,
        markers=markers,
        entries_per_player=per_player,
        seats=tuple(seats),
        grid=table,
        min_players=low,
        max_players=high,
        max_rounds=max_rounds,
        clock_rounds=clock_rounds,
        clock_shown_from=shown_from,
        tie_break=tie_break,
    )
