"""Activity and waiting: how tests wait on the bot by events rather than by sleeps.

Every request the bot makes, every gateway frame and every user action calls `touch`, which
wakes all waiters so they re-check their condition at once; a condition outside the emulator
(the database) is re-checked at least every 50 ms. `settle` waits until the bot is done: by
the bots' own idle checks when they run in this process, by a quiet spell otherwise.

One of the parts `DiscordEmulator` is built from (see `server` for why parts share one object).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

from .interactions import InteractionState
from .models import Record
from .replies import describe

T = TypeVar("T")
# A condition: falsy (None, False, an empty list) while unmet, else what the wait returns.
Predicate = Callable[[], T | Awaitable[T | None] | None]


def _running_tasks() -> str:
    """The names of the tasks still running, to say what a bot was busy with."""
    me = asyncio.current_task()
    return ", ".join(sorted(t.get_name() for t in asyncio.all_tasks() if t is not me))


class Waiting:
    """`touch` on every activity; `wait_for` a condition; `settle` until the bot is done."""

    # Set by `DiscordEmulator.__init__` (and `start`, for `_last_activity`).
    records: list[Record]
    interactions: dict[int, InteractionState]
    in_flight: int
    idle_checks: list[Callable[[], Awaitable[None]]]
    _activity: asyncio.Event
    _last_activity: float

    def touch(self) -> None:
        """Something happened: wake every waiter so it re-checks its condition."""
        self._last_activity = asyncio.get_running_loop().time()
        event, self._activity = self._activity, asyncio.Event()
        event.set()

    async def _wait_activity(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._activity.wait(), timeout)

    async def wait_for(
        self, predicate: Predicate[T], timeout: float = 10.0, *, message: str = ""
    ) -> T:
        """Wait until `predicate()` is truthy (re-checked on every request the bot makes, and at
        least every 50 ms for conditions outside the emulator such as the database)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            outcome = predicate()
            value = await outcome if inspect.isawaitable(outcome) else outcome
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"condition not met within {timeout:.1f}s"
                    + (f": {message}" if message else "")
                    + f"\nlast records:\n{describe(self.records[-8:])}"
                )
            await self._wait_activity(min(0.05, remaining))

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until the bot has finished what it was doing, and no deferred reply still shows
        "thinking…" (a user sees such a reply as unfinished); bounded by `timeout`.

        For bots running in this process, registered in `idle_checks`, that is an event: each
        says when it has nothing under way, then no request of theirs is in flight. A bot in
        another process has no such event: then it is a guess, no request for `quiet` seconds.
        """
        if self.idle_checks:
            await self._until_idle(timeout)
        else:
            await self._until_quiet(quiet, timeout)

    def _thinking(self) -> bool:
        return any(s.placeholder_pending and not s.expired for s in self.interactions.values())

    async def _until_idle(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for check in list(self.idle_checks):
                try:
                    await asyncio.wait_for(check(), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    raise TimeoutError(
                        f"the bot was still busy after {timeout:.1f}s: {_running_tasks()}"
                    ) from None
            if self.in_flight == 0 and not self._thinking():
                return
            if loop.time() >= deadline:
                raise TimeoutError(
                    f"after {timeout:.1f}s the bot is idle but {self.in_flight} request(s) are "
                    f"in flight or a reply still shows 'thinking…'"
                )
            await self._wait_activity(min(0.05, deadline - loop.time()))

    async def _until_quiet(self, quiet: float, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle_for = loop.time() - self._last_activity
            if self.in_flight == 0 and idle_for >= quiet and not self._thinking():
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot was still busy after {timeout:.1f}s")
            await self._wait_activity(max(0.005, min(quiet - idle_for, deadline - loop.time())))
