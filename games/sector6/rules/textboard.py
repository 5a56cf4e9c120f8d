"""Sector 6 drawn as plain text, for a terminal (`python -m games play --game sector6`).

Reads a `view(seat)` dict and nothing else. Every tile is a flat-topped hexagon of 9 x 5
characters sharing its sides with its neighbours, like the cells of a printed hex map::

      _____
     / C4  \\        the label (the one commands use)
    /  ox3  \\       an oxygen marker worth 3 ("ox-" once collected, "v3" while building;
                     "in P1": player 1's entry point)
    \\  P2*  /       player 2's prisoner; * marks the last move or placement
     \\_____/

A side is drawn only where it is a wall (`_____`, `/`, `\\`); where the walls of two tiles
meet (their gears turn each other in full mode) it is doubled (`=====`, `#`). An open side is
blank. While the maze is being built, empty cells next to it show their label in brackets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SIDES = ("N", "NE", "SE", "S", "SW", "NW")
W, H = 7, 4  # column pitch and row pitch in characters

ACTION_FORMS = """\
Actions (one per line):
  draw                 turn over the top tile of your supply (you alone see it), then:
  place C4 r120        put it on C4 turned 120 degrees clockwise (r0 r60 r120 r180 r240 r300)
  place entry C4       put one of your entry points on C4 instead of drawing
  move C4 C7           move your prisoner on C4 in a straight line to C7, then one of:
  collect              take the marker of the tile you just left
  rotate left          turn the tile you just left one side anticlockwise (right: clockwise)
  done                 end your turn
  rotate C4 right      (blocked) one of your two rotations of a tile under your prisoners
  pass                 (novice mode, blocked) let your turn go by
Other commands: help, board, quit."""

LEGEND = (
    "_ / \\: wall   = #: gears meet   ox3: oxygen marker worth 3   v3: tile worth 3   "
    "in P1: player 1's entry   P1: prisoner   *: last turn   (D5): free cell"
)


def _label_cell(name: str) -> tuple[int, int]:
    return LETTERS.index(name[0].upper()), int(name[1:]) - 1


def _origin(col: int, row: int, col0: int, row0: int) -> tuple[int, int]:
    return W * (col - col0), H * (row - row0) + (2 if col % 2 else 0)


# Character positions of each side relative to a hexagon's top-left corner, and its glyphs
# (single wall, walls meeting).
_SIDE_CELLS: dict[str, tuple[tuple[tuple[int, int], ...], str, str]] = {
    "N": (tuple((x, 0) for x in range(2, 7)), "_", "="),
    "NE": (((7, 1), (8, 2)), "\\", "#"),
    "SE": (((8, 3), (7, 4)), "/", "#"),
    "S": (tuple((x, 4) for x in range(2, 7)), "_", "="),
    "SW": (((1, 4), (0, 3)), "\\", "#"),
    "NW": (((0, 2), (1, 1)), "/", "#"),
}


def board_lines(view: Mapping[str, Any]) -> list[str]:
    """The maze (and, while building, the free cells next to it) as hexagons."""
    tiles = {t["cell"]: t for t in view.get("tiles") or ()}
    cells = {name: _label_cell(name) for name in tiles}
    if view.get("phase") == "build":
        for name in _free_cells(view, tiles):
            cells[name] = _label_cell(name)
    if not cells:
        return ["(the table is empty: the first tile goes anywhere, e.g. place J10 r0)"]
    col0 = min(c for c, _ in cells.values())
    row0 = min(r for _, r in cells.values())
    canvas: dict[tuple[int, int], tuple[int, str]] = {}

    def put(x: int, y: int, text: str, rank: int = 3) -> None:
        for k, ch in enumerate(text):
            old = canvas.get((x + k, y))
            if old is None or old[0] <= rank:
                canvas[(x + k, y)] = (rank, ch)

    last = view.get("last") or {}
    marked = {last.get("placed"), last.get("to"), *(last.get("rotated") or ())} - {None}
    for name, (col, row) in sorted(cells.items()):
        x0, y0 = _origin(col, row, col0, row0)
        tile = tiles.get(name)
        if tile is None:
            put(x0 + 2, y0 + 1, f"({name})"[:5].center(5), 0)
            continue
        walls = set(tile["walls"])
        for side, (spots, single, double) in _SIDE_CELLS.items():
            if side not in walls:
                continue
            meets = _meets(name, side, tiles)
            for dx, dy in spots:
                put(x0 + dx, y0 + dy, double if meets else single, 2 if meets else 1)
        star = "*" if name in marked else ""
        put(x0 + 2, y0 + 1, f"{name}{star}".center(5), 3)
        if tile["kind"] == "entry":
            middle = f"in P{int(tile['owner']) + 1}"
        elif view.get("phase") == "build":
            middle = f"v{tile['value']}"  # markers come once the maze is complete
        else:
            middle = f"ox{tile['marker']}" if tile.get("marker") else "ox-"
        put(x0 + 1, y0 + 2, middle.center(7), 3)
        if tile.get("prisoner") is not None:
            put(x0 + 1, y0 + 3, f"P{int(tile['prisoner']) + 1}".center(7), 3)
    width = max(x for x, _ in canvas) + 1
    height = max(y for _, y in canvas) + 1
    lines = []
    for y in range(height):
        lines.append("".join(canvas.get((x, y), (0, " "))[1] for x in range(width)).rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _neighbour(name: str, side: str) -> str | None:
    col, row = _label_cell(name)
    odd = col % 2
    steps = {
        "N": (0, -1),
        "S": (0, 1),
        "NE": (1, -1 + odd),
        "SE": (1, odd),
        "SW": (-1, odd),
        "NW": (-1, -1 + odd),
    }
    dc, dr = steps[side]
    c, r = col + dc, row + dr
    if c < 0 or r < 0 or c >= len(LETTERS):
        return None
    return f"{LETTERS[c]}{r + 1}"


def _meets(name: str, side: str, tiles: Mapping[str, Any]) -> bool:
    other = _neighbour(name, side)
    if other is None or other not in tiles:
        return False
    facing = SIDES[(SIDES.index(side) + 3) % 6]
    return facing in tiles[other]["walls"]


def _free_cells(view: Mapping[str, Any], tiles: Mapping[str, Any]) -> list[str]:
    table = view.get("table") or {}
    columns, rows = int(table.get("columns", 20)), int(table.get("rows", 20))
    out = set()
    for name in tiles:
        for side in SIDES:
            other = _neighbour(name, side)
            if other is None or other in tiles:
                continue
            col, row = _label_cell(other)
            if col < columns and 0 <= row < rows:
                out.add(other)
    return sorted(out)


def _player(seat: int) -> str:
    return f"P{seat + 1}"


def status_lines(view: Mapping[str, Any]) -> list[str]:
    """Scores, supplies, the drawn tile, the last turn and what happens now."""
    out = []
    current = view.get("current_seat")
    for p in view.get("players") or ():
        seat = int(p["seat"])
        got = " ".join(f"{n}x{v}" for v, n in p["collected"].items() if n) or "nothing"
        line = f"{'>' if seat == current else ' '} {_player(seat)} ({p['colour']}): {p['score']}"
        line += f" oxygen ({got})"
        if view.get("phase") == "build":
            line += f", {p['supply_left']} tiles + {p['entries_left']} entries to place"
        out.append(line)
    drawn = view.get("drawn")
    if drawn and "walls" in drawn:
        out.append(
            f"Your drawn tile: value {drawn['value']} ({drawn['colour']}), walls at r0: "
            + " ".join(drawn["walls"])
        )
    elif drawn:
        out.append(f"{_player(int(drawn['seat']))} has drawn a tile.")
    last = view.get("last") or {}
    if last.get("actions"):
        out.append(f"Last: {_player(int(last['seat']))} " + ", ".join(last["actions"]))
        if last.get("geared"):
            out.append("  gears turned " + ", ".join(last["geared"]))
    counts = view.get("markers")
    if counts and view.get("phase") == "play":
        line = f"Markers: {counts['free']} free, {counts['held']} held"
        if counts["dead"]:
            line += f", {counts['dead']} out of reach (" + " ".join(counts["dead_cells"]) + ")"
        clock = view.get("oxygen_clock") or {}
        if clock.get("shown"):
            left = clock["rounds_left"]
            line += f". Oxygen clock: {left} round{'' if left == 1 else 's'} left"
        out.append(line + ".")
    outcome = view.get("outcome")
    if outcome:
        reason = outcome["reason"].replace("_", " ")
        winners = " and ".join(_player(w) for w in outcome["winners"])
        out.append(
            f"Game over ({reason}): {winners} win{'s' if len(outcome['winners']) == 1 else ''}."
        )
        return out
    who = _player(int(current)) if current is not None else "?"
    step = view.get("step")
    if step == "draw":
        out.append(f"{who} to draw a tile or place an entry point.")
    elif step == "place":
        out.append(f"{who} to place the drawn tile.")
    elif step == "move":
        out.append(f"{who} to move a prisoner.")
    elif step == "act":
        out.append(f"{who}: collect, rotate left/right or done, on {view.get('pending')}.")
    elif step == "blocked":
        if view.get("rules", {}).get("rotations", True):
            out.append(f"{who} is blocked: {view.get('rotations_left')} rotations to make.")
        else:
            out.append(f"{who} is blocked and must pass.")
    return out


def text_board(view: Mapping[str, Any]) -> str:
    """The whole terminal picture: maze, legend and status."""
    return "\n".join([*board_lines(view), LEGEND, *status_lines(view)])


def prompt_lines(view: Mapping[str, Any]) -> list[str]:
    """What the person to move is asked to do."""
    step = view.get("step")
    if step == "draw":
        return ["Type draw, or place entry <cell>."]
    if step == "place":
        return ["Type place <cell> r<0|60|120|180|240|300>."]
    if step == "move":
        return ["Type move <from> <to>."]
    if step == "act":
        return ["Type collect, rotate left, rotate right or done."]
    if step == "blocked":
        if view.get("rules", {}).get("rotations", True):
            return ["Type rotate <cell> left or rotate <cell> right."]
        return ["Type pass."]
    return []


# ---------------------------------------------------------------- the maze as a list
# For a small screen and a screen reader (the bot's `/game board text:True`). The hexagons
# above take 7 characters a column: a four-player maze late in a game is 60-70 characters
# wide and over 1,900 long, which wraps into noise on a phone held upright and reads as a
# stream of slashes aloud. A list of tiles, one a line, says the same in a few words each:
# where a tile is, its colour and value, the sides a prisoner can leave it by, whether its
# oxygen marker is still there, whose prisoner stands on it.


def tile_rows(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every piece of the maze, column by column (B1, B2, C1, ...), as plain data:
    cell, kind ("tile" or "entry"), colour, value, open sides (in compass order), marker
    (None once collected, or before the maze is complete), prisoner and owner (seats or None),
    and whether the last turn placed, reached or turned it."""
    last = view.get("last") or {}
    marked = {last.get("placed"), last.get("to"), *(last.get("rotated") or ())} - {None}
    rows = []
    for tile in view.get("tiles") or ():
        walls = set(tile.get("walls") or ())
        rows.append(
            {
                "cell": tile["cell"],
                "kind": tile["kind"],
                "colour": tile.get("colour"),
                "value": tile.get("value"),
                "open": [side for side in SIDES if side not in walls],
                "marker": tile.get("marker"),
                "prisoner": tile.get("prisoner"),
                "owner": tile.get("owner"),
                "last": tile["cell"] in marked,
            }
        )
    return sorted(rows, key=lambda row: _label_cell(row["cell"]))
