"""Which board post of a game has live buttons, and the game version they are for.

Not a versioned change: it moves no piece. A post's buttons are for one version of the game;
once the game has moved past it, they can only be refused, and whichever process sees that
first takes them off.
"""

from __future__ import annotations

from hvbot.database import Database, Transaction
from hvbot.store.sql import statement


class LiveButtons:
    """The `buttons_message_id` and `buttons_version` of each game."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def keep(self, *, game_id: int, message_id: int, version: int) -> list[int]:
        """Remember `message_id`, a board post whose buttons are for `version`, as the one with
        live buttons. Returns the posts whose buttons must go: the one remembered before, or
        `message_id` itself if the game has moved past `version` already."""
        lock = " FOR UPDATE" if self.db.backend == "postgresql" else ""

        async def work(tx: Transaction) -> list[int]:
            row = await tx.fetchrow(
                f"SELECT version, buttons_message_id FROM games WHERE id = ?{lock}", game_id
            )
            if row is None or row["version"] > version:
                return [message_id]
            await tx.execute(
                "UPDATE games SET buttons_message_id = ?, buttons_version = ? WHERE id = ?",
                message_id,
                version,
                game_id,
            )
            before = row["buttons_message_id"]
            return [before] if before is not None and before != message_id else []

        return await self.db.transact(work)

    async def stale_games(self) -> list[int]:
        """The games whose post with live buttons they have moved past (a process stopped
        before taking them off), from an index of the few posts with live buttons."""
        rows = await self.db.fetch(
            "SELECT id FROM games WHERE buttons_message_id IS NOT NULL"
            " AND buttons_version < version ORDER BY id"
        )
        return [row["id"] for row in rows]

    async def drop_stale(self, *, game_id: int) -> int | None:
        """Forget the post with live buttons if the game has moved past their version; the
        post whose buttons must go (None: none, or another process took them off)."""
        row = await self.db.fetchrow(
            "SELECT buttons_message_id FROM games WHERE id = ? AND buttons_version < version",
            game_id,
        )
        if row is None or row["buttons_message_id"] is None:
            return None
        message_id: int = row["buttons_message_id"]
        changed = await self.db.transact(
            statement(
                "UPDATE games SET buttons_message_id = NULL, buttons_version = NULL"
                " WHERE id = ? AND buttons_message_id = ? AND buttons_version < version",
                game_id,
                message_id,
            )
        )
        return message_id if changed == 1 else None

    async def forget(self, *, game_id: int, message_id: int) -> None:
        """The post's buttons are off already (a click on one took them off)."""
        await self.db.transact(
            statement(
                "UPDATE games SET buttons_message_id = NULL, buttons_version = NULL"
                " WHERE id = ? AND buttons_message_id = ?",
                game_id,
                message_id,
            )
        )
