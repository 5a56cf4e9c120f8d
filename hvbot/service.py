"""The game service the bot holds, without any Discord in it.

The cogs call its feature services and turn their results into messages; tests call them
directly on a real database. Each feature is a service of its own (`hvbot.services`); all work
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

    `repo` is the store; `games` (finding a channel's game and its state), `lobby`, `play`,
    `undo`, `absence`, `reminders` and `results` are the features, each called by its own
    name (`service.play.act`, `service.lobby.join`)."""

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

    @property
    def clock(self) -> Callable[[], datetime]:
        """What reminders and absence votes tell the time by (tests move it by hand)."""
        return self.games.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.games.clock = clock
