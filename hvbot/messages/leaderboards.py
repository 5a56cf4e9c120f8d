"""The leaderboards' words: a game's summary made into the view `render.leaderboard` draws
and writes out as its text twin, in the reader's language.

A season's board (`season_view`) compares each player's rating with the one they had when the
season began; the all-time board (`all_time_view`) with the one they had some days ago, read
off their rating history. Names are made safe for a message here (`shown`), once, so the
text twin can be posted as it is; the picture takes the escapes back out.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.texts import Texts
from hvbot.messages.wording import shown
from hvbot.services.stats import GameSummary, PlayerStats
from render.leaderboard import MOST_LINES, BoardLine, LeaderboardView

NAME_LIMIT = 32  # Discord's own limit on display names; longer ones would crowd the board
TREND_DAYS = 30  # the all-time board's trend: the change over this many days


def rating_label(player: PlayerStats, texts: Texts) -> str:
    """A player's rating as players read it: "1234", "1234?" while it is uncertain (when the
    rating says so), or the word for unrated."""
    rating = player.rating
    if rating is None:
        return texts("bot.stats.unrated")
    said = getattr(rating, "text", None)
    if callable(said):
        return str(said())
    return str(rating.shown)


def safe_name(name: str) -> str:
    """A display name that reads as itself in a message (no markdown, no pings, no link:
    `shown`), not longer than Discord allows a name to be."""
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1] + "…"
    return shown(name)


def headings(texts: Texts) -> tuple[str, str, str, str, str]:
    """The columns' headings: place, player, rating, games, trend."""
    return (
        texts("bot.leaderboard.place"),
        texts("bot.leaderboard.player"),
        texts("bot.leaderboard.rating"),
        texts("bot.leaderboard.games"),
        texts("bot.leaderboard.trend"),
    )


def _shown_of(player: PlayerStats | None) -> int | None:
    if player is None or player.rating is None:
        return None
    return player.rating.shown


def board_lines(
    top: Sequence[PlayerStats], before: dict[int, int | None], texts: Texts
) -> tuple[BoardLine, ...]:
    """The lines of the best players, each with the change since the rating in `before`
    (None for someone who had none)."""
    lines = []
    for place, player in enumerate(top, start=1):
        now = _shown_of(player)
        then = before.get(player.user_id)
        trend = None if now is None or then is None else now - then
        lines.append(
            BoardLine(
                place=place,
                name=safe_name(player.name),
                rating=rating_label(player, texts),
                games=player.played,
                trend=trend,
            )
        )
    return tuple(lines)


def season_view(
    summary_now: GameSummary,
    summary_at_start: GameSummary | None,
    *,
    title: str,
    subtitle: str,
    texts: Texts,
) -> LeaderboardView:
    """A season's leaderboard: its top ten people, each with their rating now minus the one
    they had at the season's start (None for a newcomer to it)."""
    top = summary_now.top(MOST_LINES)
    start = summary_at_start.players if summary_at_start is not None else {}
    before = {p.user_id: _shown_of(start.get(p.user_id)) for p in top}
    return LeaderboardView(
        title=title,
        subtitle=subtitle,
        headings=headings(texts),
        lines=board_lines(top, before, texts),
    )


def rating_at(player: PlayerStats, moment: str) -> int | None:
    """The rating `player` had at `moment` (an ISO time, as results are stamped): the one
    after their last rated game finished by then; None if they had none yet."""
    found = None
    for finished_at, rating in player.history:
        if finished_at > moment:
            break
        found = rating
    return found


def all_time_view(
    summary: GameSummary, *, game_title: str, since: str, texts: Texts
) -> LeaderboardView:
    """A game's all-time leaderboard on a server: its top ten people, each with the change
    of their rating since `since` (an ISO time, `TREND_DAYS` ago)."""
    top = summary.top(MOST_LINES)
    before = {p.user_id: rating_at(p, since) for p in top}
    finished = texts("bot.leaderboard.finished", count=summary.finished)
    return LeaderboardView(
        title=texts("bot.leaderboard.title", game=game_title),
        subtitle=texts("bot.leaderboard.all_time", finished=finished, days=TREND_DAYS),
        headings=headings(texts),
        lines=board_lines(top, before, texts),
    )
