"""A server's seasons: the calendar they follow, pure.

A season is a UTC calendar month ("2026-11") or quarter ("2026-Q4"), the same for every server
that chose the same length, so that players in different time zones read one boundary and the
bot needs no time zone of the server's. A season contains the moments from its `starts` up to,
not including, its `ends`, which is the next one's `starts`: every moment is in exactly one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

LENGTHS = ("off", "month", "quarter")


@dataclass(frozen=True)
class Season:
    """One season: its `label` ("2026-11", "2026-Q4"), and the moments it holds, from
    `starts` up to (not including) `ends`, both UTC."""

    label: str
    starts: datetime
    ends: datetime

    def contains(self, finished_at: str) -> bool:
        """Whether a stored moment (a result's `finished_at`, ISO text) falls in the season;
        a stamp without a zone, as the oldest rows have, is UTC."""
        moment = datetime.fromisoformat(finished_at)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return self.starts <= moment < self.ends

    @property
    def length(self) -> str:
        """ "quarter" or "month", read from the label."""
        return "quarter" if "Q" in self.label else "month"

    def before(self) -> Season:
        """The season just before this one, of the same length."""
        found = season_at(self.length, self.starts - timedelta(microseconds=1))
        assert found is not None
        return found


def season_at(length: str, moment: datetime) -> Season | None:
    """The season of `length` ("off", "month" or "quarter") that holds `moment` (taken in UTC;
    a naive moment is read as UTC); None when seasons are off."""
    if length not in LENGTHS:
        raise ValueError(f"a season lasts one of {', '.join(LENGTHS)}, not {length!r}")
    if length == "off":
        return None
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    if length == "month":
        first_month, months, label = moment.month, 1, f"{moment.year}-{moment.month:02d}"
    else:
        quarter = (moment.month - 1) // 3
        first_month, months, label = 3 * quarter + 1, 3, f"{moment.year}-Q{quarter + 1}"
    starts = datetime(moment.year, first_month, 1, tzinfo=UTC)
    after = first_month - 1 + months  # months from January to the next season's first
    ends = datetime(moment.year + after // 12, after % 12 + 1, 1, tzinfo=UTC)
    return Season(label, starts, ends)


def season_named(label: str) -> Season | None:
    """The season a label names ("2026-11", "2026-Q4"), or None if it names none: how a past
    season asked for by name (`/stats season:`) is read back."""
    try:
        year_text, part = label.strip().split("-")
        year = int(year_text)
        if part.upper().startswith("Q"):
            quarter = int(part[1:])
            if not 1 <= quarter <= 4:
                return None
            return season_at("quarter", datetime(year, 3 * quarter - 2, 1, tzinfo=UTC))
        month = int(part)
        if not 1 <= month <= 12 or len(part) != 2:
            return None
        return season_at("month", datetime(year, month, 1, tzinfo=UTC))
    except ValueError:
        return None
