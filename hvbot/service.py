"""What happens to a game when someone acts, without any Discord in it.

The cogs call these methods and turn their results into messages; tests call them directly on a
real SQLite file. Every change runs under the game's lock and is saved with a compare-and-set
on the game's version before it is returned, so it is never announced unless it is stored, and
two simultaneous clicks are applied one after the other.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from data.texts import DEFAULT as DEFAULT_LANGUAGE
from data.texts import texts_for
from engine import GameError, State
from engine.ai import choose as choose_action
from engine.ai import levels as ai_levels
from games import find_game
from hvbot import workers
from hvbot.repository import (
    AbsenceVote,
    ChannelBusy,
    GameRow,
    Repository,
    SeatResult,
    SeatRow,
    UndoRequest,
    VersionConflict,
    Wait,
)

log = logging.getLogger(__name__)

AI_LEVELS = ("easy", "normal", "hard")
# Games whose latest state is kept in memory (a few kB each): more than a bot usually has in
# play, so that a move never rebuilds its game's state from the database.
KEPT_STATES = 512
MAX_AI_RETRIES = 5  # the game changed under a thinking AI this many times: give up for now
# Phases (or steps) in which the player to move answers a private prompt, by prompt kind.
PROMPT_PHASES = {
    "placing": "place",
    "declaring": "declare",
    "choose": "choose",
    "place": "place",
}


DEFAULT_REMIND_MINUTES = 10
DEFAULT_ABSENT_HOURS = 24
MAX_ABSENT_HOURS = 30 * 24
STAND_IN_LEVEL = "normal"  # the AI that plays for a person who is away
MAX_REMIND_MINUTES = 7 * 24 * 60
REMIND_AGAIN = timedelta(hours=1)  # after the first reminder, never more often than this


def _hours(span: timedelta) -> str:
    hours = span.total_seconds() / 3600
    return f"{hours:.0f} hour{'s' if round(hours) != 1 else ''}" if hours >= 1 else "under an hour"


class BotError(Exception):
    """Something the user asked for cannot be done; the message says why and what would work.

    As with the engine's errors, the message is English and `key` with `fields` name the same
    text in the language files, so the reply can be in the asker's language."""

    def __init__(self, message: str, *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


@dataclass(frozen=True)
class Reminder:
    """A person who has been waited for: mention them again in the game's channel."""

    game: GameRow
    seat: int
    user_id: int
    waited: timedelta
    announcement_id: int = 0  # its post, owed in the outbox (see hvbot.claims)


@dataclass(frozen=True)
class VoteOutcome:
    """Where a vote about an absent person stands: "open", or decided: "ai" (an AI plays their
    seat until they return) or "end" (the game is abandoned)."""

    vote: AbsenceVote
    game: GameRow
    status: str


@dataclass(frozen=True)
class UndoOutcome:
    """Where a request to take back a move stands: "asked" (waiting for the others' answers),
    "waiting" (some have accepted), "refused", or "done" (with the state from before it)."""

    request: UndoRequest
    game: GameRow
    status: str
    state: State | None = None


@dataclass
class ActResult:
    """The outcome of one player's (or AI's) action: stored already, ready to announce.

    `state` is the game's state after it, the very one the service keeps in memory for the
    next move (see `GameService.peek_state`): announcing reads it, and nothing changes it."""

    game: GameRow
    state: State
    seat: int
    applied: list[str]  # action texts, in order
    finished: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    # What everyone sees now, once asked for: announcing a move needs it several times (is it
    # public? the board, the scores, who is next), and building it is a fair share of a move.
    seen: dict[str, Any] | None = field(default=None, repr=False)

    def public_view(self) -> dict[str, Any]:
        """The spectators' view of the game after the action (built once, then shared: no
        reader changes a view)."""
        if self.seen is None:
            self.seen = self.state.view(None)
        return self.seen


def ai_turn(game: GameRow, state: State, seats: tuple[SeatRow, ...] | None = None) -> bool:
    """Whether an AI seat is to move (with `seats`, as they are about to be)."""
    seat = state.current_seat()
    at_table = seats if seats is not None else game.seats
    return not state.is_terminal() and seat is not None and at_table[seat].is_ai


def seat_results(state: State) -> list[SeatResult]:
    """Each seat's final score and whether it won; empty while the game goes on."""
    outcome = state.outcome()
    if outcome is None:
        return []
    winners = set(outcome.winners)
    return [SeatResult(seat, score, seat in winners) for seat, score in enumerate(outcome.scores)]


class GameService:
    def __init__(
        self,
        repo: Repository,
        *,
        seed_source: random.Random | None = None,
        ai_budget_s: float = 1.0,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.repo = repo
        self.ai_budget_s = ai_budget_s
        # Reminders are due by this clock; tests move it forward instead of waiting.
        self.clock = clock or (lambda: datetime.now(UTC))
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: OrderedDict[int, tuple[int, State]] = OrderedDict()  # id -> version, state
        # Seeds decide the deal, so they come from the OS's secure source unless a test injects one.
        self._seed_source = seed_source
        self._ai_rng = random.Random(seed_source.random() if seed_source else secrets.randbits(64))

    def lock(self, game_id: int) -> asyncio.Lock:
        found = self._locks.get(game_id)
        if found is None:
            found = self._locks[game_id] = asyncio.Lock()
        return found

    def _new_seed(self) -> int:
        if self._seed_source is not None:
            return self._seed_source.getrandbits(63)
        return secrets.randbits(63)

    # ------------------------------------------------------------------ lookups

    async def open_game(self, channel_id: int) -> GameRow:
        game = await self.repo.open_game_in_channel(channel_id=channel_id)
        if game is None:
            raise BotError(
                "There is no game in this channel. Start one with /game new.",
                key="bot.error.no_game",
            )
        return game

    def load_state(self, game: GameRow) -> State:
        """The game's state, the caller's to change (to apply an action to, say): a copy of
        the one kept in memory (see `peek_state`)."""
        return self.peek_state(game).copy()

    def peek_state(self, game: GameRow) -> State:
        """The game's state for reading only. The latest states of the games in play are kept
        in memory: rebuilding one from its saved form on every move and every autocomplete
        keystroke was a large part of the bot's work under load (Pylons and Sector 6 even
        replay their moves). Never change what this returns."""
        kept = self._states.get(game.id)
        if kept is not None and kept[0] == game.version:
            self._states.move_to_end(game.id)
            return kept[1]
        saved = game.state
        if saved is None:
            raise BotError(
                "This game has not started yet: the creator can press Start.",
                key="bot.error.not_started",
            )
        found = find_game(game.game).state_from_dict(saved)
        self._keep(game.id, game.version, found)
        return found

    def _keep(self, game_id: int, version: int, state: State) -> None:
        """Keep the state of a game's latest version (one older than the kept one is not)."""
        kept = self._states.get(game_id)
        if kept is not None and kept[0] > version:
            return
        self._states[game_id] = (version, state)
        self._states.move_to_end(game_id)
        if len(self._states) > KEPT_STATES:
            self._states.popitem(last=False)

    # ------------------------------------------------------------------ lobby

    async def new_lobby(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        user_id: int,
        name: str,
        game_name: str,
        options: dict[str, Any] | None = None,
        remind_minutes: int = DEFAULT_REMIND_MINUTES,
        absent_hours: int = DEFAULT_ABSENT_HOURS,
        wants_thread: bool = False,
        language: str = DEFAULT_LANGUAGE,
        creator_language: str | None = None,
    ) -> GameRow:
        """`language`: of the game's public posts (the server's); `creator_language`: the
        creator's own. `remind_minutes`: how long the person to move may take before they
        are mentioned again (then hourly); `absent_hours`: how long before the others may vote
        to let an AI play for them or to end the game. 0 turns either off for this game.
        `wants_thread`: play in a thread started from the lobby message, if the bot may start
        one."""
        if not 0 <= absent_hours <= MAX_ABSENT_HOURS:
            raise BotError(
                f"Absence votes come after 1 to {MAX_ABSENT_HOURS} hours, or 0 for never; "
                f"not {absent_hours}.",
                key="bot.error.absent_range",
                most=MAX_ABSENT_HOURS,
                given=absent_hours,
            )
        if not 0 <= remind_minutes <= MAX_REMIND_MINUTES:
            raise BotError(
                f"Reminders come after 1 to {MAX_REMIND_MINUTES} minutes, or 0 for never; "
                f"not {remind_minutes}.",
                key="bot.error.remind_range",
                most=MAX_REMIND_MINUTES,
                given=remind_minutes,
            )
        try:
            game = find_game(game_name)
        except KeyError as exc:
            raise BotError(str(exc.args[0])) from exc
        try:
            resolved = game.resolve_options(options)
        except ValueError as exc:
            raise BotError(str(exc)) from exc
        busy = BotError(
            "This channel already has a game. Join it, wait for it to end, or ask its "
            "creator to /game abandon it.",
            key="bot.error.busy",
        )
        if await self.repo.open_game_in_channel(channel_id=channel_id) is not None:
            # Also a game's thread: the database only knows one open game per channel.
            raise busy
        try:
            return await self.repo.create_lobby(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=user_id,
                creator_name=name,
                options=resolved,
                remind_minutes=remind_minutes or None,
                absent_hours=absent_hours or None,
                wants_thread=wants_thread,
                language=language,
                creator_language=creator_language,
            )
        except ChannelBusy as exc:
            raise busy from exc

    async def _change_seats(self, channel_id: int, change) -> GameRow:
        game = await self.open_game(channel_id)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            if game.status != "lobby":
                raise BotError(
                    "The game has started: seats can only change in the lobby.",
                    key="bot.error.lobby_only",
                )
            seats = change(game, list(game.seats))
            await self.repo.set_seats(game_id=game.id, expected_version=game.version, seats=seats)
            return await self.open_game(channel_id)

    async def join(
        self, *, channel_id: int, user_id: int, name: str, language: str | None = None
    ) -> GameRow:
        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is not None:
                raise BotError("You are in this game already.", key="bot.error.already_seated")
            limit = find_game(game.game).max_seats
            if len(seats) >= limit:
                raise BotError(
                    f"The game is full ({limit} seats). Wait for the next one.",
                    key="bot.error.full_wait",
                    count=limit,
                )
            return [*seats, SeatRow(len(seats), user_id, None, name, language=language)]

        return await self._change_seats(channel_id, change)

    async def leave(self, *, channel_id: int, user_id: int) -> GameRow:
        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is None:
                raise BotError("You are not in this game's lobby.", key="bot.error.not_in_lobby")
            if user_id == game.creator_id:
                raise BotError(
                    "You created this game: to cancel it use /game abandon instead of leaving.",
                    key="bot.error.creator_leaves",
                )
            kept = [s for s in seats if s.user_id != user_id]
            return [replace(s, seat=i) for i, s in enumerate(kept)]

        return await self._change_seats(channel_id, change)

    async def add_ai(self, *, channel_id: int, user_id: int, level: str) -> GameRow:
        if level not in AI_LEVELS:
            raise BotError(
                f"AI level must be one of {', '.join(AI_LEVELS)}, not {level!r}.",
                key="bot.error.ai_level",
                levels=", ".join(AI_LEVELS),
                level=repr(level),
            )

        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is None:
                raise BotError(
                    "Only players seated in the lobby can add AI players. Join first.",
                    key="bot.error.join_first",
                )
            limit = find_game(game.game).max_seats
            if len(seats) >= limit:
                raise BotError(
                    f"The game is full ({limit} seats).", key="bot.error.full", count=limit
                )
            offered = ai_levels(game.game)
            chosen = level if level in offered else offered[0]
            number = 1 + sum(1 for s in seats if s.is_ai)
            # Named in the game's language: the name is shown in its public posts.
            texts = texts_for(game.language)
            word = texts(f"bot.level.{chosen}") if texts.has(f"bot.level.{chosen}") else chosen
            name = texts("bot.seat.ai", number=number, level=word)
            return [*seats, SeatRow(len(seats), None, chosen, name)]

        return await self._change_seats(channel_id, change)

    async def start(
        self, *, channel_id: int, user_id: int, can_manage: bool
    ) -> tuple[GameRow, State]:
        game = await self.open_game(channel_id)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            if game.status != "lobby":
                raise BotError("The game has started already.", key="bot.error.started_already")
            if user_id != game.creator_id and not can_manage:
                raise BotError(
                    "Only the game's creator (or a moderator) can start it.",
                    key="bot.error.only_creator_starts",
                )
            rules = find_game(game.game)
            if len(game.seats) < rules.min_seats:
                raise BotError(
                    f"{rules.title} needs at least {rules.min_seats} players: others can Join, "
                    f"or add an AI player.",
                    key="bot.error.too_few",
                    game=rules.title,
                    count=rules.min_seats,
                )
            seed = self._new_seed()
            state = rules.new_state(len(game.seats), seed, game.options)
            await self.repo.start(
                game_id=game.id,
                expected_version=game.version,
                seed=seed,
                state=state.to_dict(),
                seats=game.seats,
                wait=self._wait_for(game, state),
                ai_turn=ai_turn(game, state),
            )
            started = await self.repo.game(game_id=game.id)
            assert started is not None
            return started, state

    # ------------------------------------------------------------------ play

    async def act(
        self,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        user_id: int,
        action: str | Any,
        expected_version: int | None = None,
        before_store: Callable[[ActResult], Awaitable[None]] | None = None,
        language: str | None = None,
    ) -> ActResult:
        """Apply one action of the player `user_id`, after checking it is their turn.

        `expected_version` comes from a button: a click on a prompt made for an older version
        of the game is refused rather than applied to a position the player did not see.
        `before_store` is called once the action is known to be legal and before it is saved
        (with the game as it was): Discord wants an answer within seconds, and a legal move
        can be acknowledged without waiting for the database. `language`: the player's now
        (their Discord client's), remembered for their seat if it changed.
        """
        game = await self._find(channel_id, game_id)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            if expected_version is not None and game.version < expected_version:
                # A prompt from a version this process has not seen: another process moved
                # the game on, so the copy in memory is stale.
                self.repo.forget(game.id)
                game = await self._reload(game.id)
            if expected_version is not None and game.version != expected_version:
                raise BotError(
                    "That prompt is out of date: the game has moved on since.",
                    key="bot.error.stale_prompt",
                )
            state = self.load_state(game)
            seat = game.seat_of(user_id)
            if seat is None:
                raise BotError(
                    "You are not playing in this game; you can watch it.", key="bot.error.watch"
                )
            if state.current_seat() != seat:
                current = state.current_seat()
                who = game.seats[current].display_name if current is not None else "nobody"
                raise BotError(
                    f"It is not your turn: {who} is to move.",
                    key="bot.error.not_your_turn",
                    player=who,
                )
            done = len(state.history)
            try:
                state.apply(action)
            except GameError as exc:
                raise BotError(str(exc), key=exc.key, **exc.fields) from exc
            pending = ActResult(game, state, seat, list(state.history[done:]), state.is_terminal())
            if before_store is not None:
                await before_store(pending)
            result = await self._save(game, state, seat, done)
            result.seen = pending.seen  # the same position: a view built for the answer serves
            if language is not None and game.seats[seat].language != language:
                await self.repo.set_seat_language(game_id=game.id, seat=seat, language=language)
            return result

    async def ai_step(self, *, game_id: int) -> ActResult | None:
        """Let the AI seat to move take one action; None when a person is to move.

        The AI thinks with the bot's long work (`workers.in_background`) from its own seat's
        view, outside the game's lock, so nobody waits for it; its answer is applied only if
        the game has not changed since.
        """
        for _ in range(MAX_AI_RETRIES):
            game = await self._reload(game_id)
            if game.status != "active":
                return None
            state = self.load_state(game)
            seat = state.current_seat()
            if seat is None or not game.seats[seat].is_ai:
                return None
            level = game.seats[seat].ai_level or "random"
            if level not in ai_levels(game.game):
                level = ai_levels(game.game)[0]
            # Only the seat's own view goes to the worker: what this AI seat may know.
            text = await workers.in_background(
                choose_action,
                state.view(seat),
                level=level,
                seed=self._ai_rng.getrandbits(63),
                budget_s=self.ai_budget_s,
            )
            async with self.lock(game_id):
                fresh = await self._reload(game_id)
                if fresh.version == game.version:
                    done = len(state.history)
                    state.apply(text)
                    return await self._save(fresh, state, seat, done)
            # The game changed while the AI was thinking (a resignation, say): think again.
        return None

    async def resign(self, *, channel_id: int, user_id: int) -> tuple[GameRow, str]:
        """A resigning player's seat is handed to an AI so the others can finish the game."""
        game = await self.open_game(channel_id)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise BotError("You are not playing in this game.", key="bot.error.not_playing")
            if game.status != "active":
                raise BotError(
                    "The game has not started: use /game leave to leave the lobby.",
                    key="bot.error.resign_lobby",
                )
            seats = list(game.seats)
            old = seats[seat]
            name = texts_for(game.language)("bot.seat.resigned", player=old.display_name)
            seats[seat] = SeatRow(seat, None, "easy", name)
            if all(s.is_ai for s in seats):
                await self.repo.set_status(
                    game_id=game.id, expected_version=game.version, status="abandoned"
                )
                return await self._reload(game.id), "abandoned"
            await self._seat_in_play(game, seats)
            return await self._reload(game.id), "resigned"

    async def abandon(self, *, channel_id: int, user_id: int, can_manage: bool) -> GameRow:
        game = await self.open_game(channel_id)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            if user_id != game.creator_id and not can_manage:
                raise BotError(
                    "Only the game's creator or a member with Manage Channels can abandon it.",
                    key="bot.error.only_creator_abandons",
                )
            await self.repo.set_status(
                game_id=game.id, expected_version=game.version, status="abandoned"
            )
            return await self._reload(game.id)

    # ------------------------------------------------------------------ results

    async def backfill_results(self) -> int:
        """Store the results of games that finished before results were kept; run at start-up.

        Filling is idempotent: games that have results are not even read again. A saved state
        this engine can no longer read is skipped with a warning rather than stopping the bot.
        Returns how many games got results.
        """
        filled = 0
        for game in await self.repo.finished_games_without_results():
            try:
                state = self.load_state(game)
            except (BotError, KeyError, ValueError) as exc:
                log.warning("game %s: no results, its saved state cannot be read: %s", game.id, exc)
                continue
            results = seat_results(state)
            if not results:
                log.warning("game %s: finished, but its saved state is not over", game.id)
                continue
            await self.repo.save_results(game_id=game.id, results=results)
            filled += 1
        return filled

    # ------------------------------------------------------------------ internals

    async def _find(self, channel_id: int | None, game_id: int | None) -> GameRow:
        if game_id is not None:
            return await self._reload(game_id)
        if channel_id is None:
            raise ValueError("a channel or a game is needed")
        game = await self.open_game(channel_id)
        if game.status != "active":
            raise BotError(
                "The game has not started yet: the creator can press Start.",
                key="bot.error.not_started",
            )
        return game

    async def _seat_in_play(self, game: GameRow, seats: list[SeatRow]) -> None:
        """Change who sits where in a game in play (a resignation, an AI for a person away, a
        return), storing whether an AI is now to move."""
        await self.repo.set_seats(
            game_id=game.id,
            expected_version=game.version,
            seats=seats,
            ai_turn=ai_turn(game, self.peek_state(game), tuple(seats)),
        )

    async def _reload(self, game_id: int) -> GameRow:
        """The game as stored, read under its lock before a change (see `Repository.game`)."""
        game = await self.repo.game(game_id=game_id, fresh=True)
        if game is None:
            raise BotError("That game no longer exists.", key="bot.error.game_gone")
        return game

    async def _save(self, game: GameRow, state: State, seat: int, done: int) -> ActResult:
        """Store the actions applied to `state` after its first `done` ones."""
        applied = list(state.history[done:])
        finished = state.is_terminal()
        prompt = self._prompt_for(game, state)
        try:
            await self.repo.record_actions(
                game_id=game.id,
                expected_version=game.version,
                state=state.to_dict(),
                actions=[(seat, text) for text in applied],
                status="finished" if finished else "active",
                prompt=prompt,
                wait=self._wait_for(game, state),
                results=seat_results(state) if finished else None,
                ai_turn=ai_turn(game, state),
            )
        except VersionConflict as exc:
            # Another process changed the game between our read and our write.
            raise BotError(
                "The game changed at the same moment; look at the board and try again.",
                key="bot.error.conflict",
            ) from exc
        self._keep(game.id, game.version + 1, state)
        saved = await self._reload(game.id)
        log.info("game %s: seat %s did %s", game.id, seat, "; ".join(applied))
        return ActResult(saved, state, seat, applied, finished)

    def _wait_for(self, game: GameRow, state: State) -> Wait | None:
        """The turn that starts now, if a person is to move: the wait is what reminders and
        absence votes are measured by."""
        seat = state.current_seat()
        if seat is None or game.seats[seat].is_ai:
            return None
        now = self.clock()
        minutes = game.remind_minutes
        return Wait(now, now + timedelta(minutes=minutes) if minutes else None)

    # ------------------------------------------------------------------ absent players

    async def request_takeover(self, *, channel_id: int, user_id: int) -> VoteOutcome:
        """Open the others' vote on a person to move who has been away past the game's limit."""
        game = await self._find(channel_id, None)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            if game.seat_of(user_id) is None:
                raise BotError(
                    "Only the players of this game can ask for a vote.",
                    key="bot.error.vote_players_only",
                )
            state = self.load_state(game)
            seat = state.current_seat()
            if seat is None or game.seats[seat].is_ai:
                raise BotError(
                    "Nobody is being waited for: an AI is to move.", key="bot.error.ai_to_move"
                )
            absent = game.seats[seat]
            if absent.user_id == user_id:
                raise BotError(
                    "It is your own turn: play, or /game resign to leave the game.",
                    key="bot.error.own_turn",
                )
            if game.absent_hours is None:
                raise BotError(
                    "This game was opened without absence votes (absent:0).",
                    key="bot.error.no_absence_votes",
                )
            since = await self.repo.turn_since(game_id=game.id)
            waited = self.clock() - since if since else timedelta(0)
            limit = timedelta(hours=game.absent_hours)
            if waited < limit:
                raise BotError(
                    f"{absent.display_name} has been waited for {_hours(waited)}; this game "
                    f"allows {_hours(limit)} before a vote. Try again after that.",
                    key="bot.error.too_early",
                    player=absent.display_name,
                    waited=waited,
                    limit=limit,
                )
            vote = await self.repo.open_absence_vote(
                game_id=game.id,
                version=game.version,
                seat=seat,
                asked=game.people_but(absent.user_id),
            )
            return VoteOutcome(vote, game, "open")

    async def cast_vote(self, *, vote_id: int, user_id: int, choice: str) -> VoteOutcome:
        """Count a vote; a choice wins once more than half of those asked made it, or, when
        everyone has voted without that, the gentler one (an AI plays: the game goes on and
        the person can come back)."""
        if choice not in ("ai", "end"):
            raise ValueError(choice)
        found = await self.repo.absence_vote(vote_id=vote_id)
        if found is None:
            raise BotError("That vote no longer exists.", key="bot.error.vote_gone")
        async with self.lock(found.game_id):
            vote = await self.repo.absence_vote(vote_id=vote_id)
            assert vote is not None
            game = await self._reload(vote.game_id)
            if vote.status != "open":
                raise BotError("That vote has been decided already.", key="bot.error.vote_decided")
            if user_id not in vote.asked:
                raise BotError(
                    "Only the other players of this game vote.", key="bot.error.others_vote"
                )
            if game.version != vote.version or game.status != "active":
                await self.repo.record_votes(vote_id=vote.id, votes=vote.votes, status="void")
                raise BotError(
                    "Too late: the game has moved on since (they may be back).",
                    key="bot.error.vote_late",
                )
            votes = {**vote.votes, user_id: choice}
            counts = {c: sum(1 for v in votes.values() if v == c) for c in ("ai", "end")}
            decided = next((c for c, n in counts.items() if 2 * n > len(vote.asked)), None)
            if decided is None and len(votes) == len(vote.asked):
                decided = "ai"
            vote = replace(vote, votes=votes, status=decided or "open")
            if decided == "ai":
                game = await self._stand_in(game, vote)
            elif decided == "end":
                await self.repo.set_status(
                    game_id=game.id, expected_version=game.version, status="abandoned"
                )
                game = await self._reload(game.id)
            await self.repo.record_votes(vote_id=vote.id, votes=votes, status=vote.status)
            return VoteOutcome(vote, game, vote.status)

    async def _stand_in(self, game: GameRow, vote: AbsenceVote) -> GameRow:
        seats = list(game.seats)
        away = seats[vote.seat]
        level = STAND_IN_LEVEL if STAND_IN_LEVEL in ai_levels(game.game) else "easy"
        seats[vote.seat] = SeatRow(
            away.seat,
            None,
            level,
            texts_for(game.language)("bot.seat.away", player=away.display_name),
            away.user_id,
            away.language,
        )
        await self._seat_in_play(game, seats)
        log.info("game %s: an AI plays seat %s while its player is away", game.id, vote.seat)
        return await self._reload(game.id)

    async def return_seat(
        self, *, channel_id: int, user_id: int, name: str, language: str | None = None
    ) -> GameRow:
        """A person an AI stood in for takes their seat back."""
        game = await self._find(channel_id, None)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            seats = list(game.seats)
            seat = next((s for s in seats if s.away_user_id == user_id), None)
            if seat is None:
                raise BotError(
                    "No AI is playing a seat of yours in this game.", key="bot.error.not_away"
                )
            seats[seat.seat] = SeatRow(
                seat.seat, user_id, None, name, language=language or seat.language
            )
            await self._seat_in_play(game, seats)
            return await self._reload(game.id)

    # ------------------------------------------------------------------ taking back

    async def request_undo(self, *, channel_id: int, user_id: int) -> UndoOutcome:
        """Ask to take back the game's last action: only its player may, only while it is
        still the last one, and only if it showed nobody anything hidden. Every other person
        at the table must accept (with nobody else, it is taken back at once)."""
        game = await self._find(channel_id, None)
        async with self.lock(game.id):
            game = await self._reload(game.id)
            last = await self.repo.last_action(game_id=game.id)
            if last is None:
                raise BotError(
                    "Nothing has been played yet, so there is nothing to take back.",
                    key="bot.error.nothing_to_undo",
                )
            n, seat, text = last
            if game.seats[seat].user_id != user_id:
                raise BotError(
                    "Only the player who made the last move can ask to take it back, and only "
                    "until the next player acts.",
                    key="bot.error.undo_only_last",
                )
            if find_game(game.game).reveals_hidden(text):
                raise BotError(
                    f"Your last move ({text}) showed something hidden, so it cannot be taken "
                    "back: nobody can unsee it.",
                    key="bot.error.undo_hidden",
                    action=text,
                    game_name=game.game,
                )
            request = await self.repo.open_undo(
                game_id=game.id,
                version=game.version,
                n=n,
                requester_id=user_id,
                action=text,
                asked=game.people_but(user_id),
            )
            if not request.asked:
                return await self._take_back(game, request)
            return UndoOutcome(request, game, "asked")

    async def answer_undo(self, *, request_id: int, user_id: int, accept: bool) -> UndoOutcome:
        found = await self.repo.undo_request(request_id=request_id)
        if found is None:
            raise BotError("That request no longer exists.", key="bot.error.request_gone")
        async with self.lock(found.game_id):
            request = await self.repo.undo_request(request_id=request_id)
            assert request is not None
            game = await self._reload(request.game_id)
            if request.status != "open":
                raise BotError(
                    "That request has been settled already.", key="bot.error.request_settled"
                )
            if user_id not in request.asked:
                raise BotError(
                    "Only the other players at the table answer this request.",
                    key="bot.error.others_answer",
                )
            if game.version != request.version or game.status != "active":
                await self.repo.answer_undo(
                    request_id=request.id, accepted=request.accepted, status="void"
                )
                raise BotError(
                    "Too late: the game has moved on since, so that move stands.",
                    key="bot.error.undo_late",
                )
            if not accept:
                await self.repo.answer_undo(
                    request_id=request.id, accepted=request.accepted, status="refused"
                )
                return UndoOutcome(replace(request, status="refused"), game, "refused")
            accepted = tuple(sorted({*request.accepted, user_id}))
            request = replace(request, accepted=accepted)
            if request.waiting_for:
                await self.repo.answer_undo(request_id=request.id, accepted=accepted)
                return UndoOutcome(request, game, "waiting")
            return await self._take_back(game, request)

    async def _take_back(self, game: GameRow, request: UndoRequest) -> UndoOutcome:
        """Rebuild the game from its deal without the action (the engine is deterministic) and
        save that as a new version, so every prompt and button of the old one is stale."""
        assert game.seed is not None
        texts = [text for _, text in await self.repo.actions(game_id=game.id)][: request.n]
        state = find_game(game.game).replay(len(game.seats), game.seed, texts, game.options)
        try:
            await self.repo.take_back(
                game_id=game.id,
                expected_version=game.version,
                n=request.n,
                state=state.to_dict(),
                request_id=request.id,
                accepted=request.accepted,
                prompt=self._prompt_for(game, state),
                wait=self._wait_for(game, state),
                ai_turn=ai_turn(game, state),
            )
        except VersionConflict as exc:
            raise BotError(
                "Too late: the game has moved on since, so that move stands.",
                key="bot.error.undo_late",
            ) from exc
        log.info("game %s: action %s taken back", game.id, request.n)
        return UndoOutcome(
            replace(request, status="done"), await self._reload(game.id), "done", state
        )

    # ------------------------------------------------------------------ reminders

    async def due_reminders(self, words: Callable[[Reminder], str] | None = None) -> list[Reminder]:
        """The people to remind now, each claimed so no other process reminds them too, with
        its `words` (if given) owed in the outbox in the same transaction (so a process that
        dies before posting it leaves it to another); the next reminder for the same wait
        comes an hour later, and a move starts a new wait."""
        now = self.clock()
        found = []
        for due in await self.repo.due_reminders(now=now):
            game = await self.repo.game(game_id=due.game_id)
            if game is None or game.status != "active":
                continue
            state = self.load_state(game)
            seat = state.current_seat()
            reminder = None
            if seat is not None and not game.seats[seat].is_ai:
                waited = now - (due.turn_since or now)
                reminder = Reminder(game, seat, game.seats[seat].user_id or 0, waited)
            announced = await self.repo.claim_reminder(
                game_id=game.id,
                due=due.due,
                next_at=now + REMIND_AGAIN if reminder else None,
                text=words(reminder) if reminder and words else None,
            )
            if announced is not None and reminder is not None:
                found.append(replace(reminder, announcement_id=announced))
        return found

    @staticmethod
    def _prompt_for(game: GameRow, state: State) -> tuple[str, int] | None:
        """A prompt waits for a person when they must place a drawn card or pick lines."""
        seat = state.current_seat()
        if seat is None or game.seats[seat].is_ai:
            return None
        # A game with steps inside its phases (Sector 6: a drawn tile waits in the "place"
        # step of its "build" phase) names the waiting decision by its step.
        stage = getattr(state, "step", None) or getattr(state, "phase", None)
        if stage in PROMPT_PHASES:
            return (PROMPT_PHASES[stage], game.seats[seat].user_id or 0)
        return None
