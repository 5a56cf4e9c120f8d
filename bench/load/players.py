"""The scripted people: two in each channel, who open a game as people do (/game new, Join,
Add AI, Start), play legal moves by slash commands and the buttons of their prompts as fast
as the bot answers, and open the next game when one ends."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, cast

from e2e_harness import BOARD, DANGER, command_for, is_peek

from engine import State
from games.high_voltage.rules.state import HighVoltageState
from hvbot.messages.replays import FILENAME as REPLAY
from sandbox.emulator import Channel, EmulatorUsageError, Record, User
from sandbox.emulator.interactions import InteractionState
from sandbox.emulator.load import LoadEmulator
from sandbox.emulator.models import shard_of

from .clocks import Said, Silence, first_of
from .config import (
    ANNOUNCING_KINDS,
    CHANNEL_MENTION,
    CLOCK_MINUTES,
    DEFERRED_LOBBY_S,
    FINISHED,
    LATE_ANSWER_S,
    LOBBY_NOTED_S,
    LOBBY_RESUMES,
    MENTION,
    MOVE_TIMEOUT,
    RAN_OUT,
    REPLICA_WAIT_S,
    RULES,
    SILENT_READ_S,
    STALL_SECONDS,
    WARNED,
)
from .reader import GameReader

# How the bot answered an interaction (Discord's interaction callback types): with a message,
# or with "thinking…" that a message replaces later.
ANSWERED, DEFERRED = 4, 5


@dataclass
class Sent:
    """One interaction a scripted player sent, and in which part of the run."""

    kind: str
    phase: str
    state: InteractionState


# ---------------------------------------------------------------------- choosing moves


def choose(state: State, rng: random.Random) -> str:
    """A legal action, like a keen player's: draws are frequent (many are laid at once, which
    is a public board post; some are looked at first, which is a private card and then a button)
    and an action that closes a line is preferred, so lines get declared with buttons too."""
    view = state.view(None)
    phase = view["phase"]
    if phase == "declaring":
        lines = [a.text() for a in state.legal_actions()]
        lines = [t for t in lines if t != "declare none"]
        return rng.choice(lines) if lines and rng.random() < 0.85 else "declare none"
    if phase == "placing":
        return state.sample_action(rng).text()
    candidates = [_candidate(state, view, rng) for _ in range(4)]
    closing = [a for a in candidates if not is_peek(a) and _closes_line(state, a)]
    return rng.choice(closing or candidates)


def _candidate(state: State, view: dict[str, Any], rng: random.Random) -> str:
    down = [c["cell"] for c in view["cells"] if c["state"] == "down"]
    if down and rng.random() < 0.6:
        cell = rng.choice(down)
        if rng.random() < 0.3:
            return f"draw {cell}"
        return f"draw {cell} {rng.choice(('here', 'empty'))} r{rng.choice((0, 90, 180, 270))}"
    return state.sample_action(rng).text()


def _closes_line(state: State, action: str) -> bool:
    # `copy`, not `clone`: the players' choices run in the emulator's process, and must not
    # delay its answers to the bot.
    trial = cast(HighVoltageState, state.copy())  # the players play High Voltage
    try:
        trial.apply(action)
    except Exception:
        return False
    return bool(trial.closable_lines())


def boards_due(data: dict[str, Any]) -> int:
    """Board pictures the bot posts for a stored game: one after the deal and one after every
    action but a look at a drawn card (which only its player sees)."""
    return 1 + sum(not is_peek(text) for text in data["history"])


# ---------------------------------------------------------------------- one channel, one game


@dataclass
class Turn:
    """A person is to move, and everything the bot had to post before that is posted."""

    user_id: int
    phase: str
    version: int
    state: State
    prompt_id: int | None


@dataclass
class Slot:
    """One channel with its two people, who play one game after another in it."""

    channel: Channel
    people: list[User]
    rng: random.Random
    game_id: int | None = None
    seat_users: list[int | None] = field(default_factory=list)
    boards: int = 0  # public board pictures posted for the current game
    pictures: int = 0  # ...and for all its games so far
    replays: int = 0  # replays of its finished games posted
    prompts: dict[int, tuple[int, int]] = field(default_factory=dict)  # user -> (message, ver)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # version, state dict, boards due, the seat an AI plays a move for (a clock ran out)
    parsed: tuple[int, dict[str, Any], int, int | None] | None = None
    status: str = ""  # the game's status as last read
    # Since the game was last read, the bot said something that may mean it moved on without
    # a board picture (anything but a board, a prompt, which say by themselves, or another
    # ephemeral answer: see `may_have_moved`), or nothing came for a while.
    news: bool = True
    read_at: float = 0.0  # when the game was last read (time.monotonic())
    state: tuple[int, State] | None = None
    moved_from: int | None = None  # the version a move was sent at, until the game moves on
    moved_by: float = 0.0  # when to stop waiting for that (a refusal that came another way)
    finished: int = 0
    stalls: int = 0
    # What the channel's player was waiting for when it last found no turn to play, and how
    # often each was what a stuck game waited for.
    awaiting: str = "nothing yet"
    stalled_on: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    moves: int = 0  # moves its people sent
    thought_once: bool = False  # its people have thought before a move since play began
    waiting: bool = False  # its player waits for the bot's next message
    seen_at: float | None = None  # when the first message came that it waited for
    # With a turn clock (--clocked): what its people sent and what the bots told them of it.
    clocked: bool = False
    silence: Silence | None = None  # its person to move is made to go silent
    sent_at: dict[int, set[int]] = field(default_factory=dict)  # game -> action numbers sent
    seats_of: dict[int, list[int | None]] = field(default_factory=dict)  # game -> seat users
    last_game: int | None = None  # the game being played, or the one before while none is
    ran_outs: list[Said] = field(default_factory=list)  # "ran out of time" posts
    warnings: list[Said] = field(default_factory=list)  # clock warnings by DM
    posted: Counter[str] = field(default_factory=Counter)  # nonces of channel messages seen

    def shard(self, shard_count: int) -> int:
        """The shard of this channel's server: which of the bot processes serves it."""
        return shard_of(self.channel.guild_id, shard_count)

    def by_id(self, user_id: int) -> User:
        return next(p for p in self.people if p.id == user_id)

    def saw(self, record: Record) -> None:
        """Called by the emulator for every record in this channel: count board pictures, keep
        each person's latest private prompt, note any other message but an ephemeral answer as
        news (see `may_have_moved`), then wake the player waiting for the bot."""
        announced = record.kind in ANNOUNCING_KINDS and record.is_public
        board = announced and record.has_attachment(BOARD)
        if board:
            self.boards += 1
            self.pictures += 1
        if announced and record.has_attachment(REPLAY):
            self.replays += 1
        prompt = None
        if record.visibility.kind == "ephemeral" and record.message_id is not None:
            prompt = next((c for c in record.custom_ids if c.startswith("act:")), None)
            if prompt is not None and record.visibility.user_id is not None:
                version = int(prompt.split(":")[2])
                self.prompts[record.visibility.user_id] = (record.message_id, version)
        if not board and prompt is None and record.visibility.kind != "ephemeral":
            self.news = True
        if self.clocked:
            self.saw_clock(record)
        if self.waiting and self.seen_at is None:
            self.seen_at = time.monotonic()
        self.changed.set()

    def may_have_moved(self) -> bool:
        """Whether the game may have moved on since it was last read, so that it is read again.

        Every action the bot stores is shown by a board picture but a look at a drawn card,
        which is answered with the prompt to place it, and a prompt names the version it was
        made for. So a picture the game read still owed, a prompt made for that version or
        before, or a private answer to a person's own click say nothing new; a picture more, a
        prompt for a later version, any other message, or a long silence may. Read
        on every message instead, two reads in three found the game where it was: each a query
        to the players' replica on PostgreSQL, on the cores the bot runs on."""
        assert self.parsed is not None
        version, _, due, _ = self.parsed
        return (
            self.news
            or self.boards > due
            or any(made_for > version for _, made_for in self.prompts.values())
        )

    def heard_nothing(self, now: float) -> None:
        """The player waited a while and the bot said nothing: long enough after the game was
        last read (`SILENT_READ_S`), it is read again whatever it may say."""
        self.news = self.news or now - self.read_at >= SILENT_READ_S

    def saw_clock(self, record: Record) -> None:
        """What a game with a turn clock shows of it in the channel: the posts that say a
        person ran out of time, the first board after one (the AI's move for them), and the
        nonce of every message (a post made twice would show it twice)."""
        nonce = record.payload.get("nonce") if record.kind == "channel_message" else None
        if nonce is not None:
            self.posted[str(nonce)] += 1
        if not record.is_public or record.kind not in ANNOUNCING_KINDS:
            return
        silence = self.silence
        if RAN_OUT in record.text and (found := MENTION.search(record.text)):
            user_id = int(found.group(1))
            self.ran_outs.append(Said(record.at, self.last_game, user_id))
            if (
                silence is not None
                and silence.user_id == user_id
                and silence.due_moved_at is not None
            ):
                silence.ran_out_at = silence.ran_out_at or record.at
        elif (
            record.has_attachment(BOARD)
            and silence is not None
            and silence.ran_out_at is not None
            and silence.ai_posted_at is None
        ):
            silence.ai_posted_at = record.at
            silence.acted.set()

    def saw_warning(self, record: Record) -> None:
        """A clock's warning by DM to one of this channel's people."""
        user_id = record.visibility.user_id
        if user_id is None:
            return
        self.warnings.append(Said(record.at, self.last_game, user_id))
        silence = self.silence
        if silence is not None and silence.user_id == user_id and silence.warn_moved_at is not None:
            silence.warned_at = silence.warned_at or record.at
            silence.warned.set()


# ---------------------------------------------------------------------- the run


class LoadRun:
    """The scripted people of every channel, and what they sent: one emulator, one bot."""

    def __init__(
        self,
        emu: LoadEmulator,
        reader: GameReader,
        args: argparse.Namespace,
        stop: asyncio.Event | None = None,
    ) -> None:
        self.emu = emu
        self.reader = reader
        self.args = args
        self.phase = "warm-up"
        # Set to end the run: at its end, or at once by Ctrl-C or SIGTERM (see `measure.run`).
        self.stop = stop or asyncio.Event()
        # Set-up: games whose answer came too late but which the bot started all the same,
        # taken over as they are; games abandoned to open afresh; Start and Join clicks yet
        # to be made late on purpose (--late-starts, --late-joins).
        self.taken_over = 0
        self.abandoned = 0
        self.retried = 0  # set-up attempts that did not start a game
        self.resumed = 0  # ...lobbies whose answer came too late, filled and started
        self.deferred = 0  # ...lobbies shown after "thinking…": the bot was catching up
        self.late_steps = {
            "start": int(getattr(args, "late_starts", 0) or 0),
            "join": int(getattr(args, "late_joins", 0) or 0),
        }
        self.sent: list[Sent] = []
        self.lags: list[float] = []
        self.wakes: list[float] = []  # see `next_turn`
        self.refusals: list[str] = []
        self.slots: dict[int, Slot] = {}
        emu.on_record(self._route)

    def _route(self, record: Record) -> None:
        slot = self.slots.get(record.channel_id or 0)
        if slot is not None:
            slot.saw(record)
        elif (
            self.args.clocked
            and record.kind == "dm"
            and WARNED in record.text
            and (found := CHANNEL_MENTION.search(record.text))
        ):
            # A warning names the game's channel: it is that channel's people's.
            slot = self.slots.get(int(found.group(1)))
            if slot is not None:
                slot.saw_warning(record)

    def add_slot(self, channel: Channel, index: int) -> Slot:
        people = [self.emu.add_user(f"Ada {index}"), self.emu.add_user(f"Bo {index}")]
        slot = Slot(channel, people, random.Random(self.args.seed * 1_000_003 + index))
        self.slots[channel.id] = slot
        return slot

    async def send(
        self, kind: str, sending: Awaitable[InteractionState]
    ) -> InteractionState | None:
        """Send one interaction and wait for its acknowledgement; None if it never came."""
        state, acknowledged = await self.send_seen(kind, sending)
        return state if acknowledged else None

    async def send_seen(
        self, kind: str, sending: Awaitable[InteractionState]
    ) -> tuple[InteractionState, bool]:
        """Send one interaction and wait for its acknowledgement: the interaction, and whether
        it was acknowledged within Discord's window."""
        phase = self.phase
        state = await sending
        self.sent.append(Sent(kind, phase, state))
        return state, await self.emu.acknowledged(state)

    async def abandon(self, user: User, channel: Channel) -> None:
        """/game abandon and the red button of the question it asks first."""
        if self.phase == "set-up":
            self.abandoned += 1
        state = await self.send("lobby", self.emu.send_slash(user, "game abandon", channel=channel))
        question = self.emu.messages_by_id.get(state.original_message_id or 0) if state else None
        sure = [b.custom_id for b in (question.buttons if question else ()) if b.style == DANGER]
        if question is not None and sure and sure[0] is not None:
            await self.send("lobby", self.emu.send_click(user, sure[0], message_id=question.id))

    # ------------------------------------------------------------------ lobby

    async def open_game(self, slot: Slot) -> bool:
        """/game new, Join, Add AI (per AI seat), Start: the buttons of the lobby message."""
        ada = slot.people[0]
        slot.game_id, slot.boards, slot.parsed, slot.state = None, 0, None, None
        slot.moved_from = None
        slot.prompts.clear()
        emu = self.emu
        options: dict[str, Any] = {"game": "high-voltage"}
        if self.args.clocked:
            # The bots' clock jumps an hour at a time: a reminder after 10 minutes (the
            # default) would be due in every game at every jump, which no server sees.
            options["reminder"] = 0
        if slot.clocked:
            options["clock"] = CLOCK_MINUTES
        sending = emu.send_slash(ada, "game new", channel=slot.channel, **options)
        state, acknowledged = await self.send_seen("lobby", sending)
        if acknowledged and state.callback_type == DEFERRED:
            await self.lobby_shown(slot, state)
        lobby = emu.messages_by_id.get(state.original_message_id or 0) if acknowledged else None
        buttons = lobby.buttons if lobby is not None else ()
        joins = [b.custom_id for b in buttons if (b.custom_id or "").endswith(":join")]
        if lobby is not None and state.callback_type in (ANSWERED, DEFERRED) and joins:
            return await self.fill_lobby(slot, int(str(joins[0]).split(":")[1]), lobby.id)
        # The answer came too late, or the channel already held a game: see what it holds.
        return await self.take_over(slot, state)

    async def lobby_shown(self, slot: Slot, state: InteractionState) -> None:
        """Wait, as its person does, for the lobby to replace the "thinking…" of a /game new
        the bot deferred: it opens new games only once it has caught up with what the games
        started already owe (see `hvbot.aftermath.backlog`)."""
        self.deferred += 1
        deadline = time.monotonic() + DEFERRED_LOBBY_S
        while state.placeholder_pending and not self.stop.is_set():
            if time.monotonic() >= deadline:
                return
            slot.changed.clear()
            await first_of(slot.changed, self.stop, seconds=1.0)

    async def fill_lobby(
        self, slot: Slot, game_id: int, lobby_id: int, *, resumes: int = LOBBY_RESUMES
    ) -> bool:
        """Join, Add AI (per AI seat), Start, on the lobby message: those still to be done
        (a lobby taken over may have its Join already). A step whose answer came too late, or
        which was refused, is followed by a look at what the game became (`take_over`), a lobby
        resumed `resumes` times more at most."""
        ada, bo = slot.people
        seated = await self.reader.seat_users(game_id)
        steps = [] if bo.id in seated else [(bo, "join")]
        steps += [(ada, "addai")] * max(0, self.args.ai_seats - seated.count(None))
        for user, what in [*steps, (ada, "start")]:
            if self.stop.is_set():
                return False
            custom_id = f"lobby:{game_id}:{what}"
            late = self.late_steps.get(what, 0) > 0
            if late:
                self.late_steps[what] -= 1
            try:
                sending = self.emu.send_click(user, custom_id, message_id=lobby_id, late=late)
            except EmulatorUsageError:
                return await self.abandon_game(slot)
            state, acknowledged = await self.send_seen("lobby", sending)
            if not acknowledged or state.callback_type != 7:
                return await self.take_over(slot, state, resumes=resumes, lobby_id=lobby_id)
        await self.playing(slot, game_id)
        return True

    async def playing(self, slot: Slot, game_id: int) -> None:
        """The channel's people play `game_id` from now on, which has started."""
        slot.game_id = slot.last_game = game_id
        slot.seat_users = await self.seats(game_id)
        if slot.clocked:
            slot.seats_of[game_id] = slot.seat_users

    async def take_over(
        self,
        slot: Slot,
        state: InteractionState,
        *,
        resumes: int = LOBBY_RESUMES,
        lobby_id: int | None = None,
    ) -> bool:
        """A lobby step went wrong (its answer came after Discord's window, or the channel
        already held a game): once the bot has answered at all (it stores a change before it
        answers), the game open in the channel is taken as it is, as its people would take
        it: played if it has started, its lobby filled and started if it is one (up to
        LOBBY_RESUMES times: a lobby that keeps going wrong is abandoned); anything else is
        abandoned, to open afresh. Abandoning a game only for a late answer costs a busy bot a
        round of answers more, which come late in turn: a set-up that never ends. True if the
        channel's people play its game now."""
        await first_of(state.answered, self.stop, seconds=LATE_ANSWER_S)
        if self.stop.is_set():
            return False
        found = await self.reader.open_game(slot.channel.id)
        if found is not None and found[1] == "active":
            self.taken_over += 1
            await self.playing(slot, found[0])
            return True
        if found is not None and found[1] == "lobby" and resumes > 0:
            # Its message: the one clicked, or the one the bot notes once it has posted it.
            deadline = time.monotonic() + LOBBY_NOTED_S
            while (lobby_id := lobby_id or found[2]) is None and time.monotonic() < deadline:
                await asyncio.sleep(self.reader.recheck_s / 10)
                found = await self.reader.open_game(slot.channel.id)
                if found is None or found[1] != "lobby":
                    return await self.abandon_game(slot)
            if lobby_id is not None:
                self.resumed += 1
                return await self.fill_lobby(slot, found[0], lobby_id, resumes=resumes - 1)
        return await self.abandon_game(slot)

    async def abandon_game(self, slot: Slot) -> bool:
        """Abandon the channel's game, to open afresh; False: no game is played there yet."""
        await self.abandon(slot.people[0], slot.channel)
        return False

    async def seats(self, game_id: int) -> list[int | None]:
        """The users of a game just started, by seat (None: an AI), once all its seats are on
        the players' replica (a few ms behind the bots' database), or as they are then."""
        seats = 2 + self.args.ai_seats
        deadline = time.monotonic() + REPLICA_WAIT_S
        found = await self.reader.seat_users(game_id)
        while len(found) < seats and time.monotonic() < deadline:
            await asyncio.sleep(self.reader.recheck_s)
            found = await self.reader.seat_users(game_id)
        return found

    # ------------------------------------------------------------------ play

    async def turn(self, slot: Slot) -> Turn | str | None:
        """The next person's turn once the bot has posted everything due, FINISHED once the
        game's last picture is posted, or None while the bot (or an AI seat) is still busy."""
        if slot.game_id is None:
            slot.awaiting = "a game to be opened"
            return None
        if slot.parsed is not None and slot.boards < slot.parsed[2]:
            # Still a board picture short of the game last read: nothing the game says now
            # would change that (a game only ever owes more boards), so it is not read again
            # before the picture came, and then only if it may have moved on since.
            slot.awaiting = "a board picture"
            return None
        known = slot.parsed[0] if slot.parsed is not None else None
        if slot.parsed is not None and not slot.may_have_moved():
            status, version, raw, stand_in = slot.status, slot.parsed[0], None, slot.parsed[3]
        else:
            slot.news = False  # before the read: what comes while it is made is news after it
            slot.read_at = time.monotonic()
            found = await self.reader.since(slot.game_id, known)
            if found is None:
                slot.awaiting = "its game on the players' replica"
                return None
            status, version, raw, stand_in = found
            slot.status = status
        if slot.parsed is None or known != version:
            if raw is None:  # a lobby, its state not stored until it starts
                slot.awaiting = "its game on the players' replica"
                return None
            data = json.loads(raw)
            slot.parsed = (version, data, boards_due(data), stand_in)
        _, data, due, stand_in = slot.parsed
        if slot.boards < due:
            slot.awaiting = "a board picture"
            return None
        if slot.moved_from is not None:
            # A move is answered when the game has moved on; the bot may store it before or
            # after acknowledging, so the acknowledgement alone does not say it is done.
            if version <= slot.moved_from:
                if time.monotonic() < slot.moved_by:
                    slot.awaiting = "a move sent to be stored"
                    return None
                slot.refused += 1  # acknowledged, yet nothing changed: refused some other way
            slot.moved_from = None
        if status != "active":
            return FINISHED
        if slot.state is None or slot.state[0] != version:
            slot.state = (version, RULES.state_from_dict(data))
        state = slot.state[1]
        seat = state.current_seat()
        user_id = slot.seat_users[seat] if seat is not None else None
        if user_id is None or seat == stand_in:
            # An AI seat is to move, or an AI plays this one's move (out of time).
            slot.awaiting = "an AI seat's move"
            return None
        phase = data.get("phase") or state.view(None)["phase"]
        prompt = slot.prompts.get(user_id)
        if phase in ("placing", "declaring"):
            if prompt is None or prompt[1] != version:
                slot.awaiting = f"the private prompt for {phase}"
                return None
            return Turn(user_id, phase, version, state, prompt[0])
        return Turn(user_id, phase, version, state, None)

    def going(self, until: float | None) -> bool:
        """Whether players go on: until the run stops, or until `until` (the loop's clock).

        A deadline rather than a timeout around `play`: on Python 3.11, `asyncio.wait_for`
        swallows a cancellation that arrives as the awaited future completes, and the 1 s
        waits inside `play` make that likely; a warm-up player so cancelled played forever."""
        return not self.stop.is_set() and (
            until is None or asyncio.get_running_loop().time() < until
        )

    async def next_turn(self, slot: Slot, until: float | None = None) -> Turn | str | None:
        """Wait (woken by the bot's messages in the channel) for `turn`; None once stopped."""
        loop = asyncio.get_running_loop()
        since = loop.time()
        while self.going(until):
            slot.changed.clear()
            found = await self.turn(slot)
            if found is not None:
                return found
            slot.waiting, slot.seen_at = True, None
            try:
                await asyncio.wait_for(slot.changed.wait(), self.reader.recheck_s)
            except TimeoutError:
                slot.heard_nothing(time.monotonic())
            slot.waiting = False
            if slot.changed.is_set() and slot.seen_at is not None:
                # The harness's own part of what a player waits: from the emulator taking the
                # bot's request to the player waiting for it running again.
                if self.phase == "timed":
                    self.wakes.append(time.monotonic() - slot.seen_at)
                slot.seen_at = None
            if loop.time() - since > STALL_SECONDS:
                slot.stalls += 1
                slot.stalled_on[slot.awaiting] += 1
                await self.ask_for_board(slot)
                since = loop.time()
        return None

    async def ask_for_board(self, slot: Slot) -> None:
        """What a person does when a move of theirs got no answer ('The application did not
        respond': the bot may have stored it but could not post it): /game board, which shows
        the board again, and their private prompt if they have one. Then count what was due
        as posted, since the bot will not post it any more."""
        if slot.game_id is None:
            return
        raw = (await self.reader.game(slot.game_id))[2]
        asking = slot.people[0]
        if raw is not None:
            state = RULES.state_from_dict(json.loads(raw))
            seat = None if state.is_terminal() else state.current_seat()
            user_id = slot.seat_users[seat] if seat is not None else None
            asking = slot.by_id(user_id) if user_id is not None else asking
        sending = self.emu.send_slash(asking, "game board", channel=slot.channel)
        answer = await self.send("board", sending)
        deadline = time.monotonic() + 5.0
        while answer is not None and answer.placeholder_pending and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        slot.parsed, slot.moved_from = None, None
        if raw is not None:
            slot.boards = boards_due(json.loads(raw))

    async def take_turn(self, slot: Slot, turn: Turn) -> None:
        action = choose(turn.state, slot.rng)
        user = slot.by_id(turn.user_id)
        emu = self.emu
        # With a clock, the number the move gets if it is stored: any other action stored at a
        # person's seat is an AI's, playing for them.
        sent = slot.sent_at.setdefault(slot.game_id or 0, set()) if slot.clocked else set()
        number = len(turn.state.history)
        sent.add(number)
        try:
            if turn.prompt_id is not None:
                custom_id = f"act:{slot.game_id}:{turn.version}:{action.replace(' ', '_')}"
                sending = emu.send_click(user, custom_id, message_id=turn.prompt_id)
                state = await self.send("button", sending)
            else:
                command, options = command_for(action)
                sending = emu.send_slash(user, command, channel=slot.channel, **options)
                state = await self.send("command", sending)
        except EmulatorUsageError as exc:
            self.refusals.append(f"not sendable: {exc}")
            sent.discard(number)
            slot.refused += 1
            await asyncio.sleep(0.2)
            return
        if state is not None and state.callback_type == ANSWERED:
            # A move is answered by deferring; a message instead is the bot refusing it.
            slot.refused += 1
            sent.discard(number)
            message = emu.messages_by_id.get(state.original_message_id or 0)
            self.refusals.append(f"{action!r}: {message.text if message else '?'}")
            await asyncio.sleep(0.2)
        else:
            slot.moves += 1
            # Also when the acknowledgement never came: the bot may still store the move late,
            # so sending another one at once would be a second move at the same position.
            slot.moved_from, slot.moved_by = turn.version, time.monotonic() + MOVE_TIMEOUT

    async def play(self, slot: Slot, *, until: float | None = None, think: bool = False) -> None:
        """Move whenever it is one of this channel's people's turn, until stopped (or `until`,
        see `going`), after thinking if `think` (see `thought`); a finished game is followed by
        a new one."""
        while self.going(until):
            if slot.game_id is None:
                if not await self.open_game(slot):
                    await asyncio.sleep(0.5)
                continue
            found = await self.next_turn(slot, until)
            if found is None:
                return
            if isinstance(found, Turn):
                if slot.silence is not None:
                    await self.keep_silent(slot, slot.silence, found)
                    continue
                if think and await self.thought(slot):
                    return
                await self.take_turn(slot, found)
            else:
                slot.finished += 1
                slot.game_id = None

    async def keep_silent(self, slot: Slot, silence: Silence, turn: Turn) -> None:
        """The person to move says nothing until the silence is lifted (or the run stops); the
        turn they were at is the silence's."""
        if silence.turn is None:
            silence.turn = turn
            silence.held.set()
        await first_of(silence.lifted, self.stop, seconds=None)

    def pause(self, slot: Slot) -> float:
        """How long the person to move in `slot` thinks now, in seconds (see `thought`)."""
        spread = self.args.think_spread
        pause: float = self.args.think * slot.rng.uniform(1 - spread, 1 + spread)
        if not slot.thought_once:
            slot.thought_once = True
            pause *= slot.rng.random()
        return pause

    async def thought(self, slot: Slot) -> bool:
        """Wait a person's thinking time (`--think`, give or take `--think-spread` of it);
        True if stopped.

        The first pause of a game's play is a random part of one: at a human pace, the games a
        bot holds are each somewhere in their thinking when it is looked at, so moves come
        evenly over time. Every game thinking a whole pause first would have them all wait,
        then all move within a few seconds of each other, a burst no server sees."""
        pause = self.pause(slot)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), pause)
        return self.stop.is_set()

    async def watch_loop_lag(self) -> None:
        """How late this process's event loop wakes: the emulator's own delay."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.02)
            if self.phase == "timed":
                self.lags.append(loop.time() - start - 0.02)
