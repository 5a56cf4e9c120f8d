"""Write transactions run whole in the database's own thread, many committed together.

aiosqlite sends every statement to its connection's thread and back, and each return waits for
the event loop to come round. A move's transaction has half a dozen statements, and with one
connection the transactions follow one another: under load, when the loop takes milliseconds
to come round, the writes queued behind each other held up every move on the server. Here a
transaction is a plain function of the `sqlite3` connection, run in the database thread in one
trip; those that arrive while a batch is being written go together in the next one, each in a
savepoint of one transaction, so one that fails (a stale version) is undone alone, and a whole
batch costs one commit.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]
Outcome = tuple[bool, Any]  # (succeeded, its value or its exception)


def run_batch(conn: sqlite3.Connection, works: list[Work]) -> list[Outcome]:
    """In the database thread: every work in its own savepoint of one transaction. A failure
    of the transaction itself (the disk is full, say) fails every work in it."""
    outcomes: list[Outcome] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for work in works:
            conn.execute("SAVEPOINT work")
            try:
                value = work(conn)
            except Exception as exc:  # its caller gets it; the others go on
                conn.execute("ROLLBACK TO work")
                outcomes.append((False, exc))
            else:
                outcomes.append((True, value))
            conn.execute("RELEASE work")
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if not isinstance(exc, sqlite3.Error):
            raise
        return [(False, exc)] * len(works)
    return outcomes


class WriteQueue:
    """Runs write transactions (`run(work)`) in the thread of one aiosqlite connection, in
    the order they were asked for. It must be the connection's only writer: a transaction
    begun statement by statement elsewhere would take its batches in. A work must not touch
    the event loop (it runs in another thread).
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._queued: list[tuple[Work, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` in a transaction; its value, or what it raised (then nothing it did is
        kept). If the caller is cancelled, the work may still be committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((work, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())
        return await future

    async def _write_all(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                # aiosqlite's own way of running a function in its thread (its backup and
                # iterdump use it); its public methods take one statement per trip.
                outcomes = await self._conn._execute(
                    run_batch, self._conn._conn, [work for work, _ in batch]
                )
            except asyncio.CancelledError:  # the bot is stopping
                for _, future in [*batch, *self._queued]:
                    future.cancel()
                raise
            except Exception as exc:  # the connection is gone
                outcomes = [(False, exc)] * len(batch)
            self._settle(batch, outcomes)

    @staticmethod
    def _settle(batch: list[tuple[Work, asyncio.Future[Any]]], outcomes: list[Outcome]) -> None:
        """Wake the callers one turn of the event loop apart. Woken together, the tens of
        moves of a batch all went on (to their boards) in the same turn, and the loop read
        nothing else, not even the next interaction to acknowledge, for a few hundred ms."""
        _wake_next(asyncio.get_running_loop(), iter(zip(batch, outcomes, strict=True)))


def _wake_next(
    loop: asyncio.AbstractEventLoop,
    settled: Iterator[tuple[tuple[Work, asyncio.Future[Any]], Outcome]],
) -> None:
    """Wake the next caller of a settled batch, and come back for the one after at the next
    turn of the loop. A plain function handed what it needs: a closure that scheduled itself
    would hold itself (through its own cell), a reference cycle that kept the whole batch, its
    works and their statements, until the garbage collector's next full pass."""
    for (_, future), (succeeded, value) in settled:
        if future.done():  # its caller was cancelled
            continue
        if succeeded:
            future.set_result(value)
        else:
            future.set_exception(value)
        loop.call_soon(_wake_next, loop, settled)
        return
