"""The bot processes of a run: the real bot, each in its own process (`bench/load_bot.py`),
started, stopped and read (their logs, their metrics), and the emulated Discord they are laid
out on (one server, or one per shard)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from sandbox.emulator import Channel
from sandbox.emulator.load import LoadEmulator

from .config import WARM_UP_GAMES

BENCH = Path(__file__).resolve().parents[1]  # the folder of load_bot.py


@dataclass(frozen=True)
class Plan:
    """One measurement: where the bot stores its games, and how many processes serve them."""

    database: str  # "sqlite" or "postgresql"
    processes: int

    @property
    def label(self) -> str:
        name = "SQLite" if self.database == "sqlite" else "PostgreSQL"
        return f"{name}, {self.processes} process{'' if self.processes == 1 else 'es'}"


async def start_bot(
    emu: LoadEmulator,
    database: str,
    log: IO[bytes],
    args: argparse.Namespace,
    *,
    guild_id: int | None,
    shard: tuple[int, int] | None,
    metrics_port: int | None = None,
) -> asyncio.subprocess.Process:
    """The bot in its own process (its own session, so a Ctrl-C here reaches only us and we
    stop it cleanly); it prints `ready` once connected. `database` is a SQLite file or a
    PostgreSQL URL; `shard` is (k, n) for shard k of n, None for the bot's own choice;
    without `guild_id` the commands are registered for every server; without `metrics_port`
    the bot serves no metrics (and `round_trips` cannot read it)."""
    command = [
        sys.executable,
        str(BENCH / "load_bot.py"),
        f"--api-base={emu.api_base}",
        f"--gateway={emu.gateway_url}",
        f"--database={database}",
        f"--token={emu.token}",
        f"--ai-pause={args.ai_pause}",
        f"--log-level={args.bot_log_level}",
        f"--drawing-processes={args.drawing_processes}",
    ]
    if metrics_port is not None:
        command.append(f"--metrics-port={metrics_port}")
    if args.clocked:
        command.append("--moved-clock")
    if guild_id is not None:
        command.append(f"--guild-id={guild_id}")
    if shard is not None:
        command += [f"--shard-count={shard[1]}", f"--shard-ids={shard[0]}"]
    if args.cores is not None:
        command.append(f"--cores={args.cores.bots_arg}")
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=log,
        start_new_session=True,
    )
    assert process.stdout is not None
    line = b""
    with contextlib.suppress(TimeoutError):
        line = await asyncio.wait_for(process.stdout.readline(), 60)
    if line.strip() != b"ready":
        await stop_bot(process)
        raise RuntimeError("the bot process did not start; its log says:\n" + tail(log.name))
    if metrics_port is not None:
        _METRICS_PORTS[process.pid] = metrics_port
    return process


async def stop_bot(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), 15)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
    if process.stdin is not None:
        process.stdin.close()


async def start_bots(
    emu: LoadEmulator,
    database: str,
    logs: Sequence[IO[bytes]],
    args: argparse.Namespace,
    plan: Plan,
) -> list[asyncio.subprocess.Process]:
    """The plan's bot processes, started together as a deployment starts them. One process
    registers its commands in the one server, as before there could be several; several
    processes each run one shard (SHARD_COUNT and SHARD_IDS) and register them for every
    server, since the games are spread over one server per shard."""
    n = plan.processes
    guild_id = emu.guild_id if n == 1 else None
    shards: list[tuple[int, int] | None] = (
        [None] if plan.database == "sqlite" else [(k, n) for k in range(n)]
    )
    started = await asyncio.gather(
        *(
            start_bot(emu, database, log, args, guild_id=guild_id, shard=shard, metrics_port=port)
            for log, shard, port in zip(logs, shards, metrics_ports(len(shards)), strict=True)
        ),
        return_exceptions=True,
    )
    processes = [p for p in started if isinstance(p, asyncio.subprocess.Process)]
    failed = [p for p in started if isinstance(p, BaseException)]
    if failed:
        await asyncio.gather(*(stop_bot(p) for p in processes))
        raise failed[0]
    return processes


# Each bot process serves its metrics (METRICS_PORT) on a port of its own, which the benchmark
# reads its database round trips from (`round_trips`).
_METRICS_PORTS: dict[int, int] = {}  # bot process id -> its metrics port


def metrics_ports(count: int) -> list[int]:
    """Ports free on loopback now, one for each bot process to serve its metrics on."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for each in sockets:
            each.bind(("127.0.0.1", 0))
        return [each.getsockname()[1] for each in sockets]
    finally:
        for each in sockets:
            each.close()


async def round_trips(processes: Sequence[asyncio.subprocess.Process]) -> float:
    """The requests the bot processes have sent to PostgreSQL so far and waited for (each a
    round trip: a statement, or a BEGIN or COMMIT), as their metrics count them; 0 on SQLite,
    which runs inside the bot's own process."""
    total = 0.0
    async with aiohttp.ClientSession() as session:
        for process in processes:
            url = f"http://127.0.0.1:{_METRICS_PORTS[process.pid]}/metrics"
            async with session.get(url) as answer:
                text = await answer.text()
            for family in text_string_to_metric_families(text):
                if family.name == "hvbot_database_round_trips":
                    total += sum(s.value for s in family.samples if s.name.endswith("_total"))
    return total


def lay_out(
    args: argparse.Namespace, plan: Plan
) -> tuple[LoadEmulator, list[Channel], list[Channel]]:
    """The emulator, and the channels of the warm-up games and of the games, one each.

    One process: one server holds them all, as before there could be several processes.
    Several: one server per shard, and the channels dealt out among them in turn, so each
    process serves its share of the games (and of the warm-up, so each is warm)."""
    warm_names = [f"warm-up-{i + 1}" for i in range(min(WARM_UP_GAMES, args.games))]
    game_names = [f"game-{i + 1}" for i in range(args.games)]
    spec = True if args.validate else None
    n = plan.processes
    if n == 1:
        emu = LoadEmulator(spec_path=spec, channel_names=[*warm_names, *game_names])
        channels = list(emu.channels.values())
        return emu, channels[: len(warm_names)], channels[len(warm_names) :]
    # Discord lets a bot this size identify as many shards at once as it runs.
    emu = LoadEmulator(spec_path=spec, channel_names=["general"], max_concurrency=n)
    guilds = [emu.add_guild(f"Board game club {k + 1}", shard=(k, n)) for k in range(n)]

    def deal(names: list[str]) -> list[Channel]:
        return [emu.add_channel(name, guilds[i % n]) for i, name in enumerate(names)]

    return emu, deal(warm_names), deal(game_names)


def bot_log_path(args: argparse.Namespace, plan: Plan, k: int, folder: Path, several: bool) -> Path:
    """Where process `k` of the plan logs: `--bot-log` itself for the one process of a run
    that measures once, a name made from it otherwise, so no run's log overwrites another's."""
    if args.bot_log is None:
        return folder / ("bot.log" if plan.processes == 1 else f"bot-{k}.log")
    if plan.processes == 1 and not several:
        return args.bot_log
    stem, suffix = args.bot_log.stem, args.bot_log.suffix
    return args.bot_log.with_name(f"{stem}-{plan.database}-{plan.processes}p-{k}{suffix}")


def tail(path: str | Path, lines: int = 20) -> str:
    return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])


def logged(path: str | Path, words: str) -> int:
    """How many lines of the bot's log hold `words`."""
    return sum(words in line for line in Path(path).read_text(errors="replace").splitlines())


def logged_errors(path: str | Path) -> list[str]:
    """The bot's ERROR and CRITICAL log lines (each with its logger and message)."""
    text = Path(path).read_text(errors="replace")
    return [line for line in text.splitlines() if " ERROR " in line or " CRITICAL " in line]
