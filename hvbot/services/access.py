"""What every feature service needs: finding a game, reading it under its lock, its state,
and the facts about whose turn it is that each change stores with it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from math import ceil
from typing import Protocol, TypeVar

from data.texts import texts_for
from engine import State
from engine.ai import levels as ai_levels
from hvbot.services.errors import BotError
from hvbot.services.seat_names import was_removed
from hvbot.store import (
    ArchivedGame,
    GameRow,
    GameStore,
    NotStarted,
    SeatResult,
    SeatRow,
    Wait,
    changes,
)
from hvbot.store.duties import Owed
from hvbot.store.sql import stamp


class Pending(Protocol):
    """A request that waits for the other players' answers (an undo request, an absence vote)."""

    @property
    def game_id(self) -> int: ...

    @property
    def status(self) -> str: ...


P = TypeVar("P", bound=Pending)

STAND_IN_LEVEL = "normal"  # the AI that plays for a person away or out of time
ASK_AGAIN = timedelta(minutes=2)  # a person's next question to the same table, at the soonest


def in_channel(channel_id: int | None) -> int:
    """The channel a command was used in (or a button clicked in), for what acts on its game.
    Discord sends one with every command and click, though its types allow an interaction
    without: there is then no game to act on, and the person is told so, as in a channel
    without a game (what looking one up in no channel found before)."""
    if channel_id is None:
        raise BotError(
            "There is no game in this channel. Start one with /game new.",
            key="bot.error.no_game",
        )
    return channel_id


def stand_in_level(game_name: str) -> str:
    """The level an AI standing in for a person plays at in this game."""
    levels = ai_levels(game_name)
    return STAND_IN_LEVEL if STAND_IN_LEVEL in levels else levels[0]


def ai_turn(
    game: GameRow,
    state: State,
    seats: Sequence[SeatRow] | None = None,
    stand_in_seat: int | None = None,
) -> bool:
    """Whether an AI is to move (with `seats`, as they are about to be): an AI seat, or the
    AI standing in for `stand_in_seat`, whose clock ran out."""
    seat = state.current_seat()
    at_table = seats if seats is not None else game.seats
    if state.is_terminal() or seat is None:
        return False
    return at_table[seat].is_ai or seat == stand_in_seat


def stand_in_goes_on(game: GameRow, state: State, seat: int) -> int | None:
    """The seat whose move an AI goes on playing after `seat`'s action: `seat` itself, while
    an AI stands in for it (its clock ran out) and the move is not finished (a drawn card to
    place, say). None otherwise."""
    if game.stand_in_seat != seat or state.is_terminal() or state.current_seat() != seat:
        return None
    return seat


def prompt_for(game: GameRow, state: State) -> tuple[str, int] | None:
    """A prompt waits for a person when they must place a drawn card or pick lines: the
    kind the game names (`State.prompt`), and who answers it."""
    seat = state.current_seat()
    if seat is None or game.seats[seat].is_ai or seat == game.stand_in_seat:
        return None
    kind = state.prompt()
    return None if kind is None else (kind, game.seats[seat].user_id or 0)


class GameAccess:
    """The store and the clock the feature services share, with the lookups they all make.

    Reminders are due by `clock`; tests move it forward instead of waiting."""

    def __init__(self, store: GameStore, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock
        # When each person last asked the table something, per game (see `ask_the_table`).
        # Kept by the process: a server's interactions all come to the process of its shard.
        self._asked: dict[tuple[int, int], datetime] = {}

    async def ask_the_table(self, game: GameRow, user_id: int) -> None:
        """A person is about to ask the others something (an undo, a vote, to abandon):
        refused while another request waits for answers, and to the same person again within
        `ASK_AGAIN`, so nobody can flood a table with questions. Called under the game's lock."""
        if await self.store.request_waiting(game_id=game.id, version=game.version):
            raise BotError(
                "A request already waits for the table's answers: it is settled first.",
                key="bot.error.request_waiting",
            )
        now = self.clock()
        last = self._asked.get((game.id, user_id))
        if last is not None and now - last < ASK_AGAIN:
            seconds = ceil((ASK_AGAIN - (now - last)).total_seconds())
            raise BotError(
                f"You asked the table a moment ago: try again in {seconds} "
                f"second{'' if seconds == 1 else 's'}.",
                key="bot.error.request_cooldown",
                count=seconds,
            )
        # Forget what no longer holds anyone back, so the record stays as small as a table.
        for key, when in list(self._asked.items()):
            if now - when >= ASK_AGAIN:
                del self._asked[key]
        self._asked[(game.id, user_id)] = now

    async def open_game(
        self,
        channel_id: int,
        user_id: int | None = None,
        game_id: int | None = None,
        *,
        started: bool = False,
    ) -> GameRow:
        """The game a command typed in this channel means: the one picked (`game_id`, one of
        the channel's open games); else the channel's own (a lobby, or a game played in the
        channel; in a thread, the thread's) if `user_id` sits there or is not said; else the
        one game beside it that `user_id` sits at (played in a thread of it, or a tournament's
        table played in it because Discord would not start its thread); else the channel's
        own, or its one game beside it; of several, the person is told where each is played.
        With `started` (a move, a request), a lobby the person sits at gives way to the one
        game under way they sit at beside it."""
        if game_id is not None:
            picked = await self.find(game_id, fresh=True)
            if picked is None or not picked.is_open or channel_id not in picked.channels:
                raise BotError(
                    "That is not one of this channel's games: pick one of the suggestions.",
                    key="bot.error.not_a_game_here",
                )
            return picked
        own = await self.store.open_game_in_channel(channel_id=channel_id)
        seated_here = own is not None and (user_id is None or own.seat_of(user_id) is not None)
        if seated_here and own is not None and not (started and own.status == "lobby"):
            return own
        beside = await self.store.games_beside(channel_id=channel_id)
        mine = [g for g in beside if user_id is not None and g.seat_of(user_id) is not None]
        if started:
            mine = [g for g in mine if g.status == "active"]
        if len(mine) == 1:
            return mine[0]
        if own is not None:
            return own
        if len(beside) == 1:
            return beside[0]
        if any(game.thread_id is None for game in beside):
            # Tournament tables played here (no thread could be started): named by number.
            listed_here = ", ".join(
                f"#{game.id}" if game.thread_id is None else f"<#{game.thread_id}>"
                for game in beside
            )
            raise BotError(
                f"Several games are played from this channel: {listed_here} (a #number is a"
                " tournament table played here, without a thread). Pick one in the game option"
                " of /game board or /game status.",
                key="bot.tournament.table_notes.tables_here",
                games=listed_here,
            )
        if beside:
            where = ", ".join(f"<#{game.thread_id}>" for game in beside)
            raise BotError(
                f"This channel's games are played in their threads: {where}. Type there,"
                " or start another with /game new.",
                key="bot.error.games_in_threads",
                threads=where,
            )
        raise BotError(
            "There is no game in this channel. Start one with /game new.",
            key="bot.error.no_game",
        )

    async def games_here(self, channel_id: int, user_id: int) -> list[GameRow]:
        """The open games a command typed in this channel could mean, the person's own first:
        the channel's own and those beside it (played in its threads, or tournament tables
        played in it without one; in a thread, its game)."""
        own = await self.store.open_game_in_channel(channel_id=channel_id)
        games = [*([own] if own else []), *await self.store.games_beside(channel_id=channel_id)]
        return sorted(games, key=lambda g: (g.seat_of(user_id) is None, g.id))

    async def in_play(
        self,
        channel_id: int | None,
        game_id: int | None,
        user_id: int | None = None,
        *,
        fresh: bool = True,
    ) -> GameRow:
        """The game by id, or the channel's game (see `open_game`) if it has started. A game
        by id is checked against its stored version unless `fresh` is False."""
        if game_id is not None:
            return await self.reload(game_id) if fresh else await self.held(game_id)
        if channel_id is None:
            raise ValueError("a channel or a game is needed")
        game = await self.open_game(channel_id, user_id, started=True)
        if game.status != "active":
            raise _not_started()
        return game

    async def find(self, game_id: int, *, fresh: bool = False) -> GameRow | None:
        """The game with this id, if there is one (from memory when it is there; `fresh`:
        checked against the stored version first, see `GameStore.game`)."""
        return await self.store.game(game_id=game_id, fresh=fresh)

    async def in_channel(
        self, channel_id: int | None, user_id: int | None = None
    ) -> GameRow | None:
        """The game a command typed in the channel means (see `open_game`), if there is one."""
        if channel_id is None:
            return None
        try:
            return await self.open_game(channel_id, user_id)
        except BotError:
            return None

    async def actions(self, game_id: int) -> list[tuple[int, str]]:
        """The game's stored actions, in order: (seat, text)."""
        return await self.store.actions(game_id=game_id)

    async def finished(
        self, channel_id: int, *, game_id: int | None = None, limit: int = 25
    ) -> list[ArchivedGame]:
        """The channel's finished games, latest first (only `game_id`, if given)."""
        return await self.store.finished_games(channel_id=channel_id, game_id=game_id, limit=limit)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """The message that shows the game's lobby, edited as its seats change."""
        await self.store.set_lobby_message(game_id=game_id, message_id=message_id)

    async def set_thread(self, game: GameRow, thread_id: int) -> GameRow:
        """The game is played in this thread from now on; the game as it is then."""
        await self.store.set_thread(game_id=game.id, thread_id=thread_id)
        return await self.store.game(game_id=game.id) or game

    async def reload(self, game_id: int) -> GameRow:
        """The game as stored, read under its lock before a change (see `GameStore.game`)."""
        game = await self.store.game(game_id=game_id, fresh=True)
        if game is None:
            raise BotError("That game no longer exists.", key="bot.error.game_gone")
        return game

    async def held(self, game_id: int) -> GameRow:
        """The game from memory when it is there, else as stored (see `find`)."""
        game = await self.find(game_id)
        if game is None:
            raise BotError("That game no longer exists.", key="bot.error.game_gone")
        return game

    async def saved(self, game_id: int) -> GameRow:
        """The game as this process has just stored it, under its lock: its copy in memory
        followed the change, so unlike `reload` it asks the database nothing (a game that
        ended is no longer kept in memory, and is read)."""
        game = await self.store.game(game_id=game_id)
        if game is None:
            raise BotError("That game no longer exists.", key="bot.error.game_gone")
        return game

    @asynccontextmanager
    async def open_request(
        self, read: Callable[[], Awaitable[P | None]], *, gone: BotError, settled: BotError
    ) -> AsyncIterator[tuple[P, GameRow]]:
        """A request that is still open, and its game, for the block to answer it under the
        game's lock. It is read once to know which game to lock, then again under the lock: an
        answer given meanwhile may have settled it. `gone` (it no longer exists) and `settled`
        (it is no longer open) are what the person is told otherwise."""
        found = await read()
        if found is None:
            raise gone
        async with self.store.lock(found.game_id):
            request = await read()
            if request is None:
                raise gone
            game = await self.reload(request.game_id)
            if request.status != "open":
                raise settled
            yield request, game

    def peek_state(self, game: GameRow) -> State:
        """The game's state for reading only (kept in memory: never change it)."""
        try:
            return self.store.peek_state(game)
        except NotStarted as exc:
            raise _not_started() from exc

    def load_state(self, game: GameRow) -> State:
        """The game's state, the caller's to change (to apply an action to, say)."""
        return self.peek_state(game).copy()

    def wait_for(self, game: GameRow, state: State, acted: int | None = None) -> Wait | None:
        """The turn that starts now, if a person is to move: the wait is what reminders and
        absence votes are measured by, and the turn clock if the game has one. `acted`: the
        seat whose action this follows; if the same person is still to move (a card drawn is
        still to be placed, say), their clock goes on where it was."""
        seat = state.current_seat()
        if seat is None or state.is_terminal() or game.seats[seat].is_ai:
            return None
        now = self.clock()
        # A person away (/me away) is waited for from when they are back: their reminders
        # and their clock start then.
        away = game.seats[seat].away_at(stamp(now))
        start = max(now, datetime.fromisoformat(away)) if away else now
        minutes = game.remind_minutes
        remind_at = start + timedelta(minutes=minutes) if minutes else None
        if game.clock is None:
            return Wait(now, remind_at)
        if acted == seat and game.clock_deadline is not None:
            # A warning already due is not written again: it is sent, or being sent (another
            # process's copy of the game may not know it yet, a warning changing no version).
            warn_at = game.clock_warn_at
            due = warn_at is not None and warn_at <= stamp(now)
            return Wait(now, remind_at, game.clock_deadline, None if due else warn_at)
        deadline = start + game.clock.length
        warning = deadline - game.clock.length / 4
        return Wait(now, remind_at, stamp(deadline), stamp(warning))

    async def stand_in(
        self, game: GameRow, seat: int, *, name: str, told: str
    ) -> tuple[GameRow, tuple[Owed, ...]]:
        """An AI plays `seat` for its person, who may take it back with /game return (an
        absence vote, a clock run out): the seat renamed `name`, and the channel told `told`,
        in one change."""
        seats = list(game.seats)
        away = seats[seat]
        level = stand_in_level(game.game_name)
        seats[seat] = SeatRow(seat, None, level, name, away.user_id, away.language)
        return await self.seat_in_play(game, seats, told=told)

    async def resign(
        self, game: GameRow, seat: int, *, told: str | None = None
    ) -> tuple[GameRow, str, tuple[Owed, ...]]:
        """The person at `seat` gives it up, under the game's lock: an AI plays it to the
        end, and the game counts for them as a loss; with no other person left, the game ends
        there as that loss. The game, "resigned" or "ended", and what it owes (`told`: a
        public text saying so)."""
        seats = list(game.seats)
        person = seats[seat]
        name = texts_for(game.language)("bot.seat.resigned", player=person.display_name)
        seats[seat] = SeatRow(seat, None, "easy", name, resigned_user_id=person.user_id)
        if all(s.is_ai for s in seats):
            # AI seats are not left to play on for nobody: the game ends as the loss it is.
            owed = tuple(await self.forfeit(game, seat, told=told))
            return await self.saved(game.id), "ended", owed
        resigned, owed = await self.seat_in_play(game, seats, told=told)
        return resigned, "resigned", owed

    async def forfeit(self, game: GameRow, seat: int, *, told: str | None) -> list[Owed]:
        """The game ends now as a loss for the person at `seat` (out of time, or the last
        person to resign) and a win for everyone else at the table, the channel told `told`.
        Scores are 0: a game stopped early has no final count, and a partial one could tell
        what is still hidden (High Voltage's companies)."""
        results = [
            SeatResult(s.seat, 0, s.seat != seat, left_early=s.seat == seat or was_removed(s))
            for s in game.seats
        ]
        at = self.store.clock()
        finished = changes.set_status(
            game.id, game.version, "finished", at=at, told=told, results=results
        )
        return await self.store.write(finished)

    async def seat_in_play(
        self, game: GameRow, seats: Sequence[SeatRow], *, told: str | None = None
    ) -> tuple[GameRow, tuple[Owed, ...]]:
        """Change who sits where in a game in play (a resignation, an AI for a person away, a
        return), storing whether an AI is now to move, and, when a person now sits where the
        move is (a return), the start of their turn: its reminders and clock; the game as it
        is then, and the post `told` is owed as (if any)."""
        state = self.peek_state(game)
        to_move = state.current_seat()
        wait = None
        if to_move is not None and seats[to_move].user_id not in (
            None,
            game.seats[to_move].user_id,
        ):
            wait = self.wait_for(replace(game, seats=tuple(seats)), state)
        owed = await self.store.write(
            changes.set_seats(
                game.id,
                game.version,
                seats,
                at=self.store.clock(),
                ai_turn=ai_turn(game, state, seats),
                told=told,
                wait=wait,
            )
        )
        return await self.saved(game.id), tuple(owed)


def _not_started() -> BotError:
    return BotError(
        "The game has not started yet: the creator can press Start.", key="bot.error.not_started"
    )
