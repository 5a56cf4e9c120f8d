"""Each server's settings (`/server settings`): one row per server whose owners changed any;
a server without one keeps every default."""

from __future__ import annotations

import time

from hvbot.database import Database
from hvbot.database.base import Row
from hvbot.store.rows import ServerSettings, TurnClock
from hvbot.store.sql import statement

_NAMES = (
    "game_places",
    "opener_role",
    "moderator_role",
    "language",
    "remind_minutes",
    "absent_hours",
    "clock_minutes",
    "clock_timeout",
    "most_open",
    "lobby_hours",
    "games_per_channel",
    "season_length",
    "season_since",
    "season_channel",
    "rank_role",
    "live_links",
)
_COLUMNS = ", ".join(_NAMES)


# How long settings read are trusted without reading them again. A server's interactions all
# reach the process of its shard, which is where they change; the bound covers a server moved
# to another process.
FRESH_S = 60.0


class ServerSettingsTable:
    """The `server_settings` table, read through a cache: every `/game new` and every
    moderator's command reads its server's settings."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[int, tuple[float, ServerSettings]] = {}

    async def of(self, guild_id: int) -> ServerSettings:
        cached = self._cache.get(guild_id)
        if cached is not None and time.monotonic() - cached[0] < FRESH_S:
            return cached[1]
        row = await self.db.fetchrow(
            f"SELECT {_COLUMNS} FROM server_settings WHERE guild_id = ?", guild_id
        )
        found = ServerSettings() if row is None else _settings(row)
        self._cache[guild_id] = (time.monotonic(), found)
        return found

    async def set(self, guild_id: int, settings: ServerSettings) -> None:
        clock = settings.clock
        values = (
            " ".join(str(place) for place in settings.game_places),
            settings.opener_role,
            settings.moderator_role,
            settings.language,
            settings.remind_minutes,
            settings.absent_hours,
            clock.minutes if clock else None,
            clock.timeout if clock else None,
            settings.most_open,
            settings.lobby_hours,
            settings.games_per_channel,
            settings.season_length,
            settings.season_since,
            settings.season_channel,
            settings.rank_role,
            None if settings.live_links is None else int(settings.live_links),
        )
        updates = ", ".join(f"{name} = excluded.{name}" for name in _NAMES)
        self._cache.pop(guild_id, None)
        await self.db.transact(
            statement(
                f"INSERT INTO server_settings (guild_id, {_COLUMNS})"
                f" VALUES (?, {', '.join('?' for _ in _NAMES)})"
                f" ON CONFLICT (guild_id) DO UPDATE SET {updates}",
                guild_id,
                *values,
            )
        )
        self._cache[guild_id] = (time.monotonic(), settings)


def _settings(row: Row) -> ServerSettings:
    minutes = row["clock_minutes"]
    return ServerSettings(
        game_places=tuple(int(place) for place in row["game_places"].split()),
        opener_role=row["opener_role"],
        moderator_role=row["moderator_role"],
        language=row["language"],
        remind_minutes=row["remind_minutes"],
        absent_hours=row["absent_hours"],
        clock=TurnClock(minutes, row["clock_timeout"] or "ai_move") if minutes else None,
        most_open=row["most_open"],
        lobby_hours=row["lobby_hours"],
        games_per_channel=row["games_per_channel"],
        season_length=row["season_length"],
        season_since=row["season_since"],
        season_channel=row["season_channel"],
        rank_role=row["rank_role"],
        live_links=None if row["live_links"] is None else bool(row["live_links"]),
    )


async def web_secret(db: Database, made: str) -> str:
    """The secret the live boards' links are signed with when the settings name none: the one
    stored, or `made` stored now if there is none yet. Every process that serves boards reads
    the same one, so a link works whichever process serves it, and after a restart."""
    await db.transact(
        statement(
            "INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", made
        )
    )
    return str(await db.fetchval("SELECT secret FROM web_secret WHERE id = 1"))
