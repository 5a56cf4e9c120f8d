"""The change feed: what people would see change (a message shown, edited or gone, a thread
started, commands registered, a user's language), told at once to whoever watches.

One of the parts `DiscordEmulator` is built from (see `server` for why parts share one
object): the world, the history and the REST routes report changes here; the sandbox's page
and tests that wait on what people see listen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator

from .models import MESSAGE_KINDS, Change, Record, StoredMessage

Watcher = Callable[[Change], None]


class ChangeFeed:
    """Calls every watcher with every `Change`, in order, inside the request that made it."""

    # Set by `DiscordEmulator.__init__`.
    watchers: list[Watcher]

    def notify(self, change: Change) -> None:
        """Tell every watcher, at once and in order, inside the request that made the change
        (a watcher must be quick and must not fail: its failure fails that request)."""
        for watcher in list(self.watchers):
            watcher(change)

    @contextlib.contextmanager
    def watch(self) -> Iterator[asyncio.Queue[Change]]:
        """Every change from now on, queued, while inside (`with emu.watch() as changes:`,
        then `await changes.get()`): for tests and clients that wait on what people see."""
        queue: asyncio.Queue[Change] = asyncio.Queue()
        self.watchers.append(queue.put_nowait)
        try:
            yield queue
        finally:
            self.watchers.remove(queue.put_nowait)

    def _announce(self, record: Record, message: StoredMessage | None) -> None:
        """The change a record means for people: a message shown, changed or gone, or a
        thread started."""
        if record.kind == "delete" and message is not None:
            self.notify(Change("delete", message=message, channel_id=message.channel_id))
        elif record.kind in MESSAGE_KINDS and message is not None:
            self.notify(Change("message", message=message, channel_id=message.channel_id))
        elif record.kind == "thread_create":
            self.notify(Change("channel", channel_id=record.channel_id))
