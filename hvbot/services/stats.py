"""Player statistics per game and server, summed up from the stored results.

Everything here is derived from the results table and nothing is stored, so a summary can
never disagree with the games it comes from. What a summary costs grows with a server's
history (every result read, every rating replayed: about a second at 10,000 finished games),
so `Stats` keeps the last summary of each game on each server and makes it again, in a thread
off the event loop, only once that server has finished another game of it. Results are only
ever added, never changed or removed, so the number of a server's results of one game tells
whether its summary is still true: one cheap count (over the index the results are read by)
instead of keeping every process's copies in step as games finish, wherever they finish.
People have their line in `GameSummary.players`; AI seats are rated players too (see
`hvbot.services.ratings`), one per level in `GameSummary.ais`, but cannot hold a server's best
score, which is meant to honour a person. A game rated per table size (its manifest's
`rated_by_player_count`) has one summary per size played.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engine.ai import levels as ai_levels
from hvbot.infra.kept import Kept
from hvbot.plugins import rated_by_player_count
from hvbot.services.ratings import AiLevel, Placing, Rating, Ratings, prior
from hvbot.services.seasons import Season
from hvbot.store import GameStore, ResultRow
from hvbot.store.sql import stamp

AI_USER_ID = 0  # an AI level's `PlayerStats.user_id`: no Discord user has it


@dataclass
class PlayerStats:
    """One person's (or one AI level's) record in one game on one server."""

    user_id: int  # `AI_USER_ID` for an AI level
    name: str  # the name they had in their latest game (an AI: its level)
    played: int = 0
    wins: int = 0
    best: int | None = None
    rating: Rating | None = None  # None until they finish a game against another player
    # (finished_at, shown rating after that game): one per rated game, oldest first
    history: list[tuple[str, int]] = field(default_factory=list)
    level: str | None = None  # an AI seat's level; None for a person

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    def add(self, row: ResultRow) -> None:
        self.name = row.display_name if self.level is None else self.level
        self.played += 1
        self.wins += row.won
        self.best = row.score if self.best is None else max(self.best, row.score)


@dataclass
class GameSummary:
    """One game's record on one server (at one table size, for a game rated per size)."""

    game: str
    finished: int = 0
    best: int | None = None  # the highest score a person reached
    best_by: int | None = None  # the first person to reach it
    players: dict[int, PlayerStats] = field(default_factory=dict)
    ais: dict[str, PlayerStats] = field(default_factory=dict)  # AI seats by level
    players_at: int | None = None  # the table size, for a game rated per size

    def top(self, count: int) -> list[PlayerStats]:
        """The best people: rated ones by shown rating, then the rest by wins and games
        played."""
        return sorted(self.players.values(), key=_rank)[:count]

    def ai_lines(self) -> list[PlayerStats]:
        """The AI levels that played here, strongest first."""
        return sorted(self.ais.values(), key=_rank)


def _rank(p: PlayerStats) -> tuple[bool, float, int, int, str]:
    rating = p.rating.conservative if p.rating else 0.0
    return (p.rating is None, -rating, -p.wins, -p.played, p.name)


def table_size(seats: Sequence[ResultRow]) -> int:
    """How many played at a finished game's table (every seat, AI seats too)."""
    return len(seats)


def summarise_all(game: str, rows: Sequence[ResultRow]) -> list[GameSummary]:
    """A game's summaries: one, or one per table size played (smallest first) for a game
    rated per size (its manifest's `rated_by_player_count`)."""
    if not rated_by_player_count(game):
        return [summarise(game, rows)]
    sizes = {table_size(list(seats)) for _, seats in itertools.groupby(rows, _game_of)}
    return [summarise(game, rows, players=size) for size in sorted(sizes)]


def _game_of(row: ResultRow) -> int:
    return row.game_id


def summarise(
    game: str,
    rows: Sequence[ResultRow],
    *,
    players: int | None = None,
    levels: Sequence[str] | None = None,
) -> GameSummary:
    """Sum up one game's results, given in finishing order (as `GameStore.results.of_kind`
    gives them): only its tables of `players` seats, if given. `levels`: the game's AI
    levels, weakest first (default: as registered), for the AIs' starting ratings."""
    known = ai_levels(game) if levels is None else list(levels)
    summary = GameSummary(game, players_at=players)
    ratings: Ratings[int | AiLevel] = Ratings(prior(known))
    for _, grouped in itertools.groupby(rows, key=lambda r: r.game_id):
        seats = list(grouped)
        if players is not None and table_size(seats) != players:
            continue
        summary.finished += 1
        table: list[Placing[int | AiLevel]] = []
        for row in seats:
            table.append(_placing(summary, row))
        for player in ratings.rate(table):
            stats = _stats_of(summary, player)
            rating = ratings.ratings[player]
            stats.rating = rating
            stats.history.append((seats[0].finished_at, rating.shown))
    return summary


def _placing(summary: GameSummary, row: ResultRow) -> Placing[int | AiLevel]:
    """The seat as the rating sees it, its record added to its player's: a person; an AI
    level (a seat an AI held from the start); or nobody (a seat a moderator took, whose AI
    played only its end)."""
    player: int | AiLevel | None = None
    if row.user_id is not None:
        player = row.user_id
        person = summary.players.setdefault(row.user_id, PlayerStats(row.user_id, ""))
        person.add(row)
        if summary.best is None or row.score > summary.best:
            summary.best, summary.best_by = row.score, row.user_id
    elif row.ai_level is not None and not row.left_early:
        player = AiLevel(row.ai_level)
        _stats_of(summary, player).add(row)
    return Placing(player, row.won, row.score, row.left_early)


def _stats_of(summary: GameSummary, player: int | AiLevel) -> PlayerStats:
    if isinstance(player, AiLevel):
        level = player.level
        return summary.ais.setdefault(level, PlayerStats(AI_USER_ID, level, level=level))
    return summary.players[player]


async def summaries(
    repo: GameStore, *, guild_id: int, user_id: int | None = None, game: str | None = None
) -> list[GameSummary]:
    """The summaries of every game finished on a server (only those the person played, if
    `user_id` is given; only `game`, if given), in the order of their names (then of table
    sizes, for a game rated per size)."""
    names = await repo.results.kinds_played(guild_id=guild_id, user_id=user_id)
    if game is not None:
        names = [n for n in names if n == game]
    found = []
    for name in names:
        found += summarise_all(name, await repo.results.of_kind(guild_id=guild_id, game=name))
    return _played_by(found, user_id)


def _played_by(found: list[GameSummary], user_id: int | None) -> list[GameSummary]:
    """Those of `found` that `user_id` played (all, if None): a person who played a game at
    one table size only has no line in its other sizes' summaries."""
    return [s for s in found if user_id is None or user_id in s.players]


@dataclass(frozen=True)
class Habits:
    """How one person plays one game on one server, beside their results: the median time
    they take to move (None before any move of theirs was timed) and how many of their games
    of it were abandoned once started."""

    median_move_s: float | None = None
    abandoned: int = 0


def median_moves(stamps: Sequence[tuple[str, str, str]]) -> dict[str, float]:
    """The median seconds between the move before and the person's move, by game, from
    (game, stamp before, stamp of the move) as `GameStore.habits.move_stamps` gives them.

    The median, not the mean: one move left overnight would otherwise outweigh a hundred
    made in a minute."""
    gaps: dict[str, list[float]] = {}
    for game, before, after in stamps:
        seconds = (datetime.fromisoformat(after) - datetime.fromisoformat(before)).total_seconds()
        gaps.setdefault(game, []).append(seconds)
    return {game: statistics.median(each) for game, each in gaps.items()}


KEPT_SUMMARIES = 512  # (server, game) summaries kept, the least recently read going first


class Stats:
    """/stats: what a server's finished games say of its players, each summary kept until
    the server finishes another game of its kind (see the module's docstring). Callers only
    read the summaries they are given."""

    def __init__(self, store: GameStore, *, most_kept: int = KEPT_SUMMARIES) -> None:
        self.store = store
        self.most_kept = most_kept
        # (server, game) -> its summaries, stamped with the count of results they summed up
        self._kept: Kept[tuple[int, str], int, tuple[GameSummary, ...]] = Kept(most_kept)

    async def summaries(
        self, *, guild_id: int, user_id: int | None = None, game: str | None = None
    ) -> list[GameSummary]:
        """As `summaries`, from the summaries kept while they are still true."""
        names = await self.store.results.kinds_played(guild_id=guild_id, user_id=user_id)
        if game is not None:
            names = [n for n in names if n == game]
        found: list[GameSummary] = []
        for name in names:
            found += await self.of_game(guild_id=guild_id, game=name)
        return _played_by(found, user_id)

    async def summary(self, *, guild_id: int, game: str) -> GameSummary:
        """One game's summary on one server (for a game rated per table size, its largest
        size played): see `of_game`."""
        return (await self.of_game(guild_id=guild_id, game=game))[-1]

    async def of_game(self, *, guild_id: int, game: str) -> tuple[GameSummary, ...]:
        """One game's summaries on one server (`summarise_all`): those kept if the server has
        finished no game of it since, else summed up again (in a thread) and kept."""
        key = (guild_id, game)
        count = await self.store.results.count_of_kind(guild_id=guild_id, game=game)
        kept = self._kept.get(key, count)
        if kept is not None:
            return kept
        rows = await self.store.results.of_kind(guild_id=guild_id, game=game)
        made = tuple(await asyncio.to_thread(summarise_all, game, rows))
        # Kept under the results they were made of: one finished since the count is summed
        # up again at the next call, not hidden.
        self._kept.keep(key, len(rows), made)
        return made

    async def habits(
        self, *, guild_id: int, user_id: int, season: Season | None = None
    ) -> dict[str, Habits]:
        """How the person plays each game they sat in on the server (see `Habits`): in all
        time, or in `season` only (its moves, its abandoned games). The median is worked out
        in a thread: a regular has tens of thousands of moves."""
        window = (stamp(season.starts), stamp(season.ends)) if season is not None else None
        habits = self.store.habits
        stamps = await habits.move_stamps(guild_id=guild_id, user_id=user_id, window=window)
        medians = await asyncio.to_thread(median_moves, stamps)
        abandoned = await habits.abandoned(guild_id=guild_id, user_id=user_id, window=window)
        return {
            game: Habits(medians.get(game), abandoned.get(game, 0))
            for game in sorted({*medians, *abandoned})
        }

    async def games_played(self, *, guild_id: int) -> list[str]:
        """The games anyone finished on the server, by name."""
        return await self.store.results.kinds_played(guild_id=guild_id)
