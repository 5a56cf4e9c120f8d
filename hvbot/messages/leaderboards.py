"""The leaderboards' words: a game's summary made into the view `render.leaderboard` draws
and writes out as its text twin, in the reader's language.

A season's board (`season_view`) compares each player's rating with the one they had when the
season began; the all-time board (`all_time_view`) with the one they had some days ago, read
off their rating history. Names are made safe for a message here (`shown`), once, so the
text twin can be posted as it is; the picture takes the escapes back out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from data.texts import Texts
from engine.registry import find_game
from hvbot.infra import workers
from hvbot.messages.post import Picture, Post
from hvbot.messages.time_words import waited_words
from hvbot.messages.wording import shown
from hvbot.services.ratings import ORIGIN
from hvbot.services.season_ends import SeasonBoard
from hvbot.services.seasons import Season
from hvbot.services.stats import GameSummary, Habits, PlayerStats
from hvbot.store.sql import stamp
from render.leaderboard import (
    MOST_LINES,
    BoardLine,
    LeaderboardView,
    leaderboard_alt,
    leaderboard_png,
)
from render.profile import MOST_SECTIONS, ProfileSection, ProfileView, profile_alt, profile_png

NAME_LIMIT = 32  # Discord's own limit on display names; longer ones would crowd the board
TREND_DAYS = 30  # the all-time board's trend: the change over this many days
MOST_FILES = 10  # Discord's limit on a message's attachments: one leaderboard per game


def rating_label(player: PlayerStats, texts: Texts) -> str:
    """A player's rating as players read it: "1234", "1234?" while it is uncertain (when the
    rating says so), or the word for unrated."""
    if player.rating is None:
        return texts("bot.stats.unrated")
    return player.rating.text()


def rating_note(texts: Texts) -> str:
    """The small print under /stats: how to read a rating."""
    note = texts("bot.stats.rating_note", start=f"{ORIGIN:.0f}")
    return f"-# {note} {texts('bot.stats_best.note')}"


def title_for(summary: GameSummary, titles: dict[str, str], texts: Texts) -> str:
    """The game's name, with its table size for a game rated per size."""
    title = titles[summary.game]
    if summary.players_at is None:
        return title
    return texts("bot.ratings.at_table", game=title, count=summary.players_at)


def ai_line(ai: PlayerStats, texts: Texts) -> str:
    """One AI level's line under a game's board: how strong it has shown itself here."""
    key = f"bot.level.{ai.level}"
    level = texts(key) if texts.has(key) else str(ai.level)
    return texts(
        "bot.ratings.ai",
        level=level,
        rating=rating_label(ai, texts),
        games=texts("bot.stats.games", count=ai.played),
        wins=texts("bot.stats.wins", count=ai.wins),
    )


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


def season_board_view(board: SeasonBoard, season: Season, texts: Texts) -> LeaderboardView:
    """One game's board for a season (as its end announces it, and as /stats reads it), its
    words in `texts`' language."""
    return season_view(
        board.summary,
        board.before,
        title=texts(
            "bot.season.board_title", game=find_game(board.game).title, season=season.label
        ),
        subtitle=texts("bot.season.board_subtitle", count=board.summary.finished),
        texts=texts,
    )


@dataclass(frozen=True)
class Beside:
    """The season running on a server, shown beside all time: which season it is, and its
    leaderboards so far (`SeasonEnds.boards`), one per game finished in it."""

    season: Season
    boards: Sequence[SeasonBoard]

    def of(self, game: str) -> SeasonBoard | None:
        """The game's board this season; None if nobody finished it yet."""
        return next((board for board in self.boards if board.game == game), None)

    @property
    def finished(self) -> int:
        """How many games were finished on the server this season."""
        return sum(board.summary.finished for board in self.boards)


def season_file(board: SeasonBoard, season: Season) -> str:
    """The name of a season board's picture."""
    return f"season-{season.label}-{board.game}.png"


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


# ------------------------------------------------------------------ /stats server and me


def best_ever_line(summary: GameSummary, texts: Texts) -> str | None:
    """The best score a person reached in the game on the server, and who reached it first."""
    if summary.best_by is None:
        return None
    best = summary.players[summary.best_by]
    return texts("bot.stats.best_ever", score=summary.best, player=safe_name(best.name))


async def server_post(
    found: Sequence[GameSummary],
    *,
    now: datetime,
    titles: dict[str, str],
    texts: Texts,
    beside: Beside | None = None,
) -> Post:
    """/stats server, as a card: one leaderboard picture per game (all time) in its gallery,
    each with its text twin as alt text, and a few lines naming the games and their best
    scores. With `beside` (the server has seasons), each game's board of the season running
    comes just before its all-time one, and the card says how many games the season has
    had. At most Discord's ten pictures, the first games' first. The pictures are drawn by
    the drawing workers."""
    since = stamp(now - timedelta(days=TREND_DAYS))
    boards: list[tuple[str, LeaderboardView]] = []
    shown_games: list[GameSummary] = []
    for summary in found:
        game_boards = []
        if beside is not None and summary is _first_of(found, summary.game):
            board = beside.of(summary.game)
            if board is not None:
                view = season_board_view(board, beside.season, texts)
                game_boards.append((season_file(board, beside.season), view))
        title = title_for(summary, titles, texts)
        view = all_time_view(summary, game_title=title, since=since, texts=texts)
        game_boards.append((f"leaderboard-{summary.game}.png", view))
        if len(boards) + len(game_boards) > MOST_FILES:
            break  # a game's boards come whole, or not at all
        boards += game_boards
        shown_games.append(summary)
    drawn = await asyncio.gather(*(workers.draw(leaderboard_png, view) for _, view in boards))
    lines = [f"**{texts('bot.stats.server_title')}**"]
    if beside is not None:
        lines.append(season_so_far(beside, texts))
    for summary in shown_games:
        title = title_for(summary, titles, texts)
        said = texts("bot.stats.finished", game=title, count=summary.finished)
        best = best_ever_line(summary, texts)
        lines.append(f"{said} · {best}" if best else said)
        lines += [f"-# {ai_line(ai, texts)}" for ai in summary.ai_lines()]
    lines.append(rating_note(texts))
    files = [
        Picture(name, data, leaderboard_alt(view))
        for (name, view), data in zip(boards, drawn, strict=True)
    ]
    return Post(content="\n".join(lines), files=files, card=True)


def _first_of(found: Sequence[GameSummary], game: str) -> GameSummary:
    """The game's first summary (its smallest table, for a game rated per size): its season
    board, which counts every size, comes once, before it."""
    return next(summary for summary in found if summary.game == game)


def season_so_far(beside: Beside, texts: Texts) -> str:
    """The line that says which season is running and how many games it has had."""
    if not beside.boards:
        return texts("bot.season_stats.now_none", season=beside.season.label)
    finished = texts("bot.leaderboard.finished", count=beside.finished)
    return texts("bot.season_stats.now", season=beside.season.label, finished=finished)


async def season_server_post(
    season: Season, boards: Sequence[SeasonBoard], *, texts: Texts
) -> Post:
    """/stats server for one season (`season:`), as a card: each game's board of that
    season alone, as its end announced it (at most Discord's ten), with the season's best
    scores and the AI levels' strength in it."""
    shown = list(boards)[:MOST_FILES]
    views = [season_board_view(board, season, texts) for board in shown]
    drawn = await asyncio.gather(*(workers.draw(leaderboard_png, view) for view in views))
    lines = [f"**{texts('bot.season_stats.server_title', season=season.label)}**"]
    for board in shown:
        summary = board.summary
        title = find_game(board.game).title
        said = texts("bot.stats.finished", game=title, count=summary.finished)
        best = best_of_season_line(summary, texts)
        lines.append(f"{said} · {best}" if best else said)
        lines += [f"-# {ai_line(ai, texts)}" for ai in summary.ai_lines()]
    lines.append(rating_note(texts))
    files = [
        Picture(season_file(board, season), data, leaderboard_alt(view))
        for board, view, data in zip(shown, views, drawn, strict=True)
    ]
    return Post(content="\n".join(lines), files=files, card=True)


def best_of_season_line(summary: GameSummary, texts: Texts) -> str | None:
    """The best score a person reached in the game in a season, and who reached it first."""
    if summary.best_by is None:
        return None
    best = summary.players[summary.best_by]
    return texts("bot.season_stats.best", score=summary.best, player=safe_name(best.name))


def time_words(seconds: float | None, texts: Texts) -> str:
    """A median time to move as people say it: seconds under a minute and a half, then
    minutes, hours or days; a dash before any move was timed."""
    if seconds is None:
        return "–"
    if seconds < 90:
        return texts("bot.leaderboard.seconds", count=max(1, round(seconds)))
    return waited_words(timedelta(seconds=seconds), texts)


def won_words(player: PlayerStats | None) -> str:
    """Games won and the share of games finished: "3 (60%)"."""
    if player is None:
        return "0"
    return f"{player.wins} ({player.win_rate:.0%})"


def season_facts(
    board: SeasonBoard | None, user_id: int, texts: Texts
) -> tuple[tuple[str, str], ...]:
    """The person's season beside all time: rating, games finished and won in it (a dash
    and noughts before they finish a game of it this season)."""
    player = board.summary.players.get(user_id) if board is not None else None
    return (
        (texts("bot.leaderboard.rating"), rating_label(player, texts) if player else "–"),
        (texts("bot.leaderboard.fact_finished"), str(player.played if player else 0)),
        (texts("bot.leaderboard.fact_won"), won_words(player)),
    )


def profile_section(
    summary: GameSummary,
    user_id: int,
    habits: Habits,
    *,
    title: str,
    texts: Texts,
    beside: Beside | None = None,
) -> ProfileSection:
    """One game of /stats me: rating, facts and the rating's history; with `beside`, the
    season running too (its rating, games and wins)."""
    player = summary.players[user_id]
    history = tuple(rating for _, rating in player.history)
    days = (player.history[0][0][:10], player.history[-1][0][:10]) if history else ("", "")
    if len(history) >= 2:
        chart_alt = texts(
            "bot.leaderboard.chart_alt",
            count=len(history),
            first=history[0],
            last=history[-1],
            low=min(history),
            high=max(history),
        )
    else:
        chart_alt = ""
    won = won_words(player)
    facts = (
        (texts("bot.leaderboard.fact_finished"), str(player.played)),
        (texts("bot.leaderboard.fact_won"), won),
        (texts("bot.leaderboard.fact_abandoned"), str(habits.abandoned)),
        (texts("bot.leaderboard.fact_median"), time_words(habits.median_move_s, texts)),
        (
            texts("bot.leaderboard.fact_best_score"),
            "–" if player.best is None else str(player.best),
        ),
        (texts("bot.leaderboard.fact_best_rating"), str(max(history)) if history else "–"),
    )
    return ProfileSection(
        title=title,
        rating_label=texts("bot.leaderboard.rating"),
        rating=rating_label(player, texts),
        history=history,
        span=days,
        chart_alt=chart_alt,
        facts=facts,
        season=(texts("bot.season_stats.me_season", season=beside.season.label) if beside else ""),
        season_facts=(season_facts(beside.of(summary.game), user_id, texts) if beside else ()),
    )


async def me_post(
    found: Sequence[GameSummary],
    habits: dict[str, Habits],
    *,
    user_id: int,
    name: str,
    titles: dict[str, str],
    texts: Texts,
    beside: Beside | None = None,
    season: Season | None = None,
) -> Post:
    """/stats me, as a card: the person's record as one picture (a band per game), its
    text twin as alt text, and a few lines. With `beside` (the server has seasons), each
    game says the season running beside all time; `season`: `found` is that season's
    record alone (`season:`), and the picture says so. Drawn by the drawing workers."""
    player = safe_name(name)
    subtitle = (
        texts("bot.season_stats.me_subtitle", player=player, season=season.label)
        if season is not None
        else texts("bot.leaderboard.me_subtitle", player=player)
    )
    view = ProfileView(
        title=texts("bot.stats.me_title"),
        subtitle=subtitle,
        no_chart=texts("bot.leaderboard.no_chart"),
        sections=tuple(
            profile_section(
                s,
                user_id,
                habits.get(s.game, Habits()),
                title=title_for(s, titles, texts),
                texts=texts,
                beside=beside,
            )
            for s in list(found)[:MOST_SECTIONS]
        ),
    )
    data = await workers.draw(profile_png, view)
    lines = [f"**{view.title}**"]
    for section in view.sections:
        line = f"{section.title}: {section.rating_label} {section.rating}"
        if section.season_facts:
            line += f" · {section.season}: {section.season_facts[0][1]}"
        lines.append(line)
    lines.append(rating_note(texts))
    return Post(
        content="\n".join(lines),
        files=[Picture("stats.png", data, profile_alt(view))],
        card=True,
    )
