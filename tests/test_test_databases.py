"""The tests' own databases, made faster than from nothing: a PostgreSQL database handed out
again after an earlier test used it is as empty as one just created (`new_postgres_database`),
and the `hv` bot's SQLite file, a copy of one migrated once, is the file the bot would have made
(`migrated_sqlite_file`); see conftest.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import conftest
import pytest
from conftest import new_postgres_database
from e2e_harness import BotHarness
from postgres_server import PostgresServer, database_name

from hvbot.database import SqliteDatabase
from hvbot.store import GameStore, changes

pytestmark = pytest.mark.e2e  # the `hv` bot is started against the emulated Discord

# What a database holds of its own, beside the server's catalogs: its schemas with their owners
# and rights, every object in them, and its own settings.
LOOK = {
    "schemas": "SELECT nspname, nspowner::regrole::text, nspacl::text FROM pg_namespace"
    " WHERE nspname NOT LIKE 'pg_%' AND nspname <> 'information_schema' ORDER BY 1",
    "objects": "SELECT n.nspname, c.relname, c.relkind FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname NOT LIKE 'pg_%' AND n.nspname <> 'information_schema' ORDER BY 1, 2",
    "functions": "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
    " WHERE n.nspname = 'public' ORDER BY 1",
    "settings": "SELECT s.setconfig::text FROM pg_db_role_setting s"
    " JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()",
}


async def contents(url: str) -> dict[str, list[Any]]:
    conn = await asyncpg.connect(url)
    try:
        return {what: [tuple(r) for r in await conn.fetch(sql)] for what, sql in LOOK.items()}
    finally:
        await conn.close()


async def test_the_tests_reach_their_server_through_its_socket_and_the_bot_also_by_port(
    postgres: PostgresServer,
) -> None:
    """The tests' URLs go through the server's unix socket (a connection with no client
    address); the bot's store works the same through the loopback port, as it reaches a
    server on another machine."""
    url = await new_postgres_database(postgres, migrated=True)
    for through, client in ((url, None), (postgres.tcp_url(database_name(url)), "127.0.0.1")):
        conn = await asyncpg.connect(through)
        try:
            assert await conn.fetchval("SELECT host(inet_client_addr())") == client
        finally:
            await conn.close()
        store = await GameStore.open(through)
        try:
            assert await store.schema_version() > 0
        finally:
            await store.close()


async def test_a_database_handed_out_again_is_as_empty_as_a_new_one(
    postgres: PostgresServer,
) -> None:
    used = await new_postgres_database(postgres)
    fresh = await contents(used)
    assert fresh["objects"] == [] and fresh["settings"] == []
    # A test migrates it, changes its settings, and leaves connections open.
    store = await GameStore.open(used)
    left = await asyncpg.connect(used)
    name = database_name(used)
    postgres.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = on')
    assert (await contents(used))["objects"] != []
    conftest.pytest_runtest_logfinish()  # as when that test has ended

    again = await new_postgres_database(postgres)
    assert again == used, "the database of the test that ended is handed out again"
    assert await contents(again) == fresh
    with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError)):
        await left.fetchval("SELECT 1")  # cut
    # The bot's store migrates it as a new one, and the connection left open was cut.
    reopened = await GameStore.open(again)
    try:
        assert await reopened.schema_version() == await store.schema_version() > 0
    finally:
        await reopened.close()
        await store.close(grace_s=0.1)


async def test_the_bots_sqlite_file_is_the_one_it_would_have_migrated_itself(
    hv: BotHarness, tmp_path: Path
) -> None:
    assert isinstance(hv.database, Path)
    itself = tmp_path / "made_by_the_bot.sqlite3"
    store = await GameStore.open(itself)
    await store.close()
    copied = await (await hv.reader()).db.columns()
    reopened = await GameStore.open(itself)
    try:
        assert copied == await reopened.db.columns()
        assert await (await hv.reader()).schema_version() == await reopened.schema_version()
    finally:
        await reopened.close()
    assert hv.database.stat().st_mode & 0o777 == 0o600, "private, as the bot makes its files"
    with sqlite3.connect(hv.database) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_the_bots_sqlite_commits_do_not_wait_for_the_disk(hv: BotHarness) -> None:
    """As on the tests' PostgreSQL server: see `not_waiting_for_the_disk`."""
    assert hv.bot is not None
    db = hv.bot.service.repo.db
    assert isinstance(db, SqliteDatabase)
    async with db.conn.execute("PRAGMA synchronous") as cursor:
        row = await cursor.fetchone()
    assert row is not None and tuple(row) == (0,), "synchronous = OFF"


async def rows_and_sequences(url: str) -> dict[str, Any]:
    """Every table's rows and every sequence's next value, in a database of the bot's."""
    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        seen: dict[str, Any] = {
            table: [tuple(r) for r in await conn.fetch(f'SELECT * FROM "{table}" ORDER BY 1')]
            for table in tables
        }
        sequences = await conn.fetch(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'"
        )
        seen["sequences"] = sorted((r[0], r[1]) for r in sequences)
        return seen
    finally:
        await conn.close()


async def test_a_migrated_database_handed_out_again_is_as_one_just_migrated(
    postgres: PostgresServer,
) -> None:
    used = await new_postgres_database(postgres, migrated=True)
    fresh = {"contents": await contents(used), "rows": await rows_and_sequences(used)}
    assert fresh["rows"]["schema_version"], "migrated"
    assert fresh["rows"]["games"] == [] and all(v is None for _, v in fresh["rows"]["sequences"])
    # A test stores games (rows, sequences moved on), changes its settings, and leaves a
    # connection open.
    store = await GameStore.open(used)
    for channel in (1, 2):
        await store.create(
            changes.create_lobby(
                game="pylons",
                guild_id=1,
                channel_id=channel,
                creator_id=7,
                creator_name="Ada",
                options={},
                at=store.clock(),
            )
        )
    name = database_name(used)
    postgres.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = on')
    assert (await rows_and_sequences(used))["games"] != []
    conftest.pytest_runtest_logfinish()  # as when that test has ended

    again = await new_postgres_database(postgres, migrated=True)
    assert again == used, "the database of the test that ended is handed out again"
    assert {"contents": await contents(again), "rows": await rows_and_sequences(again)} == fresh
    reopened = await GameStore.open(again)
    try:
        lobby = await reopened.create(
            changes.create_lobby(
                game="pylons",
                guild_id=1,
                channel_id=1,
                creator_id=7,
                creator_name="Ada",
                options={},
                at=reopened.clock(),
            )
        )
        assert lobby.id == 1, "numbered from the start again"
    finally:
        await reopened.close()
        await store.close(grace_s=0.1)


async def test_a_database_whose_schema_a_test_changed_is_migrated_again(
    postgres: PostgresServer,
) -> None:
    used = await new_postgres_database(postgres, migrated=True)
    fresh = await contents(used)
    conn = await asyncpg.connect(used)
    await conn.execute("CREATE UNIQUE INDEX one_version ON schema_version (version)")
    await conn.execute("DELETE FROM schema_version WHERE version = 1")
    await conn.close()
    conftest.pytest_runtest_logfinish()

    again = await new_postgres_database(postgres, migrated=True)
    assert again == used
    assert await contents(again) == fresh, "no index of the test's own"
    assert len((await rows_and_sequences(again))["schema_version"]) > 1
    conftest.pytest_runtest_logfinish()
    # And one migrated only part of the way, or not at all, is handed out migrated too.
    empty = await new_postgres_database(postgres)
    assert empty == used and (await contents(empty))["objects"] == []
    conftest.pytest_runtest_logfinish()
    assert await new_postgres_database(postgres, migrated=True) == used
    assert await contents(used) == fresh


async def test_databases_migrated_apart_have_the_same_schema_digest(
    postgres: PostgresServer,
) -> None:
    """A database handed out migrated is recognised as the migrations' by its digest, and only
    loses its rows: one migrated anew (its schema changed by a test, or handed out empty) must
    have the digest of the first, whatever numbers its objects were given, or it would be
    migrated again at every later test."""
    first = await new_postgres_database(postgres, migrated=True)
    second = await new_postgres_database(postgres, migrated=True)
    assert first != second
    digests = []
    for url in (first, second):
        conn = await asyncpg.connect(url)
        try:
            digests.append(await conn.fetchval(conftest.SCHEMA_DIGEST))
        finally:
            await conn.close()
    assert digests[0] == digests[1]


async def table_number(url: str) -> int:
    """The `games` table's object number: a table made again has a new one."""
    conn = await asyncpg.connect(url)
    try:
        number: int = await conn.fetchval("SELECT 'games'::regclass::oid")
        return number
    finally:
        await conn.close()


async def test_a_database_migrated_again_keeps_its_tables_when_handed_out_next(
    postgres: PostgresServer,
) -> None:
    used = await new_postgres_database(postgres)  # handed out empty: migrated when next asked
    conftest.pytest_runtest_logfinish()
    again = await new_postgres_database(postgres, migrated=True)
    assert again == used
    made = await table_number(again)
    conftest.pytest_runtest_logfinish()
    assert await new_postgres_database(postgres, migrated=True) == used
    assert await table_number(used) == made, "emptied, not migrated again"
