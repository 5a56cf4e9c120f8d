"""The bot process of the load benchmark (`python -m bench.load`): the real bot, alone in its
own process, pointed at the Discord emulator the benchmark runs, so its resident memory can be
read without the emulator's.

    python bench/load_bot.py --api-base URL --gateway URL --database FILE|URL [--guild-id ID]
                             [--shard-count N --shard-ids K[,K...]] [--moved-clock]
                             [--cores C[,C...]]

It is the bot as `bot.py` runs it (same client, same database code, logging at INFO unless told
otherwise), except for where it connects: discord.py's REST base and gateway URL are pointed at
the emulator, exactly as the end-to-end tests do. The database is a SQLite file or a
DATABASE_URL (PostgreSQL, shared by several of these processes, each given its shards as
SHARD_COUNT and SHARD_IDS would give them). With `--guild-id` the commands are registered in
that server alone, as a single-server bot does; without it they are registered for every
server, which a bot whose games are spread over several servers needs.

With `--moved-clock` the bot tells the games' time by a clock the benchmark moves forward, so a
turn clock of an hour runs out without an hour waited: the real time plus an offset, in seconds,
that the benchmark writes on the bot's stdin, one number a line, whenever it moves it (it only
ever grows). It is the clock of what falls due with the games' time (`bot.service.games.clock`:
turn clocks, reminders, absence votes), not the store's, by which the leases of the duties a
process claims run (20 seconds): an hour going by leaves no post on its way that long, where a
clock jumping an hour would end every lease held at that instant, and have the posts on their
way then taken over by the bots' check, deleted again or refused as second copies (the tests
move both, `bot.service.clock`, between steps that have settled). Without it, the bot keeps the
real time, and its stdin carries nothing.

With `--cores` it keeps to those cores, and so do the workers it starts (the benchmark's
`--bot-cores`).

It prints `ready` on stdout once it is connected, and stops cleanly on SIGTERM or SIGINT, or
when its stdin closes: the benchmark keeps a pipe open, so a benchmark that dies, however it
dies, does not leave a bot running.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and files here named like
# the project's packages (bench/engine.py, bench/render.py) would hide them.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import threading  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from datetime import UTC, datetime, timedelta  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

from games import register_all  # noqa: E402
from hvbot.infra.config import LOG_LEVELS, Settings, configure_logging  # noqa: E402
from hvbot.runtime import running  # noqa: E402

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

register_all()  # the games the bot plays, as `bot.py` registers them


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-base", required=True, help="the emulator's REST base (/api/v10)")
    parser.add_argument("--gateway", required=True, help="the emulator's gateway websocket URL")
    parser.add_argument(
        "--database", required=True, help="a SQLite file, or a DATABASE_URL (postgresql://...)"
    )
    parser.add_argument(
        "--guild-id", type=int, help="where to register commands (default: every server)"
    )
    parser.add_argument("--shard-count", type=int, help="as SHARD_COUNT (default: as Discord says)")
    parser.add_argument(
        "--shard-ids",
        type=_numbers,
        help="as SHARD_IDS: this process's shards, comma-separated (default: all of them)",
    )
    parser.add_argument("--token", default="emulated.bot.token")
    parser.add_argument("--ai-pause", type=float, default=1.5, help="seconds before an AI move")
    parser.add_argument("--log-level", default="INFO", choices=LOG_LEVELS)
    parser.add_argument(
        "--drawing-processes", type=int, default=1, help="as DRAWING_PROCESSES (default 1)"
    )
    parser.add_argument(
        "--metrics-port", type=int, help="as METRICS_PORT: serve /metrics here (default: none)"
    )
    parser.add_argument(
        "--cores",
        type=_numbers,
        help="keep to these cores, comma-separated, the workers started too (default: any)",
    )
    parser.add_argument(
        "--moved-clock",
        action="store_true",
        help="tell the games' time by the real time plus an offset read from stdin (seconds, "
        "one a line)",
    )
    return parser.parse_args(argv)


class MovedClock:
    """The real time plus `offset`, which the benchmark moves forward (see `_read_stdin`): a
    turn clock's hour goes by in an instant, and the clock runs on at the real pace between
    two moves."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def move_to(self, seconds: float) -> None:
        """Set by the thread reading stdin: one attribute, swapped whole, so the event loop
        reading it needs no lock. Never backwards."""
        self.offset = max(self.offset, timedelta(seconds=seconds))


def _numbers(text: str) -> tuple[int, ...]:
    """A comma-separated list of numbers (shards, cores), each once, in order."""
    return tuple(sorted({int(word) for word in text.split(",")}))


def _database(text: str) -> tuple[str, str | Path]:
    """The settings' DATABASE_URL and what the client opens: a URL as it is, a file's path as
    the SQLite URL naming it (the path itself is opened, as before URLs were accepted)."""
    if "://" in text:
        return text, text
    return f"sqlite:///{text}", Path(text)


def _read_stdin(
    loop: asyncio.AbstractEventLoop, stop: asyncio.Event, clock: MovedClock | None
) -> None:
    """Runs in a thread: each line is the moved clock's offset in seconds (ignored without
    one), and the end of input means the benchmark is gone.

    It reads the file descriptor itself, not `sys.stdin`: a daemon thread blocked inside the
    buffered reader holds its lock, and the interpreter, closing it on the way out, aborts
    ("could not acquire lock for <_io.BufferedReader name='<stdin>'> at interpreter
    shutdown")."""
    pending = b""
    with contextlib.suppress(Exception):
        while chunk := os.read(sys.stdin.fileno(), 4096):
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if clock is not None and line.strip():
                    clock.move_to(float(line))
    with contextlib.suppress(RuntimeError):  # the loop may be closed already
        loop.call_soon_threadsafe(stop.set)


async def serve(args: argparse.Namespace) -> int:
    # Imported here, as `bot.py` imports them: the server the bot's workers are forked from
    # imports this script as it starts (multiprocessing preloads the main module), and the
    # workers, which draw and think, import no discord.py.
    import discord.http
    import yarl
    from discord.gateway import DiscordWebSocket

    from hvbot.runtime.client import GameBot

    if args.cores:  # first: the workers started from here on keep to them too
        os.sched_setaffinity(0, args.cores)
    discord.http.Route.BASE = args.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    configure_logging(args.log_level)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    clock = MovedClock() if args.moved_clock else None
    threading.Thread(target=_read_stdin, args=(loop, stop, clock), daemon=True).start()

    database_url, database = _database(args.database)
    settings = Settings(
        token=args.token,
        database_url=database_url,
        guild_id=args.guild_id,
        log_level=args.log_level,
        drawing_processes=args.drawing_processes,
        shard_count=args.shard_count,
        shard_ids=args.shard_ids,
        metrics_port=args.metrics_port,
    )
    # A short guild wait only makes start-up quicker: the emulator sends its guilds at once.
    bot = GameBot(settings, database=database, ai_pause=args.ai_pause, guild_ready_timeout=0.1)
    runner: asyncio.Task[None] | None = None
    try:
        await bot.login(args.token)  # its setup makes `bot.service`
        if clock is not None:
            bot.service.games.clock = clock  # the games' time, not the leases' (see above)
        runner = asyncio.create_task(bot.connect(reconnect=True))
        ready = asyncio.create_task(bot.wait_until_ready())
        await asyncio.wait({runner, ready}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            ready.cancel()
            runner.result()  # raises why the connection ended
            return 1
        print("ready", flush=True)
        if late_to := os.environ.get("LOAD_BOT_LATENESS"):
            # SIGHUP: what the games hold now (see `_weigh`).
            weight_to = f"{late_to}.{os.getpid()}.weight.json"
            loop.add_signal_handler(signal.SIGHUP, _weigh, bot, weight_to)
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        return 0
    finally:
        await bot.close()
        if runner is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(runner, 10)


def main(argv: list[str] | None = None) -> int:
    """Serve until stopped; with LOAD_BOT_PROFILE set, under cProfile, its statistics written
    to that file once the bot has stopped (for where the bot's CPU goes under load).

    With LOAD_BOT_PROFILE_CLOCK=cpu the profile counts the event loop's thread's CPU time
    rather than the wall time: on a busy shared machine, a call during which the process was
    not running (the other cores' work) then costs only what it ran. It costs a system call
    per timing, so the run is slower, but its shares are the CPU's.

    With LOAD_BOT_LATENESS set, what holds the event loop (the garbage collector's passes, the
    loop's late wake-ups and where it was then) is written to that file.<pid>.json, and a
    SIGHUP writes what the games hold in memory to that file.<pid>.weight.json."""
    profile_to = os.environ.get("LOAD_BOT_PROFILE")
    setup_to = os.environ.get("LOAD_BOT_PROFILE_SETUP")
    if late_to := os.environ.get("LOAD_BOT_LATENESS"):
        _watch_lateness(late_to)
    if setup_to:
        return _profile_set_up(argv, setup_to)
    if not profile_to:
        return running.run(serve(parse_args(argv)))
    import cProfile
    import time

    by_cpu = os.environ.get("LOAD_BOT_PROFILE_CLOCK") == "cpu"
    profiler = cProfile.Profile(time.thread_time) if by_cpu else cProfile.Profile()
    try:
        return profiler.runcall(running.run, serve(parse_args(argv)))
    finally:
        profiler.dump_stats(f"{profile_to}.{os.getpid()}")


def _profile_set_up(argv: list[str] | None, profile_to: str) -> int:
    """Serve, profiling the event loop's thread by its CPU time from SIGUSR1 to SIGUSR2 (the
    benchmark sends them around its set-up: `LOAD_BOT_PROFILE_SETUP`), the statistics then
    written to `profile_to`.<pid>: where the CPU of opening and starting games goes; and
    the garbage collector's passes meanwhile, by generation (count, CPU seconds), to
    `profile_to`.<pid>.gc.json."""
    import cProfile
    import gc
    import json
    import time

    profiler = cProfile.Profile(time.thread_time)
    # The garbage collector's passes meanwhile, by generation: how many, their CPU seconds.
    passes = {generation: [0, 0.0] for generation in range(3)}
    began = [0.0]

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.thread_time()
        else:
            done = passes[info["generation"]]
            done[0] += 1
            done[1] += time.thread_time() - began[0]

    def start_profiling(*_: object) -> None:
        gc.callbacks.append(collecting)
        profiler.enable()

    def stop_profiling(*_: object) -> None:
        profiler.disable()
        gc.callbacks.remove(collecting)
        profiler.dump_stats(f"{profile_to}.{os.getpid()}")
        with open(f"{profile_to}.{os.getpid()}.gc.json", "w") as out:
            json.dump(passes, out)

    signal.signal(signal.SIGUSR1, start_profiling)
    signal.signal(signal.SIGUSR2, stop_profiling)
    return running.run(serve(parse_args(argv)))


def _deep_bytes(roots: Sequence[object], seen: set[int]) -> int:
    """The bytes of `roots` and everything they reach that `seen` has not counted yet, but
    for types and modules (shared by everything)."""
    import gc
    import types

    total = 0
    stack = list(roots)
    while stack:
        item = stack.pop()
        key = id(item)
        if key in seen or isinstance(item, type | types.ModuleType):
            continue
        seen.add(key)
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def _weigh(bot: GameBot, write_to: str) -> None:
    """What the bot holds for its games, in bytes: the kept rows and states, and discord.py's
    caches (with LOAD_BOT_LATENESS, as the bot stops)."""
    import gc
    import json

    gc.collect()
    cache = bot.service.repo.cache
    connection = bot._connection
    seen: set[int] = set()
    found: dict[str, object] = {
        "rows": len(cache._rows),
        "states": len(cache._states),
    }
    found["state_bytes"] = _deep_bytes(list(cache._states.values()), seen)
    found["row_bytes"] = _deep_bytes(list(cache._rows.values()), seen)
    found["saved"] = len(cache._saved)
    found["saved_bytes"] = _deep_bytes(list(cache._saved.values()), seen)
    maps = [cache._rows, cache._states, cache._saved, cache._by_channel, cache._sessions]
    found["cache_maps"] = _deep_bytes(maps, seen)
    found["users"] = len(connection._users)
    found["user_bytes"] = _deep_bytes([connection._users], seen)
    guilds = list(connection._guilds.values())
    found["channels"] = sum(len(g._channels) for g in guilds)
    found["threads"] = sum(len(g._threads) for g in guilds)
    found["members"] = sum(len(g._members) for g in guilds)
    found["guild_bytes"] = _deep_bytes(guilds, seen)
    store = connection._view_store
    found["views"] = {k: len(v) if hasattr(v, "__len__") else None for k, v in vars(store).items()}
    found["view_bytes"] = _deep_bytes([store], seen)
    found["messages"] = len(connection._messages or ())
    found["private_channels"] = len(connection._private_channels)
    counts: dict[str, int] = {}
    for item in gc.get_objects():
        name = type(item).__qualname__
        counts[name] = counts.get(name, 0) + 1
    found["gc_objects"] = sum(counts.values())
    found["top_types"] = sorted(counts.items(), key=lambda kv: -kv[1])[:40]
    with open(write_to, "w") as out:
        json.dump(found, out, indent=1)


def _watch_lateness(write_to: str) -> None:
    """With LOAD_BOT_LATENESS=FILE: what holds the event loop, written to FILE.<pid>.json as
    the bot stops. Every garbage collection (generation, milliseconds, objects it walked and
    found), and every time the loop ran late by 50 ms or more: when, how late, and where the
    loop's thread was then, as a thread watching a heartbeat the loop beats every 10 ms saw it
    (a stall inside the collector is seen only by its callback: it holds the interpreter's
    lock throughout)."""
    import atexit
    import gc
    import json
    import time
    import traceback

    collections: list[tuple[float, int, float, int, int]] = []
    began = [0.0]
    walked = [0]
    main = threading.main_thread().ident

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            # The old generation's objects, which a full collection walks (counted before
            # the timing starts).
            walked[0] = len(gc.get_objects(2)) if info["generation"] == 2 else 0
            began[0] = time.thread_time()  # its CPU: a busy machine stretches the wall time
            return
        ms = (time.thread_time() - began[0]) * 1000
        generation, collected = info["generation"], info["collected"]
        collections.append((time.monotonic(), generation, ms, collected, walked[0]))

    gc.callbacks.append(collecting)
    beat = [time.monotonic()]
    stalls: list[dict[str, object]] = []

    async def beating() -> None:
        written = time.monotonic()
        while True:
            beat[0] = time.monotonic()
            if beat[0] - written > 10:  # a process killed at the end still leaves its figures
                dump()
                written = time.monotonic()
            await asyncio.sleep(0.01)

    def watching() -> None:
        seen = 0.0
        while True:
            time.sleep(0.005)
            late = time.monotonic() - beat[0]
            if late > 0.05 and beat[0] != seen:
                seen = beat[0]
                frame = sys._current_frames().get(main)  # type: ignore[arg-type]
                where = traceback.format_stack(frame, limit=12) if frame is not None else []
                stalls.append({"at": beat[0], "late_ms": late * 1000, "where": where})
            elif beat[0] == seen and stalls and late * 1000 > float(str(stalls[-1]["late_ms"])):
                stalls[-1]["late_ms"] = late * 1000

    def dump() -> None:
        with open(f"{write_to}.{os.getpid()}.json", "w") as out:
            found = {"collections": collections, "stalls": stalls, "frozen": gc.get_freeze_count()}
            json.dump(found, out)

    real_run = running.run

    def run(coroutine: object) -> int:
        async def with_beat() -> int:
            task = asyncio.create_task(beating())
            try:
                # a coroutine of `serve`'s, typed as any object to stand in for running.run
                return await coroutine  # type: ignore[misc]
            finally:
                task.cancel()

        return real_run(with_beat())

    running.run = run  # type: ignore[assignment]
    threading.Thread(target=watching, daemon=True).start()
    atexit.register(dump)


if __name__ == "__main__":
    sys.exit(main())
