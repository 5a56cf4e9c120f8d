"""Duties that any bot process may do, claimed by one at a time with a lease that expires.

Several processes share one database (see `hvbot.database`). What must happen after a change,
posting its announcement or letting an AI seat think, is written down in the database in the
change's own transaction, then claimed: a claim is a lease (`claimed_until`, `ai_until`), so a
process that dies mid-duty has it taken over by another once the lease runs out, and a live
process is never second-guessed before then. On PostgreSQL the claims skip rows another
process holds locked (`FOR UPDATE SKIP LOCKED`); SQLite lets one writer in at a time anyway.

The outbox (`announcements`): a move's public board post or a reminder's text, in the order
stored. The process that stored a move holds its lease and posts it as the answer to the
person's command; if it dies first, another process posts it to the game's channel. A process
that claimed posts takes each one (`take`) right before making it, which fails if its lease ran
out and another process claimed the post meanwhile: a slow process never makes a post that
another has taken over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from hvbot.database import Database, Transaction

LEASE = timedelta(seconds=20)  # how long a claimed duty is left to the process that claimed it
# A finished game's replay takes its process seconds to draw (a long Sector 6 game, more on a
# busy machine): it is left to that process longer before another one draws it instead.
REPLAY_LEASE = timedelta(minutes=5)
KEEP_SENT = timedelta(days=1)  # how long a post made stays in the outbox (to look into)
CLAIM_BATCH = 50  # duties claimed at a time


def stamp(moment: datetime) -> str:
    """UTC ISO text: stamps in this form compare correctly as strings in SQL."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _lease_from_now(lease: timedelta) -> tuple[str, str]:
    now = datetime.now(UTC)
    return stamp(now), stamp(now + lease)


def _skip_locked(db_or_backend: Database | str) -> str:
    backend = db_or_backend if isinstance(db_or_backend, str) else db_or_backend.backend
    return " FOR UPDATE SKIP LOCKED" if backend == "postgresql" else ""


@dataclass(frozen=True)
class Announcement:
    """A public post owed by a stored change: a move (`seat` and the stored actions number
    `first` to `first + count - 1`), a plain text, or a finished game's replay; `held_until`
    is the lease of the claim that handed it over, which tells it from any later claim."""

    id: int
    game_id: int
    version: int
    kind: str
    body: dict[str, Any]
    held_until: str

    @property
    def is_move(self) -> bool:
        return self.kind == "move"


async def announce(
    tx: Transaction,
    *,
    game_id: int,
    version: int,
    kind: str,
    body: dict[str, Any],
    lease: timedelta | None = None,
) -> Announcement:
    """Owe a post, inside the transaction of the change it tells of; held by the caller's
    process for `lease` while it posts it itself. Returns it as claimed, to `take`."""
    now, until = _lease_from_now(lease or LEASE)
    announcement_id: int = await tx.fetchval(
        "INSERT INTO announcements (game_id, version, kind, body, created_at, claimed_until)"
        " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        game_id,
        version,
        kind,
        json.dumps(body),
        now,
        until,
    )
    return Announcement(announcement_id, game_id, version, kind, body, until)


async def take(db: Database, owed: Announcement) -> bool:
    """Take a claimed post right before making it: False if it must not be made here, as
    another process claimed it once this one's lease ran out (or it was made already).

    A text (a turn reminder) is marked made as it is taken, so a post that outlasts the lease
    cannot be claimed and made again by another process; a crash in between loses that one
    reminder, and the next comes within the hour. A move's board or a replay stays owed until
    made, since a game needs its board: its lease starts again from now instead (a replay's
    longer one, as it takes a while to draw)."""
    moment, until = _lease_from_now(REPLAY_LEASE if owed.kind == "replay" else LEASE)
    made = moment if owed.kind == "text" else None
    taken = await db.transact(
        lambda tx: tx.execute(
            "UPDATE announcements SET claimed_until = ?, sent_at = ?"
            " WHERE id = ? AND sent_at IS NULL AND claimed_until = ?",
            until,
            made,
            owed.id,
            owed.held_until,
        )
    )
    return taken == 1


async def _made(db: Database, which: str, *args: Any) -> None:
    """Mark the owed posts `which` (an SQL condition) as made: nobody posts them again."""
    await db.transact(
        lambda tx: tx.execute(
            f"UPDATE announcements SET sent_at = ? WHERE sent_at IS NULL AND {which}",
            stamp(datetime.now(UTC)),
            *args,
        )
    )


async def sent(db: Database, announcement_id: int) -> None:
    """The post is out."""
    await _made(db, "id = ?", announcement_id)


async def replay_sent(db: Database, game_id: int) -> None:
    """The replay of a finished game is out (or could not be made)."""
    await _made(db, "game_id = ? AND kind = 'replay'", game_id)


async def move_sent(db: Database, *, game_id: int, version: int) -> None:
    """The board post of the move that made `version` is out."""
    await _made(db, "game_id = ? AND version = ? AND kind = 'move'", game_id, version)


async def forget_sent(db: Database, *, older_than: timedelta = KEEP_SENT) -> int:
    """Drop posts made long ago: the outbox holds what is owed, not a history."""
    before = stamp(datetime.now(UTC) - older_than)
    return await db.transact(
        lambda tx: tx.execute(
            "DELETE FROM announcements WHERE sent_at IS NOT NULL AND sent_at < ?", before
        )
    )


async def claim_announcements(
    db: Database, *, lease: timedelta | None = None
) -> list[Announcement]:
    """Unsent posts whose lease has run out (their process died, or never held one), claimed
    for this process, oldest first."""
    now, until = _lease_from_now(lease or LEASE)

    async def work(tx: Transaction) -> list[Announcement]:
        rows = await tx.fetch(
            "UPDATE announcements SET claimed_until = ? WHERE id IN (SELECT id FROM announcements"
            " WHERE sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)"
            f" ORDER BY id LIMIT {CLAIM_BATCH}{_skip_locked(db)})"
            " RETURNING id, game_id, version, kind, body",
            until,
            now,
        )
        return sorted(
            (
                Announcement(
                    r["id"], r["game_id"], r["version"], r["kind"], json.loads(r["body"]), until
                )
                for r in rows
            ),
            key=lambda a: a.id,
        )

    return await db.transact(work)


async def owes_posts(db: Database, game_id: int) -> bool:
    """Whether a change to the game is still to be told."""
    owed = await db.fetchval(
        "SELECT 1 FROM announcements WHERE game_id = ? AND sent_at IS NULL LIMIT 1", game_id
    )
    return owed is not None


async def claim_ai(
    db: Database, game_id: int, owner: str, *, lease: timedelta | None = None
) -> bool:
    """Claim (or renew) the thinking of a game's AI seat for the process `owner`; False while
    another process holds it. A claim ends with its lease: the AI's move is stored with a
    compare-and-set, so even a process that outlived its lease cannot store a second move for
    the same turn."""
    now, until = _lease_from_now(lease or LEASE)
    changed = await db.transact(
        lambda tx: tx.execute(
            "UPDATE games SET ai_until = ?, ai_by = ? WHERE id = ?"
            " AND (ai_until IS NULL OR ai_until <= ? OR ai_by = ?)",
            until,
            owner,
            game_id,
            now,
            owner,
        )
    )
    return changed == 1


async def release_ai(db: Database, game_id: int, owner: str) -> None:
    """Let go of the claim (a person is to move now), so any process may claim the next AI
    turn at once, not only once the lease has run out."""
    await db.transact(
        lambda tx: tx.execute(
            "UPDATE games SET ai_until = NULL, ai_by = NULL WHERE id = ? AND ai_by = ?",
            game_id,
            owner,
        )
    )


async def claim_ai_turns(db: Database, owner: str, *, lease: timedelta | None = None) -> list[int]:
    """Games in play whose AI seat is to move and whose thinking nobody holds (its process
    died, say): claimed for the process `owner`, by game id."""
    now, until = _lease_from_now(lease or LEASE)

    async def work(tx: Transaction) -> list[int]:
        rows = await tx.fetch(
            "UPDATE games SET ai_until = ?, ai_by = ? WHERE id IN (SELECT id FROM games"
            " WHERE status = 'active' AND ai_turn = 1 AND (ai_until IS NULL OR ai_until <= ?)"
            f" ORDER BY id LIMIT {CLAIM_BATCH}{_skip_locked(db)}) RETURNING id",
            until,
            owner,
            now,
        )
        return sorted(r["id"] for r in rows)

    return await db.transact(work)
