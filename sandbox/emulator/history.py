"""The history: every accepted answer of the bot kept as a `Record`, every request as a
`RequestLog`, and the ways tests look at them (`messages`, `wait_for_message`).

Recording is where the other parts meet: each record wakes the waiters and is told to the
change feed, so this part builds on `Waiting` and `ChangeFeed`. One of the parts
`DiscordEmulator` is built from (see `server` for why parts share one object).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from .feed import ChangeFeed
from .interactions import InteractionState
from .models import (
    MESSAGE_KINDS,
    Channel,
    Record,
    RequestLog,
    StoredMessage,
    User,
    Visibility,
    now,
)
from .replies import describe, matches
from .waiting import Waiting


class History(Waiting, ChangeFeed):
    """What the bot did, in order, and the filters tests read it through."""

    # Set by `DiscordEmulator.__init__`.
    requests: list[RequestLog]
    messages_by_id: dict[int, StoredMessage]

    # ------------------------------------------------------------------ looking

    def messages(
        self,
        *,
        visibility: str | Visibility | None = None,
        kind: str | Iterable[str] | None = None,
        channel: Channel | int | None = None,
        user: User | int | None = None,
        since: int = 0,
    ) -> list[Record]:
        """Records of messages the bot sent or edited, filtered; `since` is a record seq.

        A deferral's "thinking…" placeholder is left out: people read what replaces it.
        """
        channel_id = channel.id if isinstance(channel, Channel) else channel
        user_id = user.id if isinstance(user, User) else user
        return [
            r
            for r in self.records
            if r.seq > since
            and r.kind in MESSAGE_KINDS
            and r.kind != "deferred"
            and matches(r, visibility, kind, channel_id, user_id)
        ]

    async def wait_for_message(
        self,
        predicate: Callable[[Record], bool] = lambda record: True,
        *,
        since: int = 0,
        timeout: float = 10.0,
        visibility: str | Visibility | None = None,
        kind: str | Iterable[str] | None = None,
        channel: Channel | int | None = None,
        user: User | int | None = None,
    ) -> Record:
        """The first message record after `since` that passes the filters and `predicate`."""

        def found() -> Record | None:
            candidates = self.messages(
                visibility=visibility, kind=kind, channel=channel, user=user, since=since
            )
            return next((r for r in candidates if predicate(r)), None)

        return await self.wait_for(found, timeout, message="no such message arrived")

    @property
    def last_seq(self) -> int:
        return self.records[-1].seq if self.records else 0

    def message(self, message_id: int) -> StoredMessage:
        return self.messages_by_id[message_id]

    @staticmethod
    def describe(records: Iterable[Record]) -> str:
        return describe(records)

    # ------------------------------------------------------------------ recording

    def record(
        self,
        kind: str,
        request: web.Request,
        *,
        message: StoredMessage | None = None,
        visibility: Visibility | None = None,
        channel_id: int | None = None,
        interaction: InteractionState | None = None,
        payload: dict[str, Any] | None = None,
        choices: list[dict[str, Any]] | None = None,
    ) -> Record:
        loop = asyncio.get_running_loop()
        record = Record(
            seq=self.last_seq + 1,
            kind=kind,
            method=request.method,
            path=request.path,
            visibility=visibility or (message.visibility if message else Visibility.public()),
            channel_id=channel_id
            if channel_id is not None
            else (message.channel_id if message else None),
            message_id=message.id if message else None,
            interaction_id=interaction.id if interaction else None,
            content=message.content if message else "",
            embeds=tuple(message.embeds) if message else (),
            components=message.buttons if message else (),
            attachments=tuple(message.attachments) if message else (),
            payload=payload or {},
            at=loop.time(),
            when=now(),
            choices=tuple(choices or ()),
            layout=tuple(message.components) if message and message.is_layout else (),
        )
        self.records.append(record)
        self.touch()
        self._announce(record, message)
        return record

    def log_request(self, method: str, path: str, status: int) -> None:
        self.requests.append(RequestLog(method, path, status, asyncio.get_running_loop().time()))

    def requests_to(self, method: str, fragment: str) -> list[RequestLog]:
        return [r for r in self.requests if r.method == method and fragment in r.path]
