"""The rows the game store hands out: plain frozen values, read once and never changed.

A change to a game is a new row (`dataclasses.replace`), saved with a compare-and-set on its
version by `hvbot.store.GameStore`; nothing here touches the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

OPEN_STATUSES = ("lobby", "active")
# How a game's posts reach its players (`GameRow.delivery`): posted in its channel, or only
# in answer to its players' interactions (a private channel where a person installed the app).
CHANNEL, ANSWERS = "channel", "interaction"


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    display_name: str
    away_user_id: int | None = None  # the person an AI stands in for until they return
    language: str | None = None  # the person's language as last seen (None: an AI seat)
    resigned_user_id: int | None = None  # the person who resigned the seat: theirs is a loss
    away_until: str | None = None  # as stored: the person is away (/me away) until then

    def away_at(self, now: str) -> str | None:
        """When the person's time away ends, if they are away at `now` (a stamp)."""
        return self.away_until if self.away_until is not None and self.away_until > now else None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


# What a game's clock does when it runs out: an AI plays that move, or takes the seat for
# the rest of the game, or the game ends there (a loss for the person out of time).
TIMEOUTS = ("ai_move", "ai_seat", "end")


@dataclass(frozen=True)
class TurnClock:
    """How long a person has for each move, and what happens when they run out: `ai_move`,
    an AI plays that move for them; `ai_seat`, an AI takes their seat for the rest of the game
    (as when the others vote that it should, see `hvbot.services.absence`)."""

    minutes: int
    timeout: str = "ai_move"

    @property
    def length(self) -> timedelta:
        return timedelta(minutes=self.minutes)


@dataclass(frozen=True)
class GameRow:
    id: int
    game_name: str  # the engine name of its game ("high-voltage"); its column is `game`
    guild_id: int | None
    channel_id: int
    creator_id: int
    status: str
    seed: int | None
    options: dict[str, Any]
    # Kept as stored: a few kB of text cost less memory than the decoded dict, and the engine
    # decodes it in well under a millisecond when a move needs it.
    state_json: str | None
    version: int
    lobby_message_id: int | None
    seats: tuple[SeatRow, ...]
    remind_minutes: int | None = None  # None: the person to move is never reminded
    absent_hours: int | None = None  # None: no votes to replace a person who is away
    wants_thread: bool = False  # asked at /game new for a thread to play in
    thread_id: int | None = None  # the thread its public posts go to, once started
    language: str = "en"  # of its public posts: the server's when the game was opened
    clock: TurnClock | None = None  # None: the person to move may take as long as they like
    clock_deadline: str | None = None  # as stored: when the person to move runs out
    clock_warn_at: str | None = None  # as stored: when they are warned (None: not again)
    stand_in_seat: int | None = None  # an AI is playing this seat's move: its time ran out
    clock_paused_at: str | None = None  # the clock stands still (a request waits for answers)
    tournament_id: int | None = None  # a table of this tournament (see hvbot.services.tournaments)
    # How its posts reach its players: CHANNEL, or ANSWERS where the bot may only answer
    # interactions (a DM or a group DM through a person's own installation of the app).
    delivery: str = "channel"

    @property
    def post_channel_id(self) -> int:
        """Where the game's public posts go: its thread if it has one, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def answers_only(self) -> bool:
        """Whether the bot reaches this game's players only by answering their interactions:
        its owed posts wait for the next one (see `hvbot.aftermath`)."""
        return self.delivery == ANSWERS

    @property
    def channels(self) -> tuple[int, ...]:
        """Where a command may name the game: its channel, and its thread if it has one."""
        return (self.channel_id,) if self.thread_id is None else (self.channel_id, self.thread_id)

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine state as saved (a fresh dict on every call: callers may change it)."""
        return json.loads(self.state_json) if self.state_json is not None else None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def people_but(self, user_id: int | None) -> list[int]:
        """The people seated here other than `user_id` (AI seats are nobody's)."""
        return [s.user_id for s in self.seats if s.user_id is not None and s.user_id != user_id]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass(frozen=True)
class SeatResult:
    """How one seat ended a finished game: what the service hands over with the last move."""

    seat: int
    score: int
    won: bool
    # The seat left the game before its end (a forfeit, a resignation, a moderator's removal):
    # it ranks last, whatever the AI that took it over did (see `hvbot.services.ratings`).
    left_early: bool = False


@dataclass(frozen=True)
class ResultRow:
    """One seat of one finished game as stored for statistics (public facts only)."""

    game_id: int
    seat: int
    game_name: str  # as in `GameRow`
    guild_id: int | None
    user_id: int | None
    display_name: str
    score: int
    won: bool
    finished_at: str
    # Resigned, forfeited or removed by a moderator: ranks last (see hvbot.services.ratings).
    left_early: bool = False
    ai_level: str | None = None  # the AI that held the seat at the end (None: a person)

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game and when it ended (ISO 8601, UTC), for choosing one to look back at."""

    game: GameRow
    ended_at: str | None


@dataclass(frozen=True)
class UndoRequest:
    """A request to the others at the table, for a game at `version`: to take back action
    number `n` (`kind` "undo"), or to end the game without a result ("abandon")."""

    id: int
    game_id: int
    version: int
    n: int
    requester_id: int
    action: str
    asked: tuple[int, ...]
    accepted: tuple[int, ...]
    status: str
    message_id: int | None
    kind: str = "undo"

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(u for u in self.asked if u not in self.accepted)


@dataclass(frozen=True)
class AbsenceVote:
    """The others' vote on a seat whose person is away: "ai" plays for them, or "end"."""

    id: int
    game_id: int
    version: int
    seat: int
    asked: tuple[int, ...]
    votes: dict[int, str]
    status: str


@dataclass(frozen=True)
class Wait:
    """A person's turn: since when they have been waiting and when to remind them (None: this
    game does not remind); with a turn clock, when they run out and when they are warned
    (as stored, so a clock that goes on from an earlier action keeps its exact value)."""

    since: datetime
    remind_at: datetime | None
    deadline: str | None = None
    warn_at: str | None = None


@dataclass(frozen=True)
class DueReminder:
    """A game whose person to move is due a reminder (as stored: `due` is the claim key)."""

    game_id: int
    due: str
    turn_since: datetime | None


# Where a person's turn reminders go: the game's channel (a mention, as by default), a direct
# message, both, or nowhere.
REMIND_WHERE = ("channel", "dm", "both", "none")


@dataclass(frozen=True)
class ServerSettings:
    """What a server's owners set (`/server settings`); None keeps the bot's default."""

    game_places: tuple[int, ...] = ()  # channels and categories games may be opened in; (): any
    opener_role: int | None = None  # the role that may open games (None: everyone)
    moderator_role: int | None = None  # its members moderate games, as Manage Messages does
    language: str | None = None  # of the server's public posts (None: the server's locale)
    remind_minutes: int | None = None
    absent_hours: int | None = None
    clock: TurnClock | None = None  # new games' turn clock (None: no clock)
    most_open: int | None = None  # lobbies and games one member may have open
    lobby_hours: int | None = None  # how long an unstarted lobby lives
    games_per_channel: int | None = None  # open games a channel may hold, each in a thread
    season_length: str | None = None  # "month" or "quarter" (None: no seasons)
    season_since: str | None = None  # when seasons were turned on (a stamp)
    season_channel: int | None = None  # where a season's end is announced (None: not at all)
    rank_role: int | None = None  # the role the best of each game hold (None: none given)
    live_links: bool | None = None  # boards link to their live page (None: as by default, on)


@dataclass(frozen=True)
class NotifySettings:
    """A person's own turn reminders (`/me notify`), for every game they play."""

    where: str = "channel"
    every_minutes: int | None = None  # None: as often as each game reminds
    quiet: str | None = None  # as stored ("Europe/Rome 22:30-07:00"): no reminder then
