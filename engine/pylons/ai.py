"""Computer players for Pylons, deciding from a view alone; registered with `engine.ai`.

    from engine.ai import choose
    choose(state.view(seat), level="normal", seed=7)  # -> "place K12"

Levels:
- `random`: a uniformly random legal action.
- `normal`: one move deep. The heart is a connection distance: how many more pylons a
  player needs to link their two borders, found by a 0-1 breadth-first search over knight
  steps where an own pylon costs nothing, an empty usable cell costs one, and a step is
  allowed only if no link on the board crosses it (such a link can never be built). Each
  candidate move is tried and the one that most increases "opponent's distance minus own
  distance" is played.
- `hard`: two moves deep: each candidate is searched against the opponent's strongest reply
  (alpha-beta), and positions are judged more finely: equal distance differences are told
  apart by how many cells lie on each side's shortest connections (more cells, more ways
  round a block). It stops at `budget_s` seconds (default 1.5) or after `iterations`
  evaluations, whichever the caller gives (`iterations` alone makes it deterministic, for
  tests); a search cut short keeps the best move found so far. Against `normal` it won 32
  games of 32 in measurement (bench/pylons.py reports the current figure).

Pylons has no secrets, so a view holds the whole position and the players are fair by
construction; they still read only the view, like every other seat. Candidate moves are the
cells on a shortest connection of either player (found from a search from each border) plus
the cells round the opponent's last pylon, ranked so that cells serving both purposes come
first: trying every free cell would cost a second per move for little gain.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from engine.ai import register_agent
from engine.pylons.board import (
    CELLS,
    COL,
    CROSSES,
    LAST,
    NAMES,
    NEIGHBOURS,
    ROW,
    SIZE,
    USABLE,
)
from engine.pylons.state import CHOOSE, PylonsState

DEFAULT_BUDGET_S = 1.5
FAR = 1000  # the distance of a player who can no longer connect
WIN = 10_000  # a won position's value: beyond any distance difference

NORMAL_CANDIDATES = 24
HARD_CANDIDATES = 20  # moves tried at the root of the search
INNER_CANDIDATES = 10  # replies tried for each of them
BUDGET_SHARE = 0.9  # of the budget spent searching; the rest is room to answer in time

# Border cells each seat starts from and ends at (corners are never usable).
_START = (
    tuple(c for c in range(CELLS) if COL[c] == 0 and USABLE[0][c]),
    tuple(c for c in range(CELLS) if ROW[c] == 0 and USABLE[1][c]),
)
_END = (
    tuple(c for c in range(CELLS) if COL[c] == LAST and USABLE[0][c]),
    tuple(c for c in range(CELLS) if ROW[c] == LAST and USABLE[1][c]),
)
_IS_END = tuple(bytes(int(c in ends) for c in range(CELLS)) for ends in _END)
_CENTRE = tuple(abs(2 * COL[c] - LAST) + abs(2 * ROW[c] - LAST) for c in range(CELLS))


class OutOfBudget(Exception):
    """The search has used its time or its evaluations; the caller keeps what it has."""


class Board:
    """The part of a position the players reason about, with cheap place and undo.

    `crossed[link]` counts the links on the board that cross `link`; a link with a non-zero
    count can never be built, which is all the search needs to know about links."""

    __slots__ = ("crossed", "open", "owner")

    def __init__(self, state: PylonsState) -> None:
        self.owner = bytearray(state.owner)
        self.crossed = list(state.crossed)
        swamp = state.swamp
        self.open = tuple(
            bytes(int(USABLE[seat][c] and not swamp[c]) for c in range(CELLS)) for seat in (0, 1)
        )

    def legal(self, seat: int, c: int) -> bool:
        return bool(self.open[seat][c]) and not self.owner[c]

    def place(self, c: int, seat: int) -> list[int]:
        """Build for `seat` on `c` and make its links; returns them, for `undo`."""
        own = seat + 1
        owner, crossed = self.owner, self.crossed
        owner[c] = own
        made = []
        for n, link in NEIGHBOURS[c]:
            if owner[n] == own and not crossed[link]:
                made.append(link)
                for other in CROSSES[link]:
                    crossed[other] += 1
        return made

    def undo(self, c: int, made: list[int]) -> None:
        crossed = self.crossed
        for link in made:
            for other in CROSSES[link]:
                crossed[other] -= 1
        self.owner[c] = 0

    def distance(self, seat: int) -> int:
        """Pylons `seat` still needs to link both borders (0: linked; FAR: impossible)."""
        own = seat + 1
        owner, crossed, usable, is_end = self.owner, self.crossed, self.open[seat], _IS_END[seat]
        dist = [FAR] * CELLS
        queue: deque[int] = deque()
        for c in _START[seat]:
            o = owner[c]
            if not usable[c] or (o and o != own):
                continue
            d = 0 if o else 1
            if d < dist[c]:
                dist[c] = d
                if d:
                    queue.append(c)
                else:
                    queue.appendleft(c)
        pop, push, push_front = queue.popleft, queue.append, queue.appendleft
        while queue:
            u = pop()
            du = dist[u]
            if is_end[u]:
                return du
            for v, link in NEIGHBOURS[u]:
                if crossed[link] or not usable[v]:
                    continue
                o = owner[v]
                if o == own:
                    if du < dist[v]:
                        dist[v] = du
                        push_front(v)
                elif not o and du + 1 < dist[v]:
                    dist[v] = du + 1
                    push(v)
        return FAR

    def field(self, seat: int, backwards: bool) -> list[int]:
        """The distance of every cell from one of `seat`'s borders (each cell's own cost
        included), for finding the cells on shortest connections."""
        own = seat + 1
        owner, crossed, usable = self.owner, self.crossed, self.open[seat]
        dist = [FAR] * CELLS
        queue: deque[int] = deque()
        for c in (_END if backwards else _START)[seat]:
            o = owner[c]
            if usable[c] and (not o or o == own):
                dist[c] = 0 if o else 1
                queue.append(c)
        while queue:
            u = queue.popleft()
            du = dist[u]
            for v, link in NEIGHBOURS[u]:
                if crossed[link] or not usable[v]:
                    continue
                o = owner[v]
                if o and o != own:
                    continue
                nd = du if o else du + 1
                if nd < dist[v]:
                    dist[v] = nd
                    if o:
                        queue.appendleft(v)
                    else:
                        queue.append(v)
        return dist

    def on_shortest(self, seat: int) -> tuple[int, set[int]]:
        """(distance, empty cells on some shortest connection of `seat`)."""
        ahead, behind = self.field(seat, False), self.field(seat, True)
        best = min(ahead[c] for c in _END[seat])
        if best >= FAR:
            return FAR, set()
        owner = self.owner
        cells = {c for c in range(CELLS) if not owner[c] and ahead[c] + behind[c] - 1 == best}
        return best, cells


# ---------------------------------------------------------------------- evaluation


class Search:
    """One decision: the board, the seat to play, the rng for ties and the budget."""

    def __init__(
        self,
        board: Board,
        seat: int,
        rng: random.Random,
        deadline: float | None,
        evaluations: int | None,
        rich: bool = False,
    ) -> None:
        self.rich = rich
        self.board = board
        self.seat = seat
        self.rng = rng
        self.deadline = deadline
        self.left = evaluations
        self.noise = [rng.random() * 1e-3 for _ in range(CELLS)]  # seeded tie-breaks

    def spend(self) -> None:
        if self.left is not None:
            if self.left <= 0:
                raise OutOfBudget
            self.left -= 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def value(self, seat: int) -> float:
        """How good the board is for `seat`: opponent's distance minus own, or a win."""
        self.spend()
        mine = self.board.distance(seat)
        if mine == 0:
            return WIN
        return self.rest(seat, mine)

    def rest(self, seat: int, mine: int) -> float:
        """The value for `seat`, whose distance `mine` is known and not zero.

        With `rich`, equal differences are told apart by how many cells lie on each side's
        shortest connections: more of them means more ways round a block. The share is
        below one half, so it never outweighs a whole pylon of distance."""
        board = self.board
        if not self.rich:
            theirs = board.distance(1 - seat)
            return -WIN if theirs == 0 else theirs - mine
        theirs, their_cells = board.on_shortest(1 - seat)
        if theirs == 0:
            return -WIN
        _, my_cells = board.on_shortest(seat)
        ways, their_ways = len(my_cells), len(their_cells)
        return theirs - mine + 0.45 * (ways - their_ways) / (ways + their_ways + 1)

    def candidates(self, seat: int, near: int, limit: int) -> list[int]:
        """Promising cells for `seat`: on a shortest connection of either player, or round
        the opponent's last pylon; cells doing both first, then towards the centre."""
        board = self.board
        _, mine = board.on_shortest(seat)
        _, theirs = board.on_shortest(1 - seat)
        around: set[int] = set()
        if near >= 0:
            ni, nj = COL[near], ROW[near]
            for dj in range(-2, 3):
                for di in range(-2, 3):
                    i, j = ni + di, nj + dj
                    if 0 <= i < SIZE and 0 <= j < SIZE:
                        around.add(j * SIZE + i)
        pool = [c for c in mine | theirs | around if board.legal(seat, c)]
        if not pool:
            pool = [c for c in range(CELLS) if board.legal(seat, c)]
        own = seat + 1
        owner = board.owner

        def prior(c: int) -> float:
            linked = any(owner[n] == own for n, _ in NEIGHBOURS[c])
            return (
                3 * (c in mine and c in theirs)
                + 2 * (c in theirs)
                + 2 * (c in mine)
                + (c in around)
                + linked
                - 0.02 * _CENTRE[c]
                + self.noise[c]
            )

        pool.sort(key=prior, reverse=True)
        return pool[:limit]

    def after(self, seat: int, c: int, depth: int, alpha: float) -> float:
        """The value for `seat` of playing `c`, searched `depth` moves deep in all (this move
        included), knowing `seat` already has a move worth `alpha`."""
        board = self.board
        made = board.place(c, seat)
        try:
            self.spend()
            mine = board.distance(seat)
            if mine == 0:
                return WIN + depth  # a sooner win is worth more
            if depth == 1:
                return self.rest(seat, mine)
            return -self.negamax(1 - seat, depth - 1, -float("inf"), -alpha, c)
        finally:
            board.undo(c, made)

    def negamax(self, seat: int, depth: int, alpha: float, beta: float, last: int) -> float:
        """Alpha-beta over candidate moves; the value is for `seat`, the side to move."""
        cells = self.candidates(seat, last, INNER_CANDIDATES)
        if not cells:
            return self.value(seat)
        best = -float("inf")
        for c in cells:
            value = self.after(seat, c, depth, alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def one_ply(self, seat: int, cells: list[int]) -> list[tuple[float, int]]:
        """Each candidate with the value of the board after it, best first."""
        board = self.board
        scored = []
        for c in cells:
            made = board.place(c, seat)
            try:
                scored.append((self.value(seat) + self.noise[c], c))
            finally:
                board.undo(c, made)
            if scored[-1][0] >= WIN:
                break
        scored.sort(reverse=True)
        return scored


def _pick_normal(search: Search, last: int) -> int:
    seat = search.seat
    cells = search.candidates(seat, last, NORMAL_CANDIDATES)
    try:
        scored = search.one_ply(seat, cells)
    except OutOfBudget:
        return cells[0]
    return scored[0][1]


def _pick_hard(search: Search, last: int) -> int:
    """Two moves deep: candidates ordered by their one-move value, then each searched against
    the opponent's replies (alpha-beta: a reply that already refutes a move ends its search).

    Searching four moves deep, or keeping to the plain distance at the leaves, measured weaker
    against `normal` than this (see bench/pylons.py); the budget is a ceiling, not a target.
    A search cut short keeps the best move whose replies were all searched, and every move
    after the first was searched against the best one found before it, so that is sound."""
    seat = search.seat
    cells = search.candidates(seat, last, HARD_CANDIDATES)
    best = cells[0]
    try:
        order = search.one_ply(seat, cells)
    except OutOfBudget:
        return best
    best = order[0][1]
    if order[0][0] >= WIN:
        return best
    done: list[tuple[float, int]] = []
    try:
        alpha = -float("inf")
        for _, c in order:
            value = search.after(seat, c, 2, alpha) + search.noise[c]
            done.append((value, c))
            alpha = max(alpha, value)
    except OutOfBudget:
        pass
    return max(done)[1] if done else best


def _choose_board(state: PylonsState) -> str:
    """Keep the swamps and move first unless they hurt player 1 clearly more than player 2:
    moving first is worth about one pylon of distance."""
    board = Board(state)
    handicap = board.distance(0) - board.distance(1)
    return "mirror" if handicap >= 2 else "keep"


def _position(view: Mapping[str, Any], rng: random.Random) -> tuple[PylonsState, random.Random]:
    """The position the view shows, and a generator for this move's tie-breaks.

    The registry hands every move of a game the same seeded generator, so the number of
    actions so far is mixed in: equal choices then vary from move to move, reproducibly."""
    state = PylonsState.from_view(view)
    if state.is_terminal():
        raise ValueError("The game is over: there is no move to choose.")
    return state, random.Random(f"{rng.random()}:{len(state.history)}")


def decide_random(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """A uniformly random legal action."""
    state, local = _position(view, rng)
    return state.sample_action(local).text()


def _decide(
    view: Mapping[str, Any],
    rng: random.Random,
    budget_s: float | None,
    iterations: int | None,
    hard: bool,
) -> str:
    started = time.perf_counter()
    state, local = _position(view, rng)
    if state.phase == CHOOSE:
        return _choose_board(state)
    budget = budget_s
    if hard and budget is None and iterations is None:
        budget = DEFAULT_BUDGET_S
    deadline = None if budget is None else started + BUDGET_SHARE * budget
    search = Search(Board(state), state.seat, local, deadline, iterations, rich=hard)
    last = state.order[-1] if state.order else -1
    cell = _pick_hard(search, last) if hard else _pick_normal(search, last)
    return f"place {NAMES[cell]}"


def decide_normal(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The candidate that leaves the best connection-distance difference, one move deep."""
    return _decide(view, rng, budget_s, iterations, hard=False)


def decide_hard(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """Two-move alpha-beta over candidate moves with the finer evaluation."""
    return _decide(view, rng, budget_s, iterations, hard=True)


GAME_NAME = "pylons"

register_agent(GAME_NAME, "random", decide_random, "random legal pylons")
register_agent(
    GAME_NAME, "normal", decide_normal, "greedy: shortens its own connection, lengthens yours"
)
register_agent(GAME_NAME, "hard", decide_hard, "searches its move and your best reply")
