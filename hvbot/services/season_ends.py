"""A server's seasons as they pass: each one's end found by the bot's periodic check, recorded
once across every process with what it owes (its leaderboards announced, its rank roles), and
every season's leaderboards read back from the results, past ones too.

A season's leaderboard of a game is `stats.summarise` over the results finished inside it, so
every season starts everyone afresh; its trend compares each person's rating with the one they
ended the season before with (None for someone who did not play it). Results are only ever
added, dated by their game's end, so a season's boards stay the same once it has ended: any
process builds the same post from the database, and a past season reads as it was announced.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from hvbot.services.access import GameAccess
from hvbot.services.outcomes import SeasonEnd
from hvbot.services.seasons import Season, season_at
from hvbot.services.stats import GameSummary, summarise
from hvbot.store import ResultRow
from hvbot.store.sql import stamp

log = logging.getLogger(__name__)

RANKED_PER_GAME = 3  # the people of each game who hold the rank role for the next season
# Stored stamps of a whole second sort before the same second's milliseconds (see `stamp`):
# results are read with this much room each side, then kept by the season's own test.
_ROOM = timedelta(seconds=1)


@dataclass(frozen=True)
class SeasonBoard:
    """One game's leaderboard for a season: its summary, and the season before's (for the
    trend; None when nobody played the game then)."""

    game: str
    summary: GameSummary
    before: GameSummary | None


class SeasonEnds:
    """Seasons' ends found and recorded, and seasons' leaderboards read."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def due(self) -> list[SeasonEnd]:
        """The seasons that ended on any server since the last check, each recorded by this
        process with its announcement (if the server names a channel) and its rank roles (if
        it names a role) owed in the same transaction: None of them for a season another
        process recorded first."""
        store = self.games.store
        now = self.games.clock()
        month, quarter = _last_ended("month", now), _last_ended("quarter", now)
        found: list[SeasonEnd] = []
        for due in await store.seasons.due(
            month=(month.label, month.ends), quarter=(quarter.label, quarter.ends)
        ):
            season = month if due.length == "month" else quarter
            ranked = await self.ranked(due.guild_id, season) if due.rank_role else []
            announce = (
                {"label": season.label, "channel": due.channel, "language": due.language}
                if due.channel is not None
                else None
            )
            owed = await store.seasons.record(
                guild_id=due.guild_id,
                label=season.label,
                now=now,
                announce=announce,
                rank_role=due.rank_role,
                ranked=ranked,
            )
            if owed is None:
                continue  # another process saw it end first: its to announce
            log.info("server %s: season %s ended", due.guild_id, season.label)
            found.append(SeasonEnd(guild_id=due.guild_id, season=season, owed=owed))
        return found

    async def boards(self, guild_id: int, season: Season) -> list[SeasonBoard]:
        """The season's leaderboard of each game finished in it on the server, by game name
        (summed up in a thread: a busy season is thousands of results)."""
        now = await self._results(guild_id, season)
        before = await self._results(guild_id, season.before())

        def summed() -> list[SeasonBoard]:
            return [
                SeasonBoard(
                    game,
                    summarise(game, rows),
                    summarise(game, before[game]) if game in before else None,
                )
                for game, rows in sorted(now.items())
            ]

        return await asyncio.to_thread(summed)

    async def ranked(self, guild_id: int, season: Season) -> list[int]:
        """The people who earned the rank role in the season: the best `RANKED_PER_GAME` of
        each game, each named once."""
        people: list[int] = []
        for board in await self.boards(guild_id, season):
            for player in board.summary.top(RANKED_PER_GAME):
                if player.user_id not in people:
                    people.append(player.user_id)
        return people

    async def ended(self, guild_id: int) -> list[str]:
        """The labels of the seasons that ended on the server, the latest first."""
        return [one.label for one in await self.games.store.seasons.ended(guild_id)]

    async def _results(self, guild_id: int, season: Season) -> dict[str, list[ResultRow]]:
        found = await self.games.store.seasons.results_between(
            guild_id=guild_id,
            starts=stamp(season.starts - _ROOM),
            ends=stamp(season.ends + _ROOM),
        )
        kept = {
            game: [row for row in rows if season.contains(row.finished_at)]
            for game, rows in found.items()
        }
        return {game: rows for game, rows in kept.items() if rows}


def _last_ended(length: str, now: datetime) -> Season:
    """The season of `length` that ended last before `now`."""
    current = season_at(length, now)
    assert current is not None
    return current.before()
