"""What happens to a game when someone acts, without any Discord in it: one service per
feature (lobby, play, undo, absence votes, reminders, results) around the one game store
(`hvbot.store`), composed into the `GameService` the bot holds.

The cogs call its feature services and turn their results into messages; tests call them
directly on a real database. Every change runs under the game's lock and is saved with a
compare-and-set on the game's version before it is returned, so it is never announced unless
it is stored, and two simultaneous clicks are applied one after the other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

from hvbot.database import VersionWatch
from hvbot.services.absence import Absence
from hvbot.services.access import STAND_IN_LEVEL, GameAccess, ai_turn, in_channel
from hvbot.services.clocks import TurnClocks
from hvbot.services.errors import BotError
from hvbot.services.follows import Followers
from hvbot.services.lobby import AI_LEVELS, CLOCK_LENGTHS, Lobby
from hvbot.services.moderation import Moderation
from hvbot.services.notify import Notifications
from hvbot.services.outcomes import ActResult, Change, Reminder, UndoOutcome, VoteOutcome
from hvbot.services.play import Play
from hvbot.services.rematch import Rematches
from hvbot.services.reminders import REMIND_AGAIN, Reminders
from hvbot.services.results import ResultsBackfill, seat_results
from hvbot.services.season_ends import SeasonEnds
from hvbot.services.season_stats import SeasonStats
from hvbot.services.server_settings import (
    DEFAULT_ABSENT_HOURS,
    DEFAULT_REMIND_MINUTES,
    MAX_ABSENT_HOURS,
    MAX_REMIND_MINUTES,
    ServerSettingsService,
)
from hvbot.services.stats import Stats
from hvbot.services.throttle import Throttle
from hvbot.services.time_away import TimeAwayService
from hvbot.services.undo import Undo
from hvbot.store import GameRow, GameStore
from hvbot.store.buttons import LiveButtons
from hvbot.store.duties import Duties
from hvbot.store.replays import Replays
from hvbot.store.server_settings import web_secret

__all__ = [
    "AI_LEVELS",
    "CLOCK_LENGTHS",
    "DEFAULT_ABSENT_HOURS",
    "DEFAULT_REMIND_MINUTES",
    "MAX_ABSENT_HOURS",
    "MAX_REMIND_MINUTES",
    "REMIND_AGAIN",
    "STAND_IN_LEVEL",
    "ActResult",
    "BotError",
    "Change",
    "GameService",
    "Reminder",
    "UndoOutcome",
    "VoteOutcome",
    "ai_turn",
    "in_channel",
    "seat_results",
]


class GameService:
    """The feature services around one game store, as one object.

    `repo` is the store, for the services and the tests alone: the rest of the bot reaches
    the games through the services (the aftermath through the outbox, `duties`, and the
    live buttons, `buttons`, which are what it sends from). `games` (finding a channel's game
    and its state), `lobby`, `play`, `undo`, `absence`, `reminders`, `clocks`, `results`,
    `time_away`, `notify` and `follows` are the features, each called by its own name
    (`service.play.act`, `service.lobby.join`); `throttle` counts how often each person asks
    for work that costs the bot each time (boards, logs, exports, replays, stats)."""

    def __init__(
        self,
        repo: GameStore,
        *,
        seed_source: random.Random | None = None,
        ai_budget_s: float = 1.0,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.repo = repo
        if clock is not None:
            repo.clock = clock
        self.games = GameAccess(repo, clock or (lambda: datetime.now(UTC)))
        self.play = Play(self.games, seed_source=seed_source, ai_budget_s=ai_budget_s)
        self.lobby = Lobby(self.games, seed_source=seed_source)
        self.rematch = Rematches(self.games, self.lobby)
        self.undo = Undo(self.games)
        self.abandon = self.undo.abandon
        self.absence = Absence(self.games)
        self.reminders = Reminders(self.games)
        self.clocks = TurnClocks(self.games)
        self.results = ResultsBackfill(self.games)
        self.time_away = TimeAwayService(self.games)
        self.notify = Notifications(repo)
        self.follows = Followers(self.games)
        self.moderation = Moderation(self.games, self.rematch)
        self.server_settings = ServerSettingsService(repo, lambda: self.games.clock())
        self.seasons = SeasonEnds(self.games)
        self.season_stats = SeasonStats(self.games, self.seasons)
        self.stats = Stats(repo)
        # How often each person may ask for work that costs each time (boards, logs,
        # exports, replays, stats), read from the service's clock as it is now.
        self.throttle = Throttle(lambda: self.games.clock())

    @property
    def duties(self) -> Duties:
        """The outbox and the AI seats' claims (see `hvbot.store.duties`)."""
        return self.repo.duties

    @property
    def buttons(self) -> LiveButtons:
        """The one board post of each game whose buttons are live (see `hvbot.store.buttons`)."""
        return self.repo.buttons

    @property
    def replays(self) -> Replays:
        """The replays drawn once and kept (see `hvbot.store.replays`)."""
        return self.repo.replays

    @property
    def watch(self) -> VersionWatch | None:
        """The database's watch of other processes' changes (PostgreSQL's only), for metrics."""
        return self.repo.db.watch

    async def open_counts(self, shard_count: int) -> dict[tuple[str, str, int], int]:
        """Lobbies and games in play by (game, status, shard), for the operators' metrics."""
        return await self.repo.open_counts(shard_count)

    async def open_games_of(self, *, guild_id: int, user_id: int, most: int) -> list[GameRow]:
        """A person's open games in one server (the first `most`), oldest first."""
        return await self.repo.open_games_of(guild_id=guild_id, user_id=user_id, most=most)

    async def identify_turn(self, bucket: int, interval: float, now: float) -> float:
        """How long this process waits for its shard's turn to identify with Discord (see
        `hvbot.store.identify`)."""
        return await self.repo.identify.take(bucket, interval, now)

    @property
    def where(self) -> str:
        """The database the games live in, to log (never with a password)."""
        return str(self.repo.db)

    async def web_secret(self, made: str) -> str:
        """The secret the live boards' links are signed with when WEB_SECRET is unset: the
        one kept in the database, or `made`, kept now (see `store.server_settings.web_secret`)."""
        return await web_secret(self.repo.db, made)

    async def close(self) -> None:
        """Close the store once the changes under way are saved."""
        await self.repo.close()

    @property
    def clock(self) -> Callable[[], datetime]:
        """What reminders and absence votes tell the time by (tests move it by hand)."""
        return self.games.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.games.clock = clock
        self.repo.clock = clock
