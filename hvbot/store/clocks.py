"""Turn clocks that fall due: the warning when a quarter of the time is left, and what
happens when it has run out, each claimed once across every bot process.

A clock is written with each move (`clock_deadline`, `clock_warn_at`, see
`hvbot.store.changes`). Here the due ones are found and moved on by a compare-and-set on the
very value found: whichever process sets it first owns the warning or the timeout, and its
words are owed in the outbox in the same transaction, so a process that dies right after
leaves them to another (see `hvbot.store.duties`). Running out hands the move to an AI
(`stand_in_seat`, `ai_turn`) in that same statement, and from there the AI seats' own claims
make sure it is played once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hvbot.database import Database, Transaction
from hvbot.store.duties import Owed, owe, owe_text
from hvbot.store.sql import VersionConflict, bump, indexed_by, stamp, statement


@dataclass(frozen=True)
class DueClock:
    """A game whose clock has a warning or a timeout due (as stored: the claim keys)."""

    game_id: int
    version: int
    deadline: str | None  # set if the time has run out
    warn_at: str | None  # set if only the warning is due


class Clocks:
    """The `clock_deadline` and `clock_warn_at` columns of the games in play."""

    def __init__(
        self, db: Database, changed: Callable[..., None], forget: Callable[[int], None]
    ) -> None:
        self.db = db
        self._changed = changed  # the store's copy in memory follows each claim
        self._forget = forget

    async def due(self, *, now: datetime, most: int) -> list[DueClock]:
        """Games whose person to move has run out of time, or is due their warning."""
        at = stamp(now)
        rows = await self.db.fetch(
            "SELECT id, version, clock_deadline, clock_warn_at FROM games"
            f"{indexed_by(self.db, 'games_clocks_due')}"
            # A warning is only ever set with a deadline (`GameAccess.wait_for`), so the
            # games with a deadline are all there is to look through: its index's.
            " WHERE status = 'active' AND clock_deadline IS NOT NULL AND clock_paused_at IS NULL"
            " AND (clock_deadline <= ? OR clock_warn_at <= ?)"
            f" ORDER BY id LIMIT {int(most)}",
            at,
            at,
        )
        return [
            DueClock(
                r["id"],
                r["version"],
                r["clock_deadline"] if r["clock_deadline"] and r["clock_deadline"] <= at else None,
                r["clock_warn_at"],
            )
            for r in rows
        ]

    async def warn(
        self, *, game_id: int, warn_at: str, now: datetime, user_id: int, text: str
    ) -> Owed | None:
        """Claim the warning due at `warn_at` and owe its `text` by DM to `user_id`; None if
        another process (or a move) claimed or moved it first."""

        async def work(tx: Transaction) -> Owed | None:
            changed = await tx.execute(
                "UPDATE games SET clock_warn_at = NULL WHERE id = ? AND clock_warn_at = ?",
                game_id,
                warn_at,
            )
            if changed != 1:
                return None
            body = {"content": text, "user": user_id}
            return await owe_text(tx, game_id=game_id, body=body, now=now)

        owed = await self.db.transact(work)
        if owed is not None:
            self._changed(game_id, clock_warn_at=None)
        return owed

    async def hand_to_ai(
        self, *, game_id: int, version: int, seat: int, now: datetime, text: str
    ) -> Owed | None:
        """The time of the person at `seat` ran out: an AI plays this move for them
        (`stand_in_seat`), and the channel is told `text`. A change of who moves, so it bumps
        the game's version (the person's prompt goes stale, and every process's copy of the
        game is read again); None if another process (or the person's own move) changed the
        game first."""

        async def work(tx: Transaction) -> Owed:
            await bump(
                tx,
                game_id,
                version,
                "clock_deadline = NULL, clock_warn_at = NULL, remind_at = NULL,"
                " stand_in_seat = ?, ai_turn = 1",
                (seat,),
                at=now,
            )
            body = {"content": text}
            return await owe(
                tx, game_id=game_id, version=version + 1, kind="text", body=body, now=now
            )

        try:
            owed = await self.db.transact(work)
        except VersionConflict:
            self._forget(game_id)
            return None
        self._changed(
            game_id,
            version=version + 1,
            clock_deadline=None,
            clock_warn_at=None,
            stand_in_seat=seat,
        )
        return owed

    async def pause(self, *, game_id: int, version: int, now: datetime) -> None:
        """The game waits on an undo request or an absence vote: its clock stands still from
        `now` (if it runs, and is not standing still already)."""
        await self.db.transact(
            statement(
                "UPDATE games SET clock_paused_at = ? WHERE id = ? AND version = ?"
                " AND clock_deadline IS NOT NULL AND clock_paused_at IS NULL",
                stamp(now),
                game_id,
                version,
            )
        )
        self._forget(game_id)  # read again with the pause: rarely, and never on a move

    async def resume(self, *, game_id: int, version: int, now: datetime) -> None:
        """The request was settled and the game goes on without a move: the clock goes on
        from where it stood, its deadline and warning moved on by the time it stood still."""

        async def work(tx: Transaction) -> None:
            row = await tx.fetchrow(
                "SELECT clock_deadline, clock_warn_at, clock_paused_at FROM games"
                " WHERE id = ? AND version = ? AND clock_paused_at IS NOT NULL",
                game_id,
                version,
            )
            if row is None or row["clock_deadline"] is None:
                return
            stood = now - datetime.fromisoformat(row["clock_paused_at"])
            warn_at = row["clock_warn_at"]
            await tx.execute(
                "UPDATE games SET clock_deadline = ?, clock_warn_at = ?, clock_paused_at = NULL"
                " WHERE id = ? AND clock_paused_at = ?",
                stamp(datetime.fromisoformat(row["clock_deadline"]) + stood),
                stamp(datetime.fromisoformat(warn_at) + stood) if warn_at else None,
                game_id,
                row["clock_paused_at"],
            )

        await self.db.transact(work)
        self._forget(game_id)
