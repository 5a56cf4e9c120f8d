"""A person's own turn reminders (`/me notify`): where they go, how often, and the quiet
hours in their own time zone when none is sent. They apply to every game the person plays, in
any server, on top of what each game says: a game that reminds nobody (`reminder:0`) stays
silent, and a table's clock runs whatever the reminders do.

`plan` is the whole policy, pure, so the reminders (`hvbot.services.reminders`) ask it for
each reminder that falls due and the tests can check it at any moment of any day.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta

from hvbot.services.errors import BotError, listed, said
from hvbot.services.quiet_hours import CLOCK_FORM, QuietHours, known_zone, parse_clock_time
from hvbot.store import REMIND_WHERE, GameStore, NotifySettings

# How often a person may ask to be reminded, in minutes: from half an hour to a day.
EVERY_CHOICES = (30, 60, 180, 480, 1440)
# Again after a reminder, unless the person said how often: never more often than this.
REMIND_AGAIN = timedelta(hours=1)


@dataclass(frozen=True)
class Plan:
    """What to do with a reminder that fell due: send it (`send`), and when the next one is
    due (`next_at`; None: no more for this turn)."""

    send: bool
    next_at: datetime | None


def quiet_hours(settings: NotifySettings) -> QuietHours | None:
    """The person's quiet hours, if they set any (a stored value no longer readable, a zone
    renamed say, counts as none rather than stopping their reminders)."""
    if settings.quiet is None:
        return None
    try:
        return QuietHours.from_text(settings.quiet)
    except ValueError:
        return None


def plan(settings: NotifySettings, *, now: datetime, turn_since: datetime | None) -> Plan:
    """A reminder that fell due `now`, for a turn waited on since `turn_since`."""
    if settings.where == "none":
        return Plan(False, None)
    every = timedelta(minutes=settings.every_minutes) if settings.every_minutes else None
    if every is not None and turn_since is not None and now < turn_since + every:
        # The game's first reminder comes sooner than the person wants theirs: it waits.
        return Plan(False, turn_since + every)
    quiet = quiet_hours(settings)
    if quiet is not None and quiet.contains(now):
        return Plan(False, quiet.next_allowed(now))
    return Plan(True, now + (every or REMIND_AGAIN))


class Notifications:
    """Reading and changing a person's own reminders."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def of(self, user_id: int) -> NotifySettings:
        return await self.store.notify.of(user_id)

    async def change(
        self,
        user_id: int,
        *,
        where: str | None = None,
        every: int | None = None,
        quiet_from: str | None = None,
        quiet_to: str | None = None,
        zone: str | None = None,
        quiet_off: bool = False,
    ) -> NotifySettings:
        """Change what was given, keep the rest; every value checked before any is kept."""
        settings = await self.of(user_id)
        if where is not None:
            if where not in REMIND_WHERE:
                choices = listed([said(f"commands.choices.where.{w}") for w in REMIND_WHERE])
                raise BotError(
                    f"Reminders go to one of: {choices}.",
                    key="bot.error.notify_where",
                    choices=choices,
                )
            settings = replace(settings, where=where)
        if every is not None:
            if every != 0 and every not in EVERY_CHOICES:
                raise BotError(
                    f"Remind every {', '.join(map(str, EVERY_CHOICES))} minutes, or 0 for as"
                    " each game says.",
                    key="bot.error.notify_every",
                    choices=", ".join(map(str, EVERY_CHOICES)),
                )
            settings = replace(settings, every_minutes=every or None)
        if quiet_off:
            settings = replace(settings, quiet=None)
        elif quiet_from is not None or quiet_to is not None or zone is not None:
            settings = replace(settings, quiet=_quiet(settings, quiet_from, quiet_to, zone))
        await self.store.notify.set(user_id, settings)
        return settings


def _quiet(settings: NotifySettings, start: str | None, end: str | None, zone: str | None) -> str:
    """The quiet hours asked for, what was not given taken from those set before."""
    before = quiet_hours(settings)
    if zone is not None:
        found = known_zone(zone)
        if found is None:
            raise BotError(
                f"{zone!r} is not a time zone: pick one of the suggestions, like Europe/Rome"
                " or America/New_York.",
                key="bot.error.notify_zone",
                zone=zone,
            )
        zone = found
    zone = zone or (before.zone if before else None)
    times: list[time | None] = []
    kept_start, kept_end = (before.start, before.end) if before else (None, None)
    for given, kept in ((start, kept_start), (end, kept_end)):
        if given is None:
            times.append(kept)
            continue
        try:
            times.append(parse_clock_time(given))
        except ValueError:
            raise BotError(
                f"{given!r} is not a time of day: use {CLOCK_FORM}.",
                key="bot.error.notify_time",
                time=given,
                form=said("bot.words.clock_form"),
            ) from None
    start_at, end_at = times
    if zone is None or start_at is None or end_at is None:
        raise BotError(
            "Quiet hours need a start, an end and your time zone, e.g. /me notify"
            " quiet_from:22:00 quiet_to:07:00 zone:Europe/Rome.",
            key="bot.error.notify_quiet_incomplete",
        )
    try:
        return QuietHours(zone, start_at, end_at).to_text()
    except ValueError:
        raise BotError(
            "Quiet hours must start and end at different times.",
            key="bot.error.notify_quiet_empty",
        ) from None
