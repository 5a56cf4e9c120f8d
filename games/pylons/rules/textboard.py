"""Pylons drawn as plain text, for a terminal (`python -m games play --game pylons`).

Reads a `view(seat)` dict and nothing else. Each cell is three characters wide. Knight-move
links cannot be drawn in a character grid, so a pylon's letter says whether it is linked:
player 1 (blue) builds `o`, shown `O` once linked; player 2 (red) builds `x`, shown `X` once
linked. The last pylon placed stands in brackets. Player 1's border columns are fenced with
`|`, player 2's border rows with `-`; swamps are `~`, the unusable corners blank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SIZE = 24
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"
MARKS = (("o", "O"), ("x", "X"))
SWAMP, EMPTY, CORNER = "~", ".", " "

ACTION_FORMS = """\
Actions (one per line):
  place K12     put a pylon on K12 (columns A-X west to east, rows 1-24 north to south)
  K12           the same, shorter
  keep          (player 1, first action with swamps) keep the board and move first
  mirror        (player 1, first action with swamps) mirror the swamps; player 2 starts
Player 1 (o) links columns A and X; player 2 (x) links rows 1 and 24. Own pylons a knight's
move apart are linked by themselves unless the link would cross another link.
Other commands: help, board, quit."""

LEGEND = (
    "o/x: player 1/2 pylon (O/X: linked)   [ ]: last pylon   ~: swamp\n"
    "|: player 1's borders (A, X)   -: player 2's borders (1, 24)"
)


def _index(name: str) -> tuple[int, int]:
    return ord(name[0].upper()) - 65, int(name[1:]) - 1


def _marks(view: Mapping[str, Any], size: int) -> list[list[str]]:
    """Each cell's mark by row: the corners, the swamps and the pylons (linked or not)."""
    grid = [[EMPTY] * size for _ in range(size)]
    for corner in ((0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)):
        grid[corner[1]][corner[0]] = CORNER
    for name in view.get("swamp_cells", []):
        i, j = _index(name)
        grid[j][i] = SWAMP
    linked = {cell for link in view.get("links", []) for cell in link["cells"]}
    for pylon in view.get("pylons", []):
        i, j = _index(pylon["cell"])
        grid[j][i] = MARKS[pylon["seat"]][pylon["cell"] in linked]
    return grid


def board_lines(view: Mapping[str, Any]) -> list[str]:
    """The grid with coordinates: 24 rows of 24 three-character cells, fenced at the borders."""
    size = int(view.get("size", SIZE))
    grid = _marks(view, size)
    last = (view.get("last") or {}).get("cell")
    header = "    " + "".join(
        f" {COLUMNS[i]} " + (" " if i in (0, size - 2) else "") for i in range(size)
    )
    lines = [header.rstrip()]
    for j in range(size):
        row = []
        for i in range(size):
            mark = grid[j][i]
            name = f"{COLUMNS[i]}{j + 1}"
            row.append(f"[{mark}]" if name == last else f" {mark} ")
            if i in (0, size - 2):
                row.append("|")
        lines.append(f"{j + 1:>3} " + "".join(row) + f" {j + 1}")
        if j in (0, size - 2):
            lines.append("    " + "-" * (3 * size + 2))
    lines.append(header.rstrip())
    return lines


def status_lines(view: Mapping[str, Any]) -> list[str]:
    """Scores, pylons left, and what happens now (or how the game ended)."""
    players = view.get("players", [])
    out = [
        "  ".join(
            f"Player {p['seat'] + 1} ({p['colour']}, {'A-X' if p['seat'] == 0 else '1-24'}): "
            f"score {p['score']}, {p['pylons']} pylons"
            for p in players
        )
        + f"   pylons left: {view.get('pylons_left')}"
    ]
    last = view.get("last") or {}
    if last.get("action"):
        links = last.get("links") or []
        made = ", ".join("-".join(pair) for pair in links) or "no link"
        note = f"Last: player {int(last['seat']) + 1} {last['action']}"
        if last.get("cell"):
            note += f" ({made}"
            blocked = last.get("blocked") or []
            if blocked:
                note += "; blocked: " + ", ".join("-".join(pair) for pair in blocked)
            note += ")"
        out.append(note)
    outcome = view.get("outcome")
    if outcome:
        winners = outcome["winners"]
        if len(winners) == 2:
            out.append(f"Game over ({outcome['reason'].replace('_', ' ')}): a draw.")
        else:
            out.append(
                f"Game over ({outcome['reason'].replace('_', ' ')}): player {winners[0] + 1} wins."
            )
    elif view.get("phase") == "choose":
        out.append("Player 1 chooses: keep (and move first) or mirror (player 2 moves first).")
    else:
        out.append(f"Player {int(view['current_seat']) + 1} to place a pylon.")
    return out


def text_board(view: Mapping[str, Any]) -> str:
    """The whole terminal picture: board, legend and status."""
    return "\n".join([*board_lines(view), LEGEND, *status_lines(view)])


def prompt_lines(view: Mapping[str, Any]) -> list[str]:
    """What the person to move is asked to do."""
    if view.get("phase") == "choose":
        return ["Type keep or mirror."]
    return ["Type a cell to build on, e.g. place K12."]


# ---------------------------------------------------------------- the compact board
# For a small screen and a screen reader (the bot's `/game board text:True`): one character a
# cell, so the whole 24 x 24 board is 32 characters wide, narrow enough for a phone held
# upright, where the three-character cells above (81 wide) wrap and fall apart. Nothing is
# lost but the brackets around the last pylon, which the status lines name instead.


def compact_board_lines(view: Mapping[str, Any]) -> list[str]:
    """The board one character a cell: column letters above and below, row numbers on both
    sides, player 1's border columns fenced with `|` and player 2's border rows with `-`
    (where they cross, `+`)."""
    size = int(view.get("size", SIZE))
    grid = _marks(view, size)

    def fenced(cells: list[str], fence: str) -> str:
        return cells[0] + fence + "".join(cells[1 : size - 1]) + fence + cells[size - 1]

    header = "   " + fenced(list(COLUMNS[:size]), "|")
    rule = "   " + fenced(["-"] * size, "+")
    lines = [header]
    for j in range(size):
        lines.append(f"{j + 1:>2} " + fenced(grid[j], "|") + f" {j + 1}")
        if j in (0, size - 2):
            lines.append(rule)
    lines.append(header)
    return [line.rstrip() for line in lines]


def pylons_by_seat(view: Mapping[str, Any]) -> list[list[str]]:
    """Each seat's pylons, column by column (A1, A7, B3, ...): a list a screen reader reads
    far better than a grid of dots."""
    seats = len(view.get("players", ())) or 2
    out: list[list[str]] = [[] for _ in range(seats)]
    for pylon in view.get("pylons", []):
        out[int(pylon["seat"])].append(pylon["cell"])
    return [sorted(cells, key=_index) for cells in out]
