"""Connection distances for the Pylons players, computed on bitboards.

A player's connection distance is how many more pylons it needs to link its two borders: a
0-1 shortest path over knight steps where an own pylon costs nothing, a free cell it may use
costs one, and a step is possible only if no link on the board crosses it (such a link can
never be built). The players compute it thousands of times a move, so it is done on whole
sets of cells at once: the board's cells are the bits of one Python integer (bit `c` is cell
`c`), and one knight step from a set of cells is eight masked shifts, one per direction. A
search then costs a few dozen big-integer operations per distance layer instead of a loop
over every cell and its eight neighbours, which is what lets the players search wider and
deeper in the same time.

`Board` keeps, besides the owners and the crossing counts of every link (as the rules do),
for each of the eight directions the set of cells from which a step that way is still open;
a step closes when the first link crossing it is built, and opens again when a search takes
that link back (`undo`).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.pylons.rules.board import (
    CELLS,
    COL,
    CROSSES,
    KNIGHT,
    LAST,
    LINK_A,
    LINK_B,
    LINKS,
    NEIGHBOURS,
    ROW,
    SIZE,
    USABLE,
)
from games.pylons.rules.state import PylonsState

FAR = 1000  # the distance of a player who can no longer connect
ALL = (1 << CELLS) - 1


def _bits(cells: Iterable[int]) -> int:
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def _directions() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For each knight direction: its shift, and for each link the direction it takes from
    its northern and from its southern end."""
    shifts = tuple(dj * SIZE + di for di, dj in KNIGHT)
    index = {d: k for k, d in enumerate(KNIGHT)}
    from_a, from_b = [], []
    for link in range(LINKS):
        a, b = LINK_A[link], LINK_B[link]
        di, dj = COL[b] - COL[a], ROW[b] - ROW[a]
        from_a.append(index[(di, dj)])
        from_b.append(index[(-di, -dj)])
    return shifts, tuple(from_a), tuple(from_b)


SHIFTS, FROM_A, FROM_B = _directions()
assert SHIFTS == (49, 47, 26, 22, -47, -49, -22, -26)  # as `Board._spread` spells them out
# The cells from which a step in each direction is a link of the board at all.
STEPS = tuple(
    _bits(
        c
        for link in range(LINKS)
        for c, way in ((LINK_A[link], FROM_A[link]), (LINK_B[link], FROM_B[link]))
        if way == d
    )
    for d in range(len(KNIGHT))
)
# Border cells each seat starts from and ends at (corners are never usable).
STARTS = (
    _bits(c for c in range(CELLS) if COL[c] == 0 and USABLE[0][c]),
    _bits(c for c in range(CELLS) if ROW[c] == 0 and USABLE[1][c]),
)
ENDS = (
    _bits(c for c in range(CELLS) if COL[c] == LAST and USABLE[0][c]),
    _bits(c for c in range(CELLS) if ROW[c] == LAST and USABLE[1][c]),
)


def cells_of(bits: int) -> list[int]:
    """The cells in a set, in cell order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class Board:
    """The part of a position the players reason about, with cheap place and undo.

    `crossed[link]` counts the links on the board that cross `link`; a link with a non-zero
    count can never be built, which is all the search needs to know about links. `steps[d]`
    is the set of cells from which a knight step in direction d is still possible."""

    __slots__ = ("crossed", "mine", "open", "open_bits", "owner", "steps")

    def __init__(self, state: PylonsState) -> None:
        self.owner = bytearray(state.owner)
        self.crossed = list(state.crossed)
        self.open = (state.open[0], state.open[1])
        self.open_bits = tuple(_bits(c for c in range(CELLS) if flags[c]) for flags in self.open)
        self.mine = [_bits(c for c in range(CELLS) if self.owner[c] == seat + 1) for seat in (0, 1)]
        steps = list(STEPS)
        for link in range(LINKS):
            if self.crossed[link]:
                steps[FROM_A[link]] &= ~(1 << LINK_A[link])
                steps[FROM_B[link]] &= ~(1 << LINK_B[link])
        self.steps = steps

    def legal(self, seat: int, c: int) -> bool:
        return bool(self.open[seat][c]) and not self.owner[c]

    def place(self, c: int, seat: int) -> list[int]:
        """Build for `seat` on `c` and make its links; returns them, for `undo`."""
        own = seat + 1
        owner, crossed, steps = self.owner, self.crossed, self.steps
        owner[c] = own
        self.mine[seat] |= 1 << c
        made = []
        for n, link in NEIGHBOURS[c]:
            if owner[n] == own and not crossed[link]:
                made.append(link)
                for other in CROSSES[link]:
                    if not crossed[other]:
                        steps[FROM_A[other]] &= ~(1 << LINK_A[other])
                        steps[FROM_B[other]] &= ~(1 << LINK_B[other])
                    crossed[other] += 1
        return made

    def undo(self, c: int, made: list[int]) -> None:
        crossed, steps = self.crossed, self.steps
        for link in made:
            for other in CROSSES[link]:
                crossed[other] -= 1
                if not crossed[other]:
                    steps[FROM_A[other]] |= 1 << LINK_A[other]
                    steps[FROM_B[other]] |= 1 << LINK_B[other]
        seat = self.owner[c] - 1
        self.mine[seat] &= ~(1 << c)
        self.owner[c] = 0

    def _spread(self, cells: int) -> int:
        """Every cell one open knight step away from a cell of `cells`."""
        s = self.steps
        c = cells
        return (
            ((c & s[0]) << 49)
            | ((c & s[1]) << 47)
            | ((c & s[2]) << 26)
            | ((c & s[3]) << 22)
            | ((c & s[4]) >> 47)
            | ((c & s[5]) >> 49)
            | ((c & s[6]) >> 22)
            | ((c & s[7]) >> 26)
        ) & ALL

    def layers(self, seat: int, backwards: bool = False, stop: bool = False) -> list[int]:
        """The cells at each distance from one of `seat`'s borders, its own cost included:
        `layers[k]` holds the cells reached for exactly k pylons. With `stop`, the layers
        end with the first that reaches the other border (for `distance`)."""
        own = self.mine[seat]
        allowed = self.open_bits[seat] & ~self.mine[1 - seat]
        free = allowed & ~own
        border = (ENDS if backwards else STARTS)[seat] & allowed
        goal = (STARTS if backwards else ENDS)[seat]
        spread = self._spread
        seen = 0
        out = []
        fresh = border & own
        pending = border & free
        while True:
            # own pylons reached from the layer cost nothing more
            layer, edge = fresh, fresh
            seen |= fresh
            while edge:
                edge = spread(edge) & own & ~seen
                seen |= edge
                layer |= edge
            out.append(layer)
            if stop and layer & goal:
                return out
            fresh = (spread(layer) & free | pending) & ~seen
            pending = 0
            if not fresh:
                return out

    def distance(self, seat: int) -> int:
        """Pylons `seat` still needs to link both borders (0: linked; FAR: impossible)."""
        found = self.layers(seat, stop=True)
        goal = ENDS[seat]
        return len(found) - 1 if found[-1] & goal else FAR

    def on_shortest_bits(self, seat: int) -> tuple[int, int]:
        """(distance, set of the empty cells on some shortest connection of `seat`)."""
        ahead = self.layers(seat)
        goal = ENDS[seat]
        best = next((k for k, layer in enumerate(ahead) if layer & goal), FAR)
        if best >= FAR:
            return FAR, 0
        behind = self.layers(seat, backwards=True)
        empty = self.open_bits[seat] & ~self.mine[0] & ~self.mine[1]
        cells = 0
        for k in range(1, best + 1):
            back = best + 1 - k
            if back < len(behind):
                cells |= ahead[k] & behind[back]
        return best, cells & empty

    def on_shortest(self, seat: int) -> tuple[int, set[int]]:
        """(distance, empty cells on some shortest connection of `seat`)."""
        best, cells = self.on_shortest_bits(seat)
        return best, set(cells_of(cells))


__all__ = ["FAR", "Board", "cells_of"]
