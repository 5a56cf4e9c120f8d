"""What a season's end says in the server's season channel, as a card: the final leaderboard
of each game played in it, as a picture (top 10, ratings, games, trend) in the card's gallery
with its text twin, which is both the picture's alt text and the card's words, so that a
screen reader, a phone with pictures off and a search of the channel all read the same
board."""

from __future__ import annotations

from collections.abc import Sequence

from data.texts import Texts
from hvbot.infra.workers import draw
from hvbot.messages.leaderboards import season_board_view, season_file
from hvbot.messages.post import Picture, Post
from hvbot.services.season_ends import SeasonBoard
from hvbot.services.seasons import Season
from render.leaderboard import leaderboard_alt, leaderboard_png


async def season_post(season: Season, boards: Sequence[SeasonBoard], texts: Texts) -> Post:
    """The season's end as a card: a heading, then each game's board as text and as a
    picture (drawn off the event loop); a season nobody finished a game in says so, in one
    line under the heading."""
    heading = texts("bot.season.ended", season=season.label)
    if not boards:
        return Post(f"{heading}\n{texts('bot.season.no_games')}", card=True)
    parts, files = [heading], []
    for board in boards:
        view = season_board_view(board, season, texts)
        alt = leaderboard_alt(view)
        png = await draw(leaderboard_png, view)
        parts.append(alt)
        files.append(Picture(season_file(board, season), png, alt))
    return Post("\n\n".join(parts), files=files, card=True)
