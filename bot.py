"""Start the bot: `python bot.py` (settings from the environment or `.env`).

`python bot.py --sandbox` runs it instead against a local Discord on this machine, played in
a web browser, with no Discord account (see `sandbox_bot.py`).

The games the bot plays are registered here (`games.register_all`): the bot (`hvbot`) never
imports a game, and meets one only through what is registered.

The bot itself (discord.py, the database drivers, the sandbox) is imported once the command
line and the settings are read: a mistake in either is said at once, without the half second
those imports take.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from games import register_all
from hvbot.infra.config import (
    ConfigError,
    Settings,
    configure_logging,
    load_settings,
    prepare_env_file,
)
from sandbox import DEFAULT_PORT


async def serve(settings: Settings, **options: Any) -> None:
    """Run the bot until Discord closes on it, SIGTERM or Ctrl-C (see `hvbot.runtime.running`).

    `options` go to the bot (tests run it with shorter pauses). The database is opened first:
    a PostgreSQL server that does not answer yet is waited for (`DATABASE_WAIT`), and a stop
    meanwhile ends the wait at once."""
    from hvbot.runtime.client import GameBot
    from hvbot.runtime.running import run_until_stopped, stop_on_signals, until_stopped
    from hvbot.services import GameService
    from hvbot.store import GameStore

    register_all()  # as `main` does: tests and benchmarks start the bot here
    stop = stop_on_signals()
    store = await until_stopped(
        GameStore.open(settings.database_url, wait_s=settings.database_wait), stop
    )
    if store is None:
        return
    async with GameBot(settings, service=GameService(store), **options) as bot:
        await run_until_stopped(bot, settings.token, stop)


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bot.py",
        description="Run the bot in Discord (settings from the environment or .env), or try "
        "it on this machine with --sandbox.",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run the bot against a local Discord, played in a web browser: no Discord "
        "account or token needed, and a fresh database that is removed on exit",
    )
    parser.add_argument(
        "--port",
        type=int,
        help=f"the sandbox page's port on 127.0.0.1 (default {DEFAULT_PORT}, or "
        "any free one if that is taken; 0 for any free one)",
    )
    parser.add_argument(
        "--no-browser",
        action="store_true",
        help="only print the sandbox page's address, without opening a browser",
    )
    arguments = parser.parse_args(argv)
    if not arguments.sandbox and (arguments.port is not None or arguments.no_browser):
        parser.error("--port and --no-browser go with --sandbox")
    if arguments.port is not None and not 0 <= arguments.port <= 65535:
        parser.error(f"--port must be from 0 to 65535, not {arguments.port}")
    return arguments


def main(argv: Sequence[str] = ()) -> int:
    arguments = parse_arguments(argv)
    register_all()
    if arguments.sandbox:
        import sandbox_bot

        return sandbox_bot.main(arguments.port, open_browser=not arguments.no_browser)
    warning = prepare_env_file()
    if warning:
        print(f"hvbot: {warning}", file=sys.stderr)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"hvbot: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format, settings.shard_ids)
    import discord

    from hvbot.database import DatabaseError
    from hvbot.runtime.running import run

    try:
        run(serve(settings))
    except (DatabaseError, ConfigError) as exc:  # a port METRICS_PORT cannot take, say
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
    sys.exit(main(sys.argv[1:]))
