"""Every SQL statement of the bot, behind keyword-only methods.

The database is the only source of truth for a game; memory is a cache. Every change to a game
is one transaction that compares and bumps the game's version, so two processes (or two clicks)
can never both apply an action to the same old state. Keeping all SQL here is what lets another
database replace SQLite by configuration later.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

OPEN_STATUSES = ("lobby", "active")


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
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    seats: tuple[SeatRow, ...]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("hvbot").joinpath("migrations")
    found = []
    for item in folder.iterdir():
        name = item.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), item.read_text(encoding="utf-8")))
    return sorted(found)


class Repository:
    """One aiosqlite connection, opened at start-up, shared by every handler."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        # One connection carries one transaction at a time; handlers of different games queue.
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Repository:
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        repo = cls(conn)
        await repo.migrate()
        return repo

    async def close(self) -> None:
        await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def migrate(self) -> int:
        """Apply the numbered migrations not applied yet; return the schema version."""
        async with self.transaction() as db:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with db.execute("SELECT MAX(version) FROM schema_version") as cur:
                row = await cur.fetchone()
            current = row[0] or 0
            for number, sql in _migrations():
                if number > current:
                    for statement in _split_sql(sql):
                        await db.execute(statement)
                    await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                    current = number
        return current

    async def schema_version(self) -> int:
        async with self._conn.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return row[0] or 0

    # ------------------------------------------------------------------ reading

    async def _seats(self, game_id: int) -> tuple[SeatRow, ...]:
        async with self._conn.execute(
            "SELECT seat, user_id, ai_level, display_name FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return tuple(
            SeatRow(r["seat"], r["user_id"], r["ai_level"], r["display_name"]) for r in rows
        )

    async def _row(self, row: aiosqlite.Row | None) -> GameRow | None:
        if row is None:
            return None
        return GameRow(
            id=row["id"],
            game=row["game"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            creator_id=row["creator_id"],
            status=row["status"],
            seed=row["seed"],
            options=json.loads(row["options"]),
            state=json.loads(row["state"]) if row["state"] else None,
            version=row["version"],
            lobby_message_id=row["lobby_message_id"],
            seats=await self._seats(row["id"]),
        )

    async def game(self, *, game_id: int) -> GameRow | None:
        async with self._conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            return await self._row(await cur.fetchone())

    async def open_game_in_channel(self, *, channel_id: int) -> GameRow | None:
        async with self._conn.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        ) as cur:
            return await self._row(await cur.fetchone())

    async def open_games(self) -> list[GameRow]:
        """Every game in a lobby or in play: what the bot reloads at start-up."""
        async with self._conn.execute(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [g for g in [await self._row(r) for r in rows] if g is not None]

    async def actions(self, *, game_id: int) -> list[tuple[int, str]]:
        async with self._conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ) as cur:
            return [(r["seat"], r["action"]) for r in await cur.fetchall()]

    async def open_prompts(self, *, game_id: int) -> list[dict[str, Any]]:
        async with self._conn.execute(
            "SELECT id, kind, user_id, version FROM prompts WHERE game_id = ? AND resolved = 0",
            (game_id,),
        ) as cur:
            return [dict(r) for r in await cur.fetchall()]

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
    ) -> GameRow:
        now = _now()
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?)",
                    (game, guild_id, channel_id, creator_id, json.dumps(options), now, now),
                )
                game_id = cur.lastrowid
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name)"
                    " VALUES (?, 0, ?, NULL, ?)",
                    (game_id, creator_id, creator_name),
                )
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy(str(exc)) from exc
        found = await self.game(game_id=game_id)
        assert found is not None
        return found

    async def set_seats(
        self, *, game_id: int, expected_version: int, seats: Sequence[SeatRow]
    ) -> None:
        """Replace the lobby's seats (join, leave, add AI) as one versioned change."""
        async with self.transaction() as db:
            await self._bump(db, game_id, expected_version)
            await self._replace_seats(db, game_id, seats)

    async def set_lobby_message(self, *, game_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)
            )

    async def start(
        self,
        *,
        game_id: int,
        expected_version: int,
        seed: int,
        state: dict[str, Any],
        seats: Sequence[SeatRow],
    ) -> None:
        async with self.transaction() as db:
            await self._bump(db, game_id, expected_version)
            await self._replace_seats(db, game_id, seats)
            await db.execute(
                "UPDATE games SET status = 'active', seed = ?, state = ? WHERE id = ?",
                (seed, json.dumps(state), game_id),
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
    ) -> int:
        """Save the new state, append its actions, settle old prompts and open a new one.

        All in one transaction that fails with VersionConflict if someone else got there first.
        Returns the new version.
        """
        now = _now()
        async with self.transaction() as db:
            new_version = await self._bump(db, game_id, expected_version)
            async with db.execute(
                "SELECT COALESCE(MAX(n) + 1, 0) FROM actions WHERE game_id = ?", (game_id,)
            ) as cur:
                (n,) = await cur.fetchone()
            await db.executemany(
                "INSERT INTO actions (game_id, n, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, n + i, seat, text, now) for i, (seat, text) in enumerate(actions)],
            )
            ended = now if status in ("finished", "abandoned") else None
            await db.execute(
                "UPDATE games SET state = ?, status = ?, ended_at = COALESCE(?, ended_at)"
                " WHERE id = ?",
                (json.dumps(state), status, ended, game_id),
            )
            await db.execute(
                "UPDATE prompts SET resolved = 1 WHERE game_id = ? AND resolved = 0", (game_id,)
            )
            if prompt is not None:
                kind, user_id = prompt
                await db.execute(
                    "INSERT INTO prompts (game_id, kind, user_id, version, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, kind, user_id, new_version, now),
                )
        return new_version

    async def set_status(self, *, game_id: int, expected_version: int, status: str) -> None:
        async with self.transaction() as db:
            await self._bump(db, game_id, expected_version)
            await db.execute(
                "UPDATE games SET status = ?, ended_at = ? WHERE id = ?", (status, _now(), game_id)
            )
            await db.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ?", (game_id,))

    @staticmethod
    async def _replace_seats(
        db: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRow]
    ) -> None:
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.ai_level, s.display_name) for s in seats],
        )

    async def _bump(self, db: aiosqlite.Connection, game_id: int, expected_version: int) -> int:
        cur = await db.execute(
            "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (_now(), game_id, expected_version),
        )
        if cur.rowcount != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        return expected_version + 1


def _split_sql(script: str) -> list[str]:
    """Statements of a migration file (no semicolons inside string literals in ours)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
