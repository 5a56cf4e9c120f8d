"""Live events for the people's open pages: the emulator's change feed, turned into frames
for each person's sockets.

A frame is made for one person at the moment of the change, and only from what `may_see`
lets through: a socket never carries another person's ephemeral answer or DM, not even the id
of one being deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, web

from sandbox.emulator import Change, DiscordEmulator, User

from .commands import command_tree
from .views import channels_json, may_see, message_json, person_json, view_json

Frame = dict[str, Any]


@dataclass(eq=False)
class Subscriber:
    """One open page: the person it shows, and the frames waiting to be sent to it."""

    person: User
    frames: asyncio.Queue[Frame] = field(default_factory=asyncio.Queue)


class Hub:
    """Every open socket, and the emulator watcher that feeds them."""

    def __init__(
        self, emu: DiscordEmulator, people: list[User], dismissed: dict[int, set[int]] | None = None
    ) -> None:
        self.emu = emu
        self.people = people
        # The private answers each person dismissed: never sent to their page again.
        self.dismissed = dismissed if dismissed is not None else {}
        self.subscribers: list[Subscriber] = []
        self.sockets: set[web.WebSocketResponse] = set()

    def on_change(self, change: Change) -> None:
        """The emulator's watcher: queue each open page's frame for this change, if any."""
        shared: Frame | None = None
        for subscriber in self.subscribers:
            person = subscriber.person
            frames: list[Frame] = []
            if change.kind in ("message", "delete") and change.message is not None:
                if not may_see(self.emu, person, change.message):
                    continue
                if change.message.id in self.dismissed.get(person.id, ()):
                    continue
                if change.kind == "delete":
                    frames.append(
                        {
                            "type": "delete",
                            "id": str(change.message.id),
                            "channel_id": str(change.message.channel_id),
                        }
                    )
                else:
                    shared = shared or message_json(self.emu, change.message)
                    frames.append({"type": "message", "message": shared})
            elif change.kind == "channel":
                frames.append({"type": "channels", "channels": channels_json(self.emu)})
            elif change.kind == "commands" or (
                change.kind == "user" and change.user_id == person.id
            ):
                locale = self.emu.locale_of(person)
                frames.append(
                    {"type": "commands", "commands": command_tree(self.emu, locale, person)}
                )
            if change.kind == "user":
                people = [person_json(self.emu, p) for p in self.people]
                frames.append({"type": "people", "people": people})
            for frame in frames:
                subscriber.frames.put_nowait(frame)

    async def serve(self, request: web.Request, person: User) -> web.WebSocketResponse:
        """A person's socket: their whole view first, then their live events, until closed."""
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        subscriber = Subscriber(person)
        # Subscribed and viewed in one step, with no wait between: no change falls in a gap.
        self.subscribers.append(subscriber)
        view = view_json(self.emu, self.people, person, self.dismissed.get(person.id))
        subscriber.frames.put_nowait({"type": "view", **view})
        self.sockets.add(socket)
        sending = asyncio.create_task(self._send(socket, subscriber))
        try:
            async for _ in socket:
                pass  # the page acts through the HTTP API; it sends nothing here
        finally:
            self.subscribers.remove(subscriber)
            self.sockets.discard(socket)
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sending
        return socket

    @staticmethod
    async def _send(socket: web.WebSocketResponse, subscriber: Subscriber) -> None:
        with contextlib.suppress(ConnectionError):
            while not socket.closed:
                await socket.send_json(await subscriber.frames.get())

    async def close(self, app: web.Application | None = None) -> None:
        """Close every open page's socket (the server is shutting down)."""
        for socket in list(self.sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")
