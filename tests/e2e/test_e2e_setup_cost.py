"""What opening a game costs the bot on SQLite: /game new, Join, Add AI, Start (the lobby's
buttons), each a change through the one pipeline, counted in trips to aiosqlite's thread and in
statements run there. Each trip is a hand-over to the database thread and back through the
event loop, and a bot setting up thousands of games at once spends most of its CPU on those
and on the statements: the counts are pinned so that one more read or write per set-up shows.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from e2e_harness import BotHarness, lobby_button

from hvbot.database.sqlite import SqliteDatabase
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


@dataclass
class Counted:
    trips: int = 0
    statements: list[str] = field(default_factory=list)


@contextlib.asynccontextmanager
async def counting(db: SqliteDatabase) -> AsyncIterator[Counted]:
    """The trips to the database thread and the statements run there meanwhile."""
    counted = Counted()
    send = db.conn._execute

    async def trip(fn: Any, *args: Any, **kwargs: Any) -> Any:
        counted.trips += 1
        return await send(fn, *args, **kwargs)

    await db.conn.set_trace_callback(counted.statements.append)
    db.conn._execute = trip  # type: ignore[method-assign]  # counting the trips only
    try:
        yield counted
    finally:
        db.conn._execute = send  # type: ignore[method-assign]  # as it was
        await db.conn.set_trace_callback(None)


async def set_up(emu: DiscordEmulator, hv: BotHarness, channel: Any) -> None:
    """A game opened as the load benchmark opens one: the lobby's buttons, then its first
    board and the secrets out."""
    ada, bo = emu.add_user(f"Ada{channel.id}"), emu.add_user(f"Bo{channel.id}")
    reply = await emu.slash(ada, "game new", channel=channel, game="high-voltage")
    lobby = reply.where(kind="response", visibility="public")[0]
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    await emu.settle()


# What a set-up cost when last measured; more fails (fewer: lower these). It was 23 trips and
# 99 statements before the game made was read back in its own transaction, an ordinary
# lobby's (absent) rematch invites went unread, and the room for a new lobby (the person's
# open games, the channel's, those in its threads) was read in one statement.
MOST_TRIPS = 16
MOST_STATEMENTS = 94


async def test_setting_up_a_game_costs_few_trips_to_the_database(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    # The periodic check (reminders, posts owed, AI seats) reads on its own schedule: stopped,
    # so that what is counted is the set-up's alone.
    hv.bot.get_cog("RemindersCog").check.cancel()  # type: ignore[union-attr]
    db = hv.bot.service.repo.db
    assert isinstance(db, SqliteDatabase)
    first, second = emu.add_channel("first"), emu.add_channel("second")
    await set_up(emu, hv, first)  # what is read once for a server, and kept, read now
    async with counting(db) as counted:
        await set_up(emu, hv, second)
    game = await hv.game(second.id)
    assert game.status == "active"
    run = "\n".join(sql[:120] for sql in counted.statements)
    assert counted.trips <= MOST_TRIPS, f"{counted.trips} trips:\n{run}"
    assert len(counted.statements) <= MOST_STATEMENTS, run
