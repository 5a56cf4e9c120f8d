"""SQLite keeps the bot's temporary tables and savepoint journals in memory. Every change
writes inside a savepoint of the write queue's transaction, and every `RETURNING` (an owed
post, a claim, a take) buffers its rows in a temporary table: kept in temporary files, each
costs system calls, the pages written out and a page cache mapped and unmapped."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from hvbot.database.sqlite import SqliteDatabase

MEMORY = 2  # `PRAGMA temp_store`: 0 as compiled (files here), 1 files, 2 memory


async def test_temporary_tables_and_journals_are_kept_in_memory(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "games.sqlite3")
    try:
        assert await db.fetchval("PRAGMA temp_store") == MEMORY

        # And so on the connection the write queue's transactions run on: a write with a
        # `RETURNING` inside a savepoint, as an owed post is written.
        def work(conn: sqlite3.Connection) -> tuple[int, int]:
            conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at REAL)")
            row = conn.execute(
                "INSERT INTO t (at) VALUES (?) RETURNING id", (time.time(),)
            ).fetchone()
            store = conn.execute("PRAGMA temp_store").fetchone()
            return row[0], store[0]

        assert await db._queue.run(work) == (1, MEMORY)
    finally:
        await db.close()
