"""Time away (`/me away`, `/me back`): a person leaves a server's games for a few days, and
their turn clocks and reminders stand still until they are back.

Away is per server, as a person's games and the people who wait for them are. The allowance
is the one correspondence-chess sites give, so a table is never held up for long: at most
`MOST_AWAY` in any `WINDOW`, checked over the window that ends with the new time away (the
one that holds most of it, since nothing is booked after it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil

from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.store import GameRow

MOST_DAYS = 14  # one time away at most
MOST_AWAY = timedelta(days=30)
WINDOW = timedelta(days=90)
MOST_GAMES = 100  # a person's open games in one server looked at: far more than anyone plays


@dataclass(frozen=True)
class Away:
    """A person's time away as it stands after a change."""

    until: datetime | None  # None: not away
    games: tuple[int, ...]  # their open games in the server (ids): clocks stand or run again
    lobbies: tuple[int, ...]  # those of them still in their lobby, whose message says so


def mark(moment: datetime) -> str:
    """A moment as Discord's own time stamp: each reader sees it in their own time zone, and
    written as their language writes a date, with its weekday (`:F`): "until Thursday, 12
    June", "fino a giovedì 12 giugno" (without it Italian read "fino a 12 giugno")."""
    return f"<t:{int(moment.timestamp())}:F>"


def away_in(periods: list[tuple[datetime, datetime]], end: datetime) -> timedelta:
    """How much of the `WINDOW` that ends at `end` the `periods` fill."""
    start = end - WINDOW
    return sum(
        (min(b, end) - max(a, start) for a, b in periods if b > start and a < end),
        timedelta(0),
    )


class TimeAwayService:
    """Going away from a server's games, and coming back."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def go_away(self, *, guild_id: int, user_id: int, days: int) -> Away:
        """Away for `days` from now (a time away under way is stretched to end then)."""
        if not 1 <= days <= MOST_DAYS:
            raise BotError(
                f"Choose 1 to {MOST_DAYS} days away.", key="bot.error.away_days", most=MOST_DAYS
            )
        store, now = self.games.store, self.games.clock()
        until = now + timedelta(days=days)
        periods = await store.time_away.periods(
            guild_id=guild_id, user_id=user_id, since=until - WINDOW
        )
        # A time away under way becomes this one: it is counted once, to its new end.
        booked = [(a, until if a <= now < b else b) for a, b in periods]
        if not any(a <= now < b for a, b in periods):
            booked.append((now, until))
        used = away_in(booked, until)
        if used > MOST_AWAY:
            # What may still be asked now: the time away so far counted, to this moment.
            so_far = [(a, min(b, now)) for a, b in periods if a < now]
            left = max(0, (MOST_AWAY - away_in(so_far, now)) // timedelta(days=1))
            raise BotError(
                f"You may be away at most {MOST_AWAY.days} days in any {WINDOW.days}, and this "
                f"would make {ceil(used / timedelta(days=1))}. Days you may still be away "
                f"now: {left}.",
                key="bot.error.away_limit",
                most=MOST_AWAY.days,
                window=WINDOW.days,
                used=ceil(used / timedelta(days=1)),
                left=left,
            )
        current = _current(periods, now)
        games = await self._games(guild_id, user_id)
        await store.time_away.set(
            guild_id=guild_id,
            user_id=user_id,
            now=now,
            until=until,
            turns=self._turns(games, user_id),
            moved=until - (current or now),
        )
        return _away(until, games)

    async def come_back(self, *, guild_id: int, user_id: int) -> Away:
        """Back before the time away ends: the clocks of their turns run again from now, with
        the time they had left."""
        store, now = self.games.store, self.games.clock()
        periods = await store.time_away.periods(guild_id=guild_id, user_id=user_id, since=now)
        current = _current(periods, now)
        if current is None:
            raise BotError(
                "You are not away in this server: /me away days:<1-14> to be.",
                key="bot.error.not_away_here",
            )
        games = await self._games(guild_id, user_id)
        await store.time_away.set(
            guild_id=guild_id,
            user_id=user_id,
            now=now,
            until=now,
            turns=self._turns(games, user_id),
            moved=now - current,
        )
        return _away(None, games)

    async def _games(self, guild_id: int, user_id: int) -> list[GameRow]:
        return await self.games.store.open_games_of(
            guild_id=guild_id, user_id=user_id, most=MOST_GAMES
        )

    def _turns(self, games: list[GameRow], user_id: int) -> list[tuple[int, int]]:
        """The games (id, version) where the person is to move now."""
        turns = []
        for game in games:
            if game.status != "active":
                continue
            seat = self.games.peek_state(game).current_seat()
            if seat is not None and game.seats[seat].user_id == user_id:
                turns.append((game.id, game.version))
        return turns


def _away(until: datetime | None, games: list[GameRow]) -> Away:
    return Away(
        until,
        tuple(g.id for g in games),
        tuple(g.id for g in games if g.status == "lobby"),
    )


def _current(periods: list[tuple[datetime, datetime]], now: datetime) -> datetime | None:
    """When the time away under way ends, if one is."""
    return max((b for a, b in periods if a <= now < b), default=None)
