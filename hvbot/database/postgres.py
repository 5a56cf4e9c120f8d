"""PostgreSQL through asyncpg: the one truth that several bot processes share.

Each transaction borrows a pooled connection and runs in a real transaction at PostgreSQL's
default READ COMMITTED level. That is enough for the bot's compare-and-set writes: an
`UPDATE ... WHERE version = ?` that meets a concurrent change waits for it to commit, then sees
the new version and changes nothing, so exactly one of two conflicting moves is stored.
Migrations take a transaction-scoped advisory lock first, so processes started together
migrate once, one after another.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg

from hvbot.database.base import DatabaseError, Duplicate, Row, Work, apply_migrations
from hvbot.runtime.metrics import database_errors

T = TypeVar("T")
POOL_SIZE = 10  # connections per process: a move holds one for a few milliseconds
CONNECT_TIMEOUT_S = 10.0
MIGRATION_LOCK = 0x68766270  # pg_advisory_xact_lock key held while migrating ("hvbp")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (none of ours sits in a literal, but
    quoted text is skipped all the same)."""
    out, n, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(char)
    return "".join(out)


def _changed(status: str) -> int:
    """Rows changed, from a command status such as `UPDATE 1` or `INSERT 0 3`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@contextlib.contextmanager
def _duplicates() -> Iterator[None]:
    """A broken uniqueness rule as the backends' common `Duplicate`."""
    try:
        yield
    except asyncpg.UniqueViolationError as exc:
        raise Duplicate(str(exc)) from exc


class PostgresTransaction:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        with _duplicates():
            return _changed(await self._conn.execute(numbered(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with _duplicates():
                await self._conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with _duplicates():
            return list(await self._conn.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with _duplicates():
            row: Row | None = await self._conn.fetchrow(numbered(sql), *args)
        return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with _duplicates():
            return await self._conn.fetchval(numbered(sql), *args)


# What a database that cannot be reached just now raises (a restart, a network cut), as opposed
# to a statement it refused: the same work can succeed once it is back.
UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.InterfaceError,
)
# Every error the database gives, counted for the operators' metrics (a broken uniqueness rule
# is `Duplicate` by then, an expected answer rather than an error).
ERRORS = (*UNREACHABLE, asyncpg.PostgresError)


def _where(url: str) -> str:
    """The server and database of a URL, without its password: for error messages."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or '/'}"


async def connect_pool(url: str) -> asyncpg.Pool:
    """A pool of connections, or DatabaseError with one line saying what to fix."""
    where = _where(url)
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT_S
        )
    except asyncpg.InvalidPasswordError as exc:
        raise DatabaseError(
            f"PostgreSQL at {where} refused the user or password in DATABASE_URL ({exc})."
        ) from exc
    except asyncpg.InvalidCatalogNameError as exc:
        raise DatabaseError(
            f"PostgreSQL at {where} has no such database: create it (createdb) or fix the name "
            "in DATABASE_URL."
        ) from exc
    except (OSError, socket.gaierror, TimeoutError) as exc:
        raise DatabaseError(
            f"cannot reach PostgreSQL at {where} ({exc.__class__.__name__}: {exc}); is the "
            "server running, and are the host and port in DATABASE_URL right?"
        ) from exc
    except (ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise DatabaseError(f"DATABASE_URL cannot be used for PostgreSQL: {exc}") from exc
    assert pool is not None
    return pool


class PostgresDatabase:
    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.where = _where(url)
        self._pending = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        database = cls(await connect_pool(url), url)
        try:
            await database.migrate()
        except BaseException:
            await database.pool.close()
            raise
        return database

    def __str__(self) -> str:
        return f"PostgreSQL at {self.where}"

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with database_errors(self.backend, ERRORS):
            return list(await self.pool.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with database_errors(self.backend, ERRORS):
            row: Row | None = await self.pool.fetchrow(numbered(sql), *args)
        return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with database_errors(self.backend, ERRORS):
            return await self.pool.fetchval(numbered(sql), *args)

    async def transact(self, work: Work[T]) -> T:
        self._pending += 1
        self._idle.clear()
        try:
            with database_errors(self.backend, ERRORS):
                async with self.pool.acquire() as conn, conn.transaction():
                    return await work(PostgresTransaction(conn))
        finally:
            self._pending -= 1
            if not self._pending:
                self._idle.set()

    async def migrate(self) -> int:
        async def work(tx: PostgresTransaction) -> int:
            await tx.fetchval("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)
            return await apply_migrations(tx, self.backend)

        return await self.transact(work)

    async def columns(self) -> dict[str, list[str]]:
        rows = await self.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        found: dict[str, list[str]] = {}
        for row in rows:
            found.setdefault(row["table_name"], []).append(row["column_name"])
        return found

    async def close(self, *, grace_s: float = 5.0) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace_s)
        try:
            await asyncio.wait_for(self.pool.close(), grace_s)
        except TimeoutError:
            self.pool.terminate()
