"""The game store: every game's truth in the database, and the games in play in memory.

`GameStore` is what the services and the bot hold; the rows it hands out are frozen values
(`hvbot.store.rows`). Its SQL sits by concern in this package: reading games (`games`),
changing them (`changes`), requests that wait for answers (`requests`), reminders, results and
board buttons; the numbered migrations are SQL files under `hvbot/database/migrations/<backend>/`.
"""

from hvbot.store.game_store import GameStore, NotStarted
from hvbot.store.rows import (
    ANSWERS,
    CHANNEL,
    OPEN_STATUSES,
    REMIND_WHERE,
    TIMEOUTS,
    AbsenceVote,
    ArchivedGame,
    DueReminder,
    GameRow,
    NotifySettings,
    ResultRow,
    SeatResult,
    SeatRow,
    ServerSettings,
    TurnClock,
    UndoRequest,
    Wait,
)
from hvbot.store.sql import ChannelBusy, TooManyOpen, VersionConflict

__all__ = [
    "ANSWERS",
    "CHANNEL",
    "OPEN_STATUSES",
    "REMIND_WHERE",
    "TIMEOUTS",
    "AbsenceVote",
    "ArchivedGame",
    "ChannelBusy",
    "DueReminder",
    "GameRow",
    "GameStore",
    "NotStarted",
    "NotifySettings",
    "ResultRow",
    "SeatResult",
    "SeatRow",
    "ServerSettings",
    "TooManyOpen",
    "TurnClock",
    "UndoRequest",
    "VersionConflict",
    "Wait",
]
