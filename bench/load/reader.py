"""What the scripted players read of the bot's games, from its own database: the bot's writes
are the truth they choose their moves from, and the outbox and the clocks are what the turn
clocks' figures are checked against."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from hvbot.database.postgres import numbered
from sandbox.emulator.models import shard_of

from .config import READER_CONNECTIONS, REPLICA_WAIT_S


@dataclass(frozen=True)
class ClockRow:
    """A game's running turn clock as stored: the claim keys the bots compare and set."""

    version: int
    deadline: str  # when the person to move runs out (a stamp: ISO text to the millisecond)
    warn_at: str | None  # when they are warned; None once they were
    actions: int  # actions stored so far: the next one is number `actions`


@dataclass(frozen=True)
class MovePost:
    """A move's board post owed in the outbox: its seat, its first action, and the nonce it
    is sent to the channel with (so a second copy reaching the channel can be told)."""

    id: int
    game_id: int
    version: int
    seat: int
    first: int
    nonce: str


class GameReader:
    """What the players read of the bot's games: the bot's writes are the truth they choose
    from. SQLite and PostgreSQL answer the same queries behind these few methods.

    They are coroutines so that a read of PostgreSQL, a round trip over a socket, lets the
    emulator's event loop answer the bots meanwhile; SQLite's reads are made at once inside
    them, without giving the loop a turn, just as before there was a choice."""

    # Queries made (the report says how many there were beside the database server's CPU).
    reads = 0
    # How long a player waits for the bot's next message before it looks at what it is waiting
    # for again: what it reads is the truth at once, and the bot's messages say when to read.
    recheck_s = 1.0

    async def rows(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        """The rows of one query (`?` placeholders)."""
        self.reads += 1
        return await self.fetch(sql, *args)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def game(self, game_id: int) -> tuple[str, int, str | None, int | None]:
        """Status, version, state, and the seat an AI is playing a move for (its person's
        clock ran out), if any."""
        rows = await self.rows(
            "SELECT status, version, state, stand_in_seat FROM games WHERE id = ?", game_id
        )
        if not rows:  # not on the players' replica yet: no state, no version
            return "", -1, None, None
        return rows[0][0], rows[0][1], rows[0][2], rows[0][3]

    async def since(
        self, game_id: int, version: int | None
    ) -> tuple[str, int, str | None, int | None] | None:
        """What `game` reads, in the same query, but the state only if the game is no longer
        at `version` (None: not known yet): the players look whenever the bot's messages say
        the game may have moved on, and read the whole state only when it did, without a second
        query to ask for it.
        None if the game is not on the players' replica yet."""
        rows = await self.rows(
            "SELECT status, version, CASE WHEN version = ? THEN NULL ELSE state END,"
            " stand_in_seat FROM games WHERE id = ?",
            -1 if version is None else version,
            game_id,
        )
        return (rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else None

    async def open_game(self, channel_id: int) -> tuple[int, str, int | None] | None:
        """The game open in a channel (a lobby, or one being played), its status and its
        lobby message; None if there is none. On a replica, looked for twice: it may be a few
        ms behind."""
        for attempt in range(2 if self.recheck_s < 1.0 else 1):
            if attempt:
                await asyncio.sleep(self.recheck_s)
            rows = await self.rows(
                "SELECT id, status, lobby_message_id FROM games WHERE channel_id = ?"
                " AND status IN ('lobby', 'active')",
                channel_id,
            )
            if rows and rows[0][1] == "active":
                break
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def seat_users(self, game_id: int) -> list[int | None]:
        rows = await self.rows("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [r[0] for r in rows]

    async def clocks(self) -> dict[int, ClockRow]:
        """The running turn clocks of the games in play, by game."""
        rows = await self.rows(
            "SELECT g.id, g.version, g.clock_deadline, g.clock_warn_at,"
            " (SELECT COUNT(*) FROM actions AS a WHERE a.game_id = g.id) FROM games AS g"
            " WHERE g.status = 'active' AND g.clock_deadline IS NOT NULL"
            " AND g.clock_paused_at IS NULL"
        )
        return {r[0]: ClockRow(r[1], r[2], r[3], int(r[4])) for r in rows}

    async def move_posts(self, game_ids: Sequence[int]) -> list[MovePost]:
        """The board posts owed for the moves of these games (the outbox's `move` rows)."""
        found = []
        for game_id in game_ids:
            rows = await self.rows(
                "SELECT id, version, body, nonce FROM announcements"
                " WHERE game_id = ? AND kind = 'move'",
                game_id,
            )
            for r in rows:
                body = json.loads(r[2])
                found.append(
                    MovePost(
                        r[0], game_id, r[1], body["seat"], body["first"], r[3] or f"owed-{r[0]}"
                    )
                )
        return found

    async def action_counts(self) -> dict[int | None, tuple[int, int]]:
        """Actions stored so far by the server (guild) of their game, which says which shard,
        so which bot process, served it: all of them, and those of people's seats (not AI
        seats)."""
        rows = await self.rows(
            "SELECT g.guild_id, COUNT(*), COUNT(s.user_id) FROM actions AS a"
            " JOIN seats AS s ON s.game_id = a.game_id AND s.seat = a.seat"
            " JOIN games AS g ON g.id = a.game_id GROUP BY g.guild_id"
        )
        return {r[0]: (int(r[1]), int(r[2])) for r in rows}


class SqliteReader(GameReader):
    """The bot's SQLite file, read-only (it is in WAL mode, so reading never blocks the bot)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return self.conn.execute(sql, args).fetchall()

    async def close(self) -> None:
        self.conn.close()


class PostgresReader(GameReader):
    """The bots' PostgreSQL database, through a few pooled asyncpg connections: the players
    of many channels read at the same moment, and one connection runs one query at a time.
    There is no synchronous PostgreSQL driver among the project's packages.

    Read from a replica of the bots' server (`replica`), the players' reads are no work for
    the server the bots use. The bots' commits return once the replica has applied them
    (`BOTS_DATABASE_SETTINGS`), so what a post says is on the replica before the post is
    made, and the players look when the bot's next message comes, as on SQLite."""

    def __init__(self, pool: asyncpg.Pool, *, replica: bool = False) -> None:
        self.pool = pool
        self.replica = replica

    @classmethod
    async def open(cls, url: str, *, replica: bool = False) -> PostgresReader:
        """A pool on `url`; on a replica, once the database the bots were given has reached
        it (created on the primary a moment ago)."""
        deadline = asyncio.get_running_loop().time() + REPLICA_WAIT_S
        while True:
            try:
                pool = await asyncpg.create_pool(
                    url, min_size=1, max_size=READER_CONNECTIONS, reset=_as_it_is
                )
                break
            except asyncpg.InvalidCatalogNameError:
                if not replica or asyncio.get_running_loop().time() > deadline:
                    raise
                await asyncio.sleep(0.1)
        return cls(pool, replica=replica)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.pool.fetch(numbered(sql), *args))

    async def close(self) -> None:
        await self.pool.close()


async def _as_it_is(conn: asyncpg.Connection) -> None:
    """A players' connection goes back to the pool as it is, as the bots' do
    (`hvbot.database.postgres`): the players only read, so asyncpg's reset query (`RESET ALL`,
    `UNLISTEN *`, ...) would be a second round trip for every read, parsed and run by the
    replica on the two cores the bot runs on, where SQLite's reads are one call each."""


def totals(counts: dict[int | None, tuple[int, int]]) -> tuple[int, int]:
    """All actions and people's moves in `action_counts`, whatever their server."""
    return sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())


def on_shard(
    counts: dict[int | None, tuple[int, int]], shard: int, shard_count: int
) -> tuple[int, int]:
    """The part of `action_counts` whose games are in servers on shard `shard`."""
    mine = [c for guild, c in counts.items() if shard_of(guild, shard_count) == shard]
    return sum(c[0] for c in mine), sum(c[1] for c in mine)
