"""Board geometry: cells, edges, the frame of numbered score cards and which are stations.

Cells are indexed row-major (`A1` = 0, `B1` = 1, ...). Edges are 0..3 = N, E, S, W, so a
quarter turn clockwise adds 1 and the opposite edge is `edge ^ 2`. The frame is numbered
clockwise from the north-west corner; every non-corner number is a power station facing one
border edge of one cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.errors import ActionSyntaxError

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("north", "east", "south", "west")
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, column) step through each edge


@dataclass(frozen=True)
class Station:
    number: int
    side: int  # the side of the square the station lies on (N, E, S or W)
    cell: int  # the cell it faces
    colour: int  # colour index of its segment


class Geometry:
    """Everything about positions on an n x n grid with its frame, computed once per size."""

    def __init__(self, size: int, colour_cycle: tuple[int, ...]) -> None:
        self.size = size
        self.cells = size * size
        self.names = tuple(f"{chr(65 + c)}{r + 1}" for r in range(size) for c in range(size))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.frame = 4 * (size + 1)  # score cards, corners included
        # neighbour[cell][edge] -> cell, or -1 past the border
        self.neighbour: list[tuple[int, ...]] = []
        # station_at[cell][edge] -> station number, or -1 if the edge faces another cell
        self.station_at: list[list[int]] = [[-1] * 4 for _ in range(self.cells)]
        for cell in range(self.cells):
            r, c = divmod(cell, size)
            row = []
            for dr, dc in DELTAS:
                rr, cc = r + dr, c + dc
                row.append(rr * size + cc if 0 <= rr < size and 0 <= cc < size else -1)
            self.neighbour.append(tuple(row))
        self.stations: dict[int, Station] = {}
        order = 0
        for number in range(self.frame):
            placed = self._station_place(number)
            if placed is None:
                continue
            side, cell = placed
            colour = colour_cycle[order % len(colour_cycle)]
            self.stations[number] = Station(number, side, cell, colour)
            self.station_at[cell][side] = number
            order += 1

    def _station_place(self, number: int) -> tuple[int, int] | None:
        """(side, cell) of a frame number, or None for a corner."""
        n = self.size
        side, offset = divmod(number, n + 1)
        if offset == 0:
            return None
        k = offset - 1  # 0..n-1 clockwise along that side
        if side == N:
            return N, k
        if side == E:
            return E, k * n + (n - 1)
        if side == S:
            return S, (n - 1) * n + (n - 1 - k)
        return W, (n - 1 - k) * n

    def cell(self, name: str) -> int:
        """Index of a cell name such as 'C3' (any case); raises a player-readable error."""
        found = self.index.get(name.strip().upper())
        if found is None:
            last = self.names[-1]
            raise ActionSyntaxError(
                f"{name!r} is not a cell: cells run from A1 to {last}.",
                key="engine.high_voltage.not_a_cell",
                name=name,
                last=last,
            )
        return found

    def station(self, number: int) -> Station:
        found = self.stations.get(number)
        if found is None:
            corners = ", ".join(str(k * (self.size + 1)) for k in range(4))
            raise ActionSyntaxError(
                f"S{number} is not a power station: stations are the numbered frame cards "
                f"except the corners ({corners}).",
                key="engine.high_voltage.not_a_station",
                number=number,
                corners=corners,
            )
        return found


@cache
def geometry(size: int, colour_cycle: tuple[int, ...]) -> Geometry:
    return Geometry(size, colour_cycle)
