"""Turns to IDENTIFY: Discord admits one new gateway session per identify bucket every five
seconds, for the whole bot, and refuses one that comes sooner (Invalid Session). Processes
that share the bot's shards take their turns from the database they share.

A turn is taken in one statement, holding no lock while the process waits for it: the bucket's
row says when it next admits one, and taking a turn moves that on by an interval. The times are
the processes' wall clocks, which is what Discord's limit is counted in (a test's clock, moved
by hand, would let two sessions start in the same real second).
"""

from __future__ import annotations

from hvbot.database import Database
from hvbot.database.base import Transaction

_TAKE = (
    "INSERT INTO identify_slots (bucket, opens_at) VALUES (?, ?) "
    "ON CONFLICT (bucket) DO UPDATE SET opens_at = "
    "CASE WHEN identify_slots.opens_at > ? THEN identify_slots.opens_at ELSE ? END + ? "
    "RETURNING opens_at"
)


class IdentifySlots:
    """The `identify_slots` table: each bucket's next turn."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def take(self, bucket: int, interval: float, now: float) -> float:
        """Take `bucket`'s next turn: how many seconds from `now` it starts (0: at once).
        The turn after it starts `interval` seconds later."""

        async def work(tx: Transaction) -> float:
            row = await tx.fetchrow(_TAKE, bucket, now + interval, now, now, interval)
            assert row is not None
            return float(row["opens_at"]) - interval

        starts = await self.db.transact(work)
        return max(0.0, starts - now)
