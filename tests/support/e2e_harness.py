"""Run the real bot against the Discord emulator, inside the test's event loop.

The bot is pointed at the emulator as `python bot.py --sandbox` points it
(`sandbox.emulator.pointing`): discord.py's API base and gateway address, nothing else; the
bot's own code paths are untouched.

The harness also reads the game straight from the bot's SQLite file (a second connection; the
file is in WAL mode), because the database is the source of truth the tests check against.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord.state import AutoShardedConnectionState
from moved_clock import MOVED

from engine import State
from games import find_game
from games.pylons.ai.reference import runner
from hvbot.database import SqliteDatabase
from hvbot.infra.config import Settings
from hvbot.messages.presenters import presenter_for
from hvbot.runtime.client import GameBot
from hvbot.services import GameService
from hvbot.store import GameRow, GameStore, SeatRow
from sandbox.emulator import (
    Channel,
    DiscordEmulator,
    Record,
    Reply,
    StoredMessage,
    User,
    Visibility,
    layout,
)
from sandbox.emulator.models import IS_COMPONENTS_V2

# How often the bot runs its periodic checks (reminders, clocks, owed posts) on its own in
# tests. It also looks at once whenever a test moves time on or changes the database behind its
# back (`wake_running_bots`), which is when something falls due in a test; so an idle bot
# hardly wakes, where polling every tenth of a second cost it 15 ms of CPU a second.
REMIND_CHECK_S = 1.0
AI_PAUSE = 0.01
WATCHED_LOGGERS = ("discord", "hvbot")


class ErrorLog(logging.Handler):
    """Keeps the errors the bot and discord.py log: a swallowed exception must fail a test."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(WATCHED_LOGGERS):
            self.records.append(record)

    def summary(self) -> str:
        lines = []
        for record in self.records:
            lines.append(f"{record.name}: {record.getMessage()}")
            if record.exc_info and record.exc_info[1] is not None:
                lines.append(f"    {record.exc_info[1]!r}")
        return "\n".join(lines)


async def not_waiting_for_the_disk(store: GameStore) -> None:
    """On SQLite, the bot's commits reach the operating system without waiting for the disk to
    confirm them, as the tests' PostgreSQL server does (`fsync=off`, see postgres_server): a
    few milliseconds a commit on a busy disk, tens of commits a game. What a test checks is the
    same: a bot process killed or stopped loses nothing either way, only a machine that loses
    its power would."""
    if isinstance(store.db, SqliteDatabase):
        await store.db.conn.execute("PRAGMA synchronous = OFF")


_running: list[GameBot] = []  # the bots of this process's harnesses, while running


def wake_running_bots() -> None:
    """Every running bot of this process runs its periodic checks now: what a test changed
    (the time, rows behind the bots' backs) may have made something due, and with several
    processes on one database any of them may be the one to act on it."""
    for bot in _running:
        cog = bot.get_cog("RemindersCog")
        if cog is not None:
            cog.wake()  # type: ignore[attr-defined]  # the cog's own method (hvbot.cogs.periodic)


MOVED.append(wake_running_bots)


class GuildsArrived(asyncio.Queue[Any]):
    """The queue discord.py takes a shard's GUILD_CREATEs from between its READY and `ready`,
    which also says when the last guild READY announced has arrived.

    discord.py cannot know whether more guilds are coming, so it calls a shard ready only once
    `guild_ready_timeout` has passed without one: with one guild, every start of a bot waited
    that long doing nothing after its guild had come. Here READY's list of the shard's guilds
    says what is to come: once each of them is available and none is waiting to be taken, the
    next `get` ends the wait as its timeout would (with TimeoutError), at once. A guild that is
    slow to come is still waited for, as long as discord.py would have waited."""

    def __init__(self, connection: Any, shard_id: int) -> None:
        super().__init__()
        self.connection = connection
        self.shard_id = shard_id

    async def get(self) -> Any:
        if self.empty() and not any(
            guild.unavailable for guild in self.connection.guilds if guild.shard_id == self.shard_id
        ):
            raise TimeoutError
        return await super().get()


def ready_when_guilds_arrive(bot: discord.Client) -> None:
    """Have `bot` call each shard ready when READY's guilds have all arrived (`GuildsArrived`)
    rather than a fixed time after the last, at this and every later IDENTIFY. Any discord.py
    client the tests connect: the bot of a harness (sharded), or a plain test bot (one
    connection, the one queue)."""
    connection = bot._connection
    parse_ready = connection.parsers["READY"]

    def parse_ready_then_count(data: Any) -> None:
        parse_ready(data)
        shard_id = data["shard"][0] if data.get("shard") else 0
        if isinstance(connection, AutoShardedConnectionState):
            waiting = connection._ready_states.get(shard_id)
            if type(waiting) is asyncio.Queue and waiting.empty():
                connection._ready_states[shard_id] = GuildsArrived(connection, shard_id)
        else:
            waiting = getattr(connection, "_ready_state", None)
            if type(waiting) is asyncio.Queue and waiting.empty():
                connection._ready_state = GuildsArrived(connection, shard_id)

    connection.parsers["READY"] = parse_ready_then_count


class BotHarness:
    """One bot process-equivalent: start, stop, restart on the same database file."""

    # How long discord.py waits for another guild after the last before it calls a shard
    # ready. The harness's bots are ready as soon as READY's guilds have all arrived
    # (`ready_when_guilds_arrive`): this is only how long a guild slow to come is waited for.
    guild_ready_timeout = 0.05

    def __init__(
        self,
        emu: DiscordEmulator,
        database: Path | str,
        *,
        guild_scoped: bool = True,
        seed: int = 7,
        drawing_processes: int = 0,
    ) -> None:
        self.emu = emu
        self.drawing_processes = drawing_processes
        self.database = database
        self.guild_scoped = guild_scoped
        self.seed = seed
        self.bot: GameBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._reader: GameStore | None = None
        self.starts = 0
        self.check_s = REMIND_CHECK_S  # between the periodic checks' rounds, at the next start
        self.errors = ErrorLog()
        self.allowed_errors: list[str] = []

    @property
    def settings(self) -> Settings:
        return Settings(
            token=self.emu.token,
            database_url=f"sqlite:///{self.database}",
            guild_id=self.emu.guild_id if self.guild_scoped else None,
            log_level="INFO",
            drawing_processes=self.drawing_processes,
            # As fast as the emulated Discord admits sessions: a bot started again at once
            # would otherwise wait out Discord's 5 s since its last IDENTIFY.
            identify_interval=max(0.1, 2 * self.emu.gateway.identify_interval),
        )

    async def start(self) -> GameBot:
        """Log in (which syncs the commands) and connect; return once the bot is ready."""
        assert self.bot is None, "the bot is running already"
        # Seeds decide the deal: a fixed source makes every run of a test deal the same games.
        repo = await GameStore.open(self.database)
        await not_waiting_for_the_disk(repo)
        service = GameService(repo, seed_source=random.Random(self.seed + self.starts))
        bot = GameBot(
            self.settings,
            database=self.database,
            ai_pause=AI_PAUSE,
            remind_check_s=self.check_s,
            service=service,
            guild_ready_timeout=self.guild_ready_timeout,
        )
        ready_when_guilds_arrive(bot)
        logging.getLogger().addHandler(self.errors)
        await bot.login(self.emu.token)
        self._task = asyncio.create_task(bot.connect(reconnect=True))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        self.bot = bot
        self.starts += 1
        # The emulator's `settle` waits for this bot to be done, not for silence.
        self.emu.idle_checks.append(bot.until_idle)
        _running.append(bot)
        return bot

    async def stop(self) -> None:
        """Close the bot as a shutdown would: the connection, its AI tasks and the database."""
        bot, task = self.bot, self._task
        self.bot, self._task = None, None
        if bot is not None:
            _running.remove(bot)
            self.emu.idle_checks.remove(bot.until_idle)
            await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)
        logging.getLogger().removeHandler(self.errors)

    async def restart(self) -> GameBot:
        await self.stop()
        return await self.start()

    async def close(self) -> None:
        await self.stop()
        if self._reader is not None:
            await self._reader.close()
            self._reader = None

    async def caught_up(self, timeout: float = 10.0) -> None:
        """Return once the bot has done all it had to: a whole round of its periodic check
        (turn reminders, posts owed in the outbox, AI seats nobody thinks for) has run since
        the call, and then nothing is under way. What it has not sent by then it would never
        send unprompted, so a test can assert that nothing more came."""
        assert self.bot is not None, "the bot is not running"
        checks: Any = self.bot.get_cog("RemindersCog")  # hvbot.cogs.periodic
        # The round under way when called may have looked before what the test waits for:
        # woken meanwhile, the next starts as it ends, and is the whole one.
        rounds = checks.rounds + (2 if checks.in_round else 1)
        checks.wake()
        await self.emu.wait_for(
            lambda: checks.rounds >= rounds, timeout, message="a whole round of duties"
        )
        await self.emu.settle(timeout=timeout)

    async def alone(self) -> SqliteDatabase:
        """Stop the bot's periodic checks (reminders, clocks, posts owed, AI seats nobody
        holds; a round under way included) and hand its SQLite database: what a test then
        counts or traces on it is the interactions' own work, not a check's on its schedule."""
        assert self.bot is not None, "the bot is not running"
        await self.bot.get_cog("RemindersCog").cog_unload()  # type: ignore[union-attr]  # it is loaded
        db = self.bot.service.repo.db
        assert isinstance(db, SqliteDatabase), "the bot stores its games in SQLite here"
        return db

    def unexpected_errors(self) -> list[logging.LogRecord]:
        return [
            r
            for r in self.errors.records
            if not any(text in r.getMessage() for text in self.allowed_errors)
        ]

    # ------------------------------------------------------------------ the database

    async def reader(self) -> GameStore:
        if self._reader is None:
            self._reader = await GameStore.open(self.database, cache=False)
        return self._reader

    async def game(self, channel_id: int | None = None) -> GameRow:
        """The open game in the channel (or the latest game there once it has ended)."""
        repo = await self.reader()
        channel = channel_id or self.emu.channel.id
        found = await repo.open_game_in_channel(channel_id=channel)
        if found is not None:
            return found
        latest = await self.latest_game(channel)
        assert latest is not None, f"no game in channel {channel}"
        return latest

    async def latest_game(self, channel_id: int | None = None) -> GameRow | None:
        repo = await self.reader()
        channel = channel_id or self.emu.channel.id
        game_id = await repo.db.fetchval(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel
        )
        return await repo.game(game_id=game_id) if game_id is not None else None

    async def sql(self, statement: str, *args: Any) -> int:
        """Change the database behind the bot's back (a clock moved on, another process); the
        running bots look at once for what that made due."""
        repo = await self.reader()
        changed = await repo.db.transact(lambda tx: tx.execute(statement, *args))
        wake_running_bots()
        return changed

    async def state(self, game: GameRow | None = None) -> State:
        game = game or await self.game()
        assert game.state is not None, "the game has not started"
        return find_game(game.game_name).state_from_dict(game.state)

    async def actions(self, game: GameRow | None = None) -> list[tuple[int, str]]:
        game = game or await self.game()
        return await (await self.reader()).actions(game_id=game.id)


def replay(game: GameRow, actions: list[tuple[int, str]]) -> list[State]:
    """Every state of a game from its deal, after each stored action (index 0: the deal)."""
    assert game.seed is not None
    rules = find_game(game.game_name)
    state = rules.new_state(len(game.seats), game.seed, game.options)
    states = [state.copy()]
    for _, text in actions:
        state.apply(text)
        states.append(state.copy())
    return states


def racing_cell(state: State, rng: random.Random) -> str:
    """Where a Pylons player racing to connect their borders places next (the reference
    `runner`, from the seat's own view): against a random AI seat the game ends within a few
    dozen moves and boards, where random play takes about two hundred."""
    seat = state.current_seat()
    assert seat is not None, "the game is over"
    action = runner(state.view(seat), rng)
    assert action.startswith("place "), action
    return action.split()[1]


def names_of(game: GameRow) -> list[str]:
    return [seat.display_name for seat in game.seats]


def colour_of(state: State, seat: int) -> str:
    colour: Any = state.view(seat)["players"][seat]["colour"]
    return str(colour)


# ---------------------------------------------------------------------- playing through Discord

BOARD = "board.png"


ANNOUNCING_KINDS = ("response", "followup", "channel_message")


def is_peek(text: str) -> bool:
    """`draw C3` alone only shows the card to its drawer: nothing public happens."""
    words = [w for w in text.split() if not w.startswith("special=")]
    return len(words) == 2 and words[0] == "draw"


@contextlib.contextmanager
def late_answers(emu: DiscordEmulator) -> Iterator[None]:
    """Inside, every answer comes after Discord's three seconds (a very busy moment) and is
    refused with 10062 as Discord would; those refusals are expected, any other still fails
    the test."""
    window = emu.interaction_window
    emu.interaction_window = 0.0
    try:
        yield
    finally:
        emu.interaction_window = window
    refused = {(r.status, r.body.get("code")) for r in emu.rejections}
    assert refused == {(404, 10062)}, emu.rejections
    emu.rejections.clear()


def board_posts(
    emu: DiscordEmulator, *, since: int = 0, channel: Channel | None = None
) -> list[Record]:
    """Public messages in the game channel (or `channel`, a game's thread, say) that carry a
    board picture, oldest first."""
    return [
        r
        for r in emu.messages(
            visibility="public", kind=ANNOUNCING_KINDS, channel=channel or emu.channel, since=since
        )
        if r.has_attachment(BOARD)
    ]


def card_of(record: Record) -> dict[str, Any]:
    """The one container a card is (its accent colour, its text, gallery and rows): checked to
    be the whole message, with nothing beside it."""
    assert record.layout, f"{record} is not a card"
    (container,) = record.layout
    assert container["type"] == layout.CONTAINER, f"{record}: not one container"
    return container


def heading(record: Record) -> str:
    """A card's first line, as its reader sees it (a secret's title, a "### " heading)."""
    return record.text.splitlines()[0].lstrip("#").strip()


def check_card(emu: DiscordEmulator, post: Record, *, pictures: int = 0) -> dict[str, Any]:
    """A post as a card, as Discord accepted it: sent with the Components V2 flag (which
    stays), one container holding its words first, then its `pictures` in one gallery where
    every picture has its alt text within Discord's limit, then every button of the message,
    in rows inside it. Its container."""
    container = card_of(post)
    assert post.message_id is not None
    stored = emu.messages_by_id.get(post.message_id)
    assert stored is None or stored.flags & IS_COMPONENTS_V2, f"{post} lost its flag"
    assert not post.content and not post.embeds, f"{post}: words beside the card"
    inside = container["components"]
    kinds = [c["type"] for c in inside]
    shown = [layout.TEXT_DISPLAY] + ([layout.MEDIA_GALLERY] if pictures else [])
    assert kinds[: len(shown)] == shown, f"{post}: {kinds}"
    assert set(kinds[len(shown) :]) <= {layout.ACTION_ROW}, f"{post}: {kinds}"
    assert inside[0]["content"].strip(), f"{post} says nothing"
    names = {a.filename for a in post.attachments}
    items = inside[1]["items"] if pictures else []
    assert len(items) == pictures, f"{post}: {len(items)} pictures, not {pictures}"
    for item in items:
        alt = item.get("description") or ""
        assert 0 < len(alt) <= 1024, f"{post}: a picture without its alt text"
        assert item["media"]["url"].removeprefix("attachment://") in names, item
    rows = [b for row in inside[len(shown) :] for b in row["components"]]
    assert len(rows) == len(post.components), f"{post}: a button outside the card"
    return container


def check_board_card(emu: DiscordEmulator, post: Record) -> dict[str, Any]:
    """A board post as a card (`check_card`): its words, the board (and at the end, the
    result) in its gallery, its buttons inside. Its container."""
    container = card_of(post)
    (gallery,) = [c for c in container["components"] if c["type"] == layout.MEDIA_GALLERY]
    return check_card(emu, post, pictures=len(gallery["items"]))


def accent_of(record: Record) -> int | None:
    """A card's accent colour (None: Discord's plain edge)."""
    colour = card_of(record).get("accent_color")
    return colour if isinstance(colour, int) else None


def to_move_accent(game: GameRow, state: State) -> int | None:
    """The accent a board card of `state` has: the seat to move's colour, or at the end the
    lone winner's (none for a shared win), as the game's presenter gives them."""
    presenter = presenter_for(game.game_name)
    seat = state.current_seat()
    if state.is_terminal() or seat is None:
        outcome = state.outcome()
        winners = outcome.winners if outcome is not None else ()
        return presenter.accent(winners[0]) if len(winners) == 1 else None
    return presenter.accent(seat)


def check_game_cards(
    emu: DiscordEmulator, game: GameRow, posts: list[Record], moments: list[State]
) -> None:
    """A whole game's board posts, each the board of the matching moment: every one a card
    (`check_board_card`), edged in the colour of the seat to move then (the lone winner's at
    the end), the game's choices in the cards of a person to move; and every message the bot
    sent that carries a game's picture is a card too (the emulator refused none, or the
    `emulator` fixture fails the test)."""
    assert len(posts) == len(moments), f"{len(posts)} boards for {len(moments)} moments"
    seen: set[int | None] = set()
    for post, state in zip(posts, moments, strict=True):
        check_board_card(emu, post)
        assert accent_of(post) == to_move_accent(game, state), f"{post}: not the mover's colour"
        seen.add(accent_of(post))
    assert len(seen) > 1, "the colour changes with the player to move"
    for record in emu.messages():
        names = {a.filename for a in record.attachments}
        if names & {"board.png", "secret.png", "card.png", "tile.png"} and record.kind != "delete":
            card_of(record)
    assert not emu.rejections, emu.rejections


def prompt_for(emu: DiscordEmulator, user: User, game: GameRow) -> StoredMessage | None:
    """The private prompt (its current state) made for this user at the game's version."""
    prefix = f"act:{game.id}:{game.version}:"
    mine = Visibility.ephemeral_to(user)
    found = [
        m
        for m in emu.messages_by_id.values()
        if m.visibility == mine and any((b.custom_id or "").startswith(prefix) for b in m.buttons)
    ]
    return found[-1] if found else None


def button_id(game: GameRow, action: str) -> str:
    return f"act:{game.id}:{game.version}:{action.replace(' ', '_')}"


def command_for(action: str) -> tuple[str, dict[str, Any]]:
    """The slash command (and its options) a player types for an engine action text."""
    words = action.split()
    options: dict[str, Any] = {}
    if words[-1].startswith("special="):
        options["special"] = words.pop().split("=", 1)[1]
    verb, args = words[0], words[1:]
    if verb == "draw":
        options["cell"] = args[0]
        if len(args) == 3:
            options["place"], options["rotation"] = args[1], int(args[2][1:])
    elif verb in ("rotate", "move"):
        options["cell"], options["rotation"] = args[0], int(args[1][1:])
    elif verb == "swap":
        options.update(a=args[0], b=args[1], rotation_a=int(args[2][1:]))
        options["rotation_b"] = int(args[3][1:])
    else:
        raise ValueError(f"{action!r} has no slash command (it is played with buttons)")
    return f"hv {verb}", options


class Table:
    """The people at one game, playing legal moves through Discord: slash commands for actions,
    the buttons of their private prompts for placing a drawn card and declaring lines."""

    def __init__(
        self, emu: DiscordEmulator, hv: BotHarness, people: list[User], *, seed: int = 11
    ) -> None:
        self.emu = emu
        self.hv = hv
        self.people = {p.id: p for p in people}
        self.rng = random.Random(seed)

    async def settled(self) -> tuple[GameRow, State] | None:
        """(game, state) once every stored action has been announced and either the game is
        over or a person is to move (with their prompt shown, if they have one)."""
        game = await self.hv.game()
        if game.state is None:
            return None
        actions = await self.hv.actions(game)
        expected = 1 + sum(not is_peek(text) for _, text in actions)
        if len(board_posts(self.emu)) < expected:
            return None
        if not self.secrets_delivered(game):
            return None
        state = find_game(game.game_name).state_from_dict(game.state)
        if state.is_terminal():
            return game, state
        seat = state.current_seat()
        assert seat is not None
        user_id = game.seats[seat].user_id
        if user_id is None:
            return None
        phase = state.view(None)["phase"]
        waiting = phase in ("placing", "declaring")
        if waiting and prompt_for(self.emu, self.people[user_id], game) is None:
            return None
        return game, state

    def secrets_delivered(self, game: GameRow) -> bool:
        """Every person got their colour by DM, or the channel was told their DM failed."""
        for seat in game.seats:
            if seat.user_id is None:
                continue
            dm = self.emu.messages(visibility=Visibility.dm_to(seat.user_id))
            notice = [
                r
                for r in self.emu.messages(visibility="public", channel=game.channel_id)
                if "/game mysecret" in r.text and f"<@{seat.user_id}>" in r.text
            ]
            if not dm and not notice:
                return False
        return True

    async def wait_for_turn(self, timeout: float = 20.0) -> tuple[GameRow, State]:
        return await self.emu.wait_for(
            self.settled, timeout, message="a person's turn, with everything announced"
        )

    def choose(self, state: State) -> str:
        """A legal action, picked like a keen player: draws are favoured (so games end in a
        reasonable number of moves), and an action that closes a line is preferred, so the
        declaring prompts get played too. The test may look at the whole state to choose."""
        phase = state.view(None)["phase"]
        legal = [a.text() for a in state.legal_actions()] if phase != "action" else []
        if phase == "declaring":
            lines = [a for a in legal if a != "declare none"]
            if lines and self.rng.random() < 0.85:
                return self.rng.choice(lines)
            return "declare none"
        candidates = legal if phase == "placing" else [self._candidate(state) for _ in range(12)]
        closing = [a for a in candidates if not is_peek(a) and self._closes_line(state, a)]
        return self.rng.choice(closing or candidates)

    def _candidate(self, state: State) -> str:
        view = state.view(None)
        if view["face_down"] and self.rng.random() < 0.6:
            cell = self.rng.choice([c["cell"] for c in view["cells"] if c["state"] == "down"])
            if self.rng.random() < 0.4:
                return f"draw {cell}"
            place = self.rng.choice(("here", "empty"))
            return f"draw {cell} {place} r{self.rng.choice((0, 90, 180, 270))}"
        return state.sample_action(self.rng).text()

    @staticmethod
    def _closes_line(state: State, action: str) -> bool:
        trial = state.copy()
        trial.apply(action)
        return bool(trial.closable_lines())

    async def play(
        self, game: GameRow, state: State, action: str | None = None, *, settle: bool = True
    ) -> Reply:
        """The person to move takes `action` (or a random legal one) the way a user would;
        without `settle`, a click does not wait for the bot to be done either (a command
        never does)."""
        seat = state.current_seat()
        assert seat is not None
        user_id = game.seats[seat].user_id
        assert user_id is not None, "an AI seat is to move"
        user = self.people[user_id]
        action = action or self.choose(state)
        phase = state.view(None)["phase"]
        if phase in ("placing", "declaring"):
            prompt = prompt_for(self.emu, user, game)
            assert prompt is not None, f"no prompt for {user.name} at version {game.version}"
            return await self.emu.click(
                user, button_id(game, action), message=prompt.id, settle=settle
            )
        command, options = command_for(action)
        return await self.emu.slash(user, command, settle=False, **options)

    async def play_moves(self, count: int) -> tuple[GameRow, State]:
        """`count` moves of the people (fewer if the game ends first), then everything
        announced: a game played on for a while where its end is not the point."""
        for _ in range(count):
            game, state = await self.wait_for_turn()
            if state.is_terminal():
                return game, state
            await self.play(game, state)
        return await self.wait_for_turn()

    async def play_to_end(self, max_moves: int = 600) -> tuple[GameRow, State]:
        for _ in range(max_moves):
            game, state = await self.wait_for_turn()
            if state.is_terminal():
                return game, state
            await self.play(game, state)
        raise AssertionError(f"the game did not end within {max_moves} moves")


DANGER = 4  # Discord's style of a button that does what cannot be undone (red)


def confirm_button(reply: Reply) -> tuple[Record, str] | None:
    """The private question asked before resigning or abandoning, and its red button's
    custom_id; None if the command was refused instead of asked."""
    for record in reply.where(kind="response"):
        for button in record.components:
            if button.style == DANGER and button.custom_id:
                return record, button.custom_id
    return None


async def confirmed(
    emu: DiscordEmulator, user: User, command: str, *, channel: Channel | None = None
) -> Reply:
    """`/command` (resign, abandon) and its red button pressed, as a person sure of it does:
    what the click did, or the command's refusal when it asked nothing."""
    asked = await emu.slash(user, command, channel=channel)
    found = confirm_button(asked)
    if found is None:
        return asked
    question, yes = found
    return await emu.click(user, yes, message=question)


def lobby_button(lobby: Record, what: str) -> str:
    """The custom_id of the lobby's Join / Leave / Add AI / Start button."""
    found = [c for c in lobby.custom_ids if c.startswith("lobby:") and c.endswith(f":{what}")]
    assert len(found) == 1, f"no single {what} button on {lobby}"
    return found[0]


async def open_three_seat_game(
    emu: DiscordEmulator,
    hv: BotHarness,
    *,
    with_buttons: bool = True,
    closed_dms: tuple[str, ...] = (),
) -> tuple[User, User, Record, Table]:
    """Ada opens a lobby, Bo joins, Ada seats an AI and starts: two people and one AI.

    With `with_buttons` the lobby's buttons are pressed, else the /game commands are typed.
    The people named in `closed_dms` accept no DMs. Returns once the game is started and a
    person is to move.
    """
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    for person in (ada, bo):
        if person.name in closed_dms:
            emu.faults.close_dms(person.id)
    reply = await emu.slash(ada, "game new", game="high-voltage")
    lobby = reply.where(kind="response", visibility="public")[0]
    if with_buttons:
        await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
        await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
        await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    else:
        await emu.slash(bo, "game join")
        await emu.slash(ada, "game addai", level="easy")
        await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada, bo])
    await table.wait_for_turn()
    return ada, bo, lobby, table


async def before_the_ai(table: Table) -> tuple[GameRow, State, int]:
    """Play on at `table` until the person to move sits just before its AI seat, so that the
    AI answers their move: the game, its state, and the AI's seat."""
    game, state = await table.wait_for_turn()
    ai_seat = next(s.seat for s in game.seats if s.is_ai)
    for _ in range(30):
        if state.current_seat() == (ai_seat - 1) % len(game.seats):
            return game, state, ai_seat
        await table.play(game, state)
        game, state = await table.wait_for_turn()
    raise AssertionError("the person before the AI seat never came to move")


@dataclass
class HeldMove:
    """A person's move whose board post Discord holds back (a rate limit): stored and
    acknowledged, its picture drawn, its post waiting to go out."""

    mover: SeatRow
    cell: str  # the face-down card drawn and placed where it lay
    since: int  # the last record before the move
    moving: asyncio.Task[Reply]

    def posts(self, emu: DiscordEmulator) -> list[Record]:
        """The move's board posts so far."""
        return [
            r
            for r in board_posts(emu, since=self.since)
            if r.text.startswith(self.mover.display_name)
        ]

    async def announced(self, emu: DiscordEmulator) -> list[Record]:
        """The move's board posts, once its command is answered and the first is out."""
        await self.moving
        await emu.wait_for(lambda: self.posts(emu), 10, message="the move's board post")
        return self.posts(emu)


async def move_with_post_held(
    emu: DiscordEmulator, hv: BotHarness, pause: float, table: Table | None = None
) -> HeldMove:
    """Have the person to move at `table` (by default a new game of two people and an AI)
    draw a card while the channel posts that announce moves answer 429 once, with a pause of
    `pause` seconds."""
    if table is None:
        _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    mover = game.seats[state.current_seat() or 0]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    held = emu.faults.rate_limit("POST /channels/{channel_id}/messages", retry_after=pause)
    since = emu.last_seq
    moving = asyncio.create_task(table.play(game, state, f"draw {cell} here r90"))
    await emu.wait_for(lambda: held.fired == 1, 5, message="the board's post held back")
    return HeldMove(mover, cell, since, moving)


@dataclass
class Rotated:
    """A two-person High Voltage game in which the first mover has just turned a card."""

    before: State  # the game before the rotation
    move: str
    mover: User
    other: User


async def rotated(emu: DiscordEmulator, hv: BotHarness) -> Rotated:
    """Ada opens a High Voltage game, Bo joins, and whoever moves first turns a card: a game
    under way, with a move that may be taken back."""
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    before = find_game(game.game_name).state_from_dict(game.state)
    mover = emu.users[game.seats[before.current_seat()].user_id]
    move = next(a.text() for a in before.legal_actions() if a.text().startswith("rotate"))
    _, cell, rotation = move.split()
    await emu.slash(mover, "hv rotate", cell=cell, rotation=int(rotation[1:]))
    assert (await hv.actions()) != []
    return Rotated(before, move, mover, bo if mover is ada else ada)
