"""The emulated Discord: one aiohttp server on 127.0.0.1 with the REST API and the gateway,
plus the helpers tests use to act as users (slash commands, button clicks, autocomplete) and to
look at what the bot sent.

Everything the bot sends goes through the same checks Discord applies (authorisation, the
3-second window for answering an interaction, message limits, and optionally the request
schemas of Discord's OpenAPI description); anything refused is answered like Discord would and
kept in `rejections`, so a test can fail on it.

`DiscordEmulator` is the one object its callers use (tests, the sandbox's page, load runs), and
every job it does works on the same state: one slash command reads the users, channels and
registered commands, creates an interaction, waits on activity, and is answered by records
that wake waiters and reach the change feed. So the class is assembled here from parts, one
job per module, each a mixin that names the state it reads and builds on the parts it calls:
`World` (guilds, channels, users), `ChangeFeed`, `Waiting`, `History` (records and looking at
them), `Acting` (as users) and `MessageStore`. Separate objects would have to forward the many
attributes callers read directly (`emu.users`, `emu.records`, `emu.messages_by_id`), and a
`LoadEmulator` could no longer refine `record` by overriding it. All the state is created in
one place, `DiscordEmulator.__init__`; the REST routes (`rest`) and the gateway (`gateway`)
are objects of their own, given the emulator.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from aiohttp import web

from .faults import Faults
from .feed import Watcher
from .gateway import IDENTIFY_INTERVAL, Gateway
from .interactions import INTERACTION_WINDOW, Clock, InteractionState
from .models import (
    MEMBER_PERMISSIONS,
    Channel,
    Guild,
    Record,
    Rejection,
    RequestLog,
    Role,
    Snowflakes,
    StoredMessage,
    User,
)
from .openapi import SpecValidator, load_validator, locate_spec
from .parts import EmulatorParts
from .rest import Rest
from .world import DEFAULT_LOCALE

RouteInstaller = Callable[[web.Application], None]


class DiscordEmulator(EmulatorParts):
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
        token: str | None = None,
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
        # A new secret each run: a bot token that was valid once (in a log, a page's history)
        # opens nothing the next time.
        self.token = token or f"emulated.{secrets.token_urlsafe(24)}"
        self.interaction_window = interaction_window
        self.bot_user = User(self.ids.next(), "High Voltage Bot", bot=True)
        self.application_id = self.bot_user.id
        # The first guild is the one most tests need; its id, name and language are also
        # plain attributes (`guild_id`, `guild_name`, `guild_locale`).
        self.guild_id = self.ids.next()
        self.guilds: dict[int, Guild] = {
            self.guild_id: Guild(self.guild_id, guild_name, DEFAULT_LOCALE)
        }
        self.owner = User(
            self.ids.next(),
            "Server Owner",
            manage_channels=True,
            manage_guild=True,
            manage_messages=True,
        )
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        # Languages: each user's Discord client (an interaction's `locale`); a server's
        # preferred one is its guild's `locale`.
        self.locales: dict[int, str] = {}
        self.roles: dict[int, Role] = {}
        self.member_roles: dict[int, set[int]] = {}
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
        # The latest message created with each nonce in each channel (see `by_nonce`).
        self.nonces: dict[tuple[int, str], StoredMessage] = {}
        # Creates answered with an earlier message of the same nonce (see `by_nonce`).
        self.duplicates_refused = 0
        self.records: list[Record] = []
        self.requests: list[RequestLog] = []
        self.rejections: list[Rejection] = []
        self.unhandled: list[str] = []
        # Discord's time for its rules that last minutes (a token's 15), which tests move.
        self.clock = Clock()
        self.user_installs: set[int] = set()
        self.external_apps_off: set[int] = set()
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
