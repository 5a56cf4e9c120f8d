"""The leaderboards' views: a season's trend against its start, the all-time trend read off
each rating's history, names made safe for a message, at most ten lines, in the reader's
language."""

from __future__ import annotations

from dataclasses import dataclass

from data.texts import texts_for
from hvbot.messages.leaderboards import all_time_view, rating_label, season_view, time_words
from hvbot.services.stats import PlayerStats, summarise
from hvbot.store import ResultRow

GUILD = 1


def _row(game_id: int, seat: int, user_id: int, name: str, won: bool) -> ResultRow:
    return ResultRow(
        game_id=game_id,
        seat=seat,
        game_name="pylons",
        guild_id=GUILD,
        user_id=user_id,
        display_name=name,
        score=seat,
        won=won,
        finished_at=f"2026-01-{game_id:02d}T10:00:00.000+00:00",
    )


# Twelve people, each beating the next once: person 1 only ever wins, person 12 only loses.
NAMES = {n: f"P{n}" for n in range(1, 13)} | {3: "@everyone *bold*"}
ROWS = [
    row
    for n in range(1, 12)
    for row in (_row(n, 0, n, NAMES[n], True), _row(n, 1, n + 1, NAMES[n + 1], False))
]


def test_a_season_shows_its_top_ten_with_the_change_since_it_began() -> None:
    start = summarise("pylons", ROWS[:10])  # games 1-5: people 1-6 rated
    now = summarise("pylons", ROWS)
    view = season_view(now, start, title="T", subtitle="S", texts=texts_for("en"))
    assert view.headings == ("#", "Player", "Rating", "Games", "Trend")
    assert len(view.lines) == 10 and [line.place for line in view.lines] == list(range(1, 11))
    ranked = now.top(10)
    for line, player in zip(view.lines, ranked, strict=True):
        assert line.games == player.played and line.rating == player.rating.text()
        before = start.players.get(player.user_id)
        if before is None:
            assert line.trend is None, "a newcomer to the season has no trend"
        else:
            assert line.trend == player.rating.shown - before.rating.shown
    assert any(line.trend is None for line in view.lines)
    assert any(line.trend not in (None, 0) for line in view.lines)
    escaped = [line.name for line in view.lines if "everyone" in line.name]
    assert escaped == ["@\u200beveryone \\*bold\\*"], "names reach the twin made safe"
    assert (
        season_view(now, None, title="T", subtitle="S", texts=texts_for("en")).lines[0].trend
        is None
    )


def test_all_time_trends_read_each_rating_as_it_was_on_the_day() -> None:
    summary = summarise("pylons", ROWS)
    view = all_time_view(
        summary, game_title="Pylons", since="2026-01-05T12:00:00+00:00", texts=texts_for("de")
    )
    assert view.title == "Pylons: Bestenliste"
    assert view.subtitle == "Gesamt · 11 Partien beendet · Trend der letzten 30 Tage"
    for line, player in zip(view.lines, summary.top(10), strict=True):
        then = [r for at, r in player.history if at <= "2026-01-05T12:00:00+00:00"]
        assert line.trend == (player.rating.shown - then[-1] if then else None)


def test_a_rating_reads_as_its_own_text_when_it_has_one() -> None:
    @dataclass(frozen=True)
    class Uncertain:
        shown: int = 1234

        def text(self) -> str:
            return "1234?"

    player = PlayerStats(1, "Ada")
    assert rating_label(player, texts_for("fr")) == "non classé"
    player.rating = Uncertain()  # type: ignore[assignment]  # the ratings' next form, as agreed
    assert rating_label(player, texts_for("en")) == "1234?"


def test_median_times_read_as_people_say_them() -> None:
    en, it = texts_for("en"), texts_for("it")
    assert time_words(None, en) == "–"
    assert time_words(0.4, en) == "1 second"
    assert time_words(42, it) == "42 secondi"
    assert time_words(200, en) == "3 minutes"
    assert time_words(5 * 3600, en) == "5 hours"
