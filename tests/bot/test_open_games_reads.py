"""What the bot reads of its open games does not grow with how many there are: the checks
that run every few seconds (reminders, turn clocks, AI seats nobody thinks for) and the looks
for a channel's open game and for those beside it (in its threads, a tournament's tables) at
each /game new read the few games they are about, through their own partial indexes; the
operators' metrics count the open games in an index, not in the games' rows.

SQLite alone: without statistics of its tables its planner read all of them through the index
of every game by status, each row up to its columns after the saved state (in its overflow
pages): at 10,000 open games a reminders check read for 150-250 ms, every 5 seconds, and each
/game new some 15 ms. The work is counted in SQLite's own steps (its virtual machine's
instructions, through its progress handler), not timed. PostgreSQL keeps statistics of its
tables and picks these indexes itself.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hvbot.database import Transaction
from hvbot.store import GameStore, games
from hvbot.store.sql import stamp

NOW = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
# As a High Voltage game's saved state, about: large enough to go on in overflow pages.
STATE = json.dumps({"cards": [f"card {i}" for i in range(800)]})


async def add_open_games(store: GameStore, first: int, count: int) -> None:
    """`count` games in play, each in a channel of its own, nobody's reminder or clock due,
    no AI seat to move: what a busy bot holds between moves."""
    later = stamp(NOW + timedelta(minutes=10))

    async def work(tx: Transaction) -> None:
        await tx.executemany(
            "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
            " created_at, updated_at, state, remind_at, turn_since, ai_turn)"
            " VALUES ('high-voltage', 1, ?, ?, 'active', '{}', ?, ?, ?, ?, ?, 0)",
            [
                (10_000 + n, 50_000 + n, stamp(NOW), stamp(NOW), STATE, later, stamp(NOW))
                for n in range(first, first + count)
            ],
        )

    await store.db.transact(work)


async def steps(store: GameStore, call: Callable[[], Awaitable[Any]]) -> int:
    """SQLite's steps (instructions of its virtual machine) while `call` runs."""
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0  # go on

    conn = store.db.conn  # type: ignore[attr-defined]  # SQLite's connection: sqlite only
    await conn.set_progress_handler(tick, 1)
    try:
        await call()
    finally:
        await conn.set_progress_handler(None, 1)
    return count


def checks(store: GameStore) -> dict[str, Callable[[], Awaitable[Any]]]:
    """The reads whose work must not grow with the open games, by name."""
    return {
        "reminders due": lambda: store.reminders.due(now=NOW, most=10),
        "turn clocks due": lambda: store.clocks.due(now=NOW, most=10),
        "AI seats to claim": lambda: store.duties.claim_ai_turns("check"),
        "a new channel's open game": lambda: games.open_in_channel(store.db, 1),
        "the games in a new channel's threads": lambda: games.open_in_threads_of(store.db, 1),
        "the games beside a new channel's own": lambda: games.open_beside(store.db, 1),
        "the room for a new lobby": lambda: games.room_for_lobby(store.db, 1, 1, 1),
    }


async def test_the_checks_and_a_new_lobby_read_the_same_at_1000_open_games(
    tmp_path: Path,
) -> None:
    store = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        await add_open_games(store, 0, 20)
        few = {name: await steps(store, call) for name, call in checks(store).items()}
        await add_open_games(store, 20, 1000)
        many = {name: await steps(store, call) for name, call in checks(store).items()}
        # Through its index each reads nothing of the games it is not about: the same work
        # give or take a level more of the indexes' trees. Through every open game it was
        # fifty times as much.
        grown = {name: (few[name], many[name]) for name in few if many[name] > 1.5 * few[name]}
        assert not grown, f"SQLite steps at 20 open games, then at 1,020: {grown}"
        # The game of a channel with one is still found, and one in a thread by the thread.
        found = await games.open_in_channel(store.db, 10_005)
        assert found is not None and found["channel_id"] == 10_005
        await store.db.transact(
            lambda tx: tx.execute("UPDATE games SET thread_id = 7 WHERE channel_id = 10006")
        )
        in_thread = await games.open_in_channel(store.db, 7)
        assert in_thread is not None and in_thread["channel_id"] == 10_006
        assert await games.open_in_channel(store.db, 10_006) is None
        # The room for a new lobby, read at once: the person's open games in the server, the
        # channel's own game (or the thread's), the games in threads of the channel.
        assert await games.room_for_lobby(store.db, 1, 50_005, 10_005) == (1, found["id"], 0)
        assert await games.room_for_lobby(store.db, 1, 50_006, 7) == (1, in_thread["id"], 0)
        assert await games.room_for_lobby(store.db, 1, 50_006, 10_006) == (1, None, 1)
        assert await games.room_for_lobby(store.db, 2, 50_006, 1) == (0, None, 0)
        assert await games.room_for_lobby(store.db, None, 50_006, 1) == (0, None, 0)
    finally:
        await store.close()


async def test_a_channels_games_beside_its_own_are_found_through_their_index(
    tmp_path: Path,
) -> None:
    """Those in its threads, oldest first, and a tournament's table played in it without a
    thread; not its own game, nor a game over, nor another channel's."""
    store = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        await add_open_games(store, 0, 200)
        channel = 10_100
        await store.db.transact(
            lambda tx: tx.executemany(
                "UPDATE games SET channel_id = ?, thread_id = ?, tournament_id = ?, status = ?"
                " WHERE channel_id = ?",
                [
                    (channel, None, None, "active", 10_100),  # its own game
                    (channel, 7, None, "active", 10_110),
                    (channel, 8, None, "finished", 10_120),
                    (channel, None, 3, "active", 10_130),  # a tournament's, no thread yet
                    (channel, 9, 3, "lobby", 10_140),
                    (channel + 1, 10, None, "active", 10_150),  # the next channel's
                ],
            )
        )
        in_threads = await games.open_in_threads_of(store.db, channel)
        beside = await games.open_beside(store.db, channel)
        assert [g["thread_id"] for g in in_threads] == [7, 9]
        assert [(g["thread_id"], g["tournament_id"]) for g in beside] == [
            (7, None),
            (None, 3),
            (9, 3),
        ]
    finally:
        await store.close()


async def test_the_metrics_count_the_open_games_without_reading_their_rows(
    tmp_path: Path,
) -> None:
    """Every few seconds (with METRICS_PORT set): through the index of every game by status,
    the count read each open game's row; the index it reads holds every column it counts by.
    Steps do not tell the two apart (a row read is a step or two more), so the plan of the
    statement the store runs is checked: a scan of the covering index alone."""
    store = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        await add_open_games(store, 0, 30)
        await store.db.transact(
            lambda tx: tx.execute(
                "UPDATE games SET guild_id = ?, status = 'lobby' WHERE channel_id < 10005",
                4194304 * 3,  # a server of shard 1 of 2
            )
        )
        await store.db.transact(
            lambda tx: tx.execute("UPDATE games SET status = 'finished' WHERE channel_id > 10025")
        )
        run: list[str] = []
        conn = store.db.conn  # type: ignore[attr-defined]  # SQLite's connection: sqlite only
        await conn.set_trace_callback(run.append)
        try:
            counts = await store.open_counts(2)
        finally:
            await conn.set_trace_callback(None)
        assert counts == {("high-voltage", "lobby", 1): 5, ("high-voltage", "active", 0): 21}
        (counting,) = [sql for sql in run if "COUNT(*)" in sql]
        plan = " ".join(str(r[-1]) for r in await store.db.fetch(f"EXPLAIN QUERY PLAN {counting}"))
        assert "SCAN games USING COVERING INDEX games_open_counted" in plan, plan
    finally:
        await store.close()


@pytest.mark.parametrize("index", ["games_open_by_channel", "games_open_counted"])
async def test_postgresql_has_the_open_games_indexes_too(database_url: str, index: str) -> None:
    """PostgreSQL picks them by its statistics; both backends' schemas hold them alike."""
    store = await GameStore.open(database_url)
    try:
        if store.db.backend == "sqlite":
            sql = await store.db.fetchval(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", index
            )
        else:
            sql = await store.db.fetchval(
                "SELECT indexdef FROM pg_indexes WHERE indexname = ?", index
            )
        assert sql is not None, f"{index} is made on {store.db.backend}"
        assert "lobby" in sql and "active" in sql, f"only the open games: {sql}"
    finally:
        await store.close()
