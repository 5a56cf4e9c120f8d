"""The bot: opens the database, registers commands and persistent buttons, runs AI seats.

At start-up it reloads every open game from the database and resumes the AI seats whose turn
it is, so a restart loses nothing; buttons need no reloading because their custom_ids carry
everything needed to find their game.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import sys
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import mention_commands, texts_for
from games import plugins
from hvbot import (
    announcing,
    answering,
    board_buttons,
    claims,
    memory,
    outbox,
    replay,
    views,
    wording,
    workers,
)
from hvbot.config import Settings
from hvbot.handlers import lobby, moves, requests
from hvbot.presenters import warm_up
from hvbot.service import BotError, GameService, ai_turn
from hvbot.store import GameRow, GameStore
from hvbot.translator import Translator

log = logging.getLogger(__name__)
SWITCH_INTERVAL_S = 0.001  # how long a thread may hold the interpreter lock (default 0.005)
# discord.py runs each slash command, button and form in a task named like these (and a move
# goes on in one of ours, `answering.go_on`); discord.py's names are not part of its documented
# interface, so tests/test_e2e_faults.py checks that closing waits.
HANDLER_TASKS = (
    answering.ANSWER_TASK,
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)
# The commands of the bot itself, loaded as discord.py extensions before each game's own.
EXTENSIONS = ("hvbot.cogs.game", "hvbot.cogs.reminders", "hvbot.cogs.stats")
FINISH_S = 10.0  # at most this long to finish answering at shutdown
OUTBOX_SWEEP_S = 3600.0  # how often posts made long ago are dropped from the outbox


def _hold(tasks: set[asyncio.Task[None]], task: asyncio.Task[None]) -> None:
    """Keep `task` in `tasks` until it ends: the event loop keeps only a weak reference."""
    tasks.add(task)
    task.add_done_callback(tasks.discard)


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
        # Slash commands and buttons need no privileged intents (no message content, no members).
        # The bot never looks messages up in discord.py's cache (buttons carry their own game
        # and version), so it keeps none: a thousand board posts would otherwise stay in memory.
        options.setdefault("max_messages", None)
        # Several processes may share the bot's shards (SHARD_COUNT, SHARD_IDS); each runs the
        # ones it is given, and any process may be handed any game: the database is the truth.
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", list(settings.shard_ids) if settings.shard_ids else None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.settings = settings
        # A DATABASE_URL (SQLite or PostgreSQL) or a SQLite file's path.
        self.database = database or settings.database_url
        self.ai_pause = ai_pause
        self.remind_check_s = remind_check_s
        self.service: GameService = service  # type: ignore[assignment]  # set in setup_hook
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._replay_tasks: set[asyncio.Task[None]] = set()
        self._answering: set[asyncio.Task[None]] = set()  # see keep_until_done
        self._stopping = False  # once closing: no AI move or replay is started any more
        self._connected = False  # see close
        self._outbox_swept = float("-inf")  # when posts made long ago were last dropped
        # Who holds this process's claims in the database (see hvbot.claims).
        self.owner = secrets.token_hex(8)
        # Set in setup_hook: the workers drawing pictures, and the one for long work.
        self.pictures: workers.Workers | None = None
        self.background: workers.Workers | None = None

    async def setup_hook(self) -> None:
        # Threads work beside the event loop: the database's, those feeding the worker
        # processes, and with DRAWING_PROCESSES=0 the drawing and thinking. Every answer is a
        # string of short socket calls that each give up Python's global lock and must win it
        # back; by default a busy thread keeps it up to 5 ms each time, which at a few hundred
        # games adds up to answers late by a fraction of a second. A shorter turn gives the
        # loop the lock back sooner, for a little overhead.
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        if self.settings.drawing_processes:
            # Pictures drawn by the workers pass through on their way out (see hvbot.memory).
            # Drawn in this process's threads, the same setting would slow the drawing.
            memory.give_back_large_buffers()
        if self.service is None:
            self.service = GameService(await GameStore.open(self.database))
        filled = await self.service.results.backfill_results()
        if filled:
            log.info("stored the results of %d games finished before results were kept", filled)
        # Pictures are drawn in worker processes (see hvbot.workers), each warmed up as it
        # starts; the first is started now, so the first board players see is as quick as the
        # rest. Replays and AI thinking get a worker of their own when first needed.
        processes = self.settings.drawing_processes
        self.pictures = workers.Workers(processes, warm_up=warm_up, ahead=workers.PICTURES_AHEAD)
        self.background = workers.Workers(1 if processes else 0)
        workers.use(self.pictures, self.background)
        await self.pictures.start()
        views.register(self)
        # The commands every game shares, then each registered game's own (see `games`).
        for extension in (*EXTENSIONS, *(game.commands for game in plugins())):
            await self.load_extension(extension)
        self.tree.on_error = self.on_app_command_error
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
        for game in await self.service.repo.open_games():
            if game.status == "active" and game.state is not None:
                self.after_change(game, self.service.games.peek_state(game))
        # What start-up built (the libraries, fonts, picture pieces, card data, commands) lives
        # as long as the process. Left to the garbage collector, every full collection walks all
        # of it again, which at a few hundred games took 100-300 ms each time with everything
        # else waiting; frozen, a collection only walks what games create.
        gc.collect()
        gc.freeze()
        log.info("ready to serve games from %s", self.service.repo.db)

    async def close(self) -> None:
        await self._finish_answering()
        mention_commands({})  # this application's commands are no longer served from here
        self._stopping = True
        tasks = [*self._ai_tasks.values(), *self._replay_tasks]
        for task in tasks:
            task.cancel()
        # Cancelled, they are not left reading a database about to be closed.
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._connected:
            await super().close()
        else:
            # Never connected (a test, or a start-up that failed): discord.py's sharded close
            # expects the queue its connect makes.
            await self.http.close()
        if self.service is not None:
            await self.service.repo.close()
        for pool in (self.pictures, self.background):
            if pool is not None:
                pool.close()
        workers.use(workers.Workers(0), workers.Workers(0))

    async def connect(self, *, reconnect: bool = True) -> None:
        self._connected = True
        await super().connect(reconnect=reconnect)

    def keep_until_done(self, task: asyncio.Task[None]) -> None:
        """Hold a task answering an interaction until it ends (see `_hold`)."""
        _hold(self._answering, task)

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
                or t in self._ai_tasks.values()
                or t in self._replay_tasks
            )
        ]:
            await asyncio.wait(busy)

    # ------------------------------------------------------------------ AI seats

    def after_change(self, game: GameRow, state: Any) -> None:
        """What follows a change once it is announced: the replay when the game is over, else
        the AI seat's move if it is an AI's turn and none is running for this game.

        Every way a game can end (a command, a button, a late answer, an AI's move) comes
        through here right after the result is posted, so the replay follows the result.
        So does every change that moves the turn on: a board post's buttons it made stale
        are taken off here (see hvbot.board_buttons)."""
        if self._stopping:
            return
        board_buttons.moved_on(self, game)
        if state.is_terminal():
            _hold(self._replay_tasks, asyncio.create_task(self._post_replay(game)))
            return
        seat = state.current_seat()
        if game.status != "active" or seat is None or not game.seats[seat].is_ai:
            return
        self._start_ai(game.id)

    def _start_ai(self, game_id: int, *, claimed: bool = False) -> None:
        running = self._ai_tasks.get(game_id)
        if running is not None and not running.done():
            return
        self._ai_tasks[game_id] = asyncio.create_task(self._run_ai(game_id, claimed=claimed))

    async def _run_ai(self, game_id: int, *, claimed: bool = False) -> None:
        """Play the AI seats of a game while one is to move, holding the claim of their
        thinking (see hvbot.claims): another process does not think for them meanwhile, and
        takes over if this one dies."""
        await self.wait_until_ready()
        db = self.service.repo.db
        if not claimed and not await claims.claim_ai(db, game_id, self.owner):
            return  # another process is thinking for this game
        if await claims.owes_posts(db, game_id):
            # A move before the AI's is still to be told (its process died, say): the AI plays
            # once it is, from the outbox (`outbox.post`), so the channel reads them in order.
            await claims.release_ai(db, game_id, self.owner)
            return
        while await self._play_ai(game_id):
            await claims.release_ai(db, game_id, self.owner)
            # A person may have moved while this task was letting go, handing the turn to an
            # AI again: `after_change` left that to this task, so look once more.
            game = await self.service.repo.game(game_id=game_id)
            if game is None or not ai_turn(game, self.service.games.peek_state(game)):
                return
            if not await claims.claim_ai(db, game_id, self.owner):
                return

    async def _play_ai(self, game_id: int) -> bool:
        """Play the AI seats' moves in a row; True once a person is to move (or the game is
        over), False if the AI failed or played the most moves in a row allowed."""
        db = self.service.repo.db
        for _ in range(256):
            await asyncio.sleep(self.ai_pause)
            try:
                if not await claims.claim_ai(db, game_id, self.owner):  # renewed
                    return False  # taken over by another process: this one was too slow
                result = await self.service.play.ai_step(game_id=game_id)
            except Exception:
                log.exception("game %s: the AI seat failed to move", game_id)
                return False
            if result is None:
                return True
            post = await announcing.board_post(result.game, result, result.state)
            if post is not None:
                try:
                    await announcing.announce(self, result.game, post)
                except discord.HTTPException:
                    log.exception("game %s: could not post the AI's move", game_id)
            await self.posted(result.game)
            # While this task runs no other AI task starts for the game: this only matters
            # when the AI's move ended the game.
            self.after_change(result.game, result.state)
        return False

    # ------------------------------------------------------------------ the outbox

    async def posted(self, game: GameRow) -> None:
        """The board post of the move that made the game's version is out (or was never to
        be made): the outbox no longer owes it (see hvbot.claims)."""
        try:
            await claims.move_sent(self.service.repo.db, game_id=game.id, version=game.version)
        except Exception:
            # Posted, but still owed: another process may post it again after the lease.
            log.exception("game %s: could not mark the move's post as made", game.id)

    async def do_duties(self) -> None:
        """Take over what another process left undone (it died, say): posts owed by stored
        changes, and AI seats nobody is thinking for. Every process runs this now and then."""
        repo = self.service.repo
        for owed in await claims.claim_announcements(repo.db):
            try:
                await outbox.post(self, owed)
            except Exception:
                log.exception("game %s: could not make an owed post", owed.game_id)
        if not self._stopping:
            for game_id in await claims.claim_ai_turns(repo.db, self.owner):
                self._start_ai(game_id, claimed=True)
        now = asyncio.get_running_loop().time()
        if now >= self._outbox_swept + OUTBOX_SWEEP_S:
            self._outbox_swept = now
            await claims.forget_sent(repo.db)

    async def _post_replay(self, game: GameRow) -> None:
        """The replay of a game that just ended, in its channel, after the result; then the
        outbox no longer owes it (see hvbot.claims)."""
        try:
            await self.post_replay(game)
        except Exception:
            log.exception("game %s: could not post the replay", game.id)
        try:
            await claims.replay_sent(self.service.repo.db, game.id)
        except Exception:
            log.exception("game %s: could not mark the replay as posted", game.id)

    async def post_replay(self, game: GameRow) -> None:
        """Draw and post a finished game's replay (a warning, not a failure, when it has
        none: a game abandoned before any move, say)."""
        texts = texts_for(game.language)
        try:
            post = await replay.replay_post(
                self.service.repo, game, heading=texts("bot.replay.heading"), texts=texts
            )
        except replay.NoReplay as exc:
            log.warning("game %s: no replay: %s", game.id, exc)
            return
        await announcing.announce(self, game, post)

    # ------------------------------------------------------------------ buttons

    # A click on one of the bot's buttons (see hvbot.views) reaches its handler through these,
    # guarded like a command: a refusal is said to the clicker, an unexpected error logged.

    async def on_lobby_button(
        self, interaction: discord.Interaction, game_id: int, what: str
    ) -> None:
        async with answering.guarded(interaction, game_id):
            await lobby.lobby_button(interaction, game_id, what)

    async def on_action_button(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str
    ) -> None:
        async with answering.guarded(interaction, game_id):
            await moves.action_button(interaction, game_id, version, action)

    async def on_undo_answer(
        self, interaction: discord.Interaction, request_id: int, accept: bool
    ) -> None:
        async with answering.guarded(interaction, None):
            await requests.answer_undo(interaction, request_id, accept=accept)

    async def on_vote(self, interaction: discord.Interaction, vote_id: int, choice: str) -> None:
        async with answering.guarded(interaction, None):
            await requests.cast_vote(interaction, vote_id, choice)

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, BotError):
            await answering.reply_error(interaction, original)
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
            game = await self.service.repo.open_game_in_channel(channel_id=interaction.channel_id)
        log.error(
            "game %s: unexpected error in /%s", game.id if game else "-", name, exc_info=original
        )
        with contextlib.suppress(discord.HTTPException):
            await answering.reply_error(interaction, wording.personal(interaction)("bot.apology"))
