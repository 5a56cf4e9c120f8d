"""Running the bot until it is asked to stop, for `python bot.py` and `python bot.py --sandbox`.

A service manager (systemd, Docker) stops the bot with SIGTERM, a person with Ctrl-C: both
close the bot from inside its event loop, so it finishes the answers it is giving and closes
its connection and database cleanly. (Raised as KeyboardInterrupt instead, the signal could
land anywhere, and the cancel it becomes was sometimes lost: the bot never exited.)

The loop is uvloop's where it is installed (`run`): the bot's one event loop carries every
interaction, request to Discord and database answer of a process, and uvloop's, written in C
over libuv, spends less of the process's CPU on each than asyncio's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from discord.ext import commands

T = TypeVar("T")
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def run(main: Coroutine[Any, Any, T]) -> T:
    """`main` to its end in a new event loop, as `asyncio.run`: uvloop's where it is installed
    (not on Windows, which it does not support), asyncio's own otherwise. Opening 2,000 games
    took 8% less of the bot's CPU on it (`python -m bench.load`)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def loop_name() -> str:
    """Which event loop runs this code (for the bot's first log line): "uvloop" or "asyncio"."""
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]


def stop_on_signals() -> asyncio.Event:
    """An event that SIGTERM or Ctrl-C sets, from now on (call inside the running loop)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, stop.set)
    return stop


async def until_stopped(work: Coroutine[Any, Any, T], stop: asyncio.Event) -> T | None:
    """What `work` gives, or None if `stop` is set first (`work` is then cancelled): for a
    wait that may last minutes, such as for the database at start-up."""
    doing = asyncio.create_task(work)
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({doing, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if doing.done():
        return doing.result()
    doing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await doing
    return None


async def run_until_stopped(
    bot: commands.Bot | commands.AutoShardedBot,
    token: str,
    stop: asyncio.Event,
    *,
    when_ready: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Log in, connect and serve until Discord closes on the bot or `stop` is set; then close.

    `when_ready` runs once the bot is connected with its commands synced (unless a stop came
    first). Logging in runs the bot's setup (the database, the drawing processes, the commands'
    sync); closed in the middle of it, the bot would fail there instead of stopping, so a stop
    that comes meanwhile takes effect once it is done, a few seconds at most. The caller closes
    the bot too (`async with bot:`), which covers a stop during the setup and any failure."""
    await bot.login(token)
    if stop.is_set():
        return
    connecting = asyncio.create_task(bot.connect(reconnect=True))
    ready = asyncio.create_task(bot.wait_until_ready())
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({connecting, ready, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if ready.done() and not stop.is_set() and when_ready is not None:
            await when_ready()
        await asyncio.wait({connecting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await bot.close()
    finally:
        for task in (ready, stopping):
            task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await connecting  # its error, if it ended with one
