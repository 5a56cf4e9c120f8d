"""Player statistics per game and server, summed up from the stored results.

Everything here is derived from the results table and nothing is stored, so a summary can
never disagree with the games it comes from. What a summary costs grows with a server's
history (every result read, every rating replayed: most of a second at 10,000 finished games),
so `Stats` keeps the last summary of each game on each server and makes it again, in a thread
off the event loop, only once that server has finished another game of it. Results are only
ever added, never changed or removed, so the number of a server's results of one game tells
whether its summary is still true: one cheap count (over the index the results are read by)
instead of keeping every process's copies in step as games finish, wherever they finish.
Only people appear in the
summaries; AI seats count as opponents (their games count as played) but get no line of their
own and cannot hold a server's best score, which is meant to honour a person.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from hvbot.infra.kept import Kept
from hvbot.services.ratings import Placing, Rating, rate_game
from hvbot.store import GameStore, ResultRow


@dataclass
class PlayerStats:
    """One person's record in one game on one server."""

    user_id: int
    name: str  # the name they had in their latest game
    played: int = 0
    wins: int = 0
    best: int | None = None
    rating: Rating | None = None  # None until they finish a game against another person
    # (finished_at, rating shown after that game): one per rated game, oldest first, for the
    # chart of /stats me and a leaderboard's trend
    history: list[tuple[str, int]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    def add(self, row: ResultRow) -> None:
        self.name = row.display_name
        self.played += 1
        self.wins += row.won
        self.best = row.score if self.best is None else max(self.best, row.score)


@dataclass
class GameSummary:
    """One game's record on one server."""

    game: str
    finished: int = 0
    best: int | None = None  # the highest score a person reached
    best_by: int | None = None  # the first person to reach it
    players: dict[int, PlayerStats] = field(default_factory=dict)

    def top(self, count: int) -> list[PlayerStats]:
        """The best players: rated ones by rating, then the rest by wins and games played."""

        def rank(p: PlayerStats) -> tuple[int, float, int, int, str]:
            rated = p.rating is not None
            return (not rated, -(p.rating.value if p.rating else 0.0), -p.wins, -p.played, p.name)

        return sorted(self.players.values(), key=rank)[:count]


def summarise(game: str, rows: Sequence[ResultRow]) -> GameSummary:
    """Sum up one game's results, given in finishing order (as
    `GameStore.results.of_kind` gives them)."""
    summary = GameSummary(game)
    ratings: dict[int, float] = {}
    rated: dict[int, int] = {}
    for _, seats in itertools.groupby(rows, key=lambda r: r.game_id):
        seated = list(seats)
        people = [r for r in seated if r.user_id is not None]
        summary.finished += 1
        table: list[Placing[int]] = []
        for row in people:
            assert row.user_id is not None
            player = summary.players.setdefault(row.user_id, PlayerStats(row.user_id, ""))
            player.add(row)
            if summary.best is None or row.score > summary.best:
                summary.best, summary.best_by = row.score, row.user_id
            table.append(Placing(row.user_id, row.won))
        if len(table) < 2:
            continue  # as `rate_games`: a game with fewer than two people rates no one
        ratings.update(rate_game(ratings, table))
        for placing in table:
            rated[placing.player] = rated.get(placing.player, 0) + 1
            rating = Rating(ratings[placing.player], rated[placing.player])
            player = summary.players[placing.player]
            player.rating = rating
            player.history.append((seated[0].finished_at, rating.shown))
    return summary


async def summaries(
    repo: GameStore, *, guild_id: int, user_id: int | None = None, game: str | None = None
) -> list[GameSummary]:
    """The summaries of every game finished on a server (only those the person played, if
    `user_id` is given; only `game`, if given), in the order of their names."""
    names = await repo.results.kinds_played(guild_id=guild_id, user_id=user_id)
    if game is not None:
        names = [n for n in names if n == game]
    return [summarise(n, await repo.results.of_kind(guild_id=guild_id, game=n)) for n in names]


KEPT_SUMMARIES = 512  # (server, game) summaries kept, the least recently read going first


class Stats:
    """/stats: what a server's finished games say of its players, each summary kept until
    the server finishes another game of its kind (see the module's docstring). Callers only
    read the summaries they are given."""

    def __init__(self, store: GameStore, *, most_kept: int = KEPT_SUMMARIES) -> None:
        self.store = store
        self.most_kept = most_kept
        # (server, game) -> its summary, stamped with the count of results it summed up
        self._kept: Kept[tuple[int, str], int, GameSummary] = Kept(most_kept)

    async def summaries(
        self, *, guild_id: int, user_id: int | None = None, game: str | None = None
    ) -> list[GameSummary]:
        """As `summaries`, from the summaries kept while they are still true."""
        names = await self.store.results.kinds_played(guild_id=guild_id, user_id=user_id)
        if game is not None:
            names = [n for n in names if n == game]
        return [await self.summary(guild_id=guild_id, game=name) for name in names]

    async def summary(self, *, guild_id: int, game: str) -> GameSummary:
        """One game's summary on one server: the one kept if the server has finished no game
        of it since, else summed up again (in a thread) and kept."""
        key = (guild_id, game)
        count = await self.store.results.count_of_kind(guild_id=guild_id, game=game)
        kept = self._kept.get(key, count)
        if kept is not None:
            return kept
        rows = await self.store.results.of_kind(guild_id=guild_id, game=game)
        summary = await asyncio.to_thread(summarise, game, rows)
        # Kept under the results it was made of: one finished since the count is summed up
        # again at the next call, not hidden.
        self._kept.keep(key, len(rows), summary)
        return summary

    async def games_played(self, *, guild_id: int) -> list[str]:
        """The games anyone finished on the server, by name."""
        return await self.store.results.kinds_played(guild_id=guild_id)
