"""Where slow, pure work runs: in worker processes of their own, so it never slows the event
loop that answers Discord.

Drawing is pure Python around Pillow, and an AI seat's thinking is pure Python. In threads of
the bot's process they share the interpreter's lock with the event loop, and at a few hundred
games the loop got the lock a third of the time: answers waited seconds behind boards being
drawn. A worker process works on another core, and the loop only sends it what the work needs
(a game's view, never more than the picture shows or the AI seat may know) and reads back the
answer. The functions sent must be importable by name (a presenter's methods are: a presenter
is sent as its game and language, see `Presenter.__reduce__`), and so must their arguments.

Three kinds of work, three sets of workers, so nothing a game waits for waits behind a long job:
- `draw`: the pictures after every move (boards, cards, secrets, results), in the bot's
  DRAWING_PROCESSES workers, warmed up as they start;
- `in_background`: an AI seat's thinking (up to its time budget), in one worker of its own,
  started when first needed: a game waits for its AI seat's move;
- `when_free`: a finished game's replay (a second or two of drawing), in another worker of its
  own, started when first needed. Nobody waits for a replay from one move to the next, and a
  replay shared the AI's worker before: when several games ended at once, or people asked for
  replays, the AI seats of every other game waited seconds behind them.

`processes=0` works in threads of this process, as before: the tests use it, since every bot
they start would otherwise start its own workers.

A worker process starts as a fresh interpreter, which knows nothing the bot's process learnt as
it started (the games it registered, say). Whoever starts the workers hands them `prepare`, a
call each worker makes first, so this module needs to know nothing of what it is (the bot hands
its registered games: `hvbot.plugins.in_a_worker`).

Each worker is forked from one server process (multiprocessing's forkserver, one per process
that starts workers; where there is none, Windows, each worker is spawned and imports what it
needs itself), which imports the `preload` modules once before its first fork: every
worker, the first drawing one and those started later for thinking, replays or after a crash,
starts with them imported. Importing them was most of a worker's start (a game's presenter
brings discord.py and aiohttp, half a second of CPU), done again by each worker. The server
starts with the first pool started in a process, so the first pool's `preload` is every pool's
(the bot starts all of its pools with the same); a module not preloaded is imported by the
worker that needs it, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import select
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any

from hvbot.infra import memory
from hvbot.infra.worker_sockets import WorkerSockets, WorkerStopped

log = logging.getLogger(__name__)
# Workers run at a lower priority than the bot: an answer due within Discord's three seconds
# comes before a picture, and on a busy machine a burst of drawing must not take the cores
# from the event loop.
NICENESS = 10
WATCH_S = 2.0  # how often a worker checks on the bot it works for, and gives back free memory
PICTURES_AHEAD = 2  # pictures handed to the drawing workers beyond one each (see `Workers`)


def _start_worker(
    bot_pid: int,
    watch_s: float,
    prepare: Callable[[], None] | None,
    warm_up: Callable[[], None] | None,
) -> None:
    # A worker starts as a fresh interpreter: `prepare` makes it know what the bot's process
    # knows (the games it registered) before any work, the warm-up included.
    if prepare is not None:
        prepare()
    with contextlib.suppress(OSError):  # not allowed here: work at the same priority
        os.nice(NICENESS)
    # Ctrl-C in a terminal signals every process of the group: the bot, which closes its
    # pools, and each worker, which would otherwise die mid-wait printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending = _ending_of(bot_pid)  # now, while the bot that asked for this worker still runs
    threading.Thread(target=_look_after, args=(bot_pid, watch_s, ending), daemon=True).start()
    if warm_up is not None:
        warm_up()


def _look_after(bot_pid: int, watch_s: float, ending: int | None) -> None:
    """A worker's own upkeep, in a thread beside its work, every `watch_s` seconds.

    A worker whose bot was killed learns it from its socket only once the call in hand (a
    replay, seconds of drawing) is done: it ends itself once the bot is gone, at once where
    the system says when a process ends (`ending`, the bot's pidfd on Linux, turns readable),
    else at its next look, rather than working and holding its memory beside the bot started
    in its place. And it gives back the pages its work left free in its heap (see
    `hvbot.infra.memory.trim`), busy or not: a worker that goes quiet gives back what its last
    pictures left too."""
    while True:
        if ending is None:
            time.sleep(watch_s)
        elif select.select([ending], [], [], watch_s)[0]:
            os._exit(0)
        try:
            os.kill(bot_pid, 0)
        except (ProcessLookupError, PermissionError):  # gone, or its number taken by another
            os._exit(0)
        memory.trim()


def _ending_of(pid: int) -> int | None:
    """A file descriptor that turns readable when process `pid` ends, where there is one."""
    if not hasattr(os, "pidfd_open"):  # Linux 5.3 and later only
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:  # gone already (the next look sees it), or the kernel has no pidfd
        return None


class Turns:
    """Who of the calls waiting for a worker goes next: the one due first.

    A call is due `leeway` seconds after it asks for its turn; among calls due at the same
    moment, the first to ask goes first. At most `at_once` calls have their turn at a time."""

    def __init__(self, at_once: int) -> None:
        self._free = at_once
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, leeway: float) -> AsyncIterator[None]:
        if self._free and not self._waiting:
            self._free -= 1
        else:
            loop = asyncio.get_running_loop()
            given: asyncio.Future[None] = loop.create_future()
            heapq.heappush(self._waiting, (loop.time() + leeway, next(self._order), given))
            try:
                await given
            except asyncio.CancelledError:
                if given.done() and not given.cancelled():  # given the turn as it was cancelled
                    self._pass_on()
                raise
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        while self._waiting:
            _, _, given = heapq.heappop(self._waiting)
            if not given.done():  # not cancelled while it waited
                given.set_result(None)
                return
        self._free += 1


class Workers:
    """Runs pure functions in `processes` worker processes (0: in threads of this process).

    Each worker process first runs `prepare` (picklable: a function importable by name, or a
    `functools.partial` of one), then `warm_up`; in threads only `warm_up` runs, by `start`.
    The `preload` modules are imported once, by the server the workers are forked from (see
    the module's docstring), so each worker starts with them. Every `watch_s` seconds a worker
    looks after itself (`_look_after`).

    A worker takes every call it is handed (`hvbot.infra.worker_sockets`), in the order it
    comes, and works through them whatever the event loop does. So the workers are handed at
    most `ahead` calls beyond one each; the others wait here for their turn (`Turns`), the one due
    first going first (`run_within`). A few ahead keep the workers busy while the loop is
    elsewhere; and when the loop is held up (a burst of answers, a slow moment of the
    machine) only those few results wait for it, not every picture the workers could draw
    meanwhile, each 75-115 kB."""

    def __init__(
        self,
        processes: int,
        *,
        prepare: Callable[[], None] | None = None,
        warm_up: Callable[[], None] | None = None,
        ahead: int = 0,
        preload: Sequence[str] = (),
        watch_s: float = WATCH_S,
    ) -> None:
        if processes < 0 or ahead < 0:
            raise ValueError("processes and ahead must be 0 or more")
        self.processes = processes
        self._watch_s = watch_s
        self._prepare = prepare
        self._warm_up = warm_up
        self._preload = tuple(preload)
        self._pool: WorkerSockets | None = None
        self._turns = Turns(processes + ahead)

    def _start(self) -> WorkerSockets:
        if self._pool is None:
            # Not fork: the bot's process has threads (aiosqlite's, asyncio's), and a forked
            # child would inherit whatever locks they held.
            forkserver = "forkserver" in multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if forkserver else "spawn")
            if self._preload and forkserver:
                # Heeded only by a server not started yet: the first pool's is every pool's.
                # "__main__" is multiprocessing's own default, kept. (Where there is no
                # forkserver, Windows, each worker is spawned and imports what it needs.)
                context.set_forkserver_preload(["__main__", *self._preload])
            start = functools.partial(
                _start_worker, os.getpid(), self._watch_s, self._prepare, self._warm_up
            )
            self._pool = WorkerSockets(self.processes, context, start)
        return self._pool

    async def start(self) -> None:
        """Be ready at once: a worker started (which warms it up), or in threads the warm-up
        (the picture pieces) done in this process."""
        if self.processes:
            await self.run(os.getpid)
        elif self._warm_up is not None:
            await asyncio.to_thread(self._warm_up)

    def run(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
        """`func(*args, **kwargs)`, run off the event loop.

        For a worker process the call is pickled at once and its arguments let go: at a few
        hundred games every board waits its turn behind others, and a game's view pickled is
        a few kB where the view itself is tens of kB of dicts. (Hence `run_within`'s coroutine
        handed back, not awaited here: this frame would hold them.)"""
        return self.run_within(0.0, func, *args, **kwargs)

    async def run_within(
        self, leeway: float, func: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Any:
        """`run`, for a call that lets the others asked for within `leeway` seconds after it
        go first."""
        if not self.processes:
            return await asyncio.to_thread(func, *args, **kwargs)
        call = pickle.dumps((func, args, kwargs), protocol=5)
        del args, kwargs
        async with self._turns.turn(leeway):
            return await self._run_now(call)

    async def _run_now(self, call: bytes) -> Any:
        try:
            return await self._start().call(call)
        except WorkerStopped:
            # A worker died (killed for memory, say): another starts, and runs it once more.
            log.warning("a worker process stopped; starting another")
            return await self._start().call(call)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


# The bot sets its workers at start-up; until then (and in code that runs without a bot, such as
# the replay benchmark and the service's tests) the work is done in threads.
_pictures = Workers(0)
_background = Workers(0)
_replays = Workers(0)


def use(pictures: Workers, background: Workers, replays: Workers | None = None) -> None:
    """Draw with `pictures`, think on `background` and draw replays on `replays` from now on
    (the bot calls this at start-up; without `replays`, they are drawn in threads)."""
    global _pictures, _background, _replays
    _pictures, _background, _replays = pictures, background, replays or Workers(0)


# These two hand back `Workers.run`'s coroutine rather than awaiting it, so no frame of theirs
# holds the arguments while the work waits (see `Workers.run`).


def draw(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
    """`func(*args, **kwargs)` drawn the way the bot was set up to draw (see `Workers`)."""
    return _pictures.run(func, *args, **kwargs)


def in_background(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
    """`func(*args, **kwargs)` for long work a game waits for (an AI's thinking), beside the
    pictures, so they never wait behind it."""
    return _background.run(func, *args, **kwargs)


def when_free(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
    """Long work no game waits for (a replay), in a worker of its own: no AI seat's thinking
    ever waits behind it."""
    return _replays.run(func, *args, **kwargs)
