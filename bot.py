"""Start the bot: `python bot.py` (settings from the environment or `.env`)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from typing import Any

import discord

from hvbot.client import GameBot
from hvbot.config import ConfigError, Settings, configure_logging, load_settings
from hvbot.database import DatabaseError

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def serve(settings: Settings, **options: Any) -> None:
    """Run the bot until Discord closes on it or a stop signal comes.

    A service manager (systemd, Docker) stops the bot with SIGTERM, a person with Ctrl-C: both
    close the bot from inside its event loop, so it finishes the answers it is giving and closes
    its connection and database cleanly. (Raised as KeyboardInterrupt instead, the signal could
    land anywhere, and the cancel it becomes was sometimes lost: the bot never exited.)
    `options` go to the bot (tests run it with shorter pauses)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, stop.set)
    async with GameBot(settings, **options) as bot:
        running = asyncio.create_task(bot.start(settings.token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await bot.close()
        stopping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running  # its error, if it ended with one


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
