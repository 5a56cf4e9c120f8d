"""PostgreSQL through asyncpg: the one truth that several bot processes share.

Each transaction borrows a pooled connection and runs in a real transaction at PostgreSQL's
default READ COMMITTED level. That is enough for the bot's compare-and-set writes: an
`UPDATE ... WHERE version = ?` that meets a concurrent change waits for it to commit, then sees
the new version and changes nothing, so exactly one of two conflicting moves is stored.
Migrations take a transaction-scoped advisory lock first, so processes started together
migrate once, one after another.

When the server restarts or cannot be reached, every request fails at once with
`StoreUnavailable` (logged once, see `Availability`), and the pool connects afresh on the
next request, so the bot carries on by itself once the server is back. At start-up the bot
waits for a server that does not answer yet, with growing pauses (`connect_pool`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import asyncpg

from hvbot.database.base import (
    Availability,
    DatabaseError,
    Duplicate,
    OneStatement,
    Row,
    Statement,
    StoreUnavailable,
    Transaction,
    Work,
    apply_migrations,
)
from hvbot.database.version_watch import VersionWatch
from hvbot.infra.metrics import DATABASE_ROUND_TRIPS, database_errors

T = TypeVar("T")
log = logging.getLogger(__name__)
POOL_SIZE = 10  # connections per process: a move holds one for a few milliseconds
CONNECT_TIMEOUT_S = 10.0
# At start-up, the pauses between tries to reach a server that does not answer yet (it is
# starting too, say), the last repeated; DATABASE_WAIT says for how long in all.
START_RETRY_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
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


# What a database that cannot be reached just now raises (a restart, a network cut, a server
# still starting), as opposed to a statement it refused: the same work can succeed once it is
# back. asyncpg's InterfaceError says "the connection is closed", but its subclasses below it
# say the bot sent something wrong, which no retry mends.
UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.InterfaceError,
)
# Every error the database gives, counted for the operators' metrics (a broken uniqueness rule
# is `Duplicate` by then, an expected answer rather than an error).
ERRORS = (*UNREACHABLE, asyncpg.PostgresError)

MISTAKES = (
    asyncpg.DataError,
    asyncpg.exceptions.ClientConfigurationError,
    asyncpg.exceptions.UnsupportedClientFeatureError,
    asyncpg.exceptions.UnsupportedServerFeatureError,
)


def unreachable(error: BaseException) -> bool:
    """Whether `error` from asyncpg says the server cannot be reached just now."""
    return isinstance(error, UNREACHABLE) and not isinstance(error, MISTAKES)


class _QuietPoolRetries(logging.Filter):
    """asyncpg's pool keeps its one idle connection by reconnecting in the background, and
    logs each failed try with its traceback while the server is away (every 1 to 60 s). The
    database's own warning already says the server is away (`Availability`): those go."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return error is None or not unreachable(error)


logging.getLogger("asyncpg.pool").addFilter(_QuietPoolRetries())


def _where(url: str) -> str:
    """The server and database of a URL, without its password: for error messages. A server
    on the same machine may be reached through its unix socket, named by a `host` folder in
    the query (`postgresql://bot@/games?host=/run/postgresql&port=5433`), as libpq and
    asyncpg read it: the message names that folder, not a host the bot never tried."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = (query.get("host") or [parts.hostname or "localhost"])[-1]
    ports = query.get("port") or ([str(parts.port)] if parts.port else [])
    port = f":{ports[-1]}" if ports else ""
    return f"{host}{port}{parts.path or '/'}"


async def connect_pool(
    url: str, *, wait_s: float = 0.0, own: set[int] | None = None
) -> asyncpg.Pool:
    """A pool of connections, or DatabaseError with one line saying what to fix.

    A server that cannot be reached (not started yet, restarting) is tried again for up to
    `wait_s` seconds, with pauses growing from 1 s to 30 s (`START_RETRY_S`), saying so in one
    line; a server that refuses the user or has no such database is reported at once.
    `own`, if given, holds the server process ids of the pool's connections while they live
    (a change announced by one of them is this process's own, see `VersionWatch`)."""
    where = _where(url)
    loop = asyncio.get_running_loop()
    began = loop.time()
    tries = 0
    while True:
        try:
            pool = await _create_pool(url, where, set() if own is None else own)
        except _NotYet as not_yet:
            waited = loop.time() - began
            pause = START_RETRY_S[min(tries, len(START_RETRY_S) - 1)]
            if waited + pause > wait_s:
                raise DatabaseError(
                    f"cannot reach PostgreSQL at {where} ({not_yet.reason})"
                    + (f" after trying for {waited:.0f} s" if tries else "")
                    + "; is the server running, and are the host and port in DATABASE_URL "
                    "right?"
                ) from not_yet.__cause__
            if not tries:
                log.warning(
                    "cannot reach PostgreSQL at %s (%s); trying again, with pauses growing "
                    "from %.0f s to %.0f s, for up to %.0f s (DATABASE_WAIT)",
                    where,
                    not_yet.reason,
                    START_RETRY_S[0],
                    START_RETRY_S[-1],
                    wait_s,
                )
            tries += 1
            await asyncio.sleep(pause)
            continue
        if tries:
            log.info(
                "PostgreSQL at %s answered after %.1f s and %d tries",
                where,
                loop.time() - began,
                tries + 1,
            )
        return pool


class _NotYet(Exception):
    """The server could not be reached by one try at start-up (`reason`: why, in one line)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_ROUND_TRIPS = DATABASE_ROUND_TRIPS.labels(backend="postgresql")


def _round_trip(query: asyncpg.connection.LoggedQuery) -> None:
    _ROUND_TRIPS.inc()


def _set_up_connection(own: set[int]) -> Callable[[asyncpg.Connection], Awaitable[None]]:
    """Each request a connection sends is counted, for the operators' metrics; its server
    process is one of `own` while it lives."""

    async def set_up(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(_round_trip)
        pid = conn.get_server_pid()
        own.add(pid)
        conn.add_termination_listener(lambda _: own.discard(pid))

    return set_up


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: the bot never changes a session's
    settings, holds an advisory lock past its transaction (only `pg_advisory_xact_lock`), or
    listens on a pooled connection, so asyncpg's reset query (`RESET ALL`, `UNLISTEN *`, ...)
    would be one more round trip after every transaction and every read, for nothing. A
    transaction left open is still rolled back by asyncpg before this is called."""


async def _create_pool(url: str, where: str, own: set[int]) -> asyncpg.Pool:
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=CONNECT_TIMEOUT_S,
            init=_set_up_connection(own),
            reset=_keep_session,
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
    except (OSError, socket.gaierror, TimeoutError, asyncpg.CannotConnectNowError) as exc:
        # CannotConnectNowError: "the database system is starting up" (or shutting down).
        raise _NotYet(f"{exc.__class__.__name__}: {exc}") from exc
    except (ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise DatabaseError(f"DATABASE_URL cannot be used for PostgreSQL: {exc}") from exc
    assert pool is not None
    return pool


class PostgresDatabase:
    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, own: set[int] | None = None) -> None:
        self.pool = pool
        self.where = _where(url)
        self.availability = Availability(f"PostgreSQL at {self.where}")
        self._pending = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Other processes' changes to the games, heard as they commit (see `VersionWatch`).
        self.watch = VersionWatch(
            lambda: asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S), set() if own is None else own
        )

    @classmethod
    async def open(cls, url: str, *, wait_s: float = 0.0) -> PostgresDatabase:
        """Connect (waiting up to `wait_s` for a server that does not answer yet) and
        migrate."""
        own: set[int] = set()
        database = cls(await connect_pool(url, wait_s=wait_s, own=own), url, own)
        try:
            await database.migrate()
        except BaseException as exc:
            database.pool.terminate()
            if isinstance(exc, StoreUnavailable):
                raise DatabaseError(
                    f"PostgreSQL at {database.where} went away while the bot set up its tables "
                    f"({exc.__cause__ or exc}); start the bot again once the server is up."
                ) from exc
            raise
        await database.watch.start()
        return database

    def __str__(self) -> str:
        return f"PostgreSQL at {self.where}"

    @contextlib.contextmanager
    def _reaching(self) -> Iterator[None]:
        """A request to the server: an error saying it is away becomes `StoreUnavailable`
        (a transaction cut short is rolled back by the server; one cut during its very commit
        may have been kept, which a second try meets as a game moved on), and whether the
        server answered is noted for the log (`Availability`); each error is counted for the
        operators' metrics as the server gave it."""
        answers = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)
        with (
            self.availability.watching(answers, unreachable),
            database_errors(self.backend, ERRORS),
        ):
            yield

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with self._reaching():
            return list(await self.pool.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with self._reaching():
            row: Row | None = await self.pool.fetchrow(numbered(sql), *args)
        return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with self._reaching():
            return await self.pool.fetchval(numbered(sql), *args)

    async def transact(self, work: Work[T]) -> T:
        """`work` in one transaction; a change of one statement (`Statement`, or the
        PostgreSQL form of a `OneStatement`) is sent alone, in one round trip."""
        alone = work.postgresql if isinstance(work, OneStatement) else work
        self._pending += 1
        self._idle.clear()
        try:
            with self._reaching():
                async with self.pool.acquire() as conn:
                    if isinstance(alone, Statement):
                        return await alone(PostgresTransaction(conn))
                    async with conn.transaction():
                        return await work(PostgresTransaction(conn))
        finally:
            self._pending -= 1
            if not self._pending:
                self._idle.set()

    async def migrate(self) -> int:
        async def work(tx: Transaction) -> int:
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
        await self.watch.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace_s)
        try:
            await asyncio.wait_for(self.pool.close(), grace_s)
        except TimeoutError:
            self.pool.terminate()
