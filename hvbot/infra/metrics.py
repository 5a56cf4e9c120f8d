"""What the people running the bot can watch: Prometheus metrics at `/metrics` and a health
check at `/health`, served by each process when METRICS_PORT is set.

The counters and histograms below are the process's: the code that stores a move or draws a
board adds to them wherever it runs. Each bot gathers them, with what it measures itself (its
shards, its event loop, what the database holds), in a registry of its own rather than
prometheus_client's global one, so several bots in one process (the tests) never collide.

The server runs on the bot's own event loop (aiohttp, which discord.py already uses), not in
a thread: an answer from `/health` is then itself the proof that the loop turns (a stuck loop
answers nothing, and the probe times out), and what a scrape reads of the bot is read from
the loop's own thread, without locks. `/health` awaits nothing external: no database, no
Discord call.

Labels only ever name games, AI levels, commands, shards and kinds of posts: never a player,
a move or anything hidden. Still, the server answers only requests addressed to it by a name
it knows (`Host`: this machine's, METRICS_HOST's, METRICS_ALLOWED_HOSTS'), so a web page whose
name was made to point at this machine (DNS rebinding) reads nothing; and with METRICS_TOKEN
set, only requests that carry the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import ipaddress
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from datetime import datetime
from typing import Any, Protocol, TypeVar

import aiohttp
import discord
from aiohttp import web
from discord.ext import commands
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from hvbot.infra.collector import Collector
from hvbot.infra.config import ConfigError

T = TypeVar("T")

# Discord's window to acknowledge is 3 s: the buckets are finest below it.
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
DRAW_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
AI_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
REPLAY_BUCKETS = (0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
LAG_PROBE_S = 0.5  # how often the event loop's lag is measured
FORGET_UNANSWERED_S = 60.0  # an interaction unanswered this long is no longer waited for
# An interaction's answer: POST /interactions/{id}/{token}/callback (the token is never kept).
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")

INTERACTION_ACK = Histogram(
    "hvbot_interaction_ack_seconds",
    "From an interaction's arrival to Discord accepting its acknowledgement (its _count is "
    "the interactions acknowledged)",
    ["command", "shard"],
    buckets=ACK_BUCKETS,
    registry=None,
)
INTERACTIONS_REFUSED = Counter(
    "hvbot_interaction_ack_refused",
    "Interactions whose acknowledgement Discord refused for good (most often: too late)",
    ["command", "shard"],
    registry=None,
)
ACTIONS_STORED = Counter(
    "hvbot_actions_stored",
    "Actions stored (moves, by people and AI seats)",
    ["game"],
    registry=None,
)
BOARD_DRAWING = Histogram(
    "hvbot_board_drawing_seconds",
    "Drawing a board after a move, waiting for a drawing worker included",
    ["game"],
    buckets=DRAW_BUCKETS,
    registry=None,
)
AI_DECISION = Histogram(
    "hvbot_ai_decision_seconds",
    "An AI seat's thinking for one action",
    ["game", "level"],
    buckets=AI_BUCKETS,
    registry=None,
)
REPLAY_DRAWING = Histogram(
    "hvbot_replay_drawing_seconds",
    "Drawing a finished game's replay",
    ["game"],
    buckets=REPLAY_BUCKETS,
    registry=None,
)
DUTIES_TAKEN_OVER = Counter(
    "hvbot_duties_taken_over",
    "Duties taken over once their lease ran out (their process died, was paused or failed)",
    ["kind"],
    registry=None,
)
LOOP_LAG = Histogram(
    "hvbot_event_loop_lag_seconds",
    f"How late the event loop ran a callback due in {LAG_PROBE_S} s, every {LAG_PROBE_S} s",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=None,
)
DATABASE_ERRORS = Counter(
    "hvbot_database_errors",
    "Errors the database gave (unreachable, refused statements); not broken uniqueness rules",
    ["backend"],
    registry=None,
)
DATABASE_ROUND_TRIPS = Counter(
    "hvbot_database_round_trips",
    "Requests sent to a database server and waited for (PostgreSQL: each statement, BEGIN and"
    " COMMIT included), so the cost of a stored move in trips over the network can be watched",
    ["backend"],
    registry=None,
)
WEB_VIEWERS = Gauge(
    "hvbot_web_viewers",
    "Live boards' pages following their game from this process now (WEB_PORT)",
    registry=None,
)
WEB_DRAWN = Counter(
    "hvbot_web_boards_drawn",
    "Live boards' pictures drawn: one per game and version, however many watch",
    registry=None,
)
CHANGES_UNDER_WAY = Gauge(
    "hvbot_changes_under_way",
    "Changes being followed by this process now (their posts going out, their AI seats "
    "moving); while more than a hundred are, new lobbies wait",
    registry=None,
)
LOBBIES_DEFERRED = Counter(
    "hvbot_lobbies_deferred",
    'New lobbies that showed "thinking…" until the process had caught up with what the '
    "games started already owed",
    registry=None,
)
PROCESS_METRICS = (
    INTERACTION_ACK,
    INTERACTIONS_REFUSED,
    ACTIONS_STORED,
    BOARD_DRAWING,
    AI_DECISION,
    REPLAY_DRAWING,
    DUTIES_TAKEN_OVER,
    LOOP_LAG,
    DATABASE_ERRORS,
    DATABASE_ROUND_TRIPS,
    WEB_VIEWERS,
    WEB_DRAWN,
    CHANGES_UNDER_WAY,
    LOBBIES_DEFERRED,
)


async def timed(histogram: Histogram, work: Awaitable[T]) -> T:
    """`work`'s result, its time observed in `histogram`."""
    with histogram.time():
        return await work


@contextlib.contextmanager
def database_errors(backend: str, errors: tuple[type[BaseException], ...]) -> Iterator[None]:
    """Count the database's `errors` raised inside, and let them go on."""
    try:
        yield
    except errors:
        DATABASE_ERRORS.labels(backend=backend).inc()
        raise


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events on (direct messages: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % max(1, shard_count)


def command_of(interaction: discord.Interaction) -> str:
    """What an interaction asks, as a label: a command's name with its subcommands (in
    English, whatever the person's language), or the kind of button or form."""
    data: dict[str, Any] = dict(interaction.data or {})
    kind = interaction.type
    if kind in (
        discord.InteractionType.application_command,
        discord.InteractionType.autocomplete,
    ):
        words, options = [str(data.get("name", "?"))], data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # a subcommand (group)
            words.append(str(options[0]["name"]))
            options = options[0].get("options") or []
        name = "/" + " ".join(words)
        return name if kind == discord.InteractionType.application_command else f"{name} choices"
    # Custom ids carry game ids and choices: only their first word, the kind, is a label.
    first = str(data.get("custom_id", "")).split(":", 1)[0]
    what = first if first.isalpha() and len(first) <= 16 else "other"
    return f"form:{what}" if kind == discord.InteractionType.modal_submit else f"button:{what}"


class Outbox(Protocol):
    """What `refresh` reads of the outbox (`hvbot.store.duties.Duties`)."""

    async def owed_now(self) -> tuple[int, datetime | None]: ...

    def clock(self) -> datetime: ...


class Store(Protocol):
    """What `refresh` reads of the game store (`hvbot.store.GameStore`, or the service in
    front of it, `hvbot.services.GameService`), which is not imported here: the store's
    database counts its errors with this module."""

    @property
    def duties(self) -> Outbox: ...

    async def open_counts(self, shard_count: int) -> dict[tuple[str, str, int], int]: ...


class Watch(Protocol):
    """What `collect` reads of the database's version watch (`hvbot.database.VersionWatch`,
    PostgreSQL's only)."""

    listening: bool


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_name(header: str) -> str:
    """The name a `Host` header gives, without its port, lower case; an IPv6 address without
    its brackets ("[::1]:9108" -> "::1")."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        return header.partition(":")[0]
    return header


def allowed_hosts(listening: str, more: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers to: this machine's, the address it listens on (unless it
    is every address, which no request names), and those the settings add."""
    names = {*LOOPBACK_NAMES, *(name.lower() for name in more)}
    try:
        every = ipaddress.ip_address(listening).is_unspecified
    except ValueError:
        every = not listening
    if not every:
        names.add(listening.lower().removeprefix("[").removesuffix("]"))
    return frozenset(names)


class BotMetrics:
    """One bot's registry, server and measurements; read at scrape time (a collector)."""

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        host: str,
        port: int,
        *,
        allowed: Iterable[str] = (),
        token: str | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.bot = bot
        self.collector = collector  # what it has frozen, if the bot freezes
        self.host, self.port = host, port
        self.allowed = allowed_hosts(host, allowed)  # see `_guard`
        self._token = token
        # Without a describe method, this bot's own collector is read only when scraped.
        self.registry = CollectorRegistry()
        for metric in PROCESS_METRICS:
            self.registry.register(metric)
        self.registry.register(self)
        self.loop_lag = 0.0
        # Refreshed with the periodic checks (`refresh`): what the database holds.
        self.owed = 0
        self.oldest_owed_s = 0.0
        self.open_games: dict[tuple[str, str, int], int] = {}
        # The database's version watch, once the database is open (None with SQLite).
        self.watch: Watch | None = None
        # Interactions received and not yet acknowledged: id -> (arrival, command, shard).
        self._arrived: dict[int, tuple[float, str, str]] = {}
        self._runner: web.AppRunner | None = None
        self._watch: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ interactions

    def arrived(self, interaction: discord.Interaction) -> None:
        """An interaction has come: its acknowledgement is timed from now."""
        now = time.perf_counter()
        shard = shard_of(interaction.guild_id, self.bot.shard_count or 1)
        self._arrived[interaction.id] = (now, command_of(interaction), str(shard))
        while self._arrived:  # oldest first: what was never answered is let go of
            first = next(iter(self._arrived))
            if now - self._arrived[first][0] < FORGET_UNANSWERED_S:
                break
            del self._arrived[first]

    def http_trace(self) -> aiohttp.TraceConfig:
        """discord.py's HTTP requests, watched for interactions' acknowledgements (discord.py
        sends them all through one session, whichever of its methods the code answers with)."""
        trace = aiohttp.TraceConfig()

        async def ended(_: Any, __: Any, params: aiohttp.TraceRequestEndParams) -> None:
            self._answered(params.url.path, params.response.status)

        async def failed(_: Any, __: Any, params: aiohttp.TraceRequestExceptionParams) -> None:
            self._answered(params.url.path, None)

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    def _answered(self, path: str, status: int | None) -> None:
        """A request has ended (`status` None: it failed): an acknowledgement is timed, or
        counted as refused. A rate limit, a server error or a failed connection are tried
        again by discord.py, so they settle nothing yet."""
        found = CALLBACK.search(path)
        if found is None or int(found[1]) not in self._arrived:
            return
        if status is None or status == 429 or status >= 500:
            return
        at, command, shard = self._arrived.pop(int(found[1]))
        if status < 300:
            INTERACTION_ACK.labels(command, shard).observe(time.perf_counter() - at)
        else:
            INTERACTIONS_REFUSED.labels(command, shard).inc()

    # ------------------------------------------------------------------ what is read

    def shards_connected(self) -> dict[int, bool]:
        """Each of this process's shards: whether its gateway connection is open."""
        bot = self.bot
        if bot.is_closed() or not bot.is_ready():
            return {shard: False for shard in bot.shard_ids or [0]}
        return {shard: not info.is_closed() for shard, info in bot.shards.items()}

    def healthy(self) -> bool:
        connected = self.shards_connected()
        return bool(connected) and all(connected.values())

    async def refresh(self, store: Store) -> None:
        """Read what the database holds: open lobbies and games, and posts still owed."""
        bot = self.bot
        counts = await store.open_counts(bot.shard_count or 1)
        mine = set(bot.shard_ids) if bot.shard_ids is not None else None
        self.open_games = {key: n for key, n in counts.items() if mine is None or key[2] in mine}
        owed, oldest = await store.duties.owed_now()
        self.owed = owed
        now: datetime = store.duties.clock()
        self.oldest_owed_s = max(0.0, (now - oldest).total_seconds()) if oldest else 0.0

    def collect(self) -> Iterator[Metric]:
        latency = GaugeMetricFamily(
            "hvbot_gateway_latency_seconds",
            "Heartbeat to acknowledgement, each shard",
            labels=["shard"],
        )
        connected = GaugeMetricFamily(
            "hvbot_shard_connected",
            "1 while a shard's gateway connection is open",
            labels=["shard"],
        )
        for shard, is_open in self.shards_connected().items():
            connected.add_metric([str(shard)], 1.0 if is_open else 0.0)
            info = self.bot.get_shard(shard) if is_open else None
            if info is not None and math.isfinite(info.latency):
                latency.add_metric([str(shard)], info.latency)
        yield latency
        yield connected
        yield GaugeMetricFamily(
            "hvbot_event_loop_lag_last_seconds",
            f"How late the event loop last ran a callback due in {LAG_PROBE_S} s",
            value=self.loop_lag,
        )
        yield GaugeMetricFamily(
            "hvbot_owed_posts",
            "Posts owed by stored changes, not yet made (all processes)",
            value=self.owed,
        )
        yield GaugeMetricFamily(
            "hvbot_oldest_owed_post_seconds",
            "How long the oldest owed post has waited",
            value=self.oldest_owed_s,
        )
        if self.watch is not None:
            yield GaugeMetricFamily(
                "hvbot_database_watch_listening",
                "1 while this process hears other processes' changes to games as they commit"
                " (PostgreSQL); 0 while it cannot, and reads each game's version before a move",
                value=1.0 if self.watch.listening else 0.0,
            )
        if self.collector is not None:
            yield GaugeMetricFamily(
                "hvbot_gc_frozen_objects",
                "Objects the garbage collector no longer walks: what start-up built and what"
                " outlived its full passes, as counted when frozen (see hvbot.infra.collector)",
                value=self.collector.frozen,
            )
        passes = CounterMetricFamily(
            "hvbot_gc_collections",
            "The garbage collector's passes, by generation (2: the full ones, which stop"
            " the event loop longest)",
            labels=["generation"],
        )
        for generation, stats in enumerate(gc.get_stats()):
            passes.add_metric([str(generation)], stats["collections"])
        yield passes
        games = GaugeMetricFamily(
            "hvbot_open_games",
            "Lobbies and games in play, of this process's shards",
            labels=["game", "status", "shard"],
        )
        for (game, status, shard), n in sorted(self.open_games.items()):
            games.add_metric([game, status, str(shard)], n)
        yield games

    # ------------------------------------------------------------------ serving

    async def start(self) -> None:
        """Serve /metrics and /health, and measure the event loop's lag, until `close`."""
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/health", self._health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            raise ConfigError(
                f"METRICS_PORT {self.port} on {self.host} cannot be served: {exc.strerror or exc}; "
                "choose another port, or leave METRICS_PORT empty."
            ) from exc
        self._runner = runner
        self._watch = asyncio.create_task(self._watch_loop(), name="metrics-loop-lag")

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_PROBE_S)
            self.loop_lag = max(0.0, loop.time() - before - LAG_PROBE_S)
            LOOP_LAG.observe(self.loop_lag)

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Only a request addressed to a name the server knows (403 otherwise: a page whose
        name now points here, a rebinding, reads nothing), carrying the token when one is
        set (401 otherwise)."""
        if host_name(request.headers.get("Host", "")) not in self.allowed:
            return web.Response(
                status=403,
                text="This Host is not served here: add it to METRICS_ALLOWED_HOSTS.\n",
            )
        if self._token is not None:
            given = request.headers.get("Authorization", "")
            scheme, _, credentials = given.partition(" ")
            expected = self._token.encode()
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                credentials.strip().encode(), expected
            ):
                return web.Response(
                    status=401,
                    text="A token is needed: Authorization: Bearer <METRICS_TOKEN>.\n",
                    headers={"WWW-Authenticate": 'Bearer realm="hvbot metrics"'},
                )
        return await handler(request)

    async def _metrics(self, _: web.Request) -> web.Response:
        return web.Response(
            body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def _health(self, _: web.Request) -> web.Response:
        connected = self.shards_connected()
        lines = [
            f"shard {k}: {'connected' if ok else 'disconnected'}" for k, ok in connected.items()
        ]
        return web.Response(
            text="\n".join(lines or ["no shard yet"]) + "\n", status=200 if self.healthy() else 503
        )
