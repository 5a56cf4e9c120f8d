"""The bot: opens the database, registers commands and persistent buttons, closes cleanly.

What follows a change (posts, AI seats, replays) is `hvbot.aftermath`'s; at start-up the bot
hands it every open game, so the AI seats whose turn it is move on and a restart loses nothing.
Buttons need no reloading because their custom_ids carry everything needed to find their game.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import mention_commands
from hvbot.aftermath import Aftermath
from hvbot.handlers import answering
from hvbot.handlers import buttons as clicks
from hvbot.infra import links, memory, workers
from hvbot.infra.collector import process_collector
from hvbot.infra.config import Settings
from hvbot.infra.metrics import BotMetrics
from hvbot.messages import wording
from hvbot.messages.outgoing import ALLOWED
from hvbot.messages.presenters import warm_up
from hvbot.messages.translator import Translator, Tree
from hvbot.plugins import in_a_worker, plugins, worker_modules
from hvbot.runtime.buckets import sweep_buckets
from hvbot.runtime.heartbeats import time_heartbeats_from_their_sending
from hvbot.runtime.running import loop_name
from hvbot.services import GameService
from hvbot.store import GameStore
from hvbot.web import Hub, WebServer

log = logging.getLogger(__name__)
SWITCH_INTERVAL_S = 0.001  # how long a thread may hold the interpreter lock (default 0.005)
# discord.py runs each slash command, button and form in a task named like these (and a move
# goes on in one of ours, `answering.go_on`); discord.py's names are not part of its documented
# interface, so tests/e2e/test_e2e_faults.py checks that closing waits.
HANDLER_TASKS = (
    answering.ANSWER_TASK,
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)
# The bot's own modules its drawing workers draw with (see `worker_modules` for the games'):
# the presenters, and where the leaderboards, profiles and standings are drawn. Not the replays':
# they bring the database's drivers, a third of a second the server would spend for one worker.
WORKER_MODULES = (
    "hvbot.messages.presenters",
    "render.leaderboard",
    "render.profile",
    "render.standings",
)
# The modules of the bot's own commands, each with a `setup` that adds its cog, set up before
# each game's own.
EXTENSIONS = (
    "hvbot.cogs.game",
    "hvbot.cogs.periodic",
    "hvbot.cogs.stats",
    "hvbot.cogs.me",
    "hvbot.cogs.server",
    "hvbot.cogs.help",
    "hvbot.cogs.tournament",
)
# What Discord tells the bot over the gateway: its servers, their channels and threads, which
# it posts in. Slash commands, buttons and forms reach a bot whatever its intents; it reads no
# messages, reactions, typing, voice or emojis, and with discord.py's default intents Discord
# would send it an event for each (every message in every channel it sees, its own posts and
# their edits among them), each parsed into objects and thrown away.
INTENTS = discord.Intents(guilds=True)
FINISH_S = 10.0  # at most this long to finish answering at shutdown


class GameBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        *,
        database: str | Path | None = None,
        ai_pause: float = 1.5,
        remind_check_s: float = 5.0,
        service: GameService | None = None,
        **options: Any,
    ) -> None:
        # This bot never joins voice: discord.py's warnings about voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # A gateway that answers at once (the sandbox's) must not read as 41 s behind.
        time_heartbeats_from_their_sending()
        # Slash commands and buttons need no privileged intents (no message content, no members).
        # The bot never looks messages up in discord.py's cache (buttons carry their own game
        # and version), so it keeps none: a thousand board posts would otherwise stay in memory.
        options.setdefault("max_messages", None)
        # Several processes may share the bot's shards (SHARD_COUNT, SHARD_IDS); each runs the
        # ones it is given, and any process may be handed any game: the database is the truth.
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", list(settings.shard_ids) if settings.shard_ids else None)
        # With METRICS_PORT, /metrics and /health (served from setup_hook); the acknowledgement
        # of every interaction is timed from discord.py's HTTP requests.
        # What survives the garbage collector's full passes is frozen (from setup_hook).
        self.collector = process_collector()
        self.collecting = False  # whether this bot started it and has not stopped it yet
        self.metrics: BotMetrics | None = None
        if settings.metrics_port is not None:
            self.metrics = BotMetrics(
                self,
                settings.metrics_host,
                settings.metrics_port,
                allowed=settings.metrics_allowed_hosts,
                token=settings.metrics_token,
                collector=self.collector,
            )
            options.setdefault("http_trace", self.metrics.http_trace())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            # Every message, whatever sends it, pings only the people it mentions on purpose:
            # never @everyone, a role, or someone a display name tries to mention.
            allowed_mentions=ALLOWED,
            help_command=None,
            tree_cls=Tree,
            **options,
        )
        # Its rate-limit buckets let go of in sweeps: thousands of games made a new one cost
        # a look over all the others (see `buckets`).
        self.bucket_sweep = sweep_buckets(self.http)
        self.settings = settings
        # A DATABASE_URL (SQLite or PostgreSQL) or a SQLite file's path.
        self.database = database or settings.database_url
        self.ai_pause = ai_pause
        self.remind_check_s = remind_check_s
        self.service: GameService = service  # type: ignore[assignment]  # set in setup_hook
        # Set in setup_hook, with the service: what follows each change.
        self.aftermath: Aftermath = None  # type: ignore[assignment]  # set in setup_hook
        self._connected = False  # see close
        # Discord's identify buckets (max_concurrency), asked for before the first IDENTIFY.
        self._identify_buckets: int | None = None
        # Set in setup_hook: the workers drawing pictures, the one thinking, the one for replays.
        self.pictures: workers.Workers | None = None
        self.background: workers.Workers | None = None
        self.replays: workers.Workers | None = None
        # With WEB_PORT: the live boards' web server (see `serve_boards`).
        self.web: WebServer | None = None

    async def setup_hook(self) -> None:
        # Threads work beside the event loop: the database's, those feeding the worker
        # processes, and with DRAWING_PROCESSES=0 the drawing and thinking. Every answer is a
        # string of short socket calls that each give up Python's global lock and must win it
        # back; by default a busy thread keeps it up to 5 ms each time, which at a few hundred
        # games adds up to answers late by a fraction of a second. A shorter turn gives the
        # loop the lock back sooner, for a little overhead.
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        if self.metrics is not None:
            await self.metrics.start()  # /health says 503 until the shards are connected
        if self.settings.drawing_processes:
            # Pictures drawn by the workers pass through on their way out (see runtime.memory).
            # Drawn in this process's threads, the same setting would slow the drawing.
            memory.give_back_large_buffers()
        if self.service is None:
            self.service = GameService(await GameStore.open(self.database))
        if self.metrics is not None:
            self.metrics.watch = self.service.watch
        self.aftermath = Aftermath(self, self.service, ai_pause=self.ai_pause)
        filled = await self.service.results.backfill_results()
        if filled:
            log.info("stored the results of %d games finished before results were kept", filled)
        # Pictures are drawn in worker processes (see hvbot.infra.workers), each warmed up as it
        # starts; the first is started now, so the first board players see is as quick as the
        # rest. Replays and AI thinking get a worker of their own when first needed.
        # Each worker first registers the games registered here (it starts knowing none).
        # The server they are forked from imports what they draw and think with once, so each
        # starts with it imported (see hvbot.infra.workers).
        processes, prepare = self.settings.drawing_processes, in_a_worker()
        preload = (*WORKER_MODULES, *worker_modules())
        self.pictures = workers.Workers(
            processes,
            prepare=prepare,
            warm_up=warm_up,
            ahead=workers.PICTURES_AHEAD,
            preload=preload,
        )
        self.background = workers.Workers(1 if processes else 0, prepare=prepare, preload=preload)
        self.replays = workers.Workers(1 if processes else 0, prepare=prepare, preload=preload)
        workers.use(self.pictures, self.background, self.replays)
        await self.pictures.start()
        # Every button's click reaches its handler by its custom id, after a restart too.
        self.add_dynamic_items(*clicks.ITEMS)
        clicks.answer_clicks(self._connection._view_store)  # without the clicked message rebuilt
        # The commands every game shares, then each registered game's own (see `hvbot.plugins`):
        # each module's `setup` adds its cog. The modules are imported as any other, once a
        # process; discord.py's `load_extension` would execute each anew at every start, which
        # is for reloading changed code into a running bot, and this bot never does that.
        for extension in (*EXTENSIONS, *(game.commands for game in plugins())):
            await importlib.import_module(extension).setup(self)
        self.tree.error(self.on_app_command_error)
        # Before the sync: the translator gives Discord the commands' names in each language.
        await self.tree.set_translator(Translator())
        guild = discord.Object(id=self.settings.guild_id) if self.settings.guild_id else None
        if self.shard_ids is not None and 0 not in self.shard_ids:
            # Of several processes, the one running shard 0 registers the commands; the
            # others learn their ids (if it has not registered them yet, texts name the
            # commands as typed).
            registered = await self.tree.fetch_commands(guild=guild)
        else:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            registered = await self.tree.sync(guild=guild)
        # Texts name commands as mentions, which each client shows in its own language.
        mention_commands({command.name: command.id for command in registered})
        await self.aftermath.carry_on()
        if self.settings.web_port is not None:
            await self.serve_boards(self.settings.web_port)
        # What start-up built (the libraries, fonts, picture pieces, card data, commands) lives
        # as long as the process. Left to the garbage collector, every full collection walks all
        # of it again, which at a few hundred games took 100-300 ms each time with everything
        # else waiting; frozen, a collection only walks what games create, and what survives
        # each full collection is frozen in turn (see `hvbot.infra.collector`). The collector
        # is the process's: stopped only once every bot that started it has closed.
        self.collector.start()
        self.collecting = True
        where, loop = self.service.where, loop_name()
        log.info("ready to serve games from %s, on %s's event loop", where, loop)

    async def serve_boards(self, port: int) -> WebServer:
        """Serve the live boards on `port` (0: any free one), and link the posts to them.

        The links are signed with WEB_SECRET, or when it is unset with a secret made once and
        kept in the database: every process of the bot reads the same one, so a link works
        whichever process serves it, and after a restart. Each change this process follows
        reaches the boards' viewers through the aftermath; on PostgreSQL, another process's
        through the version watch."""
        settings = self.settings
        secret = settings.web_secret or await self.service.web_secret(secrets.token_urlsafe(32))
        served = links.LiveLinks(
            secret, settings.web_address, allowed=self.service.server_settings.live_links
        )
        hub = Hub(self.service.games, lambda game_id, v: f"{served.path(game_id)}/{v}.png")
        web = WebServer(hub, served, settings.web_host, port, lambda: self.service.clock())
        await web.start()
        if not settings.web_public_url:  # this machine's address, on the port it was given
            served.address = f"http://{settings.web_host}:{web.bound_port}"
        self.web = web
        links.use(served)
        self.aftermath.web = hub
        if self.service.watch is not None:
            self.service.watch.subscribe(hub)
        return web

    async def _stop_serving_boards(self) -> None:
        web, self.web = self.web, None
        if web is None:
            return
        links.use(None)
        if self.aftermath is not None:
            self.aftermath.web = None
        if self.service is not None and self.service.watch is not None:
            self.service.watch.unsubscribe(web.hub)
        await web.close()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's turn to IDENTIFY. Discord admits one new session per bucket
        (`shard_id % max_concurrency`) every few seconds for the whole bot, and answers one
        sooner with Invalid Session; discord.py's own pause only spaces the shards of one
        process, so processes sharing the shards take turns from their database."""
        try:
            if self._identify_buckets is None:
                limits = await self.fetch_session_start_limits()
                self._identify_buckets = max(1, limits.max_concurrency)
            bucket = (shard_id or 0) % self._identify_buckets
            interval = self.settings.identify_interval
            wait = await self.service.identify_turn(bucket, interval, time.time())
        except Exception:
            log.warning("shard %s: no turn to identify from the database; pausing", shard_id)
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if wait > 0:
            log.info("shard %s: identifying in %.1f s, its bucket's turn", shard_id, wait)
            await asyncio.sleep(wait)

    async def close(self) -> None:
        await self._finish_answering()
        await self._stop_serving_boards()
        mention_commands({})  # this application's commands are no longer served from here
        if self.aftermath is not None:
            # Stopped, its AI seats and replays are not left reading a database about to close.
            await self.aftermath.close()
        if self._connected:
            await super().close()
        else:
            # Never connected (a test, or a start-up that failed): discord.py's sharded close
            # expects the queue its connect makes.
            await self.http.close()
        if self.service is not None:
            await self.service.close()
        for pool in (self.pictures, self.background, self.replays):
            if pool is not None:
                pool.close()
        if self.metrics is not None:
            await self.metrics.close()
        workers.use(workers.Workers(0), workers.Workers(0))
        if self.collecting:
            self.collecting = False
            self.collector.stop()

    async def connect(self, *, reconnect: bool = True) -> None:
        self._connected = True
        await super().connect(reconnect=reconnect)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and self.metrics is not None:
            self.metrics.arrived(args[0])  # as it arrives, before any handler runs
        super().dispatch(event_name, *args, **kwargs)

    async def _finish_answering(self) -> None:
        """Let the interactions being handled finish before the connection closes.

        A move is stored before it is announced, so a shutdown in between loses no move, but
        its player would be left with "thinking…" where their board should be and the bot
        would log its follow-up failing. Waiting a few seconds (new interactions included:
        they come until the gateway closes) ends every answer cleanly."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FINISH_S
        me = asyncio.current_task()
        while busy := [
            t for t in asyncio.all_tasks() if t is not me and t.get_name().startswith(HANDLER_TASKS)
        ]:
            left = deadline - loop.time()
            if left <= 0:
                log.warning("closing with %d interaction(s) still being answered", len(busy))
                return
            await asyncio.wait(busy, timeout=left)

    async def until_idle(self) -> None:
        """Return once nothing is under way here: no interaction being answered, no AI seat
        moving, no replay being posted. What a task starts before it ends is waited for too,
        so the tests know when everything an action caused is done, without waiting on
        silence."""
        me = asyncio.current_task()
        while busy := [
            t
            for t in asyncio.all_tasks()
            if t is not me
            and (
                t.get_name().startswith(HANDLER_TASKS)
                or (self.aftermath is not None and t in self.aftermath.busy())
            )
        ]:
            await asyncio.wait(busy)

    # ------------------------------------------------------------------ errors

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: object
    ) -> None:
        """A command's handler is done with its interaction (discord.py says so once the
        handler has returned): let go of it (`answering.let_go`). A command that failed is
        let go of by `on_app_command_error`, once it has answered."""
        answering.let_go(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        try:
            await self._answer_command_error(interaction, error)
        finally:
            answering.let_go(interaction)

    async def _answer_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        said = answering.refusal(original)  # a refusal, or the store away just now
        if said is not None:
            await answering.reply_error(interaction, said)
            return
        if isinstance(error, app_commands.CheckFailure) and getattr(error, "key", None):
            await answering.reply_error(interaction, error)  # said in the asker's language
            return
        if isinstance(error, app_commands.CheckFailure):
            refusal = str(error) or wording.personal(interaction)("bot.error.not_here")
            await answering.reply_error(interaction, refusal)
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        if answering.too_late(original):
            # Answered after Discord's three seconds (a very busy moment): nothing was changed
            # by what the command could not answer, and the person's client already said so.
            log.warning("/%s answered too late: Discord's window had closed", name)
            return
        game = None
        with contextlib.suppress(Exception):
            game = await self.service.games.in_channel(interaction.channel_id, interaction.user.id)
        log.error(
            "game %s: unexpected error in /%s", game.id if game else "-", name, exc_info=original
        )
        with contextlib.suppress(discord.HTTPException):
            await answering.reply_error(interaction, wording.personal(interaction)("bot.apology"))
