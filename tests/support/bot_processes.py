"""Real bot processes (`bot.py`'s `serve`), sharded, against the emulator and one database.

Each process is the bot as deployed: its own interpreter, its own database connections, its
own shards of Discord's gateway, stopped with SIGTERM or killed with SIGKILL. Only discord.py's
API and gateway addresses are pointed at the emulator, and the pauses a test would otherwise
wait for are shortened: the AI's pause, how often duties are checked, and the claims' lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.emulator import DiscordEmulator

ROOT = Path(__file__).resolve().parents[2]

LAUNCH = """
import datetime, sys
import discord.http, yarl
from discord.gateway import DiscordWebSocket
discord.http.Route.BASE = sys.argv[1]
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
import bot, hvbot.store.duties
from hvbot.infra.config import configure_logging, load_settings
from hvbot.runtime.running import run
hvbot.store.duties.LEASE = datetime.timedelta(seconds=float(sys.argv[3]))
settings = load_settings()
configure_logging(settings.log_level, settings.log_format, settings.shard_ids)
run(bot.serve(settings, remind_check_s=float(sys.argv[4]), ai_pause=float(sys.argv[5])))
"""


@dataclass
class BotProcess:
    """One bot process running `shard_ids` of `shard_count` shards."""

    shard_ids: tuple[int, ...]
    shard_count: int
    process: asyncio.subprocess.Process
    log: Path
    errors: list[str] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def kill(self) -> None:
        """As a machine that loses power: no cleanup at all."""
        self.process.send_signal(signal.SIGKILL)

    def pause(self) -> None:
        """As a long garbage collection or a stopped virtual machine: the process does nothing
        at all, its leases run out, until `resume`."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.alive:
            self.process.send_signal(signal.SIGCONT)

    async def stop(self, timeout: float = 60.0) -> int:
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()

    def logged(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


async def start_bot_process(
    emu: DiscordEmulator,
    folder: Path,
    *,
    database_url: str,
    shard_ids: tuple[int, ...],
    shard_count: int,
    lease_s: float = 2.0,
    duty_check_s: float = 0.2,
    ai_pause: float = 0.05,
    wait: bool = True,
    settings: Mapping[str, str] | None = None,
) -> BotProcess:
    """Start a bot process; with `wait`, return once its shards are connected. `settings` are
    more environment variables for it (METRICS_PORT, LOG_FORMAT...)."""
    log = folder / f"bot-{'-'.join(map(str, shard_ids))}-{len(list(folder.glob('bot-*')))}.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": emu.token,
        "DATABASE_URL": database_url,
        "SHARD_COUNT": str(shard_count),
        "SHARD_IDS": ",".join(map(str, shard_ids)),
        "HVBOT_GUILD_ID": "",
        "LOG_LEVEL": "INFO",
        "DRAWING_PROCESSES": "0",
        # As fast as the emulated Discord admits sessions (see DiscordEmulator's gateway).
        "IDENTIFY_INTERVAL": str(max(0.1, 2 * emu.gateway.identify_interval)),
        **(settings or {}),
    }
    handle = log.open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCH,
        emu.api_base,
        emu.gateway_url,
        str(lease_s),
        str(duty_check_s),
        str(ai_pause),
        cwd=folder,
        env=env,
        stdout=handle,
        stderr=handle,
    )
    handle.close()
    bot = BotProcess(shard_ids, shard_count, process, log)
    if wait:
        await emu.wait_for(
            lambda: set(shard_ids) <= emu.gateway.connected_shards or not bot.alive,
            60,
            message=f"shards {shard_ids} connected",
        )
        assert bot.alive, bot.logged()
    return bot


@contextlib.asynccontextmanager
async def bot_processes(
    emu: DiscordEmulator,
    folder: Path,
    database_url: str,
    shard_count: int,
    *,
    lease_s: float = 2.0,
    settings: Mapping[str, str] | None = None,
) -> AsyncIterator[list[BotProcess]]:
    """One process per shard, started together (`settings`: environment variables of their
    own, LOG_LEVEL say); stopped with SIGTERM at the end, failing the test if any logged an
    error or a traceback."""
    emu.gateway.max_concurrency = shard_count  # each shard identifies in a bucket of its own
    started = await asyncio.gather(
        *(
            start_bot_process(
                emu,
                folder,
                database_url=database_url,
                shard_ids=(k,),
                shard_count=shard_count,
                lease_s=lease_s,
                settings=settings,
            )
            for k in range(shard_count)
        )
    )
    running = list(started)
    try:
        yield running
    finally:
        for bot in running:
            await bot.stop()
    for bot in running:
        text = bot.logged()
        bad = unexpected(text)
        assert not bad, f"shards {bot.shard_ids} logged:\n{text[-4000:]}"


# A log record's first line: its time, level and logger.
RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?P<level>[A-Z]+) (?P<logger>\S+):")
# Warnings that come with a traceback and are expected. None: where the database goes away,
# the bot says so once, without one (asyncpg's pool's own tries to reconnect are kept quiet).
EXPECTED_TRACEBACKS: set[tuple[str, str]] = set()


def unexpected(log: str) -> list[str]:
    """The lines of a process's log that say something went wrong: errors, and tracebacks
    other than those expected with some warnings."""
    bad, current = [], ("", "")
    for line in log.splitlines():
        record = RECORD.match(line)
        if record:
            current = (record["level"], record["logger"])
        if " ERROR " in line or ("Traceback" in line and current not in EXPECTED_TRACEBACKS):
            bad.append(line)
    return bad
