"""`python bot.py --sandbox`: the real bot in a local Discord, played from a web browser.

A newcomer can try the bot before creating a Discord application: the emulated Discord
(`sandbox.emulator`) listens on 127.0.0.1 with one server ("Board game club") and a few
people, the page (`sandbox.web`) lets anyone on this machine act as those people, and the bot
is the one `python bot.py` runs, unchanged, with discord.py pointed at the emulator before it
logs in. Nothing reaches Discord, and nothing of the person's own setup is touched: the token,
the database and the shards from `.env` are replaced by the emulator's token and a fresh
SQLite file in a temporary folder, removed when the sandbox stops. Only how the bot runs (the
log level, the drawing processes) is read from the environment and `.env` as usual.

It sits beside `bot.py`, not in either package, because it is the one place that knows both:
the bot (`hvbot`) knows nothing of the sandbox, and the sandbox nothing of the bot. `bot.py`
registers the games before it hands over to `main`.
"""

from __future__ import annotations

import asyncio
import errno
import os
import sys
import tempfile
import webbrowser
from collections.abc import Callable, Mapping
from pathlib import Path

from dotenv import dotenv_values

from hvbot.infra.config import ConfigError, Settings, configure_logging, load_settings
from hvbot.runtime.client import GameBot
from hvbot.runtime.running import run as run_loop
from hvbot.runtime.running import run_until_stopped, stop_on_signals
from sandbox import DEFAULT_PORT
from sandbox.emulator import DiscordEmulator
from sandbox.emulator.pointing import point_discord_py
from sandbox.web import DEFAULT_PEOPLE, SandboxPage

SERVER_NAME = "Board game club"
CHANNEL_NAMES = ("games", "lounge", "tournament")
FOLDER_PREFIX = "hvbot-sandbox-"  # the temporary folder holding the sandbox's database
DATABASE_NAME = "sandbox.db"
# discord.py waits this long after the last server arrives before the bot is ready, for more
# to come; the emulator sends its one server at once, so the default two seconds would only
# delay the page.
GUILD_READY_TIMEOUT = 0.1
# What the sandbox never takes from the environment: the bot there is the emulator's, and a
# real database or shard layout must not be touched by a try-out.
REPLACED = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "HVBOT_GUILD_ID",
    "SHARD_COUNT",
    "SHARD_IDS",
    # The live boards: served on any free port of this machine, their links to it, signed
    # with a secret the sandbox's own database keeps (never a real bot's address or secret).
    "WEB_PORT",
    "WEB_HOST",
    "WEB_PUBLIC_URL",
    "WEB_SECRET",
)


class SandboxError(Exception):
    """The sandbox cannot start; the message is one line that says what to do."""


def read_environment(dotenv_path: str | None = ".env") -> dict[str, str]:
    """The environment over `.env`, as `load_settings` reads them, without putting `.env`'s
    values (the person's real token among them) into this process's environment, which the
    drawing processes inherit."""
    from_file = dotenv_values(dotenv_path) if dotenv_path and Path(dotenv_path).is_file() else {}
    values = {key: value for key, value in from_file.items() if value is not None}
    return {**values, **os.environ}


def sandbox_settings(emu: DiscordEmulator, database: Path, environ: Mapping[str, str]) -> Settings:
    """The bot's settings for the sandbox: the emulator's token and server, the fresh
    database, one process with all the shards; the rest checked as `python bot.py` checks it."""
    sandboxed = {key: value for key, value in environ.items() if key not in REPLACED}
    sandboxed |= {
        "DISCORD_TOKEN": emu.token,
        "DATABASE_URL": f"sqlite:///{database}",
        # Commands synced to the one server appear at once, as HVBOT_GUILD_ID does in Discord.
        "HVBOT_GUILD_ID": str(emu.guild_id),
        # Each game's live board on the web, linked from its board posts.
        "WEB_PORT": "0",
    }
    return load_settings(sandboxed)


def new_emulator() -> DiscordEmulator:
    """The local Discord people find on the page: one server, three channels, threads
    allowed (so games get their own thread, as where the bot may start them)."""
    emu = DiscordEmulator(guild_name=SERVER_NAME, channel_names=CHANNEL_NAMES)
    emu.allow_threads()
    return emu


async def listen(emu: DiscordEmulator, port: int | None) -> None:
    """Start the emulator (and with it the page) on 127.0.0.1: on `port`, or on DEFAULT_PORT
    and any free port if that one is taken (0: any free port)."""
    try:
        await emu.start(port=DEFAULT_PORT if port is None else port)
    except OSError as exc:
        await emu.close()
        if exc.errno != errno.EADDRINUSE:
            raise SandboxError(f"the sandbox cannot listen on 127.0.0.1: {exc.strerror}.") from exc
        if port is not None:
            raise SandboxError(
                f"port {port} is taken; choose another with --port, or leave --port out to "
                "take any free one."
            ) from exc
        await emu.start(port=0)


def can_show_a_browser(
    environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> bool:
    """Whether this session has a screen a browser window can open on: macOS and Windows
    always do; elsewhere only a graphical session (X11 or Wayland) does, not a terminal
    reached over SSH."""
    environ = os.environ if environ is None else environ
    if platform in ("darwin", "win32"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def in_the_terminal(browser: webbrowser.BaseBrowser) -> bool:
    """A browser that would run in this terminal (lynx, w3m, links, elinks): it would take
    over the window the sandbox's log and Ctrl-C are in, so the sandbox never starts one."""
    if isinstance(browser, webbrowser.GenericBrowser):
        return not isinstance(browser, webbrowser.BackgroundBrowser)
    if isinstance(browser, webbrowser.UnixBrowser):
        return not browser.background
    return False


def open_in_browser(url: str) -> bool:
    """Open `url` in the person's graphical browser, if there is one; True if it opened."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if in_the_terminal(browser):
        return False
    return browser.open(url)


async def run(
    folder: Path,
    port: int | None,
    *,
    open_browser: bool,
    say: Callable[[str], None],
    environ: Mapping[str, str],
) -> None:
    """Run the emulator, the page and the bot until SIGTERM or Ctrl-C, then close all three.

    The address is told (`say`) only once the bot is connected and its commands are synced,
    so a person who opens it at once finds a bot that answers."""
    emu = new_emulator()
    settings = sandbox_settings(emu, folder / DATABASE_NAME, environ)
    configure_logging(settings.log_level)
    stop = stop_on_signals()
    SandboxPage(emu, people=DEFAULT_PEOPLE).install()
    await listen(emu, port)

    async def tell_the_address() -> None:
        url = f"{emu.base_url}/"
        say(f"Sandbox ready: {url}  (Ctrl-C to stop)")
        if open_browser and can_show_a_browser():
            await asyncio.to_thread(open_in_browser, url)

    try:
        async with (
            point_discord_py(emu),
            GameBot(settings, guild_ready_timeout=GUILD_READY_TIMEOUT) as bot,
        ):
            await run_until_stopped(bot, settings.token, stop, when_ready=tell_the_address)
    finally:
        await emu.close()


def main(port: int | None = None, *, open_browser: bool = True) -> int:
    """`python bot.py --sandbox`: 0 once stopped, 2 with one line when it cannot start."""
    with tempfile.TemporaryDirectory(prefix=FOLDER_PREFIX) as folder:
        try:
            run_loop(
                run(
                    Path(folder),
                    port,
                    open_browser=open_browser,
                    say=announce,
                    environ=read_environment(),
                )
            )
        except (ConfigError, SandboxError) as exc:
            print(f"hvbot: {exc}", file=sys.stderr)
            return 2
    return 0


def announce(line: str) -> None:
    """Tell the person at the terminal (flushed: the line may be read through a pipe)."""
    print(line, flush=True)
