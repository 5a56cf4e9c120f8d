"""The load benchmark's players read the bots' PostgreSQL games from a replica of their own, so
their reads do not load the server the bots use. They look when the bot posts, so the replica
must never be behind a commit the bot has made."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, datetime

import asyncpg
import pytest
from conftest import new_postgres_database
from postgres_server import PostgresUnavailable, postgres_server, replica_of
from started_games import start_pylons

from bench.load.cli import bots_database
from bench.load.config import PRIMARY_SETTINGS
from bench.load.reader import PostgresReader
from hvbot.database.sqlite import SqliteDatabase
from hvbot.store import GameStore

COMMITS = 50


async def commits_missing_on_the_replica(primary_url: str, replica_url: str) -> int:
    """Commit rows one by one on the primary, each read on the replica at once after its
    commit returned; how many were not there yet. The players connect as the benchmark's
    do, once the replica has the database (created on the primary a moment ago)."""
    bots = await asyncpg.connect(primary_url)
    reader = await PostgresReader.open(replica_url, replica=True)
    players = reader.pool
    try:
        await bots.execute("CREATE TABLE moves (id integer PRIMARY KEY)")
        missing = 0
        for move in range(COMMITS):
            await bots.execute("INSERT INTO moves VALUES ($1)", move)
            try:
                found = await players.fetchval("SELECT count(*) FROM moves WHERE id = $1", move)
            except asyncpg.UndefinedTableError:
                found = 0  # the table itself not there yet: a miss too
            missing += found == 0
        return missing
    finally:
        await bots.close()
        await reader.close()


@pytest.mark.slow  # two PostgreSQL servers, one a copy of the other
def test_every_commit_of_the_bots_is_on_the_players_replica_when_it_returns() -> None:
    try:
        with postgres_server(PRIMARY_SETTINGS) as server, replica_of(server) as replica:
            bots_url = bots_database(server, "load_1")
            plain_url = server.create_database("plain")
            waited = asyncio.run(
                commits_missing_on_the_replica(bots_url, replica.database_url("load_1"))
            )
            unwaited = asyncio.run(
                commits_missing_on_the_replica(plain_url, replica.database_url("plain"))
            )
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL could not be started: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL could not be started: {exc}")
    assert waited == 0, f"{waited} of {COMMITS} commits not yet on the replica"
    # The same commits on a database without the setting: the replica is behind most of them,
    # so the check above is not passing by chance.
    assert unwaited > 0


async def test_a_players_read_is_one_round_trip(postgres) -> None:
    """A players' connection is not reset between their reads (asyncpg's reset query would be
    a second round trip for each, run by the replica beside the bot): a setting made on it is
    still there at the next read."""
    reader = await PostgresReader.open(await new_postgres_database(postgres))
    try:
        await reader.pool.execute("SET application_name = 'players'")
        assert await reader.rows("SELECT current_setting('application_name')") == [("players",)]
    finally:
        await reader.close()


@pytest.mark.slow  # a PostgreSQL server of its own, with the benchmark's settings
def test_the_bots_server_keeps_a_returned_commit_through_a_power_loss_as_sqlite_does(
    tmp_path,
) -> None:
    """The bot's SQLite file syncs its WAL at each commit (`synchronous = FULL`, in WAL mode):
    the PostgreSQL side of the comparison promises as much, not the tests' server's less."""

    async def sqlite_promise() -> tuple[str, int]:
        db = await SqliteDatabase.open(tmp_path / "games.sqlite3")
        try:
            return (
                (await db.fetchrow("PRAGMA journal_mode"))[0],
                (await db.fetchrow("PRAGMA synchronous"))[0],
            )
        finally:
            await db.close()

    async def postgres_promise(url: str) -> list[str]:
        conn = await asyncpg.connect(url)
        try:
            return [
                await conn.fetchval(f"SHOW {name}")
                for name in ("fsync", "full_page_writes", "synchronous_commit")
            ]
        finally:
            await conn.close()

    assert asyncio.run(sqlite_promise()) == ("wal", 2)  # 2: FULL
    try:
        with postgres_server(PRIMARY_SETTINGS) as server:
            promised = asyncio.run(postgres_promise(bots_database(server, "load_1")))
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL could not be started: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL could not be started: {exc}")
    assert promised == ["on", "on", "remote_apply"]


async def test_a_players_look_at_its_game_is_one_read_with_the_state_only_when_it_moved(
    postgres,
) -> None:
    """The players look at their game on every message the bot posts in its channel: one
    read, which brings the whole state only when the game is no longer at the version they
    know (a look for the version, then one for the state, made two reads of a moved game)."""
    url = await new_postgres_database(postgres, migrated=True)
    store = await GameStore.open(url)
    reader = await PostgresReader.open(url)
    at = datetime(2026, 3, 1, tzinfo=UTC)
    try:
        game, _ = await start_pylons(store, state={"n": 0}, at=at)
        version = game.version + 1
        first = await reader.since(game.id, None)
        assert first is not None and first[:2] == ("active", version)
        assert first[2] is not None and json.loads(first[2]) == {"n": 0}
        moved = await reader.since(game.id, game.version)
        assert moved is not None and moved[2] == first[2], "moved on since the version known"
        assert await reader.since(game.id, version) == ("active", version, None, None)
        assert reader.reads == 3
        assert await reader.since(game.id + 1, None) is None
    finally:
        await reader.close()
        await store.close()
