"""A clock the tests move by hand, for everything that waits on time: reminders, absence
votes, turn clocks, leases. The bot reads it wherever it would read the time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

# Called whenever a clock is moved: the bots running in the test's process look at once for
# what fell due (see `BotHarness`), rather than every tenth of a second in case it did.
MOVED: list[Callable[[], None]] = []


class MovedClock:
    """Stands still until `advance` moves it on."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)
        for moved in list(MOVED):
            moved()
