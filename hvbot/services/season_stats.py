"""/stats beside a server's seasons: which season is running, which seasons have games to
read, and a season asked for by name (`/stats season:`), refused with what would be legal.

A season's leaderboards are the ones its end announces (`SeasonEnds.boards`): each counts only
the games finished inside the season, so `/stats` and the season-end post can never disagree
about it. The seasons worth reading on a server are those of its length that hold a finished
game, and any season whose end was recorded there (a server that went from quarters to months
keeps its quarters readable); none while seasons are off.
"""

from __future__ import annotations

from data.texts import Option
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.season_ends import SeasonBoard, SeasonEnds
from hvbot.services.seasons import Season, season_at, season_named

MOST_NAMED = 6  # seasons named in a refusal, the latest first: enough to see the pattern


def holds_any(season: Season, months: list[str]) -> bool:
    """Whether the season holds one of `months` ("2026-11"): seasons begin and end with
    calendar months, so a month is in a season as its first moment is."""
    return any(season.contains(f"{month}-01T00:00:00+00:00") for month in months)


class SeasonStats:
    """The seasons as /stats reads them on one server."""

    def __init__(self, games: GameAccess, seasons: SeasonEnds) -> None:
        self.games = games
        self.seasons = seasons

    async def length(self, guild_id: int) -> str:
        """The server's season length: "off", "month" or "quarter"."""
        settings = await self.games.store.server_settings.of(guild_id)
        return settings.season_length or "off"

    async def current(self, guild_id: int) -> Season | None:
        """The season running now on the server (by the service's clock); None when seasons
        are off there."""
        return season_at(await self.length(guild_id), self.games.clock())

    async def played(self, guild_id: int) -> list[Season]:
        """The seasons of the server that hold a finished game, the latest first (see the
        module's docstring); none while seasons are off. What `/stats season:` offers."""
        length = await self.length(guild_id)
        if length == "off":
            return []
        store = self.games.store
        months = await store.seasons.months_played(guild_id)
        found: dict[str, Season] = {}
        for month in months:
            named = season_named(month)
            if named is None:
                continue  # a stamp not written by the bot: nothing to offer for it
            own = season_at(length, named.starts)
            assert own is not None
            found[own.label] = own
        for ended in await store.seasons.ended(guild_id):
            season = season_named(ended.label)
            if season is not None and holds_any(season, months):
                found[season.label] = season
        return sorted(found.values(), key=lambda s: (s.starts, s.ends), reverse=True)

    async def named(self, guild_id: int, typed: str) -> Season:
        """The season `typed` names ("2026-11", "2026-Q4") on the server. A BotError that
        says what would be legal if seasons are off there, if `typed` names no season, or if
        the season holds no finished game."""
        current = await self.current(guild_id)
        if current is None:
            raise BotError(
                "Seasons are off on this server, so there is no season to read: /stats without"
                " `season` shows all time, and a server manager turns seasons on with"
                " `/server settings season`.",
                key="bot.season_stats.off",
                option=Option("server settings season"),
            )
        played = await self.played(guild_id)
        labels = ", ".join(season.label for season in played[:MOST_NAMED])
        season = season_named(typed)
        if season is None:
            raise BotError(
                f"{typed!r} is not a season: seasons are named by their UTC month or quarter,"
                f" like {current.label}. With games here: {labels or 'none yet'}.",
                key="bot.season_stats.unknown" if labels else "bot.season_stats.unknown_none",
                typed=typed,
                example=current.label,
                seasons=labels,
            )
        months = await self.games.store.seasons.months_played(guild_id)
        if not holds_any(season, months):
            raise BotError(
                f"No game was finished on this server in season {season.label}."
                f" With games here: {labels or 'none yet'}.",
                key="bot.season_stats.empty" if labels else "bot.season_stats.empty_none",
                season=season.label,
                seasons=labels,
            )
        return season

    async def boards(
        self,
        guild_id: int,
        season: Season,
        *,
        game: str | None = None,
        user_id: int | None = None,
    ) -> list[SeasonBoard]:
        """The season's leaderboards as its end announces them (`SeasonEnds.boards`): only
        `game`'s, if given, and only those of the games `user_id` finished in it, if given."""
        found = await self.seasons.boards(guild_id, season)
        return [
            board
            for board in found
            if (game is None or board.game == game)
            and (user_id is None or user_id in board.summary.players)
        ]
