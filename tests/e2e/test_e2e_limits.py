"""Limits through Discord: a lobby nobody started closes itself after a day and says so, the
channel free again; a person with three open games of their own is told to finish one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness
from moved_clock import MovedClock

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

EXPIRED = "This lobby waited 24 hours without starting"


async def test_a_forgotten_lobby_closes_itself_and_frees_the_channel(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons", thread=False)
    lobby = await hv.game()
    clock.advance(hours=24)
    (told,) = await emu.wait_for(
        lambda: [m for m in emu.messages(visibility="public") if EXPIRED in m.text],
        message="the lobby closing",
    )
    assert told.channel_id == emu.channel.id
    await hv.caught_up()
    shown = emu.message(lobby.lobby_message_id or 0)
    assert "abandoned" in shown.text and not shown.buttons
    await emu.slash(ada, "game new", game="pylons", thread=False)
    assert (await hv.game()).status == "lobby"


async def test_a_fourth_open_game_of_ones_own_is_refused(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    for name in ("one", "two", "three"):
        await emu.slash(ada, "game new", game="pylons", channel=emu.add_channel(name))
    refused = await emu.slash(ada, "game new", game="pylons", channel=emu.add_channel("four"))
    assert not refused.public
    assert "You have 3 open games in this server already (at most 3)" in refused[0].text
