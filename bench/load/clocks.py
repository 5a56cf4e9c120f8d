"""Turn clocks (--clocked): the bots' clock moved forward past one silent person's warning and
deadline after another, and what the bots did for each turn so made due, put down to that
turn, so a duty done twice or not at all can be told."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
from collections import Counter
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from hvbot.cogs.periodic import CHECK_S
from hvbot.store.sql import stamp

from .config import ACT_S, CLEAR, HOLD_S, PAST
from .reader import ClockRow, GameReader, MovePost

# What the clocks read of the scripted people (`players`), which use the clocks: so they are
# handed their channels, turns and run, and name none of their classes.


class Turn(Protocol):
    """A person to move (`players.Turn`)."""

    @property
    def user_id(self) -> int: ...

    @property
    def version(self) -> int: ...


class Slot(Protocol):
    """One channel and its game (`players.Slot`): what its person made silent and what the
    bots told them are kept in it."""

    game_id: int | None
    silence: Silence | None
    sent_at: dict[int, set[int]]  # game -> action numbers sent
    seats_of: dict[int, list[int | None]]  # game -> seat users
    ran_outs: list[Said]
    warnings: list[Said]
    posted: Counter[str]  # nonces of channel messages seen


class LoadRun(Protocol):
    """The run (`players.LoadRun`): its database reader and its options."""

    reader: GameReader
    args: argparse.Namespace


@dataclass(frozen=True)
class Said:
    """A clock's post seen by the emulator: when (the event loop's clock), in which game (the
    channel's game then), to or about whom."""

    at: float
    game_id: int | None
    user_id: int


@dataclass
class Silence:
    """One person made to go silent on their turn in a game with a clock, until the bots have
    warned them, told the channel they ran out of time and had an AI play their move."""

    slot: Slot
    held: asyncio.Event = field(default_factory=asyncio.Event)  # at their turn, not moving
    warned: asyncio.Event = field(default_factory=asyncio.Event)
    acted: asyncio.Event = field(default_factory=asyncio.Event)  # the AI's move is posted
    lifted: asyncio.Event = field(default_factory=asyncio.Event)  # they may move again
    turn: Turn | None = None
    game_id: int | None = None
    user_id: int | None = None
    clock: ClockRow | None = None
    # The event loop's clock: when the bots' clock was moved past the warning's instant and
    # past the deadline, and when the warning, the words and the AI's move reached Discord.
    warn_moved_at: float | None = None
    due_moved_at: float | None = None
    warned_at: float | None = None
    ran_out_at: float | None = None
    ai_posted_at: float | None = None


@dataclass(frozen=True)
class Jump:
    """The bots' clock moved forward: when (the event loop's clock), to what instant, and the
    clocks of the games in play just before (whose warnings and deadlines it passed)."""

    at: float
    to: str
    clocks: dict[int, ClockRow]

    def instant(self, at: float) -> str:
        """The bots' clock at `at` (the event loop's clock, after the jump): it runs on at the
        real pace, and what falls due in the seconds after the jump falls due too."""
        return stamp(datetime.fromisoformat(self.to) + timedelta(seconds=max(0.0, at - self.at)))

    def warns(self, game_id: int | None, at: float | None = None) -> ClockRow | None:
        """The game's clock if its warning was due by `at` (by default: at the jump)."""
        row = self.clocks.get(game_id or 0)
        until = self.to if at is None else self.instant(at)
        return row if row is not None and row.warn_at is not None and row.warn_at <= until else None

    def runs_out(self, game_id: int | None, at: float | None = None) -> ClockRow | None:
        """The game's clock if it had run out by `at` (by default: at the jump)."""
        row = self.clocks.get(game_id or 0)
        until = self.to if at is None else self.instant(at)
        return row if row is not None and row.deadline <= until else None


class ClockDriver:
    """Moves the bots' clock (written to each bot process's stdin, see `bench/load_bot.py`)
    and makes one clocked game's person after another go silent at their turn: the clock is
    moved past their warning's instant, then past their deadline, and the bots' answers are
    timed from the moment it was moved.

    One jump does both for two people in a row: it passes the deadline of the one silent
    before and the warning of the next one (whose turn began after the jump before, so a
    quarter of an hour of the bots' time after that deadline). The next one is chosen and
    waited for at their turn while the bots answer the jump before. Each jump comes at a
    random moment of the bots' rounds of looking for what is due (CHECK_S), as a deadline
    does, not right after their last look (when the warning before it was just sent).

    The clock is one for every game: a jump also passes the warnings and deadlines of the
    other clocked games whose person has been to move since before the jump before, as an
    hour going by would. Each jump keeps those games' clocks as they were just before it
    (`Jump`), so every warning and every "ran out" post seen is put down to the turn (game
    and deadline) it is for."""

    def __init__(
        self,
        bench: LoadRun,
        processes: list[asyncio.subprocess.Process],
        slots: Sequence[Slot],
    ) -> None:
        self.bench = bench
        self.processes = processes
        self.slots = slots
        self.offset = 0.0  # seconds the bots' clock is ahead of the real time
        self.jumps: list[Jump] = []
        self.silences: list[Silence] = []
        self.closing = asyncio.Event()  # no person is made silent any more
        self._turns = itertools.cycle(slots)
        self._lifting: list[asyncio.Task[None]] = []
        self.rng = random.Random(bench.args.seed)

    async def move_past(self, instant: str, silent: Sequence[Silence]) -> None:
        """Move the bots' clock PAST beyond `instant` (a stamp), never backwards, telling every
        bot process; note the moment in the `silent` whose warning or deadline it passes."""
        clocks = await self.bench.reader.clocks()
        target = datetime.fromisoformat(instant) + PAST
        self.offset = max(self.offset, (target - datetime.now(UTC)).total_seconds())
        line = f"{self.offset!r}\n".encode()
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write(line)
        await asyncio.gather(*(p.stdin.drain() for p in self.processes if p.stdin))
        at = asyncio.get_running_loop().time()
        jump = Jump(at, stamp(target), clocks)
        self.jumps.append(jump)
        for silence in silent:
            assert silence.clock is not None
            if silence.warn_moved_at is None and jump.warns(silence.game_id):
                silence.warn_moved_at = at
            if silence.due_moved_at is None and silence.clock.deadline <= jump.to:
                silence.due_moved_at = at

    def now(self) -> datetime:
        """The bots' clock now."""
        return datetime.now(UTC) + timedelta(seconds=self.offset)

    async def run(self) -> None:
        """Silent people one after another until closing; then the last one is seen through.
        While the bots answer a jump, the next person is waited for at their turn."""
        before: Silence | None = None
        after = await self.next_silent()
        try:
            while after is not None:
                assert after.clock is not None
                # The bots look for what is due every CHECK_S seconds: the jump comes at any
                # moment of that round, as a deadline does (not right after their last look).
                await asyncio.sleep(self.rng.uniform(0.0, CHECK_S))
                await self.move_past(
                    max(after.clock.warn_at or after.clock.deadline, before_deadline(before)),
                    [s for s in (before, after) if s is not None],
                )
                if before is not None:
                    self._lifting.append(asyncio.create_task(self.lift(before)))
                # Its warning (or its timeout, if it was warned already this turn) is done
                # before the next jump passes its deadline.
                told = after.warned if after.clock.warn_at else after.acted
                _, following = await asyncio.gather(within(told.wait(), ACT_S), self.next_silent())
                before, after = after, following
                if after is None:
                    # Closing, or nobody else could be made silent (one clocked game, say):
                    # the one before runs out alone.
                    await self.run_out(before)
                    before = None
                    after = await self.next_silent()
        finally:
            await asyncio.gather(*self._lifting, return_exceptions=True)

    async def run_out(self, silence: Silence) -> None:
        """Move the clock past one silent person's deadline alone, and see it through."""
        assert silence.clock is not None
        await asyncio.sleep(self.rng.uniform(0.0, CHECK_S))
        await self.move_past(silence.clock.deadline, [silence])
        await self.lift(silence)

    async def next_silent(self) -> Silence | None:
        """The next clocked game's person to move, made silent once at their turn, with their
        clock as stored then; None once closing, or if none could be, each game tried once."""
        for _ in range(len(self.slots)):
            if self.closing.is_set():
                return None
            slot = next(self._turns)
            if slot.game_id is None or slot.silence is not None:
                await asyncio.sleep(0.05)
                continue
            silence = Silence(slot)
            slot.silence = silence
            await first_of(silence.held, self.closing, seconds=HOLD_S)
            turn = silence.turn
            row = (await self.bench.reader.clocks()).get(slot.game_id or 0) if turn else None
            # A game that moved on meanwhile, or whose turn began before the last jump (which
            # may have passed its warning), is left be: the next.
            if (
                turn is None
                or row is None
                or row.version != turn.version
                or (row.warn_at or row.deadline) <= stamp(self.now() + CLEAR)
            ):
                slot.silence = None
                silence.lifted.set()
                continue
            silence.game_id, silence.user_id, silence.clock = slot.game_id, turn.user_id, row
            self.silences.append(silence)
            return silence
        return None

    async def lift(self, silence: Silence) -> None:
        """Once the AI has played the silent person's whole move (a drawn card placed, lines
        declared: at once, they would race it), they may move again."""
        reader = self.bench.reader
        assert silence.clock is not None
        try:
            if await within(silence.acted.wait(), ACT_S):
                until = asyncio.get_running_loop().time() + ACT_S
                while asyncio.get_running_loop().time() < until:
                    status, version, _, stand_in = await reader.game(silence.game_id or 0)
                    if status != "active" or (
                        version > silence.clock.version + 1 and stand_in is None
                    ):
                        break
                    await asyncio.sleep(0.05)
        finally:
            silence.slot.silence = None
            silence.lifted.set()


def before_deadline(silence: Silence | None) -> str:
    """The deadline of the person silent before (the empty stamp if none)."""
    return silence.clock.deadline if silence is not None and silence.clock is not None else ""


async def within(waiting: Awaitable[Any], seconds: float) -> bool:
    """Whether `waiting` was done within `seconds`."""
    try:
        await asyncio.wait_for(waiting, seconds)
    except TimeoutError:
        return False
    return True


async def first_of(*events: asyncio.Event, seconds: float | None) -> None:
    """Wait until one of `events` is set, or `seconds` have gone by."""
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


@dataclass
class Duty:
    """What the bots did for one turn whose clock a jump made due (a game and its deadline):
    the warnings and "ran out" posts seen for it, and the AI's moves for its person."""

    game_id: int
    deadline: str | None  # None: no jump explains it (it is counted all the same)
    clock: ClockRow | None = None
    user_id: int | None = None  # the person to move
    silenced: Silence | None = None
    warnings: int = 0
    texts: int = 0
    ai_turns: int = 0  # moves an AI made for the person after the timeout, stored
    ai_posted: int = 0  # ...of which the board post reached the channel
    posted_twice: int = 0  # the AI's board posts that reached the channel twice

    @property
    def label(self) -> str:
        when = self.deadline[11:23] if self.deadline else "no jump made it due"
        return f"game {self.game_id} (deadline {when})"


def said_for(said: Said, jumps: list[Jump], due: str) -> ClockRow | None:
    """The clock of `said`'s game as it was at the last jump before it that made its warning
    (`due` "warns") or its deadline ("runs_out") due by the time it was said; None if none
    did."""
    for jump in reversed(jumps):
        if jump.at <= said.at and (row := getattr(jump, due)(said.game_id, said.at)) is not None:
            return row
    return None


async def clock_duties(driver: ClockDriver, reader: GameReader) -> tuple[list[Duty], list[str]]:
    """Every turn the jumps made due, with what was done for it, and what was done for no
    turn (an AI's move for a person whose time had not run out, say).

    The warnings and "ran out" posts are the emulator's records, each put down to the turn
    its game was at when the last jump before it made it due. The AI's moves are the
    outbox's move posts of the games (`MovePost`): one at a person's seat that the person did
    not send is an AI's, and the AI's in a row at one seat are one move (a drawn card placed,
    lines declared), put down to the timeout before it; its posts are looked for in the
    channel by their nonce."""
    duties: dict[tuple[int, str | None], Duty] = {}

    def duty(game_id: int, row: ClockRow | None, user_id: int | None) -> Duty:
        key = (game_id, row.deadline if row else None)
        if key not in duties:
            duties[key] = Duty(game_id, key[1], row, user_id)
        return duties[key]

    for silence in driver.silences:
        assert silence.game_id is not None
        duty(silence.game_id, silence.clock, silence.user_id).silenced = silence
    slot_of: dict[int, Slot] = {}
    for slot in driver.slots:
        for said in slot.warnings:
            row = said_for(said, driver.jumps, "warns")
            duty(said.game_id or 0, row, said.user_id).warnings += 1
        for said in slot.ran_outs:
            row = said_for(said, driver.jumps, "runs_out")
            duty(said.game_id or 0, row, said.user_id).texts += 1
        slot_of.update((game_id, slot) for game_id in slot.seats_of)
    timed_out = sorted({d.game_id for d in duties.values() if d.texts or d.silenced})
    unexplained = []
    posts = await reader.move_posts(timed_out)
    for game_id in timed_out:
        slot = slot_of[game_id]
        seats = slot.seats_of[game_id]
        sent = slot.sent_at.get(game_id, set())
        # The timeouts of this game, by the action each AI move would be from on.
        outs = sorted(
            (d.clock.actions, d)
            for d in duties.values()
            if d.game_id == game_id and d.clock is not None and (d.texts or d.silenced)
        )
        turns: list[list[MovePost]] = []
        for post in sorted((p for p in posts if p.game_id == game_id), key=lambda p: p.version):
            if seats[post.seat] is None or post.first in sent:
                turns.append([])  # an AI seat's, or a person's own: the AI's run is over
            elif turns and turns[-1] and turns[-1][-1].seat == post.seat:
                turns[-1].append(post)
            else:
                turns.append([post])
        for turn in (t for t in turns if t):
            user_id = seats[turn[0].seat]
            before = [d for n, d in outs if n <= turn[0].first and d.user_id == user_id]
            if not before:
                unexplained.append(
                    f"game {game_id}: an AI moved for a person at action "
                    f"{turn[0].first}, with no timeout before"
                )
                continue
            owner = before[-1]
            owner.ai_turns += 1
            seen = [slot.posted[p.nonce] for p in turn]
            owner.ai_posted += any(seen)
            owner.posted_twice += sum(1 for n in seen if n > 1)
    return sorted(duties.values(), key=lambda d: (d.game_id, d.deadline or "")), unexplained
