"""Computer players for Pylons, deciding from a view alone; registered with `engine.ai`.

    from engine.ai import choose
    choose(state.view(seat), level="normal", seed=7)  # -> "place K12"

Levels:
- `random`: a uniformly random legal action (the level every game shares,
  `engine.ai.decide_random`).
- `easy`: the same random player, under the name every game gives its weakest level, so
  that a lobby offers easy, normal and hard in every game.
- `normal`: two moves deep over a few candidates. The heart is a connection distance: how
  many more pylons a player needs to link their two borders, a 0-1 shortest path over knight
  steps where an own pylon costs nothing, an empty usable cell costs one, and a step is
  allowed only if no link on the board crosses it (such a link can never be built; see
  `games.pylons.rules.reach`). A position is worth "opponent's distance minus own distance", with
  equal differences told apart by how many cells lie on each side's shortest connections
  (more cells, more ways round a block). Each candidate is searched against the opponent's
  best reply (alpha-beta). One move deep was not enough: a player judging only its own next
  pylon builds separate groups, counts the gaps between them as nearly free and never sees
  that a racing opponent's next pylon cuts them, so it lost about three games in ten to a
  player that only races (`games.pylons.ai.reference.runner`).
- `hard`: the same two-move search over more candidates, then deeper and deeper (four moves,
  then six) for as long as its budget lasts: `budget_s` seconds (default 1.5) or `iterations`
  evaluations, whichever the caller gives (`iterations` alone makes it deterministic, for
  tests and benchmarks). What makes the deeper searches pay is how each node picks its few
  moves: every candidate is first judged by the board right after it (one evaluation each,
  the distances the search needs anyway), and only the best few are searched further, best
  first, so alpha-beta cuts most of the tree. A search cut short keeps the best move whose
  search was finished. Four moves deep, hard sees a double threat coming (a pylon that
  opens two ways to finish, of which the opponent can close only one) and the block that
  stops one, which two moves deep cannot; it won about nine games in ten against `normal`,
  against two in three for the wider two-move search it replaces.

Pylons has no secrets, so a view holds the whole position and the players are fair by
construction; they still read only the view, like every other seat. Candidate moves are the
cells on a shortest connection of either player (found from a search from each border) plus
the cells round the opponent's last pylon, ranked so that cells serving both purposes come
first: trying every free cell would cost far more for little gain.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from engine.ai import decide_random, register_agent
from games.pylons.rules.board import CELLS, COL, LAST, NAMES, NEIGHBOURS, ROW, SIZE
from games.pylons.rules.reach import FAR, Board, cells_of
from games.pylons.rules.state import CHOOSE, PylonsState

DEFAULT_BUDGET_S = 1.5
WIN = 10_000  # a won position's value: beyond any distance difference

# (moves tried at the root of the search, replies tried for each of them) per level
NORMAL_WIDTHS = (8, 10)
HARD_WIDTHS = (20, 10)
# hard's deeper searches: the root moves searched again (the best of the shallower search),
# the candidates judged at an inner node, how many of those are searched further, and the
# replies judged at the last move of the line
HARD_ROOT, HARD_POOL, HARD_KEEP, HARD_LEAVES = 12, 16, 6, 16
HARD_DEPTHS = (4, 6)  # searched in turn after the two-move search, while the budget lasts
BUDGET_SHARE = 0.9  # of the budget spent searching; the rest is room to answer in time

_CENTRE = tuple(abs(2 * COL[c] - LAST) + abs(2 * ROW[c] - LAST) for c in range(CELLS))


# The cells within two rows and two columns of each cell, as a set: round a last pylon.
_AROUND = tuple(
    sum(
        1 << (j * SIZE + i)
        for j in range(max(0, ROW[c] - 2), min(SIZE, ROW[c] + 3))
        for i in range(max(0, COL[c] - 2), min(SIZE, COL[c] + 3))
    )
    for c in range(CELLS)
)


class OutOfBudget(Exception):
    """The search has used its time or its evaluations; the caller keeps what it has."""


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
        replies: int = HARD_WIDTHS[1],
    ) -> None:
        self.replies = replies
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

        Equal differences are told apart by how many cells lie on each side's shortest
        connections: more of them means more ways round a block. The share is below one
        half, so it never outweighs a whole pylon of distance."""
        board = self.board
        theirs, their_cells = board.on_shortest_bits(1 - seat)
        if theirs == 0:
            return -WIN
        _, my_cells = board.on_shortest_bits(seat)
        ways, their_ways = my_cells.bit_count(), their_cells.bit_count()
        return theirs - mine + 0.45 * (ways - their_ways) / (ways + their_ways + 1)

    def candidates(self, seat: int, near: int, limit: int) -> list[int]:
        """Promising cells for `seat`: on a shortest connection of either player, or round
        the opponent's last pylon; cells doing both first, then towards the centre."""
        board = self.board
        _, mine = board.on_shortest_bits(seat)
        _, theirs = board.on_shortest_bits(1 - seat)
        around = _AROUND[near] if near >= 0 else 0
        legal = board.open_bits[seat] & ~board.mine[0] & ~board.mine[1]
        pool = cells_of((mine | theirs | around) & legal) or cells_of(legal)
        own = seat + 1
        owner = board.owner

        def prior(c: int) -> float:
            linked = any(owner[n] == own for n, _ in NEIGHBOURS[c])
            m, t = mine >> c & 1, theirs >> c & 1
            return (
                3 * (m & t)
                + 2 * t
                + 2 * m
                + (around >> c & 1)
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
        cells = self.candidates(seat, last, self.replies)
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

    def deep(self, seat: int, depth: int, alpha: float, beta: float, last: int) -> float:
        """Alpha-beta `depth` moves deep (at least 2) for `seat`, the side to move.

        Every candidate is judged by the board right after it and only the best `HARD_KEEP`
        are searched further, best first: a few strong moves searched deep instead of many
        searched shallow, and with the best first, alpha-beta cuts most of the rest."""
        board = self.board
        cells = self.candidates(seat, last, HARD_POOL)
        if not cells:
            return self.value(seat)
        order = self.one_ply(seat, cells)
        if order[0][0] >= WIN:
            return WIN + depth
        best = -float("inf")
        for _, c in order[:HARD_KEEP]:
            made = board.place(c, seat)
            try:
                if depth == 2:
                    value = -self.reply(1 - seat, -max(alpha, best), c)
                else:
                    value = -self.deep(1 - seat, depth - 1, -beta, -max(alpha, best), c)
            finally:
                board.undo(c, made)
            if value > best:
                best = value
                if best >= beta:
                    break
        return best

    def reply(self, seat: int, beta: float, last: int) -> float:
        """The last move of a deep line: the best of `HARD_LEAVES` candidates for `seat` by
        the board right after each; one that reaches `beta` ends the search."""
        board = self.board
        cells = self.candidates(seat, last, HARD_LEAVES)
        if not cells:
            return self.value(seat)
        best = -float("inf")
        for c in cells:
            made = board.place(c, seat)
            try:
                self.spend()
                mine = board.distance(seat)
                value = WIN + 1 if mine == 0 else self.rest(seat, mine)
            finally:
                board.undo(c, made)
            if value > best:
                best = value
                if best >= beta:
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


def _two_ply(search: Search, last: int, width: int) -> int:
    """The best move two moves deep (see `_two_ply_values`)."""
    best, done = _two_ply_values(search, last, width)
    return max(done)[1] if done else best


def _two_ply_values(search: Search, last: int, width: int) -> tuple[int, list[tuple[float, int]]]:
    """Two moves deep: `width` candidates ordered by their one-move value, then each searched
    against the opponent's replies (alpha-beta: a reply that already refutes a move ends its
    search).

    Deeper searches (three or four moves, iteratively deepened within the budget) measured
    clearly weaker against this one: with a handful of candidates a node, the deeper leaves
    miss the opponent's real answers more often than they find new ideas. A search cut short
    keeps the best move whose replies were all searched, and every move after the first was
    searched against the best one found before it, so that is sound.

    Returns the move to fall back on and the moves whose search was finished, with their
    values (a winning move alone, if there is one)."""
    seat = search.seat
    cells = search.candidates(seat, last, width)
    best = cells[0]
    try:
        order = search.one_ply(seat, cells)
    except OutOfBudget:
        return best, []
    best = order[0][1]
    if order[0][0] >= WIN:
        return best, [order[0]]
    done: list[tuple[float, int]] = []
    try:
        alpha = -float("inf")
        for _, c in order:
            value = search.after(seat, c, 2, alpha) + search.noise[c]
            done.append((value, c))
            alpha = max(alpha, value)
    except OutOfBudget:
        pass
    return best, done


def _deepening(search: Search, last: int) -> int:
    """`hard`: the two-move search over `HARD_WIDTHS`, then each of `HARD_DEPTHS` in turn over
    the best `HARD_ROOT` moves of the search before, best first, until the budget runs out.

    Wider two-move searches gained little against `normal`; four moves deep, each node
    searching only its few best moves by the board right after them (`Search.deep`), won
    about nine games in ten. A deeper search cut short keeps the best of its finished moves:
    the first of them is the shallower search's choice, and each later one was searched
    against the best before it, so its value is exact when it is better."""
    seat, board = search.seat, search.board
    best, done = _two_ply_values(search, last, HARD_WIDTHS[0])
    if not done:
        return best
    done.sort(reverse=True)
    for depth in HARD_DEPTHS:
        if done[0][0] >= WIN:
            break
        deeper: list[tuple[float, int]] = []
        alpha = -float("inf")
        try:
            for _, c in done[:HARD_ROOT]:
                made = board.place(c, seat)
                try:
                    value = -search.deep(1 - seat, depth - 1, -float("inf"), -alpha, c)
                finally:
                    board.undo(c, made)
                deeper.append((value + search.noise[c], c))
                alpha = max(alpha, deeper[-1][0])
        except OutOfBudget:
            return max(deeper)[1] if deeper else done[0][1]
        done = sorted(deeper, reverse=True)
    return done[0][1]


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
    width, replies = HARD_WIDTHS if hard else NORMAL_WIDTHS
    search = Search(Board(state), state.seat, local, deadline, iterations, replies=replies)
    last = state.order[-1] if state.order else -1
    cell = _deepening(search, last) if hard else _two_ply(search, last, width)
    return f"place {NAMES[cell]}"


def decide_normal(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The candidate that stands best against the opponent's best reply, among a few."""
    return _decide(view, rng, budget_s, iterations, hard=False)


def decide_hard(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The move that stands best searched as deep as the budget allows (four moves, then six),
    each node weighing its few best moves."""
    return _decide(view, rng, budget_s, iterations, hard=True)


GAME_NAME = "pylons"

register_agent(GAME_NAME, "random", decide_random, "random legal pylons")
register_agent(GAME_NAME, "easy", decide_random, "random legal pylons, as random")
register_agent(
    GAME_NAME, "normal", decide_normal, "weighs a few moves against your best reply to each"
)
register_agent(
    GAME_NAME, "hard", decide_hard, "looks up to six moves ahead, against your best replies"
)

__all__ = ["FAR", "Board", "decide_hard", "decide_normal"]
