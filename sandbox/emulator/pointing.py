"""Point an unmodified discord.py at the emulator, for as long as a block runs.

discord.py has two addresses of Discord: `discord.http.Route.BASE` for every REST call, and
`DiscordWebSocket.DEFAULT_GATEWAY` for the gateway (a plain `Client` connects there without
asking; a sharded one asks `GET /gateway/bot`, which the emulator answers with its own
address). Both are set before a bot logs in, so nothing the bot does reaches Discord, and put
back afterwards; the bot's own code paths stay exactly those it runs against Discord.

    async with point_discord_py(emu):
        await bot.start(emu.token)
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import aiohttp
import discord.http
import yarl
from discord.gateway import DiscordWebSocket

from .server import DiscordEmulator


@contextlib.asynccontextmanager
async def point_discord_py(emu: DiscordEmulator) -> AsyncIterator[None]:
    """Send discord.py's REST calls and its gateway connection to `emu` (started), then undo it.

    The gateway address is the one the emulator itself gives out, read as a bot reads it, so
    the two can never disagree."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{emu.api_base}/gateway/bot", headers={"Authorization": f"Bot {emu.token}"}
        ) as answer,
    ):
        answer.raise_for_status()
        gateway_url = (await answer.json())["url"]
    old_base, old_gateway = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = emu.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
