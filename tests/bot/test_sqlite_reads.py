"""A read from the SQLite file is one trip to aiosqlite's thread, not one for the statement,
one for its rows and one to close its cursor: a game's set-up reads a score of times, and each
trip is a hand-over to the thread and back through the event loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hvbot.database.sqlite import SqliteDatabase


async def test_a_read_is_one_trip_to_the_database_thread(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "games.sqlite3")
    trips = 0
    send = db.conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await send(fn, *args, **kwargs)

    db.conn._execute = counted  # type: ignore[method-assign]  # counting the trips only
    try:
        rows = await db.fetch("SELECT 1 AS a UNION ALL SELECT 2 ORDER BY a")
        assert [row["a"] for row in rows] == [1, 2] and trips == 1
        row = await db.fetchrow("SELECT 3 AS b UNION ALL SELECT 4 ORDER BY b")
        assert row is not None and row["b"] == 3 and trips == 2
        assert await db.fetchrow("SELECT 1 WHERE 0") is None and trips == 3
        assert await db.fetchval("SELECT 5") == 5 and trips == 4
    finally:
        await db.close()
