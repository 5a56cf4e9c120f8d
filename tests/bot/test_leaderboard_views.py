"""The leaderboards' views: a season's trend against its start, the all-time trend read off
each rating's history, names made safe for a message, at most ten lines, in the reader's
language; /stats with the season running beside all time, and one season read alone."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from data.texts import ENGLISH, texts_for
from hvbot.messages.leaderboards import (
    Beside,
    all_time_view,
    me_post,
    rating_label,
    season_server_post,
    season_view,
    server_post,
    time_words,
)
from hvbot.services.season_ends import SeasonBoard
from hvbot.services.seasons import Season, season_named
from hvbot.services.stats import GameSummary, PlayerStats, summarise
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
    assert view.title == "Pylons: Rangliste"
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


def _season(label: str) -> Season:
    found = season_named(label)
    assert found is not None
    return found


def _summary(game: str, rows: list[ResultRow]) -> GameSummary:
    return summarise(game, [replace(row, game_name=game) for row in rows])


async def test_the_server_board_puts_each_games_season_board_before_its_all_time_one() -> None:
    november = _season("2026-11")
    pylons, sector6 = _summary("pylons", ROWS[:4]), _summary("sector6", ROWS[4:8])
    beside = Beside(
        november,
        [SeasonBoard("pylons", pylons, None), SeasonBoard("sector6", sector6, None)],
    )
    # Sector 6 as a game rated per table size, at seven sizes: one season board before them.
    found = [
        _summary("high-voltage", ROWS),
        pylons,
        *(replace(sector6, players_at=size) for size in range(2, 9)),
    ]
    titles = {"high-voltage": "High Voltage", "pylons": "Pylons", "sector6": "Sector 6"}
    post = await server_post(
        found, now=datetime(2026, 11, 22, tzinfo=UTC), titles=titles, texts=ENGLISH, beside=beside
    )
    names = [picture.name for picture in post.files]
    assert names == [
        "leaderboard-high-voltage.png",
        "season-2026-11-pylons.png",
        "leaderboard-pylons.png",
        "season-2026-11-sector6.png",
        *["leaderboard-sector6.png"] * 6,  # ten: the seventh size's board did not fit
    ]
    lines = post.content.splitlines()
    assert lines[1] == (
        "This season, 2026-11: 4 games finished so far. Each game's season leaderboard comes"
        " just before its all-time one."
    )
    assert [line for line in lines if "players:" in line][-1].startswith("Sector 6, 7 players:")
    season_alt = post.files[1].alt.splitlines()
    assert season_alt[:2] == [
        "Pylons: season 2026-11",
        "2 games finished · trend: since last season",
    ]

    quiet = await server_post(
        [pylons],
        now=datetime(2026, 12, 2, tzinfo=UTC),
        titles=titles,
        texts=ENGLISH,
        beside=Beside(_season("2026-12"), []),
    )
    assert [p.name for p in quiet.files] == ["leaderboard-pylons.png"]
    assert quiet.content.splitlines()[1] == "This season, 2026-12: no game finished yet."


async def test_a_season_read_alone_shows_its_boards_and_its_best_scores() -> None:
    october = _season("2026-10")
    pylons = _summary("pylons", ROWS[:4])
    post = await season_server_post(october, [SeasonBoard("pylons", pylons, None)], texts=ENGLISH)
    assert [p.name for p in post.files] == ["season-2026-10-pylons.png"]
    assert post.content.startswith(
        "**Stats for this server · season 2026-10**\nPylons: 2 games finished"
        " · Best score of the season: **1** by "
    )


async def test_the_record_says_the_season_beside_all_time_or_a_season_alone() -> None:
    november = _season("2026-11")
    all_time = [_summary("pylons", ROWS), _summary("sector6", ROWS)]
    season = _summary("pylons", ROWS[:2])  # person 1 won one game this season
    beside = Beside(november, [SeasonBoard("pylons", season, None)])
    titles = {"pylons": "Pylons", "sector6": "Sector 6"}
    post = await me_post(
        all_time, {}, user_id=1, name="P1", titles=titles, texts=ENGLISH, beside=beside
    )
    (picture,) = post.files
    pylons, sector6 = picture.alt.splitlines()[2:]
    rating = season.players[1].rating
    assert rating is not None
    assert f"Season 2026-11: Rating {rating.text()} · Games finished 1 · Won 1 (100%)." in pylons
    assert "Season 2026-11: Rating – · Games finished 0 · Won 0." in sector6
    assert (
        f"Pylons: Rating {all_time[0].players[1].rating.text()} · Season 2026-11: " in post.content
    )

    alone = await me_post(
        [season], {}, user_id=1, name="P1", titles=titles, texts=texts_for("fr"), season=november
    )
    lines = alone.files[0].alt.splitlines()
    assert lines[1] == "P1 · saison 2026-11"
    assert "Saison 2026-11" not in alone.files[0].alt, "a season alone has nothing beside it"
