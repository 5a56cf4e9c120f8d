"""A Sector 6 position: what lies on the table, every counter, and what the rules ask of them.

`Sector6State` (`state`) is the game; this is the data it moves through, kept in
flat lists indexed by cell or piece so that the computer players can copy it thousands of
times a move. The questions both phases ask of it (where may the next piece go, where may a
prisoner move, how many markers are still free) are answered here, once; how each action
changes it lives in `construction` and `competition`, and the
words of a refusal in `refusals`, all of which take a position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine.core import State
from games.sector6.rules.board import opposite, straight_moves, turn_mask
from games.sector6.rules.dealing import check_supplies
from games.sector6.rules.rules_data import Rules
from games.sector6.rules.steps import (
    BUILD,
    DRAW_STEP,
    EMPTY,
    FULL,
    MODES,
    NOVICE,
    copy_last,
    fresh_last,
)


class Sector6Position(State):
    """The state of a Sector 6 game without the game's interface (`Sector6State` adds it)."""

    def __init__(
        self,
        rules: Rules,
        seats: int,
        seed: int,
        mode: str,
        supplies: Sequence[Sequence[int]],
        first_seat: int,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if not rules.min_players <= seats <= rules.max_players:
            raise ValueError(
                f"Sector 6 is for {rules.min_players}-{rules.max_players} players, not {seats}."
            )
        if not 0 <= first_seat < seats:
            raise ValueError(f"first seat {first_seat} is not one of the {seats} seats")
        check_supplies(rules, seats, supplies)
        super().__init__(seats, seed, {"mode": mode})
        self.rules = rules
        self.table = rules.grid
        self.mode = mode
        self.gears = mode == FULL
        self.rotations = mode != NOVICE
        self.galleries = mode != FULL
        self.first_seat = first_seat
        self.supplies: list[list[int]] = [list(s) for s in supplies]
        cells, pieces = self.table.cells, len(rules.tiles)
        self.piece_at = [EMPTY] * cells
        self.walls = [0] * cells  # closed sides of the piece on a cell, as turned now
        self.where = [EMPTY] * pieces  # cell of each piece
        self.rot = [0] * pieces
        self.placer = [EMPTY] * pieces
        self.order: list[int] = []  # pieces in the order they were placed
        self.drawn_count = [0] * seats
        self.entries_placed = [0] * seats
        self.drawn = EMPTY
        self.marker = [0] * cells
        self.maze_cells: list[int] = []  # cells of maze tiles (where markers lie)
        self.prisoner = [0] * cells  # seat + 1 of the prisoner on a cell, 0 none
        self.prisoners: list[list[int]] = [[] for _ in range(seats)]
        top = max(rules.values)
        self.collected = [[0] * (top + 1) for _ in range(seats)]
        self.taken: list[list[int]] = [[] for _ in range(seats)]  # markers taken at the end
        self.phase = BUILD
        self.step = DRAW_STEP
        self.seat = first_seat
        self.pending = EMPTY  # the tile just left, during ACT_STEP
        self.rotations_left = 0
        self.turns_played = 0
        self.play_turns = 0
        self.max_turns = rules.max_rounds * seats
        self.quiet_since = 0  # `play_turns` when the stretch without a collection began
        # Actions of the history played before the end rules of `ending`
        # existed (games saved by version 1 only): they replay under the old ending.
        self.ending_from = 0
        self.last: dict[str, Any] = fresh_last(None)
        # The last turn's rotations as (cell, clockwise, cells turned by gears), in order, for
        # the picture's arrows; rebuilt by replaying, so saves do not carry it.
        self.last_turns: list[tuple[int, bool, tuple[int, ...]]] = []
        self._fresh = True

    # ------------------------------------------------------------------ counts

    def name(self, cell: int) -> str:
        return self.table.names[cell]

    def supply_left(self, seat: int) -> int:
        return len(self.supplies[seat]) - self.drawn_count[seat]

    def entries_left(self, seat: int) -> int:
        return self.rules.entries_per_player - self.entries_placed[seat]

    def _has_pieces(self, seat: int) -> bool:
        return self.supply_left(seat) > 0 or self.entries_left(seat) > 0

    def scores(self) -> list[int]:
        """Collected oxygen per seat (public at any time; final at the end)."""
        return [sum(v * n for v, n in enumerate(c)) for c in self.collected]

    def _counts(self, seat: int) -> dict[str, int]:
        return {str(v): self.collected[seat][v] for v in self.rules.values}

    def _record(self, text: str, **marks: Any) -> None:
        """Log an action; the first action of a turn starts a new `last` record."""
        if self._fresh:
            self.last = fresh_last(self.seat)
            self.last_turns = []
            self._fresh = False
        self.last["actions"].append(text)
        for key, value in marks.items():
            if isinstance(self.last.get(key), list):
                self.last[key].extend(value)
            else:
                self.last[key] = value
        self._history.append(text)

    # ------------------------------------------------------------------ construction

    def _touching(self, cell: int) -> int:
        piece_at = self.piece_at
        return sum(1 for n in self.table.neighbour[cell] if n >= 0 and piece_at[n] >= 0)

    def _joins(self, cell: int, mask: int) -> bool:
        """True if an open side of `mask` on `cell` meets an open side of a neighbour."""
        walls, piece_at = self.walls, self.piece_at
        for side, n in enumerate(self.table.neighbour[cell]):
            if (
                n >= 0
                and piece_at[n] >= 0
                and not mask >> side & 1
                and not walls[n] >> opposite(side) & 1
            ):
                return True
        return False

    def frontier(self) -> list[int]:
        """Empty cells next to the maze, in cell order."""
        piece_at, out = self.piece_at, set()
        for piece in self.order:
            for n in self.table.neighbour[self.where[piece]]:
                if n >= 0 and piece_at[n] < 0:
                    out.add(n)
        return sorted(out)

    def _opens_onto(self, cell: int) -> bool:
        """True if a placed neighbour has an open side facing `cell`: every piece has an open
        side and may be turned (an entry point is open all round), so any piece can join it
        there by the galleries rule."""
        walls, piece_at = self.walls, self.piece_at
        for side, n in enumerate(self.table.neighbour[cell]):
            if n >= 0 and piece_at[n] >= 0 and not walls[n] >> opposite(side) & 1:
                return True
        return False

    def _build_cells(self) -> tuple[list[int], bool]:
        """(the cells where the next piece may go, whether it must open onto a neighbour
        there), with the fallbacks of the rules (`state`). The same for every
        piece, since each one can be turned to open onto any open side: only the rotations
        differ."""
        if not self.order:
            return list(range(self.table.cells)), False
        need = 1 if len(self.order) == 1 else 2
        frontier = self.frontier()
        touching = [c for c in frontier if self._touching(c) >= need]
        if self.galleries:
            # Galleries first, touching two; then galleries touching one (every frontier cell
            # touches one); waiving galleries would wall tiles off for good in novice mode.
            for cells in (touching, frontier) if need == 2 else (touching,):
                joined = [c for c in cells if self._opens_onto(c)]
                if joined:
                    return joined, True
        return touching or frontier, False

    def build_cells(self) -> list[int]:
        """The cells where the next piece may go, whichever piece it is (public: it follows
        from the maze alone); empty once the maze is complete."""
        return self._build_cells()[0] if self.phase == BUILD else []

    def placements(self, piece: int) -> list[tuple[int, int]]:
        """Every (cell, rotation) where `piece` may go now, with the fallbacks of the rules
        (`state`); an entry point has one rotation only (it looks the same
        every way)."""
        base = self.rules.tiles[piece].walls
        rotations = _rotations(base)
        cells, galleries = self._build_cells()
        if galleries:
            return [(c, r) for c in cells for r in rotations if self._joins(c, turn_mask(base, r))]
        return [(c, r) for c in cells for r in rotations]

    def can_place(self, piece: int, cell: int, rotation: int) -> bool:
        """Whether (cell, rotation) is one of `placements(piece)`: what every placement
        checks, a game's replay included, without listing every cell and rotation."""
        base = self.rules.tiles[piece].walls
        if rotation not in _rotations(base):
            return False
        cells, galleries = self._build_cells()
        if cell not in cells:
            return False
        return not galleries or self._joins(cell, turn_mask(base, rotation))

    def _put(self, piece: int, cell: int, rotation: int) -> None:
        self.piece_at[cell] = piece
        self.where[piece] = cell
        self.rot[piece] = rotation
        self.walls[cell] = turn_mask(self.rules.tiles[piece].walls, rotation)
        self.placer[piece] = self.seat
        self.order.append(piece)

    # ------------------------------------------------------------------ competition

    def reach(self, cell: int) -> list[int]:
        """Cells a prisoner on `cell` may move to (`board.straight_moves`)."""
        return straight_moves(cell, self.walls, self.piece_at, self.prisoner, self.table.neighbour)

    def can_move(self, seat: int) -> bool:
        return any(self.reach(c) for c in self.prisoners[seat])

    def free_markers(self) -> int:
        """Markers on the board not under a prisoner."""
        marker, prisoner = self.marker, self.prisoner
        return sum(1 for c in self.maze_cells if marker[c] and not prisoner[c])

    # ------------------------------------------------------------------ copying

    def copy(self) -> Self:
        """An independent copy, made directly (flat lists only): AI searches make thousands."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.options = dict(self.options)
        for name in (
            "piece_at",
            "walls",
            "where",
            "rot",
            "placer",
            "order",
            "drawn_count",
            "entries_placed",
            "marker",
            "maze_cells",
            "prisoner",
            "_history",
        ):
            setattr(copy, name, getattr(self, name)[:])
        copy.prisoners = [p[:] for p in self.prisoners]
        copy.collected = [c[:] for c in self.collected]
        copy.taken = [t[:] for t in self.taken]
        copy.last = copy_last(self.last)
        copy.last_turns = self.last_turns[:]
        return copy


__all__ = ["Sector6Position"]


def _rotations(walls: int) -> range:
    """The rotations a piece with these walls may be placed at: an entry point (no walls)
    looks the same every way, so it has one."""
    return range(6) if walls else range(1)
