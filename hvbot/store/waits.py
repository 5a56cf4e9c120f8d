"""When the person to move has been waited for since, and their reminders, claimed once.

A turn's wait is written with each move (`turn_since`, `remind_at`, see
`hvbot.store.changes`); here it is read, and a due reminder is moved on by whichever process
claims it first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hvbot.database import Database, Transaction
from hvbot.store.duties import Owed, owe_text
from hvbot.store.rows import DueReminder
from hvbot.store.sql import indexed_by, stamp


@dataclass(frozen=True)
class Claimed:
    """A due reminder this process moved on, with its posts owed in the outbox if it had
    words (held by this process, see `hvbot.store.duties`)."""

    owed: tuple[Owed, ...] = ()


class Reminders:
    """The `turn_since` and `remind_at` columns of the games in play."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def turn_since(self, *, game_id: int) -> datetime | None:
        """Since when the person to move has been waited for (None: nobody is)."""
        since = await self.db.fetchval("SELECT turn_since FROM games WHERE id = ?", game_id)
        return datetime.fromisoformat(since) if since else None

    async def due(self, *, now: datetime, most: int | None = None) -> list[DueReminder]:
        """Games in play whose person to move has waited past their reminder (the first
        `most` of them, if given)."""
        limit = f" LIMIT {int(most)}" if most is not None else ""
        rows = await self.db.fetch(
            "SELECT id, remind_at, turn_since FROM games"
            f"{indexed_by(self.db, 'games_reminders_due')}"
            " WHERE status = 'active' AND remind_at IS NOT NULL AND remind_at <= ?"
            f" ORDER BY id{limit}",
            stamp(now),
        )
        return [
            DueReminder(
                r["id"],
                r["remind_at"],
                datetime.fromisoformat(r["turn_since"]) if r["turn_since"] else None,
            )
            for r in rows
        ]

    async def claim(
        self,
        *,
        game_id: int,
        due: str,
        now: datetime,
        next_at: datetime | None,
        bodies: Sequence[dict[str, Any]] = (),
    ) -> Claimed | None:
        """Move a due reminder on to `next_at` (None: no more) and owe its posts (`bodies`: a
        text for the channel, or with "user" by DM) in the outbox, in one transaction: None if
        another process (or a move) changed it first, so each reminder is claimed once. The
        game's version is left alone: a reminder changes nothing on the board, and its
        buttons stay valid."""

        async def work(tx: Transaction) -> Claimed | None:
            changed = await tx.execute(
                "UPDATE games SET remind_at = ? WHERE id = ? AND remind_at = ?",
                stamp(next_at) if next_at else None,
                game_id,
                due,
            )
            if changed != 1:
                return None
            return Claimed(
                tuple([await owe_text(tx, game_id=game_id, body=b, now=now) for b in bodies])
            )

        return await self.db.transact(work)
