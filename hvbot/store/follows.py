"""Who follows a game they do not play, and what of its moves each has been told.

A follower joined to the game's thread needs nothing more from here than to be listed. A
follower by DM is told the moves in digests: one is due when the game has changed since they
were last told (`seen_version`) and their own wait is over (`due_at`: their quiet hours, or
how often they want to hear). A digest is claimed by a compare-and-set on the row as it was
read, its post owed in the outbox in the same transaction (`hvbot.store.duties`), exactly as
a turn reminder is (`hvbot.store.waits`): whichever process claims it, each move is told once.

A move a follower was told and that is then taken back is noted on their follow by the
take-back's own transaction (`taken_back`, and `seen_moves` set back to the moves left), so
their next digest says so, once, whichever process claims it. A follow from a lobby that
starts in a thread becomes a thread follow when the start's duty joins its followers to the
thread (`to_thread`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hvbot.database import Database, Transaction
from hvbot.store.duties import Owed, owe
from hvbot.store.sql import stamp

OPEN = "('lobby', 'active')"


@dataclass(frozen=True)
class Followed:
    """One person's follow of one game, as stored."""

    user_id: int
    game_id: int
    by_dm: bool
    language: str
    seen_moves: int
    seen_version: int
    due_at: str | None
    # What the follower was told and was taken back since (see `took_back`), to tell next,
    # as stored: one line of JSON each.
    taken_back_lines: str = ""

    @property
    def taken_back(self) -> tuple[dict[str, Any], ...]:
        """Each take-back to tell: who (`player`) took back which move (`action`), and how
        many AI actions went with it (`ai`)."""
        return tuple(json.loads(line) for line in self.taken_back_lines.splitlines() if line)


@dataclass(frozen=True)
class DueDigest:
    """A follow by DM whose game changed since its follower was last told, and whose wait is
    over: the row as read (the compare-and-set's expectation), and the game as it is now."""

    follow: Followed
    version: int  # the game's version now
    moves: int  # the game's stored actions now
    status: str


def _followed(row: Any) -> Followed:
    return Followed(
        int(row["user_id"]),
        int(row["game_id"]),
        bool(row["by_dm"]),
        row["language"],
        int(row["seen_moves"]),
        int(row["seen_version"]),
        row["due_at"],
        row["taken_back"] or "",
    )


_COLUMNS = (
    "f.user_id, f.game_id, f.by_dm, f.language, f.seen_moves, f.seen_version, f.due_at,"
    " f.taken_back"
)
# The row as it was read, for a compare-and-set: unchanged by any other process since.
_AS_READ = (
    " WHERE user_id = ? AND game_id = ? AND seen_version = ? AND seen_moves = ?"
    " AND COALESCE(due_at, '') = ? AND COALESCE(taken_back, '') = ?"
)


class Follows:
    """The `follows` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(
        self, *, user_id: int, game_id: int, by_dm: bool, language: str, now: datetime, most: int
    ) -> bool | None:
        """Follow the game from now on: its moves stored so far are not told. True if this
        is a new follow, False if the person followed it already (kept as it was), None if
        they follow `most` open games already (nothing added)."""

        async def work(tx: Transaction) -> bool | None:
            there = await tx.fetchval(
                "SELECT 1 FROM follows WHERE user_id = ? AND game_id = ?", user_id, game_id
            )
            if there is not None:
                return False
            count = await tx.fetchval(
                "SELECT COUNT(*) FROM follows AS f JOIN games AS g ON g.id = f.game_id"
                f" WHERE f.user_id = ? AND g.status IN {OPEN}",
                user_id,
            )
            if int(count or 0) >= most:
                return None
            await tx.execute(
                "INSERT INTO follows (user_id, game_id, by_dm, language, since, seen_moves,"
                " seen_version) VALUES (?, ?, ?, ?, ?,"
                " (SELECT COUNT(*) FROM actions WHERE game_id = ?),"
                " (SELECT version FROM games WHERE id = ?))",
                user_id,
                game_id,
                1 if by_dm else 0,
                language,
                stamp(now),
                game_id,
                game_id,
            )
            return True

        return await self.db.transact(work)

    async def remove(self, *, user_id: int, game_id: int) -> Followed | None:
        """Stop following: the follow as it was, None if there was none."""
        row = await self.db.transact(
            lambda tx: tx.fetchrow(
                "DELETE FROM follows WHERE user_id = ? AND game_id = ? RETURNING user_id,"
                " game_id, by_dm, language, seen_moves, seen_version, due_at, taken_back",
                user_id,
                game_id,
            )
        )
        return _followed(row) if row is not None else None

    async def of(self, *, user_id: int, game_id: int) -> Followed | None:
        row = await self.db.fetchrow(
            f"SELECT {_COLUMNS} FROM follows AS f WHERE f.user_id = ? AND f.game_id = ?",
            user_id,
            game_id,
        )
        return _followed(row) if row is not None else None

    async def games_of(self, user_id: int) -> list[int]:
        """The open games the person follows, oldest follow first, by id."""
        rows = await self.db.fetch(
            "SELECT f.game_id FROM follows AS f JOIN games AS g ON g.id = f.game_id"
            f" WHERE f.user_id = ? AND g.status IN {OPEN} ORDER BY f.since, f.game_id",
            user_id,
        )
        return [int(r["game_id"]) for r in rows]

    async def due(self, *, now: datetime, most: int) -> list[DueDigest]:
        """Follows by DM whose game has changed since they were told (a lobby's seats do not
        count: nothing is played there yet) and whose wait is over, the first `most`."""
        rows = await self.db.fetch(
            f"SELECT {_COLUMNS}, g.version, g.status,"
            " (SELECT COUNT(*) FROM actions AS a WHERE a.game_id = f.game_id) AS moves"
            " FROM follows AS f JOIN games AS g ON g.id = f.game_id"
            " WHERE f.by_dm = 1 AND g.status <> 'lobby' AND g.version <> f.seen_version"
            " AND (f.due_at IS NULL OR f.due_at <= ?)"
            f" ORDER BY f.game_id, f.user_id LIMIT {int(most)}",
            stamp(now),
        )
        return [
            DueDigest(_followed(r), int(r["version"]), int(r["moves"]), r["status"]) for r in rows
        ]

    async def hold(self, due: DueDigest, *, until: datetime) -> bool:
        """Nothing told before `until` (the follower's quiet hours): False if another process
        (or the follower) changed the follow first."""
        f = due.follow
        changed = await self.db.transact(
            lambda tx: tx.execute(
                f"UPDATE follows SET due_at = ?{_AS_READ}",
                stamp(until),
                *_as_read(f),
            )
        )
        return bool(changed == 1)

    async def claim(
        self,
        due: DueDigest,
        *,
        now: datetime,
        next_at: datetime | None,
        body: dict[str, Any] | None,
        last: bool = False,
    ) -> tuple[Owed, ...] | None:
        """The follower is told the game as it is now: the follow moved on to it (`next_at`:
        no digest before then; `last`: the game is over, the follow goes; what was taken back
        is told) and `body` owed in the outbox as a digest (None: nothing to tell), in one
        transaction. None if another process (or the follower, or a take-back) changed the
        follow first, or the game changed since it was read: each digest is claimed once, and
        tells the game as it was read."""
        f = due.follow
        # Nor if the game changed since it was read: the moves counted then may have been
        # taken back (and the follower would miss the next ones, counted as told).
        unchanged = " AND (SELECT version FROM games WHERE id = follows.game_id) = ?"

        async def work(tx: Transaction) -> tuple[Owed, ...] | None:
            if last:
                changed = await tx.execute(
                    f"DELETE FROM follows{_AS_READ}{unchanged}", *_as_read(f), due.version
                )
            else:
                changed = await tx.execute(
                    "UPDATE follows SET seen_version = ?, seen_moves = ?, due_at = ?,"
                    f" taken_back = NULL{_AS_READ}{unchanged}",
                    due.version,
                    due.moves,
                    stamp(next_at) if next_at is not None else None,
                    *_as_read(f),
                    due.version,
                )
            if changed != 1:
                return None
            if body is None:
                return ()
            # Owed at the game's version as it stands: a digest changes nothing of the game.
            version = await tx.fetchval("SELECT version FROM games WHERE id = ?", f.game_id)
            return (
                await owe(
                    tx, game_id=f.game_id, version=version, kind="digest", body=body, now=now
                ),
            )

        return await self.db.transact(work)

    async def to_thread(self, *, game_id: int, user_ids: Sequence[int]) -> list[int]:
        """The lobby's followers `user_ids` (as its start found them) follow the game in its
        thread from now on, not by DM: those of them who still follow it, to be added to the
        thread. Done again (another process took the duty over), it finds them all again:
        adding a member to a thread twice leaves them a member once."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)

        async def work(tx: Transaction) -> list[int]:
            await tx.execute(
                "UPDATE follows SET by_dm = 0, due_at = NULL, taken_back = NULL"
                f" WHERE game_id = ? AND by_dm = 1 AND user_id IN ({marks})",
                game_id,
                *user_ids,
            )
            rows = await tx.fetch(
                "SELECT user_id FROM follows WHERE game_id = ? AND by_dm = 0"
                f" AND user_id IN ({marks}) ORDER BY user_id",
                game_id,
                *user_ids,
            )
            return [int(r["user_id"]) for r in rows]

        return await self.db.transact(work)


async def followers_by_dm(tx: Transaction, game_id: int) -> list[int]:
    """Who follows the game by DM, in the transaction of its start: a lobby's followers, to be
    joined to its thread if it has one by the time the start's duty is done."""
    rows = await tx.fetch(
        "SELECT user_id FROM follows WHERE game_id = ? AND by_dm = 1 ORDER BY user_id", game_id
    )
    return [int(r["user_id"]) for r in rows]


async def took_back(tx: Transaction, *, game_id: int, n: int, told: dict[str, Any]) -> None:
    """In the transaction that takes back the game's actions from number `n` on: each
    follower by DM who was told some of them (`seen_moves` past `n`) is to be told, in their
    next digest, that they were taken back (`told`: who took back which move, as the channel
    is told), and is told the moves from `n` on afresh. One statement, so a digest claimed
    meanwhile by another process finds its follow changed and claims nothing."""
    await tx.execute(
        "UPDATE follows SET seen_moves = ?, taken_back = COALESCE(taken_back, '') || ?"
        " WHERE game_id = ? AND by_dm = 1 AND seen_moves > ?",
        n,
        json.dumps(told, sort_keys=True) + "\n",
        game_id,
        n,
    )


def _as_read(f: Followed) -> tuple[Any, ...]:
    return (
        f.user_id,
        f.game_id,
        f.seen_version,
        f.seen_moves,
        f.due_at or "",
        f.taken_back_lines,
    )
