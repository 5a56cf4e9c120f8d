"""The fixed geometry of the Pylons board, computed once per process as flat index tables.

Every rule check in a move is a lookup here rather than geometry: which cells a seat may use,
the knight-move neighbours of a cell together with the link joining them, and for every
possible link the links that would cross it. A game then keeps only small flat lists of ints
(owners, link flags, crossing counts), which makes a move cheap and a copy cheaper.

Cells are numbered row by row: cell `c = j * SIZE + i`, with i the column (A..X, west to
east) and j the row (1..24, north to south). A link is one of the knight-move segments between
two cell centres; it is numbered once, from its northern end, so each link has one id.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

SIZE = 24
CELLS = SIZE * SIZE
LAST = SIZE - 1
MAX_PYLONS = 200  # on the board in all, 100 per player
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"
assert len(COLUMNS) == SIZE

SEAT_COLOURS = ("blue", "red")
# Seat 0 links the west and east borders (columns A and X), seat 1 the north and south ones.
SEAT_DIRECTIONS = ("horizontal", "vertical")

# Swamp patches: one 3x3, two 2x2, one 1x1, inside the board and clear of its border lines
# and of the cells next to them (see `deal_swamps`).
SWAMP_SIZES = (3, 2, 2, 1)
SWAMP_MIN = 2  # first row/column a swamp cell may occupy
SWAMP_MAX = LAST - 2  # last one

Patch = tuple[int, int, int]  # (i, j, size) of a square swamp patch, i and j its north-west cell

# The four knight offsets that go south (dj > 0): every link is numbered from its northern end.
FORWARD = ((1, 2), (-1, 2), (2, 1), (-2, 1))
KNIGHT = ((1, 2), (-1, 2), (2, 1), (-2, 1), (1, -2), (-1, -2), (2, -1), (-2, -1))


def cell_of(i: int, j: int) -> int:
    return j * SIZE + i


COL = tuple(c % SIZE for c in range(CELLS))  # i of every cell
ROW = tuple(c // SIZE for c in range(CELLS))  # j of every cell
NAMES = tuple(f"{COLUMNS[c % SIZE]}{c // SIZE + 1}" for c in range(CELLS))
CELL_INDEX = {name: c for c, name in enumerate(NAMES)}
CORNERS = frozenset(cell_of(i, j) for i in (0, LAST) for j in (0, LAST))


def border_owner(c: int) -> int | None:
    """The seat whose border line holds cell `c` (None: an inner cell or a corner)."""
    if c in CORNERS:
        return None
    if COL[c] in (0, LAST):
        return 0
    if ROW[c] in (0, LAST):
        return 1
    return None


def _usable(seat: int) -> bytes:
    """1 for every cell `seat` may ever build on, ignoring swamps: no corner, no border line
    reserved for the other seat."""
    out = bytearray(CELLS)
    for c in range(CELLS):
        owner = border_owner(c)
        out[c] = int(c not in CORNERS and (owner is None or owner == seat))
    return bytes(out)


USABLE = (_usable(0), _usable(1))


# ---------------------------------------------------------------------- links


def _orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (value > 0) - (value < 0)


def segments_cross(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int], d: tuple[int, int]
) -> bool:
    """True when segment ab and segment cd cross at a point inside both.

    Knight segments hold no lattice point but their ends, and two of them on one line meet
    only at an end, so sharing a pylon (an orientation of zero) is never a crossing."""
    o1 = _orient(*a, *b, *c)
    o2 = _orient(*a, *b, *d)
    o3 = _orient(*c, *d, *a)
    o4 = _orient(*c, *d, *b)
    return o1 * o2 < 0 and o3 * o4 < 0


def _crossing_pattern() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each forward offset, the (di, dj, offset) of every link that crosses a link of that
    offset starting at (0, 0): the same few dozen tests serve every cell of the board."""
    pattern = []
    for dx, dy in FORWARD:
        found = []
        for sj in range(-3, 4):
            for si in range(-3, 4):
                for k, (ex, ey) in enumerate(FORWARD):
                    if segments_cross((0, 0), (dx, dy), (si, sj), (si + ex, sj + ey)):
                        found.append((si, sj, k))
        pattern.append(tuple(found))
    return tuple(pattern)


CROSSING_PATTERN = _crossing_pattern()


def _links() -> tuple[list[int], list[int], dict[tuple[int, int], int]]:
    """Every link between two non-corner cells: its ends, and its id by (cell, forward offset)."""
    ends_a: list[int] = []
    ends_b: list[int] = []
    by_start: dict[tuple[int, int], int] = {}
    for c in range(CELLS):
        if c in CORNERS:
            continue
        i, j = COL[c], ROW[c]
        for k, (dx, dy) in enumerate(FORWARD):
            ti, tj = i + dx, j + dy
            if 0 <= ti < SIZE and 0 <= tj < SIZE and cell_of(ti, tj) not in CORNERS:
                by_start[(c, k)] = len(ends_a)
                ends_a.append(c)
                ends_b.append(cell_of(ti, tj))
    return ends_a, ends_b, by_start


_A, _B, _BY_START = _links()
LINK_A: tuple[int, ...] = tuple(_A)  # northern end of each link
LINK_B: tuple[int, ...] = tuple(_B)  # southern end
LINKS = len(LINK_A)


def _crossings() -> tuple[tuple[int, ...], ...]:
    out = []
    for link in range(LINKS):
        a, b = LINK_A[link], LINK_B[link]
        k = FORWARD.index((COL[b] - COL[a], ROW[b] - ROW[a]))
        crossed = []
        for si, sj, k2 in CROSSING_PATTERN[k]:
            ti, tj = COL[a] + si, ROW[a] + sj
            if 0 <= ti < SIZE and 0 <= tj < SIZE:
                other = _BY_START.get((cell_of(ti, tj), k2))
                if other is not None:
                    crossed.append(other)
        out.append(tuple(sorted(crossed)))
    return tuple(out)


CROSSES: tuple[tuple[int, ...], ...] = _crossings()
"""For every link id, the ids of the links that cross it (at most 9 on an open board)."""


def _neighbours() -> tuple[tuple[tuple[int, int], ...], ...]:
    link_of: dict[tuple[int, int], int] = {}
    for link in range(LINKS):
        link_of[(LINK_A[link], LINK_B[link])] = link
        link_of[(LINK_B[link], LINK_A[link])] = link
    out = []
    for c in range(CELLS):
        found = []
        for dx, dy in KNIGHT:
            ti, tj = COL[c] + dx, ROW[c] + dy
            if 0 <= ti < SIZE and 0 <= tj < SIZE:
                n = cell_of(ti, tj)
                if (c, n) in link_of:
                    found.append((n, link_of[(c, n)]))
        out.append(tuple(sorted(found)))
    return tuple(out)


NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = _neighbours()
"""For every cell, (neighbour cell, link id) of each knight-move neighbour, by neighbour
index: the fixed order in which a new pylon's links are tried."""

LINK_INDEX: dict[tuple[int, int], int] = {}
for _link in range(LINKS):
    LINK_INDEX[(LINK_A[_link], LINK_B[_link])] = _link
    LINK_INDEX[(LINK_B[_link], LINK_A[_link])] = _link


def link_between(a: int, b: int) -> int | None:
    """The id of the link joining cells a and b, or None when they are not a knight apart."""
    return LINK_INDEX.get((a, b))


# ---------------------------------------------------------------------- swamps


def deal_swamps(rng: random.Random) -> tuple[Patch, ...]:
    """One 3x3, two 2x2 and one 1x1 swamp at random; they may overlap.

    The rules only say swamps lie inside the board. Keeping every swamp cell off the border
    lines and off the cells next to them (rows and columns 3..22) satisfies both readings of
    "never touching the border", and never walls off a border cell."""
    return tuple(
        (rng.randint(SWAMP_MIN, SWAMP_MAX - s + 1), rng.randint(SWAMP_MIN, SWAMP_MAX - s + 1), s)
        for s in SWAMP_SIZES
    )


def mirror_patches(patches: Iterable[Patch]) -> tuple[Patch, ...]:
    """The patches reflected in the north-west/south-east diagonal: (i, j) becomes (j, i).

    A square patch stays square and its north-west cell maps to the mirrored north-west cell."""
    return tuple((j, i, s) for i, j, s in patches)


def swamp_cells(patches: Sequence[Patch]) -> list[int]:
    """The cells the patches cover, sorted, each once (patches may overlap)."""
    cells = {cell_of(i + di, j + dj) for i, j, s in patches for di in range(s) for dj in range(s)}
    return sorted(cells)


def check_patches(patches: Sequence[Patch]) -> None:
    """Raise ValueError unless `patches` are the swamp sizes, each inside the allowed area."""
    if tuple(sorted((s for _, _, s in patches), reverse=True)) != SWAMP_SIZES:
        raise ValueError(f"swamps must be patches of sizes {SWAMP_SIZES}")
    for i, j, s in patches:
        inside = min(i, j) >= SWAMP_MIN and max(i, j) + s - 1 <= SWAMP_MAX
        if not inside:
            raise ValueError(
                f"a swamp of size {s} at {NAMES[cell_of(i, j)]} leaves the allowed area"
            )


def parse_cell(word: str) -> int | None:
    """The cell named `word` (any case: `k12`, `K12`), or None if it is no cell of the board."""
    return CELL_INDEX.get(word.strip().upper())
