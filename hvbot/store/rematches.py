"""Rematches: a finished game's next game, opened as a lobby whose seats wait for the people
of the game before (see `hvbot.services.rematch`).

`rematches` holds one row per finished game that had its rematch asked for, keyed by that
game: the key is the compare-and-set that lets one click, in one process, open it. Its lobby
is an ordinary game row (`changes.create_lobby`'s columns) with every seat taken already;
`rematch_invites` says who of its people has accepted. Each change here is a `Write` of the
lobby, versioned like any change of its seats, so an accept, a decline and the lobby's
expiry, made at once in two processes, apply one after the other or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from hvbot.database import Database, Transaction, Work
from hvbot.store.changes import LOBBY_LIFE, Write, count_open, replace_seats, set_seats
from hvbot.store.duties import Owed, owe
from hvbot.store.rows import GameRow, SeatRow
from hvbot.store.sql import VersionConflict
from hvbot.store.sql import stamp as sql_stamp


@dataclass(frozen=True)
class RematchRow:
    """The rematch of the finished game `game_id`: its lobby (a game of its own), and who
    asked for it."""

    game_id: int
    lobby_id: int
    user_id: int


@dataclass(frozen=True)
class Invite:
    """A person of the game before, invited to its rematch, and whether they accepted."""

    user_id: int
    accepted: bool


class AnsweredAlready(Exception):
    """The invite was answered meanwhile (another click, another process): nothing changed."""


# Lobbies known to have no invites, kept by id (see `Rematches._ordinary`): a few dozen bytes
# each, more than the lobbies a process opens in the day a lobby lives.
KNOWN_ORDINARY = 100_000


class Rematches:
    """The `rematches` and `rematch_invites` tables, read; their changes are `Write`s below."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Lobbies this process made as ordinary ones (`GameStore.create`), the latest last: a
        # lobby gets invites only as it is made, by `open_rematch`, so these never have any,
        # and each Join, Add AI and Start of one need not read them. At most KNOWN_ORDINARY.
        self._ordinary: dict[int, None] = {}

    def made_ordinary(self, lobby_id: int) -> None:
        """The lobby `lobby_id` was made without invites (see `_ordinary`)."""
        self._ordinary[lobby_id] = None
        if len(self._ordinary) > KNOWN_ORDINARY:
            del self._ordinary[next(iter(self._ordinary))]  # the oldest

    async def of_game(self, game_id: int) -> RematchRow | None:
        """The rematch asked for of the finished game `game_id`, if any."""
        row = await self.db.fetchrow(
            "SELECT game_id, lobby_id, user_id FROM rematches WHERE game_id = ?", game_id
        )
        return RematchRow(row["game_id"], row["lobby_id"], row["user_id"]) if row else None

    async def of_lobby(self, lobby_id: int) -> RematchRow | None:
        """The rematch whose lobby is the game `lobby_id`, if it is one."""
        row = await self.db.fetchrow(
            "SELECT game_id, lobby_id, user_id FROM rematches WHERE lobby_id = ?", lobby_id
        )
        return RematchRow(row["game_id"], row["lobby_id"], row["user_id"]) if row else None

    async def invites(self, lobby_id: int) -> list[Invite]:
        """The people invited to the rematch `lobby_id`, in the order of its seats' making
        (none once it became an ordinary lobby)."""
        if lobby_id in self._ordinary:
            return []
        rows = await self.db.fetch(
            "SELECT user_id, accepted FROM rematch_invites WHERE lobby_id = ? ORDER BY user_id",
            lobby_id,
        )
        return [Invite(int(r["user_id"]), bool(r["accepted"])) for r in rows]


def open_rematch(
    *,
    of: GameRow,
    channel_id: int,
    creator_id: int,
    seats: Sequence[SeatRow],
    invited: Sequence[int],
    at: datetime,
    wants_thread: bool,
    lifetime: timedelta | None = None,
    most_open: int | None = None,
    postgresql: bool = False,
) -> Work[tuple[int, list[Owed]]]:
    """The rematch of the finished game `of`, in one transaction: its lobby in `channel_id`
    with `seats` (the game before's, rotated) and `creator_id` its creator, who accepted by
    asking; `invited`, the other people, to accept; the rematch's row, whose key (the game
    before) fails with `Duplicate` a second rematch of it, as the open lobby already in the
    channel does (the caller tells which by reading `Rematches.of_game`); and the lobby
    message owed (a `lobby` post whose body names the game before: it is posted, not
    edited). It counts the creator's open games as `changes.create_lobby` does, and fails
    with `TooManyOpen` the same way. The work returns the lobby's id and what it owes."""
    expires_at = sql_stamp(at + (lifetime or LOBBY_LIFE))
    stamp = sql_stamp(at)
    clock = of.clock

    # The column left to its default for a game played in its channel (see `create_lobby`).
    answered = (of.delivery,) if of.answers_only else ()
    delivered, marked = (", delivery", ", ?") if answered else ("", "")

    async def work(tx: Transaction) -> tuple[int, list[Owed]]:
        await count_open(tx, of.guild_id, creator_id, most_open, postgresql)
        lobby_id: int = await tx.fetchval(
            "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
            " remind_minutes, absent_hours, wants_thread, language, created_at,"
            f" updated_at, clock_minutes, clock_timeout, lobby_expires_at{delivered})"
            f" VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{marked}) RETURNING id",
            of.game_name,
            of.guild_id,
            channel_id,
            creator_id,
            json.dumps(of.options),
            of.remind_minutes,
            of.absent_hours,
            int(wants_thread),
            of.language,
            stamp,
            stamp,
            clock.minutes if clock else None,
            clock.timeout if clock else None,
            expires_at,
            *answered,  # a rematch reaches its players as the game before did
        )
        await replace_seats(tx, lobby_id, seats)
        await tx.execute(
            "INSERT INTO rematches (game_id, lobby_id, user_id, created_at) VALUES (?, ?, ?, ?)",
            of.id,
            lobby_id,
            creator_id,
            stamp,
        )
        await tx.executemany(
            "INSERT INTO rematch_invites (lobby_id, user_id, accepted) VALUES (?, ?, ?)",
            [(lobby_id, creator_id, 1)] + [(lobby_id, user, 0) for user in invited],
        )
        version: int = await tx.fetchval("SELECT version FROM games WHERE id = ?", lobby_id)
        body: dict[str, Any] = {"rematch_of": of.id}
        owed = await owe(tx, game_id=lobby_id, version=version, kind="lobby", body=body, now=at)
        return lobby_id, [owed]

    return work


async def _accepted(tx: Transaction, lobby_id: int, user_id: int) -> None:
    """The invite of `user_id` accepted, if it was waiting (a compare-and-set)."""
    changed = await tx.execute(
        "UPDATE rematch_invites SET accepted = 1"
        " WHERE lobby_id = ? AND user_id = ? AND accepted = 0",
        lobby_id,
        user_id,
    )
    if changed != 1:
        raise AnsweredAlready(f"lobby {lobby_id}: {user_id} has no invite waiting")


def accept(
    lobby: GameRow, user_id: int, seats: Sequence[SeatRow], *, at: datetime
) -> Write[list[Owed]]:
    """`user_id` accepts, others still to: their seat as they are now (`seats`), the lobby
    message's update owed, as one versioned change."""
    seated = set_seats(lobby.id, lobby.version, seats, at=at, in_lobby=True)

    async def work(tx: Transaction) -> list[Owed]:
        await _accepted(tx, lobby.id, user_id)
        return await seated.work(tx)

    return Write(lobby.id, work, seated.columns, seated.state)


def accept_and_start(lobby: GameRow, user_id: int, started: Write[list[Owed]]) -> Write[list[Owed]]:
    """The last person to accept does: the game starts with it (`started`, a
    `changes.start`), in the same transaction."""

    async def work(tx: Transaction) -> list[Owed]:
        await _accepted(tx, lobby.id, user_id)
        return await started.work(tx)

    return Write(lobby.id, work, started.columns, started.state)


def made_ordinary(
    lobby: GameRow, seats: Sequence[SeatRow], *, told: str, at: datetime
) -> Write[list[Owed]]:
    """The rematch is over as such (someone declined or left): the lobby keeps `seats` and
    is an ordinary lobby from now on, its invites gone; the channel told `told`."""
    seated = set_seats(lobby.id, lobby.version, seats, at=at, in_lobby=True, told=told)

    async def work(tx: Transaction) -> list[Owed]:
        owed = await seated.work(tx)
        if await tx.execute("DELETE FROM rematch_invites WHERE lobby_id = ?", lobby.id) == 0:
            raise VersionConflict(f"lobby {lobby.id} is no rematch waiting any more")
        return owed

    return Write(lobby.id, work, seated.columns, seated.state)
