"""Requests gathered into one statement while the one before is under way.

Every post a bot makes is taken right before it is sent and marked made right after (see
`hvbot.store.duties`): two small statements a post, each one round trip to a database server.
Under load many games post at once, so they go in groups (takes and marks together): the
first request is sent at once, and those that come while it is under way wait for it to end
and then go together, in one statement (as do those asked in the same turn of the event loop
as the first). Nothing waits for a group to fill, so a quiet bot answers as fast as before
and a busy one makes fewer round trips (PostgreSQL commits its transactions in groups for the
same reason). Each request still gets its own answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

I = TypeVar("I")  # noqa: E741 - a request
R = TypeVar("R")  # its answer

MOST = 200  # requests in one statement at most


class Gathered(Generic[I, R]):
    """Sends requests `I` in groups through `send`, which answers each in order (one `R` per
    request) or raises, which every request of the group then raises."""

    def __init__(self, send: Callable[[Sequence[I]], Awaitable[Sequence[R]]]) -> None:
        self._send = send
        self._waiting: list[tuple[I, asyncio.Future[R]]] = []
        self._sending: asyncio.Task[None] | None = None

    async def __call__(self, request: I) -> R:
        answer: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, answer))
        if self._sending is None:
            self._sending = asyncio.create_task(self._send_all())
        return await answer

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                group, self._waiting = self._waiting[:MOST], self._waiting[MOST:]
                try:
                    answers = await self._send([request for request, _ in group])
                except asyncio.CancelledError:
                    for _, answer in group + self._waiting:
                        answer.cancel()  # the bot is stopping: nobody is left to wait
                    self._waiting = []
                    raise
                except Exception as exc:  # each request raises what its group met
                    for _, answer in group:
                        if not answer.done():
                            answer.set_exception(exc)
                    continue
                for (_, answer), value in zip(group, answers, strict=True):
                    if not answer.done():
                        answer.set_result(value)
        finally:
            self._sending = None
