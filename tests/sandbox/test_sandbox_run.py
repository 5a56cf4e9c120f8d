"""`python bot.py --sandbox` as a newcomer runs it: a real process that serves the page, runs
the real bot against the local Discord, plays a command, and stops cleanly on SIGTERM or
Ctrl-C, leaving no database behind and never touching the person's own settings. Without a
token, plain `python bot.py` points to the sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sandbox_process import (
    ROOT,
    START_S,
    SandboxProcess,
    command,
    environment,
    sandbox,
    short_temp,
)

from hvbot.infra.config import ConfigError
from sandbox.emulator import layout
from sandbox_bot import (
    DATABASE_NAME,
    DEFAULT_PORT,
    FOLDER_PREFIX,
    can_show_a_browser,
    in_the_terminal,
    new_emulator,
    read_environment,
    sandbox_settings,
)

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

# Settings of the person's own bot, which a try-out must leave alone.
THEIR_TOKEN = "their.real.token"


def their_folder(tmp_path: Path) -> Path:
    """A working folder as someone with their own bot has it: a `.env` naming their token
    and their database."""
    folder = tmp_path / "their-bot"
    folder.mkdir()
    (folder / ".env").write_text(
        f"DISCORD_TOKEN={THEIR_TOKEN}\nDATABASE_URL=sqlite:///their-games.sqlite3\n"
        "SHARD_COUNT=4\nSHARD_IDS=3\n"
        "WEB_PORT=8080\nWEB_PUBLIC_URL=https://boards.their.org\nWEB_SECRET=their-own-secret-of-32-chars\n"
    )
    return folder


def database_folders(running: SandboxProcess) -> list[Path]:
    """The folders the sandbox keeps its games in while it runs, in its TMPDIR."""
    return sorted(running.temp.glob(f"{FOLDER_PREFIX}*"))


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
        sandbox(
            tmp_path, "--port", "0", cwd=their_folder(tmp_path), DRAWING_PROCESSES="0"
        ) as running,
        aiohttp.ClientSession() as http,
    ):
        assert running.port != 0
        # The bot's games are kept in a fresh folder while it runs.
        (folder,) = database_folders(running)
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

            # Started against an AI, its board links to the game's live board, which the
            # sandbox's bot serves on this machine.
            for typed in ("game addai", "game start"):
                command = {**command, "command": typed, "options": {}}
                async with http.post(f"{running.url}sandbox/api/command", json=command) as answer:
                    assert answer.status == 200, await answer.text()
            link = await asyncio.wait_for(live_board_link(ws), timeout=60)
            assert link.startswith("http://127.0.0.1:"), link
            async with http.get(link) as board:
                assert board.status == 200
                assert "live board" in await board.text()

            # Stopped while a page is still open, as a person stops it.
            stderr = await running.stop_async(signal.SIGTERM)
        assert running.process.returncode == 0, stderr
        assert "Traceback" not in stderr, stderr
    assert not folder.exists(), "the sandbox's database is removed when it stops"
    assert database_folders(running) == []
    their = tmp_path / "their-bot"
    assert sorted(p.name for p in their.iterdir()) == [".env"], "their database is untouched"


async def lobby_message(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The first message with buttons that reaches the page: the lobby `/game new` opens."""
    while True:
        message = (await next_frame(ws, "message"))["message"]
        buttons = [
            item["custom_id"]
            for item, _ in layout.walk(message["components"])
            if item["type"] == layout.BUTTON and "custom_id" in item
        ]
        if buttons:
            return message


async def live_board_link(ws: aiohttp.ClientWebSocketResponse) -> str:
    """The address of the first "Live board" link button that reaches the page."""
    while True:
        message = (await next_frame(ws, "message"))["message"]
        # Wherever the message holds it: a board post is a card, its rows inside it.
        for item, _ in layout.walk(message["components"]):
            if item["type"] == layout.BUTTON and item.get("style") == 5:
                return str(item["url"])


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
        async with sandbox(
            tmp_path, cwd=their_folder(tmp_path), new_session=True, DRAWING_PROCESSES="1"
        ) as running:
            assert running.port not in (0, DEFAULT_PORT)
            stderr = await running.stop_async(signal.SIGINT, group=True)
    assert running.process.returncode == 0, stderr
    assert "Traceback" not in stderr, stderr
    assert database_folders(running) == []


async def test_a_taken_port_asked_for_is_one_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = await asyncio.to_thread(
            subprocess.run,
            command("--port", str(port)),
            cwd=their_folder(tmp_path),
            env=environment(short_temp(tmp_path)),
            capture_output=True,
            text=True,
            timeout=START_S,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"hvbot: port {port} is taken; choose another with --port, or leave --port out to take "
        "any free one."
    ]


def bare_bot_py(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`python bot.py` as on a fresh machine: no token, no .env, no settings at all."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *arguments],
        cwd=folder,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_bot_py_points_to_the_sandbox(tmp_path: Path) -> None:
    done = bare_bot_py(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "python bot.py --sandbox" in lines[0]


@pytest.mark.parametrize("arguments", [["--port", "8000"], ["--no-browser"]])
def test_sandbox_options_without_the_sandbox_are_refused(
    tmp_path: Path, arguments: list[str]
) -> None:
    done = bare_bot_py(tmp_path, *arguments)
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
    # The live boards are on, on a free port of this machine, whatever the real bot uses.
    assert (settings.web_port, settings.web_host) == (0, "127.0.0.1")
    assert (settings.web_public_url, settings.web_secret) == (None, None)
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
