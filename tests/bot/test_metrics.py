"""The metrics that no game played end to end can move on purpose: errors the database gives
are counted, a broken uniqueness rule (an expected answer) is not; whether a process hears
the other processes' changes shows, and stops showing when it cannot."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands
from prometheus_client import CollectorRegistry

from hvbot.database import Duplicate, Transaction, postgres, sqlite
from hvbot.infra.metrics import DATABASE_ERRORS, BotMetrics
from hvbot.store import GameStore

ERRORS = (*postgres.ERRORS, *sqlite.ERRORS)


async def test_database_errors_are_counted_and_a_duplicate_is_not(database_url: str) -> None:
    registry = CollectorRegistry()
    registry.register(DATABASE_ERRORS)
    repo = await GameStore.open(database_url)
    labels = {"backend": repo.db.backend}

    def counted() -> float:
        return registry.get_sample_value("hvbot_database_errors_total", labels) or 0.0

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
