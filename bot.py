"""Start the bot: `python bot.py` (settings from the environment or `.env`)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import discord

from hvbot.client import GameBot
from hvbot.config import ConfigError, Settings, configure_logging, load_settings
from hvbot.database import DatabaseError
from hvbot.running import run_until_stopped, stop_on_signals


async def serve(settings: Settings, **options: Any) -> None:
    """Run the bot until Discord closes on it, SIGTERM or Ctrl-C (see `hvbot.running`).

    `options` go to the bot (tests run it with shorter pauses)."""
    stop = stop_on_signals()
    async with GameBot(settings, **options) as bot:
        await run_until_stopped(bot, settings.token, stop)


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"hvbot: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        asyncio.run(serve(settings))
    except DatabaseError as exc:
        print(f"hvbot: {exc}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "hvbot: Discord rejected DISCORD_TOKEN; copy a fresh token from the developer portal "
            "(Bot -> Reset Token) into .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("hvbot: Discord refused the requested intents; this bot needs none.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
