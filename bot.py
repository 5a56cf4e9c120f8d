"""Start the bot: `python bot.py` (settings from the environment or `.env`)."""

from __future__ import annotations

import signal
import sys

import discord

from hvbot.client import HvBot
from hvbot.config import ConfigError, configure_logging, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"hvbot: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    # A service manager (systemd, Docker) stops the bot with SIGTERM: taken as Ctrl-C, the bot
    # finishes the answers it is giving and closes its connection and database cleanly.
    signal.signal(signal.SIGTERM, lambda signum, frame: signal.raise_signal(signal.SIGINT))
    bot = HvBot(settings)
    try:
        bot.run(settings.token, log_handler=None)
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
