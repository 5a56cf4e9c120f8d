"""Player statistics per game and server, summed up from the stored results.

Everything here is derived from the results table and nothing is stored, so a summary can
never disagree with the games it comes from. What a summary costs to make from nothing grows
with a server's history (every result read, every rating replayed: seconds at 100,000
finished games), so `Stats` keeps each game's summaries on each server (a `Tally`) and
carries them forward. Results are only ever added, in finishing order, so what a server
finished since a summary was made is what comes after its last game in that order: those
games alone are summed up, on top of the kept ratings and records. The one exception is the
start-up backfill, which stores a game that finished before results were kept, dated by its
end: the count of results up to the kept summary's last game then no longer adds up, and
the summary is made afresh, a page of results at a time in a thread beside the event loop.
A summary handed out never changes: carrying one forward copies the records it changes.
People have their line in `GameSummary.players`; AI seats are rated players too (see
`hvbot.services.ratings`), one per level in `GameSummary.ais`, but cannot hold a server's best
score, which is meant to honour a person. A game rated per table size (its manifest's
`rated_by_player_count`) has one summary per size played.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

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

    def add(self, row: ResultRow, *, scored: bool = True) -> None:
        """One more finished game; its score counts for `best` only if `scored` (see
        `counts_as_score`)."""
        self.name = row.display_name if self.level is None else self.level
        self.played += 1
        self.wins += row.won
        if scored:
            self.best = row.score if self.best is None else max(self.best, row.score)


def counts_as_score(row: ResultRow, seats: Sequence[ResultRow]) -> bool:
    """Whether a seat's score is one its player reached, to count for a best score: not
    when they left early (they rank last, as the ratings have it: what the board showed
    then was no final count, and an AI may have played the rest), nor in a game stopped by
    a forfeit (everyone's score stored as 0: a game stopped early has no final count)."""
    if row.left_early:
        return False
    forfeit = any(s.left_early for s in seats) and all(s.score == 0 for s in seats)
    return not forfeit


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
    carrying = Tally.new(game).carrying()
    carrying.add(rows)
    return list(carrying.done().summaries)


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
    part = _Part(GameSummary(game, players_at=players), Ratings(prior(known)), fresh=None)
    for _, grouped in itertools.groupby(rows, key=_game_of):
        seats = list(grouped)
        if players is None or table_size(seats) == players:
            part.add(seats)
    return part.summary


@dataclass
class _Part:
    """One summary being made: its record and the ratings replayed so far, game by game.

    `fresh`: the players whose record this replay made or copied itself, free to change;
    the others' (`PlayerStats` of a summary already handed out) are copied before they
    change (None: every record is this replay's own)."""

    summary: GameSummary
    ratings: Ratings[int | AiLevel]
    fresh: set[int | AiLevel] | None

    @classmethod
    def going_on_from(cls, summary: GameSummary, ratings: Ratings[int | AiLevel]) -> _Part:
        """A replay that carries `summary` forward without changing it or anything in it."""
        copied = replace(summary, players=dict(summary.players), ais=dict(summary.ais))
        return cls(copied, ratings.copy(), set())

    def add(self, seats: Sequence[ResultRow]) -> None:
        """Sum up one more finished game (its seats)."""
        summary = self.summary
        summary.finished += 1
        table = [self._placing(row, counts_as_score(row, seats)) for row in seats]
        for player in self.ratings.rate(table):
            stats = self._stats_of(player)
            rating = self.ratings.ratings[player]
            stats.rating = rating
            stats.history.append((seats[0].finished_at, rating.shown))

    def _placing(self, row: ResultRow, scored: bool) -> Placing[int | AiLevel]:
        """The seat as the rating sees it, its record added to its player's: a person; an AI
        level (a seat an AI held from the start); or nobody (a seat a moderator took, whose
        AI played only its end). Its score counts for the best ones only if `scored`."""
        summary = self.summary
        player: int | AiLevel | None = None
        if row.user_id is not None:
            player = row.user_id
            self._stats_of(player).add(row, scored=scored)
            if scored and (summary.best is None or row.score > summary.best):
                summary.best, summary.best_by = row.score, row.user_id
        elif row.ai_level is not None and not row.left_early:
            player = AiLevel(row.ai_level)
            self._stats_of(player).add(row, scored=scored)
        return Placing(player, row.won, row.score, row.left_early)

    def _stats_of(self, player: int | AiLevel) -> PlayerStats:
        """The player's record in this summary, theirs to change (see `fresh`)."""
        if isinstance(player, AiLevel):
            lines: dict[Any, PlayerStats] = self.summary.ais
            key: int | str = player.level
            new = PlayerStats(AI_USER_ID, player.level, level=player.level)
        else:
            lines, key = self.summary.players, player
            new = PlayerStats(player, "")
        found = lines.get(key)
        if self.fresh is None:
            if found is None:
                found = lines[key] = new
            return found
        if player not in self.fresh:
            self.fresh.add(player)
            found = new if found is None else replace(found, history=list(found.history))
            lines[key] = found
        assert found is not None
        return found


ResultKey = tuple[str, int]  # (finished_at, game_id): where a game's results are in order


@dataclass(frozen=True)
class Tally:
    """A game's summaries on one server (`summarise_all`) with what they were made of: the
    ratings as they stand, how many results (seats) they summed up and the last game's
    place in finishing order. Results are added in finishing order, so the summaries are
    carried forward by summing up only the games finished after `last` (see `carrying`).

    Never changed once made: a summary handed to a reader stays as it was, and carrying it
    forward makes new ones (copying only the records the new games change)."""

    game: str
    levels: tuple[str, ...]  # the game's AI levels, weakest first
    by_size: bool  # rated per table size (its manifest's `rated_by_player_count`)
    parts: Mapping[int | None, tuple[GameSummary, Ratings[int | AiLevel]]]
    seats: int = 0
    last: ResultKey | None = None
    summaries: tuple[GameSummary, ...] = ()

    @classmethod
    def new(cls, game: str, levels: Sequence[str] | None = None) -> Tally:
        """Nothing summed up yet: the start of a full recompute. `levels` as in `summarise`."""
        known = tuple(ai_levels(game) if levels is None else levels)
        by_size = rated_by_player_count(game)
        parts: dict[int | None, tuple[GameSummary, Ratings[int | AiLevel]]] = {}
        if not by_size:
            parts[None] = (GameSummary(game), Ratings(prior(known)))
        return cls(game, known, by_size, parts, summaries=_in_order(parts))

    def carrying(self) -> Carrying:
        """A replay that goes on from here; this tally stays as it is."""
        return Carrying(self)


def _in_order(
    parts: Mapping[int | None, tuple[GameSummary, Ratings[int | AiLevel]]],
) -> tuple[GameSummary, ...]:
    return tuple(parts[size][0] for size in sorted(parts, key=lambda size: size or 0))


class Carrying:
    """A tally being carried forward: games added in finishing order (`add`, any number of
    times), then `done` makes the new tally. Nothing any reader holds changes meanwhile."""

    def __init__(self, start: Tally) -> None:
        self.start = start
        self._parts: dict[int | None, _Part] = {}
        self.seats = start.seats
        self.last = start.last

    def add(self, rows: Sequence[ResultRow]) -> None:
        """Sum up the games of `rows` (whole games' seats, in finishing order, all finished
        after those summed up so far)."""
        start = self.start
        for _, grouped in itertools.groupby(rows, key=_game_of):
            seats = list(grouped)
            size = table_size(seats) if start.by_size else None
            part = self._parts.get(size)
            if part is None:
                kept = start.parts.get(size)
                if kept is None:
                    summary = GameSummary(start.game, players_at=size)
                    part = _Part(summary, Ratings(prior(start.levels)), set())
                else:
                    part = _Part.going_on_from(*kept)
                self._parts[size] = part
            part.add(seats)
            self.seats += len(seats)
            self.last = (seats[0].finished_at, seats[0].game_id)

    def done(self) -> Tally:
        """The tally with every game added."""
        parts = dict(self.start.parts)
        for size, part in self._parts.items():
            parts[size] = (part.summary, part.ratings)
        return replace(
            self.start, parts=parts, seats=self.seats, last=self.last, summaries=_in_order(parts)
        )


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
PAGE_SEATS = 4_000  # results read and summed up at a time in a full recompute
ON_THE_LOOP_SEATS = 64  # fewer new results than this are summed up at once, without a thread


class Stats:
    """/stats: what a server's finished games say of its players, each summary kept and
    carried forward by the games the server finished since (see the module's docstring).
    Callers only read the summaries they are given."""

    def __init__(
        self,
        store: GameStore,
        *,
        most_kept: int = KEPT_SUMMARIES,
        page_seats: int = PAGE_SEATS,
    ) -> None:
        self.store = store
        self.most_kept = most_kept
        self.page_seats = page_seats
        # (server, game) -> its tally, stamped with the count of results it summed up
        self._kept: Kept[tuple[int, str], int, Tally] = Kept(most_kept)

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
        finished no game of it since; else those kept carried forward by the games finished
        since; else, when the kept ones are no longer true (a result filled in before their
        last game) or none are kept, summed up afresh. Either way kept for the next call."""
        key = (guild_id, game)
        count = await self.store.results.count_of_kind(guild_id=guild_id, game=game)
        kept = self._kept.latest(key)
        if kept is not None and kept.seats == count:
            return kept.summaries
        if kept is None or not await self._still_true(guild_id, kept):
            kept = Tally.new(game)
        made = await self._carried(guild_id, kept)
        # Kept under the results it summed up: one finished since it read them is summed up
        # at the next call, not hidden.
        self._kept.keep(key, made.seats, made)
        return made.summaries

    async def _still_true(self, guild_id: int, tally: Tally) -> bool:
        """Whether the results up to the tally's last game are still those it summed up
        (none filled in before it since)."""
        if tally.last is None:
            return tally.seats == 0
        count = await self.store.results.count_through(
            guild_id=guild_id, game=tally.game, last=tally.last
        )
        return count == tally.seats

    async def _carried(self, guild_id: int, tally: Tally) -> Tally:
        """The tally carried forward by every game the store holds after its last."""

        async def read(last: ResultKey | None, limit: int) -> list[ResultRow]:
            return await self.store.results.after(
                guild_id=guild_id, game=tally.game, last=last, limit=limit
            )

        return await carried(tally, read, page_seats=self.page_seats)

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


def _whole_games(rows: list[ResultRow], *, full: bool) -> list[ResultRow]:
    """The seats of a page of results without its last game if the page is `full` (the
    next page may hold the rest of its seats: it is read again from the game before)."""
    if not full:
        return rows
    cut = len(rows)
    while cut and rows[cut - 1].game_id == rows[-1].game_id:
        cut -= 1
    if not cut:
        raise ValueError(f"a page of {len(rows)} results holds less than one game")
    return rows[:cut]


PageReader = Callable[[ResultKey | None, int], Awaitable[list[ResultRow]]]


async def carried(tally: Tally, read: PageReader, *, page_seats: int = PAGE_SEATS) -> Tally:
    """`tally` carried forward by every game after its last, read `page_seats` results at
    a time (`read(last, limit)`: as `Results.after`). A page is summed up in a thread,
    beside the event loop, and only one page of results is held at a time: the event loop
    waits no longer than the interpreter takes to switch threads (the ratings benchmark
    measures it). The game or two finished since the last call are summed up at once (tens
    of microseconds each)."""
    carrying = tally.carrying()
    last = tally.last
    while True:
        rows = await read(last, page_seats)
        whole = _whole_games(rows, full=len(rows) == page_seats)
        if len(whole) < ON_THE_LOOP_SEATS:
            carrying.add(whole)
        else:
            await asyncio.to_thread(carrying.add, whole)
        if len(rows) < page_seats:
            return carrying.done()
        last = (whole[-1].finished_at, whole[-1].game_id)
