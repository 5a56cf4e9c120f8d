"""The interface every backend implements, and what the backends share (migrations)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from hvbot.database.version_watch import VersionWatch

T = TypeVar("T")
log = logging.getLogger("hvbot.database")


class Row(Protocol):
    """A row read: by column name and by position, and its column names (so `dict(row)`
    works). SQLite's `sqlite3.Row` and asyncpg's `Record` are both; neither is a Mapping."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class DatabaseError(Exception):
    """The database cannot be used as configured; the message is one line saying what to fix."""


class StoreUnavailable(Exception):
    """The database cannot be reached just now (its server restarting or out of reach, a
    SQLite file locked past its busy timeout or failing to be read): nothing was done, and the
    same work may succeed in a moment. People are told so privately; periodic work tries again
    at its next round."""


class Availability:
    """Whether a database answered its last request: the one warning when it stops answering
    and the one line when it answers again, however many requests fail in between (each
    request that fails meanwhile is logged by its caller at DEBUG only)."""

    def __init__(self, name: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.clock = clock
        self.away_since: float | None = None

    def lost(self, error: BaseException) -> StoreUnavailable:
        """Note a request that failed because the database is away; the error to raise."""
        reason = f"{error.__class__.__name__}: {error}".strip().rstrip(":")
        if self.away_since is None:
            self.away_since = self.clock()
            log.warning(
                "%s cannot be reached (%s): people are told to try again in a moment, and "
                "the bot keeps trying until it answers",
                self.name,
                reason,
            )
        return StoreUnavailable(f"{self.name} cannot be reached ({reason})")

    def answered(self) -> None:
        """Note a request the database answered (even with a refusal: it is there)."""
        if self.away_since is not None:
            away = self.clock() - self.away_since
            self.away_since = None
            log.info("%s answers again, after %.1f s away", self.name, away)

    @contextlib.contextmanager
    def watching(
        self,
        errors: tuple[type[BaseException], ...],
        unreachable: Callable[[BaseException], bool],
    ) -> Iterator[None]:
        """A request to the database: one of its `errors` that says it is away becomes
        `StoreUnavailable`; any other answer, a refusal included, says it is there."""
        try:
            yield
        except errors as exc:
            if unreachable(exc):
                raise self.lost(exc) from exc
            self.answered()
            raise
        except Duplicate:
            self.answered()
            raise
        self.answered()


class Duplicate(Exception):
    """A row broke a uniqueness rule (a second open game in one channel, say)."""


class Transaction(Protocol):
    """The statements of one transaction, all or nothing."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...


Work = Callable[[Transaction], Awaitable[T]]
Answer = Literal["execute", "fetch", "fetchrow", "fetchval"]


@dataclass(frozen=True)
class Statement(Generic[T]):
    """A change that is one SQL statement: a `Work` like any other, and what PostgreSQL
    sends alone, without BEGIN and COMMIT around it (a statement is a transaction by
    itself), in one round trip instead of three. `answer` is how it is read (`execute`: rows
    changed); `then` turns that into the work's value, and may raise (a compare-and-set that
    found the game moved on, say), as the work would."""

    sql: str
    args: tuple[Any, ...] = ()
    answer: Answer = "execute"
    then: Callable[[Any], T] | None = None

    async def __call__(self, tx: Transaction) -> T:
        found = await getattr(tx, self.answer)(self.sql, *self.args)
        return self.then(found) if self.then is not None else found


@dataclass(frozen=True)
class OneStatement(Generic[T]):
    """A change written twice, as steps (`work`, what SQLite runs, and PostgreSQL when
    `postgresql` is None) and as one PostgreSQL statement that does the same (data-modifying
    common table expressions): a change made on every move costs one round trip to the
    server instead of one per step. Tests run both forms on the same games and compare what
    they stored."""

    work: Work[T]
    postgresql: Statement[T] | None

    async def __call__(self, tx: Transaction) -> T:
        return await self.work(tx)


class Database(Protocol):
    """An open database: reads, whole transactions, migrations, and a clean close."""

    backend: str  # "sqlite" or "postgresql"

    @property
    def watch(self) -> VersionWatch | None:
        """Other processes' changes to the games, heard as they commit: PostgreSQL's (a
        SQLite file has one process, which knows its own changes)."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...

    async def transact(self, work: Work[T]) -> T:
        """Run `work` as one transaction: its value, or what it raised with nothing kept."""
        ...

    async def migrate(self) -> int:
        """Apply the migrations not applied yet, once even if several processes start
        together; the schema version."""
        ...

    async def columns(self) -> dict[str, list[str]]:
        """Every table's column names, in order: the schema, for comparing the backends."""
        ...

    async def close(self, *, grace_s: float = 5.0) -> None:
        """Close once the changes under way are saved (for at most `grace_s`)."""
        ...


def migrations(backend: str) -> list[tuple[int, str]]:
    """The numbered migrations of one backend, in order (`NNNN_name.sql`)."""
    folder = resources.files("hvbot.database").joinpath("migrations", backend)
    found = []
    for item in folder.iterdir():
        name = item.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), item.read_text(encoding="utf-8")))
    return sorted(found)


async def apply_migrations(tx: Transaction, backend: str) -> int:
    """Apply, in the caller's transaction, every numbered migration of `backend` not applied
    yet; the schema version. Each number is checked on its own, not just the highest: a
    database that received a later migration first (from a branch, say) still gets the
    earlier one."""
    await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    applied = {row[0] for row in await tx.fetch("SELECT version FROM schema_version")}
    for number, sql in migrations(backend):
        if number not in applied:
            for statement in split_sql(sql):
                await tx.execute(statement)
            await tx.execute("INSERT INTO schema_version (version) VALUES (?)", number)
            applied.add(number)
    return max(applied, default=0)


def split_sql(script: str) -> list[str]:
    """Statements of a migration file, without comments (ours have neither semicolons nor
    `--` inside string literals). A function's body between `$$` keeps its semicolons.
    PostgreSQL refuses a statement that is only a comment."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    statements: list[str] = []
    current: list[str] = []
    for i, part in enumerate("\n".join(lines).split("$$")):
        if i % 2:  # inside a dollar-quoted body
            current.append(f"$${part}$$")
            continue
        *done, rest = part.split(";")
        for piece in done:
            statements.append("".join(current) + piece)
            current = []
        current.append(rest)
    statements.append("".join(current))
    return [s.strip() for s in statements if s.strip()]
