"""The bot asks Discord for the one gateway intent it uses, its servers (channels and threads):
every other default intent would have Discord send it events it never reads (each message in
each channel it sees, its own posts and their edits, reactions, typing), each parsed into
objects at the bot's cost. Commands and buttons reach it all the same."""

from __future__ import annotations

import discord
import pytest
from e2e_harness import BotHarness, open_three_seat_game

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e


async def test_the_bot_identifies_with_the_guilds_intent_alone_and_games_still_start(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    assert emulator.gateway.intents == discord.Intents(guilds=True).value
    await open_three_seat_game(emulator, hv)
    game = await hv.game()
    assert game.status == "active"
