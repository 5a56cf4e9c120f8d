"""How the Sector 6 computer players choose a competition turn: greedy (`normal`) and a
look-ahead by play-outs (`hard`), both on `position.Position` and its `evaluate_position`.

The look-ahead takes the best turns by the greedy measure and plays each out: a round of
replies first (every seat answering with its own greedy turn, itself included once the
round comes back), then deeper rounds while the budget lasts, and plays the turn whose
outcome scores best. Greedy replies are what a `normal` opponent plays and a fair guess at
what a person grabs; following them deep (up to five rounds) shows what a turn starts, a
race for the markers or a clock run out, which a wide but shallow search does not see for
the same work (measured: a two-seat alpha-beta over whole turns did no better against
`normal` and cost more). Each position scored spends one unit of the `Budget`; when it runs
out, the result of the last complete round is kept.
"""

from __future__ import annotations

import random
import time

from games.sector6.ai.position import Position, Turn, evaluate_position

CANDIDATES = 8  # the best greedy turns that are played out
MAX_ROUNDS = 5  # rounds of replies looked ahead at most


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


def _play_out(
    position: Position, me: int, replies: int, budget: Budget, rng: random.Random
) -> float:
    """Let the next `replies` turns be played greedily, then score the position for `me`."""
    for _ in range(replies):
        if position.over:
            break
        position = scored_turns(position, position.turns(), position.seat, rng, budget)[0][3]
    budget.spend()
    return evaluate_position(position, me)


def search_turn(
    position: Position, turns: list[Turn], rng: random.Random, budget: Budget
) -> tuple[Turn, int]:
    """The hard player's turn and the depth (in rounds) it was chosen at (0: greedy)."""
    me = position.seat
    ranked = scored_turns(position, turns, me, rng)
    best = ranked[0][2]
    if len(ranked) == 1:
        return best, 0
    candidates = ranked[:CANDIDATES]
    depth = 0
    try:
        for rounds in range(1, MAX_ROUNDS + 1):
            replies = rounds * position.seats - 1
            values = []
            for value, tie, turn, after in candidates:
                if not after.over:
                    value = _play_out(after, me, replies, budget, rng)
                values.append((value, tie, turn))
            values.sort(key=lambda item: (-item[0], item[1]))
            best, depth = values[0][2], rounds
            if all(after.over for *_, after in candidates):
                break
    except OutOfBudget:
        pass
    return best, depth


__all__ = ["Budget", "OutOfBudget", "greedy_turn", "scored_turns", "search_turn"]
