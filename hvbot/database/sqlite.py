"""The embedded default: one SQLite file through aiosqlite, written in batches.

Reads are single statements sent to aiosqlite's thread. Writes go through `WriteQueue`, which
commits the transactions that arrive together in one batch, each in a savepoint of its own.
A transaction here is the same `async` function PostgreSQL awaits; since its statements are
plain `sqlite3` calls that never suspend, the database thread runs it to the end by stepping
the coroutine once (`run_to_end`). Several processes may share the file: `BEGIN IMMEDIATE` and
the busy timeout put their writes one after another, and migrations run in one such write.

A file that cannot be used just now (locked by another process past the busy timeout, a disk
that fails or is full, a file or folder made unreadable) fails the request with
`StoreUnavailable`, said to people as "try again in a moment" and logged once
(`Availability`); a statement SQLite refuses for what it says is a mistake and stays one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from hvbot.database.base import (
    Availability,
    DatabaseError,
    Duplicate,
    Row,
    StoreUnavailable,
    Work,
    apply_migrations,
)
from hvbot.database.write_queue import WriteQueue
from hvbot.infra.metrics import database_errors

log = logging.getLogger(__name__)

T = TypeVar("T")
ERRORS = (sqlite3.Error, OSError)  # counted for the operators' metrics
BUSY_TIMEOUT_MS = 5000  # another process's write in progress: wait this long for it
# A read trusts the file to be in place if it was found there this recently (seconds): looking
# costs a stat of its path, about a tenth of a millisecond on a busy disk, and a bot setting
# up many games reads tens of thousands of times a minute. A write always looks (see
# `_reaching`).
IN_PLACE_S = 1.0
# SQLite's result codes that say the file cannot be used just now, not that a statement is
# wrong: busy or locked (past the busy timeout), a failing or full disk, a file that cannot be
# opened or written (its permissions changed under the bot).
AWAY_CODES = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_READONLY,
    }
)


def unreachable(error: BaseException) -> bool:
    """Whether `error` from SQLite says the file cannot be used just now (see AWAY_CODES)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in AWAY_CODES


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at `path` (its device and inode), None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def run_to_end(work: Awaitable[T]) -> T:
    """Drive a coroutine (any awaitable, as a `Work` may return) that never suspends: a
    transaction of `SqliteTransaction`."""
    steps = work.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        value: T = done.value
        return value
    steps.close()
    raise RuntimeError("a SQLite transaction awaited something other than its own statements")


async def _use_wal(conn: aiosqlite.Connection) -> None:
    """Switch the file to write-ahead logging. The switch needs the file to itself, and SQLite
    answers "database is locked" at once, without waiting its busy timeout, while another
    process opening the same new file holds it: so the switch is tried again for as long."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    pause = 0.01
    while True:
        try:
            # Its row read to the end: a statement with a row left unread stays in progress
            # while anything holds its cursor, and SQLite refuses a transaction beside it.
            await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() >= deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.2)


class SqliteTransaction:
    """Statements on the `sqlite3` connection, in the database thread."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def _run(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise Duplicate(str(exc)) from exc
            raise

    async def execute(self, sql: str, *args: Any) -> int:
        return self._run(sql, args).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            self._run(sql, row)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return self._run(sql, args).fetchall()

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = self._run(sql, args).fetchone()
        return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = self._run(sql, args).fetchone()
        return None if row is None else row[0]


class SqliteDatabase:
    """One aiosqlite connection, opened at start-up, shared by every handler."""

    backend = "sqlite"
    watch = None  # one process per file: no other process's changes to hear of

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self.path = path
        self.conn = conn
        self.availability = Availability(f"the SQLite file {str(path)!r}")
        self._file = _identity(path)  # the file opened, to notice it removed or replaced
        self._in_place_at: float | None = None  # when it was last found there
        self._queue = WriteQueue(conn)
        self._pending = 0  # transactions asked for and not yet settled
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        path = Path(path)
        if path.parent and not path.parent.exists():
            raise DatabaseError(
                f"DATABASE_URL names a SQLite file in {str(path.parent)!r}, which does not "
                "exist: create the folder or name another file."
            )
        try:
            _create_private(path)
            # The busy timeout from the first statement on: another process may be writing.
            conn = await aiosqlite.connect(
                str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000
            )
        except (sqlite3.Error, OSError) as exc:
            raise DatabaseError(f"cannot open the SQLite file {str(path)!r}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        try:
            await _use_wal(conn)
            await conn.execute("PRAGMA foreign_keys = ON")
            # Temporary tables and journals in memory, not in temporary files: SQLite buffers
            # the rows of every `RETURNING` (an owed post, a claim, a take) in a temporary
            # table, and keeps the pages a write changes inside a savepoint (each transaction
            # of the write queue is one) in a journal of its own. In files, each cost system
            # calls (a page cache mapped and unmapped, pages written out), on every change.
            await conn.execute("PRAGMA temp_store = MEMORY")
            database = cls(conn, path)
            await database.migrate()
        except (sqlite3.Error, StoreUnavailable) as exc:
            await conn.close()
            if not (isinstance(exc, StoreUnavailable) or unreachable(exc)):
                raise
            raise DatabaseError(
                f"cannot use the SQLite file {str(path)!r} ({exc.__cause__ or exc}): another "
                "program may hold it locked, or its disk may be full or failing."
            ) from exc
        _warn_if_readable(path)
        return database

    def __str__(self) -> str:
        return str(self.path)

    def _in_place(self, *, writing: bool) -> bool:
        """Whether the file opened is still at its path. A write always looks; a read trusts
        a look less than IN_PLACE_S ago while the file answers (it reads the file the bot
        has open, so at worst what was there a moment before)."""
        now = self.availability.clock()
        if (
            not writing
            and self.availability.away_since is None
            and self._in_place_at is not None
            and now - self._in_place_at < IN_PLACE_S
        ):
            return True
        if _identity(self.path) != self._file:
            return False
        self._in_place_at = now
        return True

    @contextlib.contextmanager
    def _reaching(self, *, writing: bool = False) -> Iterator[None]:
        """A request to the file: an error saying it cannot be used just now becomes
        `StoreUnavailable` (nothing was kept), and whether it could is noted for the log.

        A file removed (or replaced) while the bot runs would go on taking changes that
        nobody could read again after a restart; so the bot stops using it until the same
        file is back where it was (moved back, say): at once for a change, within IN_PLACE_S
        for a read."""
        if not self._in_place(writing=writing):
            raise self.availability.lost(
                FileNotFoundError(
                    "it was removed or replaced while the bot ran; move it back, or restart "
                    "the bot to use the file there now"
                )
            )
        with (
            self.availability.watching((sqlite3.Error,), unreachable),
            database_errors(self.backend, ERRORS),
        ):
            yield

    # A read is one trip to aiosqlite's thread (`execute_fetchall`: the statement run and its
    # rows read there together). Through a cursor it was three (execute, fetch, close), each a
    # hand-over to the thread and back through the event loop's wake-up pipe: a game's set-up
    # reads a score of times. A row asked for alone is read with the rest of its statement's
    # rows, which the bot's single-row reads (by key) do not have.
    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with self._reaching():
            return list(await self.conn.execute_fetchall(sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with self._reaching():
            rows = await self.conn.execute_fetchall(sql, args)
            return next(iter(rows), None)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    async def transact(self, work: Work[T]) -> T:
        self._pending += 1
        self._idle.clear()
        try:
            with self._reaching(writing=True):
                return await self._queue.run(lambda db: run_to_end(work(SqliteTransaction(db))))
        finally:
            self._pending -= 1
            if not self._pending:
                self._idle.set()

    async def migrate(self) -> int:
        """The write lock of the transaction keeps a second process out until it is done."""
        return await self.transact(lambda tx: apply_migrations(tx, self.backend))

    async def columns(self) -> dict[str, list[str]]:
        tables = await self.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        found = {}
        for table in tables:
            info = await self.fetch(f"PRAGMA table_info({table['name']})")
            found[table["name"]] = [column["name"] for column in info]
        return found

    async def close(self, *, grace_s: float = 5.0) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace_s)
        await self.conn.close()


def _create_private(path: Path) -> None:
    """A new SQLite file is created readable by its owner only: it holds every game's hidden
    cards and seeds. SQLite gives its journal files the database file's permissions, so they
    follow. An existing file is left as its owner set it."""
    try:
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(descriptor)


def _warn_if_readable(path: Path) -> None:
    """An existing file others may read (made before the bot made its files private, or by
    hand) is left as its owner set it, with a warning that says how to close it, as for
    `.env`: it holds every game's hidden cards and seeds. Its journal files too, which SQLite
    makes with the database file's permissions."""
    if os.name != "posix":
        return
    readable = []
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(OSError):
            if each.stat().st_mode & 0o077:
                readable.append(str(each))
    if readable:
        log.warning(
            "%s can be read by other users of this machine, and the games' hidden cards and "
            "seeds are in it: chmod 600 %s",
            ", ".join(readable),
            " ".join(readable),
        )
