"""The hexagonal table of Sector 6: axial coordinates inside, short labels for people.

Cells are flat-topped hexagons. Inside the engine a cell is a pair of axial coordinates
(q, r): q grows to the east, r to the south-south-west, and the six neighbours of (q, r) lie
at the six `DIRECTIONS`, one per side, numbered clockwise from the top (N, NE, SE, S, SW, NW).
Axial coordinates make a straight line a repeated step, which is all a prisoner's move is.

People read and type labels instead: a column letter and a row number, `C4`, as on a printed
hex map. Column A is the westernmost; rows count from 1 at the north; every second column
(B, D, F...) sits half a cell lower than its neighbours, so the label grid is a rectangle
while the cells stay hexagons. The picture prints the label on every tile, and `parse_cell`
reads it back in any letter case.

For speed the rules use a cell index (`column * rows + row`) and precomputed neighbour
tables; `axial` and `cell_of` convert. The grid's size comes from `games/sector6/setup.json`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

SIDES = ("N", "NE", "SE", "S", "SW", "NW")
SIDE_INDEX = {name: i for i, name in enumerate(SIDES)}
# Axial steps through each side, clockwise from the top of a flat-topped hexagon.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
ALL_SIDES = 0b111111
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_LABEL = re.compile(r"^([a-z])\s*(\d{1,2})$")


def opposite(side: int) -> int:
    """The side facing `side` on the neighbouring tile."""
    return (side + 3) % 6


def turn_mask(mask: int, steps: int) -> int:
    """A wall mask turned `steps` sixths clockwise: the wall on side i moves to side i + steps."""
    steps %= 6
    return ((mask << steps) | (mask >> (6 - steps))) & ALL_SIDES


def mask_of(sides: list[str] | tuple[str, ...]) -> int:
    """A wall mask from side names (raises KeyError on an unknown name)."""
    mask = 0
    for name in sides:
        mask |= 1 << SIDE_INDEX[name]
    return mask


def sides_of(mask: int) -> list[str]:
    """Side names of a mask, clockwise from N."""
    return list(_SIDES_OF[mask & 0b111111])


# The side names of every mask, made once: every view names the walls of every placed tile.
_SIDES_OF = tuple(tuple(SIDES[i] for i in range(6) if mask >> i & 1) for mask in range(64))


class Grid:
    """A `columns` x `rows` table of hexagonal cells with its look-up tables."""

    def __init__(self, columns: int, rows: int) -> None:
        if not 1 <= columns <= len(LETTERS) or not 1 <= rows <= 99:
            raise ValueError(f"a {columns} x {rows} table cannot be labelled A1..Z99")
        self.columns = columns
        self.rows = rows
        self.cells = columns * rows
        self.names: tuple[str, ...] = tuple(
            f"{LETTERS[c // rows]}{c % rows + 1}" for c in range(self.cells)
        )
        self.index = {name: c for c, name in enumerate(self.names)}
        self.q: tuple[int, ...] = tuple(c // rows for c in range(self.cells))
        self.r: tuple[int, ...] = tuple(
            (c % rows) - (c // rows - (c // rows & 1)) // 2 for c in range(self.cells)
        )
        by_axial = {(self.q[c], self.r[c]): c for c in range(self.cells)}
        self._by_axial = by_axial
        # neighbour[c][side] -> the cell beyond that side, or -1 off the table
        self.neighbour: tuple[tuple[int, ...], ...] = tuple(
            tuple(by_axial.get((self.q[c] + dq, self.r[c] + dr), -1) for dq, dr in DIRECTIONS)
            for c in range(self.cells)
        )
        centre_col, centre_row = (columns - 1) // 2, (rows - 1) // 2
        self.centre = centre_col * rows + centre_row

    def axial(self, cell: int) -> tuple[int, int]:
        return self.q[cell], self.r[cell]

    def cell_of(self, q: int, r: int) -> int:
        """The cell at axial (q, r), or -1 off the table."""
        return self._by_axial.get((q, r), -1)

    def parse(self, text: str) -> int | None:
        """The cell a label names (`c4`, `C4`, `C 4`), or None if it is not on this table."""
        match = _LABEL.match(text.strip().lower())
        if not match:
            return None
        return self.index.get(f"{match.group(1).upper()}{int(match.group(2))}")

    def line(self, a: int, b: int) -> tuple[int, int] | None:
        """(side, distance) when `b` lies straight out from `a` through one side, else None."""
        dq, dr = self.q[b] - self.q[a], self.r[b] - self.r[a]
        for side, (sq, sr) in enumerate(DIRECTIONS):
            for k in (abs(dq), abs(dr)):
                if k and sq * k == dq and sr * k == dr:
                    return side, k
        return None

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells on an unbounded hex grid."""
        dq, dr = self.q[b] - self.q[a], self.r[b] - self.r[a]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@cache
def grid(columns: int, rows: int) -> Grid:
    """The one grid of a size per process (its tables are immutable)."""
    return Grid(columns, rows)


def straight_moves(
    cell: int,
    walls: Sequence[int],
    piece_at: Sequence[int],
    prisoner: Sequence[int],
    neighbour: Sequence[Sequence[int]],
) -> list[int]:
    """Cells a prisoner on `cell` may move to: straight out through an open side, on through
    tiles open on both sides of each step, never past or onto a prisoner. One function for the
    rules and for the AI's lean copy of a position, so the two can never disagree."""
    out = []
    here = walls[cell]
    for side in range(6):
        if here >> side & 1:
            continue
        back = (side + 3) % 6
        n = neighbour[cell][side]
        while n >= 0 and piece_at[n] >= 0 and not walls[n] >> back & 1 and not prisoner[n]:
            out.append(n)
            if walls[n] >> side & 1:
                break
            n = neighbour[n][side]
    return out
