"""The one store of games: the database behind it, a lock per game, the games in memory.

The database is the only source of truth for a game; memory is a cache checked by version.
Every change to a game's position or seats is one transaction that compares and bumps the
game's version (a compare-and-set), so two processes, or two clicks, can never both apply an
action to the same old state: the second fails with `VersionConflict`, its copy in memory is
dropped, and the following read fetches the game afresh. Changes are made under the game's
`lock`, so within one process they follow one another.

A game played in a thread (`thread_id`) is found from its channel and from its thread alike.
The SQL lives by concern in the modules next to this one. A change to a game is built there
(`hvbot.store.changes`, as a `Write`) and run by `GameStore.write`, which keeps the game's row
and engine state in memory in step with what it committed (`hvbot.store.cache`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from engine import State
from engine.registry import find_game
from hvbot.database import Database, Duplicate, Row, Transaction, Work, open_database
from hvbot.store import games, requests
from hvbot.store.buttons import LiveButtons
from hvbot.store.cache import GameCache
from hvbot.store.changes import Write
from hvbot.store.clocks import Clocks
from hvbot.store.duties import Clock, Duties, Owed, real_time
from hvbot.store.follows import Follows
from hvbot.store.habits import Habits
from hvbot.store.identify import IdentifySlots
from hvbot.store.notify import Notify
from hvbot.store.rematches import Rematches
from hvbot.store.replays import Replays
from hvbot.store.requests import AbsenceVotes, UndoRequests
from hvbot.store.results import Results
from hvbot.store.rows import ArchivedGame, GameRow
from hvbot.store.seasons import SeasonEnds
from hvbot.store.server_settings import ServerSettingsTable
from hvbot.store.sql import ChannelBusy, indexed_by, stamp, statement
from hvbot.store.time_away import TimeAway
from hvbot.store.tournaments import TournamentTable
from hvbot.store.waits import Reminders

T = TypeVar("T")
# How long a request waiting for the table's answers keeps another from being asked.
REQUEST_HOLDS = timedelta(minutes=30)


class NotStarted(LookupError):
    """The game is in its lobby: it has no engine state yet."""


class GameStore:
    """The games' database (SQLite or PostgreSQL, see `hvbot.database`), opened at start-up and
    shared by every handler. Its other tables are reached by concern: `undo`, `votes`,
    `reminders`, `clocks`, `results`, `habits`, `buttons`, and the duties any process may do
    (`duties`: the outbox and the AI seats' claims). Leases are measured by `clock`."""

    def __init__(self, db: Database, *, cache: bool = True, clock: Clock = real_time) -> None:
        self.db = db
        self.clock = clock
        # Other processes may change games behind this one's back (see `game`).
        self.shared = db.backend == "postgresql"
        self.cache = GameCache(enabled=cache, watch=db.watch)
        if db.watch is not None:
            db.watch.subscribe(self.cache)
        # The lock of each game someone holds or waits for, with how many do (see `lock`).
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self.undo = UndoRequests(db, lambda: self.clock())
        self.votes = AbsenceVotes(db, lambda: self.clock())
        self.reminders = Reminders(db)
        self.results = Results(db)
        self.habits = Habits(db)
        self.buttons = LiveButtons(db)
        self.duties = Duties(db, lambda: self.clock())
        self.clocks = Clocks(db, self.cache.changed, self.cache.forget)
        self.time_away = TimeAway(db, self.cache.forget)
        self.notify = Notify(db)
        self.follows = Follows(db)
        self.server_settings = ServerSettingsTable(db)
        self.seasons = SeasonEnds(db)  # seasons that ended, and results by season
        self.replays = Replays(db)
        self.identify = IdentifySlots(db)
        self.rematches = Rematches(db)
        self.tournaments = TournamentTable(db)  # tournaments, their entrants, rounds, tables

    @classmethod
    async def open(cls, where: str | Path, *, cache: bool = True, wait_s: float = 0.0) -> GameStore:
        """The database at a URL (`sqlite:///...`, `postgresql://...`) or a SQLite file's path,
        migrated. `cache=False` for a reader that watches games another process is changing;
        `wait_s`: how long to wait for a PostgreSQL server that does not answer yet."""
        return cls(await open_database(where, wait_s=wait_s), cache=cache)

    async def close(self, *, grace_s: float = 5.0) -> None:
        """Close once the changes already under way are saved (for at most `grace_s`): a move
        acknowledged just before shutdown is stored, not lost with the connection."""
        if self.db.watch is not None:
            self.db.watch.unsubscribe(self.cache)
        await self.db.close(grace_s=grace_s)

    async def migrate(self) -> int:
        """Apply every numbered migration not applied yet, in order; return the schema version."""
        return await self.db.migrate()

    async def schema_version(self) -> int:
        return await self.db.fetchval("SELECT MAX(version) FROM schema_version") or 0

    async def open_counts(self, shard_count: int) -> dict[tuple[str, str, int], int]:
        """Lobbies and games in play by (game, status, shard of their server), for the
        operators' metrics: a server's shard is its id's top bits (`>> 22`) modulo the count,
        direct messages shard 0's."""
        # Counted in the index that holds every column read (see `indexed_by`): every few
        # seconds, through the index of every game by status, each open game's row was read.
        rows = await self.db.fetch(
            "SELECT game, status, (COALESCE(guild_id, 0) / 4194304) % ? AS shard,"
            f" COUNT(*) AS n FROM games{indexed_by(self.db, 'games_open_counted')}"
            " WHERE status IN ('lobby', 'active')"
            " GROUP BY 1, 2, 3",
            shard_count,
        )
        return {(r["game"], r["status"], int(r["shard"])): r["n"] for r in rows}

    @contextlib.asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Held while a game is read and changed, so one process applies one change at a time.

        A game's lock is kept while someone holds it or waits for it, and dropped when the
        last lets go: kept for every game ever played, each (with the queue of its waiters,
        once anyone had to wait) cost the bot's process about a kB a game for good, and three
        objects more for every full collection to walk."""
        found = self._locks.get(game_id)
        if found is None:
            found = self._locks[game_id] = (asyncio.Lock(), [0])
        lock, users = found
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[game_id]

    def forget(self, game_id: int) -> None:
        """Drop a game's copy in memory, e.g. after another process changed it."""
        self.cache.forget(game_id)

    # ------------------------------------------------------------------ games

    async def game(self, *, game_id: int, fresh: bool = False) -> GameRow | None:
        """The game, from memory if it is there. `fresh`: about to change it, so when other
        processes share the database (PostgreSQL), the copy in memory must be the stored one:
        a stale copy would refuse a good click as out of date, or fail its compare-and-set.
        It is known to be while the database's watch hears no newer version of it (see
        `GameCache.current`); else it is checked against the stored version (one small read),
        and read again if another process changed it."""
        cached = self.cache.row(game_id)
        if cached is not None:
            if not (fresh and self.shared) or self.cache.current(game_id):
                return cached
            since = self.cache.writes
            if await games.version_of(self.db, game_id) == cached.version:
                self.cache.confirmed(game_id, since=since)
                return cached
            self.cache.forget(game_id)
        since = self.cache.writes
        row = await games.by_id(self.db, game_id)
        return await self._read(row, since=since) if row is not None else None

    async def open_game_in_channel(self, *, channel_id: int) -> GameRow | None:
        """The open game of a channel, or of a thread a game is played in (`channel_id` is
        then the thread's id). A game played in a thread is not its channel's: the channel
        may hold another (see `games_in_threads`)."""
        cached = self.cache.in_channel(channel_id)
        if cached is not None:
            return cached
        since = self.cache.writes
        row = await games.open_in_channel(self.db, channel_id)
        return await self._read(row, since=since) if row is not None else None

    async def games_in_threads(self, *, channel_id: int) -> list[GameRow]:
        """The open games of a channel played in threads of it, oldest first."""
        since = self.cache.writes
        return await self._read_all(
            await games.open_in_threads_of(self.db, channel_id), since=since
        )

    async def games_beside(self, *, channel_id: int) -> list[GameRow]:
        """The open games of a channel that are not its own, oldest first: those played in
        threads of it, and tournament tables played in it without a thread."""
        since = self.cache.writes
        return await self._read_all(await games.open_beside(self.db, channel_id), since=since)

    async def open_games(self) -> list[GameRow]:
        """Every game in a lobby or in play: what the bot reloads at start-up."""
        since = self.cache.writes
        return await self._read_all(await games.all_open(self.db), since=since)

    async def expired_lobbies(self, *, now: datetime, most: int) -> list[GameRow]:
        """Lobbies whose day has passed without a start (the first `most`)."""
        since = self.cache.writes
        rows = await games.expired_lobbies(self.db, stamp(now), most)
        return await self._read_all(rows, since=since)

    async def room_for_lobby(
        self, *, guild_id: int | None, user_id: int, channel_id: int
    ) -> tuple[int, bool, int]:
        """In one read (see `games.room_for_lobby`): how many open games `user_id` opened in
        the server (0 outside one), whether the channel has an open game (of its own, or of
        the thread it is), and how many open games are played in threads of it."""
        opened, here, in_threads = await games.room_for_lobby(
            self.db, guild_id, user_id, channel_id
        )
        busy = here is not None or self.cache.in_channel(channel_id) is not None
        return opened, busy, in_threads

    async def open_games_of(self, *, guild_id: int, user_id: int, most: int) -> list[GameRow]:
        """A person's open games in one server (the first `most`), oldest first."""
        since = self.cache.writes
        rows = await games.open_of_person(self.db, guild_id, user_id, most)
        return await self._read_all(rows, since=since)

    async def finished_games_without_results(self) -> list[GameRow]:
        """Games that finished before results were stored (or whose results were lost)."""
        since = self.cache.writes
        return await self._read_all(await games.finished_without_results(self.db), since=since)

    async def finished_games(
        self, *, channel_id: int, game_id: int | None = None, limit: int = 25
    ) -> list[ArchivedGame]:
        """The channel's finished games, latest first (only `game_id`, if given): what
        /game replay offers."""
        since = self.cache.writes
        rows = await games.finished_in_channel(self.db, channel_id, game_id, limit)
        return [ArchivedGame(await self._read(r, since=since), r["ended_at"]) for r in rows]

    async def actions(self, *, game_id: int) -> list[tuple[int, str]]:
        return await games.actions(self.db, game_id)

    async def request_waiting(self, *, game_id: int, version: int) -> bool:
        """Whether an undo, an abandon or a takeover vote waits for answers about this
        version of the game, opened less than `REQUEST_HOLDS` ago: one nobody answers (a
        voter gone too) gives way to a new one then, which voids it."""
        since = self.clock() - REQUEST_HOLDS
        return await requests.waiting(self.db, game_id, version, since)

    async def last_action(self, *, game_id: int) -> tuple[int, int, str] | None:
        """(number, seat, text) of the game's latest stored action, if any."""
        return await games.last_action(self.db, game_id)

    async def open_prompts(self, *, game_id: int) -> list[dict[str, Any]]:
        return await games.open_prompts(self.db, game_id)

    async def _read(self, row: Row, *, since: int) -> GameRow:
        """A game read from the database, kept in memory unless a change was committed since
        the read began (`since`: the cache's count of writes then)."""
        return self.cache.read(await games.game_of(self.db, row), since=since)

    async def _read_all(self, rows: list[Row], *, since: int) -> list[GameRow]:
        return [self.cache.read(await games.game_of(self.db, r), since=since) for r in rows]

    # ------------------------------------------------------------------ engine states

    def peek_state(self, game: GameRow) -> State:
        """The game's engine state for reading only: kept with the game's row for its version,
        built from the saved form if it is not. Never change what this returns."""
        kept = self.cache.state(game)
        if kept is not None:
            return kept
        saved = game.state
        if saved is None:
            raise NotStarted(f"game {game.id} has not started")
        built = find_game(game.game_name).state_from_dict(saved)
        self.cache.keep_state(game, built)
        return built

    def load_state(self, game: GameRow) -> State:
        """The game's state, the caller's to change (to apply an action to, say)."""
        return self.peek_state(game).copy()

    # ------------------------------------------------------------------ changing games

    async def write(self, change: Write[T]) -> T:
        """Run one change to a game (built by `hvbot.store.changes`, which names the game);
        its copy in memory then follows (the columns the change set, and the engine state it
        saved), row and state together. If the change fails, the copy is dropped: a failed
        compare-and-set means the game changed elsewhere. Returns the work's value (the posts
        it owes, say)."""
        began = self.cache.session()
        try:
            value = await self.db.transact(change.work)
        except BaseException:
            self.cache.forget(change.game_id)
            raise
        self.cache.changed(change.game_id, change.state, began=began, **change.columns)
        return value

    async def create(self, lobby: Work[int]) -> GameRow:
        """Make a new game (`changes.create_lobby`) and return it as stored. Not a `write`:
        there is no game yet for a copy in memory to follow (it is read once made), and the
        one way it fails on its own, the database's Duplicate, means here that the channel
        (or thread) has an open game already: ChannelBusy. It fails with TooManyOpen if its
        creator has as many open games as they may (counted in its transaction)."""

        async def made(tx: Transaction) -> GameRow:
            # Read back in the same transaction: on SQLite one trip to the database thread
            # instead of three (the change, then the game's row, then its seats).
            game_id = await lobby(tx)
            row = await tx.fetchrow("SELECT * FROM games WHERE id = ?", game_id)
            if row is None:
                raise LookupError(f"game {game_id} vanished as it was made")
            return games.game_from(row, games.seats_from(await tx.fetch(games.SEATS, game_id)))

        since = self.cache.writes
        try:
            game = await self.db.transact(made)
        except Duplicate as exc:
            raise ChannelBusy(str(exc)) from exc
        self.rematches.made_ordinary(game.id)
        return self.cache.read(game, since=since)

    async def create_rematch(
        self, rematch: Work[tuple[int, list[Owed]]]
    ) -> tuple[GameRow, list[Owed]]:
        """Make a finished game's rematch (`rematches.open_rematch`): its lobby as stored,
        and what it owes. Fails as `create` does; a Duplicate (ChannelBusy here) may also
        be the rematch asked for already, which the caller tells apart."""
        try:
            game_id, owed = await self.db.transact(rematch)
        except Duplicate as exc:
            raise ChannelBusy(str(exc)) from exc
        made = await self.game(game_id=game_id)
        if made is None:
            raise LookupError(f"game {game_id} vanished as it was made")
        return made, owed

    # Not versioned changes: they move no piece, and a prompt made before stays as valid.

    async def set_lobby_message(self, *, game_id: int, message_id: int) -> None:
        work = statement("UPDATE games SET lobby_message_id = ? WHERE id = ?", message_id, game_id)
        await self.write(Write(game_id, work, {"lobby_message_id": message_id}))

    async def set_thread(self, *, game_id: int, thread_id: int) -> None:
        """The thread the game is played in from now on (nothing else ever sets it)."""
        work = statement("UPDATE games SET thread_id = ? WHERE id = ?", thread_id, game_id)
        await self.write(Write(game_id, work, {"thread_id": thread_id}))

    async def set_seat_language(self, *, game_id: int, seat: int, language: str) -> None:
        """The language a seat's person uses now. Callers write only when it changed."""
        work = statement(
            "UPDATE seats SET language = ? WHERE game_id = ? AND seat = ?",
            language,
            game_id,
            seat,
        )
        await self.write(Write(game_id, work))
        cached = self.cache.row(game_id)
        if cached is not None:
            seats = tuple(
                replace(s, language=language) if s.seat == seat else s for s in cached.seats
            )
            self.cache.changed(game_id, seats=seats)
