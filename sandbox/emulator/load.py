"""An emulator for load runs: many users acting at once, for minutes, without the bookkeeping
that makes the test helpers convenient but slow at scale.

`DiscordEmulator.slash` and `.click` wait for the bot to settle and then collect every record
since the action, scanning the whole history each time; with hundreds of games in one run that
scan, not the bot, would dominate. `LoadEmulator` adds the pieces a load run needs instead:

    emu = await LoadEmulator(channel_names=[f"game-{i}" for i in range(200)]).start()
    emu.on_record(listener)                     # called with every accepted Record, at once
    state = await emu.send_slash(ada, "game new", channel=channel, game="high-voltage")
    state = await emu.send_click(bo, "lobby:1:join", message_id=lobby_id)
    if await emu.acknowledged(state):           # False: not answered within Discord's window
        print(state.ack_latency)

It also bounds what a long run keeps: only the latest `keep_records` records, request logs and
resumable gateway frames (so a dropped connection cannot be resumed across the trimmed part),
and, unless `keep_files`, no file bytes once a message is recorded (sizes and names stay).
Everything else, including every check on what the bot sends, is the plain emulator's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .errors import EmulatorUsageError
from .interactions import InteractionState
from .models import Attachment, Channel, Record, User
from .server import DiscordEmulator

RecordListener = Callable[[Record], None]


class LoadEmulator(DiscordEmulator):
    """A `DiscordEmulator` whose users act without waiting, with bounded history."""

    def __init__(self, *, keep_records: int = 2000, keep_files: bool = False, **options: Any):
        super().__init__(**options)
        self.keep_records = keep_records
        self.keep_files = keep_files
        self._listeners: list[RecordListener] = []

    def on_record(self, listener: RecordListener) -> None:
        """Call `listener(record)` for every record, in the request that made it (keep it
        quick: it runs inside the emulator's answer to the bot)."""
        self._listeners.append(listener)

    # ------------------------------------------------------------------ bounded history

    def record(self, kind: str, request: web.Request, **details: Any) -> Record:
        found = super().record(kind, request, **details)
        for listener in self._listeners:
            listener(found)
        if len(self.records) > 2 * self.keep_records:
            del self.records[: -self.keep_records]
        for session in self.gateway.shards.values():
            if len(session.sent) > 2 * self.keep_records:
                del session.sent[: -self.keep_records]
        if not self.keep_files and found.message_id is not None:
            self._drop_file_bytes(found.message_id)
        return found

    def log_request(self, method: str, path: str, status: int) -> None:
        super().log_request(method, path, status)
        if len(self.requests) > 2 * self.keep_records:
            del self.requests[: -self.keep_records]

    def _drop_file_bytes(self, message_id: int) -> None:
        message = self.messages_by_id.get(message_id)
        if message is None or not any(a.data for a in message.attachments):
            return
        message.attachments = [
            Attachment(a.id, a.filename, b"", a.content_type, a.description)
            for a in message.attachments
        ]

    # ------------------------------------------------------------------ acting without waiting

    async def send_slash(
        self, user: User, command: str, *, channel: Channel, **options: Any
    ) -> InteractionState:
        """Send `/command` as `user` in `channel`; return at once (see `acknowledged`)."""
        data = self._command_data(command, options)
        registered = self._find_command(data["name"], channel.guild_id)[0]
        state = self._new_interaction(2, user, channel.id, command=registered)
        await self.gateway.dispatch("INTERACTION_CREATE", self._interaction_payload(state, data))
        return state

    async def send_click(
        self, user: User, custom_id: str, *, message_id: int, late: bool = False
    ) -> InteractionState:
        """Press button `custom_id` on message `message_id` as `user`; return at once.

        Refuses, like `DiscordEmulator.click`, what the user could not press: a message they
        cannot see, a button it does not have (any more), a disabled button.

        `late`: the click reaches the bot as if Discord's whole window had gone by on the way
        (a slow network, a bot far behind), so whatever it answers comes too late (10062).
        """
        stored = self.messages_by_id.get(message_id)
        if stored is None:
            raise EmulatorUsageError(f"there is no message {message_id}")
        if stored.visibility.kind != "public" and stored.visibility.user_id != user.id:
            raise EmulatorUsageError(
                f"{user.name} cannot see message {stored.id} ({stored.visibility})"
            )
        button = next((b for b in stored.buttons if b.custom_id == custom_id), None)
        if button is None or button.disabled:
            have = [b.custom_id for b in stored.buttons if not b.disabled]
            raise EmulatorUsageError(f"message {stored.id} has no button {custom_id!r}: {have}")
        state = self._new_interaction(3, user, stored.channel_id, source=stored)
        if late:
            state.created_at -= self.interaction_window
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction_payload(state, data, stored)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return state

    async def acknowledged(self, state: InteractionState) -> bool:
        """Wait for the bot's callback; False if it did not come within Discord's window (the
        user would see 'The application did not respond')."""
        try:
            await asyncio.wait_for(state.answered.wait(), self.interaction_window + 0.5)
        except TimeoutError:
            state.expired = True
        return state.acknowledged_at is not None and not state.expired
