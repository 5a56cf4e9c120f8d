"""Time away: a person away from a server's games for some days (`/me away`), their turn
clocks and reminders standing still meanwhile.

Every period is kept (`time_away`), so the 30-in-90 allowance can be counted; the end of the
current one is copied to the person's seats in that server's open games (`seats.away_until`),
so a move reads it with the game it already holds, and the wait of a turn that comes to them
starts when they are back (see `GameAccess.wait_for`). A turn that is theirs as they leave or
come back is moved on, or back, by the same stretch of time in the same transaction: the time
they had left is what they find again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from hvbot.database import Database, Transaction
from hvbot.store.sql import stamp

# The columns of a person's turn that wait on time: moved together, so none runs meanwhile.
_TURN_TIMES = ("clock_deadline", "clock_warn_at", "remind_at")


class TimeAway:
    """The `time_away` table and the `away_until` of the seats it is copied to."""

    def __init__(self, db: Database, forget: Callable[[int], None]) -> None:
        self.db = db
        self._forget = forget  # the copy in memory of each game changed is read again

    async def periods(
        self, *, guild_id: int, user_id: int, since: datetime
    ) -> list[tuple[datetime, datetime]]:
        """A person's periods away in a server that end after `since`, as (start, end)."""
        rows = await self.db.fetch(
            "SELECT starts_at, ends_at FROM time_away"
            " WHERE guild_id = ? AND user_id = ? AND ends_at > ? ORDER BY starts_at",
            guild_id,
            user_id,
            stamp(since),
        )
        return [
            (datetime.fromisoformat(r["starts_at"]), datetime.fromisoformat(r["ends_at"]))
            for r in rows
        ]

    async def until(self, *, guild_id: int, user_id: int, now: datetime) -> str | None:
        """When the person's current time away in a server ends (as stored), if they are away."""
        value: str | None = await self.db.fetchval(
            "SELECT MAX(ends_at) FROM time_away WHERE guild_id = ? AND user_id = ?"
            " AND starts_at <= ? AND ends_at > ?",
            guild_id,
            user_id,
            stamp(now),
            stamp(now),
        )
        return value

    async def set(
        self,
        *,
        guild_id: int,
        user_id: int,
        now: datetime,
        until: datetime,
        turns: Iterable[tuple[int, int]],
        moved: timedelta,
    ) -> None:
        """The person is away from `now` until `until` (a current period is ended or
        stretched to it: `/me back` is `until` = `now`); their seats in the server's open games
        say so, and the waits of their `turns` (game id, version: the games where they are to
        move) are moved on by `moved` (back, if negative)."""
        at, end = stamp(now), stamp(until)

        async def work(tx: Transaction) -> None:
            stretched = await tx.execute(
                "UPDATE time_away SET ends_at = ? WHERE guild_id = ? AND user_id = ?"
                " AND starts_at <= ? AND ends_at > ?",
                end,
                guild_id,
                user_id,
                at,
                at,
            )
            if stretched == 0 and until > now:
                await tx.execute(
                    "INSERT INTO time_away (guild_id, user_id, starts_at, ends_at)"
                    " VALUES (?, ?, ?, ?)",
                    guild_id,
                    user_id,
                    at,
                    end,
                )
            await tx.execute(
                "UPDATE seats SET away_until = ? WHERE user_id = ? AND game_id IN"
                " (SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active'))",
                end if until > now else None,
                user_id,
                guild_id,
            )
            for game_id, version in turns:
                await _move_turn(tx, game_id, version, moved)

        await self.db.transact(work)
        for game_id in await self._open_game_ids(guild_id, user_id):
            self._forget(game_id)

    async def _open_game_ids(self, guild_id: int, user_id: int) -> list[int]:
        rows = await self.db.fetch(
            "SELECT game_id FROM seats WHERE user_id = ? AND game_id IN"
            " (SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active'))",
            user_id,
            guild_id,
        )
        return [r["game_id"] for r in rows]


async def _move_turn(tx: Transaction, game_id: int, version: int, moved: timedelta) -> None:
    """Move a turn's deadline, warning and reminder by `moved`, if the game is still at
    `version` (a move since started a new turn, written with the time away in mind)."""
    row = await tx.fetchrow(
        "SELECT clock_deadline, clock_warn_at, remind_at FROM games WHERE id = ? AND version = ?",
        game_id,
        version,
    )
    if row is None:
        return
    values = [
        stamp(datetime.fromisoformat(row[c]) + moved) if row[c] is not None else None
        for c in _TURN_TIMES
    ]
    await tx.execute(
        "UPDATE games SET clock_deadline = ?, clock_warn_at = ?, remind_at = ?"
        " WHERE id = ? AND version = ?",
        *values,
        game_id,
        version,
    )
