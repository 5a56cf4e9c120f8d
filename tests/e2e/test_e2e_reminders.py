"""Turn reminders through Discord: the person to move is mentioned in the channel once their
wait is over, by a bot that may have restarted in between, and not again until the next hour."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from e2e_harness import BotHarness, open_three_seat_game

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def _wait_is_over(hv: BotHarness, game_id: int) -> None:
    """Move the reminder into the past, as if the person had been away for a while."""
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
    await hv.sql("UPDATE games SET remind_at = ? WHERE id = ?", past, game_id)


async def _remind_at(hv: BotHarness, game_id: int) -> datetime:
    reader = await hv.reader()
    stamp = await reader.db.fetchval("SELECT remind_at FROM games WHERE id = ?", game_id)
    return datetime.fromisoformat(stamp)


def _reminders(emu: DiscordEmulator, user_id: int) -> list:
    return [
        r
        for r in emu.messages(visibility="public", kind="channel_message")
        if f"<@{user_id}>, it is your turn" in r.content
    ]


async def test_the_person_to_move_is_reminded_in_the_channel_also_after_a_restart(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = game.seats[seat].user_id or 0
    # A new game reminds after ten minutes by default.
    assert timedelta(minutes=9) < await _remind_at(hv, game.id) - datetime.now(UTC)
    assert _reminders(emu, mover) == []

    await _wait_is_over(hv, game.id)
    (first,) = await emu.wait_for(lambda: _reminders(emu, mover))
    assert "High Voltage" in first.content and "/game board" in first.content
    assert first.channel_id == emu.channel.id
    # The next one is an hour away, and nothing else was said.
    assert timedelta(minutes=59) < await _remind_at(hv, game.id) - datetime.now(UTC)
    await hv.caught_up()
    assert len(_reminders(emu, mover)) == 1

    await hv.restart()
    await _wait_is_over(hv, game.id)
    await emu.wait_for(lambda: len(_reminders(emu, mover)) == 2)

    # Moving starts a new wait of the game's ten minutes for whoever is next.
    await table.play(game, state)
    game, state = await table.wait_for_turn()
    assert timedelta(minutes=9) < await _remind_at(hv, game.id) - datetime.now(UTC)


async def test_a_game_opened_with_reminders_off_never_reminds(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons", reminder=0)
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.remind_minutes is None
    reader = await hv.reader()
    assert await reader.db.fetchval("SELECT remind_at FROM games WHERE id = ?", game.id) is None


async def test_a_bot_that_checks_hourly_reminds_as_soon_as_it_is_told_to_look(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The periodic checks run when woken (a test moving time on wakes them), not at the next
    interval; and between wakes an idle bot does not run them, however busy its players."""
    emu = emulator
    hv.check_s = 3600.0  # as good as never on their own within a test
    await hv.restart()
    _, bo, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    mover = game.seats[state.current_seat() or 0].user_id or 0
    checks: Any = hv.bot.get_cog("RemindersCog") if hv.bot else None
    assert checks is not None and checks.check_s == 3600.0

    await _wait_is_over(hv, game.id)  # the harness wakes the checks after the change
    await emu.wait_for(lambda: _reminders(emu, mover), message="the reminder, without an hour")
    await hv.caught_up()
    rounds = checks.rounds
    for _ in range(3):
        await emu.slash(bo, "game board")
    await emu.settle()
    assert checks.rounds == rounds, "the checks ran without being woken or their hour passing"
    assert len(_reminders(emu, mover)) == 1


async def test_checks_woken_as_the_bot_stops_stop(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A wake that comes in the same moment as the stop (a test moving time on as its bot
    closes) does not keep the checks going with the bot's close waiting for them."""
    checks: Any = hv.bot.get_cog("RemindersCog") if hv.bot else None
    assert checks is not None
    await emulator.wait_for(
        lambda: checks.rounds >= 1 and not checks.in_round, message="the checks waiting"
    )
    checks.wake()
    unloading = asyncio.create_task(checks.cog_unload())
    done, _ = await asyncio.wait({unloading}, timeout=10)
    assert done, "the checks went on after the bot stopped"


def test_a_wait_is_told_in_words_a_person_reads_at_a_glance() -> None:
    from hvbot.messages.time_words import waited_words

    assert waited_words(timedelta(seconds=20)) == "1 minute"
    assert waited_words(timedelta(minutes=10)) == "10 minutes"
    assert waited_words(timedelta(minutes=70)) == "70 minutes"
    assert waited_words(timedelta(hours=5)) == "5 hours"
    assert waited_words(timedelta(days=3)) == "3 days"
