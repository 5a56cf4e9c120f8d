"""Shared fixtures: the Discord emulator, and the real bot running against it.

`emulator` is an emulated Discord on 127.0.0.1 with discord.py pointed at it for the test's
duration. `hv` is a started bot on a fresh SQLite file; it draws its pictures in threads of
the test's process, unless the test is marked `drawing_processes(n)` (the deployed bot draws
in a worker process; starting one for every test would only make the suite slower). Both fail
the test at teardown if the bot sent something Discord would have refused, called a route
Discord does not have, or logged an error, because those are bugs even when the test's own
assertions passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import os
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import tictactoe
from e2e_harness import BotHarness
from postgres_server import PostgresServer, PostgresUnavailable, postgres_server
from rewrite_once import rewrite_before_workers_start

from data.texts import mention_commands
from games import register_all
from hvbot.database import Database, Transaction
from hvbot.plugins import register
from hvbot.services import GameService
from hvbot.store import GameStore
from sandbox.emulator import DiscordEmulator
from sandbox.emulator.pointing import point_discord_py

# Hypothesis runs, when imported, every installed "hypothesis" plugin: selenium's trio is one,
# and importing trio is a sixth of a second of every test process for strategies of trio's types
# that no test draws. Set before any test module imports hypothesis.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the machine has cores. Many tests wait on processes of
    their own (bot processes, PostgreSQL, a browser) a good part of their time; the extra
    worker keeps the cores busy meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


# The garbage collector of a process that runs tests. Its defaults (700, 10, 10) suit a program
# with few long-lived objects; a test process holds every module of the bot, the games, the
# pictures, discord.py and the tests, and each test makes and drops many thousands of small
# objects (requests to the emulator, games' states, pictures' parts). With the defaults it ran
# a young collection every 700 new objects and, every hundred of those, a full one that walked
# that whole heap again: a few CPU-seconds of each worker, a twentieth of its time. A young
# collection every 50,000 (more made them no cheaper) and what collection imported and built
# frozen out of every later full one cost a test process a few tens of MB more (its own
# caches and the bots it starts hold hundreds). Garbage is still collected, cycles too; a
# test that needs it gone now calls gc.collect(), which still does all of it.
TEST_PROCESS_GC_THRESHOLD = (50_000, 20, 100)


def runs_tests(config: pytest.Config) -> bool:
    """Whether this process runs tests: any but `-n`'s controller, which hands them out."""
    return hasattr(config, "workerinput") or not config.getoption("numprocesses", None)


def pytest_configure(config: pytest.Config) -> None:
    if runs_tests(config):  # before collection, which makes a good part of its objects
        gc.set_threshold(*TEST_PROCESS_GC_THRESHOLD)


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection imported and built lives as long as the process: full collections need
    # not walk it again at each test. (The bot freezes what it built itself once it is ready.)
    if runs_tests(session.config):
        gc.collect()
        gc.freeze()


@pytest.hookimpl(tryfirst=True)  # before xdist starts the workers
def pytest_sessionstart(session: pytest.Session) -> None:
    # The workers find the test modules' asserts already rewritten (see rewrite_once).
    rewrite_before_workers_start(session.config)


@pytest.hookimpl(trylast=True)  # after `-m` has deselected: the shares are of what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A module whose tests run the real bot against the emulated Discord says so itself
    # (`pytestmark = pytest.mark.e2e`), wherever it lives: `-m e2e` picks them, as here.
    e2e = [item for item in items if item.get_closest_marker("e2e") is not None]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = long_ones_spread_in_each_share(items, e2e, workers)


def long_ones_spread_in_each_share(
    items: list[pytest.Item], long: list[pytest.Item], workers: int
) -> list[pytest.Item]:
    """The order that keeps every core busy to the end of a run with `-n`.

    xdist's worksteal hands each worker an equal contiguous share of the collected tests, runs
    each share from its front, and lets a worker that runs out take tests from the back of
    another's. The end-to-end tests are a tenth of the tests and most of the time, many of it
    spent waiting on their own processes: collected in folder order they came last, so a run
    ended with one worker on a ten-second test and the others idle. Here each share has its
    part of them spread among its first quick tests (`spread`), and the quick tests after
    them are what the others take at the end.

    Spread, not first: `-n auto` runs one worker more than the cores, so that a worker waiting
    on its processes leaves its core to another. With every share's long tests first, the
    run began with all the workers waiting at once (cores idle) and went on with all of them
    computing at once, taking turns on two cores, each turn refilling the caches the others
    emptied. Spread, about one worker at a time waits.
    """
    long_ones = set(long)
    short = [item for item in items if item not in long_ones]
    ordered: list[pytest.Item] = []
    for remaining in range(workers, 0, -1):  # the share sizes xdist gives: what is left, shared
        size = (len(long) + len(short)) // remaining
        take = min(len(long) // remaining, size)
        ordered += spread(long[:take], short[: size - take])
        long, short = long[take:], short[size - take :]
    return ordered


SPREAD_OVER = 0.8  # of a share's quick tests: the long ones are among these, the rest come last


def spread(long: list[Any], short: list[Any]) -> list[Any]:
    """`long` spread evenly among the first SPREAD_OVER of `short`, the first of them first (a
    share of a few long tests, such as the slow tier's, must not start its longest late),
    each in its own order and a module's tests together (a module's fixtures are set up once
    for a run of its tests)."""
    keyed: list[tuple[float, int, list[Any]]] = []
    for kind, tests, over in ((0, long, SPREAD_OVER), (1, short, 1.0)):
        done = 0
        for _, run in itertools.groupby(tests, key=lambda item: item.path):
            block = list(run)
            keyed.append((over * done / len(tests), kind, block))
            done += len(block)
    keyed.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, block in keyed for item in block]


# The games the bot plays, registered as `bot.py` registers them; then a fourth game that only
# the tests play, registered as any game is: every test that goes over the registered games
# covers it too (see tests/support/tictactoe).
register_all()
register(tictactoe.PLUGIN)


@contextlib.asynccontextmanager
async def running_emulator(**options: Any) -> AsyncIterator[DiscordEmulator]:
    """An emulated Discord that discord.py talks to; the test fails if the bot sent anything
    Discord would have refused, or asked for a route Discord does not have."""
    emu = await DiscordEmulator(**options).start()
    try:
        async with point_discord_py(emu):
            yield emu
    finally:
        await emu.close()
    assert not emu.rejections, "Discord would have refused:\n" + "\n".join(map(str, emu.rejections))
    assert not emu.unhandled, f"routes Discord does not have: {emu.unhandled}"


@pytest.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    async with running_emulator() as emu:
        yield emu


@contextlib.asynccontextmanager
async def running(harness: BotHarness) -> AsyncIterator[BotHarness]:
    """The harness's bot started, and closed at the end; the test fails if it logged an
    error meanwhile."""
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
    unexpected = harness.unexpected_errors()
    assert not unexpected, "the bot logged errors:\n" + harness.errors.summary()


_migrated_sqlite: list[bytes] = []  # a new SQLite file as the bot's migrations left it


async def migrated_sqlite_file(path: Path, scratch: pytest.TempPathFactory) -> Path:
    """A new SQLite file at `path` as the bot makes and migrates one when it starts (its
    schema, WAL mode, readable by its owner only), copied from one migrated once per test
    process in a folder of `scratch`: migrating a file takes a tenth of a second, most of it
    waiting for the disk, at every test's start. The bot then opens it as it does an existing
    file."""
    if not _migrated_sqlite:
        made = scratch.mktemp("migrated") / "games.sqlite3"
        store = await GameStore.open(made)
        await store.close()  # the last connection closed: the WAL is checkpointed into the file
        _migrated_sqlite.append(made.read_bytes())
    descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(_migrated_sqlite[0])
    return path


@pytest.fixture
async def hv(
    emulator: DiscordEmulator,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> AsyncIterator[BotHarness]:
    marker = request.node.get_closest_marker("drawing_processes")
    processes = marker.args[0] if marker else 0
    database = await migrated_sqlite_file(tmp_path / "games.sqlite3", tmp_path_factory)
    harness = BotHarness(emulator, database, drawing_processes=processes)
    async with running(harness):
        yield harness


# ---------------------------------------------------------------------- databases
# Store tests run on both backends: a SQLite file, and a database of its own on a PostgreSQL
# server that the tests start themselves (one per test process, see postgres_server).


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    try:
        with postgres_server() as server:
            yield server
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL could not be started: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL could not be started (apt-get install postgresql): {exc}")


_databases = itertools.count()
# Databases of this test process on each server (by folder and port): those handed to the test
# running now, and those of tests that have ended, free to be emptied and handed out again.
_handed: list[tuple[tuple[Path, int], str]] = []
_free: dict[tuple[Path, int], list[str]] = {}


async def plan_for_any(db: Database, start: str, run: str | None = None) -> str:
    """PostgreSQL's plan for any values (the one it keeps and runs again) of the statement
    beginning with `start` that the bot prepared on its connection (the pool's one): what a
    statement run on every move costs the server is read from it. `run`: the statement's
    values, as SQL, to run it with by that plan (its changes are kept), the plan then telling
    what each of its steps did (`EXPLAIN ANALYZE`)."""

    async def work(tx: Transaction) -> str:
        found = await tx.fetchrow(
            "SELECT statement, cardinality(parameter_types) AS n FROM pg_prepared_statements"
            " WHERE statement LIKE ?",
            start + "%",
        )
        assert found is not None, f"not run: {start}"
        await tx.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await tx.execute(f"PREPARE planned AS {found['statement']}")
        values = run if run is not None else ", ".join(["NULL"] * found["n"])
        how = "(ANALYZE, COSTS OFF) " if run is not None else ""
        plan = await tx.fetch(f"EXPLAIN {how}EXECUTE planned({values})")
        await tx.execute("DEALLOCATE planned")
        return "\n".join(row[0] for row in plan)

    return await db.transact(work)


async def new_postgres_database(server: PostgresServer, *, migrated: bool = False) -> str:
    """A fresh empty database on the test server, for this test alone; with `migrated`, one as
    the bot's migrations leave an empty database (its schema, no rows).

    Creating a database copies the server's template, which costs the server about a third of
    a second of CPU: more than the rest of a short store test, for each of the many tests on
    PostgreSQL. A database an earlier test of this process was given is emptied instead (its
    connections cut, its settings reset, its schema dropped and made again as a new
    database's), which costs a tenth of that; a new one is made only when none is free.
    Migrating costs the server as much again, so a migrated one whose schema is still exactly
    the migrations' loses only its rows (see `_emptied`)."""
    key = (server.folder, server.port)
    name = None
    free = _free.get(key, [])
    while free and name is None:
        name = free.pop()
        try:
            await _emptied(server, name, migrated=migrated)
        except (OSError, asyncpg.PostgresError):
            name = None  # gone with what its test did to it: the next, or a new one
    if name is None:
        name = f"t_{os.getpid()}_{next(_databases)}"
        conn = await asyncpg.connect(server.database_url("postgres"))
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        if migrated:
            await _migrate(server, name)
    _handed.append((key, name))
    return server.database_url(name)


# What the migrations make, as one digest of the catalog's rows about the `public` schema:
# tables, columns and their defaults (and how their values are stored and compressed),
# constraints, indexes, triggers, functions, sequences, types, and the migrations recorded.
# Two databases with the same digest have the same schema, and two databases migrated alike
# have the same digest: nothing in it is an object's number (the triggers PostgreSQL makes
# for a foreign key are named with theirs, so they are told by their constraint instead), or
# a database migrated anew would never match the first one's and would be migrated again at
# every test it is handed to.
SCHEMA_DIGEST = """
SELECT md5(string_agg(line, E'\n' ORDER BY line)) FROM (
  SELECT format('class %s %s %s %s %s', c.relname, c.relkind, c.relpersistence, c.relacl,
                c.reloptions)
    FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('column %s.%s %s %s %s %s %s %s', c.relname, a.attname, a.atttypid::regtype,
                a.attnotnull, a.attisdropped, pg_get_expr(d.adbin, d.adrelid), a.attstorage,
                a.attcompression)
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0
  UNION ALL
  SELECT format('constraint %s %s', conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL
  SELECT format('trigger %s %s %s', CASE WHEN t.tgisinternal
                  THEN regexp_replace(pg_get_triggerdef(t.oid),
                                      '"RI_ConstraintTrigger_[ac]_[0-9]+"', 'RI_ConstraintTrigger')
                  ELSE pg_get_triggerdef(t.oid) END, t.tgenabled, k.conname)
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    LEFT JOIN pg_constraint k ON k.oid = t.tgconstraint
    WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('function %s %s', p.oid::regprocedure, md5(p.prosrc))
    FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('sequence %s %s %s %s %s', sequencename, start_value, increment_by,
                min_value, max_value) FROM pg_sequences WHERE schemaname = 'public'
  UNION ALL
  SELECT format('type %s %s', typname, typtype) FROM pg_type
    WHERE typnamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('rule %s %s', rulename, definition) FROM pg_rules WHERE schemaname = 'public'
  UNION ALL
  SELECT format('policy %s %s', tablename, policyname) FROM pg_policies
    WHERE schemaname = 'public'
  UNION ALL
  SELECT format('migration %s', version) FROM public.schema_version
) AS schema(line)
"""
_migrated_schema: list[str] = []  # the digest of a database just migrated, once known


async def _migrate(server: PostgresServer, name: str) -> None:
    """Migrate the empty database `name` as the bot does when it starts, and learn the
    digest of what that makes."""
    store = await GameStore.open(server.database_url(name))
    await store.close()
    if not _migrated_schema:
        db = await asyncpg.connect(server.database_url(name))
        try:
            _migrated_schema.append(await db.fetchval(SCHEMA_DIGEST))
        finally:
            await db.close()


async def _emptied(server: PostgresServer, name: str, *, migrated: bool = False) -> None:
    """The database `name` made as CREATE DATABASE makes one from the server's template: no
    connection left from its last test, no setting of its own, an empty `public` schema owned
    and usable as a new database's is (every table, sequence, function and trigger the bot
    makes lives in that schema). With `migrated`, as the bot's migrations then leave it: when
    its schema is still exactly theirs, its tables are emptied and its sequences start again;
    otherwise (its test migrated only part of the way, or changed the schema) it is emptied
    and migrated.

    All of it is done from one connection to the database itself, each new connection being
    a server process started for it; only a database its test gave settings of its own takes
    another, to the server's own database, to reset them (a session keeps those it started
    with, so the work then goes on in a new one)."""
    db = await asyncpg.connect(server.database_url(name))
    try:
        # Each connection left is waited for until it is gone (up to 5 s).
        found = await db.fetchrow(
            "SELECT (SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
            "   WHERE datname = current_database() AND pid <> pg_backend_pid()) AS cut,"
            " EXISTS (SELECT FROM pg_db_role_setting s"
            "   JOIN pg_database d ON d.oid = s.setdatabase"
            "   WHERE d.datname = current_database() AND s.setrole = 0) AS settings"
        )
        if found["settings"]:
            await db.close()
            admin = await asyncpg.connect(server.database_url("postgres"))
            try:
                await admin.execute(f'ALTER DATABASE "{name}" RESET ALL')
            finally:
                await admin.close()
            db = await asyncpg.connect(server.database_url(name))
        if migrated and _migrated_schema:
            try:
                unchanged = await db.fetchval(SCHEMA_DIGEST) == _migrated_schema[0]
            except asyncpg.PostgresError:
                unchanged = False  # no schema_version, say
            if unchanged:
                await _rows_deleted(db)
                return
        await db.execute(
            "DROP SCHEMA public CASCADE;"
            " CREATE SCHEMA public AUTHORIZATION pg_database_owner;"
            " GRANT USAGE ON SCHEMA public TO PUBLIC"
        )
    finally:
        await db.close()
    if migrated:
        await _migrate(server, name)


async def _rows_deleted(db: asyncpg.Connection) -> None:
    """Every row of a migrated database deleted but the migrations' record, and every sequence
    back at its start, as in a database just migrated. Deleting the few rows a test leaves
    costs far less than TRUNCATE, which gives every table new files; the foreign keys' and the
    bot's triggers are not run for it (`session_replication_role`), as the rows all go."""
    tables = await db.fetch(
        "SELECT format('%I', tablename) FROM pg_tables"
        " WHERE schemaname = 'public' AND tablename <> 'schema_version'"
    )
    async with db.transaction():
        await db.execute(
            "SET LOCAL session_replication_role = replica;"
            + "".join(f"DELETE FROM {table};" for (table,) in tables)
            + "SELECT setval(format('%I', sequencename)::regclass, start_value, false)"
            " FROM pg_sequences WHERE schemaname = 'public'"
        )


def pytest_runtest_logfinish() -> None:
    """The test is over, its teardown too: its databases may be emptied for a later test."""
    for key, name in _handed:
        _free.setdefault(key, []).append(name)
    _handed.clear()


@contextlib.asynccontextmanager
async def services_sharing(database_url: str, count: int) -> AsyncIterator[list[GameService]]:
    """`count` game services over one database, each with a store (connections, memory) of its
    own: as many bot processes sharing it, within the test's process."""
    repos: list[GameStore] = []
    try:
        for _ in range(count):
            repos.append(await GameStore.open(database_url))
        yield [GameService(repo, seed_source=random.Random(i)) for i, repo in enumerate(repos)]
    finally:
        for repo in repos:
            await repo.close()


# A game id no game has: a notification about it is a marker, heard by every process.
MARKER_GAME = 999_999


async def heard_so_far(listener: GameStore, speaker: GameStore) -> None:
    """Returns once `listener` has heard of every change to games committed so far (at once
    with SQLite: one process per file, nothing to hear). A read begun while a change is still
    on its way is not kept in memory, and a copy counts as the stored one until its change is
    heard: a test about either waits here first. PostgreSQL delivers notifications in the
    order their transactions commit, so a marker sent now is heard after all of them."""
    watch = listener.db.watch
    if watch is None:
        return
    heard = asyncio.ensure_future(watch.heard_of(MARKER_GAME, 1))
    await speaker.db.fetchval("SELECT pg_notify('hvbot_games', ?)", f"{MARKER_GAME} 1")
    await heard


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """A database on each backend in turn, as the bot's DATABASE_URL, as the bot's migrations
    leave a new one: its schema, and no rows. (Migrating costs each test's database a tenth of
    a second or more; a test about the migrations themselves takes `empty_database_url`.)"""
    if request.param == "sqlite":
        path = await migrated_sqlite_file(tmp_path / "games.sqlite3", tmp_path_factory)
        return f"sqlite:///{path}"
    return await new_postgres_database(request.getfixturevalue("postgres"), migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each backend in turn, as the bot's DATABASE_URL: no schema yet,
    for the tests of the migrations themselves."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return await new_postgres_database(request.getfixturevalue("postgres"))


# The commands' ids by top-level name, as Discord would register them: texts name commands as
# mentions (`</hv draw:22>`) once the ids are known.
COMMAND_IDS = {"game": 11, "hv": 22, "pylons": 33, "s6": 44, "stats": 55, "me": 66, "server": 77}


@contextlib.contextmanager
def commands_mentioned(ids: dict[str, int]) -> Iterator[None]:
    """Texts say commands as mentions with these ids, and as typed again afterwards."""
    mention_commands(ids)
    try:
        yield
    finally:
        mention_commands({})


@pytest.fixture
def mentioned() -> Iterator[None]:
    """Texts say commands as mentions for the test, as typed again after it."""
    with commands_mentioned(COMMAND_IDS):
        yield
