"""One measurement: the bots started on a fresh database, warmed up, the games set up and
played, and what was sent, stored and used over the timed play. Its steps are apart, each
named for the phase of the run it is."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.emulator import Channel
from sandbox.emulator.interactions import INTERACTION_WINDOW
from sandbox.emulator.load import LoadEmulator

from .bots import (
    Plan,
    bot_log_path,
    lay_out,
    logged,
    logged_errors,
    round_trips,
    start_bots,
    stop_bot,
)
from .clocks import ClockDriver, Duty, clock_duties
from .config import (
    ACT_S,
    AFTER_S,
    HOLD_S,
    JOIN_SECONDS,
    PROBE_EVERY,
    REPLAYS_S,
    REST_SECONDS,
    SETTLE_SECONDS,
    WARM_UP_FINISH_S,
    WARM_UP_GAMES,
)
from .cores import cores_of
from .machine import cpu_seconds, cpu_seconds_titled, loop_cpu_seconds, probe_ms, rss_kb
from .players import LoadRun, Slot
from .reader import GameReader, PostgresReader, SqliteReader, on_shard, totals
from .server_work import ServerWork, checkpoint, read


async def run(
    args: argparse.Namespace,
    plan: Plan,
    postgres_url: str | None,
    *,
    database_pid: int | None = None,
    several: bool = False,
    replica_url: str | None = None,
    replica_pid: int | None = None,
) -> dict[str, Any]:
    """One measurement: the plan's bot processes on a fresh database (the SQLite file in a
    temporary folder, or the empty PostgreSQL database `postgres_url`, whose server's main
    process is `database_pid`). The players read the bots' games from `replica_url`, that
    database on a replica of the server (whose main process is `replica_pid`), if given, so
    their reads load not the bots' server."""
    # Ctrl-C cancels this task (asyncio.run sees to that); make a plain `kill` do the same, so
    # the bot processes, the emulator and the temporary folder are cleaned up either way.
    main_task = asyncio.current_task()
    assert main_task is not None
    # ...and both tell the players to stop first: a player whose wait for an answer was
    # cancelled as the answer came would not see the cancellation (`asyncio.wait_for` on
    # Python 3.11), and the set-up, which gathers them all, would wait for it to give up.
    stop = asyncio.Event()

    def interrupt() -> None:
        stop.set()
        main_task.cancel()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, interrupt)
    before = min(probe_ms() for _ in range(5))
    with tempfile.TemporaryDirectory(prefix="hvbot-load-") as folder:
        sqlite_file = Path(folder) / "games.sqlite3"
        database = postgres_url or str(sqlite_file)
        emu, warm_channels, game_channels = lay_out(args, plan)
        await emu.start()
        paths = [bot_log_path(args, plan, k, Path(folder), several) for k in range(plan.processes)]
        with contextlib.ExitStack() as logs:
            handles = [logs.enter_context(open(path, "wb")) for path in paths]
            processes: list[asyncio.subprocess.Process] = []
            reader: GameReader | None = None
            try:
                processes = await start_bots(emu, database, handles, args, plan)
                reader = (
                    await PostgresReader.open(
                        replica_url or postgres_url, replica=replica_url is not None
                    )
                    if postgres_url
                    else SqliteReader(sqlite_file)
                )
                found = await measure(
                    emu,
                    reader,
                    processes,
                    paths,
                    args,
                    plan,
                    warm_channels,
                    game_channels,
                    database_pid=database_pid,
                    replica_pid=replica_pid,
                    database_url=postgres_url,
                    stop=stop,
                )
                return {**found, "probe_before": before, "replica": replica_url is not None}
            finally:
                if reader is not None:
                    await reader.close()
                await asyncio.gather(*(stop_bot(p) for p in processes))
                await emu.close()
                # What this measurement kept frozen (see `measure`) is not the next one's.
                gc.unfreeze()


@dataclass
class Measuring:
    """One measurement under way: the people of its channels, the bot processes they play
    against, and the tasks to stop once it ends, however it ends (the players', the clock
    driver's)."""

    bench: LoadRun
    processes: list[asyncio.subprocess.Process]
    plan: Plan
    database_pid: int | None
    replica_pid: int | None = None
    database_url: str | None = None  # the bots' PostgreSQL database; None on SQLite
    players: list[asyncio.Task[None]] = field(default_factory=list)
    driving: asyncio.Task[None] | None = None

    @property
    def args(self) -> argparse.Namespace:
        return self.bench.args

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]


@dataclass
class TimedPlay:
    """What the timed play came to: its figures for the report, the bots' memory sampled
    through it, and the clock driver that ran in it."""

    figures: dict[str, Any]
    rss_samples: list[int]
    own_samples: list[int]
    driver: ClockDriver


async def measure(
    emu: LoadEmulator,
    reader: GameReader,
    processes: list[asyncio.subprocess.Process],
    log_paths: list[Path],
    args: argparse.Namespace,
    plan: Plan,
    warm_channels: list[Channel],
    game_channels: list[Channel],
    *,
    database_pid: int | None = None,
    replica_pid: int | None = None,
    database_url: str | None = None,
    stop: asyncio.Event | None = None,
) -> dict[str, Any]:
    """The phases of one measurement in turn (warm-up, set-up, ramp, timed play, wind-down),
    and what they came to for the report; interrupted, what it came to so far."""
    bench = LoadRun(emu, reader, args, stop)
    measuring = Measuring(bench, processes, plan, database_pid, replica_pid, database_url)
    lag_watch = asyncio.create_task(bench.watch_loop_lag())
    started = time.monotonic()
    try:
        rss_started = rss_kb(*measuring.pids)
        warmed = await warm_up(measuring, warm_channels)
        playing, set_up = await set_up_games(measuring, game_channels)
        rss_half, ramped = await ramp_up(measuring, playing)
        timed = await timed_play(measuring, playing)
        duties, unexplained = await wind_down(measuring, timed.driver)
    except asyncio.CancelledError:
        print(partial_report(bench, args, time.monotonic() - started), flush=True)
        raise
    finally:
        bench.stop.set()
        tasks = [*measuring.players, lag_watch, *([measuring.driving] if measuring.driving else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    pids, driver = measuring.pids, timed.driver
    rss_active = max(timed.rss_samples) if timed.rss_samples else rss_kb(*pids)
    own_active = max(timed.own_samples) if timed.own_samples else rss_kb(*pids, descendants=False)
    return {
        "args": args,
        "plan": plan,
        "pids": pids,
        "timed": [s for s in bench.sent if s.phase == "timed"],
        "setup": [s for s in bench.sent if s.phase == "set-up"],
        "joining": [s for s in bench.sent if s.phase == "joining"],
        **set_up,
        **ramped,
        **timed.figures,
        "rss_started": rss_started,
        **warmed,
        "own_active": own_active,
        "rss_active": rss_active,
        "rss_half": max(rss_half, default=rss_active),
        "lags": bench.lags,
        "wakes": bench.wakes,
        "refusals": bench.refusals,
        "errors": [line for path in log_paths for line in logged_errors(path)],
        "clocked": len(driver.slots),
        "duties": duties,
        "unexplained": unexplained,
        "jumps": len(driver.jumps),
        "clock_moved_s": driver.offset,
        "nonce_refused": emu.duplicates_refused,
        "withdrawn": sum(logged(path, "withdrawn") for path in log_paths),
    }


async def warm_up(measuring: Measuring, channels: list[Channel]) -> dict[str, Any]:
    """A few games played as fast as answered, on until every process has finished one and
    drawn its boards, then abandoned; the replays of those finished waited for, then the rest
    (see REST_SECONDS). What the bots hold then is the memory at rest."""
    bench, args, pids = measuring.bench, measuring.args, measuring.pids
    n = measuring.plan.processes
    loop = asyncio.get_running_loop()
    warm_slots = [bench.add_slot(ch, -i - 1) for i, ch in enumerate(channels)]
    warm_until = loop.time() + args.warm_up
    last_call = warm_until + (WARM_UP_FINISH_S if args.warm_up > 0 else 0.0)

    def warm() -> bool:
        """Every process has finished a game and drawn its boards: each pays once."""
        return all(
            any(s.finished for s in mine) and sum(s.pictures for s in mine) >= args.warm_up_boards
            for k in range(n)
            if (mine := [s for s in warm_slots if s.shard(n) == k])
        )

    async def play_warm(slot: Slot) -> None:
        await bench.play(slot, until=warm_until)
        while not warm() and loop.time() < last_call:
            await bench.play(slot, until=min(loop.time() + 1.0, last_call))
        await bench.abandon(slot.people[0], slot.channel)

    await asyncio.gather(*(play_warm(slot) for slot in warm_slots))
    warm_up_finished = sum(s.finished for s in warm_slots)
    # A finished game's replay is drawn after it, in the worker that also thinks for the AI
    # seats: at rest is once the last of them is posted.
    replays_due = loop.time() + REPLAYS_S
    while sum(s.replays for s in warm_slots) < warm_up_finished and loop.time() < replays_due:
        await asyncio.sleep(0.2)
    warm_up_boards = sum(s.pictures for s in warm_slots)
    await asyncio.sleep(REST_SECONDS)
    return {
        "rss_rest": rss_kb(*pids),
        "own_rest": rss_kb(*pids, descendants=False),
        "warm_up_finished": warm_up_finished,
        "warm_up_boards": warm_up_boards,
    }


async def set_up_games(
    measuring: Measuring, channels: list[Channel]
) -> tuple[list[Slot], dict[str, Any]]:
    """Every game opened as people open one, `--setup-at-once` at a time, those with a turn clock
    spread over them; the games that started, and what setting them up took."""
    bench, args = measuring.bench, measuring.args
    loop = asyncio.get_running_loop()
    bench.phase = "set-up"
    slots = [bench.add_slot(ch, i + 1) for i, ch in enumerate(channels)]
    # The games with a turn clock, spread over the games (and so over the processes).
    for i in range(args.clocked):
        slots[i * args.games // args.clocked].clocked = True
    at_once = asyncio.Semaphore(args.setup_at_once)

    setup_start = loop.time()
    # The bots' CPU over the set-up: what opening a game costs them (their own processes
    # apart from their workers, which draw the boards posted at each start).
    bots_cpu = BotsCpu(measuring.pids)
    profiling = bool(os.environ.get("LOAD_BOT_PROFILE_SETUP"))
    if profiling:  # the bots' profilers run over the set-up alone (see `load_bot.main`)
        for pid in measuring.pids:
            os.kill(pid, signal.SIGUSR1)
    setup_deadline = setup_start + max(60.0, 1.0 * args.games)
    print(f"setting up {len(slots)} games, {args.setup_at_once} at once", flush=True)

    async def set_up(slot: Slot) -> bool:
        async with at_once:
            while loop.time() < setup_deadline and not bench.stop.is_set():
                if await bench.open_game(slot):
                    return True
                bench.retried += 1
                await asyncio.sleep(0.5)
            return False

    opened = await asyncio.gather(*(set_up(s) for s in slots))
    setup_seconds = loop.time() - setup_start
    if profiling:
        for pid in measuring.pids:
            os.kill(pid, signal.SIGUSR2)
    cpu_each, cpu_setup_own = bots_cpu.since()
    cpu_setup_loop = bots_cpu.loop_since()
    playing = [s for s, ok in zip(slots, opened, strict=True) if ok]
    playable = await settle(measuring, playing, setup_start)
    cpu_playable, cpu_playable_own = bots_cpu.since()
    rss_setup = rss_kb(*measuring.pids)
    # This process holds every record of the run; left to the collector, a full pass over
    # them stalls the emulator for a few hundred ms, which would be counted as the bot's.
    gc.collect()
    gc.freeze()
    return playing, {
        "setup_seconds": setup_seconds,
        "cpu_setup": sum(cpu_each),
        "cpu_setup_own": cpu_setup_own,
        "cpu_setup_loop": cpu_setup_loop,
        "playing": playing,
        "rss_setup": rss_setup,
        "setup_taken_over": bench.taken_over,
        "setup_deferred": bench.deferred,
        "setup_resumed": bench.resumed,
        "setup_abandoned": bench.abandoned,
        "setup_retried": bench.retried,
        **playable,
        "cpu_playable": sum(cpu_playable),
        "cpu_playable_own": cpu_playable_own,
        # The machine is shared: how busy it was is part of every figure.
        "load_setup": os.getloadavg(),
    }


async def settle(measuring: Measuring, playing: list[Slot], setup_start: float) -> dict[str, Any]:
    """Wait until every game started is a person's to play: its start's board posted, its
    AI seats' first moves made and shown. A game counts as set up once its Start is answered,
    but what the start owes goes on after it; played on at once, the games whose AI had yet
    to move would wait for it in play, their people asking for the board again, and a bot
    that answered the lobbies faster would only leave more of that to the play. Stuck here
    is counted apart from the play's."""
    bench = measuring.bench
    loop = asyncio.get_running_loop()
    bench.phase = "settling"
    until = loop.time() + max(60.0, 0.5 * len(playing))
    found = await asyncio.gather(*(bench.next_turn(slot, until) for slot in playing))
    stalls = sum(slot.stalls for slot in playing)
    for slot in playing:
        slot.stalls = 0
        slot.stalled_on.clear()
    return {
        "playable_seconds": loop.time() - setup_start,
        "unplayable": sum(1 for turn in found if turn is None),
        "settle_stalls": stalls,
    }


def partial_report(bench: LoadRun, args: argparse.Namespace, seconds: float) -> str:
    """What an interrupted run came to: the phase it was in, the games started so far, and
    how the lobby's interactions were answered (how many too late; what that cost)."""
    started = sum(1 for s in bench.slots.values() if s.game_id is not None)
    setup = [s.state for s in bench.sent if s.phase == "set-up"]
    acked = sorted(
        s.ack_latency * 1000
        for s in setup
        if s.ack_latency is not None and s.acknowledged_at is not None and not s.expired
    )

    def pct(q: float) -> str:
        return f"{acked[min(len(acked) - 1, int(q * len(acked)))]:.0f}" if acked else "-"

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"interrupted in the {bench.phase} after {seconds:.0f} s: {started} of "
        f"{args.games + min(WARM_UP_GAMES, args.games)} channels had a game started; set-up "
        f"sent {len(setup)} lobby interactions, {len(setup) - len(acked)} not acknowledged in "
        f"time (ack p50 {pct(0.5)} ms, p99 {pct(0.99)} ms); {bench.taken_over} games taken "
        f"over after a late answer, {bench.resumed} lobbies resumed, {bench.abandoned} "
        f"abandoned, {bench.retried} retried; "
        f"load average {load}"
    )


async def ramp_up(measuring: Measuring, playing: list[Slot]) -> tuple[list[int], dict[str, Any]]:
    """Half the games play first, then all: what the second half adds to the most memory in
    use is what a playing game costs on its own, without what a process pays once play begins
    at all (caches of picture pieces and labels, pools, the allocator's reserve). Latencies
    are only counted once all the games play. The bots' memory sampled while half played."""
    bench, args = measuring.bench, measuring.args
    loop = asyncio.get_running_loop()
    think = args.think > 0
    bench.phase = "ramp"
    if measuring.database_url:  # no checkpoint of the server's own falls in the timed play
        await checkpoint(measuring.database_url)
    first, second = playing[: len(playing) // 2], playing[len(playing) // 2 :]
    measuring.players += [asyncio.create_task(bench.play(s, think=think)) for s in first]
    rss_half = await sample_rss(measuring.pids, loop, args.seconds / 2)

    bench.phase = "joining"
    join_start = loop.time()
    measuring.players += [asyncio.create_task(bench.play(s, think=think)) for s in second]
    while loop.time() - join_start < JOIN_SECONDS and not all(s.moves for s in second):
        await asyncio.sleep(0.1)
    joined_seconds = loop.time() - join_start
    joined_moved = sum(1 for s in second if s.moves)
    await asyncio.sleep(SETTLE_SECONDS)
    return rss_half, {
        "joined_seconds": joined_seconds,
        "joined_moved": joined_moved,
        "half_games": len(first),
    }


async def timed_play(measuring: Measuring, playing: list[Slot]) -> TimedPlay:
    """`--seconds` of play by every game, the turn clocks driven meanwhile: the actions
    stored, the database's queries and round trips, and the CPU of everyone over it."""
    bench, reader, pids = measuring.bench, measuring.bench.reader, measuring.pids
    database_pid = measuring.database_pid
    loop = asyncio.get_running_loop()
    bench.phase = "timed"
    url = measuring.database_url
    work_before = await read(url) if url else None  # first: its connecting is not the play's
    counts_before = await reader.action_counts()
    reads_before = reader.reads
    trips_before = await round_trips(measuring.processes)
    bots_cpu, cpu_self = BotsCpu(pids), time.process_time()
    cpu_database = cpu_seconds(database_pid) if database_pid else 0.0
    cpu_sending = cpu_seconds_titled(database_pid, SENDING) if database_pid else 0.0
    replica = Replica(measuring.replica_pid)
    start = loop.time()
    driver = ClockDriver(bench, measuring.processes, [s for s in playing if s.clocked])
    if driver.slots:
        measuring.driving = asyncio.create_task(driver.run())
    rss_samples, own_samples, probes = await sample_play(measuring, start)
    elapsed = loop.time() - start
    bench.phase = "stopping"
    counts = await reader.action_counts()
    reads = reader.reads - reads_before
    trips = await round_trips(measuring.processes) - trips_before
    cpu_bots, cpu_own = bots_cpu.since()
    cpu_self = time.process_time() - cpu_self
    if database_pid:
        cpu_database = cpu_seconds(database_pid) - cpu_database
        cpu_sending = cpu_seconds_titled(database_pid, SENDING) - cpu_sending
    cpu_replica, cpu_applying = replica.since()
    work: ServerWork | None = None
    if url and work_before is not None:
        work = (await read(url)).since(work_before)
    (actions, people_moves), (actions_was, people_was) = totals(counts), totals(counts_before)
    figures = {
        "per_process": shares(measuring, counts_before, counts, cpu_bots),
        "elapsed": elapsed,
        "actions": actions - actions_was,
        "people_moves": people_moves - people_was,
        "cpu_bot": sum(cpu_bots),
        "cpu_bot_own": cpu_own,
        "cpu_self": cpu_self,
        "cpu_database": cpu_database if database_pid else None,
        "cpu_sending": cpu_sending if database_pid and measuring.replica_pid else None,
        "cpu_replica": cpu_replica,
        "cpu_applying": cpu_applying,
        "reads": reads,
        "round_trips": trips,
        "server_work": work,
        "probes": probes,
        # Where each ran, as the kernel has it (with --bot-cores, apart).
        "cores": {
            "bots": sorted(cores_of(pids)),
            "players": sorted(os.sched_getaffinity(0)),
            "server": sorted(cores_of([database_pid])) if database_pid else None,
            "replica": sorted(cores_of([measuring.replica_pid])) if measuring.replica_pid else None,
        },
    }
    return TimedPlay(figures, rss_samples, own_samples, driver)


class BotsCpu:
    """The CPU of the bot processes from now on: each with its workers (drawing, thinking,
    replays), and their own processes alone, without their workers."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.was = [cpu_seconds(pid) for pid in pids]
        self.own_was = [cpu_seconds(pid, descendants=False) for pid in pids]
        self.loop_was = [loop_cpu_seconds(pid) for pid in pids]

    def loop_since(self) -> float:
        """CPU seconds since it was made of the bots' event loops' threads together."""
        return sum(
            loop_cpu_seconds(pid) - was for pid, was in zip(self.pids, self.loop_was, strict=True)
        )

    def since(self) -> tuple[list[float], float]:
        """CPU seconds since it was made: of each bot with its workers, in the order of its
        pids, and of the bots' own processes together."""
        each = [cpu_seconds(pid) - was for pid, was in zip(self.pids, self.was, strict=True)]
        own = sum(
            cpu_seconds(pid, descendants=False) - was
            for pid, was in zip(self.pids, self.own_was, strict=True)
        )
        return each, own


# The bots' server's processes that send its changes to the players' replica: work the
# players' reading puts on the bots' server (no deployment's bot needs a replica), counted in
# the server's CPU and told apart in the report.
SENDING = ("postgres: walsender",)


class Replica:
    """The CPU of the players' replica (a PostgreSQL server of its own, `pid` its main
    process; None on SQLite) from now on: all of it, and its applying of the bots' changes
    (its startup process replays the WAL its walreceiver is sent). The rest is mostly its
    answers to the players' reads. It is not the bots' server's work, but it runs on the same
    cores as the bots, where SQLite's players read the file inside this process."""

    APPLYING = ("postgres: startup", "postgres: walreceiver")

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.was = self._now()

    def _now(self) -> tuple[float, float]:
        if self.pid is None:
            return 0.0, 0.0
        return cpu_seconds(self.pid), cpu_seconds_titled(self.pid, self.APPLYING)

    def since(self) -> tuple[float | None, float | None]:
        """CPU seconds since it was made: all of the replica's, and its applying's."""
        if self.pid is None:
            return None, None
        now = self._now()
        return now[0] - self.was[0], now[1] - self.was[1]


async def sample_play(
    measuring: Measuring, start: float
) -> tuple[list[int], list[int], list[float]]:
    """Until `--seconds` after `start`: the bots' memory every half second (with their
    workers, and their own processes alone), and the machine's speed every PROBE_EVERY."""
    seconds, pids = measuring.args.seconds, measuring.pids
    loop = asyncio.get_running_loop()
    rss_samples, own_samples = [], []
    probes: list[float] = []
    probed = start
    while loop.time() - start < seconds:
        await asyncio.sleep(min(0.5, max(0.0, seconds - (loop.time() - start))))
        rss_samples.append(rss_kb(*pids))
        own_samples.append(rss_kb(*pids, descendants=False))
        if loop.time() - probed >= PROBE_EVERY:
            probes.append(probe_ms())
            probed = loop.time()
    return rss_samples, own_samples, probes


def shares(
    measuring: Measuring,
    counts_before: dict[int | None, tuple[int, int]],
    counts: dict[int | None, tuple[int, int]],
    cpu_bots: list[float],
) -> list[dict[str, Any]]:
    """Each process's share of the timed play: the actions of the games in the servers on its
    shard (an AI seat's move may be thought out by whichever process claimed it; it is the
    game's), and its CPU."""
    n = measuring.plan.processes
    per_process = []
    for k, (pid, cpu) in enumerate(zip(measuring.pids, cpu_bots, strict=True)):
        mine, mine_before = on_shard(counts, k, n), on_shard(counts_before, k, n)
        per_process.append(
            {
                "shard": k,
                "pid": pid,
                "cpu": cpu,
                "actions": mine[0] - mine_before[0],
                "people_moves": mine[1] - mine_before[1],
            }
        )
    return per_process


async def wind_down(measuring: Measuring, driver: ClockDriver) -> tuple[list[Duty], list[str]]:
    """The last silent person seen through, the players stopped, and (with clocks) a last
    look for duties done twice: what the bots did for every turn the clocks made due."""
    driver.closing.set()
    if measuring.driving is not None:
        # The person silent when the timed play ended is seen through while the others
        # play on (stopped, they would all be late at its jump).
        await asyncio.wait([measuring.driving], timeout=HOLD_S + 3 * ACT_S)
    measuring.bench.stop.set()
    if measuring.players:
        await asyncio.wait(measuring.players, timeout=INTERACTION_WINDOW + 5)
    if measuring.driving is not None:
        await asyncio.sleep(AFTER_S)  # every process's check runs again: a duty done twice
    return await clock_duties(driver, measuring.bench.reader)


async def sample_rss(pids: list[int], loop: asyncio.AbstractEventLoop, seconds: float) -> list[int]:
    """The bots' resident memory every half second for `seconds`."""
    samples = []
    end = loop.time() + seconds
    while loop.time() < end:
        await asyncio.sleep(min(0.5, max(0.0, end - loop.time())))
        samples.append(rss_kb(*pids))
    return samples
