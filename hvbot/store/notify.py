"""Each person's own turn reminders (`/me notify`): one row per person who changed them, for
every game they play in any server; a person without one is reminded as each game says."""

from __future__ import annotations

from hvbot.database import Database
from hvbot.store.rows import NotifySettings
from hvbot.store.sql import statement


class Notify:
    """The `notify_settings` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def of(self, user_id: int) -> NotifySettings:
        row = await self.db.fetchrow(
            "SELECT remind_where, remind_every, quiet FROM notify_settings WHERE user_id = ?",
            user_id,
        )
        if row is None:
            return NotifySettings()
        return NotifySettings(row["remind_where"], row["remind_every"], row["quiet"])

    async def set(self, user_id: int, settings: NotifySettings) -> None:
        await self.db.transact(
            statement(
                "INSERT INTO notify_settings (user_id, remind_where, remind_every, quiet)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " remind_where = excluded.remind_where, remind_every = excluded.remind_every,"
                " quiet = excluded.quiet",
                user_id,
                settings.where,
                settings.every_minutes,
                settings.quiet,
            )
        )
