"""A server's leaderboard as a picture, and its text twin.

The picture is what a channel sees at a glance (the top ten, their ratings, games and how
they moved), in the look of the game boards: the same fonts, the same dark ground and rows.
Its ground is opaque and its edge lighter, so it reads the same on Discord's dark and light
themes. The text twin (`leaderboard_alt`) says the same in words, for the attachment's alt
text and a message: a screen reader, a search or a client without pictures loses nothing.

Pure: the caller gives a `LeaderboardView` of words already translated and names already
made safe for a message (their markdown and mentions escaped). The picture draws each name
as Discord shows such a text (the escapes taken back out), any character the font lacks as
one fallback mark, and cuts a long name with an ellipsis to its column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.canvas import fit, shrink
from render.encode import png_bytes
from render.fonts import font, has_glyph
from render.theme import RGB, Theme

MOST_LINES = 10

WIDTH = 900
PAD = 32
ROW = 54
TOP = 150  # where the first row starts: the title, the subtitle and the headings above it
HEAD = 18  # the headings: 18 pixels on a picture 900 wide read as 11 in Discord
NAME_SIZE = 24
COL_PLACE = PAD + 46  # right edge of "10."
COL_NAME = PAD + 64
COL_RATING = 610  # right edges from here on
COL_GAMES = 730
COL_TREND = WIDTH - PAD - 12

THEME = Theme()
UP: RGB = (96, 206, 128)
DOWN: RGB = (238, 104, 104)
SILVER: RGB = (196, 204, 218)
BRONZE: RGB = (214, 148, 96)
EDGE: RGB = (70, 84, 112)

# Drawn for a run of characters the font has no glyph for (a name in a script DejaVu Sans
# lacks): one visible mark says something is there without a row of empty boxes.
FALLBACK = "\ufffd"
# Markdown's escape: a backslash before ASCII punctuation, which Discord shows as the
# punctuation alone (what `discord.utils.escape_markdown` adds).
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


@dataclass(frozen=True)
class BoardLine:
    """One line of a leaderboard: `trend` is the rating's change over the period shown
    (None for someone new to it)."""

    place: int
    name: str
    rating: str
    games: int
    trend: int | None


@dataclass(frozen=True)
class LeaderboardView:
    """Everything a leaderboard shows, in the reader's language."""

    title: str
    subtitle: str
    headings: tuple[str, str, str, str, str]  # place, player, rating, games, trend
    lines: tuple[BoardLine, ...]  # at most MOST_LINES; more are not drawn


def trend_text(trend: int | None) -> str:
    """A change of rating as a mark and a number ("▲12", "▼3", "±0"); "" for a newcomer."""
    if trend is None:
        return ""
    if trend > 0:
        return f"▲{trend}"
    if trend < 0:
        return f"▼{-trend}"
    return "±0"


def leaderboard_alt(view: LeaderboardView) -> str:
    """The text twin: the title, the subtitle, then one line per player with each figure
    after its heading, so it reads the same aloud as on the picture."""
    _, _, rating, games, trend = view.headings
    out = [line for line in (view.title, view.subtitle) if line]
    for line in view.lines[:MOST_LINES]:
        parts = [f"{line.place}. {line.name}", f"{rating} {line.rating}", f"{games} {line.games}"]
        if line.trend is not None:
            parts.append(f"{trend} {trend_text(line.trend)}")
        out.append(" · ".join(parts))
    return "\n".join(out)


def leaderboard_png(view: LeaderboardView) -> bytes:
    """The leaderboard as PNG bytes."""
    return png_bytes(leaderboard_image(view))


def as_drawn(name: str, bold: bool = True) -> str:
    """A name made safe for a message, as the picture draws it: markdown's escapes taken
    out (the picture formats nothing), invisible and control characters dropped, and each
    run of characters the font cannot draw shown as one `FALLBACK` mark."""
    text = _ESCAPE.sub(r"\1", name)
    out: list[str] = []
    for char in text:
        kind = unicodedata.category(char)
        if kind in ("Cf", "Cc"):
            if char in "\t\n\r" and out and out[-1] != " ":
                out.append(" ")
            continue
        if kind == "Cs" or not has_glyph(char, bold):
            if kind.startswith("M"):
                continue  # an accent the font lacks: its letter stands alone
            if not out or out[-1] != FALLBACK:
                out.append(FALLBACK)
            continue
        out.append(char)
    drawn = " ".join("".join(out).split())
    return drawn or FALLBACK


def leaderboard_image(view: LeaderboardView, theme: Theme = THEME) -> Image.Image:
    """The leaderboard drawn in RGB: a header, column headings and one band per line."""
    lines = view.lines[:MOST_LINES]
    height = TOP + ROW * max(1, len(lines)) + PAD
    img, draw = titled_sheet(height, view.title, view.subtitle, theme)
    place, player, rating, games, trend = view.headings
    column_headings(
        draw,
        (
            (COL_PLACE, place, "ra", COL_PLACE - PAD),
            (COL_NAME, player, "la", COL_RATING - COL_NAME - 120),
            (COL_RATING, rating, "ra", 110),
            (COL_GAMES, games, "ra", COL_GAMES - COL_RATING - 12),
            (COL_TREND, trend, "ra", COL_TREND - COL_GAMES - 12),
        ),
        theme,
        smallest=HEAD - 4,
    )

    y = TOP
    for i, line in enumerate(lines):
        if i % 2 == 0:
            draw.rounded_rectangle(
                (PAD - 10, y + 2, WIDTH - PAD + 10, y + ROW - 4), radius=10, fill=theme.panel_row
            )
        mid = y + ROW // 2 - 1
        medal = {1: theme.winner, 2: SILVER, 3: BRONZE}.get(line.place, theme.text_dim)
        draw.text((COL_PLACE, mid), f"{line.place}.", fill=medal, font=font(22), anchor="rm")
        name = fit(as_drawn(line.name), NAME_SIZE, COL_RATING - COL_NAME - 120)
        colour = theme.winner if line.place == 1 else theme.text
        draw.text((COL_NAME, mid), name, fill=colour, font=font(NAME_SIZE), anchor="lm")
        figure = fit(as_drawn(line.rating), 26, 110)
        draw.text((COL_RATING, mid), figure, fill=theme.text, font=font(26), anchor="rm")
        draw.text(
            (COL_GAMES, mid), str(line.games), fill=theme.text, font=font(22, False), anchor="rm"
        )
        _trend(draw, line.trend, mid, theme)
        y += ROW
    return img


def titled_sheet(
    height: int, title: str, subtitle: str, theme: Theme, *, subtitle_least: int | None = None
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A picture of the server's tables (leaderboard, profile, standings), WIDTH wide: the
    opaque ground with its lighter edge (it reads the same on Discord's dark and light
    themes), the title and, when there is one, the subtitle, shrunk to the width down to
    `subtitle_least` before they are cut."""
    img = Image.new("RGB", (WIDTH, height), theme.panel)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=EDGE, width=2)
    drawn, size = shrink(as_drawn(title), 34, WIDTH - 2 * PAD, smallest=24)
    draw.text((PAD, PAD - 6), drawn, fill=theme.text, font=font(size))
    if subtitle:
        drawn, size = shrink(
            as_drawn(subtitle, False), 20, WIDTH - 2 * PAD, bold=False, smallest=subtitle_least
        )
        draw.text((PAD, PAD + 38), drawn, fill=theme.text_dim, font=font(size, False))
    return img, draw


def column_headings(
    draw: ImageDraw.ImageDraw,
    columns: Iterable[tuple[float, str, str, float]],
    theme: Theme,
    *,
    smallest: int,
) -> None:
    """The columns' headings above the first row, dim: each (x, label, anchor, room) drawn
    at x, shrunk to its room down to `smallest` before it is cut."""
    for x, label, anchor, room in columns:
        text, size = shrink(as_drawn(label, False), HEAD, room, bold=False, smallest=smallest)
        draw.text((x, TOP - 26), text, fill=theme.text_dim, font=font(size, False), anchor=anchor)


def _trend(draw: ImageDraw.ImageDraw, trend: int | None, mid: int, theme: Theme) -> None:
    """The change of rating at the right edge: a triangle up or down and the number, a dim
    "±0" when it held, a dim dash for a newcomer."""
    if trend is None or trend == 0:
        mark = "–" if trend is None else "±0"
        draw.text((COL_TREND, mid), mark, fill=theme.text_dim, font=font(22), anchor="rm")
        return
    colour = UP if trend > 0 else DOWN
    number = str(abs(trend))
    face = font(22)
    draw.text((COL_TREND, mid), number, fill=colour, font=face, anchor="rm")
    right = COL_TREND - face.getlength(number) - 8
    if trend > 0:
        triangle = [(right - 16, mid + 7), (right, mid + 7), (right - 8, mid - 8)]
    else:
        triangle = [(right - 16, mid - 7), (right, mid - 7), (right - 8, mid + 8)]
    draw.polygon(triangle, fill=colour)
