"""What a server's owners decide (`/server settings`): where games may be opened and by whom,
who else moderates them, the language of the server's public posts, what new games start
with, and the limits that keep one member from holding the server's channels.

Discord facts (the channel's category, a member's roles) come in as plain ids, so the rules
here are pure and the tests can check them without Discord.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from data.texts import LANGUAGES, Option
from hvbot.services.errors import BotError
from hvbot.services.seasons import LENGTHS
from hvbot.store import TIMEOUTS, GameStore, ServerSettings, TurnClock
from hvbot.store.sql import stamp

# The defaults of a server that set nothing.
MOST_OPEN_PER_MEMBER = 3  # lobbies and games in play one person may have opened in a server
LOBBY_HOURS = 24
GAMES_PER_CHANNEL = 10  # open games one channel may hold, each in a thread of its own
DEFAULT_REMIND_MINUTES = 10
DEFAULT_ABSENT_HOURS = 24
# What a game (and so a server's default) may say; 0 turns either off.
MAX_REMIND_MINUTES = 7 * 24 * 60
MAX_ABSENT_HOURS = 30 * 24
# What owners may set them to.
MOST_OPEN_RANGE = (1, 25)
LOBBY_HOURS_RANGE = (1, 7 * 24)
GAMES_PER_CHANNEL_RANGE = (1, 50)
# The most channels and categories a server may list as places for games.
MOST_PLACES = 25
# What `/server settings forget:` can put back to its default.
FORGETTABLE = (
    "places",
    "opener_role",
    "moderator_role",
    "language",
    "reminder",
    "absent",
    "clock",
    "most_open",
    "lobby_hours",
    "games_per_channel",
)


def check_waits(*, remind_minutes: int | None, absent_hours: int | None) -> None:
    """Refuse a reminder or absence wait out of range (None: not given)."""
    if absent_hours is not None and not 0 <= absent_hours <= MAX_ABSENT_HOURS:
        raise BotError(
            f"Absence votes come after 1 to {MAX_ABSENT_HOURS} hours, or 0 for never; "
            f"not {absent_hours}.",
            key="bot.error.absent_range",
            most=MAX_ABSENT_HOURS,
            given=absent_hours,
        )
    if remind_minutes is not None and not 0 <= remind_minutes <= MAX_REMIND_MINUTES:
        raise BotError(
            f"Reminders come after 1 to {MAX_REMIND_MINUTES} minutes, or 0 for never; "
            f"not {remind_minutes}.",
            key="bot.error.remind_range",
            most=MAX_REMIND_MINUTES,
            given=remind_minutes,
        )


def most_open(settings: ServerSettings) -> int:
    return settings.most_open or MOST_OPEN_PER_MEMBER


def lobby_hours(settings: ServerSettings) -> int:
    return settings.lobby_hours or LOBBY_HOURS


def games_per_channel(settings: ServerSettings) -> int:
    return settings.games_per_channel or GAMES_PER_CHANNEL


def lobby_life(settings: ServerSettings) -> timedelta:
    return timedelta(hours=lobby_hours(settings))


def may_open_in(settings: ServerSettings, places: Iterable[int]) -> bool:
    """Whether a game may be opened where `places` are the channel and what holds it (its
    category; for a thread, its channel and that channel's category)."""
    return not settings.game_places or any(p in settings.game_places for p in places)


def may_open(settings: ServerSettings, roles: Iterable[int], *, moderator: bool) -> bool:
    """Whether a member with `roles` may open games: everyone unless a role is named, and
    the server's moderators always."""
    return settings.opener_role is None or moderator or settings.opener_role in set(roles)


def is_moderator_role(settings: ServerSettings, roles: Iterable[int]) -> bool:
    return settings.moderator_role is not None and settings.moderator_role in set(roles)


@dataclass(frozen=True)
class Change:
    """One `/server settings` call: every option given (None: not given)."""

    allow: int | None = None  # a channel or category added to the places for games
    disallow: int | None = None  # one taken off that list
    opener_role: int | None = None  # the server's own id (its @everyone role): everyone
    moderator_role: int | None = None
    language: str | None = None
    reminder: int | None = None
    absent: int | None = None
    clock: TurnClock | None = None  # minutes 0: no clock
    most_open: int | None = None
    lobby_hours: int | None = None
    games_per_channel: int | None = None
    season: str | None = None  # a season's length: "off", "month" or "quarter"
    season_channel: int | None = None  # where a season's end is announced
    rank_role: int | None = None  # the best players' role; the server's own id: none
    live_board: bool | None = None  # whether board posts link to the game's live page
    forget: str | None = None  # one of FORGETTABLE, back to its default

    @property
    def empty(self) -> bool:
        return all(value is None for value in vars(self).values())


class ServerSettingsService:
    """Reading and changing a server's settings."""

    def __init__(self, repo: GameStore, clock: Callable[[], datetime] | None = None) -> None:
        self.repo = repo
        self.clock = clock or (lambda: datetime.now(UTC))

    async def of(self, guild_id: int) -> ServerSettings:
        return await self.repo.server_settings.of(guild_id)

    async def change(self, guild_id: int, change: Change) -> ServerSettings:
        """The settings with `change` made, stored; a BotError (nothing stored) if any part of
        it is out of range."""
        settings = await self.of(guild_id)
        changed = apply(settings, change, guild_id=guild_id, now=self.clock())
        if changed != settings:
            await self.repo.server_settings.set(guild_id, changed)
        return changed

    async def live_links(self, guild_id: int | None) -> bool:
        """Whether the server's game posts link to their live boards (on unless turned off;
        a game outside a server has no owners to turn them off)."""
        if guild_id is None:
            return True
        return (await self.of(guild_id)).live_links is not False


def apply(
    settings: ServerSettings, change: Change, *, guild_id: int, now: datetime | None = None
) -> ServerSettings:
    """`settings` with `change` made; pure, refusing what is out of range. `now` dates
    seasons turned on (or their length changed): only a season that ends after it is
    announced, never one that ended before the server chose seasons."""
    updates: dict[str, Any] = {}
    places = list(settings.game_places)
    if change.forget is not None:
        if change.forget not in FORGETTABLE:
            raise ValueError(f"nothing called {change.forget} can be forgotten")
        field = {"places": "game_places", "reminder": "remind_minutes", "absent": "absent_hours"}
        name = field.get(change.forget, change.forget)
        updates[name] = () if name == "game_places" else None
        if name == "game_places":
            places = []
    if change.allow is not None and change.allow not in places:
        if len(places) >= MOST_PLACES:
            raise BotError(
                f"Games may be allowed in at most {MOST_PLACES} channels and categories: "
                "take one off with `disallow:` first.",
                key="bot.error.settings_places_full",
                most=MOST_PLACES,
                option=Option("server settings disallow"),
            )
        places.append(change.allow)
    if change.disallow is not None and change.disallow in places:
        places.remove(change.disallow)
    if change.allow is not None or change.disallow is not None:
        updates["game_places"] = tuple(places)
    if change.opener_role is not None:
        updates["opener_role"] = None if change.opener_role == guild_id else change.opener_role
    if change.moderator_role is not None:
        if change.moderator_role == guild_id:
            raise BotError(
                "Everyone cannot be a moderator: name a role, or `forget: moderator role`.",
                key="bot.error.settings_everyone_moderates",
                option=Option("server settings forget"),
            )
        updates["moderator_role"] = change.moderator_role
    if change.language is not None:
        if change.language not in LANGUAGES:
            raise ValueError(f"the bot speaks {', '.join(LANGUAGES)}, not {change.language}")
        updates["language"] = change.language
    check_waits(remind_minutes=change.reminder, absent_hours=change.absent)
    if change.reminder is not None:
        updates["remind_minutes"] = change.reminder
    if change.absent is not None:
        updates["absent_hours"] = change.absent
    if change.clock is not None:
        if change.clock.timeout not in TIMEOUTS:
            raise ValueError(f"a clock's end is one of {', '.join(TIMEOUTS)}")
        updates["clock"] = change.clock if change.clock.minutes else None
    if change.season is not None:
        if change.season not in LENGTHS:
            raise ValueError(f"a season lasts one of {', '.join(LENGTHS)}")
        length = None if change.season == "off" else change.season
        if length != settings.season_length:
            updates["season_length"] = length
            updates["season_since"] = stamp(now or datetime.now(UTC)) if length else None
    if change.season_channel is not None:
        updates["season_channel"] = change.season_channel
    if change.rank_role is not None:
        updates["rank_role"] = None if change.rank_role == guild_id else change.rank_role
    if change.live_board is not None:
        updates["live_links"] = None if change.live_board else False  # on is the default
    limits = (
        ("most_open", MOST_OPEN_RANGE, "A member may have {low} to {high} open games"),
        ("lobby_hours", LOBBY_HOURS_RANGE, "A lobby may live {low} to {high} hours"),
        ("games_per_channel", GAMES_PER_CHANNEL_RANGE, "A channel may hold {low} to {high} games"),
    )
    for name, (low, high), says in limits:
        given = getattr(change, name)
        if given is None:
            continue
        if not low <= given <= high:
            raise BotError(
                says.format(low=low, high=high) + f", not {given}.",
                key=f"bot.error.settings_{name}",
                low=low,
                high=high,
                given=given,
            )
        updates[name] = given
    return replace(settings, **updates)
