"""The metrics' counts that no game played end to end can move on purpose: errors the database
gives are counted, a broken uniqueness rule (an expected answer) is not."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry

from hvbot.database import Duplicate, Transaction, postgres, sqlite
from hvbot.runtime.metrics import DATABASE_ERRORS
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
