"""`python bot.py --sandbox --no-browser` as its own process, the way a newcomer starts it.

One way to start it for every test and script that needs the real thing: an environment with
none of a real bot's settings and no graphical session, a short TMPDIR of its own, its address
read from the line it prints once ready (with a deadline, and its stderr shown if it ends
first), stopped with a signal as a person or a service manager stops it, and killed if it is
still running when the caller is done with it.

Its output is read by two threads, so a full pipe never holds it up and a synchronous caller
(selenium) can use it as well as an asyncio one; the asyncio side only awaits those blocking
waits in a thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"^Sandbox ready: (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C to stop\)$")
START_S = 90  # a shared machine slowed by its host has taken tens of seconds to start a bot
STOP_S = 90
# The settings of a real deployment and of a desktop, which a try-out must do without.
NOT_PASSED = {"DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "DISCORD_TOKEN", "DATABASE_URL"}
NOT_PASSED_PREFIXES = ("HVBOT_", "SHARD_")


class NotReady(AssertionError):
    """The sandbox did not print its address: it ended first, or took too long."""


def command(*arguments: str) -> list[str]:
    """The command line a newcomer types, with no browser opened and `arguments` added."""
    return [sys.executable, str(ROOT / "bot.py"), "--sandbox", "--no-browser", *arguments]


def short_temp(beside: Path) -> Path:
    """A fresh folder for the sandbox's TMPDIR, next to `beside`.

    Short on purpose: the drawing processes' forkserver opens a Unix socket in TMPDIR, and such
    a path may not exceed ~100 characters (a test's folder under pytest-xdist, with the test's
    long name, comes close)."""
    return Path(tempfile.mkdtemp(prefix="t", dir=beside.parent))


def environment(temp: Path, **settings: str) -> dict[str, str]:
    """This machine's environment without any Discord settings or graphical session, with
    `temp` as TMPDIR, plus `settings`."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in NOT_PASSED and not key.startswith(NOT_PASSED_PREFIXES)
    }
    return {**env, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp), "LOG_LEVEL": "WARNING", **settings}


class SandboxProcess:
    """A started `bot.py --sandbox` and what it printed.

    `wait_ready()` blocks until its address is known; `stop()` signals it and returns its
    stderr; `kill()` ends it at once if it still runs. The `running_sandbox` and `sandbox`
    context managers do all three for a synchronous or an asyncio caller."""

    def __init__(
        self,
        beside: Path,
        *arguments: str,
        cwd: Path | None = None,
        new_session: bool = False,
        **settings: str,
    ) -> None:
        """Start it in `cwd` (by default `beside` itself, an empty folder as a newcomer has)
        with its TMPDIR made next to `beside`."""
        self.temp = short_temp(beside)
        self.process = subprocess.Popen(
            command(*arguments),
            cwd=cwd or beside,
            env=environment(self.temp, **settings),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=new_session,
        )
        self.url = ""
        self.port = 0
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._ready: re.Match[str] | None = None
        self._seen_ready_or_end = threading.Event()
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_stdout, args=(self.process.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self.process.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self, stream: IO[str]) -> None:
        """Keep reading stdout, noting the ready line; its end also ends the wait for it."""
        for line in stream:
            self.stdout.append(line)
            if self._ready is None and (match := READY.match(line.rstrip("\n"))):
                self._ready = match
                self._seen_ready_or_end.set()
        self._seen_ready_or_end.set()

    def _read_stderr(self, stream: IO[str]) -> None:
        """Keep reading stderr (a full pipe would stop the process), keeping what it says."""
        for line in stream:
            self.stderr.append(line)

    def said(self) -> str:
        """Everything it wrote to stderr, once it has closed its stderr (or `STOP_S` passed)."""
        self._readers[1].join(STOP_S)
        return "".join(self.stderr)

    def wait_ready(self, timeout: float = START_S) -> str:
        """Its address, once it has printed it; NotReady with its stderr if it ends first or
        says nothing within `timeout` seconds."""
        if not self._seen_ready_or_end.wait(timeout):
            raise NotReady("the sandbox never said it was ready:\n" + "".join(self.stderr))
        if self._ready is None:
            status = self.process.wait(STOP_S)
            raise NotReady(
                f"the sandbox ended (status {status}) without its address:\n" + self.said()
            )
        self.url, self.port = self._ready.group(1), int(self._ready.group(2))
        return self.url

    def stop(self, how: signal.Signals, *, group: bool = False) -> str:
        """Stop it as a service manager (SIGTERM) or a terminal's Ctrl-C (SIGINT to the whole
        process group, which needs `new_session`) does; its stderr once it has exited."""
        if group:
            os.killpg(self.process.pid, how)
        else:
            self.process.send_signal(how)
        self.process.wait(STOP_S)
        return self.said()

    async def stop_async(self, how: signal.Signals, *, group: bool = False) -> str:
        """`stop`, awaited without holding up the caller's event loop."""
        return await asyncio.to_thread(self.stop, how, group=group)

    def kill(self) -> None:
        """End it at once if it still runs (a failed test), and let its readers finish."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for reader in self._readers:
            reader.join(STOP_S)


@contextlib.contextmanager
def running_sandbox(
    beside: Path, *arguments: str, cwd: Path | None = None, **settings: str
) -> Iterator[SandboxProcess]:
    """A ready sandbox for a synchronous caller; killed at the end if still running."""
    running = SandboxProcess(beside, *arguments, cwd=cwd, **settings)
    try:
        running.wait_ready()
        yield running
    finally:
        running.kill()


@contextlib.asynccontextmanager
async def sandbox(
    beside: Path,
    *arguments: str,
    cwd: Path | None = None,
    new_session: bool = False,
    **settings: str,
) -> AsyncIterator[SandboxProcess]:
    """A ready sandbox for an asyncio caller; killed at the end if still running."""
    running = SandboxProcess(beside, *arguments, cwd=cwd, new_session=new_session, **settings)
    try:
        await asyncio.to_thread(running.wait_ready)
        yield running
    finally:
        await asyncio.to_thread(running.kill)
