"""The tournament standings picture decodes, is not blank, holds up to 64 lines in a
picture a phone can scroll, shows the podium apart, cuts long names before the figures, draws
the fractions of points, and its text twin says every shown line within Discord's limit."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageStat

from render.fonts import has_glyph
from render.leaderboard import FALLBACK, PAD, WIDTH
from render.standings import (
    ALT_LIMIT,
    COL_GAMES,
    FIGURE_ROOM,
    GAMES_ROOM,
    MOST_LINES,
    NAME_GAP,
    PODIUM_ROW,
    POINTS_ROOM,
    ROW,
    ROW_COMPACT,
    TOP,
    StandingLine,
    StandingsView,
    standings_alt,
    standings_png,
)

HEADINGS = ("#", "Player", "Points", "Buchholz", "Wins", "Games")
POINTS = ("3", "2½", "2½", "2", "1⅔", "1⅓", "1", "⅔", "0")
NAMES = ("Ada", "Bruno", "Chiara", "Dmitri", "Élodie", "Fritz", "Giulia", "Hannes", "Inès")


def _view(names: tuple[str, ...] = NAMES, *, podium: bool = False) -> StandingsView:
    return StandingsView(
        title="Pylons Swiss: standings",
        subtitle="After round 3 of 3",
        headings=HEADINGS,
        lines=tuple(
            StandingLine(
                place=i + 1,
                name=name,
                points=POINTS[i % len(POINTS)],
                tiebreaks=(f"{9 - i % 9}½", str(3 - i % 4)),
                games=3,
                note="withdrew" if i == 5 else "",
            )
            for i, name in enumerate(names)
        ),
        podium=podium,
    )


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def _not_blank(img: Image.Image) -> None:
    assert any(high - low > 100 for low, high in img.getextrema()), "the picture has contrast"
    assert max(ImageStat.Stat(img).stddev) > 10


def test_the_fractions_of_points_are_in_the_font() -> None:
    for char in "½⅓⅔…":
        assert has_glyph(char) and has_glyph(char, False), char


def test_nine_players_after_three_rounds_decode_within_bounds() -> None:
    img = _decoded(standings_png(_view()))
    assert img.width == WIDTH
    assert img.height == TOP + 9 * ROW + PAD
    _not_blank(img)
    for line in range(9):
        row = img.crop((0, TOP + line * ROW + 8, WIDTH, TOP + (line + 1) * ROW - 8))
        assert max(max(band) for band in row.getextrema()) > 200, f"line {line + 1} is drawn"


def test_the_podium_view_draws_the_first_three_taller_and_differs_from_the_plain() -> None:
    plain = _decoded(standings_png(_view()))
    podium = _decoded(standings_png(_view(podium=True)))
    assert podium.tobytes() != plain.tobytes()
    assert podium.height > plain.height, "the podium's bands are taller"
    assert podium.height == TOP + 3 * PODIUM_ROW + 6 * ROW + PAD + 14
    # Each medal's accent is drawn at the left of its band: gold, then silver, then bronze.
    accents = [podium.getpixel((PAD - 6, TOP + i * PODIUM_ROW + PODIUM_ROW // 2)) for i in range(3)]
    assert accents == [(255, 208, 71), (196, 204, 218), (214, 148, 96)]
    assert plain.getpixel((PAD - 6, TOP + ROW // 2)) not in accents


def test_a_podium_of_one_line_only_and_an_empty_view_still_draw() -> None:
    one = _decoded(standings_png(_view(("Ada",), podium=True)))
    assert one.height == TOP + PODIUM_ROW + PAD
    _not_blank(one)
    empty = _decoded(standings_png(_view((), podium=True)))
    assert empty.height == TOP + ROW + PAD


def test_sixty_four_lines_fit_one_column_a_phone_can_scroll() -> None:
    names = tuple(f"Player {i}" for i in range(1, MOST_LINES + 1))
    img = _decoded(standings_png(_view(names)))
    assert img.width == WIDTH
    assert img.height == TOP + MOST_LINES * ROW_COMPACT + PAD
    assert img.height < 3000
    last = img.crop((0, TOP + 63 * ROW_COMPACT + 6, WIDTH, TOP + 64 * ROW_COMPACT - 6)).getextrema()
    assert max(max(band) for band in last) > 200, "the 64th line is drawn"
    more = _decoded(standings_png(_view((*names, "Sixty-five"))))
    assert more.height == img.height, "lines past 64 are not drawn"


@pytest.mark.parametrize("tiebreaks", [0, 1, 2, 3])
def test_a_long_name_is_cut_before_the_points_column(tiebreaks: int) -> None:
    base = _view(("W" * 300, "Ω" * 300, "Ada"))
    headings = (*HEADINGS[:3], *("Tiebreak",) * tiebreaks, "Games")
    lines = tuple(replace(line, tiebreaks=("19½",) * tiebreaks) for line in base.lines)
    img = _decoded(standings_png(replace(base, headings=headings, lines=lines)))
    # The points are right-aligned in their room; the names end NAME_GAP before it. Between,
    # each row is its ground alone: the long names were cut, not drawn over the figures.
    col_points = COL_GAMES - GAMES_ROOM - FIGURE_ROOM * tiebreaks
    left = col_points - POINTS_ROOM - NAME_GAP + 1
    for line in range(2):
        top = TOP + line * ROW + 8
        gap = img.crop((left, top, col_points - POINTS_ROOM - 1, top + ROW - 16))
        assert len(gap.getcolors() or []) == 1, f"line {line + 1}: nothing drawn in the gap"
        # The cut name reaches close to its room's end: cut by measure, not by a count.
        near = img.crop((left - 60, top, left, top + ROW - 16))
        assert len(near.getcolors(maxcolors=1 << 16) or []) > 2, f"line {line + 1} is long"


def test_pixels_beyond_the_margin_stay_ground() -> None:
    view = _view(("x" * 500, "山田" * 100, "\\_Ada\\_ " * 60))
    img = _decoded(standings_png(replace(view, title="T" * 400, subtitle="s" * 400)))
    # Right of the last column's right edge, up to the edge's frame, only the ground and the
    # bands: no name, title or figure runs into the margin.
    margin = img.crop((WIDTH - PAD + 12, 4, WIDTH - 4, img.height - 4))
    assert {colour for _, colour in margin.getcolors() or []} <= {(18, 22, 32), (38, 49, 73)}


def test_the_text_twin_says_every_line_with_its_headings() -> None:
    view = _view((*NAMES[:-1], "山田 \\*Ada\\*"))
    lines = standings_alt(view).splitlines()
    assert lines[:2] == ["Pylons Swiss: standings", "After round 3 of 3"]
    assert len(lines) == 2 + 9
    assert lines[2] == "1. Ada · Points 3 · Buchholz 9½ · Wins 3 · Games 3"
    assert lines[3] == "2. Bruno · Points 2½ · Buchholz 8½ · Wins 2 · Games 3"
    assert lines[7] == "6. Fritz · Points 1⅓ · Buchholz 4½ · Wins 2 · Games 3 · withdrew"
    assert lines[10].startswith("9. 山田 \\*Ada\\* · Points 0")
    for line, shown in zip(view.lines, lines[2:], strict=True):
        assert line.name in shown and f"Points {line.points}" in shown


def test_the_text_twin_of_sixty_four_lines_is_cut_at_a_line_within_the_limit() -> None:
    names = tuple(f"Player number {i}" for i in range(1, MOST_LINES + 1))
    alt = standings_alt(_view(names))
    assert len(alt) <= ALT_LIMIT
    assert alt.endswith("\n…")
    shown = alt.splitlines()[2:-1]
    assert len(shown) > 10
    for i, line in enumerate(shown):
        assert line.startswith(f"{i + 1}. Player number {i + 1} · Points ")
    huge = standings_alt(replace(_view(), title="T" * 3000))
    assert len(huge) <= ALT_LIMIT and huge.endswith("…")


def test_a_short_text_twin_is_not_cut() -> None:
    alt = standings_alt(_view(NAMES[:3]))
    assert "…" not in alt and len(alt.splitlines()) == 5


def test_headings_too_few_to_read_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        standings_alt(replace(_view(), headings=("#", "Player", "Points")))


def test_a_name_the_font_lacks_is_drawn_as_one_mark_not_boxes() -> None:
    alone = _decoded(standings_png(_view(("山田太郎",))))
    marked = _decoded(standings_png(_view((FALLBACK,))))
    assert alone.tobytes() == marked.tobytes()


def test_every_word_reads_at_the_size_discord_shows_the_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import render.standings as module
    from render.fonts import font, least_size

    sizes: list[int] = []

    def recorded(size: int, bold: bool = True) -> object:
        sizes.append(size)
        return font(size, bold)

    monkeypatch.setattr(module, "font", recorded)
    long_headings = (
        "#",
        "Spielerin oder Spieler",
        "Punkte",
        "Sonneborn-Berger",
        "Siege",
        "Partien",
    )
    many = tuple(f"Player {i}" for i in range(MOST_LINES))
    for view in (_view(), _view(many), _view(podium=True)):
        standings_png(replace(view, headings=long_headings, title="T" * 200, subtitle="s" * 300))
    assert sizes and min(sizes) >= least_size(WIDTH)
