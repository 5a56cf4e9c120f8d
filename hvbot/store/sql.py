"""What the store's SQL modules share: the version compare-and-set, time stamps, and the
errors a change can end in.

Every statement is written once, with `?` placeholders and only what both backends accept (see
`hvbot.database`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from hvbot.database import Database, Statement, Transaction
from hvbot.store.rows import Wait


class VersionConflict(Exception):
    """The game changed since it was read; the caller reloads and tries again or reports."""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


class TooManyOpen(Exception):
    """The person has `count` open games of their own in the server: as many as they may."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} open games already")
        self.count = count


def stamp(moment: datetime) -> str:
    """UTC ISO text to the millisecond: stamps in this form compare correctly as strings in
    SQL (a stamp of a whole second, as older rows have, sorts before the same second's
    milliseconds)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def indexed_by(db: Database, index: str) -> str:
    """` INDEXED BY index` after a table's name on SQLite, nothing on PostgreSQL: the index
    SQLite must read the table through.

    Without statistics of its tables (no ANALYZE has run), SQLite's planner takes an equality
    on an indexed column for the narrowest way in, so for the periodic checks and a channel's
    open game it read the games through `games_by_status`: every open game, each row to its
    later columns (after the saved state, in its overflow pages), at every check and every
    /game new. At 10,000 open games the check for reminders alone read for 150-250 ms every
    few seconds, during which every other read waited. The partial indexes named here hold
    only the games each statement could be looking for: a channel's open games, the games
    on a clock (the check still reads each of those, for its warning time), the games an AI
    seat is to move in; for the metrics' count of open games, every column it reads, so it
    reads no row. PostgreSQL keeps statistics and picks them itself."""
    return f" INDEXED BY {index}" if db.backend == "sqlite" else ""


def statement(sql: str, *values: Any) -> Statement[int]:
    """A change of one statement; it returns how many rows the statement changed."""
    return Statement(sql, values)


async def bump(
    tx: Transaction,
    game_id: int,
    expected_version: int,
    also: str = "",
    values: Sequence[Any] = (),
    *,
    at: datetime,
) -> int:
    """Compare and bump the version, setting the columns in `also` in the same statement:
    the one way a game's stored position changes, so two writers never both change the same
    old version. The game's `updated_at` is stamped `at`: the moment the caller's clock gives
    the change, so a test that moves the clock moves the stamps (and a finished game's
    result, dated by them) with it. VersionConflict if the game is no longer at
    `expected_version`."""
    extra = f", {also}" if also else ""
    changed = await tx.execute(
        f"UPDATE games SET version = version + 1, updated_at = ?{extra}"
        " WHERE id = ? AND version = ?",
        stamp(at),
        *values,
        game_id,
        expected_version,
    )
    if changed != 1:
        raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
    return expected_version + 1


TURN_COLUMNS = (
    "turn_since = ?, remind_at = ?, clock_deadline = ?, clock_warn_at = ?, stand_in_seat = ?,"
    " clock_paused_at = NULL"
)


def turn_values(
    wait: Wait | None, stand_in_seat: int | None = None
) -> tuple[str | None, str | None, str | None, str | None, int | None]:
    """With nobody to wait for (an AI to move, the end), the wait and the clock are cleared;
    `stand_in_seat`: an AI goes on playing that seat's move (its clock ran out)."""
    if wait is None:
        return None, None, None, None, stand_in_seat
    remind_at = stamp(wait.remind_at) if wait.remind_at else None
    return stamp(wait.since), remind_at, wait.deadline, wait.warn_at, None
