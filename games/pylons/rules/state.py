"""The Pylons rules: one position and every way it may change.

A move puts one pylon on a free cell; every own pylon a knight's move away is then linked to
it, unless the link would cross one already on the board. Networks are kept incrementally in
a union-find whose roots carry the network's smallest and largest column (player 1) or row
(player 2), so the score and the connection win are known after every move without a search.

Everything is public: `view(seat)` differs between seats only in its `viewer` field, and it
never carries the seed (a spectator could otherwise foresee nothing, but a saved view should
not depend on how a game was dealt either).

`PylonsState` is the game's one state class and plays the moves itself (the hot path of every
AI search); the rest is done by one module per job: `refusals` (why an action may not be
taken), `views` (what a seat sees, and the position rebuilt from a view) and `saving` (the
stored form).

Choices this project made where the rules leave room:
- With swamps off there is nothing to keep or mirror, so the choice is skipped and player 1
  (seat 0) moves first.
- A player with no legal cell is skipped automatically. A skip is no action, so it is not in
  `history` (which stays exactly the actions to replay); it is listed in `skipped` in the
  state and the view, as {"seat", "after"} with `after` the number of pylons on the board.
  With at most 200 pylons and over 500 usable cells per player it cannot happen in a real
  game; the rule is implemented all the same.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any, ClassVar

from engine.core import OVER, Outcome, State
from engine.errors import IllegalActionError
from games.pylons.rules.actions import (
    KEEP,
    MIRROR,
    PLACE,
    PLACE_TEXT,
    PLACED_BY_TEXT,
    Keep,
    Mirror,
    Place,
    PylonsAction,
)
from games.pylons.rules.board import (
    CELL_INDEX,
    CELLS,
    COL,
    CROSSES,
    LAST,
    LINKS,
    MAX_PYLONS,
    NAMES,
    NEIGHBOURS,
    ROW,
    USABLE,
    Patch,
    deal_swamps,
    link_between,
    mirror_patches,
    swamp_cells,
)
from games.pylons.rules.refusals import choose_first, no_choice, why_not
from games.pylons.rules.saving import from_saved, to_saved
from games.pylons.rules.views import seat_view, state_from_view

VIEW_VERSION = 1

CHOOSE, PLAY = "choose", "play"
PHASES = (CHOOSE, PLAY, OVER)

END_CONNECTED = "connected"
END_LIMIT = "pylon_limit"
END_STUCK = "no_legal_cell"
END_REASONS = (END_CONNECTED, END_LIMIT, END_STUCK)


# Byte maps for `bytes.translate`: 1 for a zero byte, 0 for any other.
_IS_ZERO = bytes([1] + [0] * 255)
_CELL_RANGE = range(CELLS)


def _both(a: bytes | bytearray, b: bytes | bytearray) -> bytes:
    """1 where both byte strings of 0s and 1s (of `CELLS` bytes) have a 1: one integer AND
    instead of a loop over the cells, as every new game and every mirrored board lists them."""
    both = int.from_bytes(a, "big") & int.from_bytes(b, "big")
    return both.to_bytes(CELLS, "big")


class PylonsState(State):
    """A Pylons game. Create with `PylonsGame().new_state(...)`."""

    game: ClassVar[Any]
    view_version = VIEW_VERSION
    target_options = ("place.cell",)

    def __init__(self, seed: int, swamps: bool, dealt: Sequence[Patch]) -> None:
        super().__init__(2, seed, {"swamps": "on" if swamps else "off"})
        self.swamps_on = swamps
        self.dealt: tuple[Patch, ...] = tuple((i, j, size) for i, j, size in dealt)
        self.patches: tuple[Patch, ...] = self.dealt  # as they lie now (after a mirror)
        self.mirrored: bool | None = None  # None until player 1 has chosen
        self.first_seat: int | None = None if swamps else 0
        self.swamp = bytearray(CELLS)
        self.owner = bytearray(CELLS)  # 0 free, else seat + 1
        self.order: list[int] = []  # cells in the order pylons were placed
        self.link_on = bytearray(LINKS)  # 0 absent, else seat + 1
        self.links: list[int] = []  # link ids in the order they were made
        self.crossed = [0] * LINKS  # how many links on the board cross each link
        self.parent = list(range(CELLS))
        self.weight = [1] * CELLS  # pylons in the network of a root
        self.lo = [0] * CELLS  # smallest column/row of a root's network
        self.hi = [0] * CELLS  # largest
        self.scores = [0, 0]
        self.placed = [0, 0]
        # Per seat: 1 for every cell it may ever build on here (no corner, swamp or border of
        # the opponent); fixed once the swamps lie, so copies share it.
        self.open: tuple[bytes, bytes] = (USABLE[0], USABLE[1])
        self.free: list[list[int]] = [[], []]  # legal cells per seat, sorted
        self.moves: list[list[Place]] = [[], []]  # the same as actions, for `legal_actions`
        self.phase = CHOOSE if swamps else PLAY
        self.seat = 0
        self.skipped: list[tuple[int, int]] = []  # (seat, pylons on the board then)
        self.last_seat: int | None = None
        self.last_cell = -1
        self.last_links: list[int] = []
        self.last_blocked: list[int] = []
        self.winner: int | None = None
        self._lay_swamps(self.dealt)

    # ------------------------------------------------------------------ creation

    @classmethod
    def deal(cls, seed: int, swamps: bool = True) -> PylonsState:
        """A new game: swamps (if on) from the seed, then player 1's choice or first move."""
        dealt = deal_swamps(random.Random(seed)) if swamps else ()
        return cls(seed, swamps, dealt)

    def _lay_swamps(self, patches: tuple[Patch, ...]) -> None:
        """Put the swamps on an empty board and list every seat's legal cells."""
        self.patches = patches
        self.swamp = bytearray(CELLS)
        for c in swamp_cells(patches):
            self.swamp[c] = 1
        self._count_free()

    def _count_free(self) -> None:
        """Every seat's legal cells from scratch, from the swamps, borders and pylons.

        Done when the swamps are laid; after that each move only takes its cell out of the
        sorted lists (a bisection and a deletion), so `legal_actions` is a copy of a list
        kept ready, never a sort."""
        dry = self.swamp.translate(_IS_ZERO)  # 1 where no swamp lies
        unowned = self.owner.translate(_IS_ZERO)  # 1 where no pylon stands
        opened = tuple(_both(usable, dry) for usable in USABLE)
        self.open = (opened[0], opened[1])
        for seat in (0, 1):
            cells = list(compress(_CELL_RANGE, _both(opened[seat], unowned)))
            self.free[seat] = cells
            self.moves[seat] = list(map(PLACE.__getitem__, cells))

    # ------------------------------------------------------------------ interface

    @property
    def turns_played(self) -> int:
        """Pylons placed so far (the board choice is not a turn)."""
        return len(self.order)

    def prompt(self) -> str | None:
        """Player 1's opening choice of the board (keep or mirror) is their prompt."""
        return "choose" if self.phase == CHOOSE else None

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = (self.scores[0], self.scores[1])
        if self.winner is not None:
            winners: tuple[int, ...] = (self.winner,)
        else:
            best = max(scores)
            winners = tuple(s for s in (0, 1) if scores[s] == best)
        details: dict[str, Any] = {
            "draw": len(winners) == 2,
            "connected": self.winner,
            "pylons": list(self.placed),
        }
        if self.winner is not None:
            details["network"] = [NAMES[c] for c in self.network(self.order[-1])]
        return Outcome(
            reason=self.end_reason or END_STUCK, scores=scores, winners=winners, details=details
        )

    # ------------------------------------------------------------------ queries

    def find(self, c: int) -> int:
        """The root of the network holding the pylon on `c` (path halving)."""
        parent = self.parent
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def network(self, c: int) -> list[int]:
        """The cells of the network holding the pylon on `c`, in the order they were built."""
        if not self.owner[c]:
            return []
        root = self.find(c)
        own = self.owner[c]
        return [p for p in self.order if self.owner[p] == own and self.find(p) == root]

    def apply(self, action: Any) -> None:
        """`State.apply`, with a short way for the common case: a legal pylon during play,
        given as an action (every search) or as its own text (every saved game loaded replays
        its history so, and a text that is not a placement's own is read as usual)."""
        if self.phase == PLAY:
            kind = action.__class__
            if kind is Place:
                c = CELL_INDEX.get(action.cell)
            elif kind is str:
                c = PLACED_BY_TEXT.get(action)
            else:
                c = None
            if c is not None and self.open[self.seat][c] and not self.owner[c]:
                self._place(c)
                return
        super().apply(action)

    def free_cells(self, seat: int) -> list[int]:
        """The cells `seat` may build on now, in cell order."""
        return self.free[seat][:]

    # ------------------------------------------------------------------ applying actions

    def _apply(self, action: Any) -> None:
        if isinstance(action, Place):
            c = CELL_INDEX.get(action.cell)
            if c is None:
                raise IllegalActionError(
                    f"{action.cell} is not a cell: cells run from A1 to X24.",
                    key="engine.pylons.not_a_cell",
                    cell=action.cell,
                )
            if self.phase != PLAY:
                raise choose_first()
            if not self.open[self.seat][c] or self.owner[c]:
                raise why_not(self, c)
            self._place(c)
        elif isinstance(action, Keep | Mirror):
            if self.phase != CHOOSE:
                raise no_choice(self)
            self._choose(isinstance(action, Mirror))
        else:
            raise IllegalActionError(
                f"{action!r} is not a Pylons action.",
                key="engine.pylons.not_an_action",
                action=action,
            )

    def _choose(self, mirror: bool) -> None:
        self.mirrored = mirror
        if mirror:
            self._lay_swamps(mirror_patches(self.dealt))
        self.first_seat = 1 if mirror else 0
        self.seat = self.first_seat
        self.phase = PLAY
        self._history.append(MIRROR.text() if mirror else KEEP.text())
        self.last_seat = 0
        self.last_cell = -1
        self.last_links = []
        self.last_blocked = []

    def _place(self, c: int) -> None:
        """Build on `c` (already checked), link, merge networks, score, and pass the turn.

        The hot path of every playout and search: locals instead of attribute lookups, and
        the networks merged only when a link is made (most random pylons make none)."""
        seat = self.seat
        other = 1 - seat
        own = seat + 1
        owner = self.owner
        owner[c] = own
        free, moves = self.free, self.moves
        cells = free[seat]
        k = bisect_left(cells, c)
        del cells[k]
        del moves[seat][k]
        if self.open[other][c]:  # an inner cell: the opponent loses it too
            cells = free[other]
            k = bisect_left(cells, c)
            del cells[k]
            del moves[other][k]
        order = self.order
        order.append(c)
        self.placed[seat] += 1
        lo, hi = self.lo, self.hi
        lo[c] = hi[c] = (ROW if seat else COL)[c]
        made: list[int] = []
        blocked: list[int] = []
        span = 0
        for n, link in NEIGHBOURS[c]:
            if owner[n] == own:
                span = self._link(c, n, link, own, made, blocked)
        if span > self.scores[seat]:
            self.scores[seat] = span
        self._history.append(PLACE_TEXT[c])
        self.last_seat = seat
        self.last_cell = c
        self.last_links = made
        self.last_blocked = blocked
        if span == LAST:
            self._end(END_CONNECTED, seat)
        elif len(order) >= MAX_PYLONS:
            self._end(END_LIMIT)
        elif free[other]:
            self.seat = other
        elif free[seat]:
            self.skipped.append((other, len(order)))
        else:
            self._end(END_STUCK)

    def _link(
        self, c: int, n: int, link: int, own: int, made: list[int], blocked: list[int]
    ) -> int:
        """Link the new pylon `c` to its own neighbour `n` unless a link crosses the way,
        merging their networks; the span of the network holding `c` afterwards."""
        crossed, parent = self.crossed, self.parent
        lo, hi = self.lo, self.hi
        root = c
        while parent[root] != root:
            root = parent[root]
        if crossed[link]:
            blocked.append(link)
            return hi[root] - lo[root]
        self.link_on[link] = own
        self.links.append(link)
        made.append(link)
        for k in CROSSES[link]:
            crossed[k] += 1
        r = n
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        if r != root:
            weight = self.weight
            if weight[r] > weight[root]:
                r, root = root, r
            parent[r] = root
            weight[root] += weight[r]
            if lo[r] < lo[root]:
                lo[root] = lo[r]
            if hi[r] > hi[root]:
                hi[root] = hi[r]
        return hi[root] - lo[root]

    def _end(self, reason: str, winner: int | None = None) -> None:
        self.phase = OVER
        self.end_reason = reason
        self.winner = winner

    # ------------------------------------------------------------------ choosing actions

    def legal_actions(self) -> list[PylonsAction]:
        if self.phase == OVER:
            return []
        if self.phase == CHOOSE:
            return [KEEP, MIRROR]
        return [*self.moves[self.seat]]

    def sample_action(self, rng: random.Random) -> PylonsAction:
        """A uniformly random legal action, in constant time: one pick from the free list."""
        if self.phase == PLAY:
            free = self.free[self.seat]
            return PLACE[free[int(rng.random() * len(free))]]
        if self.phase == CHOOSE:
            return MIRROR if rng.random() < 0.5 else KEEP
        raise IllegalActionError(
            "The game is over: no more actions can be taken.", key="engine.core.game_over"
        )

    # ------------------------------------------------------------------ views

    def _view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> PylonsState:
        return state_from_view(cls, view)

    # ------------------------------------------------------------------ saving

    def copy(self) -> PylonsState:
        """An independent copy, made directly (flat lists only): AI searches make thousands."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.options = dict(self.options)
        for name in (
            "swamp",
            "owner",
            "order",
            "link_on",
            "links",
            "crossed",
            "parent",
            "weight",
            "lo",
            "hi",
            "scores",
            "placed",
            "skipped",
            "last_links",
            "last_blocked",
            "_history",
        ):
            setattr(copy, name, getattr(self, name)[:])
        copy.free = [self.free[0][:], self.free[1][:]]
        copy.moves = [self.moves[0][:], self.moves[1][:]]
        return copy

    def to_dict(self) -> dict[str, Any]:
        return to_saved(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PylonsState:
        return from_saved(cls, data)


__all__ = [
    "END_CONNECTED",
    "END_LIMIT",
    "END_STUCK",
    "MAX_PYLONS",
    "PylonsState",
    "link_between",
]
