"""Following paths across cards: finding lines, checking them, and deciding whether any valid
line can still ever be formed.

Kept apart from the state so the hot loops read like the rules: a line starts at a station,
enters the card facing it, follows the one path at each entry edge to the next card, and ends
at another station (or dead-ends at a face-down card, the empty cell, or an edge with no path).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.high_voltage.rules.board import Geometry

NO_TOKEN, HIGH_VOLTAGE, DANGER = 0, 1, 2
# A walk can use each of the 2 * 48 path ends at most once; more steps means a closed loop.
_MAX_STEPS = 200
# The "can a line still be formed" search is exact but exponential in the worst case; past
# this many steps it answers "maybe", which keeps the end-of-game test sound (never too early).
SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class Line:
    """A station-to-station chain of paths, ordered from the lower-numbered station."""

    first: int
    second: int
    cells: tuple[int, ...]  # cells in order from `first`
    colours: tuple[int, ...]  # colour index of the path used on each card
    entries: tuple[int, ...]  # edge through which the line enters each card

    @property
    def name(self) -> str:
        return f"S{self.first}-S{self.second}"

    def __len__(self) -> int:
        return len(self.cells)


class Board:
    """Read-only access to the parts of a state the path-following needs."""

    __slots__ = ("card_up", "danger_card", "energy", "exits", "geo", "grid", "path_colour", "rot")

    def __init__(
        self,
        geo: Geometry,
        grid: list[int],
        card_up: list[bool],
        rot: list[int],
        energy: list[int],
        exits: Sequence[tuple[tuple[int, ...], ...]],
        path_colour: Sequence[tuple[tuple[int, ...], ...]],
        danger_card: list[bool],
    ) -> None:
        self.geo = geo
        self.grid = grid
        self.card_up = card_up
        self.rot = rot
        self.energy = energy
        # exits[card][rot][entry_edge] and path_colour[card][rot][edge]: CardSet's tables
        self.exits = exits
        self.path_colour = path_colour
        self.danger_card = danger_card

    def walk(self, cell: int, edge: int) -> tuple[list[int], list[int], list[int], int]:
        """Follow the path that enters `cell` through `edge` to its end.

        Returns the cells passed, the colour on each, the entry edge of each, and the station
        reached (-1 for a dead end or a closed loop).
        """
        grid, up, rot, exits, colour = (
            self.grid,
            self.card_up,
            self.rot,
            self.exits,
            self.path_colour,
        )
        neighbour, station_at = self.geo.neighbour, self.geo.station_at
        cells: list[int] = []
        colours: list[int] = []
        entries: list[int] = []
        for _ in range(_MAX_STEPS):
            card = grid[cell]
            if card < 0 or not up[card]:
                return cells, colours, entries, -1
            r = rot[card]
            out = exits[card][r][edge]
            if out < 0:
                return cells, colours, entries, -1
            cells.append(cell)
            colours.append(colour[card][r][edge])
            entries.append(edge)
            nxt = neighbour[cell][out]
            if nxt < 0:
                return cells, colours, entries, station_at[cell][out]
            cell, edge = nxt, out ^ 2
        return cells, colours, entries, -1

    def line_from(self, station: int) -> Line | None:
        """The line that starts at `station`, or None if its path does not reach another one."""
        st = self.geo.stations[station]
        cells, colours, entries, end = self.walk(st.cell, st.side)
        if end < 0:
            return None
        if station < end:
            return Line(station, end, tuple(cells), tuple(colours), tuple(entries))
        # Re-walk from the other end so every line has one canonical order.
        other = self.geo.stations[end]
        cells, colours, entries, _ = self.walk(other.cell, other.side)
        return Line(end, station, tuple(cells), tuple(colours), tuple(entries))

    def station_beyond(self, cell: int, out_edge: int) -> int:
        """The station reached by leaving `cell` through `out_edge` (-1 if none)."""
        nxt = self.geo.neighbour[cell][out_edge]
        if nxt < 0:
            return self.geo.station_at[cell][out_edge]
        return self.walk(nxt, out_edge ^ 2)[3]

    def lines_through(self, cells: list[int]) -> list[Line]:
        """Every station-to-station line that uses a path of a card on one of `cells`."""
        found: dict[tuple[int, int], Line] = {}
        for cell in cells:
            card = self.grid[cell]
            if card < 0 or not self.card_up[card]:
                continue
            ex = self.exits[card][self.rot[card]]
            for edge in range(4):
                if ex[edge] < edge:  # each path once, from its lower edge
                    continue
                start = self.station_beyond(cell, edge)
                if start < 0 or self.station_beyond(cell, ex[edge]) < 0:
                    continue
                line = self.line_from(start)
                if line is not None:
                    found.setdefault((line.first, line.second), line)
        return [found[key] for key in sorted(found)]

    def problem(self, line: Line, min_cards: int, max_high_voltage: int) -> str | None:
        """Why `line` cannot be closed, in a player's words, or None if it is valid."""
        if len(set(line.cells)) != len(line.cells):
            return "it passes the same card twice"
        if len(line.cells) < min_cards:
            return f"it is only {len(line.cells)} cards long (at least {min_cards} needed)"
        stations = self.geo.stations
        if stations[line.first].side == stations[line.second].side:
            return "both stations are on the same side of the square"
        high_voltage = 0
        for cell in line.cells:
            card = self.grid[cell]
            if self.energy[card] == DANGER or self.danger_card[card]:
                return f"{self.geo.names[cell]} carries a DANGER token"
            high_voltage += self.energy[card] == HIGH_VOLTAGE
        if high_voltage > max_high_voltage:
            return (
                f"{high_voltage} of its cards carry HIGH VOLTAGE tokens "
                f"(at most {max_high_voltage})"
            )
        return None

    def rotation_line_possible(
        self, can_straight: list[bool], can_turn: list[bool], min_cards: int, max_hv: int
    ) -> bool:
        """Could turning face-up cards in place (and nothing else) ever form a valid line?

        A line uses one path of each card it crosses and crosses each card once, so every
        card's orientation can be chosen on its own: a card can carry the line straight on if
        it has a straight path, or round a corner if it has a curved one. The question is then
        whether a self-avoiding walk exists from one side to another through enough usable
        cards; a depth-first search answers it, and answers True when out of budget.
        """
        geo = self.geo
        usable = [False] * geo.cells
        hv = [0] * geo.cells
        for cell in range(geo.cells):
            card = self.grid[cell]
            if (
                card >= 0
                and self.card_up[card]
                and not self.danger_card[card]
                and self.energy[card] != DANGER
            ):
                usable[cell] = True
                hv[cell] = int(self.energy[card] == HIGH_VOLTAGE)
        budget = [SEARCH_BUDGET]
        visited = [False] * geo.cells
        neighbour = geo.neighbour
        station_side = {(s.cell, s.side): s.side for s in geo.stations.values()}

        def search(cell: int, heading: int, length: int, hv_used: int, start_side: int) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return True
            card = self.grid[cell]
            visited[cell] = True
            try:
                headings = []
                if can_straight[card]:
                    headings.append(heading)
                if can_turn[card]:
                    headings += [(heading + 1) & 3, (heading + 3) & 3]
                for out in headings:
                    nxt = neighbour[cell][out]
                    if nxt < 0:
                        side = station_side.get((cell, out))
                        if side is not None and side != start_side and length >= min_cards:
                            return True
                        continue
                    if not usable[nxt] or visited[nxt]:
                        continue
                    used = hv_used + hv[nxt]
                    if used <= max_hv and search(nxt, out, length + 1, used, start_side):
                        return True
                return False
            finally:
                visited[cell] = False

        for station in geo.stations.values():
            cell = station.cell
            if (
                usable[cell]
                and hv[cell] <= max_hv
                and search(cell, station.side ^ 2, 1, hv[cell], station.side)
            ):
                return True
        return False
