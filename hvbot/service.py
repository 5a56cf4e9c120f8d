"""The game service the bot holds, without any Discord in it.

The cogs call its methods and turn their results into messages; tests call them directly on a
real database. Each method belongs to one feature service (`hvbot.services`); all of them work
on the one game store (`hvbot.store.GameStore`), where every change runs under the game's lock
and is saved with a compare-and-set on the game's version before it is returned, so it is
never announced unless it is stored, and two simultaneous clicks are applied one after the
other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

from hvbot.services.absence import STAND_IN_LEVEL, Absence
from hvbot.services.access import GameAccess, ai_turn
from hvbot.services.errors import BotError
from hvbot.services.lobby import (
    AI_LEVELS,
    DEFAULT_ABSENT_HOURS,
    DEFAULT_REMIND_MINUTES,
    MAX_ABSENT_HOURS,
    MAX_REMIND_MINUTES,
    Lobby,
)
from hvbot.services.outcomes import ActResult, Reminder, UndoOutcome, VoteOutcome
from hvbot.services.play import Play
from hvbot.services.reminders import REMIND_AGAIN, Reminders
from hvbot.services.results import ResultsBackfill, seat_results
from hvbot.services.undo import Undo
from hvbot.store import GameStore

__all__ = [
    "AI_LEVELS",
    "DEFAULT_ABSENT_HOURS",
    "DEFAULT_REMIND_MINUTES",
    "MAX_ABSENT_HOURS",
    "MAX_REMIND_MINUTES",
    "REMIND_AGAIN",
    "STAND_IN_LEVEL",
    "ActResult",
    "BotError",
    "GameService",
    "Reminder",
    "UndoOutcome",
    "VoteOutcome",
    "ai_turn",
    "seat_results",
]


class GameService:
    """The feature services around one game store, as one object.

    `repo` is the store; `lobby`, `play`, `undo`, `absence`, `reminders` and `results` are the
    features, and the methods the bot calls are reachable here by their own names as well
    (`service.act` is `service.play.act`)."""

    def __init__(
        self,
        repo: GameStore,
        *,
        seed_source: random.Random | None = None,
        ai_budget_s: float = 1.0,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.repo = repo
        self.games = GameAccess(repo, clock or (lambda: datetime.now(UTC)))
        self.play = Play(self.games, seed_source=seed_source, ai_budget_s=ai_budget_s)
        self.lobby = Lobby(self.games, seed_source=seed_source)
        self.undo = Undo(self.games)
        self.absence = Absence(self.games)
        self.reminders = Reminders(self.games)
        self.results = ResultsBackfill(self.games)

        self.open_game = self.games.open_game
        self.peek_state = self.games.peek_state
        self.load_state = self.games.load_state
        self.new_lobby = self.lobby.new_lobby
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_ai = self.lobby.add_ai
        self.start = self.lobby.start
        self.act = self.play.act
        self.ai_step = self.play.ai_step
        self.resign = self.play.resign
        self.abandon = self.play.abandon
        self.request_undo = self.undo.request_undo
        self.answer_undo = self.undo.answer_undo
        self.request_takeover = self.absence.request_takeover
        self.cast_vote = self.absence.cast_vote
        self.return_seat = self.absence.return_seat
        self.due_reminders = self.reminders.due_reminders
        self.backfill_results = self.results.backfill_results

    @property
    def clock(self) -> Callable[[], datetime]:
        """What reminders and absence votes tell the time by (tests move it by hand)."""
        return self.games.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.games.clock = clock
