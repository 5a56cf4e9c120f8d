"""Reading games: their rows and seats, their actions, their open prompts.

Plain reads of the database; `hvbot.store.GameStore` keeps what they return in memory.
"""

from __future__ import annotations

import json
from typing import Any

from hvbot.database import Database, Row, Transaction
from hvbot.store.rows import CHANNEL, GameRow, SeatRow, TurnClock
from hvbot.store.sql import indexed_by

SEATS = (
    "SELECT seat, user_id, ai_level, display_name, away_user_id, language, resigned_user_id,"
    " away_until FROM seats"
    " WHERE game_id = ? ORDER BY seat"
)


async def seats(db: Database | Transaction, game_id: int) -> tuple[SeatRow, ...]:
    return seats_from(await db.fetch(SEATS, game_id))


def seats_from(rows: list[Row]) -> tuple[SeatRow, ...]:
    """A game's seats from its `seats` rows (read by `SEATS`)."""
    return tuple(
        SeatRow(
            r["seat"],
            r["user_id"],
            r["ai_level"],
            r["display_name"],
            r["away_user_id"],
            r["language"],
            r["resigned_user_id"],
            r["away_until"],
        )
        for r in rows
    )


async def game_of(db: Database, row: Row) -> GameRow:
    """A `games` row with its seats."""
    return game_from(row, await seats(db, row["id"]))


def game_from(row: Row, seat_rows: tuple[SeatRow, ...]) -> GameRow:
    """A `games` row with its seats, read already."""
    return GameRow(
        id=row["id"],
        game_name=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        status=row["status"],
        seed=row["seed"],
        options=json.loads(row["options"]),
        state_json=row["state"] or None,
        version=row["version"],
        lobby_message_id=row["lobby_message_id"],
        seats=seat_rows,
        remind_minutes=row["remind_minutes"],
        absent_hours=row["absent_hours"],
        wants_thread=bool(row["wants_thread"]),
        thread_id=row["thread_id"],
        language=row["language"],
        clock=TurnClock(row["clock_minutes"], row["clock_timeout"] or "ai_move")
        if row["clock_minutes"]
        else None,
        clock_deadline=row["clock_deadline"],
        clock_warn_at=row["clock_warn_at"],
        stand_in_seat=row["stand_in_seat"],
        clock_paused_at=row["clock_paused_at"],
        # Read by a migration's own test from a database not migrated that far, too. By its
        # keys: `in` a SQLite row looks among its values.
        tournament_id=row["tournament_id"] if "tournament_id" in row.keys() else None,  # noqa: SIM118
        delivery=row["delivery"] if "delivery" in row.keys() else CHANNEL,  # noqa: SIM118
    )


async def by_id(db: Database, game_id: int) -> Row | None:
    return await db.fetchrow("SELECT * FROM games WHERE id = ?", game_id)


async def version_of(db: Database, game_id: int) -> int | None:
    """The stored version alone: one small read to check a copy in memory against."""
    version: int | None = await db.fetchval("SELECT version FROM games WHERE id = ?", game_id)
    return version


# A person's open games in one server (parameters: the server, the person), through the index
# of their own (`games_open_by_creator`): counted by /game new before the lobby's transaction
# (`room_for_lobby`) and again inside it (`changes.create_lobby`).
OPEN_CREATED_BY = (
    "SELECT COUNT(*) FROM games WHERE guild_id = ? AND creator_id = ?"
    " AND status IN ('lobby', 'active')"
)


def _open_in_channel(db: Database, columns: str) -> str:
    """Selecting `columns` of the open game of a channel (not one played in a thread of it,
    nor a tournament's table whose thread is still to start), or of the thread a game is
    played in; parameters: the channel's id, twice. Each half goes through its own index (see
    `indexed_by`): through the index of every open game, each /game new in a new channel read
    them all."""
    return (
        f"SELECT {columns} FROM (SELECT {columns} FROM games"
        f"{indexed_by(db, 'games_one_open_per_channel')}"
        " WHERE channel_id = ? AND thread_id IS NULL AND tournament_id IS NULL"
        " AND status IN ('lobby', 'active')"
        f" UNION ALL SELECT {columns} FROM games{indexed_by(db, 'games_by_thread')}"
        " WHERE thread_id = ? AND status IN ('lobby', 'active')) AS found ORDER BY id LIMIT 1"
    )


def _open_in_threads_of(db: Database, columns: str) -> str:
    """Selecting `columns` of the open games played in threads of a channel (parameter: the
    channel's id), through the index of the channel's open games (see `indexed_by`): through
    the index of every open game, each /game new read them all."""
    return (
        f"SELECT {columns} FROM games{indexed_by(db, 'games_open_by_channel')}"
        " WHERE channel_id = ? AND thread_id IS NOT NULL AND status IN ('lobby', 'active')"
    )


async def open_in_channel(db: Database, channel_id: int) -> Row | None:
    """The open game of a channel, or of the thread a game is played in (`_open_in_channel`)."""
    return await db.fetchrow(_open_in_channel(db, "*"), channel_id, channel_id)


async def room_for_lobby(
    db: Database, guild_id: int | None, user_id: int, channel_id: int
) -> tuple[int, int | None, int]:
    """What a new lobby by `user_id` in `channel_id` must leave room for, in one read: how
    many open games the person opened in the server (0 outside one: `OPEN_CREATED_BY`),
    the id of the channel's open game if it has one (`open_in_channel`), and how many open
    games are played in threads of the channel (`open_in_threads_of`). One statement, each
    part through the index its own read uses: on SQLite, one trip to the database's thread
    instead of three, on every /game new."""
    row = await db.fetchrow(
        f"SELECT ({OPEN_CREATED_BY}) AS opened,"
        f" ({_open_in_channel(db, 'id')}) AS here,"
        f" ({_open_in_threads_of(db, 'COUNT(*)')}) AS in_threads",
        guild_id,
        user_id,
        channel_id,
        channel_id,
        channel_id,
    )
    assert row is not None  # a SELECT of sub-selects has its one row
    return int(row["opened"]), row["here"], int(row["in_threads"])


async def open_in_threads_of(db: Database, channel_id: int) -> list[Row]:
    """The open games of a channel played in threads of it, oldest first."""
    return await db.fetch(_open_in_threads_of(db, "*") + " ORDER BY id", channel_id)


async def open_beside(db: Database, channel_id: int) -> list[Row]:
    """The open games of a channel that are not its own: those played in threads of it, and
    tournament tables played in it without a thread (Discord would not start one, or not
    yet), oldest first."""
    # Through the index of the channel's open games, as `open_in_threads_of`.
    return await db.fetch(
        f"SELECT * FROM games{indexed_by(db, 'games_open_by_channel')} WHERE channel_id = ?"
        " AND (thread_id IS NOT NULL OR tournament_id IS NOT NULL)"
        " AND status IN ('lobby', 'active') ORDER BY id",
        channel_id,
    )


async def open_of_person(db: Database, guild_id: int, user_id: int, limit: int) -> list[Row]:
    """A person's open games in one server: those they sit at, and those an AI plays for
    them while they are away."""
    return await db.fetch(
        "SELECT * FROM games WHERE guild_id = ? AND status IN ('lobby', 'active')"
        " AND id IN (SELECT game_id FROM seats WHERE user_id = ? OR away_user_id = ?)"
        f" ORDER BY id LIMIT {int(limit)}",
        guild_id,
        user_id,
        user_id,
    )


async def expired_lobbies(db: Database, now: str, limit: int) -> list[Row]:
    """Lobbies unstarted past their `lobby_expires_at` (a stamp)."""
    return await db.fetch(
        "SELECT * FROM games WHERE status = 'lobby' AND lobby_expires_at <= ?"
        f" ORDER BY id LIMIT {int(limit)}",
        now,
    )


async def all_open(db: Database) -> list[Row]:
    return await db.fetch("SELECT * FROM games WHERE status IN ('lobby', 'active') ORDER BY id")


async def finished_without_results(db: Database) -> list[Row]:
    return await db.fetch(
        "SELECT * FROM games WHERE status = 'finished'"
        " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id) ORDER BY id"
    )


async def finished_in_channel(
    db: Database, channel_id: int, game_id: int | None, limit: int
) -> list[Row]:
    """Latest first: games of one channel are played one after another, so the latest
    created is the latest finished. In a game's thread: that game."""
    only = " AND id = ?" if game_id is not None else ""
    values = (channel_id, channel_id, *(() if game_id is None else (game_id,)), limit)
    return await db.fetch(
        "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) AND status = 'finished'"
        f"{only} ORDER BY id DESC LIMIT ?",
        *values,
    )


async def actions(db: Database, game_id: int) -> list[tuple[int, str]]:
    rows = await db.fetch("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n", game_id)
    return [(r["seat"], r["action"]) for r in rows]


async def last_action(db: Database, game_id: int) -> tuple[int, int, str] | None:
    """(number, seat, text) of the game's latest stored action, if any."""
    row = await db.fetchrow(
        "SELECT n, seat, action FROM actions WHERE game_id = ? ORDER BY n DESC LIMIT 1", game_id
    )
    return (row["n"], row["seat"], row["action"]) if row else None


async def open_prompts(db: Database, game_id: int) -> list[dict[str, Any]]:
    rows = await db.fetch(
        "SELECT id, kind, user_id, version FROM prompts WHERE game_id = ? AND resolved = 0",
        game_id,
    )
    return [dict(r) for r in rows]
