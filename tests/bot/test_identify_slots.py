"""Turns to IDENTIFY, taken from the database the processes share: one per bucket per
interval, whichever process asks, in the order they ask."""

from __future__ import annotations

import asyncio

from hvbot.store import GameStore

INTERVAL = 5.0


async def test_turns_in_a_bucket_are_an_interval_apart(database_url: str) -> None:
    stores = [await GameStore.open(database_url) for _ in range(2)]
    try:
        now = 1_000.0
        # The first turn of a bucket is at once; each next one an interval after the last,
        # whichever store (process) takes it.
        waits = [await stores[k % 2].identify.take(0, INTERVAL, now) for k in range(4)]
        assert waits == [0.0, 5.0, 10.0, 15.0]
        # Another bucket has turns of its own.
        assert await stores[1].identify.take(1, INTERVAL, now) == 0.0
        # Once its turns are past, a bucket admits one at once again.
        assert await stores[0].identify.take(0, INTERVAL, now + 60) == 0.0
        assert await stores[1].identify.take(0, INTERVAL, now + 61) == 4.0
    finally:
        for store in stores:
            await store.close()


async def test_turns_taken_at_once_are_all_different(database_url: str) -> None:
    """Many processes asking in the same instant each get a turn of their own."""
    stores = [await GameStore.open(database_url) for _ in range(4)]
    try:
        waits = await asyncio.gather(*(s.identify.take(3, INTERVAL, 50.0) for s in stores * 2))
        assert sorted(waits) == [INTERVAL * k for k in range(8)]
    finally:
        for store in stores:
            await store.close()
