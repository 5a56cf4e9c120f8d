"""Changes queued together are written together, and one that fails is undone alone."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite
import pytest
from cyclic_garbage import cyclic_garbage, kinds

from hvbot.database.write_queue import WriteQueue


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "queue.sqlite3")


@pytest.fixture
async def conn(path):
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("CREATE TABLE moves (n INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    yield conn
    await conn.close()


def _insert(n: int, text: str):
    def work(db: sqlite3.Connection) -> int:
        db.execute("INSERT INTO moves (n, text) VALUES (?, ?)", (n, text))
        return n

    return work


async def _rows(conn: aiosqlite.Connection) -> list[tuple[int, str]]:
    async with conn.execute("SELECT n, text FROM moves ORDER BY n") as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def test_changes_asked_at_once_share_commits_and_keep_their_order(conn):
    statements: list[str] = []
    await conn.set_trace_callback(statements.append)
    queue = WriteQueue(conn)
    values = await asyncio.gather(*(queue.run(_insert(n, f"move {n}")) for n in range(20)))
    await conn.set_trace_callback(None)
    assert values == list(range(20))
    assert await _rows(conn) == [(n, f"move {n}") for n in range(20)]
    commits = [s for s in statements if s.strip().upper() == "COMMIT"]
    assert 1 <= len(commits) < 20, statements


async def test_a_failing_change_is_undone_alone(conn):
    queue = WriteQueue(conn)

    def half_then_fail(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO moves (n, text) VALUES (100, 'half done')")
        raise LookupError("stale version")

    duplicate = _insert(1, "the same number again")
    results = await asyncio.gather(
        queue.run(_insert(1, "first")),
        queue.run(half_then_fail),
        queue.run(duplicate),
        queue.run(_insert(2, "second")),
        return_exceptions=True,
    )
    assert results[0] == 1 and results[3] == 2
    assert isinstance(results[1], LookupError)
    assert isinstance(results[2], sqlite3.IntegrityError)
    assert await _rows(conn) == [(1, "first"), (2, "second")]
    # The connection is left out of any transaction: the next change goes through.
    assert await queue.run(_insert(3, "third")) == 3
    assert not conn.in_transaction


async def test_a_failed_transaction_fails_every_change_in_it(conn, path):
    """What SQLite refuses for the whole transaction (here: another connection holds the
    write lock past the busy timeout) is every change's failure, and nothing is kept."""
    other = await aiosqlite.connect(path, isolation_level=None)
    await other.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("PRAGMA busy_timeout = 10")
        queue = WriteQueue(conn)
        results = await asyncio.gather(
            queue.run(_insert(1, "a")), queue.run(_insert(2, "b")), return_exceptions=True
        )
        assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    finally:
        await other.execute("ROLLBACK")
        await other.close()
    assert await _rows(conn) == []
    assert await queue.run(_insert(1, "a")) == 1


async def test_changes_written_leave_no_cycles_behind(conn):
    """Each batch's callers are woken one loop turn apart by a plain function, not by a
    closure that schedules itself: that closure held itself, and with it the batch's works
    (each with its statements), until the garbage collector's next full pass."""
    queue = WriteQueue(conn)
    await queue.run(_insert(0, "before"))  # the connection's own first-use objects
    with cyclic_garbage() as garbage:
        await asyncio.gather(*(queue.run(_insert(n, f"move {n}")) for n in range(1, 11)))
        await queue.run(_insert(11, "alone"))
    assert garbage == [], kinds(garbage)
