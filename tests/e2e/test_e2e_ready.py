"""A bot the tests start is ready when the guilds READY announced have arrived, not a fixed
time after the last: discord.py, which cannot know whether more are coming, waits
`guild_ready_timeout` after each, and every test that starts a bot waited that long idle."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import discord
import pytest
from e2e_harness import BotHarness, ready_when_guilds_arrive

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e


async def test_a_bot_is_ready_once_its_guilds_have_arrived(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    second = emulator.add_guild("Second server")
    harness = BotHarness(emulator, tmp_path / "games.sqlite3")
    # Were the bot waiting for the timeout after its last guild, it would not start in time.
    harness.guild_ready_timeout = 600.0
    try:
        bot = await asyncio.wait_for(harness.start(), 10)
        # Ready with every guild READY announced there and available, not before.
        assert sorted(guild.id for guild in bot.guilds) == sorted([emulator.guild_id, second])
        assert not any(guild.unavailable for guild in bot.guilds)
        # And so again after a new IDENTIFY, in a new session.
        bot = await asyncio.wait_for(harness.restart(), 10)
        assert not any(guild.unavailable for guild in bot.guilds)
        assert len(bot.guilds) == 2
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), harness.errors.summary()


async def test_a_plain_test_bot_is_ready_once_its_guild_has_arrived(
    emulator: DiscordEmulator,
) -> None:
    # The tests' bare discord.py bots (one connection, not sharded) are ready in the same way.
    bot = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=600.0)
    ready_when_guilds_arrive(bot)
    await bot.login(emulator.token)
    connection = asyncio.create_task(bot.connect(reconnect=False))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert [guild.id for guild in bot.guilds] == [emulator.guild_id]
        assert not any(guild.unavailable for guild in bot.guilds)
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(connection, 10)
