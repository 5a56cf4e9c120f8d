"""High Voltage drawn as plain text, for a terminal: the board, a drawn card and what to type.

Everything here reads a `view(seat)` dict and nothing else, so the text can never show more
than that seat may know: a face-down card is a hatched block whatever it hides, and other
seats' colours appear only once the view itself reveals them (at the end of the game).

Each card is a block of 5 x 3 characters. A path is drawn with the first letter of its colour
(R, Y, G, B) from the middle of one edge to the middle of another; curves hug their corner so
that the two curves of a double-curve card never touch, and a crossing shows `+` where its
paths cross. Between two cards, `-` or `|` marks an edge where both cards have a path, so a
line can be followed by eye from station to station. Energy tokens sit in the top corners.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CARD_WIDTH, CARD_HEIGHT = 5, 3
EDGES = ("N", "E", "S", "W")
FACE_DOWN = ("/////",) * CARD_HEIGHT
DANGER_CARD = (" !!! ", "!!!!!", " !!! ")
ENERGY_MARKS = {"none": "", "high_voltage": "^", "danger": "!"}
LAST_MARK = "*"
GRID_DOT = "."

# The characters each path covers inside its card, as (row, column), keyed by its edge pair.
PATH_CELLS: dict[frozenset[str], tuple[tuple[int, int], ...]] = {
    frozenset("NS"): ((0, 2), (1, 2), (2, 2)),
    frozenset("EW"): ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4)),
    frozenset("NE"): ((0, 2), (0, 3), (1, 3), (1, 4)),
    frozenset("ES"): ((1, 4), (1, 3), (2, 3), (2, 2)),
    frozenset("SW"): ((2, 2), (2, 1), (1, 1), (1, 0)),
    frozenset("NW"): ((1, 0), (1, 1), (0, 1), (0, 2)),
}
# (row, column) inside a card block of the middle of each edge.
EDGE_MIDDLE = {"N": (0, 2), "E": (1, 4), "S": (2, 2), "W": (1, 0)}

ACTION_FORMS = """\
Actions (one per line, as the engine writes them):
  draw C3                  look at a face-down card, then place it:
  place here r90           ... back where it was, turned 90 degrees clockwise
  place empty r0           ... or into the empty cell
  draw C3 empty r90        draw and place in one go
  rotate E4 r180           turn a face-up card in place (the paths must change)
  move E4 r90              move a face-up card to the empty cell (costs an action token)
  swap B2 F6 r0 r270       exchange two face-up cards (costs an action token)
  declare S3-S17           score a line your action closed
  declare none             declare no (more) lines
  ... special=double       with your first action: take two actions this turn
  ... special=danger       with move or swap: move a card that carries DANGER
Orientations r0, r90, r180, r270 turn the printed card clockwise.
Other commands: help, board, quit."""

LEGEND = (
    "R/Y/G/B: paths by colour   - |: paths meet   +: crossing   * changed last turn\n"
    "^: HIGH VOLTAGE token   !: DANGER   /////: face down   blank: the empty cell"
)


def letter(colour: str) -> str:
    """The one-letter name of a company colour (red -> R): what the blocks are drawn with."""
    return colour[:1].upper()


def rotate_edge(edge: str, quarters: int) -> str:
    return EDGES[(EDGES.index(edge) + quarters) % 4]


def card_block(face: Mapping[str, Any] | None, energy: str = "none") -> list[str]:
    """The 3 lines of 5 characters showing one face-up card (None: a face-down card)."""
    if face is None:
        return list(FACE_DOWN)
    if not face.get("paths"):
        return list(DANGER_CARD)
    grid = [[" "] * CARD_WIDTH for _ in range(CARD_HEIGHT)]
    for path in face["paths"]:
        mark = letter(path["colour"])
        for row, col in PATH_CELLS[frozenset(path["edges"])]:
            grid[row][col] = "+" if grid[row][col] not in (" ", mark) else mark
    token = ENERGY_MARKS.get(energy, "")
    if token:
        grid[0][0] = grid[0][CARD_WIDTH - 1] = token
    return ["".join(row) for row in grid]


def _edges_with_paths(entry: Mapping[str, Any]) -> set[str]:
    if entry.get("state") != "up":
        return set()
    return {edge for path in entry.get("paths", ()) for edge in path["edges"]}


class _Canvas:
    """A rectangle of characters that text is written into at (line, column)."""

    def __init__(self, height: int, width: int) -> None:
        self.rows = [[" "] * width for _ in range(height)]

    def put(self, line: int, column: int, text: str) -> None:
        row = self.rows[line]
        for i, ch in enumerate(text):
            if 0 <= column + i < len(row):
                row[column + i] = ch

    def centre(self, line: int, middle: int, text: str) -> None:
        self.put(line, middle - (len(text) - 1) // 2, text)

    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.rows)


def _station_labels(view: Mapping[str, Any]) -> dict[tuple[str, str], str]:
    """(side, cell) -> label such as '31B' (number and the colour of its segment)."""
    return {
        (st["side"], st["cell"]): f"{st['station']}{letter(st['colour'])}"
        for st in view.get("stations", ())
    }


def _grid_layout(size: int) -> tuple[int, int, int, int]:
    """(first grid line, first grid column, grid height, grid width) of the board drawing."""
    top, left = 2, 8  # column letters and north stations above; row number and station left
    return top, left, size * (CARD_HEIGHT + 1) + 1, size * (CARD_WIDTH + 1) + 1


def cell_origin(view: Mapping[str, Any], cell: int) -> tuple[int, int]:
    """(line, column) of the top-left character of a cell's block in `board_lines(view)`."""
    size = view["grid_size"]
    top, left, _, _ = _grid_layout(size)
    row, col = divmod(cell, size)
    return top + 1 + row * (CARD_HEIGHT + 1), left + 1 + col * (CARD_WIDTH + 1)


def board_lines(view: Mapping[str, Any]) -> list[str]:
    """The grid with coordinates and the frame's stations, one string per line."""
    size = view["grid_size"]
    cells = view["cells"]
    names = [entry["cell"] for entry in cells]
    top, left, height, width = _grid_layout(size)
    canvas = _Canvas(top + height + 2, left + width + 9)
    labels = _station_labels(view)
    last = set(view.get("last", {}).get("cells", ()))
    bottom = top + height
    for col in range(size):
        middle = left + 1 + col * (CARD_WIDTH + 1) + CARD_WIDTH // 2
        canvas.centre(0, middle, chr(65 + col))
        canvas.centre(top - 1, middle, labels.get(("north", names[col]), ""))
        canvas.centre(bottom, middle, labels.get(("south", names[(size - 1) * size + col]), ""))
        canvas.centre(bottom + 1, middle, chr(65 + col))
    for row in range(size):
        line = top + 1 + row * (CARD_HEIGHT + 1) + CARD_HEIGHT // 2
        canvas.put(line, 0, f"{row + 1:>2}")
        canvas.put(line, 3, f"{labels.get(('west', names[row * size]), ''):>4}")
        canvas.put(line, left + width + 1, labels.get(("east", names[row * size + size - 1]), ""))
        canvas.put(line, left + width + 6, f"{row + 1:>2}")
    for row in range(size + 1):
        for col in range(size + 1):
            canvas.put(top + row * (CARD_HEIGHT + 1), left + col * (CARD_WIDTH + 1), GRID_DOT)
    for index, entry in enumerate(cells):
        line, column = cell_origin(view, index)
        if entry["state"] == "up":
            block = card_block(entry, entry.get("energy", "none"))
        elif entry["state"] == "down":
            block = card_block(None)
        else:
            block = [" " * CARD_WIDTH] * CARD_HEIGHT
        for offset, text in enumerate(block):
            canvas.put(line + offset, column, text)
        if entry["cell"] in last:
            canvas.put(line + CARD_HEIGHT - 1, column + CARD_WIDTH - 1, LAST_MARK)
    _draw_joints(canvas, view)
    return canvas.text().split("\n")


def _draw_joints(canvas: _Canvas, view: Mapping[str, Any]) -> None:
    """Mark every edge where a path meets a path of the next card or a station."""
    size = view["grid_size"]
    ends = [_edges_with_paths(entry) for entry in view["cells"]]
    for index in range(size * size):
        row, col = divmod(index, size)
        line, column = cell_origin(view, index)
        for edge, (step_row, step_col) in zip(
            EDGES, ((-1, 0), (0, 1), (1, 0), (0, -1)), strict=True
        ):
            if edge not in ends[index]:
                continue
            other_row, other_col = row + step_row, col + step_col
            inside = 0 <= other_row < size and 0 <= other_col < size
            opposite = EDGES[(EDGES.index(edge) + 2) % 4]
            if inside and opposite not in ends[other_row * size + other_col]:
                continue
            mid_row, mid_col = EDGE_MIDDLE[edge]
            joint = "|" if edge in "NS" else "-"
            canvas.put(line + mid_row + step_row, column + mid_col + step_col, joint)


def status_lines(view: Mapping[str, Any]) -> list[str]:
    """Whose turn, everyone's tokens, company scores, supplies and the viewer's own colour."""
    viewer = view.get("viewer")
    players = view["players"]
    over = view["phase"] == "over"
    out = []
    if over:
        out.append("The game is over.")
    else:
        who = view["current_seat"]
        you = " (you)" if who == viewer else ""
        step = {
            "action": "to act",
            "placing": "placing a drawn card",
            "declaring": "choosing lines to declare",
        }.get(view["phase"], view["phase"])
        double = ", double turn" if view.get("double_turn") else ""
        out.append(f"Turn {view['turn']}: seat {who}{you} {step}{double}.")
    if viewer is not None and not over:
        out.append(f"You are seat {viewer}; your company colour is {players[viewer]['colour']}.")
    out.append("Seat  action tokens  special  points  colour")
    for player in players:
        colour = player["colour"] or "secret"
        you = " (you)" if player["seat"] == viewer else ""
        out.append(
            f"{player['seat']:>4}  {player['action_tokens']:>13}  {player['special_tokens']:>7}"
            f"  {player['point_tokens']:>6}  {colour}{you}"
        )
    scores = ", ".join(f"{colour} {score}" for colour, score in view["company_scores"].items())
    out.append(f"Company scores: {scores}.")
    out.append(
        f"Left: {view['energy_supply']} energy tokens, {view['point_supply']} point tokens, "
        f"{view['face_down']} face-down cards. Empty cell: {view.get('empty_cell') or 'none'}."
    )
    last = last_turn_text(view)
    if last:
        out.append(last)
    return out


def last_turn_text(view: Mapping[str, Any]) -> str:
    """One line saying what the latest turn did and which lines it scored."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("actions"):
        return ""
    text = f"Last: seat {last['seat']} played {'; '.join(last['actions'])}"
    for record in last.get("lines", ()):
        text += f"; declared {record['line']} ({_points_text(record)})"
    return text + "."


def _points_text(record: Mapping[str, Any]) -> str:
    points = ", ".join(f"{c} +{v}" for c, v in record["points"].items() if v)
    tokens = record.get("point_tokens", 0)
    return f"{points}; {tokens} point token{'s' if tokens != 1 else ''}"


def text_board(view: Mapping[str, Any]) -> str:
    """The whole picture for a terminal: the board, a legend and the status block."""
    return "\n".join([*board_lines(view), LEGEND, "", *status_lines(view)])


def drawn_lines(view: Mapping[str, Any]) -> list[str]:
    """The card the viewer drew, in each orientation side by side (empty if they drew none)."""
    drawn = view.get("drawn")
    if not drawn or "paths" not in drawn:
        return []
    out = [f"You drew the card at {drawn['cell']} ({drawn['kind'].replace('_', ' ')}):"]
    blocks, titles = [], []
    for quarters in range(4):
        paths = [
            {"edges": [rotate_edge(e, quarters) for e in p["edges"]], "colour": p["colour"]}
            for p in drawn["paths"]
        ]
        blocks.append(card_block({"paths": paths}))
        titles.append(f"r{quarters * 90}".center(CARD_WIDTH))
    gap = "    "
    out.append(gap.join(titles))
    for line in range(CARD_HEIGHT):
        out.append(gap.join(block[line] for block in blocks))
    return out


def prompt_lines(view: Mapping[str, Any]) -> list[str]:
    """What the viewer has to do now, with the exact words to type."""
    if view["phase"] == "over" or view["current_seat"] != view.get("viewer"):
        return []
    if view["phase"] == "placing":
        cell = view["drawn"]["cell"]
        return [
            *drawn_lines(view),
            f"Place it: 'place here r90' puts it back on {cell}; "
            f"'place empty r0' moves it to {view.get('empty_cell')}.",
        ]
    if view["phase"] == "declaring":
        out = ["Your action closed these lines; declare them one by one, or 'declare none':"]
        out += [
            f"  declare {line['line']}: {line['length']} cards, {_points_text(line)}"
            for line in view["closable"]
        ]
        return out
    return ["Your move: draw, rotate, move or swap (type 'help' for the forms)."]
