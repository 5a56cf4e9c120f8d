"""Quiet hours: a daily stretch, on a player's own wall clock, when the bot sends them
no turn reminders (set with `/me notify`). A reminder that falls due inside them is held until
they end, so a player in Tokyo is not woken by a game whose other players are in Rome.

The hours are kept as the player says them, in their IANA time zone, and turned into instants
only when needed, so they follow the player's clock across daylight saving changes instead of
drifting by an hour twice a year. No Discord and no database here: the cog parses and stores,
the reminders ask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

CLOCK_FORM = "HH:MM, from 00:00 to 23:59"
_CLOCK = re.compile(r"([0-9]{1,2})(?::([0-9]{2}))?")

# Offered before the player has typed anything: where most players are likely to be, within
# Discord's 25 choices.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Berlin",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
)
# Names zoneinfo lists that are no place a player lives: "localtime" is whatever the host is
# set to, "posixrules" a compiler default, "Factory" a zone meaning "not set".
_NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})


@dataclass(frozen=True)
class QuietHours:
    """Quiet hours in local wall-clock time: `start` to `end`, across midnight when `end` is
    earlier than `start`.

    Where daylight saving makes a wall-clock time happen twice, the first time counts; where it
    skips one, the moment the clock jumps past it counts. Either way the quiet stretch begins
    and ends the first time the player's clock has reached the time they set, which is when
    they would expect it to, and each night has one stretch, never two.
    """

    zone: str
    start: time
    end: time

    def __post_init__(self) -> None:
        # Checked here so a stored text that no longer makes sense (or a typo in a test) fails
        # where it is read, not hours later in a reminder loop.
        if known_zone(self.zone) != self.zone:
            raise ValueError(f"unknown time zone {self.zone!r}")
        for clock in (self.start, self.end):
            if clock.second or clock.microsecond or clock.tzinfo is not None:
                # Only whole minutes survive to_text, and the zone is `zone`, not the time's.
                raise ValueError(f"{clock} is not a plain time of day in whole minutes")
        if self.start == self.end:
            # Either never quiet or always quiet: neither is worth a setting that looks real.
            raise ValueError("quiet hours must start and end at different times")

    def contains(self, at: datetime) -> bool:
        """Whether no reminder should be sent at `at`."""
        return self._around(at) is not None

    def next_allowed(self, at: datetime) -> datetime:
        """When a reminder due at `at` may be sent: `at` itself outside quiet hours, else the
        moment they end, in UTC like the bot's clock."""
        moment = at
        # More than once only when a clock change makes one night's end the next one's start.
        while (window := self._around(moment)) is not None:
            moment = window[1]
        return moment

    def to_text(self) -> str:
        """One short column to store, that a person reading the database understands."""
        return f"{self.zone} {self.start:%H:%M}-{self.end:%H:%M}"

    @classmethod
    def from_text(cls, text: str) -> QuietHours:
        """The inverse of `to_text`; ValueError for anything else, so a damaged stored value
        is noticed rather than read as some other hours."""
        zone, _, hours = text.strip().rpartition(" ")
        start, dash, end = hours.partition("-")
        if not dash:
            raise ValueError(f"{text!r} is not quiet hours like 'Europe/Rome 22:30-07:00'")
        return cls(known_zone(zone) or zone, parse_clock_time(start), parse_clock_time(end))

    def _around(self, at: datetime) -> tuple[datetime, datetime] | None:
        """The quiet stretch (start, end) that holds `at`, if any. Only the stretches that
        begin on the local day of `at` and the day before can hold it."""
        if at.utcoffset() is None:
            # A naive time would be read in the host's zone, silently wrong on most servers.
            raise ValueError(f"{at} has no time zone")
        zone = ZoneInfo(self.zone)
        today = at.astimezone(zone).date()
        for day in (today - timedelta(days=1), today):
            ends_on = day + timedelta(days=1) if self.end < self.start else day
            start = _instant(day, self.start, zone)
            end = _instant(ends_on, self.end, zone)
            if start <= at < end:
                return start, end
        return None


def parse_clock_time(text: str) -> time:
    """A time of day as a player types it: "22:30", "7:00" or just "7"."""
    found = _CLOCK.fullmatch(text.strip())
    if found and int(found[1]) <= 23 and int(found[2] or 0) <= 59:
        return time(int(found[1]), int(found[2] or 0))
    raise ValueError(f"{text!r} is not a time of day: use {CLOCK_FORM}")


def known_zone(name: str) -> str | None:
    """The zone's own spelling for what a player typed, in any case and with spaces for
    underscores ("america/new york"), as the stored name must be the one zoneinfo loads on
    every system, including those whose file names are case-sensitive."""
    return _zones_by_key().get(_key(name))


def zone_choices(typed: str, most: int = 25) -> list[str]:
    """Zones for Discord's autocomplete: those whose name, or city, starts with what was typed
    come first, as that is usually what the player means, then the rest that contain it."""
    wanted = _key(typed)
    if not wanted:
        return [name for name in COMMON_ZONES if known_zone(name) == name][:most]

    def rank(name: str) -> tuple[bool, str]:
        key = _key(name)
        begins = key.startswith(wanted) or key.rpartition("/")[2].startswith(wanted)
        return not begins, key

    return sorted((name for name in _zones() if wanted in _key(name)), key=rank)[:most]


def _instant(day: date, clock: time, zone: ZoneInfo) -> datetime:
    """When `zone`'s wall clock shows `clock` on `day`: the first time if it shows it twice,
    the moment it jumps past it if it never does (see QuietHours)."""
    wall = datetime.combine(day, clock)
    first = wall.replace(tzinfo=zone).astimezone(UTC)  # fold=0: the earlier of two, if two
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        return first
    # Skipped: fold=0 reads `wall` with the offset from before the jump and fold=1 with the one
    # after, so the jump lies between the two readings.
    return _jump(wall.replace(tzinfo=zone, fold=1).astimezone(UTC), first, zone)


def _jump(before: datetime, after: datetime, zone: ZoneInfo) -> datetime:
    """The instant of the one offset change in `zone` between `before` and `after`. zoneinfo
    does not show its transitions, and a skipped stretch is not always an hour (30 minutes on
    Lord Howe Island, a whole day in Samoa in 2011), so it is found by halving; transitions
    fall on whole seconds."""
    low, high = int(before.timestamp()), int(after.timestamp())
    offset = before.astimezone(zone).utcoffset()
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).utcoffset() == offset:
            low = middle
        else:
            high = middle
    return datetime.fromtimestamp(high, UTC)


def _key(name: str) -> str:
    return name.strip().replace(" ", "_").lower()


@cache
def _zones() -> tuple[str, ...]:
    """Every zone a player can choose. available_timezones() reads the whole zone database
    from disk, so it is read once; a name it lists that zoneinfo cannot load is left out, as
    choosing it would only fail later."""
    return tuple(sorted(name for name in available_timezones() - _NOT_PLACES if _loads(name)))


@cache
def _zones_by_key() -> dict[str, str]:
    return {_key(name): name for name in _zones()}


def _loads(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True
