"""The names the bot and its tests import the game store by: the store itself
(`hvbot.store.GameStore`, long called the repository) and the rows it hands out."""

from hvbot.store import (
    OPEN_STATUSES,
    AbsenceVote,
    ArchivedGame,
    ChannelBusy,
    DueReminder,
    GameRow,
    ResultRow,
    SeatResult,
    SeatRow,
    UndoRequest,
    VersionConflict,
    Wait,
)
from hvbot.store import GameStore as Repository

__all__ = [
    "OPEN_STATUSES",
    "AbsenceVote",
    "ArchivedGame",
    "ChannelBusy",
    "DueReminder",
    "GameRow",
    "Repository",
    "ResultRow",
    "SeatResult",
    "SeatRow",
    "UndoRequest",
    "VersionConflict",
    "Wait",
]
