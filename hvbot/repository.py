"""Every SQL statement of the bot, behind keyword-only methods.

The database is the only source of truth for a game; memory is a cache. Every change to a game
is one transaction that compares and bumps the game's version, so two processes (or two clicks)
can never both apply an action to the same old state. Keeping all SQL here is what lets another
database replace SQLite by configuration later.

Open games are kept in memory as they were last read or written, so a move costs no read at
all: under load every round trip to the database thread waits its turn on a busy event loop.
A copy that another process made stale is harmless: the next write fails its compare-and-set,
the copy is dropped, and the following read fetches the game afresh.

A game played in a thread (`thread_id`) is found from its channel and from its thread alike:
both ids map to it in memory, and both are looked up in the database.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from hvbot import claims
from hvbot.database import Database, Duplicate, Row, Transaction, Work, open_database

OPEN_STATUSES = ("lobby", "active")
T = TypeVar("T")


class VersionConflict(Exception):
    """The game changed since it was read; the caller reloads and tries again or reports."""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    display_name: str
    away_user_id: int | None = None  # the person an AI stands in for until they return
    language: str | None = None  # the person's language as last seen (None: an AI seat)

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    creator_id: int
    status: str
    seed: int | None
    options: dict[str, Any]
    # Kept as stored: a few kB of text cost less memory than the decoded dict, and the engine
    # decodes it in well under a millisecond when a move needs it.
    state_json: str | None
    version: int
    lobby_message_id: int | None
    seats: tuple[SeatRow, ...]
    remind_minutes: int | None = None  # None: the person to move is never reminded
    absent_hours: int | None = None  # None: no votes to replace a person who is away
    wants_thread: bool = False  # asked at /game new for a thread to play in
    thread_id: int | None = None  # the thread its public posts go to, once started
    language: str = "en"  # of its public posts: the server's when the game was opened

    @property
    def post_channel_id(self) -> int:
        """Where the game's public posts go: its thread if it has one, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine state as saved (a fresh dict on every call: callers may change it)."""
        return json.loads(self.state_json) if self.state_json is not None else None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def people_but(self, user_id: int | None) -> list[int]:
        """The people seated here other than `user_id` (AI seats are nobody's)."""
        return [s.user_id for s in self.seats if s.user_id is not None and s.user_id != user_id]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass(frozen=True)
class SeatResult:
    """How one seat ended a finished game: what the service hands over with the last move."""

    seat: int
    score: int
    won: bool


@dataclass(frozen=True)
class ResultRow:
    """One seat of one finished game as stored for statistics (public facts only)."""

    game_id: int
    seat: int
    game: str
    guild_id: int | None
    user_id: int | None
    display_name: str
    score: int
    won: bool
    finished_at: str

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game and when it ended (ISO 8601, UTC), for choosing one to look back at."""

    game: GameRow
    ended_at: str | None


def _now() -> str:
    return _stamp(datetime.now(UTC))


def _stamp(moment: datetime) -> str:
    """UTC ISO text: stamps in this form compare correctly as strings in SQL."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class UndoRequest:
    """A request to take back action number `n` of a game at `version`."""

    id: int
    game_id: int
    version: int
    n: int
    requester_id: int
    action: str
    asked: tuple[int, ...]
    accepted: tuple[int, ...]
    status: str
    message_id: int | None

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(u for u in self.asked if u not in self.accepted)


@dataclass(frozen=True)
class AbsenceVote:
    """The others' vote on a seat whose person is away: "ai" plays for them, or "end"."""

    id: int
    game_id: int
    version: int
    seat: int
    asked: tuple[int, ...]
    votes: dict[int, str]
    status: str


@dataclass(frozen=True)
class Wait:
    """A person's turn: since when they have been waiting and when to remind them (None: this
    game does not remind)."""

    since: datetime
    remind_at: datetime | None


@dataclass(frozen=True)
class DueReminder:
    """A game whose person to move is due a reminder (as stored: `due` is the claim key)."""

    game_id: int
    due: str
    turn_since: datetime | None


class Repository:
    """The games' database (SQLite or PostgreSQL, see `hvbot.database`), opened at start-up and
    shared by every handler."""

    def __init__(self, db: Database, *, cache: bool = True) -> None:
        self.db = db
        # Other processes may change games behind this one's back (see `game`).
        self.shared = db.backend == "postgresql"
        self._cache = cache
        self._open: dict[int, GameRow] = {}  # open games by id, as last read or written
        self._writes = 0  # changes committed so far: a read that overlaps one is not kept
        self._by_channel: dict[int, int] = {}  # channel id -> id of its open game

    @classmethod
    async def open(cls, where: str | Path, *, cache: bool = True) -> Repository:
        """The database at a URL (`sqlite:///...`, `postgresql://...`) or a SQLite file's path,
        migrated. `cache=False` for a reader that watches games another process is changing."""
        return cls(await open_database(where), cache=cache)

    async def close(self, *, grace_s: float = 5.0) -> None:
        """Close once the changes already under way are saved (for at most `grace_s`): a move
        acknowledged just before shutdown is stored, not lost with the connection."""
        await self.db.close(grace_s=grace_s)

    async def _write(self, work: Work[T]) -> T:
        """Run `work` as one transaction: its value, or what it raised, with nothing kept."""
        return await self.db.transact(work)

    async def _change(self, game_id: int, work: Work[T]) -> T:
        """A change to one game; if it fails, the game's copy in memory is dropped, since a
        failed compare-and-set means another process changed the game."""
        try:
            return await self._write(work)
        except BaseException:
            self.forget(game_id)
            raise

    async def migrate(self) -> int:
        """Apply every numbered migration not applied yet, in order; return the schema version."""
        return await self.db.migrate()

    async def schema_version(self) -> int:
        return await self.db.fetchval("SELECT MAX(version) FROM schema_version") or 0

    # ------------------------------------------------------------------ reading

    async def _seats(self, game_id: int) -> tuple[SeatRow, ...]:
        rows = await self.db.fetch(
            "SELECT seat, user_id, ai_level, display_name, away_user_id, language FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            game_id,
        )
        return tuple(
            SeatRow(
                r["seat"],
                r["user_id"],
                r["ai_level"],
                r["display_name"],
                r["away_user_id"],
                r["language"],
            )
            for r in rows
        )

    async def _row(self, row: Row | None, *, writes: int) -> GameRow | None:
        """A game read from the database; kept in memory only if no change was committed
        since the read began (`writes`), as the row might predate it."""
        if row is None:
            return None
        game = GameRow(
            id=row["id"],
            game=row["game"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            creator_id=row["creator_id"],
            status=row["status"],
            seed=row["seed"],
            options=json.loads(row["options"]),
            state_json=row["state"] or None,
            version=row["version"],
            lobby_message_id=row["lobby_message_id"],
            seats=await self._seats(row["id"]),
            remind_minutes=row["remind_minutes"],
            absent_hours=row["absent_hours"],
            wants_thread=bool(row["wants_thread"]),
            thread_id=row["thread_id"],
            language=row["language"],
        )
        return self._remember(game) if writes == self._writes else game

    def _remember(self, game: GameRow) -> GameRow:
        """Keep an open game in memory (and forget one that has ended)."""
        if game.is_open and self._cache:
            self._open[game.id] = game
            self._by_channel[game.channel_id] = game.id
            if game.thread_id is not None:
                self._by_channel[game.thread_id] = game.id
        else:
            self.forget(game.id)
        return game

    def _changed(self, game_id: int, **changes: Any) -> None:
        """Apply a committed write to the game's copy in memory, if there is one."""
        self._writes += 1
        cached = self._open.get(game_id)
        if cached is not None:
            self._remember(dataclasses.replace(cached, **changes))

    def forget(self, game_id: int) -> None:
        """Drop a game's copy in memory, e.g. after another process changed it."""
        self._writes += 1
        cached = self._open.pop(game_id, None)
        if cached is None:
            return
        for channel_id in (cached.channel_id, cached.thread_id):
            if channel_id is not None and self._by_channel.get(channel_id) == game_id:
                del self._by_channel[channel_id]

    async def game(self, *, game_id: int, fresh: bool = False) -> GameRow | None:
        """The game, from memory if it is there. `fresh`: about to change it, so when other
        processes share the database (PostgreSQL), the copy in memory is checked against the
        stored version first (one small read), and read again if another process changed it:
        a stale copy would refuse a good click as out of date, or fail its compare-and-set."""
        cached = self._open.get(game_id)
        if cached is not None:
            if not (fresh and self.shared):
                return cached
            stored = await self.db.fetchval("SELECT version FROM games WHERE id = ?", game_id)
            if stored == cached.version:
                return cached
            self.forget(game_id)
        writes = self._writes
        row = await self.db.fetchrow("SELECT * FROM games WHERE id = ?", game_id)
        return await self._row(row, writes=writes)

    async def _existing(self, game_id: int) -> GameRow:
        """A game this process has just written."""
        found = await self.game(game_id=game_id)
        if found is None:
            raise LookupError(f"game {game_id} vanished as it was made")
        return found

    async def open_game_in_channel(self, *, channel_id: int) -> GameRow | None:
        """The open game of a channel, or of a thread a game is played in (`channel_id` is
        then the thread's id)."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None:
            return self._open[game_id]
        writes = self._writes
        row = await self.db.fetchrow(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?)"
            " AND status IN ('lobby', 'active') ORDER BY id LIMIT 1",
            channel_id,
            channel_id,
        )
        return await self._row(row, writes=writes)

    async def open_games(self) -> list[GameRow]:
        """Every game in a lobby or in play: what the bot reloads at start-up."""
        writes = self._writes
        rows = await self.db.fetch(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [g for g in [await self._row(r, writes=writes) for r in rows] if g is not None]

    async def actions(self, *, game_id: int) -> list[tuple[int, str]]:
        rows = await self.db.fetch(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n", game_id
        )
        return [(r["seat"], r["action"]) for r in rows]

    async def finished_games_without_results(self) -> list[GameRow]:
        """Games that finished before results were stored (or whose results were lost)."""
        writes = self._writes
        rows = await self.db.fetch(
            "SELECT * FROM games WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id) ORDER BY id"
        )
        return [g for g in [await self._row(r, writes=writes) for r in rows] if g is not None]

    async def games_with_results(self, *, guild_id: int, user_id: int | None = None) -> list[str]:
        """The kinds of game finished on a server (by one person, if given), by name."""
        if user_id is None:
            sql, values = "SELECT DISTINCT game FROM results WHERE guild_id = ?", (guild_id,)
        else:
            sql = "SELECT DISTINCT game FROM results WHERE user_id = ? AND guild_id = ?"
            values = (user_id, guild_id)
        return [r["game"] for r in await self.db.fetch(sql + " ORDER BY game", *values)]

    async def results(self, *, guild_id: int, game: str) -> list[ResultRow]:
        """Every seat of one kind of game finished on a server, in finishing order: ratings
        replay them in this order, so ties are broken by game id to keep it the same always."""
        rows = await self.db.fetch(
            "SELECT * FROM results WHERE guild_id = ? AND game = ?"
            " ORDER BY finished_at, game_id, seat",
            guild_id,
            game,
        )
        return [
            ResultRow(
                game_id=r["game_id"],
                seat=r["seat"],
                game=r["game"],
                guild_id=r["guild_id"],
                user_id=r["user_id"],
                display_name=r["display_name"],
                score=r["score"],
                won=bool(r["won"]),
                finished_at=r["finished_at"],
            )
            for r in rows
        ]

    async def finished_games(
        self, *, channel_id: int, game_id: int | None = None, limit: int = 25
    ) -> list[ArchivedGame]:
        """The channel's finished games, latest first (only `game_id`, if given): what
        /game replay offers. Games of one channel are played one after another, so the
        latest created is the latest finished. In a game's thread: that game."""
        only = " AND id = ?" if game_id is not None else ""
        values = (channel_id, channel_id, *(() if game_id is None else (game_id,)), limit)
        writes = self._writes
        rows = await self.db.fetch(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) AND status = 'finished'"
            f"{only} ORDER BY id DESC LIMIT ?",
            *values,
        )
        found = []
        for row in rows:
            game = await self._row(row, writes=writes)
            if game is not None:
                found.append(ArchivedGame(game, row["ended_at"]))
        return found

    async def open_prompts(self, *, game_id: int) -> list[dict[str, Any]]:
        rows = await self.db.fetch(
            "SELECT id, kind, user_id, version FROM prompts WHERE game_id = ? AND resolved = 0",
            game_id,
        )
        return [dict(r) for r in rows]

    # ------------------------------------------------------------------ writing

    async def create_lobby(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        options: dict[str, Any],
        remind_minutes: int | None = None,
        absent_hours: int | None = None,
        wants_thread: bool = False,
        language: str = "en",
        creator_language: str | None = None,
    ) -> GameRow:
        """`language`: the game's public posts'; `creator_language`: the creator's own."""
        now = _now()

        async def work(tx: Transaction) -> int:
            game_id: int = await tx.fetchval(
                "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
                " remind_minutes, absent_hours, wants_thread, language, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                game,
                guild_id,
                channel_id,
                creator_id,
                json.dumps(options),
                remind_minutes,
                absent_hours,
                int(wants_thread),
                language,
                now,
                now,
            )
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, language)"
                " VALUES (?, 0, ?, NULL, ?, ?)",
                game_id,
                creator_id,
                creator_name,
                creator_language,
            )
            return game_id

        try:
            game_id = await self._write(work)
        except Duplicate as exc:
            raise ChannelBusy(str(exc)) from exc
        return await self._existing(game_id)

    async def set_seats(
        self,
        *,
        game_id: int,
        expected_version: int,
        seats: Sequence[SeatRow],
        ai_turn: bool | None = None,
    ) -> None:
        """Replace the seats (join, leave, add AI; in play: resign, an AI for a person away)
        as one versioned change. `ai_turn`: whether an AI seat is to move now, if that changed."""

        async def work(tx: Transaction) -> None:
            if ai_turn is None:
                await _bump(tx, game_id, expected_version)
            else:
                await _bump(tx, game_id, expected_version, "ai_turn = ?", (int(ai_turn),))
            await _replace_seats(tx, game_id, seats)

        await self._change(game_id, work)
        self._changed(game_id, version=expected_version + 1, seats=tuple(seats))

    async def set_lobby_message(self, *, game_id: int, message_id: int) -> None:
        await self._change(
            game_id,
            _statement("UPDATE games SET lobby_message_id = ? WHERE id = ?", message_id, game_id),
        )
        self._changed(game_id, lobby_message_id=message_id)

    async def set_seat_language(self, *, game_id: int, seat: int, language: str) -> None:
        """The language a seat's person uses now (not a versioned change: it moves no piece,
        and a stale prompt stays exactly as valid). Callers write only when it changed."""
        await self._change(
            game_id,
            _statement(
                "UPDATE seats SET language = ? WHERE game_id = ? AND seat = ?",
                language,
                game_id,
                seat,
            ),
        )
        cached = self._open.get(game_id)
        if cached is None:
            self._writes += 1
            return
        seats = tuple(
            dataclasses.replace(s, language=language) if s.seat == seat else s for s in cached.seats
        )
        self._changed(game_id, seats=seats)

    async def set_thread(self, *, game_id: int, thread_id: int) -> None:
        """The thread the game is played in from now on (not a versioned change: it moves no
        piece, and nothing else ever sets it)."""
        await self._change(
            game_id, _statement("UPDATE games SET thread_id = ? WHERE id = ?", thread_id, game_id)
        )
        self._changed(game_id, thread_id=thread_id)

    # The board post whose buttons are live (not a versioned change either: it moves no piece).
    # Its buttons are for one version of the game; once the game has moved past it, they can
    # only be refused, and whichever process sees that first takes them off.

    async def keep_buttons(self, *, game_id: int, message_id: int, version: int) -> list[int]:
        """Remember `message_id`, a board post whose buttons are for `version`, as the one with
        live buttons. Returns the posts whose buttons must go: the one remembered before, or
        `message_id` itself if the game has moved past `version` already."""
        lock = " FOR UPDATE" if self.db.backend == "postgresql" else ""

        async def work(tx: Transaction) -> list[int]:
            row = await tx.fetchrow(
                f"SELECT version, buttons_message_id FROM games WHERE id = ?{lock}", game_id
            )
            if row is None or row["version"] > version:
                return [message_id]
            await tx.execute(
                "UPDATE games SET buttons_message_id = ?, buttons_version = ? WHERE id = ?",
                message_id,
                version,
                game_id,
            )
            before = row["buttons_message_id"]
            return [before] if before is not None and before != message_id else []

        return await self._write(work)

    async def drop_stale_buttons(self, *, game_id: int) -> int | None:
        """Forget the post with live buttons if the game has moved past their version; the
        post whose buttons must go (None: none, or another process took them off)."""
        row = await self.db.fetchrow(
            "SELECT buttons_message_id FROM games WHERE id = ? AND buttons_version < version",
            game_id,
        )
        if row is None or row["buttons_message_id"] is None:
            return None
        message_id: int = row["buttons_message_id"]
        changed = await self._write(
            _statement(
                "UPDATE games SET buttons_message_id = NULL, buttons_version = NULL"
                " WHERE id = ? AND buttons_message_id = ? AND buttons_version < version",
                game_id,
                message_id,
            )
        )
        return message_id if changed == 1 else None

    async def forget_buttons(self, *, game_id: int, message_id: int) -> None:
        """The post's buttons are off already (a click on one took them off)."""
        await self._write(
            _statement(
                "UPDATE games SET buttons_message_id = NULL, buttons_version = NULL"
                " WHERE id = ? AND buttons_message_id = ?",
                game_id,
                message_id,
            )
        )

    async def start(
        self,
        *,
        game_id: int,
        expected_version: int,
        seed: int,
        state: dict[str, Any],
        seats: Sequence[SeatRow],
        wait: Wait | None = None,
        ai_turn: bool = False,
    ) -> None:
        state_json = json.dumps(state)

        async def work(tx: Transaction) -> None:
            await _bump(
                tx,
                game_id,
                expected_version,
                "status = 'active', seed = ?, state = ?, ai_turn = ?, " + _TURN_COLUMNS,
                (seed, state_json, int(ai_turn), *_turn_values(wait)),
            )
            await _replace_seats(tx, game_id, seats)

        await self._change(game_id, work)
        self._changed(
            game_id,
            version=expected_version + 1,
            status="active",
            seed=seed,
            state_json=state_json,
            seats=tuple(seats),
        )

    async def record_actions(
        self,
        *,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        actions: Sequence[tuple[int, str]],
        status: str = "active",
        prompt: tuple[str, int] | None = None,
        wait: Wait | None = None,
        results: Sequence[SeatResult] | None = None,
        ai_turn: bool = False,
        announce: bool = True,
    ) -> int:
        """Save the new state, append its actions, settle old prompts and open a new one.

        All in one transaction that fails with VersionConflict if someone else got there first.
        `wait`: the turn of the person now to move, to remind them (None: nobody to remind).
        `results` come with the finishing move, so a game is never finished without them.
        `ai_turn`: an AI seat is to move now. With `announce`, the move's board post is owed
        in the outbox (see `hvbot.claims`) until `claims.move_sent`. Returns the new version.
        """
        if results and status != "finished":
            raise ValueError("results belong to a finished game only")
        now = _now()
        state_json = json.dumps(state)
        ended = now if status in ("finished", "abandoned") else None

        async def work(tx: Transaction) -> None:
            await _bump(
                tx,
                game_id,
                expected_version,
                "state = ?, status = ?, ended_at = COALESCE(CAST(? AS TEXT), ended_at), "
                "ai_turn = ?, " + _TURN_COLUMNS,
                (state_json, status, ended, int(ai_turn), *_turn_values(wait)),
            )
            first = await tx.fetchval(
                "SELECT COALESCE(MAX(n) + 1, 0) FROM actions WHERE game_id = ?", game_id
            )
            await tx.executemany(
                "INSERT INTO actions (game_id, n, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, first + i, seat, text, now) for i, (seat, text) in enumerate(actions)],
            )
            await _open_prompt(tx, game_id, prompt, expected_version + 1, now)
            if results:
                await _insert_results(tx, game_id, results, now)
            if announce and actions:
                await claims.announce(
                    tx,
                    game_id=game_id,
                    version=expected_version + 1,
                    kind="move",
                    body={"seat": actions[0][0], "first": first, "count": len(actions)},
                )
            if announce and status == "finished":
                await claims.announce(
                    tx,
                    game_id=game_id,
                    version=expected_version + 1,
                    kind="replay",
                    body={},
                    lease=claims.REPLAY_LEASE,
                )

        await self._change(game_id, work)
        self._changed(game_id, version=expected_version + 1, status=status, state_json=state_json)
        return expected_version + 1

    async def set_status(self, *, game_id: int, expected_version: int, status: str) -> None:

        async def work(tx: Transaction) -> None:
            await _bump(tx, game_id, expected_version, "status = ?, ended_at = ?", (status, _now()))
            await tx.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ?", game_id)

        await self._change(game_id, work)
        self._changed(game_id, version=expected_version + 1, status=status)

    # ------------------------------------------------------------------ taking back

    async def last_action(self, *, game_id: int) -> tuple[int, int, str] | None:
        """(number, seat, text) of the game's latest stored action, if any."""
        row = await self.db.fetchrow(
            "SELECT n, seat, action FROM actions WHERE game_id = ? ORDER BY n DESC LIMIT 1",
            game_id,
        )
        return (row["n"], row["seat"], row["action"]) if row else None

    async def open_undo(
        self,
        *,
        game_id: int,
        version: int,
        n: int,
        requester_id: int,
        action: str,
        asked: Sequence[int],
    ) -> UndoRequest:
        """Record a request (any earlier open one for the game is void: one at a time)."""
        request_id = await self._open_request(
            "undo_requests",
            game_id,
            version=version,
            n=n,
            requester_id=requester_id,
            action=action,
            asked=json.dumps(list(asked)),
        )
        found = await self.undo_request(request_id=request_id)
        if found is None:
            raise LookupError(f"undo request {request_id} vanished as it was made")
        return found

    async def undo_request(self, *, request_id: int) -> UndoRequest | None:
        row = await self._request_row("undo_requests", request_id)
        if row is None:
            return None
        return UndoRequest(
            id=row["id"],
            game_id=row["game_id"],
            version=row["version"],
            n=row["n"],
            requester_id=row["requester_id"],
            action=row["action"],
            asked=tuple(json.loads(row["asked"])),
            accepted=tuple(json.loads(row["accepted"])),
            status=row["status"],
            message_id=row["message_id"],
        )

    async def answer_undo(
        self, *, request_id: int, accepted: Sequence[int], status: str = "open"
    ) -> bool:
        """Record who has accepted (and the outcome); False if the request was no longer open."""
        changed = await self._write(
            _statement(
                "UPDATE undo_requests SET accepted = ?, status = ?"
                " WHERE id = ? AND status = 'open'",
                json.dumps(list(accepted)),
                status,
                request_id,
            )
        )
        return changed == 1

    async def set_undo_message(self, *, request_id: int, message_id: int) -> None:
        await self._write(
            _statement(
                "UPDATE undo_requests SET message_id = ? WHERE id = ?", message_id, request_id
            )
        )

    async def take_back(
        self,
        *,
        game_id: int,
        expected_version: int,
        n: int,
        state: dict[str, Any],
        request_id: int | None,
        accepted: Sequence[int] = (),
        prompt: tuple[str, int] | None = None,
        wait: Wait | None = None,
        ai_turn: bool = False,
    ) -> int:
        """Remove action `n` (the latest) and save the state from before it, as one versioned
        change that also closes the request; returns the new version."""
        state_json = json.dumps(state)
        now = _now()

        async def work(tx: Transaction) -> None:
            await _bump(
                tx,
                game_id,
                expected_version,
                "state = ?, ai_turn = ?, " + _TURN_COLUMNS,
                (state_json, int(ai_turn), *_turn_values(wait)),
            )
            deleted = await tx.execute(
                "DELETE FROM actions WHERE game_id = ? AND n = ?"
                " AND n = (SELECT MAX(n) FROM actions WHERE game_id = ?)",
                game_id,
                n,
                game_id,
            )
            if deleted != 1:
                raise VersionConflict(f"game {game_id}: action {n} is no longer the latest")
            await _open_prompt(tx, game_id, prompt, expected_version + 1, now)
            if request_id is not None:
                await tx.execute(
                    "UPDATE undo_requests SET status = 'done', accepted = ? WHERE id = ?",
                    json.dumps(list(accepted)),
                    request_id,
                )

        await self._change(game_id, work)
        self._changed(game_id, version=expected_version + 1, state_json=state_json)
        return expected_version + 1

    # ------------------------------------------------------------------ absent players

    async def turn_since(self, *, game_id: int) -> datetime | None:
        """Since when the person to move has been waited for (None: nobody is)."""
        since = await self.db.fetchval("SELECT turn_since FROM games WHERE id = ?", game_id)
        return datetime.fromisoformat(since) if since else None

    async def open_absence_vote(
        self, *, game_id: int, version: int, seat: int, asked: Sequence[int]
    ) -> AbsenceVote:
        """Record a vote about the seat (any earlier open one for the game is void)."""
        vote_id = await self._open_request(
            "absence_votes", game_id, version=version, seat=seat, asked=json.dumps(list(asked))
        )
        found = await self.absence_vote(vote_id=vote_id)
        if found is None:
            raise LookupError(f"absence vote {vote_id} vanished as it was made")
        return found

    async def absence_vote(self, *, vote_id: int) -> AbsenceVote | None:
        row = await self._request_row("absence_votes", vote_id)
        if row is None:
            return None
        return AbsenceVote(
            id=row["id"],
            game_id=row["game_id"],
            version=row["version"],
            seat=row["seat"],
            asked=tuple(json.loads(row["asked"])),
            votes={int(k): v for k, v in json.loads(row["votes"]).items()},
            status=row["status"],
        )

    async def record_votes(
        self, *, vote_id: int, votes: dict[int, str], status: str = "open"
    ) -> bool:
        """Save the votes cast (and the outcome); False if the vote was no longer open."""
        changed = await self._write(
            _statement(
                "UPDATE absence_votes SET votes = ?, status = ? WHERE id = ? AND status = 'open'",
                json.dumps({str(k): v for k, v in votes.items()}),
                status,
                vote_id,
            )
        )
        return changed == 1

    # Requests that wait for other players' answers (undo_requests, absence_votes): one open
    # request per game and table, each for one version of the game. Table names are constants.

    async def _open_request(self, table: str, game_id: int, **fields: Any) -> int:
        columns = ", ".join(["game_id", *fields, "created_at"])
        marks = ", ".join("?" * (len(fields) + 2))

        async def work(tx: Transaction) -> int:
            await tx.execute(
                f"UPDATE {table} SET status = 'void' WHERE game_id = ? AND status = 'open'",
                game_id,
            )
            request_id: int = await tx.fetchval(
                f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING id",
                game_id,
                *fields.values(),
                _now(),
            )
            return request_id

        return await self._write(work)

    async def _request_row(self, table: str, request_id: int) -> Row | None:
        return await self.db.fetchrow(f"SELECT * FROM {table} WHERE id = ?", request_id)

    # ------------------------------------------------------------------ reminders

    async def due_reminders(self, *, now: datetime) -> list[DueReminder]:
        """Games in play whose person to move has waited past their reminder."""
        rows = await self.db.fetch(
            "SELECT id, remind_at, turn_since FROM games"
            " WHERE status = 'active' AND remind_at IS NOT NULL AND remind_at <= ? ORDER BY id",
            _stamp(now),
        )
        return [
            DueReminder(
                r["id"],
                r["remind_at"],
                datetime.fromisoformat(r["turn_since"]) if r["turn_since"] else None,
            )
            for r in rows
        ]

    async def claim_reminder(
        self, *, game_id: int, due: str, next_at: datetime | None, text: str | None = None
    ) -> int | None:
        """Move a due reminder on to `next_at` (None: no more) and owe its `text` in the outbox,
        in one transaction: the announcement's id (0 with no text), or None if another process
        (or a move) changed it first, so each reminder is sent once. The game's version is
        left alone: a reminder changes nothing on the board, and its buttons stay valid."""

        async def work(tx: Transaction) -> int | None:
            changed = await tx.execute(
                "UPDATE games SET remind_at = ? WHERE id = ? AND remind_at = ?",
                _stamp(next_at) if next_at else None,
                game_id,
                due,
            )
            if changed != 1:
                return None
            if text is None:
                return 0
            version = await tx.fetchval("SELECT version FROM games WHERE id = ?", game_id)
            return await claims.announce(
                tx, game_id=game_id, version=version, kind="text", body={"content": text}
            )

        return await self._write(work)

    async def save_results(self, *, game_id: int, results: Sequence[SeatResult]) -> None:
        """Store the results of a game finished before results were kept, dated by its end;
        results stored already are left as they are, so filling them twice changes nothing."""
        await self._write(lambda tx: _insert_results(tx, game_id, results, None))


# ---------------------------------------------------------------------- inside a transaction
# The pieces of the changes above: SQL both backends accept (see hvbot.database).


def _statement(sql: str, *values: Any) -> Work[int]:
    """A change of one statement; it returns how many rows the statement changed."""

    async def work(tx: Transaction) -> int:
        return await tx.execute(sql, *values)

    return work


async def _bump(
    tx: Transaction,
    game_id: int,
    expected_version: int,
    also: str = "",
    values: Sequence[Any] = (),
) -> int:
    """Compare and bump the version, setting the columns in `also` in the same statement."""
    extra = f", {also}" if also else ""
    changed = await tx.execute(
        f"UPDATE games SET version = version + 1, updated_at = ?{extra}"
        " WHERE id = ? AND version = ?",
        _now(),
        *values,
        game_id,
        expected_version,
    )
    if changed != 1:
        raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
    return expected_version + 1


async def _replace_seats(tx: Transaction, game_id: int, seats: Sequence[SeatRow]) -> None:
    await tx.execute("DELETE FROM seats WHERE game_id = ?", game_id)
    await tx.executemany(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, away_user_id,"
        " language) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, s.seat, s.user_id, s.ai_level, s.display_name, s.away_user_id, s.language)
            for s in seats
        ],
    )


async def _open_prompt(
    tx: Transaction,
    game_id: int,
    prompt: tuple[str, int] | None,
    version: int,
    now: str,
) -> None:
    """Settle the game's open prompts and open `prompt` (kind, user) for `version`, if any."""
    await tx.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ? AND resolved = 0", game_id)
    if prompt is not None:
        kind, user_id = prompt
        await tx.execute(
            "INSERT INTO prompts (game_id, kind, user_id, version, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            game_id,
            kind,
            user_id,
            version,
            now,
        )


async def _insert_results(
    tx: Transaction,
    game_id: int,
    results: Sequence[SeatResult],
    finished_at: str | None,
) -> None:
    """Copy the game's kind, server and seat names from the rows the same transaction sees,
    so the results say who sat where at the very end (after any resignation). Results
    stored already stay as they are."""
    await tx.executemany(
        "INSERT INTO results (game_id, seat, game, guild_id, user_id,"
        " display_name, score, won, finished_at)"
        " SELECT s.game_id, s.seat, g.game, g.guild_id, s.user_id, s.display_name,"
        " CAST(? AS INTEGER), CAST(? AS INTEGER), COALESCE(CAST(? AS TEXT), g.ended_at,"
        " g.updated_at)"
        " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = ? AND s.seat = ?"
        " ON CONFLICT DO NOTHING",
        [(r.score, int(r.won), finished_at, game_id, r.seat) for r in results],
    )


_TURN_COLUMNS = "turn_since = ?, remind_at = ?"


def _turn_values(wait: Wait | None) -> tuple[str | None, str | None]:
    """With nobody to remind (an AI to move, the end, reminders off), both are cleared."""
    if wait is None:
        return None, None
    return _stamp(wait.since), _stamp(wait.remind_at) if wait.remind_at else None
