"""Starting `bot.py` for real: a token Discord rejects or a database out of reach gives one line
and exit status 2, and a running bot stopped as a service manager stops it (SIGTERM) closes
cleanly."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest
from postgres_server import PostgresServer

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

ROOT = Path(__file__).resolve().parents[2]

# bot.py as a user runs it, with only discord.py's API and gateway addresses pointed at the
# emulator.
LAUNCH = (
    "import sys, discord.http, yarl; from discord.gateway import DiscordWebSocket; "
    "discord.http.Route.BASE = sys.argv[1]; "
    "DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2]); "
    "import bot; sys.exit(bot.main())"
)


async def launch(
    emulator: DiscordEmulator,
    tmp_path: Path,
    token: str,
    *,
    database: str | None = None,
    **settings: str,
) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": token,
        "DATABASE_URL": database or f"sqlite:///{tmp_path / 'games.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        "DRAWING_PROCESSES": "0",
        **settings,
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCH,
        emulator.api_base,
        emulator.gateway_url,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def one_line_refusal(process: asyncio.subprocess.Process) -> str:
    """The single line a bot that cannot start prints, once it has exited with status 2."""
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    text = stderr.decode()
    assert process.returncode == 2, text
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


async def test_a_rejected_token_prints_one_line_and_exits_2(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    line = await one_line_refusal(await launch(emulator, tmp_path, "not-the-right-token"))
    assert "rejected DISCORD_TOKEN" in line
    # Discord refused the login, exactly as expected here; nothing else was refused.
    assert [(r.path, r.status) for r in emulator.rejections] == [("/api/v10/users/@me", 401)]
    emulator.rejections.clear()


async def stopped_cleanly(process: asyncio.subprocess.Process) -> None:
    """SIGTERM, then the bot closes by itself: exit status 0 and no traceback."""
    process.send_signal(signal.SIGTERM)
    # Closing takes a second or two; a shared machine slowed by its host has taken over 30.
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=90)
    text = stderr.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text


async def test_a_bot_stopped_with_sigterm_closes_cleanly(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    process = await launch(emulator, tmp_path, emulator.token)
    try:
        await emulator.wait_for(lambda: emulator.gateway.connected, 60, message="the bot online")
        await stopped_cleanly(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    await emulator.wait_for(lambda: not emulator.gateway.connected, 5, message="disconnected")


async def test_a_database_out_of_reach_prints_one_line_and_exits_2(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    """Nobody listening on the URL's port (and no wait for it: DATABASE_WAIT=0), or a server
    without that database (never waited for): one line that says what to check, without the
    password."""
    nobody = f"postgresql://bot:pw@127.0.0.1:{free_port()}/games"
    launched = await launch(emulator, tmp_path, emulator.token, database=nobody, DATABASE_WAIT="0")
    line = await one_line_refusal(launched)
    assert f"cannot reach PostgreSQL at {nobody.split('@')[1]}" in line
    assert "pw" not in line, "the password stays out of the message"
    missing = postgres.database_url("no_such_games")
    launched = await launch(emulator, tmp_path, emulator.token, database=missing)
    line = await one_line_refusal(launched)
    assert "has no such database" in line and "no_such_games" in line


def free_port() -> int:
    """A loopback port nobody listens on (free, and left closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_bot_waiting_for_its_database_says_so_once_and_stops_at_once_when_asked(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """Nobody listening yet on the URL's port: the bot says so in one line, how it tries again
    and for how long, and keeps trying quietly (no line, no traceback per try); SIGTERM ends
    the wait at once, cleanly, without connecting to Discord."""
    port = free_port()
    nobody = f"postgresql://bot:pw@127.0.0.1:{port}/games"
    process = await launch(emulator, tmp_path, emulator.token, database=nobody)
    assert process.stderr is not None
    try:
        line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()
        assert f"cannot reach PostgreSQL at 127.0.0.1:{port}/games" in line, line
        assert "trying again" in line and "600 s (DATABASE_WAIT)" in line, line
        assert "pw" not in line, "the password stays out of the message"
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, rest.decode()
    assert not rest.strip(), f"only one line while waiting: {rest.decode()}"
    assert not emulator.gateway.connected


async def test_a_bot_stopped_while_it_sets_up_closes_cleanly_once_set_up(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """SIGTERM while the bot is still syncing its commands (held up here by a rate limit):
    it stops once set up, rather than failing in the middle of the sync with a traceback."""
    held = emulator.faults.rate_limit("PUT /applications/{app_id}/commands", retry_after=3)
    process = await launch(emulator, tmp_path, emulator.token)
    try:
        await emulator.wait_for(lambda: held.fired, 60, message="the commands' sync")
        await stopped_cleanly(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert not emulator.gateway.connected
