"""Requests that wait for the other players' answers: taking back a move or ending the game
(both need everyone's yes), and the vote on a person who is away.

One open request per game and table, each for one version of the game: opening one voids the
one before, and answers to a request for an older version are refused by the services.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from hvbot.database import Database, Row, Transaction
from hvbot.store.duties import real_time
from hvbot.store.rows import AbsenceVote, UndoRequest
from hvbot.store.sql import stamp, statement


class _Requests:
    """One table of requests (a constant name, never a person's words)."""

    table = ""

    def __init__(self, db: Database, clock: Callable[[], datetime] = real_time) -> None:
        self.db = db
        self.clock = clock  # when a request is opened (a waiting one holds the table a while)

    async def _open(self, game_id: int, **fields: Any) -> int:
        columns = ", ".join(["game_id", *fields, "created_at"])
        marks = ", ".join("?" * (len(fields) + 2))

        async def work(tx: Transaction) -> int:
            await tx.execute(
                f"UPDATE {self.table} SET status = 'void' WHERE game_id = ? AND status = 'open'",
                game_id,
            )
            request_id: int = await tx.fetchval(
                f"INSERT INTO {self.table} ({columns}) VALUES ({marks}) RETURNING id",
                game_id,
                *fields.values(),
                stamp(self.clock()),
            )
            return request_id

        return await self.db.transact(work)

    async def _row(self, request_id: int) -> Row | None:
        return await self.db.fetchrow(f"SELECT * FROM {self.table} WHERE id = ?", request_id)

    def _made(self, request_id: int) -> LookupError:
        return LookupError(f"{self.table} {request_id} vanished as it was made")


class UndoRequests(_Requests):
    """Requests everyone else must accept (`undo_requests`): to take back a game's latest
    action, or to abandon it."""

    table = "undo_requests"

    async def open(
        self,
        *,
        game_id: int,
        version: int,
        n: int,
        requester_id: int,
        action: str,
        asked: Sequence[int],
        kind: str = "undo",
    ) -> UndoRequest:
        """Record a request (any earlier open one for the game is void: one at a time)."""
        request_id = await self._open(
            game_id,
            version=version,
            n=n,
            requester_id=requester_id,
            action=action,
            asked=json.dumps(list(asked)),
            kind=kind,
        )
        found = await self.get(request_id=request_id)
        if found is None:
            raise self._made(request_id)
        return found

    async def get(self, *, request_id: int) -> UndoRequest | None:
        row = await self._row(request_id)
        if row is None:
            return None
        return UndoRequest(
            id=row["id"],
            game_id=row["game_id"],
            version=row["version"],
            n=row["n"],
            requester_id=row["requester_id"],
            action=row["action"],
            asked=tuple(json.loads(row["asked"])),
            accepted=tuple(json.loads(row["accepted"])),
            status=row["status"],
            message_id=row["message_id"],
            kind=row["kind"],
        )

    async def answer(
        self, *, request_id: int, accepted: Sequence[int], status: str = "open"
    ) -> bool:
        """Record who has accepted (and the outcome); False if the request was no longer open."""
        changed = await self.db.transact(
            statement(
                "UPDATE undo_requests SET accepted = ?, status = ?"
                " WHERE id = ? AND status = 'open'",
                json.dumps(list(accepted)),
                status,
                request_id,
            )
        )
        return changed == 1

    async def set_message(self, *, request_id: int, message_id: int) -> None:
        """The message that asks the others, so its buttons can be taken off once settled."""
        await self.db.transact(
            statement(
                "UPDATE undo_requests SET message_id = ? WHERE id = ?", message_id, request_id
            )
        )


async def close_undo(tx: Transaction, request_id: int, accepted: Sequence[int]) -> None:
    """Mark a request done, in the transaction that takes its move back."""
    await tx.execute(
        "UPDATE undo_requests SET status = 'done', accepted = ? WHERE id = ?",
        json.dumps(list(accepted)),
        request_id,
    )


class AbsenceVotes(_Requests):
    """Votes on a seat whose person has been away past the game's limit (`absence_votes`)."""

    table = "absence_votes"

    async def open(
        self, *, game_id: int, version: int, seat: int, asked: Sequence[int]
    ) -> AbsenceVote:
        """Record a vote about the seat (any earlier open one for the game is void)."""
        vote_id = await self._open(
            game_id, version=version, seat=seat, asked=json.dumps(list(asked))
        )
        found = await self.get(vote_id=vote_id)
        if found is None:
            raise self._made(vote_id)
        return found

    async def get(self, *, vote_id: int) -> AbsenceVote | None:
        row = await self._row(vote_id)
        if row is None:
            return None
        return AbsenceVote(
            id=row["id"],
            game_id=row["game_id"],
            version=row["version"],
            seat=row["seat"],
            asked=tuple(json.loads(row["asked"])),
            votes={int(k): v for k, v in json.loads(row["votes"]).items()},
            status=row["status"],
        )

    async def record(self, *, vote_id: int, votes: dict[int, str], status: str = "open") -> bool:
        """Save the votes cast (and the outcome); False if the vote was no longer open."""
        changed = await self.db.transact(
            statement(
                "UPDATE absence_votes SET votes = ?, status = ? WHERE id = ? AND status = 'open'",
                json.dumps({str(k): v for k, v in votes.items()}),
                status,
                vote_id,
            )
        )
        return changed == 1


async def waiting(db: Database, game_id: int, version: int, since: datetime) -> bool:
    """Whether a request of any kind, opened after `since`, waits for answers about this
    version of the game."""
    for table in (UndoRequests.table, AbsenceVotes.table):
        found = await db.fetchval(
            f"SELECT 1 FROM {table} WHERE game_id = ? AND version = ? AND status = 'open'"
            " AND created_at > ?",
            game_id,
            version,
            stamp(since),
        )
        if found:
            return True
    return False
