"""Seasons that ended (`season_ends`): one row per server and season, written once, by
whichever process saw the season end first, in the transaction that owes its announcement
(and its rank roles) in the outbox. The row is the claim: a second process's insert finds it
there and owes nothing, so the end is announced once however many processes look.

The calendar itself (which season holds a moment) is the services' (`hvbot.services.seasons`);
this module stores labels and stamps only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hvbot.database import Database, Transaction
from hvbot.store.duties import Owed, owe_for_server
from hvbot.store.results import result_row
from hvbot.store.rows import ResultRow
from hvbot.store.sql import stamp


@dataclass(frozen=True)
class SeasonDue:
    """A server whose last season ended and is not recorded yet: its settings as they bear
    on the end (`length`, the `channel` told, the `rank_role` given)."""

    guild_id: int
    length: str
    channel: int | None
    rank_role: int | None
    language: str | None


@dataclass(frozen=True)
class EndedSeason:
    """A season's end as recorded: its label, when it was recorded, and who was given the rank
    role for it."""

    label: str
    ended_at: str
    ranked: tuple[int, ...]


class SeasonEnds:
    """The `season_ends` table, and the seasons' view of the results."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def due(
        self, *, month: tuple[str, datetime], quarter: tuple[str, datetime]
    ) -> list[SeasonDue]:
        """Servers with seasons whose last ended season (`month` or `quarter`: its label and
        its end) is not recorded yet, and ended after seasons were turned on there: one read
        per check, whatever the number of servers."""
        rows = await self.db.fetch(
            "SELECT s.guild_id, s.season_length, s.season_channel, s.rank_role, s.language"
            " FROM server_settings AS s WHERE s.season_length IS NOT NULL"
            " AND s.season_since < CASE WHEN s.season_length = 'month' THEN ? ELSE ? END"
            " AND NOT EXISTS (SELECT 1 FROM season_ends AS e WHERE e.guild_id = s.guild_id"
            " AND e.label = CASE WHEN s.season_length = 'month' THEN ? ELSE ? END)"
            " ORDER BY s.guild_id",
            stamp(month[1]),
            stamp(quarter[1]),
            month[0],
            quarter[0],
        )
        return [
            SeasonDue(
                r["guild_id"],
                r["season_length"],
                r["season_channel"],
                r["rank_role"],
                r["language"],
            )
            for r in rows
        ]

    async def record(
        self,
        *,
        guild_id: int,
        label: str,
        now: datetime,
        announce: dict[str, Any] | None,
        rank_role: int | None,
        ranked: Sequence[int],
    ) -> tuple[Owed, ...] | None:
        """Record the season's end on the server, and owe in the same transaction what it
        says: the post `announce` (None: no channel is named), and with a `rank_role`, the role
        given to `ranked` and taken from last season's holders who are not among them. None if
        another process recorded it first: then it owes it, not this one."""

        async def work(tx: Transaction) -> tuple[Owed, ...] | None:
            before = await tx.fetchval(
                "SELECT ranked FROM season_ends WHERE guild_id = ? AND label <> ?"
                " ORDER BY ended_at DESC, label DESC LIMIT 1",
                guild_id,
                label,
            )
            kept = " ".join(str(user) for user in ranked) if rank_role is not None else ""
            inserted = await tx.fetchval(
                "INSERT INTO season_ends (guild_id, label, ended_at, ranked) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, label) DO NOTHING RETURNING label",
                guild_id,
                label,
                stamp(now),
                kept,
            )
            if inserted is None:
                return None
            owed: list[Owed] = []
            if announce is not None:
                owed.append(
                    await owe_for_server(
                        tx, guild_id=guild_id, kind="season", body=announce, now=now
                    )
                )
            if rank_role is not None:
                held = [int(user) for user in (before or "").split()]
                body = {
                    "label": label,
                    "role": rank_role,
                    "given": list(ranked),
                    "taken": [user for user in held if user not in set(ranked)],
                }
                owed.append(
                    await owe_for_server(tx, guild_id=guild_id, kind="ranks", body=body, now=now)
                )
            return tuple(owed)

        return await self.db.transact(work)

    async def ended(self, guild_id: int) -> list[EndedSeason]:
        """The seasons that ended on a server, the latest first."""
        rows = await self.db.fetch(
            "SELECT label, ended_at, ranked FROM season_ends WHERE guild_id = ?"
            " ORDER BY ended_at DESC, label DESC",
            guild_id,
        )
        return [
            EndedSeason(r["label"], r["ended_at"], tuple(int(user) for user in r["ranked"].split()))
            for r in rows
        ]

    async def results_between(
        self, *, guild_id: int, starts: str, ends: str
    ) -> dict[str, list[ResultRow]]:
        """The results finished on a server from `starts` up to `ends` (stamps), by game, each
        in finishing order (as `Results.of_kind` gives them)."""
        rows = await self.db.fetch(
            "SELECT * FROM results WHERE guild_id = ? AND finished_at >= ? AND finished_at < ?"
            " ORDER BY game, finished_at, game_id, seat",
            guild_id,
            starts,
            ends,
        )
        found: dict[str, list[ResultRow]] = {}
        for r in rows:
            found.setdefault(r["game"], []).append(result_row(r))
        return found

    async def months_played(self, guild_id: int) -> list[str]:
        """The calendar months ("2026-11", UTC) in which a game finished on a server, the
        latest first: the seasons worth reading there are those that hold one (read off the
        results' stamps, which are UTC ISO text, over the index they are read by)."""
        rows = await self.db.fetch(
            "SELECT DISTINCT SUBSTR(finished_at, 1, 7) AS month FROM results"
            " WHERE guild_id = ? ORDER BY month DESC",
            guild_id,
        )
        return [r["month"] for r in rows]
