"""The leaderboard and the /stats me pictures decode, are not blank, hold ten lines, draw any
name (a very long one, scripts and emoji the font lacks, escaped markdown) without failing,
and their text twins say what the pictures show."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageStat

from render.leaderboard import (
    FALLBACK,
    ROW,
    TOP,
    WIDTH,
    BoardLine,
    LeaderboardView,
    as_drawn,
    leaderboard_alt,
    leaderboard_png,
)
from render.profile import (
    BAND,
    FACT_ROW,
    ProfileSection,
    ProfileView,
    band_of,
    profile_alt,
    profile_png,
)
from render.profile import TOP as PROFILE_TOP

HEADINGS = ("#", "Player", "Rating", "Games", "Trend")
ODD_NAMES = (
    "山田太郎",  # a script DejaVu Sans has no glyph for
    "x" * 500,  # far longer than the column
    "\\_under\\_score\\_",  # escaped for a message, as names arrive
    "@\u200beveryone",  # a mention broken with an invisible space
    "👩‍👩‍👧 party 🎉",  # an emoji sequence with joiners
    "Zoë e\u0301\u0301",  # combining accents
    "עברית",  # right to left
    "\ud800broken",  # a lone surrogate
    "",  # no name at all
    "Kate",
)


def _view(names: tuple[str, ...] = ODD_NAMES) -> LeaderboardView:
    trends = (12, -3, 0, None)
    return LeaderboardView(
        title="Pylons: leaderboard",
        subtitle="All time · 42 games finished",
        headings=HEADINGS,
        lines=tuple(
            BoardLine(i + 1, name, f"{1500 - 20 * i}{'?' if i % 2 else ''}", 10 + i, trends[i % 4])
            for i, name in enumerate(names)
        ),
    )


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _not_blank(img: Image.Image) -> None:
    extrema = img.getextrema()
    assert any(high - low > 100 for low, high in extrema), "the picture has contrast"
    assert max(ImageStat.Stat(img).stddev) > 10


def test_the_leaderboard_decodes_with_ten_lines_and_any_names() -> None:
    img = _decoded(leaderboard_png(_view()))
    assert img.width == WIDTH
    assert img.height == TOP + 10 * ROW + 32
    _not_blank(img)
    # Every line is drawn: each row has the light ink of its name and figures.
    for line in range(10):
        row = img.crop((0, TOP + line * ROW + 8, WIDTH, TOP + (line + 1) * ROW - 8))
        assert max(max(band) for band in row.getextrema()) > 200, f"line {line + 1} is drawn"
    # The long name is cut before the rating's column: a gap of ground is left between.
    gap = img.crop((480, TOP + ROW + 8, 500, TOP + 2 * ROW - 8))
    assert len(gap.getcolors() or []) == 1, "nothing drawn between the name and the rating"


def test_a_short_board_is_shorter_and_an_empty_one_still_draws() -> None:
    two = _decoded(leaderboard_png(_view(("Ada", "Bo"))))
    assert two.height == TOP + 2 * ROW + 32
    _not_blank(two)
    empty = _decoded(leaderboard_png(_view(())))
    assert empty.height == TOP + ROW + 32


def test_names_are_drawn_as_discord_shows_them_with_one_mark_for_what_the_font_lacks() -> None:
    assert as_drawn("\\_under\\_score\\_") == "_under_score_"
    assert as_drawn("@\u200beveryone") == "@everyone"
    assert as_drawn("山田太郎") == FALLBACK
    assert as_drawn("Ada 山田") == f"Ada {FALLBACK}"
    assert as_drawn("\ud800broken") == f"{FALLBACK}broken"
    assert as_drawn("") == FALLBACK
    assert as_drawn("tab\there") == "tab here"


def test_the_text_twin_says_each_line_with_its_headings() -> None:
    alt = leaderboard_alt(_view())
    lines = alt.splitlines()
    assert lines[:2] == ["Pylons: leaderboard", "All time · 42 games finished"]
    assert len(lines) == 2 + 10
    assert lines[2] == "1. 山田太郎 · Rating 1500 · Games 10 · Trend ▲12"
    assert lines[3].startswith("2. xxx") and lines[3].endswith(
        " · Rating 1480? · Games 11 · Trend ▼3"
    )
    assert lines[4] == "3. \\_under\\_score\\_ · Rating 1460 · Games 12 · Trend ±0"
    assert lines[5] == "4. @\u200beveryone · Rating 1440? · Games 13", "a newcomer has no trend"


def _section(history: tuple[int, ...]) -> ProfileSection:
    return ProfileSection(
        title="High Voltage",
        rating_label="Rating",
        rating=str(history[-1]) if history else "unrated",
        history=history,
        span=("2026-01-02", "2026-03-04") if history else ("", ""),
        chart_alt=f"Rating over {len(history)} games" if len(history) > 1 else "",
        facts=(
            ("Games finished", "12"),
            ("Games abandoned", "2"),
            ("Median time to move", "40 seconds"),
        ),
    )


def test_the_profile_picture_decodes_with_a_chart_and_its_twin_says_the_same() -> None:
    long_history = tuple(1000 + (i * 37) % 90 - i // 10 for i in range(3000))
    view = ProfileView(
        title="Your stats on this server",
        subtitle="山田 \\*Ada\\* · all time",
        no_chart="The chart comes after two rated games",
        sections=(_section(long_history), _section((1016,)), _section(())),
    )
    img = _decoded(profile_png(view))
    assert img.width == 900 and img.height > 3 * 200
    _not_blank(img)
    # The chart's line is drawn in its green in the first band's chart, not in the others.
    chart = img.crop((520, 130, 860, 320))
    colours = [colour for _, colour in chart.getcolors(maxcolors=1 << 16) or []]
    assert any(r < 130 and g > 180 for r, g, b in colours), "the rating line"
    alt = profile_alt(view)
    assert alt.splitlines()[:2] == ["Your stats on this server", "山田 \\*Ada\\* · all time"]
    first, unrated_once, unrated = alt.splitlines()[2:]
    assert first == (
        f"High Voltage: Rating {long_history[-1]}. Games finished 12 · Games abandoned 2"
        " · Median time to move 40 seconds. Rating over 3000 games."
    )
    assert unrated_once.startswith("High Voltage: Rating 1016. Games finished 12")
    assert unrated.startswith("High Voltage: Rating unrated. ")


def test_a_band_with_its_season_is_taller_and_its_twin_says_the_season() -> None:
    season = (("Rating", "1042?"), ("Games finished", "3"), ("Won", "2 (67%)"))
    plain = _section((1000, 1016, 1030))
    beside = replace(plain, season="Season 2026-11", season_facts=season)
    view = ProfileView(title="Your stats", subtitle="Ada", no_chart="-", sections=(plain,))
    both = replace(view, sections=(beside, plain))
    alone, tall = _decoded(profile_png(view)), _decoded(profile_png(both))
    _not_blank(tall)
    assert tall.height - alone.height > BAND + 3 * FACT_ROW, "the season's rows have room"
    # The season's heading is drawn in the band's lower part, below the facts.
    rows = tall.crop((40, PROFILE_TOP + BAND, 440, PROFILE_TOP + band_of(beside) - 20))
    assert len(rows.getcolors(maxcolors=1 << 16) or []) > 20, "words are drawn there"
    first, second = profile_alt(both).splitlines()[2:]
    assert "Season 2026-11: Rating 1042? · Games finished 3 · Won 2 (67%)." in first
    assert "Season" not in second
