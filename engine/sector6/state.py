"""The Sector 6 rules: one position and every way it may change.

The game has two phases. In the construction phase the players take turns building the maze:
either `draw` the top tile of their face-down supply and `place` it (turned as they like), or
`place entry` one of their two entry points. The first tile goes anywhere on the table, the
second must touch it, every later one must touch at least two placed pieces; in the veteran
and novice modes a piece must also open onto an open side of a neighbour (the galleries
rule). When everything is placed, every maze tile gets an oxygen marker of its value and every
entry point a prisoner of its owner, and the competition phase begins with the player who
began the construction.

A competition turn is a `move` of one own prisoner in a straight line through open sides
(never through a wall on either tile, a gap or a prisoner, never onto a prisoner), then one
of: `collect` the marker of the tile just left, `rotate` that tile one side either way (in
full mode, tiles whose closed side meets a closed side of the turned tile turn the other way,
judged before the turn, one level deep), or `done`. A player whose prisoners cannot move
makes two rotations of the tiles under them instead (in novice mode: `pass`). The game ends
as soon as every marker left on the board lies under a prisoner or is out of reach for good,
or when the oxygen clock runs out (see `engine.sector6.ending`); each player then takes the
markers under their own prisoners. Highest total wins; ties go to more blue (4), then green
(3), then yellow (2) markers, else the win is shared.

Choices this project made where the rules leave room:
- The table is a bounded grid (`data/sector6/setup.json`), large enough for any maze; "the
  first tile anywhere" means any cell of it.
- The drawn tile is shown to its drawer alone until it is placed (the view of every other
  seat says only that a tile is drawn); each supply's order stays secret from everyone, its
  owner included. What is left of each supply by value is public, since the table of supplies
  and the placed tiles are.
- A drawn tile must be placed: a player who wants to place an entry point does so instead of
  drawing. If no cell touching two pieces satisfies the galleries rule for the piece in hand,
  a cell touching one piece will do, galleries kept; only if that is impossible too is the
  galleries rule waived for this placement (waiving it first could wall off part of a novice
  maze for good). If no cell touches two pieces, one will do. A game must never get stuck.
- After a move the player may also do nothing (`done`): the rulebook says the player *may*
  act on the tile left. When nothing but `done` is possible (novice mode, no marker there),
  the turn ends by itself after the move.
- Turning an entry point is allowed (it changes nothing: it has no walls and no gears).
- Blocked players make both rotations even if the first one frees a prisoner.
- Novice mode: a blocked player types `pass`; if no player at all can move, nothing can ever
  change again, so the game ends at once as if every marker left were under a prisoner.
- Markers no prisoner can ever reach again are out of play (`engine.sector6.ending`), and
  `oxygen_clock_rounds` full rounds without a collection end the competition (data); free
  markers then go to no one. `max_rounds` turns per player (data) remain a last backstop.
- Games saved before those two rules replay their saved actions as they were played (with
  the backstop of then, `V1_MAX_ROUNDS`) and follow the rules from there on (`ending_from`);
  their clock counts from their last collection.
- The first player is drawn from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import OVER, Outcome, State, check_saved_format
from engine.errors import GameError, IllegalActionError, Phrase
from engine.sector6.actions import (
    COLLECT,
    DEGREES,
    DONE,
    DRAW,
    PASS,
    Collect,
    Done,
    Draw,
    Move,
    Pass,
    Place,
    PlaceEntry,
    Rotate,
    Sector6Action,
)
from engine.sector6.board import SIDES, opposite, sides_of, straight_moves, turn_mask
from engine.sector6.ending import (
    END_CLOCK,
    END_DEAD,
    END_HELD,
    END_LIMIT,
    END_REASONS,
    END_STUCK,
    clock_ran_out,
    clock_view,
    dead_markers,
    marker_counts,
    rule_end,
)
from engine.sector6.rules_data import Rules, default_rules

STATE_FORMAT = "sector6-state"
STATE_VERSION = 2  # 2: the end rules (the oxygen clock, markers out of reach)
READ_VERSIONS = (1, STATE_VERSION)
VIEW_VERSION = 1

FULL, VETERAN, NOVICE = "full", "veteran", "novice"
MODES = (FULL, VETERAN, NOVICE)

BUILD, PLAY = "build", "play"
PHASES = (BUILD, PLAY, OVER)
# Steps: what the seat to move does next.
DRAW_STEP = "draw"  # construction: draw a tile or place an entry point
PLACE_STEP = "place"  # construction: place the drawn tile
MOVE_STEP = "move"  # competition: move a prisoner
ACT_STEP = "act"  # competition: collect, rotate or done, on the tile just left
BLOCKED_STEP = "blocked"  # competition: no prisoner can move: rotate (or pass)

BLOCKED_ROTATIONS = 2
V1_MAX_ROUNDS = 100  # the backstop version 1 saves were played under (their replay keeps it)
EMPTY = -1


class Sector6State(State):
    """A Sector 6 game. Create with `Sector6Game().new_state(...)` (engine.sector6.GAME)."""

    game: ClassVar[Any]
    view_version = VIEW_VERSION
    target_options = (
        "place.cell",
        "place.degrees",
        "entry.cell",
        "move.origin",
        "move.target",
        "rotate.cell",
    )

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
        self._check_supplies(rules, seats, supplies)
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
        # Actions of the history played before the end rules of `engine.sector6.ending`
        # existed (games saved by version 1 only): they replay under the old ending.
        self.ending_from = 0
        self.last: dict[str, Any] = _fresh_last(None)
        # The last turn's rotations as (cell, clockwise, cells turned by gears), in order, for
        # the picture's arrows; rebuilt by replaying, so saves do not carry it.
        self.last_turns: list[tuple[int, bool, tuple[int, ...]]] = []
        self._fresh = True

    @staticmethod
    def _check_supplies(rules: Rules, seats: int, supplies: Sequence[Sequence[int]]) -> None:
        """Supplies must hold distinct maze tiles, each seat the table's count per value."""
        if len(supplies) != seats:
            raise ValueError(f"{seats} seats need {seats} supplies, found {len(supplies)}")
        seen: set[int] = set()
        want = rules.supplies[seats]
        for seat, supply in enumerate(supplies):
            counts = dict.fromkeys(rules.values, 0)
            for piece in supply:
                if not 0 <= piece < rules.maze_tiles or piece in seen:
                    raise ValueError(f"supply {seat} holds {piece!r}: not a free maze tile")
                seen.add(piece)
                counts[rules.tiles[piece].value] += 1
            if counts != dict(want):
                raise ValueError(f"supply {seat} does not match the table for {seats} players")

    # ------------------------------------------------------------------ creation

    @classmethod
    def deal(
        cls, seats: int, seed: int, mode: str = FULL, rules: Rules | None = None
    ) -> Sector6State:
        """Deal every seat its supply from the box and shuffle it; draw the first player."""
        rules = rules or default_rules()
        if not rules.min_players <= seats <= rules.max_players:
            raise ValueError(
                f"Sector 6 is for {rules.min_players}-{rules.max_players} players, not {seats}."
            )
        rng = random.Random(seed)
        supplies: list[list[int]] = [[] for _ in range(seats)]
        for value in rules.values:
            box = [t.id for t in rules.tiles[: rules.maze_tiles] if t.value == value]
            rng.shuffle(box)
            n = rules.supplies[seats][value]
            for seat in range(seats):
                supplies[seat] += box[seat * n : (seat + 1) * n]
        for supply in supplies:
            rng.shuffle(supply)
        return cls(rules, seats, seed, mode, supplies, rng.randrange(seats))

    # ------------------------------------------------------------------ interface

    def prompt(self) -> str | None:
        """A drawn tile waits, seen by its drawer alone, to be placed."""
        return "place" if self.phase == BUILD and self.step == PLACE_STEP else None

    def scores(self) -> list[int]:
        """Collected oxygen per seat (public at any time; final at the end)."""
        return [sum(v * n for v, n in enumerate(c)) for c in self.collected]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = self.scores()
        keys = [
            (scores[s], *(self.collected[s][v] for v in self.rules.tie_break))
            for s in range(self.seats)
        ]
        best = max(keys)
        winners = tuple(s for s in range(self.seats) if keys[s] == best)
        decided = "shared"
        if len(winners) == 1:
            runner_up = max(k for s, k in enumerate(keys) if s != winners[0])
            i = next(i for i in range(len(best)) if best[i] != runner_up[i])
            decided = "score" if i == 0 else self.rules.colours[self.rules.tie_break[i - 1]]
        left = {str(v): 0 for v in self.rules.values}
        for c in self.maze_cells:
            if self.marker[c]:
                left[str(self.marker[c])] += 1
        return Outcome(
            reason=self.end_reason or END_HELD,
            scores=tuple(scores),
            winners=winners,
            details={
                "collected": [self._counts(s) for s in range(self.seats)],
                "taken_at_end": [list(t) for t in self.taken],
                "left_on_board": left,
                "out_of_reach": len(dead_markers(self)),
                "tie_break": [self.rules.colours[v] for v in self.rules.tie_break],
                "decided_by": decided,
            },
        )

    def _counts(self, seat: int) -> dict[str, int]:
        return {str(v): self.collected[seat][v] for v in self.rules.values}

    # ------------------------------------------------------------------ small helpers

    def name(self, cell: int) -> str:
        return self.table.names[cell]

    def _cell(self, label: str) -> int:
        cell = self.table.index.get(label.upper())
        if cell is None:
            column, rows = self.table.names[-1][0], self.table.rows
            raise IllegalActionError(
                f"{label} is not on the table: columns run A-{column}, rows 1-{rows}.",
                key="engine.sector6.not_on_table",
                label=label,
                column=column,
                rows=rows,
            )
        return cell

    def _names(self, cells: Sequence[int] | set[int], limit: int = 8) -> str:
        """Cell names in reading order, the first `limit` of them and how many more."""
        rows = self.table.rows
        ordered = sorted(cells, key=lambda c: (c % rows, c // rows))  # reading order
        shown = ", ".join(self.name(c) for c in ordered[:limit])
        more = len(ordered) - limit
        if more <= 0:
            return shown
        return Phrase(
            f"{shown} and {more} more", "engine.sector6.cells_and_more", cells=shown, count=more
        )

    def _joined(self, cells: Sequence[int], word: str) -> str:
        """Cell names joined with "and" or "or" (`word`), as a text of the language files."""
        names = [self.name(c) for c in cells]
        joined = names[-1] if names else ""
        for name in reversed(names[:-1]):
            joined = Phrase(
                f"{name} {word} {joined}", f"engine.sector6.{word}", first=name, rest=joined
            )
        return joined

    def supply_left(self, seat: int) -> int:
        return len(self.supplies[seat]) - self.drawn_count[seat]

    def entries_left(self, seat: int) -> int:
        return self.rules.entries_per_player - self.entries_placed[seat]

    def _has_pieces(self, seat: int) -> bool:
        return self.supply_left(seat) > 0 or self.entries_left(seat) > 0

    def _record(self, text: str, **marks: Any) -> None:
        """Log an action; the first action of a turn starts a new `last` record."""
        if self._fresh:
            self.last = _fresh_last(self.seat)
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
        there), with the fallbacks of the module docstring. The same for every piece, since
        each one can be turned to open onto any open side: only the rotations differ."""
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
        """Every (cell, rotation) where `piece` may go now, with the fallbacks of the module
        docstring; an entry point has one rotation only (it looks the same every way)."""
        base = self.rules.tiles[piece].walls
        rotations = range(6) if base else range(1)
        cells, galleries = self._build_cells()
        if galleries:
            return [(c, r) for c in cells for r in rotations if self._joins(c, turn_mask(base, r))]
        return [(c, r) for c in cells for r in rotations]

    def _why_not_placed(self, piece: int, cell: int, rotation: int) -> IllegalActionError:
        """Why `piece` may not go on `cell` turned `rotation`, and where it may."""
        legal = self.placements(piece)
        cells = sorted({c for c, _ in legal})
        listed = self._names(cells)
        where = Phrase(
            f"Cells that would do: {listed}.", "engine.sector6.cells_that_would_do", cells=listed
        )
        name = self.name(cell)
        key = "engine.sector6.cannot_place."
        if self.piece_at[cell] >= 0:
            return IllegalActionError(
                f"{name} has a piece on it already. {where}",
                key=key + "occupied",
                cell=name,
                where=where,
            )
        touching = self._touching(cell)
        if len(self.order) == 1 and touching == 0:
            return IllegalActionError(
                f"The second piece must touch the first, and {name} does not. {where}",
                key=key + "second_touches_first",
                cell=name,
                where=where,
            )
        if touching < 2 and len(self.order) >= 2 and cell not in cells:
            return IllegalActionError(
                f"{name} touches {touching} placed piece{'' if touching == 1 else 's'}; "
                f"from the third piece on, a piece must touch at least two. {where}",
                key=key + "touch_two",
                cell=name,
                count=touching,
                where=where,
            )
        if cell in cells:
            turned = f"r{DEGREES[rotation]}"
            turns = ", ".join(f"r{DEGREES[r]}" for c, r in legal if c == cell)
            return IllegalActionError(
                f"Turned {turned}, no open side of the tile on {name} meets an open "
                f"side of a neighbour (the galleries rule). On {name} use {turns}.",
                key=key + "galleries",
                rotation=turned,
                cell=name,
                rotations=turns,
            )
        return IllegalActionError(
            f"{name} cannot take this piece now. {where}",
            key=key + "other",
            cell=name,
            where=where,
        )

    def _put(self, piece: int, cell: int, rotation: int) -> None:
        self.piece_at[cell] = piece
        self.where[piece] = cell
        self.rot[piece] = rotation
        self.walls[cell] = turn_mask(self.rules.tiles[piece].walls, rotation)
        self.placer[piece] = self.seat
        self.order.append(piece)

    def _draw(self) -> None:
        if self.step == PLACE_STEP:
            example = self._example_place(self.drawn)
            raise IllegalActionError(
                f"You have drawn a tile already: place it, e.g. {example}.",
                key="engine.sector6.drawn_already",
                example=example,
            )
        if self.supply_left(self.seat) == 0:
            entry = self.rules.entry(self.seat, self.entries_placed[self.seat])
            example = self._example_place(entry)
            raise IllegalActionError(
                f"Your supply is empty: place an entry point instead, e.g. {example}.",
                key="engine.sector6.supply_empty",
                example=example,
            )
        self.drawn = self.supplies[self.seat][self.drawn_count[self.seat]]
        self.drawn_count[self.seat] += 1
        self.step = PLACE_STEP
        self._record(DRAW.text())

    def _example_place(self, piece: int) -> str:
        cell, rotation = self.placements(piece)[0]
        if self.rules.tiles[piece].layout == "entry":
            return PlaceEntry(self.name(cell)).text()
        return Place(self.name(cell), rotation).text()

    def _place(self, action: Place) -> None:
        if self.step != PLACE_STEP:
            raise IllegalActionError(
                "Draw a tile first (draw), or place an entry point (place entry C4).",
                key="engine.sector6.draw_first",
            )
        cell = self._cell(action.cell)
        if (cell, action.rotation) not in set(self.placements(self.drawn)):
            raise self._why_not_placed(self.drawn, cell, action.rotation)
        piece = self.drawn
        self._put(piece, cell, action.rotation)
        self.drawn = EMPTY
        self._record(Place(self.name(cell), action.rotation).text(), placed=self.name(cell))
        self._end_build_turn()

    def _place_entry(self, action: PlaceEntry) -> None:
        if self.step == PLACE_STEP:
            example = self._example_place(self.drawn)
            raise IllegalActionError(
                f"You have drawn a tile: it must be placed, e.g. {example}.",
                key="engine.sector6.place_drawn_tile",
                example=example,
            )
        if self.entries_left(self.seat) == 0:
            raise IllegalActionError(
                "Both your entry points are placed: draw a tile instead.",
                key="engine.sector6.entries_placed",
            )
        piece = self.rules.entry(self.seat, self.entries_placed[self.seat])
        cell = self._cell(action.cell)
        if (cell, 0) not in set(self.placements(piece)):
            raise self._why_not_placed(piece, cell, 0)
        self._put(piece, cell, 0)
        self.entries_placed[self.seat] += 1
        self._record(PlaceEntry(self.name(cell)).text(), placed=self.name(cell))
        self._end_build_turn()

    def _end_build_turn(self) -> None:
        self.turns_played += 1
        for k in range(1, self.seats + 1):
            seat = (self.seat + k) % self.seats
            if self._has_pieces(seat):
                self.seat = seat
                self.step = DRAW_STEP
                self._fresh = True
                return
        self._begin_competition()

    def _begin_competition(self) -> None:
        """Markers on every maze tile, prisoners on the entry points; the first player again."""
        tiles = self.rules.tiles
        for piece in self.order:
            cell = self.where[piece]
            tile = tiles[piece]
            if tile.value:
                self.marker[cell] = tile.value
                self.maze_cells.append(cell)
            else:
                self.prisoner[cell] = tile.owner + 1
                self.prisoners[tile.owner].append(cell)
        self.phase = PLAY
        self._start_turn(self.first_seat)

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

    def _start_turn(self, seat: int) -> None:
        self.seat = seat
        self.pending = EMPTY
        self.rotations_left = 0
        self._fresh = True
        if self.can_move(seat):
            self.step = MOVE_STEP
            return
        self.step = BLOCKED_STEP
        if self.rotations:
            self.rotations_left = BLOCKED_ROTATIONS
        elif not any(self.can_move(s) for s in range(self.seats)):
            self._finish(END_STUCK)

    def _new_ending(self) -> bool:
        """Whether the end rules of `engine.sector6.ending` apply to the action just logged
        (always, but in the replay of a game saved before they existed)."""
        return len(self._history) > self.ending_from

    def _ended_by_rule(self) -> bool:
        """End the game if every marker left is held (or, under the end rules, held or out of
        reach): after a move or a collection, and after a rotation, which may seal tiles."""
        if self._new_ending():
            reason = rule_end(self)
        else:
            reason = END_HELD if self.free_markers() == 0 else None
        if reason is None:
            return False
        self._finish(reason)
        return True

    def _end_turn(self) -> None:
        self.turns_played += 1
        self.play_turns += 1
        if self._new_ending() and clock_ran_out(self):
            self._finish(END_CLOCK)
            return
        limit = self.max_turns if self._new_ending() else V1_MAX_ROUNDS * self.seats
        if self.play_turns >= limit:
            self._finish(END_LIMIT)
            return
        self._start_turn((self.seat + 1) % self.seats)

    def _finish(self, reason: str) -> None:
        """Each player takes the markers under their own prisoners; the game is over."""
        for seat in range(self.seats):
            for cell in self.prisoners[seat]:
                value = self.marker[cell]
                if value:
                    self.collected[seat][value] += 1
                    self.taken[seat].append(value)
                    self.marker[cell] = 0
        self.phase = OVER
        self.step = ""
        self.pending = EMPTY
        self.rotations_left = 0
        self.end_reason = reason

    def _turn(self, cell: int, clockwise: bool) -> list[int]:
        """Turn the tile on `cell` one side; in full mode the tiles whose gears meet it (a
        closed side against a closed side, judged before anything turns) turn the other way.
        Returns the cells turned by gears."""
        steps = 1 if clockwise else 5
        meshed = []
        if self.gears:
            walls, piece_at = self.walls, self.piece_at
            mask = walls[cell]
            for side, n in enumerate(self.table.neighbour[cell]):
                if (
                    mask >> side & 1
                    and n >= 0
                    and piece_at[n] >= 0
                    and walls[n] >> opposite(side) & 1
                ):
                    meshed.append(n)
        self._spin(cell, steps)
        for n in meshed:
            self._spin(n, 6 - steps)
        return meshed

    def _spin(self, cell: int, steps: int) -> None:
        piece = self.piece_at[cell]
        self.rot[piece] = (self.rot[piece] + steps) % 6
        self.walls[cell] = turn_mask(self.walls[cell], steps)

    def _why_not_move(self, a: int, b: int) -> Phrase:
        """The first rule a move from `a` to `b` breaks."""
        name_a, name_b = self.name(a), self.name(b)
        key = "engine.sector6.why_not_move."
        line = self.table.line(a, b)
        if a == b:
            return Phrase(
                f"A move must leave {name_a}: go at least one tile.", key + "stay", cell=name_a
            )
        if line is None:
            return Phrase(
                f"{name_b} is not in a straight line from {name_a} through one of its sides.",
                key + "not_in_line",
                target=name_b,
                origin=name_a,
            )
        side, distance = line
        if self.walls[a] >> side & 1:
            return self._wall(a, side, "wall")
        cell = a
        for step in range(1, distance + 1):
            n = self.table.neighbour[cell][side]
            if n < 0:
                return Phrase(
                    "There is no tile on the edge of the table: prisoners cannot cross a gap.",
                    key + "edge",
                )
            if self.piece_at[n] < 0:
                return Phrase(
                    f"There is no tile on {self.name(n)}: prisoners cannot cross a gap.",
                    key + "gap",
                    cell=self.name(n),
                )
            if self.walls[n] >> opposite(side) & 1:
                return self._wall(n, opposite(side), "wall")
            if self.prisoner[n]:
                verb = "stop on" if step == distance else "pass through"
                return Phrase(
                    f"A prisoner stands on {self.name(n)}: no prisoner may {verb} it.",
                    key + ("stop_on" if step == distance else "pass_through"),
                    cell=self.name(n),
                )
            if step < distance and self.walls[n] >> side & 1:
                return self._wall(n, side, "line_ends")
            cell = n
        return Phrase(  # pragma: no cover - reach() and the checks above agree
            f"{name_b} cannot be reached from {name_a}.",
            key + "unreachable",
            target=name_b,
            origin=name_a,
        )

    def _wall(self, cell: int, side: int, reason: str) -> Phrase:
        """A wall on `side` of `cell` stops the move (and the line ends there, for
        "line_ends")."""
        name, where = self.name(cell), SIDES[side]
        side_name = Phrase(where, f"engine.sector6.side.{where.lower()}")
        end = ": the line ends there." if reason == "line_ends" else "."
        return Phrase(
            f"{name} has a wall on its {side_name} side{end}",
            f"engine.sector6.why_not_move.{reason}",
            cell=name,
            side=side_name,
        )

    def _moves_text(self) -> str:
        """Where each prisoner of the seat to move can go, as a text of the language files."""
        parts = []
        for cell in self.prisoners[self.seat]:
            reach = self.reach(cell)
            if reach:
                origin, cells = self.name(cell), self._names(reach)
                parts.append(
                    Phrase(
                        f"from {origin}: {cells}",
                        "engine.sector6.moves.from",
                        cell=origin,
                        cells=cells,
                    )
                )
        if not parts:
            return Phrase("none", "engine.sector6.moves.none")
        joined = parts[-1]
        for part in reversed(parts[:-1]):
            joined = Phrase(
                f"{part}; {joined}", "engine.sector6.moves.list", first=part, rest=joined
            )
        return joined

    def _refuse(self, phrase: Phrase) -> IllegalActionError:
        """The refusal saying `phrase`, in English and by its key."""
        return IllegalActionError(str(phrase), key=phrase.key, **phrase.fields)

    def _move(self, action: Move) -> None:
        if self.step == ACT_STEP:
            raise self._refuse(
                self._act_hint(
                    Phrase("You have moved this turn already", "engine.sector6.lead.moved")
                )
            )
        if self.step == BLOCKED_STEP:
            raise self._refuse(self._blocked_hint())
        if self.step != MOVE_STEP:
            raise self._refuse(self._build_hint())
        a, b = self._cell(action.origin), self._cell(action.target)
        if self.prisoner[a] != self.seat + 1:
            mine = self._joined(self.prisoners[self.seat], "and")
            who = "no prisoner" if not self.prisoner[a] else "someone else's prisoner"
            raise IllegalActionError(
                f"{self.name(a)} holds {who}: your prisoners are on {mine}.",
                key="engine.sector6.not_your_prisoner."
                + ("empty" if not self.prisoner[a] else "other"),
                cell=self.name(a),
                cells=mine,
            )
        if b not in self.reach(a):
            why, moves = self._why_not_move(a, b), self._moves_text()
            raise IllegalActionError(
                f"{why} Moves you can make: {moves}.",
                key="engine.sector6.cannot_move",
                why=why,
                moves=moves,
            )
        seat = self.seat
        self.prisoner[a] = 0
        self.prisoner[b] = seat + 1
        self.prisoners[seat][self.prisoners[seat].index(a)] = b
        self.pending = a
        self._record(
            Move(self.name(a), self.name(b)).text(), **{"from": self.name(a), "to": self.name(b)}
        )
        if self._ended_by_rule():
            return
        self.step = ACT_STEP
        if not self.rotations and not self.marker[a]:
            self._end_turn()

    def _act_hint(self, lead: Phrase) -> Phrase:
        """`lead`, then what the seat may still do after its move."""
        name = self.name(self.pending)
        value = self.marker[self.pending]
        options = []
        if value:
            options.append(f"collect (the {value} on {name})")
        if self.rotations:
            options.append(f"rotate left or rotate right (turns {name})")
        options.append("done")
        which = ("collect_" if value else "") + ("rotate_" if self.rotations else "") + "done"
        choices = Phrase(
            ", ".join(options), f"engine.sector6.after_move.{which}", value=value, cell=name
        )
        return Phrase(f"{lead}: now {choices}.", "engine.sector6.act", lead=lead, choices=choices)

    def _blocked_hint(self) -> Phrase:
        if not self.rotations:
            return Phrase(
                "Neither of your prisoners can move: pass.", "engine.sector6.blocked.novice"
            )
        cells = self._joined(self.prisoners[self.seat], "or")
        left = self.rotations_left
        return Phrase(
            f"Neither of your prisoners can move, so you make {left} more rotation"
            f"{'' if left == 1 else 's'} of a tile under them: rotate {cells} left or right.",
            "engine.sector6.blocked.rotate",
            count=left,
            cells=cells,
        )

    def _play_hint(self, lead: Phrase) -> Phrase:
        """What the seat to move may do in the competition phase, after `lead`."""
        if self.step == ACT_STEP:
            return self._act_hint(lead)
        if self.step == BLOCKED_STEP:
            hint = self._blocked_hint()
            return Phrase(f"{lead}. {hint}", "engine.sector6.blocked.after", lead=lead, hint=hint)
        moves = self._moves_text()
        return Phrase(
            f"{lead}: move a prisoner. Moves: {moves}.",
            "engine.sector6.move_a_prisoner",
            lead=lead,
            moves=moves,
        )

    def _build_hint(self) -> Phrase:
        if self.step == PLACE_STEP:
            example = self._example_place(self.drawn)
            return Phrase(
                f"The maze is being built: place your drawn tile, e.g. {example}.",
                "engine.sector6.building.place",
                example=example,
            )
        return Phrase(
            "The maze is being built: draw a tile or place an entry point.",
            "engine.sector6.building.draw",
        )

    def _collect(self) -> None:
        if self.step != ACT_STEP:
            raise self._refuse(self._not_after_move("collect", "collect"))
        value = self.marker[self.pending]
        if not value:
            name = self.name(self.pending)
            lead = Phrase(
                f"{name} has no oxygen marker left", "engine.sector6.lead.no_marker", cell=name
            )
            raise self._refuse(self._act_hint(lead))
        self.collected[self.seat][value] += 1
        self.marker[self.pending] = 0
        self.quiet_since = self.play_turns + 1  # the clock starts again after this turn
        self._record(COLLECT.text(), collected=self.name(self.pending))
        if self._ended_by_rule():
            return
        self._end_turn()

    def _not_after_move(self, verb: str, reason: str) -> Phrase:
        """Why the seat cannot `verb` before moving (`reason` names that text)."""
        if self.phase == BUILD:
            return self._build_hint()
        if self.step == BLOCKED_STEP:
            return self._blocked_hint()
        moves = self._moves_text()
        return Phrase(
            f"First move a prisoner; then you may {verb}. Moves: {moves}.",
            f"engine.sector6.move_first.{reason}",
            moves=moves,
        )

    def _rotate(self, action: Rotate) -> None:
        if self.step == ACT_STEP:
            if not self.rotations:
                lead = Phrase("Novice mode has no rotations", "engine.sector6.lead.novice")
                raise self._refuse(self._act_hint(lead))
            cell = self.pending if action.cell is None else self._cell(action.cell)
            if cell != self.pending:
                name = self.name(self.pending)
                lead = Phrase(
                    f"Only the tile your prisoner just left ({name}) may be turned",
                    "engine.sector6.lead.only_left_tile",
                    cell=name,
                )
                raise self._refuse(self._act_hint(lead))
        elif self.step == BLOCKED_STEP and self.rotations:
            mine = self.prisoners[self.seat]
            if action.cell is None:
                raise self._refuse(self._blocked_hint())
            cell = self._cell(action.cell)
            if cell not in mine:
                hint = self._blocked_hint()
                raise IllegalActionError(
                    f"{self.name(cell)} holds none of your prisoners. {hint}",
                    key="engine.sector6.not_under_prisoner",
                    cell=self.name(cell),
                    hint=hint,
                )
        else:
            raise self._refuse(self._not_after_move("rotate the tile you left", "rotate"))
        geared = self._turn(cell, action.clockwise)
        text = Rotate(self.name(cell), action.clockwise).text()
        self._record(text, rotated=[self.name(cell)], geared=[self.name(c) for c in geared])
        self.last_turns.append((cell, action.clockwise, tuple(geared)))
        if self._new_ending() and self._ended_by_rule():  # a rotation may seal the last ones
            return
        if self.step == ACT_STEP:
            self._end_turn()
        else:
            self.rotations_left -= 1
            if self.rotations_left == 0:
                self._end_turn()

    def _done(self) -> None:
        if self.step != ACT_STEP:
            raise self._refuse(self._not_after_move("end your turn with done", "done"))
        self._record(DONE.text())
        self._end_turn()

    def _pass(self) -> None:
        if self.step != BLOCKED_STEP or self.rotations:
            if self.step == BLOCKED_STEP:
                raise self._refuse(self._blocked_hint())
            lead = "You may pass only when neither of your prisoners can move (novice mode). "
            if self.phase == BUILD:
                hint = self._build_hint()
                raise IllegalActionError(
                    lead + hint, key="engine.sector6.pass_only_blocked.building", hint=hint
                )
            moves = self._moves_text()
            raise IllegalActionError(
                lead + f"Moves: {moves}.", key="engine.sector6.pass_only_blocked.moves", moves=moves
            )
        self._record(PASS.text())
        self._end_turn()

    # ------------------------------------------------------------------ applying actions

    def _apply(self, action: Any) -> None:
        """Every branch checks before it changes anything, so a refused action leaves the
        state exactly as it was."""
        if isinstance(action, Draw | Place | PlaceEntry) and self.phase != BUILD:
            lead = Phrase("The maze is complete", "engine.sector6.lead.maze_complete")
            raise self._refuse(self._play_hint(lead))
        if isinstance(action, Draw):
            self._draw()
        elif isinstance(action, Place):
            self._place(action)
        elif isinstance(action, PlaceEntry):
            self._place_entry(action)
        elif self.phase == BUILD:
            raise self._refuse(self._build_hint())
        elif isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Collect):
            self._collect()
        elif isinstance(action, Rotate):
            self._rotate(action)
        elif isinstance(action, Done):
            self._done()
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise IllegalActionError(
                f"{action!r} is not a Sector 6 action.",
                key="engine.sector6.not_an_action",
                action=action,
            )

    # ------------------------------------------------------------------ choosing actions

    def _build_actions(self) -> tuple[list[Sector6Action], list[Sector6Action]]:
        """(draw actions, entry actions) for the seat to move in the construction phase."""
        seat = self.seat
        if self.step == PLACE_STEP:
            return [Place(self.name(c), r) for c, r in self.placements(self.drawn)], []
        draws: list[Sector6Action] = [DRAW] if self.supply_left(seat) else []
        entries: list[Sector6Action] = []
        if self.entries_left(seat):
            piece = self.rules.entry(seat, self.entries_placed[seat])
            entries = [PlaceEntry(self.name(c)) for c, _ in self.placements(piece)]
        return draws, entries

    def legal_actions(self) -> list[Sector6Action]:
        if self.phase == OVER:
            return []
        if self.phase == BUILD:
            draws, entries = self._build_actions()
            return draws + entries
        seat = self.seat
        if self.step == MOVE_STEP:
            return [
                Move(self.name(a), self.name(b))
                for a in sorted(self.prisoners[seat])
                for b in self.reach(a)
            ]
        if self.step == ACT_STEP:
            acts: list[Sector6Action] = []
            if self.marker[self.pending]:
                acts.append(COLLECT)
            if self.rotations:
                name = self.name(self.pending)
                acts += [Rotate(name, False), Rotate(name, True)]
            acts.append(DONE)
            return acts
        if not self.rotations:
            return [PASS]
        return [
            Rotate(self.name(c), way) for c in sorted(self.prisoners[seat]) for way in (False, True)
        ]

    def sample_action(self, rng: random.Random) -> Sector6Action:
        """A random legal action: in the construction phase first a random kind (draw or
        entry point), then a random cell, so random tables use both; else uniform."""
        if self.phase == OVER:
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        if self.phase == BUILD:
            draws, entries = self._build_actions()
            kinds = [k for k in (draws, entries) if k]
            kind = kinds[int(rng.random() * len(kinds))]
            return kind[int(rng.random() * len(kind))]
        actions = self.legal_actions()
        return actions[int(rng.random() * len(actions))]

    # ------------------------------------------------------------------ views

    def _tile_view(self, piece: int) -> dict[str, Any]:
        tile = self.rules.tiles[piece]
        cell = self.where[piece]
        q, r = self.table.axial(cell)
        entry = tile.layout == "entry"
        return {
            "cell": self.name(cell),
            "q": q,
            "r": r,
            "kind": "entry" if entry else "tile",
            "value": tile.value,
            "colour": self.rules.seats[tile.owner].colour
            if entry
            else self.rules.colours[tile.value],
            "layout": tile.layout,
            "walls": sides_of(self.walls[cell]),
            "rotation": DEGREES[self.rot[piece]],
            "owner": tile.owner if entry else None,
            "placed_by": self.placer[piece],
            "marker": self.marker[cell] or None,
            "prisoner": self.prisoner[cell] - 1 if self.prisoner[cell] else None,
        }

    def _unplaced(self, seat: int) -> dict[str, int]:
        """Values of `seat`'s tiles not yet placed (the drawn one included): public."""
        counts = {str(v): n for v, n in self.rules.supplies[self.seats].items()}
        for piece in self.order:
            tile = self.rules.tiles[piece]
            if tile.value and self.placer[piece] == seat:
                counts[str(tile.value)] -= 1
        return counts

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator). Never the seed nor any supply's order;
        the drawn tile's face only for its drawer."""
        over = self.phase == OVER
        drawn = None
        if self.drawn != EMPTY:
            drawn = {"seat": self.seat}
            if seat == self.seat:
                tile = self.rules.tiles[self.drawn]
                drawn.update(
                    {
                        "value": tile.value,
                        "colour": self.rules.colours[tile.value],
                        "layout": tile.layout,
                        "walls": sides_of(tile.walls),
                    }
                )
        scores = self.scores()
        players = [
            {
                "seat": s,
                "colour": self.rules.seats[s].colour,
                "shape": self.rules.seats[s].shape,
                "score": scores[s],
                "collected": self._counts(s),
                "supply_left": self.supply_left(s),
                "unplaced": self._unplaced(s),
                "entries_left": self.entries_left(s),
                "prisoners": [self.name(c) for c in self.prisoners[s]],
            }
            for s in range(self.seats)
        ]
        on_board = {str(v): 0 for v in self.rules.values}
        for c in self.maze_cells:
            if self.marker[c]:
                on_board[str(self.marker[c])] += 1
        last = self.last
        return {
            "rules": {
                "gears": self.gears,
                "rotations": self.rotations,
                "galleries": self.galleries,
            },
            "table": {"columns": self.table.columns, "rows": self.table.rows},
            "step": None if over else self.step,
            "first_seat": self.first_seat,
            "turns_played": self.turns_played,
            "competition_turns": self.play_turns,
            "max_competition_turns": self.max_turns,
            "tiles": [self._tile_view(p) for p in self.order],
            "pieces_to_place": sum(
                self.supply_left(s) + self.entries_left(s) for s in range(self.seats)
            )
            + (1 if self.drawn != EMPTY else 0),
            "drawn": drawn,
            "build_cells": [self.name(c) for c in self.build_cells()],
            "pending": None if self.step != ACT_STEP or over else self.name(self.pending),
            "rotations_left": self.rotations_left,
            "markers_on_board": on_board,
            "free_markers": self.free_markers(),
            "markers": marker_counts(self),
            "oxygen_clock": clock_view(self),
            "ending_rules_from": self.ending_from,
            "players": players,
            "scores": scores,
            "last": {
                "seat": last["seat"],
                "actions": list(last["actions"]),
                "placed": last["placed"],
                "from": last["from"],
                "to": last["to"],
                "collected": last["collected"],
                "rotated": list(last["rotated"]),
                "geared": list(last["geared"]),
                "turns": [
                    {
                        "cell": self.name(cell),
                        "clockwise": clockwise,
                        "geared": [self.name(c) for c in geared],
                    }
                    for cell, clockwise, geared in self.last_turns
                ],
            },
        }

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rng: random.Random | None = None) -> Sector6State:
        """A full state consistent with what a view shows: what an AI seat searches from.

        Placed tiles are known; what is left of each supply is known by value only (and the
        viewer's drawn tile exactly), so the layouts of the unseen tiles are drawn at random
        from the tiles of that value still in the box, and their order shuffled. Replaying
        the view's history on those supplies rebuilds the public position exactly."""
        rules = default_rules()
        rng = rng or random.Random(0)
        seats = int(view["seats"])
        free: dict[int, list[int]] = {v: [] for v in rules.values}
        for tile in rules.tiles[: rules.maze_tiles]:
            free[tile.value].append(tile.id)
        by_layout: dict[str, list[int]] = {}
        for tile in rules.tiles[: rules.maze_tiles]:
            by_layout.setdefault(tile.layout, []).append(tile.id)
        supplies: list[list[int]] = [[] for _ in range(seats)]

        def take(layout: str) -> int:
            piece = by_layout[layout].pop(0)
            free[rules.tiles[piece].value].remove(piece)
            return piece

        for tile in view["tiles"]:
            if tile["kind"] == "tile":
                supplies[int(tile["placed_by"])].append(take(str(tile["layout"])))
        drawn = view.get("drawn") or {}
        if "layout" in drawn and drawn.get("seat") == view.get("viewer"):
            supplies[int(drawn["seat"])].append(take(str(drawn["layout"])))
        for seat in range(seats):
            rest: list[int] = []
            want = dict(rules.supplies[seats])
            for piece in supplies[seat]:
                want[rules.tiles[piece].value] -= 1
            for value, n in want.items():
                pool = free[value]
                rng.shuffle(pool)
                rest += [pool.pop() for _ in range(n)]
            rng.shuffle(rest)
            supplies[seat] += rest
        state = cls(
            rules,
            seats,
            0,
            str(view["options"]["mode"]),
            supplies,
            int(view["first_seat"]),
        )
        state.ending_from = int(view.get("ending_rules_from") or 0)
        for text in view["history"]:
            state.apply(text)
        return state

    def redeal(self, seat: int | None, rng: random.Random) -> Sector6State:
        """Every tile `seat` has not seen drawn again from the box by value (the tiles placed
        and the one `seat` holds after drawing it are kept), every supply's order shuffled
        again, a new seed; the same actions replayed on it."""
        rules = self.rules
        known = [self.supplies[p][: self.drawn_count[p]] for p in range(self.seats)]
        if self.drawn != EMPTY and seat != self.seat:
            known[self.seat] = known[self.seat][:-1]
        used = {piece for pieces in known for piece in pieces}
        pool: dict[int, list[int]] = {v: [] for v in rules.values}
        for tile in rules.tiles[: rules.maze_tiles]:
            if tile.id not in used:
                pool[tile.value].append(tile.id)
        supplies = []
        for pieces in known:
            want = dict(rules.supplies[self.seats])
            for piece in pieces:
                want[rules.tiles[piece].value] -= 1
            rest: list[int] = []
            for value, n in want.items():
                rng.shuffle(pool[value])
                rest += [pool[value].pop() for _ in range(n)]
            rng.shuffle(rest)
            supplies.append(list(pieces) + rest)
        other = type(self)(
            rules, self.seats, rng.getrandbits(62), self.mode, supplies, self.first_seat
        )
        other.ending_from = self.ending_from
        for text in self._history:
            other.apply(text)
        return other

    # ------------------------------------------------------------------ saving

    def copy(self) -> Sector6State:
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
        copy.last = _copy_last(self.last)
        copy.last_turns = self.last_turns[:]
        return copy

    def to_dict(self) -> dict[str, Any]:
        """The saved game: deal and history are the truth; the board is stored too, so a save
        can be read by people and is checked against its own history when loaded."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "seats": self.seats,
            "seed": self.seed,
            "options": {"mode": self.mode},
            "first_seat": self.first_seat,
            "supplies": [list(s) for s in self.supplies],
            "history": list(self._history),
            "phase": self.phase,
            "step": self.step,
            "seat": self.seat,
            "tiles": [
                [self.name(self.where[p]), p, self.rot[p], self.placer[p]] for p in self.order
            ],
            "drawn": self.drawn,
            "markers": {self.name(c): self.marker[c] for c in self.maze_cells if self.marker[c]},
            "prisoners": [[self.name(c) for c in cells] for cells in self.prisoners],
            "collected": [list(c) for c in self.collected],
            "taken": [list(t) for t in self.taken],
            "turns_played": self.turns_played,
            "competition_turns": self.play_turns,
            "quiet_since": self.quiet_since,
            "ending_rules_from": self.ending_from,
            "last": _copy_last(self.last),
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sector6State:
        """Rebuild by replaying the saved history on the saved supplies, then check that the
        stored position agrees with the replay (a hand-edited or corrupt save is refused).

        A version 1 save comes from before the end rules of `engine.sector6.ending`: its
        actions replay under the old ending (a rule that ends games sooner could otherwise
        end it halfway through its own history), and the rules apply from its next action
        on, the oxygen clock counting from its last collection."""
        version = data.get("version")
        check_saved_format(
            data,
            format=STATE_FORMAT,
            version=version if version in READ_VERSIONS else STATE_VERSION,
            title="Sector 6",
        )
        try:
            state = cls(
                default_rules(),
                int(data["seats"]),
                int(data["seed"]),
                str(data["options"]["mode"]),
                [[int(p) for p in s] for s in data["supplies"]],
                int(data["first_seat"]),
            )
            if version == 1:
                state.ending_from = len(data["history"])
            else:
                state.ending_from = int(data["ending_rules_from"])
            for text in data["history"]:
                state.apply(str(text))
            checked = _CHECKED if version == STATE_VERSION else _CHECKED_V1
            stored = {key: data[key] for key in checked}
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"Saved Sector 6 state is incomplete or malformed: {exc!r}") from exc
        except GameError as exc:
            raise ValueError(f"Saved Sector 6 history does not replay: {exc}") from exc
        replayed = state.to_dict()
        for key in checked:
            if stored[key] != replayed[key]:
                raise ValueError(f"Saved Sector 6 state disagrees with its history on {key!r}.")
        return state


_CHECKED_V1 = (
    "phase",
    "step",
    "seat",
    "tiles",
    "drawn",
    "markers",
    "prisoners",
    "collected",
    "taken",
    "turns_played",
    "competition_turns",
    "last",
    "end_reason",
)
_CHECKED = (*_CHECKED_V1, "quiet_since")


def _fresh_last(seat: int | None) -> dict[str, Any]:
    """The record of one turn, for the picture's highlights and the bot's one-line report."""
    return {
        "seat": seat,
        "actions": [],
        "placed": None,
        "from": None,
        "to": None,
        "collected": None,
        "rotated": [],
        "geared": [],
    }


def _copy_last(last: Mapping[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, list) else value for key, value in last.items()}


__all__ = [
    "END_CLOCK",
    "END_DEAD",
    "END_HELD",
    "END_LIMIT",
    "END_REASONS",
    "END_STUCK",
    "MODES",
    "Sector6State",
]
