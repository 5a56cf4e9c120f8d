"""One person at the sandbox's page, through the page's own API and nothing else: the JSON
view, the WebSocket of what they see, and the HTTP actions the page itself sends (a slash
command, a button press, the bot's autocomplete).

What the person sees is only what their socket carried: messages are kept as the frames upsert
them, so a test reads exactly what the page would draw. Every wait reads frames until what is
awaited shows, with a deadline; nothing sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp

T = TypeVar("T")
Message = dict[str, Any]
BUTTON = 2  # a Discord component of type 2 is a button
TEXT_DISPLAY = 10  # a card's words (Components V2)


@dataclass(frozen=True)
class Button:
    """A button as the page draws it under a message."""

    label: str
    custom_id: str
    disabled: bool


def _parts(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message, depth first: a card's (Components V2) are nested in
    containers, sections (and their accessory) and rows."""
    for part in components:
        yield part
        yield from _parts(part.get("components") or [])
        if isinstance(part.get("accessory"), dict):
            yield part["accessory"]


def buttons(message: Message) -> list[Button]:
    """The message's buttons with a custom_id, in the order shown (in a card too)."""
    return [
        Button(str(item.get("label") or ""), item["custom_id"], bool(item.get("disabled")))
        for item in _parts(message.get("components") or [])
        if item.get("type") == BUTTON and "custom_id" in item
    ]


def live_buttons(message: Message) -> list[Button]:
    """The buttons of the message that can still be pressed."""
    return [b for b in buttons(message) if not b.disabled]


def text_of(message: Message) -> str:
    """Every word the page shows of a message: its text, its embeds, its buttons' labels."""
    parts = [message.get("content") or ""]
    parts += [
        str(item.get("content") or "")
        for item in _parts(message.get("components") or [])
        if item.get("type") == TEXT_DISPLAY
    ]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            parts += [field.get("name") or "", field.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += [b.label for b in buttons(message)]
    return "\n".join(p for p in parts if p)


def pictures(message: Message) -> list[str]:
    """The addresses (relative to the page) of the message's attached pictures."""
    return [
        a["url"]
        for a in message.get("attachments") or []
        if str(a.get("content_type") or "").startswith("image/")
    ]


class PagePerson:
    """A person with the page open: their view, kept up to date from their socket."""

    def __init__(
        self, http: aiohttp.ClientSession, url: str, socket: aiohttp.ClientWebSocketResponse
    ) -> None:
        self.http = http
        self.url = url  # the page's address, ending with "/"
        self.socket = socket
        self.view: dict[str, Any] = {}
        self.messages: dict[str, Message] = {}  # by id, in the order they first arrived
        self.shown: list[Message] = []  # every version of every message the page was sent
        self.frames = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(
        cls, http: aiohttp.ClientSession, url: str, name: str
    ) -> AsyncIterator[PagePerson]:
        """The page opened as the person called `name`, with its first view drawn."""
        async with http.get(f"{url}sandbox/api/view") as answer:
            people = (await answer.json())["people"]
        found = [p["id"] for p in people if p["name"] == name]
        assert found, f"the page has no person {name!r}: {people}"
        ident = found[0]
        async with http.ws_connect(f"{url}sandbox/ws", params={"person": ident}) as socket:
            person = cls(http, url, socket)
            await person.wait(lambda: person.view or None, "the page's first view", 30)
            yield person

    # ------------------------------------------------------------------ what the page shows

    @property
    def id(self) -> str:
        return str(self.view["person"]["id"])

    @property
    def name(self) -> str:
        return str(self.view["person"]["name"])

    def channel_id(self, name: str) -> str:
        """A text channel of the server, by name."""
        return next(
            c["id"] for c in self.view["channels"] if c["kind"] == "text" and c["name"] == name
        )

    def threads(self, parent_id: str) -> list[dict[str, Any]]:
        return [c for c in self.view["channels"] if c.get("parent_id") == parent_id]

    def in_channel(self, channel_id: str) -> list[Message]:
        """The channel's messages, oldest first, as the page lists them."""
        return [m for m in self.messages.values() if m["channel_id"] == channel_id]

    def command_options(self, command: str) -> dict[str, dict[str, Any]]:
        """The options of `/command` ("hv draw") in the command tree the page was sent."""
        words = command.split()
        nodes = self.view["commands"]
        node: dict[str, Any] = {}
        for word in words:
            node = next(n for n in nodes if n["name"] == word)
            nodes = node["options"]
        return {option["name"]: option for option in node["options"]}

    def choices(self, command: str, option: str) -> list[dict[str, Any]]:
        """The fixed choices the command box offers for an option: `{"value", "label"}`."""
        return list(self.command_options(command)[option]["choices"])

    def picture_url(self, relative: str) -> str:
        return self.url.rstrip("/") + relative if relative.startswith("/") else relative

    # ------------------------------------------------------------------ waiting

    async def wait(self, found: Callable[[], T | None], what: str, timeout: float) -> T:
        """The first truthy value of `found`, read again after each frame of the socket; an
        assertion naming `what` if it has not come within `timeout` seconds."""
        try:
            async with asyncio.timeout(timeout):
                while not (result := found()):
                    self._take(await self._frame())
                return result
        except TimeoutError:
            raise AssertionError(
                f"{self.view.get('person', {}).get('name', 'the page')}: {what} did not come "
                f"within {timeout:g} s.\n{self.describe()}"
            ) from None

    async def _frame(self) -> dict[str, Any]:
        received = await self.socket.receive()
        if received.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"the page's socket ended: {received.type.name} {received.data}")
        return received.json()

    def _take(self, frame: dict[str, Any]) -> None:
        self.frames += 1
        kind = frame["type"]
        if kind == "view":
            self.view = {k: v for k, v in frame.items() if k != "type"}
            for listed in self.view.pop("messages").values():
                for message in listed:
                    self._keep(message)
        elif kind == "message":
            self._keep(frame["message"])
        elif kind == "delete":
            self.messages.pop(frame["id"], None)
        elif kind in ("channels", "commands", "people"):
            self.view[kind] = frame[kind]

    def _keep(self, message: Message) -> None:
        self.messages[message["id"]] = message
        self.shown.append(message)

    def describe(self, last: int = 12) -> str:
        """The latest messages the page shows, for a failing test's message."""
        lines = [
            f"{m['visibility']} {m['id']} in {m['channel_id']}: {text_of(m)[:300]!r} "
            f"{[b.label for b in live_buttons(m)]}"
            for m in list(self.messages.values())[-last:]
        ]
        return "\n".join(lines)

    # ------------------------------------------------------------------ acting

    async def command(self, channel_id: str, command: str, **options: Any) -> dict[str, Any]:
        """Run `/command` in a channel, as the page's command box sends it; the answer of
        the page (`{"ok": ...}`, or `{"error": ...}` when the command box refuses it)."""
        body = {"person": self.id, "channel_id": channel_id, "command": command, "options": options}
        return await self._post("command", body)

    async def autocomplete(
        self, channel_id: str, command: str, option: str, typed: str = "", **options: Any
    ) -> list[dict[str, Any]]:
        """The bot's live choices for an option, as the command box shows them."""
        body = {
            "person": self.id,
            "channel_id": channel_id,
            "command": command,
            "option": option,
            "typed": typed,
            "options": options,
        }
        answer = await self._post("autocomplete", body)
        assert "error" not in answer, f"autocomplete of /{command} {option}: {answer}"
        return list(answer["choices"])

    async def click(self, message_id: str, custom_id: str) -> dict[str, Any]:
        """Press a button under a message the person sees."""
        body = {"person": self.id, "message_id": message_id, "custom_id": custom_id}
        return await self._post("click", body)

    async def _post(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.http.post(f"{self.url}sandbox/api/{route}", json=body) as answer:
            data: dict[str, Any] = await answer.json()
            if answer.status != 200:
                data.setdefault("error", f"HTTP {answer.status}")
            return data
