"""A person's record on a server as a picture (/stats me), and its text twin.

One band per game: its name, the rating in large figures, the facts beside it (games
finished and abandoned, median time to move, best results) and the rating's history as a
small line chart, so a glance says whether they are climbing. Drawn in the look of the
leaderboard (`render.leaderboard`) and the boards; pure: every word arrives translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.canvas import fit, shrink, wrap
from render.encode import png_bytes
from render.fonts import font
from render.leaderboard import EDGE, THEME, UP, as_drawn, titled_sheet
from render.theme import Theme

WIDTH = 900
PAD = 32
TOP = 104  # below the title and the subtitle
BAND = 268  # one game's band
MOST_SECTIONS = 6
FACT_ROW = 27
MOST_FACTS = 6  # rows of facts drawn in a band (and in its season's block)
SEASON_GAP = 6  # between the facts and the season's heading
SPLIT = 452  # the facts left of it, the chart right of it
CHART_LEFT, CHART_RIGHT = SPLIT + 60, WIDTH - PAD - 8


@dataclass(frozen=True)
class ProfileSection:
    """One game in a person's record."""

    title: str  # the game's name
    rating_label: str  # "Rating"
    rating: str  # "1234", "1234?" or the word for unrated
    history: tuple[int, ...]  # the rating after each rated game, oldest first
    span: tuple[str, str]  # the first and the last rated game's day, under the chart
    chart_alt: str  # the chart in words ("Rating over 12 games: from 1000 to 1034, …")
    facts: tuple[tuple[str, str], ...]  # (label, value), in the order drawn
    # The season running beside all time (its heading, "Season 2026-11", and its own facts:
    # rating, games, wins), drawn under the facts; none while the server has no seasons.
    season: str = ""
    season_facts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ProfileView:
    title: str
    subtitle: str
    no_chart: str  # said where a chart would be, before two rated games
    sections: tuple[ProfileSection, ...]


def profile_alt(view: ProfileView) -> str:
    """The text twin: the title, then each game's rating, facts and chart in words."""
    out = [line for line in (view.title, view.subtitle) if line]
    for section in view.sections[:MOST_SECTIONS]:
        facts = " · ".join(f"{label} {value}" for label, value in section.facts)
        words = [f"{section.title}: {section.rating_label} {section.rating}", facts]
        if section.season_facts:
            season = " · ".join(f"{label} {value}" for label, value in section.season_facts)
            words.append(f"{section.season}: {season}")
        out.append(". ".join(part for part in (*words, section.chart_alt) if part) + ".")
    return "\n".join(out)


def profile_png(view: ProfileView) -> bytes:
    """The record as PNG bytes."""
    return png_bytes(profile_image(view))


def band_of(section: ProfileSection) -> int:
    """The height of a game's band: taller by its season's heading and rows, if it has any."""
    if not section.season_facts:
        return BAND
    return BAND + SEASON_GAP + FACT_ROW * (1 + len(section.season_facts))


def profile_image(view: ProfileView, theme: Theme = THEME) -> Image.Image:
    sections = view.sections[:MOST_SECTIONS]
    height = TOP + (sum(map(band_of, sections)) if sections else BAND) + PAD // 2
    img, draw = titled_sheet(height, view.title, view.subtitle, theme)
    top = TOP
    for section in sections:
        _section(draw, section, top, view.no_chart, theme)
        top += band_of(section)
    return img


def _section(
    draw: ImageDraw.ImageDraw, section: ProfileSection, top: int, no_chart: str, theme: Theme
) -> None:
    draw.rounded_rectangle(
        (PAD - 10, top, WIDTH - PAD + 10, top + band_of(section) - 14),
        radius=12,
        fill=theme.panel_row,
    )
    left = PAD + 6
    name, size = shrink(as_drawn(section.title), 26, SPLIT - left, smallest=20)
    draw.text((left, top + 12), name, fill=theme.winner, font=font(size))
    label = fit(as_drawn(section.rating_label, False), 18, 150, bold=False)
    draw.text((left, top + 62), label, fill=theme.text_dim, font=font(18, False), anchor="lm")
    rating, size = shrink(as_drawn(section.rating), 40, SPLIT - left - 170, smallest=24)
    draw.text((left + 160, top + 62), rating, fill=theme.text, font=font(size), anchor="lm")
    y = top + 98
    for label, value in section.facts[:MOST_FACTS]:
        _fact(draw, label, value, left, y, theme)
        y += FACT_ROW
    _chart(draw, section, top + 22, top + BAND - 62, no_chart, theme)
    if section.season_facts:
        y = top + 98 + MOST_FACTS * FACT_ROW + SEASON_GAP
        heading, size = shrink(as_drawn(section.season), 20, SPLIT - left, smallest=16)
        draw.text((left, y), heading, fill=theme.winner, font=font(size), anchor="lm")
        for label, value in section.season_facts[:MOST_FACTS]:
            y += FACT_ROW
            _fact(draw, label, value, left, y, theme)


def _fact(
    draw: ImageDraw.ImageDraw, label: str, value: str, left: int, y: int, theme: Theme
) -> None:
    """One fact's row: its label at the left, its value against the chart's side."""
    said, size = shrink(as_drawn(value), 19, 150)
    draw.text((SPLIT - 8, y), said, fill=theme.text, font=font(size), anchor="rm")
    room = SPLIT - 8 - left - font(size).getlength(said) - 12
    name = fit(as_drawn(label, False), 18, room, bold=False)
    draw.text((left, y), name, fill=theme.text_dim, font=font(18, False), anchor="lm")


def _chart(
    draw: ImageDraw.ImageDraw,
    section: ProfileSection,
    top: int,
    bottom: int,
    no_chart: str,
    theme: Theme,
) -> None:
    """The rating after each rated game, left to right, between its lowest and highest,
    which are written at the left; the first and last days below."""
    draw.rectangle((CHART_LEFT, top, CHART_RIGHT, bottom), outline=EDGE, width=1)
    points = section.history
    if len(points) < 2:
        room = CHART_RIGHT - CHART_LEFT - 24
        said = wrap(as_drawn(no_chart, False), 18, room, 3, bold=False)
        middle = (CHART_LEFT + CHART_RIGHT) // 2
        y = (top + bottom) // 2 - 12 * (len(said) - 1)
        for words in said:
            draw.text((middle, y), words, fill=theme.text_dim, font=font(18, False), anchor="mm")
            y += 24
        return
    low, high = min(points), max(points)
    spread = max(high - low, 1)
    inner_top, inner_bottom = top + 10, bottom - 10
    face = font(16, False)
    draw.text((CHART_LEFT - 6, inner_top), str(high), fill=theme.text_dim, font=face, anchor="rm")
    draw.text((CHART_LEFT - 6, inner_bottom), str(low), fill=theme.text_dim, font=face, anchor="rm")
    line = _polyline(points, low, spread, inner_top, inner_bottom)
    draw.line(line, fill=UP, width=3, joint="curve")
    end_x, end_y = line[-1]
    draw.ellipse((end_x - 5, end_y - 5, end_x + 5, end_y + 5), fill=theme.winner)
    first, last = (as_drawn(day, False) for day in section.span)
    draw.text((CHART_LEFT, bottom + 8), first, fill=theme.text_dim, font=face, anchor="la")
    draw.text((CHART_RIGHT, bottom + 8), last, fill=theme.text_dim, font=face, anchor="ra")


def _polyline(
    points: Sequence[int], low: int, spread: int, top: int, bottom: int
) -> list[tuple[float, float]]:
    """The chart's points in pixels; a long history is drawn at most one point a pixel."""
    width = CHART_RIGHT - CHART_LEFT - 20
    step = max(1, len(points) // width)
    shown = list(points[::step])
    if shown[-1] != points[-1] or (len(points) - 1) % step:
        shown.append(points[-1])
    last = len(shown) - 1
    return [
        (
            CHART_LEFT + 10 + width * i / last,
            bottom - (bottom - top) * (value - low) / spread,
        )
        for i, value in enumerate(shown)
    ]
