"""Elo ratings per game, computed afresh from finished games in the order they finished.

The scheme is plain Elo (start 1000, K 32), the one most players already know from chess. A game
of three or more people counts as a pairwise result between every two of them: a winner beats
each non-winner, and two winners (a shared win) or two non-winners draw. Each pair weighs
K / (people at the table - 1), so one game moves a rating by at most K whatever the table size;
otherwise winning a four-player game would be worth three two-player wins. All updates of a game
use the ratings from before it, so the order of the seats does not matter.

AI seats are left out. Their strength differs per game and per level and was never measured;
a fixed guess would reward people who beat an easy AI a hundred times and punish those who lose
to a hard one, whereas a rating is meant to compare people. Games against AI seats still count
for games played, wins and best scores. A game with fewer than two people changes no rating.

Nothing is stored: ratings are a pure function of the results, so fixing a result or the
scheme later needs no migration, and the same results always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

START = 1000.0
K = 32.0
SCALE = 400.0  # a 400-point gap means the stronger side is expected to score 10 to 1

# Whatever names a person (a Discord user id, for the bot): the ratings are keyed by it.
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class Placing(Generic[Player]):
    """One person's end of one game, as the rating sees it."""

    player: Player
    won: bool


@dataclass(frozen=True)
class Rating:
    value: float
    games: int  # games against other people that changed it

    @property
    def shown(self) -> int:
        """What players read: whole points."""
        return round(self.value)


def expected(rating: float, opponent: float) -> float:
    """The share of a point `rating` is expected to take from `opponent` (0 to 1)."""
    odds: float = 10.0 ** ((opponent - rating) / SCALE)  # a float to a float power is a float
    return 1.0 / (1.0 + odds)


def pair_score(won: bool, opponent_won: bool) -> float:
    """1 for beating the opponent, 0 for losing to them, 0.5 when both or neither won."""
    if won == opponent_won:
        return 0.5
    return 1.0 if won else 0.0


def rate_game(
    ratings: Mapping[Player, float], table: Sequence[Placing[Player]]
) -> dict[Player, float]:
    """The new ratings of the people at `table` after one game (others are not returned)."""
    before = {p.player: ratings.get(p.player, START) for p in table}
    if len(table) < 2:
        return before
    weight = K / (len(table) - 1)
    after = dict(before)
    for me in table:
        for other in table:
            if other.player == me.player:
                continue
            chance = expected(before[me.player], before[other.player])
            after[me.player] += weight * (pair_score(me.won, other.won) - chance)
    return after


def rate_games(games: Iterable[Sequence[Placing[Player]]]) -> dict[Player, Rating]:
    """Replay games in finishing order: each person's rating and number of rated games."""
    ratings: dict[Player, float] = {}
    counts: dict[Player, int] = {}
    for table in games:
        if len(table) < 2:
            continue
        ratings.update(rate_game(ratings, table))
        for placing in table:
            counts[placing.player] = counts.get(placing.player, 0) + 1
    return {player: Rating(ratings[player], counts[player]) for player in ratings}
