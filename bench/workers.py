"""What handing a picture to a drawing worker costs the bot, beside what drawing it costs.

    .venv/bin/python bench/workers.py [--calls 2000] [--runs 3]

The bot draws every board in a worker process (`hvbot.infra.workers`), and each picture is a
call out and an answer back: a High Voltage board's view pickled (a few kB) out, its PNG (75-115
kB) back. This times `--calls` boards of a seeded game, three in hand at a time as the bot's
drawing workers take them (one worker, two ahead), through two ways of handing them over:

- `sockets`: the bot's way (`hvbot.infra.worker_sockets`), the event loop writing each call on
  a worker's socket and reading its answer when the socket has it;
- `executor`: `concurrent.futures.ProcessPoolExecutor` run from the event loop, which the bot
  used before: a thread of the calling process feeds its queue of calls, another reads the
  answers.

For each, the calling process's CPU per call (all its threads: the cost to the bot's process,
where its answers to Discord wait for the same interpreter lock) and the wall time per call,
each run in turn with the other so that both meet the same load of the machine, `--runs`
times; the worker's own drawing is the same in both and is not in the calling process's CPU.

Prints a table, then one JSON object with the medians as its last line.
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
import functools  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import pickle  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Awaitable, Callable  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from typing import Any  # noqa: E402

from engine.core import State  # noqa: E402
from games import find_game, register_all  # noqa: E402
from hvbot.infra import workers  # noqa: E402
from hvbot.infra.workers import WATCH_S, Workers  # noqa: E402
from hvbot.messages.presenters import presenter_for  # noqa: E402
from hvbot.plugins import in_a_worker, worker_modules  # noqa: E402
from hvbot.runtime.client import WORKER_MODULES  # noqa: E402

register_all()  # the games this benchmark draws, as `bot.py` registers them

IN_HAND = 3  # calls in hand at a time: the bot's one drawing worker and PICTURES_AHEAD


def positions(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """The public views of `count` positions of a seeded High Voltage game of three, played
    again from its deal whenever it ends."""
    rules = find_game("high-voltage")
    rng = random.Random(seed)
    views: list[dict[str, Any]] = []
    state: State | None = None
    while len(views) < count:
        if state is None or state.is_terminal():
            state = rules.new_state(3, rng.randrange(1 << 30))
        views.append(state.view(None))
        state.apply(state.sample_action(rng))
    return views


def _unpickled_call(packed: bytes) -> Any:
    """What the executor's workers run: the call pickled once by the caller, as the bot does."""
    func, args, kwargs = pickle.loads(packed)
    return func(*args, **kwargs)


async def timed(call: Callable[[dict[str, Any]], Awaitable[bytes]], views: list[Any]) -> dict:
    """The calling process's CPU and the wall time per call, `IN_HAND` calls at a time."""
    turns = asyncio.Semaphore(IN_HAND)

    async def one(view: Any) -> int:
        async with turns:
            return len(await call(view))

    cpu, wall = time.process_time(), time.perf_counter()
    sizes = await asyncio.gather(*(one(view) for view in views))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert min(sizes) > 10_000, "every board came back as a picture"
    return {"cpu_ms": 1000 * cpu / len(views), "wall_ms": 1000 * wall / len(views)}


async def measure(calls: int, runs: int) -> dict[str, list[dict[str, float]]]:
    views = positions(calls)
    names = ["Ada", "Bo", "Cy"]
    presenter = presenter_for("high-voltage")
    preload = (*WORKER_MODULES, *worker_modules())
    sockets = Workers(1, prepare=in_a_worker(), preload=preload, ahead=IN_HAND - 1)
    # Its worker started as the bot's are (the games known, its priority lowered, its upkeep).
    start = functools.partial(workers._start_worker, os.getpid(), WATCH_S, in_a_worker(), None)
    executor = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("forkserver"), initializer=start
    )
    loop = asyncio.get_running_loop()

    def by_sockets(view: Any) -> Awaitable[bytes]:
        return sockets.run(presenter.board_png, view, names)

    def by_executor(view: Any) -> Awaitable[bytes]:
        packed = pickle.dumps((presenter.board_png, (view, names), {}), protocol=5)
        return loop.run_in_executor(executor, _unpickled_call, packed)

    found: dict[str, list[dict[str, float]]] = {"sockets": [], "executor": []}
    try:
        # Both workers started and warmed up (their sprites and words drawn once) untimed.
        await timed(by_sockets, views[:50])
        await timed(by_executor, views[:50])
        for _ in range(runs):
            found["sockets"].append(await timed(by_sockets, views))
            found["executor"].append(await timed(by_executor, views))
    finally:
        sockets.close()
        executor.shutdown(wait=False, cancel_futures=True)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="boards drawn a run")
    parser.add_argument("--runs", type=int, default=3, help="runs of each way, in turn")
    args = parser.parse_args(argv)
    found = asyncio.run(measure(args.calls, args.runs))
    print(f"{args.calls} High Voltage boards a run, {IN_HAND} in hand at a time, one worker")
    print(f"  {'way':10} {'run':>4} {'caller CPU ms/call':>19} {'wall ms/call':>13}")
    for way, runs in found.items():
        for k, run in enumerate(runs, 1):
            print(f"  {way:10} {k:4d} {run['cpu_ms']:19.3f} {run['wall_ms']:13.3f}")
    medians = {
        way: {key: round(statistics.median(r[key] for r in runs), 3) for key in runs[0]}
        for way, runs in found.items()
    }
    ratio = medians["executor"]["cpu_ms"] / medians["sockets"]["cpu_ms"]
    print(f"  the caller's CPU a call: the executor's {ratio:.1f}x the sockets'")
    print(json.dumps({"calls": args.calls, "runs": args.runs, **medians}))


if __name__ == "__main__":
    main()
