"""A database that cannot be reached just now: which errors say so, what a request then raises,
what the log says (once when it goes, once when it is back), what a person is told, and how
start-up waits for a server that does not answer yet. Real parts: a real SQLite file locked by
another connection, the tests' real PostgreSQL server stopped and started."""

from __future__ import annotations

import asyncio
import logging
import socket
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest
from conftest import new_postgres_database
from postgres_server import PostgresServer

from data.texts import texts_for
from hvbot.database import (
    DatabaseError,
    StoreUnavailable,
    failed,
    is_unreachable,
    open_database,
)
from hvbot.database import sqlite as sqlite_backend
from hvbot.database.postgres import PostgresDatabase, connect_pool, unreachable
from hvbot.database.sqlite import SqliteDatabase
from hvbot.handlers.answering import answer_failure
from hvbot.services import BotError

WENT = "cannot be reached"
BACK = "answers again"


def lines(caplog: pytest.LogCaptureFixture, words: str, level: int | None = None) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if words in r.getMessage() and (level is None or r.levelno == level)
    ]


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(111, "Connect call failed"),
        ConnectionResetError(104, "Connection reset by peer"),
        TimeoutError(),
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.InterfaceError("cannot perform operation: connection is closed"),
        StoreUnavailable("PostgreSQL at x cannot be reached"),
    ],
    ids=repr,
)
def test_errors_that_say_the_server_is_away_are_told_apart(error: BaseException) -> None:
    assert is_unreachable(error)


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.UniqueViolationError("duplicate key"),
        asyncpg.UndefinedTableError("relation does not exist"),
        asyncpg.DataError("invalid input for query argument"),
        sqlite3.OperationalError("no such table: games"),
        ValueError("a bug"),
        BotError("a refusal"),
    ],
    ids=repr,
)
def test_mistakes_are_not_taken_for_a_server_away(error: BaseException) -> None:
    """A statement refused for what it says would be refused again: not "try again"."""
    assert not is_unreachable(error) and not unreachable(error)


async def test_a_sqlite_file_locked_past_its_busy_timeout_is_unavailable_until_let_go(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process holds the file's write lock longer than the busy timeout: a write is
    refused with StoreUnavailable (said once in the log, however many fail), reads go on (the
    file is in WAL mode), and once the lock is let go the next write works and the log says so."""
    caplog.set_level(logging.INFO, logger="hvbot.database")
    path = tmp_path / "games.sqlite3"
    db = await open_database(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        await db.transact(lambda tx: tx.execute("CREATE TABLE notes (text TEXT)"))
        await db.conn.execute("PRAGMA busy_timeout = 50")  # type: ignore[attr-defined]
        other.execute("BEGIN IMMEDIATE")
        for _ in range(3):
            with pytest.raises(StoreUnavailable):
                await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('x')"))
        assert await db.fetchval("SELECT COUNT(*) FROM notes") == 0
        assert len(lines(caplog, WENT, logging.WARNING)) == 1, caplog.text
        other.execute("ROLLBACK")
        await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('y')"))
        assert await db.fetchval("SELECT COUNT(*) FROM notes") == 1
        assert len(lines(caplog, BACK, logging.INFO)) == 1, caplog.text
    finally:
        other.close()
        await db.close()


async def test_a_sqlite_file_locked_at_start_is_one_line_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Locked by another program for longer than the busy timeout while the bot starts: a
    DatabaseError of one line (the bot prints it and exits 2), not a traceback."""
    path = tmp_path / "games.sqlite3"
    await (await open_database(path)).close()
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_MS", 50)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseError, match="another program may hold it locked"):
            await open_database(path)
        other.execute("ROLLBACK")
        await (await open_database(path)).close()
    finally:
        other.close()


async def test_a_sqlite_file_moved_away_while_the_bot_runs_is_not_written_until_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Changes made to a file moved away (or deleted) would be lost at the next start: the
    bot says once that the file is gone and takes none, until the file is back."""
    caplog.set_level(logging.INFO, logger="hvbot.database")
    path = tmp_path / "games.sqlite3"
    db = await open_database(path)
    try:
        await db.transact(lambda tx: tx.execute("CREATE TABLE notes (text TEXT)"))
        path.rename(tmp_path / "moved.sqlite3")
        for _ in range(2):
            with pytest.raises(StoreUnavailable, match="removed or replaced"):
                await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('x')"))
        (tmp_path / "moved.sqlite3").rename(path)
        await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('y')"))
        assert await db.fetchval("SELECT text FROM notes") == "y"
    finally:
        await db.close()
    assert len(lines(caplog, WENT, logging.WARNING)) == 1, caplog.text
    assert len(lines(caplog, BACK, logging.INFO)) == 1, caplog.text


async def test_a_read_trusts_the_sqlite_file_found_in_place_a_moment_ago(tmp_path: Path) -> None:
    """Looking for the file is a stat of its path, and a bot setting up many games reads tens
    of thousands of times a minute: a read within IN_PLACE_S of the last look is answered from
    the file the bot has open without looking again. A change always looks; once the file is
    found gone, reads look too (and are refused) until it is back; past IN_PLACE_S they look."""
    now = [100.0]
    path, moved = tmp_path / "games.sqlite3", tmp_path / "moved.sqlite3"
    db = await open_database(path)
    assert isinstance(db, sqlite_backend.SqliteDatabase)
    db.availability.clock = lambda: now[0]
    read = "SELECT text FROM notes"
    try:
        await db.transact(lambda tx: tx.execute("CREATE TABLE notes (text TEXT)"))
        await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('x')"))
        path.rename(moved)
        now[0] += sqlite_backend.IN_PLACE_S / 2
        assert await db.fetchval(read) == "x", "found in place a moment ago: not looked for"
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            await db.transact(lambda tx: tx.execute("INSERT INTO notes VALUES ('y')"))
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            await db.fetchval(read)
        moved.rename(path)
        assert await db.fetchval(read) == "x"
        path.rename(moved)
        now[0] += sqlite_backend.IN_PLACE_S
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            await db.fetchval(read)
        moved.rename(path)
    finally:
        await db.close()


def test_sqlite_codes_that_mean_away_and_those_that_mean_a_mistake(tmp_path: Path) -> None:
    """Read from SQLite's own errors: a file that cannot be opened is away, a bad statement
    is not."""
    with pytest.raises(sqlite3.OperationalError) as cannot_open:
        sqlite3.connect(tmp_path / "no" / "such" / "folder.sqlite3")
    assert sqlite_backend.unreachable(cannot_open.value)
    conn = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError) as mistake:
        conn.execute("SELECT * FROM nothing_here")
    assert not sqlite_backend.unreachable(mistake.value)


async def test_postgresql_stopped_and_started_again_under_an_open_pool(
    postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Every request while the server is stopped fails at once with StoreUnavailable, one
    warning for all of them and no traceback (asyncpg's own reconnection tries included);
    started again, the same pool serves the next request, and the log says it is back."""
    caplog.set_level(logging.INFO)
    db = await PostgresDatabase.open(await new_postgres_database(postgres))
    try:
        assert await db.fetchval("SELECT 1") == 1
        postgres.stop()
        try:
            for _ in range(3):
                with pytest.raises(StoreUnavailable):
                    await db.fetchval("SELECT 1")
                with pytest.raises(StoreUnavailable):
                    await db.transact(lambda tx: tx.fetchval("SELECT 2"))
        finally:
            postgres.start()
        assert await db.transact(lambda tx: tx.fetchval("SELECT 3")) == 3
    finally:
        await db.close()
    assert len(lines(caplog, WENT, logging.WARNING)) == 1, caplog.text
    assert len(lines(caplog, BACK, logging.INFO)) == 1, caplog.text
    assert not [r for r in caplog.records if r.exc_info], caplog.text


def nobody_listening() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free, and left closed
    return f"postgresql://bot:secret@127.0.0.1:{port}/games"


async def test_a_server_reached_through_its_socket_is_named_by_its_socket(
    tmp_path: Path,
) -> None:
    """A URL may name the folder of a server's unix socket instead of a host: when nobody
    listens there, the one line names that folder and port, not a host never tried."""
    url = f"postgresql://bot:secret@/games?host={tmp_path}&port=5999"
    with pytest.raises(DatabaseError) as at_once:
        await connect_pool(url, wait_s=0)
    assert f"cannot reach PostgreSQL at {tmp_path}:5999/games (" in str(at_once.value)
    assert "secret" not in str(at_once.value)


async def test_start_up_waits_for_a_server_with_one_line_then_gives_up_saying_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nobody listens: one warning saying how it tries again and for how long, no line per
    try, then after the wait a DatabaseError of one line, without the password."""
    caplog.set_level(logging.DEBUG, logger="hvbot.database")
    url = nobody_listening()
    with pytest.raises(DatabaseError) as at_once:
        await connect_pool(url, wait_s=0)
    assert "cannot reach PostgreSQL at 127.0.0.1:" in str(at_once.value)
    assert not caplog.records, "giving up at once is the error alone"
    with pytest.raises(DatabaseError) as waited:
        await connect_pool(url, wait_s=2.5)  # tries after 1 s, then the next pause is past it
    message = str(waited.value)
    assert "after trying for 1 s" in message and "secret" not in message, message
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "for up to 2 s (DATABASE_WAIT)" in said[0], said
    assert "secret" not in said[0]


async def test_a_server_that_refuses_the_database_is_not_waited_for(
    postgres: PostgresServer,
) -> None:
    """Only a server out of reach is waited for: one that answers "no such database" is a
    setting to fix, said at once."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    with pytest.raises(DatabaseError, match="has no such database"):
        await connect_pool(postgres.database_url("no_such_games"), wait_s=600)
    assert loop.time() - began < 60, "not waited for"


@pytest.mark.parametrize("locale", ["en-US", "de", "fr", "it"])
async def test_a_person_is_told_privately_in_their_language_never_the_apology(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    texts = texts_for(locale)
    said: list[str] = []

    async def say(text: str) -> None:
        said.append(text)

    away = StoreUnavailable("PostgreSQL at x cannot be reached")
    await answer_failure(away, 1, texts, say)
    await answer_failure(
        away, 1, texts, say, away="bot.error.store_unavailable_after_move", apology="bot.apology"
    )
    assert said == [
        texts("bot.error.store_unavailable"),
        texts("bot.error.store_unavailable_after_move"),
    ]
    assert texts("bot.apology") not in said
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_background_work_failing_while_away_is_one_debug_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    log = logging.getLogger("hvbot.test")
    caplog.set_level(logging.DEBUG, logger="hvbot.test")
    failed(log, StoreUnavailable("PostgreSQL at x cannot be reached"), "game %s: a check", 3)
    failed(log, RuntimeError("a bug"), "game %s: a check", 4)
    (away, bug) = caplog.records
    assert away.levelno == logging.DEBUG and not away.exc_info
    assert away.getMessage() == "game 3: a check: PostgreSQL at x cannot be reached"
    assert bug.levelno == logging.ERROR and bug.exc_info


async def test_a_sqlite_file_opens_while_something_holds_on_to_every_cursor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A debugger, a profiler or a traceback may hold on to the cursors of the statements run
    while a file is opened: a statement whose rows were never all read then stays in
    progress, and SQLite refuses the migrations' transaction beside it."""
    held: list[aiosqlite.Cursor] = []
    made = aiosqlite.Cursor.__init__

    def holding(self: aiosqlite.Cursor, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        held.append(self)

    monkeypatch.setattr(aiosqlite.Cursor, "__init__", holding)
    database = await SqliteDatabase.open(tmp_path / "games.sqlite3")
    try:
        assert held, "the opening ran its statements through the held cursors"
        assert await database.fetchval("SELECT count(*) FROM schema_version")
    finally:
        await database.close()
