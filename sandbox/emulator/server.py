"""The emulated Discord: one aiohttp server on 127.0.0.1 with the REST API and the gateway,
plus the helpers tests use to act as users (slash commands, button clicks, autocomplete) and to
look at what the bot sent.

Everything the bot sends goes through the same checks Discord applies (authorisation, the
3-second window for answering an interaction, message limits, and optionally the request
schemas of Discord's OpenAPI description); anything refused is answered like Discord would and
kept in `rejections`, so a test can fail on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import secrets
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from . import rules
from .faults import Faults
from .gateway import IDENTIFY_INTERVAL, Gateway
from .models import (
    HAS_THREAD,
    MEMBER_PERMISSIONS,
    MESSAGE_KINDS,
    PUBLIC_THREAD,
    THREAD_PERMISSIONS,
    Attachment,
    Change,
    Channel,
    Guild,
    Record,
    Rejection,
    RequestLog,
    Snowflakes,
    StoredMessage,
    User,
    Visibility,
    iso,
    now,
    shard_of,
)
from .openapi import SpecValidator, load_validator, locate_spec
from .rest import Rest

T = TypeVar("T")
Predicate = Callable[[], T | Awaitable[T]]
Watcher = Callable[[Change], None]
RouteInstaller = Callable[[web.Application], None]

INTERACTION_WINDOW = 3.0  # seconds Discord gives a bot to acknowledge an interaction
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
DEFAULT_LOCALE = "en-US"  # every client's and the server's language unless a test sets one

OPTION_TYPES = {
    "subcommand": 1,
    "group": 2,
    "string": 3,
    "integer": 4,
    "boolean": 5,
    "user": 6,
    "channel": 7,
    "role": 8,
    "mentionable": 9,
    "number": 10,
    "attachment": 11,
}


class InteractionFailed(AssertionError):
    """The bot did not acknowledge an interaction in time (the user sees 'did not respond')."""


class EmulatorUsageError(AssertionError):
    """A test asked for something a Discord user could not do (unknown command, hidden button)."""


@dataclass
class InteractionState:
    """An interaction from creation to its last follow-up."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    created_at: float
    start_seq: int
    source_message_id: int | None = None
    callback_type: int | None = None
    original_message_id: int | None = None
    placeholder_pending: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged_at: float | None = None
    expired: bool = False
    # The slash command it ran ("game new"), shown above its reply as "Ada used /game new".
    command: str | None = None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the user's action to the bot's acknowledgement."""
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.created_at


class Reply(list[Record]):
    """The records the bot produced in answer to one user action, oldest first."""

    def where(
        self, *, visibility: str | Visibility | None = None, kind: str | None = None
    ) -> Reply:
        return Reply(r for r in self if _matches(r, visibility, kind, None, None))

    @property
    def public(self) -> Reply:
        return self.where(visibility="public")

    @property
    def ephemeral(self) -> Reply:
        return self.where(visibility="ephemeral")

    @property
    def dms(self) -> Reply:
        return self.where(visibility="dm")

    @property
    def messages(self) -> Reply:
        return Reply(r for r in self if r.kind in MESSAGE_KINDS and r.kind != "deferred")

    @property
    def texts(self) -> list[str]:
        return [r.text for r in self.messages]

    def __str__(self) -> str:
        return "\n".join(str(r) for r in self) or "(nothing)"


def _running_tasks() -> str:
    """The names of the tasks still running, to say what a bot was busy with."""
    me = asyncio.current_task()
    return ", ".join(sorted(t.get_name() for t in asyncio.all_tasks() if t is not me))


def _matches(
    record: Record,
    visibility: str | Visibility | None,
    kind: str | Iterable[str] | None,
    channel_id: int | None,
    user_id: int | None,
) -> bool:
    if isinstance(visibility, Visibility) and record.visibility != visibility:
        return False
    if isinstance(visibility, str) and record.visibility.kind != visibility:
        return False
    if isinstance(kind, str) and record.kind != kind:
        return False
    if kind is not None and not isinstance(kind, str) and record.kind not in set(kind):
        return False
    if channel_id is not None and record.channel_id != channel_id:
        return False
    return user_id is None or record.visibility.user_id == user_id


class DiscordEmulator:
    """Start with `await emu.start()` (or `async with DiscordEmulator() as emu`).

    `spec_path`: True finds Discord's OpenAPI file by itself (see `openapi.locate_spec`) and
    skips the schema check when there is none; a path uses that file; None turns it off.
    Discord's message limits (`rules`) are checked either way.

    It starts with one guild (`guild_id`, `channel`); `add_guild` adds more, for bots that
    shard. `recommended_shards` and `max_concurrency` are what `GET /gateway/bot` tells the
    bot; `identify_interval` is how long each identify bucket stays closed after an IDENTIFY
    (Discord's five seconds, made short so tests stay fast). All three can be changed later on
    `gateway`.
    """

    def __init__(
        self,
        *,
        token: str = "emulated.bot.token",
        spec_path: Path | str | bool | None = True,
        interaction_window: float = INTERACTION_WINDOW,
        heartbeat_interval_ms: float = 41_250,
        guild_name: str = "Board game club",
        channel_names: Iterable[str] = ("games", "lounge"),
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_interval: float = IDENTIFY_INTERVAL,
    ) -> None:
        self.ids = Snowflakes()
        self.token = token
        self.interaction_window = interaction_window
        self.bot_user = User(self.ids.next(), "High Voltage Bot", bot=True)
        self.application_id = self.bot_user.id
        # The first guild is the one most tests need; its id, name and language are also
        # plain attributes (`guild_id`, `guild_name`, `guild_locale`).
        self.guild_id = self.ids.next()
        self.guilds: dict[int, Guild] = {
            self.guild_id: Guild(self.guild_id, guild_name, DEFAULT_LOCALE)
        }
        self.owner = User(self.ids.next(), "Server Owner", manage_channels=True)
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        # Languages: each user's Discord client (an interaction's `locale`); a server's
        # preferred one is its guild's `locale`.
        self.locales: dict[int, str] = {}
        self.channels: dict[int, Channel] = {}
        for name in channel_names:
            self.add_channel(name)
        self.channel = next(iter(self.channels.values()))
        self.guilds[self.guild_id].channel_id = self.channel.id
        self.dm_channels: dict[int, Channel] = {}
        # The bot's permissions in every channel (an interaction's app_permissions, and what
        # the REST routes allow it): a plain member's unless a test grants more.
        self.app_permissions = MEMBER_PERMISSIONS
        self.messages_by_id: dict[int, StoredMessage] = {}
        self.records: list[Record] = []
        self.requests: list[RequestLog] = []
        self.rejections: list[Rejection] = []
        self.unhandled: list[str] = []
        self.interactions: dict[int, InteractionState] = {}
        self.interactions_by_token: dict[str, InteractionState] = {}
        self.commands: dict[int | None, dict[str, dict[str, Any]]] = {}
        self.command_syncs = 0
        self.faults = Faults()
        self.validator: SpecValidator | None = None
        if spec_path is True:
            found = locate_spec()
            self.validator = load_validator(str(found)) if found else None
        elif spec_path:
            self.validator = load_validator(str(spec_path))
        self.gateway = Gateway(
            self,
            heartbeat_interval=heartbeat_interval_ms,
            recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
            identify_interval=identify_interval,
        )
        self.rest = Rest(self)
        self.in_flight = 0
        # How `settle` knows that bots running in this process are done: each registers a
        # coroutine function that returns once it has nothing under way (`GameBot.until_idle`).
        self.idle_checks: list[Callable[[], Awaitable[None]]] = []
        self._activity = asyncio.Event()
        self._last_activity = 0.0
        # The change feed: each watcher is called at once with every `Change` (see `watch`).
        self.watchers: list[Watcher] = []
        # More routes on the same server (the sandbox's page), each a function given the
        # application before Discord's routes are added: called by `start`.
        self.route_installers: list[RouteInstaller] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self, port: int = 0) -> DiscordEmulator:
        """Listen on 127.0.0.1, on `port` (0: any free port, see `port` afterwards)."""
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024**2)
        app.router.add_get("/gateway-ws", self.gateway.handle)
        # Before Discord's routes, which end with a catch-all for the routes Discord lacks.
        for install in self.route_installers:
            install(app)
        self.rest.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the free port the OS picked
        self._last_activity = asyncio.get_running_loop().time()
        return self

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be for the bot to talk to this emulator."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-ws"

    # ------------------------------------------------------------------ world

    def add_user(
        self, name: str, *, manage_channels: bool = False, locale: str = DEFAULT_LOCALE
    ) -> User:
        """A member of the server whose Discord client is set to `locale`."""
        user = User(self.ids.next(), name, manage_channels=manage_channels)
        self.users[user.id] = user
        self.locales[user.id] = locale
        return user

    def set_locale(self, user: User, locale: str) -> None:
        """The user switches their Discord client's language (seen from their next
        interaction on)."""
        self.locales[user.id] = locale
        self.notify(Change("user", user_id=user.id))

    def locale_of(self, user: User) -> str:
        return self.locales.get(user.id, DEFAULT_LOCALE)

    @property
    def guild_name(self) -> str:
        return self.guilds[self.guild_id].name

    @guild_name.setter
    def guild_name(self, name: str) -> None:
        self.guilds[self.guild_id].name = name

    @property
    def guild_locale(self) -> str:
        return self.guilds[self.guild_id].locale

    @guild_locale.setter
    def guild_locale(self, locale: str) -> None:
        self.guilds[self.guild_id].locale = locale

    def set_guild_locale(self, locale: str, guild_id: int | None = None) -> None:
        """A server's preferred language (the first one's unless `guild_id` says otherwise): in
        interactions at once; in GUILD_CREATE, so in discord.py's `guild.preferred_locale`, from
        the bot's next connection."""
        self.guilds[guild_id or self.guild_id].locale = locale

    def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        guild_id: int | None = None,
        channel_name: str = "general",
    ) -> int:
        """Another server with the bot in it, and with a text channel `channel_name` (see
        `default_channel`); returns its id.

        Discord serves a guild's events on shard `(guild_id >> 22) % shard_count`: pass
        `shard=(k, n)` for a guild on shard k of n, or the exact `guild_id`. Every user is a
        member, with the same permissions as in the first guild. Add guilds before the bot
        connects; one added later reaches a connected bot with
        `await emu.gateway.dispatch("GUILD_CREATE", emu.guild_payload(guild_id))`, as when a
        bot is invited to a server.
        """
        if guild_id is None:
            guild_id = self.ids.on_shard(*shard) if shard is not None else self.ids.next()
        if guild_id in self.guilds or guild_id in self.channels or guild_id in self.users:
            raise EmulatorUsageError(f"the id {guild_id} is taken")
        self.guilds[guild_id] = Guild(guild_id, name, DEFAULT_LOCALE)
        self.guilds[guild_id].channel_id = self.add_channel(channel_name, guild_id).id
        return guild_id

    def default_channel(self, guild_id: int | None = None) -> Channel:
        """The text channel a guild was created with (`channel` for the first guild)."""
        return self.channels[self.guilds[guild_id or self.guild_id].channel_id]

    def guilds_on_shard(self, shard_id: int, shard_count: int) -> list[int]:
        """The ids of the guilds whose events go to shard `shard_id` of `shard_count`."""
        return [g for g in self.guilds if shard_of(g, shard_count) == shard_id]

    def add_channel(self, name: str, guild_id: int | None = None) -> Channel:
        """A text channel at the end of a guild's list (the first guild's by default)."""
        guild = guild_id or self.guild_id
        if guild not in self.guilds:
            raise EmulatorUsageError(f"there is no guild {guild}")
        position = sum(
            1
            for c in self.channels.values()
            if c.guild_id == guild and not c.is_dm and not c.is_thread
        )
        channel = Channel(self.ids.next(), name, guild, position)
        self.channels[channel.id] = channel
        return channel

    def allow_threads(self, allowed: bool = True) -> None:
        """Let the bot create public threads and post in them (or take that away)."""
        if allowed:
            self.app_permissions |= THREAD_PERMISSIONS
        else:
            self.app_permissions &= ~THREAD_PERMISSIONS

    def start_thread(
        self, parent: Channel, message: StoredMessage, name: str, **kw: Any
    ) -> Channel:
        """A public thread started from `message` (Discord gives it the message's id)."""
        thread = Channel(
            message.id,
            name,
            parent.guild_id,
            type=PUBLIC_THREAD,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            **kw,
        )
        self.channels[thread.id] = thread
        message.flags |= HAS_THREAD
        return thread

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """The threads started so far (of `parent`, if given), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def dm_channel(self, user_id: int) -> Channel:
        found = self.dm_channels.get(user_id)
        if found is None:
            found = Channel(self.ids.next(), "", None, recipient_id=user_id)
            self.dm_channels[user_id] = found
            self.channels[found.id] = found
        return found

    def member_payload(self, user: User) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": iso(now()),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "permissions": str(user.permissions),
        }

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """A guild as GUILD_CREATE carries it (the first guild's by default)."""
        guild = self.guilds[guild_id or self.guild_id]
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        members = [self.member_payload(u) for u in self.users.values()]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso(now()),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [
                c.payload()
                for c in self.channels.values()
                if c.guild_id == guild.id and not c.is_dm and not c.is_thread
            ],
            "threads": [c.payload() for c in self.threads() if c.guild_id == guild.id],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ the change feed

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

    # ------------------------------------------------------------------ activity

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
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value  # type: ignore[return-value]
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"condition not met within {timeout:.1f}s"
                    + (f": {message}" if message else "")
                    + f"\nlast records:\n{self.describe(self.records[-8:])}"
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
            and _matches(r, visibility, kind, channel_id, user_id)
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
        return "\n".join(str(r) for r in records) or "(no records)"

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
            channel_id=channel_id if channel_id is not None else (message and message.channel_id),
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
        )
        self.records.append(record)
        self.touch()
        self._announce(record, message)
        return record

    def log_request(self, method: str, path: str, status: int) -> None:
        self.requests.append(RequestLog(method, path, status, asyncio.get_running_loop().time()))

    def requests_to(self, method: str, fragment: str) -> list[RequestLog]:
        return [r for r in self.requests if r.method == method and fragment in r.path]

    # ------------------------------------------------------------------ acting as users

    def _find_command(self, name: str, guild_id: int | None) -> tuple[dict[str, Any], int | None]:
        """A command as a user in `guild_id` sees it: the guild's own, then the global ones.
        In a DM the first guild's commands are offered too, so tests can run guild-scoped
        commands there."""
        for scope in (guild_id or self.guild_id, None):
            found = self.commands.get(scope, {}).get(name)
            if found is not None:
                return found, scope
        known = sorted({n for scope in self.commands.values() for n in scope})
        raise EmulatorUsageError(f"/{name} is not registered with Discord (registered: {known})")

    def _build_options(
        self, schema: list[dict[str, Any]], given: dict[str, Any], resolved: dict[str, Any]
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise EmulatorUsageError(f"unknown option(s) {unknown}; known: {sorted(by_name)}")
        out = []
        for option in schema:
            name = option["name"]
            if name not in given:
                if option.get("required"):
                    raise EmulatorUsageError(f"option {name!r} is required")
                continue
            value = given[name]
            kind = option["type"]
            if kind == OPTION_TYPES["user"]:
                user = value if isinstance(value, User) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                member = self.member_payload(user)
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
                value = str(user.id)
            elif kind == OPTION_TYPES["integer"] and not isinstance(value, int):
                raise EmulatorUsageError(f"option {name!r} takes an integer, not {value!r}")
            elif kind == OPTION_TYPES["string"]:
                value = str(value)
            choices = option.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                allowed = [c["value"] for c in choices]
                raise EmulatorUsageError(f"option {name!r} must be one of {allowed}, not {value!r}")
            out.append({"name": name, "type": kind, "value": value})
        return out

    def _command_data(
        self,
        command: str,
        options: dict[str, Any],
        *,
        focused: tuple[str, str] | None = None,
        guild_id: int | None = None,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        top, scope = self._find_command(words[0], guild_id)
        resolved: dict[str, Any] = {}
        node_options = top.get("options") or []
        path: list[tuple[str, int]] = []
        for word in words[1:]:
            sub = next((o for o in node_options if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise EmulatorUsageError(f"/{command}: no subcommand {word!r}")
            path.append((word, sub["type"]))
            node_options = sub.get("options") or []
        given = dict(options)
        if focused is not None:
            given.pop(focused[0], None)
        leaf_schema = [o for o in node_options if o["type"] not in (1, 2)]
        if focused is not None:
            # Discord sends what is filled in so far; required options may still be missing.
            leaf_schema = [{**o, "required": False} for o in leaf_schema]
        leaf = self._build_options(leaf_schema, given, resolved)
        if focused is not None:
            option = next((o for o in leaf_schema if o["name"] == focused[0]), None)
            if option is None or not option.get("autocomplete"):
                raise EmulatorUsageError(f"/{command} {focused[0]} has no autocomplete")
            leaf.append(
                {"name": focused[0], "type": option["type"], "value": focused[1], "focused": True}
            )
        for word, kind in reversed(path):
            leaf = [{"name": word, "type": kind, "options": leaf}]
        data: dict[str, Any] = {
            "id": top["id"],
            "name": top["name"],
            "type": 1,
            "options": leaf,
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    def _interaction_payload(
        self,
        state: InteractionState,
        data: dict[str, Any],
        message: StoredMessage | None = None,
    ) -> dict[str, Any]:
        channel = self.channels[state.channel_id]
        payload: dict[str, Any] = {
            "id": str(state.id),
            "application_id": str(self.application_id),
            "type": state.type,
            "data": data,
            "token": state.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(self.users),
            "app_permissions": str(self.app_permissions),
            "locale": self.locale_of(state.user),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id or self.guild_id)},
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.is_dm:
            payload["user"] = state.user.payload()
            payload["context"] = 1
        else:
            guild = self.guilds[channel.guild_id or self.guild_id]
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = self.member_payload(state.user)
            payload["context"] = 0
        if message is not None:
            payload["message"] = message.payload(self.base_url)
        return payload

    def _new_interaction(
        self, kind: int, user: User, channel_id: int, source: StoredMessage | None = None
    ) -> InteractionState:
        channel = self.channels[channel_id]
        state = InteractionState(
            id=self.ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel_id=channel_id,
            guild_id=channel.guild_id,
            created_at=asyncio.get_running_loop().time(),
            start_seq=self.last_seq,
            source_message_id=source.id if source else None,
        )
        self.interactions[state.id] = state
        self.interactions_by_token[state.token] = state
        return state

    async def _deliver(
        self, state: InteractionState, payload: dict[str, Any], *, settle: bool, timeout: float
    ) -> Reply:
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(state.answered.wait(), self.interaction_window + 0.5)
        except TimeoutError:
            state.expired = True
            raise InteractionFailed(
                f"the bot did not acknowledge interaction {state.id} within "
                f"{self.interaction_window:.0f}s ('The application did not respond')\n"
                f"records since:\n{self.describe(self.records[state.start_seq :])}"
            ) from None
        if state.expired:
            raise InteractionFailed(
                f"interaction {state.id} was acknowledged after Discord's "
                f"{self.interaction_window:.0f}s window"
            )
        if settle:
            await self.settle(timeout=timeout)
        else:
            # A deferred reply is not an answer yet: wait for what replaces "thinking…".
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while state.placeholder_pending and loop.time() < deadline:
                await self._wait_activity(min(0.05, max(0.0, deadline - loop.time())))
        return Reply(r for r in self.records if r.seq > state.start_seq)

    async def slash(
        self,
        user: User,
        command: str,
        *,
        channel: Channel | None = None,
        settle: bool = True,
        timeout: float = 10.0,
        **options: Any,
    ) -> Reply:
        """Run `/command` as `user` and return what the bot did in answer.

        Waits until the interaction is acknowledged, then (with `settle`) until the bot is done
        (see `settle`), so follow-ups, channel posts and DMs it caused are included.
        """
        target = channel or self.channel
        data = self._command_data(command, options, guild_id=target.guild_id)
        state = self._new_interaction(2, user, target.id)
        state.command = " ".join(command.strip().lstrip("/").split())
        payload = self._interaction_payload(state, data)
        return await self._deliver(state, payload, settle=settle, timeout=timeout)

    async def click(
        self,
        user: User,
        custom_id: str,
        *,
        message: Record | StoredMessage | int,
        settle: bool = True,
        timeout: float = 10.0,
    ) -> Reply:
        """Press the button `custom_id` on `message` as `user`."""
        if isinstance(message, Record):
            if message.message_id is None:
                raise EmulatorUsageError(f"record {message} is not a message")
            message = message.message_id
        stored = self.messages_by_id[message] if isinstance(message, int) else message
        stored = self.messages_by_id[stored.id]  # its state now, after any edits
        if stored.visibility.kind != "public" and stored.visibility.user_id != user.id:
            raise EmulatorUsageError(
                f"{user.name} cannot see message {stored.id} ({stored.visibility})"
            )
        button = next((b for b in stored.buttons if b.custom_id == custom_id), None)
        if button is None:
            have = [b.custom_id for b in stored.buttons]
            raise EmulatorUsageError(f"message {stored.id} has no button {custom_id!r}: {have}")
        if button.disabled:
            raise EmulatorUsageError(f"button {custom_id!r} is disabled")
        state = self._new_interaction(3, user, stored.channel_id, source=stored)
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction_payload(state, data, stored)
        return await self._deliver(state, payload, settle=settle, timeout=timeout)

    async def autocomplete(
        self,
        user: User,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type `typed` into `option` of `/command`; return the choices the bot offered."""
        target = channel or self.channel
        data = self._command_data(
            command, options, focused=(option, typed), guild_id=target.guild_id
        )
        state = self._new_interaction(4, user, target.id)
        payload = self._interaction_payload(state, data)
        await self._deliver(state, payload, settle=False, timeout=5.0)
        if state.callback_type != 8 or state.choices is None:
            raise InteractionFailed(f"autocomplete answered with type {state.callback_type}")
        return state.choices

    def say(self, user: User, content: str, *, channel: Channel | None = None) -> StoredMessage:
        """`user` types a plain message in `channel` (the first guild's by default, or their
        DM channel with the bot): it shows there for everyone who can see it. The bot is not
        told (no MESSAGE_CREATE): it reads no messages."""
        target = channel or self.channel
        if target.is_dm and target.recipient_id != user.id:
            raise EmulatorUsageError(f"{user.name} cannot write in another person's DMs")
        if not content.strip() or len(content) > rules.CONTENT_LIMIT:
            raise EmulatorUsageError(
                f"a message holds 1 to {rules.CONTENT_LIMIT} characters, not {len(content)}"
            )
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=target.id,
            author=user,
            visibility=Visibility.dm_to(user) if target.is_dm else Visibility.public(),
            content=content,
            guild_id=target.guild_id,
        )
        self.messages_by_id[message.id] = message
        self.touch()
        self.notify(Change("message", message=message, channel_id=target.id))
        return message

    # ------------------------------------------------------------------ messages (for Rest)

    def store_message(
        self,
        *,
        channel_id: int,
        visibility: Visibility,
        body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        flags: int = 0,
        interaction: InteractionState | None = None,
    ) -> StoredMessage:
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=channel_id,
            author=self.bot_user,
            visibility=visibility,
            flags=flags,
            guild_id=self.channels[channel_id].guild_id,
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.webhook_id = self.application_id
        self.apply_body(message, body, files)
        self.messages_by_id[message.id] = message
        return message

    def apply_body(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        *,
        editing: bool = False,
    ) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body or "embed" in body:
            embeds = body.get("embeds")
            if embeds is None and body.get("embed") is not None:
                embeds = [body["embed"]]
            message.embeds = list(embeds or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        new: list[Attachment] = []
        listed = body.get("attachments")
        if listed is None:
            kept = message.attachments if editing else []
            for index in sorted(files):
                name, data, ctype = files[index]
                new.append(Attachment(self.ids.next(), name, data, ctype))
        else:
            kept = []
            existing = {a.id: a for a in message.attachments}
            for entry in listed:
                ident = int(entry["id"])
                if ident in existing:
                    kept.append(existing[ident])
                elif ident in files:
                    name, data, ctype = files[ident]
                    new.append(
                        Attachment(self.ids.next(), entry.get("filename") or name, data, ctype)
                    )
        message.attachments = [*kept, *new]
        if editing:
            message.edited_at = now()
