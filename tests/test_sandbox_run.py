"""`python bot.py --sandbox` as a newcomer runs it: a real process that serves the page, runs
the real bot against the local Discord, plays a command, and stops cleanly on SIGTERM or
Ctrl-C, leaving no database behind and never touching the person's own settings. Without a
token, plain `python bot.py` points to the sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import webbrowser
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hvbot.config import ConfigError
from hvbot.sandbox_run import (
    DATABASE_NAME,
    DEFAULT_PORT,
    FOLDER_PREFIX,
    can_show_a_browser,
    in_the_terminal,
    new_emulator,
    read_environment,
    sandbox_settings,
)

ROOT = Path(__file__).resolve().parent.parent
READY = re.compile(r"^Sandbox ready: (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C to stop\)$")
START_S = 90  # a shared machine slowed by its host has taken tens of seconds to start a bot
STOP_S = 90
# Settings of the person's own bot, which a try-out must leave alone.
THEIR_TOKEN = "their.real.token"


@dataclass
class Sandbox:
    """A running `bot.py --sandbox` and what it printed."""

    process: asyncio.subprocess.Process
    temp: Path  # its TMPDIR: where its database folder is made
    url: str = ""
    port: int = 0
    stderr: list[str] = field(default_factory=list)

    def folders(self) -> list[Path]:
        return sorted(self.temp.glob(f"{FOLDER_PREFIX}*"))

    async def stopped(self, how: signal.Signals, *, group: bool = False) -> str:
        """Stop it as a service manager (SIGTERM) or a terminal's Ctrl-C (SIGINT to the whole
        process group) does; its stderr once it has exited."""
        if group:
            os.killpg(self.process.pid, how)
        else:
            self.process.send_signal(how)
        await asyncio.wait_for(self.process.wait(), timeout=STOP_S)
        return "".join(self.stderr)


def environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    """This machine's environment without any Discord settings or graphical session, plus
    `settings`."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "DISCORD_TOKEN", "DATABASE_URL"}
        and not key.startswith(("HVBOT_", "SHARD_"))
    }
    # Short, beside the test's own folder: the drawing processes' forkserver opens a Unix socket
    # in TMPDIR, and such a path may not exceed ~100 characters (a test's folder under
    # pytest-xdist, with the test's long name, comes close).
    temp = Path(tempfile.mkdtemp(prefix="t", dir=tmp_path.parent))
    return {**env, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp), "LOG_LEVEL": "WARNING", **settings}


def their_folder(tmp_path: Path) -> Path:
    """A working folder as someone with their own bot has it: a `.env` naming their token
    and their database."""
    folder = tmp_path / "their-bot"
    folder.mkdir()
    (folder / ".env").write_text(
        f"DISCORD_TOKEN={THEIR_TOKEN}\nDATABASE_URL=sqlite:///their-games.sqlite3\n"
        "SHARD_COUNT=4\nSHARD_IDS=3\n"
    )
    return folder


@contextlib.asynccontextmanager
async def sandbox(
    tmp_path: Path, *arguments: str, new_session: bool = False, **settings: str
) -> AsyncIterator[Sandbox]:
    """Start `bot.py --sandbox` in a folder with someone's real `.env`; yield it once it has
    printed its address. Killed at the end if the test left it running."""
    env = environment(tmp_path, **settings)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        "--sandbox",
        "--no-browser",
        *arguments,
        cwd=their_folder(tmp_path),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=new_session,
    )
    running = Sandbox(process, Path(env["TMPDIR"]))
    assert process.stderr is not None
    reading = asyncio.create_task(read_into(process.stderr, running.stderr))
    try:
        try:
            ready = await asyncio.wait_for(ready_line(process), timeout=START_S)
        except TimeoutError:
            pytest.fail("the sandbox never said it was ready:\n" + "".join(running.stderr))
        except EndedEarly as ended:
            await asyncio.wait_for(asyncio.shield(reading), START_S)  # all it said
            pytest.fail(f"{ended}:\n" + "".join(running.stderr))
        running.url, running.port = ready.group(1), int(ready.group(2))
        yield running
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await reading


class EndedEarly(Exception):
    """The sandbox process ended before it printed its address."""


async def read_into(stream: asyncio.StreamReader, lines: list[str]) -> None:
    """Keep reading `stream` (a full pipe would stop the process), keeping what it says."""
    async for line in stream:
        lines.append(line.decode())


async def ready_line(process: asyncio.subprocess.Process) -> re.Match[str]:
    """The line the sandbox prints once the bot is connected, with its address."""
    assert process.stdout is not None
    async for raw in process.stdout:
        match = READY.match(raw.decode().rstrip("\n"))
        if match:
            return match
    raise EndedEarly(f"the sandbox ended (status {await process.wait()}) without its address")


async def next_frame(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads(await socket.receive_str())
        if frame["type"] == kind:
            return frame


def command_names(view: dict[str, Any]) -> set[str]:
    return {command["name"] for command in view["commands"]}


async def test_the_sandbox_serves_the_page_plays_a_command_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    async with (
        sandbox(tmp_path, "--port", "0", DRAWING_PROCESSES="0") as running,
        aiohttp.ClientSession() as http,
    ):
        assert running.port != 0
        # The bot's games are kept in a fresh folder while it runs.
        (folder,) = running.folders()
        assert (folder / DATABASE_NAME).is_file()

        async with http.get(running.url) as page:
            assert page.status == 200
            assert page.content_type == "text/html"
            assert "<html" in (await page.text()).lower()
        async with http.get(f"{running.url}sandbox/api/view") as answer:
            people = (await answer.json())["people"]
        ada = next(p for p in people if p["name"] == "Ada")["id"]
        async with http.get(f"{running.url}sandbox/api/view", params={"person": ada}) as answer:
            assert answer.status == 200
            view = await answer.json()
        # Ready means connected with its commands synced: they are already there.
        assert {"game", "hv"} <= command_names(view)
        assert view["guild"]["name"] == "Board game club"
        channels = {c["name"]: c["id"] for c in view["channels"] if c["kind"] == "text"}
        assert list(channels) == ["games", "lounge", "tournament"]

        async with http.ws_connect(f"{running.url}sandbox/ws", params={"person": ada}) as ws:
            assert (await next_frame(ws, "view"))["person"]["id"] == ada
            command = {
                "person": ada,
                "channel_id": channels["games"],
                "command": "game new",
                "options": {"game": "high-voltage"},
            }
            async with http.post(f"{running.url}sandbox/api/command", json=command) as answer:
                assert answer.status == 200, await answer.text()
                assert await answer.json() == {"ok": True}
            lobby = await asyncio.wait_for(lobby_message(ws), timeout=30)
            assert lobby["author"]["bot"]
            assert lobby["visibility"] == "public"

            # Stopped while a page is still open, as a person stops it.
            stderr = await running.stopped(signal.SIGTERM)
        assert running.process.returncode == 0, stderr
        assert "Traceback" not in stderr, stderr
    assert not folder.exists(), "the sandbox's database is removed when it stops"
    assert running.folders() == []
    their = tmp_path / "their-bot"
    assert sorted(p.name for p in their.iterdir()) == [".env"], "their database is untouched"


async def lobby_message(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The first message with buttons that reaches the page: the lobby `/game new` opens."""
    while True:
        message = (await next_frame(ws, "message"))["message"]
        buttons = [
            item["custom_id"]
            for row in message["components"]
            for item in row["components"]
            if item["type"] == 2 and "custom_id" in item
        ]
        if buttons:
            return message


@contextlib.contextmanager
def default_port_taken() -> Iterator[None]:
    """Something else listens on the sandbox's default port (if it was free)."""
    with socket.socket() as holder:
        with contextlib.suppress(OSError):  # taken already: taken either way
            holder.bind(("127.0.0.1", DEFAULT_PORT))
            holder.listen()
        yield


async def test_ctrl_c_stops_it_with_its_drawing_process_and_a_taken_port_is_no_obstacle(
    tmp_path: Path,
) -> None:
    """As a person runs it: the default port (taken here), a process drawing the pictures,
    Ctrl-C in the terminal, which signals every process of the group."""
    with default_port_taken():
        async with sandbox(tmp_path, new_session=True, DRAWING_PROCESSES="1") as running:
            assert running.port not in (0, DEFAULT_PORT)
            stderr = await running.stopped(signal.SIGINT, group=True)
    assert running.process.returncode == 0, stderr
    assert "Traceback" not in stderr, stderr
    assert running.folders() == []


async def test_a_taken_port_asked_for_is_one_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = await asyncio.to_thread(
            subprocess.run,
            [
                sys.executable,
                str(ROOT / "bot.py"),
                "--sandbox",
                "--no-browser",
                "--port",
                str(port),
            ],
            cwd=their_folder(tmp_path),
            env=environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=START_S,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"hvbot: port {port} is taken; choose another with --port, or leave --port out to take "
        "any free one."
    ]


def test_without_a_token_bot_py_points_to_the_sandbox(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "python bot.py --sandbox" in lines[0]


@pytest.mark.parametrize("arguments", [["--port", "8000"], ["--no-browser"]])
def test_sandbox_options_without_the_sandbox_are_refused(
    tmp_path: Path, arguments: list[str]
) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *arguments],
        cwd=tmp_path,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "go with --sandbox" in done.stderr


def test_the_sandbox_takes_nothing_of_the_real_bot_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    folder = their_folder(tmp_path)
    environ = {**read_environment(str(folder / ".env")), "LOG_LEVEL": "debug"}
    assert environ["DISCORD_TOKEN"] == THEIR_TOKEN  # read like the bot reads it...
    emu = new_emulator()
    settings = sandbox_settings(emu, tmp_path / DATABASE_NAME, environ)
    # ... and replaced by the emulator's.
    assert settings.token == emu.token
    assert settings.database_url == f"sqlite:///{tmp_path / DATABASE_NAME}"
    assert settings.guild_id == emu.guild_id
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert settings.log_level == "DEBUG"  # how the bot runs still comes from the settings
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        sandbox_settings(emu, tmp_path / DATABASE_NAME, {"LOG_LEVEL": "loud"})


@pytest.mark.parametrize(
    ("environ", "platform", "shown"),
    [
        ({}, "linux", False),  # a terminal, over SSH say
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({}, "darwin", True),
        ({}, "win32", True),
    ],
)
def test_a_browser_is_opened_only_where_there_is_a_screen(
    environ: dict[str, str], platform: str, shown: bool
) -> None:
    assert can_show_a_browser(environ, platform) is shown


@pytest.mark.parametrize(
    ("browser", "in_terminal"),
    [
        (webbrowser.GenericBrowser("lynx"), True),
        (webbrowser.GenericBrowser(["w3m", "%s"]), True),
        (webbrowser.Elinks("elinks"), True),
        (webbrowser.BackgroundBrowser("xdg-open"), False),
        (webbrowser.Mozilla("firefox"), False),
        (webbrowser.Chrome("chromium"), False),
    ],
)
def test_a_browser_that_runs_in_the_terminal_is_never_started(
    browser: webbrowser.BaseBrowser, in_terminal: bool
) -> None:
    assert in_the_terminal(browser) is in_terminal
