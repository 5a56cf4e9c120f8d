"""How the Sector 6 computer players choose a competition turn: greedy (`normal`) and a
bounded look-ahead (`hard`), both on `ai_position.Position` and its `evaluate_position`.

The look-ahead is an alpha-beta search over whole turns, each seat in turn picking the turn
best for itself by the same measure (against one opponent that is exactly the turn worst for
us; with more, a pessimistic guess that keeps the search small). It deepens one turn at a
time: depth 1 is the greedy choice, depth 2 adds every reply of the next seat, and so on.
Beyond the first reply only the most promising turns of each seat are followed (`WIDTH`),
ordered by their one-turn score, so a deeper search stays affordable. Each position scored
spends one unit of the `Budget`; when it runs out the result of the last complete depth is
kept.
"""

from __future__ import annotations

import random
import time

from engine.sector6.ai_position import Position, Turn, evaluate_position

INF = float("inf")
MAX_DEPTH = 8  # turns; the budget runs out long before in a real game
ROOT_WIDTH = 12  # own turns searched beyond the first reply at the root
WIDTH = 6  # turns followed at every deeper node


class OutOfBudget(Exception):
    """The search has used its time or its scorings; the caller keeps what it has."""


class Budget:
    """Counts position scorings against an optional cap and an optional deadline."""

    def __init__(self, deadline: float | None, iterations: int | None) -> None:
        self.deadline = deadline
        self.left = iterations
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise OutOfBudget
        if (
            self.deadline is not None
            and self.used % 16 == 0
            and time.perf_counter() > self.deadline
        ):
            raise OutOfBudget


Scored = tuple[float, float, Turn, Position]


def scored_turns(
    position: Position,
    turns: list[Turn],
    seat: int,
    rng: random.Random,
    budget: Budget | None = None,
) -> list[Scored]:
    """Every turn with the score for `seat` of the position it leads to, best first (ties in
    random order), and that position."""
    out = []
    for turn in turns:
        after = position.copy()
        after.play(turn)
        if budget is not None:
            budget.spend()
        out.append((evaluate_position(after, seat), rng.random(), turn, after))
    out.sort(key=lambda item: (-item[0], item[1]))
    return out


def greedy_turn(position: Position, turns: list[Turn], rng: random.Random) -> Turn:
    """The turn that scores best for the seat to move, one turn deep."""
    return scored_turns(position, turns, position.seat, rng)[0][2]


def _search(
    position: Position,
    me: int,
    depth: int,
    alpha: float,
    beta: float,
    budget: Budget,
    rng: random.Random,
) -> float:
    """The value for `me` of `position` (not over) with `depth` more turns looked at."""
    mover = position.seat
    kids = scored_turns(position, position.turns(), mover, rng, budget)
    if depth == 1:
        value, _, _, after = kids[0]
        if mover == me:
            return value
        if position.seats == 2 and not after.over:
            return -value  # with two seats the measure is zero-sum
        return evaluate_position(after, me)
    mine = mover == me
    best = -INF if mine else INF
    for _, _, _, after in kids[:WIDTH]:
        if after.over:
            value = evaluate_position(after, me)
        else:
            value = _search(after, me, depth - 1, alpha, beta, budget, rng)
        if mine:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def search_turn(
    position: Position, turns: list[Turn], rng: random.Random, budget: Budget
) -> tuple[Turn, int]:
    """The hard player's turn and the depth (in turns) it was chosen at."""
    me = position.seat
    ranked = scored_turns(position, turns, me, rng)
    best = ranked[0][2]
    if len(ranked) == 1:
        return best, 1
    depth = 1
    order = ranked[:ROOT_WIDTH]
    for deeper in range(2, MAX_DEPTH + 1):
        values: list[Scored] = []
        alpha = -INF
        try:
            for value, tie, turn, after in order:
                if not after.over:
                    value = _search(after, me, deeper - 1, alpha, INF, budget, rng)
                values.append((value, tie, turn, after))
                alpha = max(alpha, value)
        except OutOfBudget:
            # The previous best is searched first: a turn that beat it at this depth is
            # better founded than the previous depth's choice.
            if values:
                best = max(values, key=lambda item: (item[0], -item[1]))[2]
            break
        values.sort(key=lambda item: (-item[0], item[1]))
        order = values
        best, depth = values[0][2], deeper
        if all(after.over for *_, after in order):
            break
    return best, depth


__all__ = ["Budget", "OutOfBudget", "greedy_turn", "scored_turns", "search_turn"]
