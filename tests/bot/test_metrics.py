"""The metrics that no game played end to end can move on purpose: errors the database gives
are counted, a broken uniqueness rule (an expected answer) is not; whether a process hears
the other processes' changes shows, and stops showing when it cannot. Who the metrics server
answers, over real HTTP: requests addressed to its own names, with its token when it has one."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from metric_samples import sampler

from hvbot.database import Duplicate, Transaction, postgres, sqlite
from hvbot.infra.metrics import DATABASE_ERRORS, BotMetrics
from hvbot.store import GameStore

ERRORS = (*postgres.ERRORS, *sqlite.ERRORS)


async def test_database_errors_are_counted_and_a_duplicate_is_not(database_url: str) -> None:
    sample = sampler(DATABASE_ERRORS)
    repo = await GameStore.open(database_url)
    labels = {"backend": repo.db.backend}

    def counted() -> float:
        return sample("hvbot_database_errors_total", labels)

    async def twice(tx: Transaction) -> None:
        for _ in range(2):
            await tx.execute("INSERT INTO schema_version (version) VALUES (?)", 9999)

    try:
        before = counted()
        with pytest.raises(ERRORS):
            await repo.db.fetch("SELECT no_such_column FROM games")
        with pytest.raises(ERRORS):
            await repo.db.transact(lambda tx: tx.execute("UPDATE no_such_table SET x = 1"))
        assert counted() == before + 2
        await repo.db.transact(
            lambda tx: tx.execute("CREATE UNIQUE INDEX one_version ON schema_version (version)")
        )
        with pytest.raises(Duplicate):
            await repo.db.transact(twice)
        assert counted() == before + 2
    finally:
        await repo.close()


async def test_whether_the_version_watch_listens_is_a_gauge(database_url: str) -> None:
    """1 while the process hears the other processes' changes, 0 while its listening
    connection is lost (each move then reads the version first), 1 again once it listens;
    absent with SQLite, which has no other processes to hear."""
    bot = commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.default())
    metrics = BotMetrics(bot, "127.0.0.1", 0)
    repo = await GameStore.open(database_url)

    def listening() -> float | None:
        return metrics.registry.get_sample_value("hvbot_database_watch_listening")

    try:
        metrics.watch = watch = repo.db.watch  # as the bot does once its database is open
        if watch is None:
            assert repo.db.backend == "sqlite"
            assert listening() is None
            return
        await watch.listening_again()
        assert listening() == 1
        assert await repo.db.fetchval("SELECT pg_terminate_backend(?)", watch.server_pid)
        await watch.not_listening()
        assert listening() == 0
        await watch.listening_again()
        assert listening() == 1
    finally:
        await repo.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def serving(**options: Any) -> AsyncIterator[int]:
    """A bot's metrics server on a free port of 127.0.0.1, with `options` (allowed names,
    token); its port."""
    bot = commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.default())
    port = free_port()
    metrics = BotMetrics(bot, "127.0.0.1", port, **options)
    await metrics.start()
    try:
        yield port
    finally:
        await metrics.close()


async def status(port: int, path: str, **headers: str) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}", headers=headers) as response,
    ):
        return response.status


PATHS = ("/metrics", "/health")
OWN = ("127.0.0.1", "localhost", "LocalHost", "[::1]")


async def test_the_metrics_answer_only_requests_addressed_to_their_own_names() -> None:
    """A page whose name was made to point at the bot's machine (DNS rebinding) sends its own
    name as Host: refused. This machine's names, and those the settings add, are served
    (/health says 503 here: the bot has no shard connected)."""
    async with serving(allowed=("metrics.example.internal",)) as port:
        for path in PATHS:
            for name in (*OWN, "metrics.example.internal"):
                for host in (name, f"{name}:{port}"):
                    assert await status(port, path, Host=host) in (200, 503), (path, host)
            assert await status(port, "/metrics", Host=f"127.0.0.1:{port}") == 200
            for host in (
                "evil.example",
                f"evil.example:{port}",
                "localhost.evil.example",
                "metrics.example.internal.evil.example",
                "127.0.0.1.",
                "0.0.0.0",
                "",
            ):
                assert await status(port, path, Host=host) == 403, (path, host)


async def test_with_a_token_the_metrics_answer_only_requests_that_carry_it() -> None:
    async with serving(token="s3cr3t-t0ken") as port:
        for path in PATHS:
            assert await status(port, path) == 401
            assert await status(port, path, Authorization="Bearer wrong") == 401
            assert await status(port, path, Authorization="Basic s3cr3t-t0ken") == 401
            assert await status(port, path, Authorization="Bearer s3cr3t-t0ken") in (200, 503)
            refused = await status(
                port, path, Host="evil.example", Authorization="Bearer s3cr3t-t0ken"
            )
            assert refused == 403, "the token does not make another name served"
        assert await status(port, "/metrics", Authorization="bearer s3cr3t-t0ken") == 200
