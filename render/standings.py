"""A tournament's standings as a picture, and its text twin.

Posted after each round and at the end (the podium), and shown by `/tournament standings`.
It has the look of the leaderboard (`render.leaderboard`): the same width, fonts, dark ground,
lighter edge and alternating bands, so a server's pictures look like one bot's.

The standings of a tournament may run to 64 players. They are drawn as one column, never two:
on a phone Discord opens a picture to the screen's width and the reader scrolls down it, so
one column of 900 pixels shows its words about twice as large as two columns side by side
would, and the least font size the pictures keep (`render.fonts.least_size`) holds for it.
Past `ROOMY` lines the rows are lower, so 64 lines stay about 3,000 pixels tall.

The podium view (the final standings) draws the first three, as they placed, in taller
bands with a medal's colour at their left and larger names, above the rest.

Pure: the caller gives a `StandingsView` of words already translated (headings, notes such as
"withdrew"), points and tiebreaks already written as figures ("2½", see
`hvbot.services.standings.shown_points`), and names already made safe for a message. DejaVu
Sans has the vulgar fractions ½ ⅓ ⅔ a tournament's points need.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.canvas import fit, text_width
from render.encode import png_bytes
from render.fonts import font
from render.leaderboard import (
    BRONZE,
    HEAD,
    PAD,
    SILVER,
    THEME,
    TOP,
    WIDTH,
    as_drawn,
    column_headings,
    titled_sheet,
)
from render.theme import RGB, Theme

MOST_LINES = 64
ROOMY = 16  # up to this many lines, rows as tall as the leaderboard's
ALT_LIMIT = 1024  # Discord's limit for an attachment's description (its alt text)

ROW = 54
ROW_COMPACT = 44
PODIUM_ROW = 74
PODIUM_GAP = 14  # between the podium and the rest
COL_PLACE = PAD + 46  # right edge of "64."
COL_NAME = PAD + 64
COL_GAMES = WIDTH - PAD - 12  # right edges from here leftwards
GAMES_ROOM = 84
FIGURE_ROOM = 104  # a tiebreak's column
POINTS_ROOM = 92
NAME_GAP = 24  # least ground between a name (or its note) and the points
NOTE_GAP = 12


@dataclass(frozen=True)
class StandingLine:
    """One player's line: `points` and `tiebreaks` as shown ("2½", "7"), `note` a word about
    them in the reader's language ("withdrew"), or ""."""

    place: int
    name: str
    points: str
    tiebreaks: tuple[str, ...]
    games: int
    note: str = ""


@dataclass(frozen=True)
class StandingsView:
    """Everything the standings show, in the reader's language.

    `headings` are (place, player, points, one per tiebreak..., games): the lines' tiebreaks
    are drawn under the headings between points and games, as many as there are headings for.
    `lines` are in standing order, at most MOST_LINES (more are not drawn)."""

    title: str
    subtitle: str
    headings: tuple[str, ...]
    lines: tuple[StandingLine, ...]
    podium: bool = False


def _columns(headings: tuple[str, ...]) -> tuple[str, str, str, tuple[str, ...], str]:
    """The headings split as (place, player, points, tiebreaks, games)."""
    if len(headings) < 4:
        raise ValueError(
            "standings headings are (place, player, points, tiebreaks..., games): "
            f"at least 4, got {len(headings)}"
        )
    return headings[0], headings[1], headings[2], headings[3:-1], headings[-1]


def _podium(view: StandingsView) -> int:
    """How many of the first lines the podium shows: those placed first to third (two who
    share a place both stand on it), none unless the view is a podium."""
    if not view.podium:
        return 0
    count = 0
    for line in view.lines[:MOST_LINES]:
        if line.place > 3 or count == 6:
            break
        count += 1
    return count


def standings_alt(view: StandingsView) -> str:
    """The text twin: the title, the subtitle, then one line per player with each figure
    after its heading, as it reads aloud ("1. Ada · Points 2½ · Buchholz 4 · Games 3 ·
    withdrew"). Cut at a whole line, with "…", to fit ALT_LIMIT characters."""
    _, _, points, tiebreaks, games = _columns(view.headings)
    out = [line for line in (view.title, view.subtitle) if line]
    for line in view.lines[:MOST_LINES]:
        parts = [f"{line.place}. {line.name}", f"{points} {line.points}"]
        parts += [
            f"{label} {value}" for label, value in zip(tiebreaks, line.tiebreaks, strict=False)
        ]
        parts.append(f"{games} {line.games}")
        if line.note:
            parts.append(line.note)
        out.append(" · ".join(parts))
    return _cut("\n".join(out), ALT_LIMIT)


def _cut(text: str, limit: int) -> str:
    """`text` as its first whole lines that fit `limit` characters with a last line "…"
    (a line longer than the limit alone is itself cut)."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = len("…")
    for line in text.split("\n"):
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept:
        return text[: limit - 1] + "…"
    return "\n".join([*kept, "…"])


def standings_png(view: StandingsView) -> bytes:
    """The standings as PNG bytes."""
    return png_bytes(standings_image(view))


def standings_image(view: StandingsView, theme: Theme = THEME) -> Image.Image:
    """The standings drawn in RGB: a header, column headings, the podium's bands (in the
    podium view) and one band per other line."""
    lines = view.lines[:MOST_LINES]
    on_podium = _podium(view)
    row = ROW if len(lines) <= ROOMY else ROW_COMPACT
    rest = len(lines) - on_podium
    height = TOP + PODIUM_ROW * on_podium + row * rest + PAD
    if on_podium and rest:
        height += PODIUM_GAP
    if not lines:
        height += row
    img, draw = titled_sheet(height, view.title, view.subtitle, theme, subtitle_least=HEAD)
    place, player, points, tiebreaks, games = _columns(view.headings)
    figures = _figure_edges(len(tiebreaks))
    col_points = figures[0] - FIGURE_ROOM if tiebreaks else COL_GAMES - GAMES_ROOM
    name_room = col_points - POINTS_ROOM - NAME_GAP - COL_NAME
    column_headings(
        draw,
        (
            (COL_PLACE, place, "ra", COL_PLACE - PAD),
            (COL_NAME, player, "la", name_room),
            (col_points, points, "ra", POINTS_ROOM),
            *(
                (x, label, "ra", FIGURE_ROOM - 12)
                for x, label in zip(figures, tiebreaks, strict=False)
            ),
            (COL_GAMES, games, "ra", GAMES_ROOM - 12),
        ),
        theme,
        smallest=HEAD,
    )

    medals: dict[int, RGB] = {1: theme.winner, 2: SILVER, 3: BRONZE}
    y = TOP
    for i, line in enumerate(lines):
        big = i < on_podium
        height_of = PODIUM_ROW if big else row
        if big:
            draw.rounded_rectangle(
                (PAD - 10, y + 3, WIDTH - PAD + 10, y + height_of - 5),
                radius=12,
                fill=theme.panel_row,
            )
            draw.rounded_rectangle(
                (PAD - 10, y + 3, PAD - 2, y + height_of - 5), radius=4, fill=medals[line.place]
            )
        elif (i - on_podium) % 2 == 0:
            draw.rounded_rectangle(
                (PAD - 10, y + 2, WIDTH - PAD + 10, y + height_of - 4),
                radius=10,
                fill=theme.panel_row,
            )
        mid = y + height_of // 2 - 1
        _line(draw, line, mid, big, row == ROW, col_points, figures, name_room, theme)
        y += height_of
        if big and i == on_podium - 1 and rest:
            y += PODIUM_GAP
    return img


def _figure_edges(count: int) -> tuple[int, ...]:
    """The right edges of `count` tiebreak columns, left to right, before the games'."""
    return tuple(COL_GAMES - GAMES_ROOM - FIGURE_ROOM * (count - 1 - k) for k in range(count))


def _line(
    draw: ImageDraw.ImageDraw,
    line: StandingLine,
    mid: int,
    big: bool,
    roomy: bool,
    col_points: int,
    figures: tuple[int, ...],
    name_room: int,
    theme: Theme,
) -> None:
    """One player's line centred on `mid`: the place in its medal's colour for the first
    three, the name (and its note, dimmer, after it) cut to its room, the points, the
    tiebreaks and the games."""
    medal = {1: theme.winner, 2: SILVER, 3: BRONZE}.get(line.place)
    name_size = 30 if big else (24 if roomy else 22)
    figure_size = 20 if roomy or big else 18
    draw.text(
        (COL_PLACE, mid),
        f"{line.place}.",
        fill=medal or theme.text_dim,
        font=font(26 if big else figure_size + 2),
        anchor="rm",
    )
    room = name_room
    note = ""
    if line.note:
        note = fit(as_drawn(line.note, False), HEAD, name_room // 2, bold=False)
        room -= int(text_width(note, HEAD, False)) + NOTE_GAP
    name = fit(as_drawn(line.name), name_size, room)
    colour = medal if big and medal else (theme.winner if line.place == 1 else theme.text)
    if line.note and not big:
        colour = theme.text_dim
    draw.text((COL_NAME, mid), name, fill=colour, font=font(name_size), anchor="lm")
    if note:
        after = COL_NAME + text_width(name, name_size) + NOTE_GAP
        draw.text((after, mid), note, fill=theme.text_dim, font=font(HEAD, False), anchor="lm")
    points_size = 30 if big else (26 if roomy else 22)
    draw.text(
        (col_points, mid),
        fit(as_drawn(line.points), points_size, POINTS_ROOM),
        fill=theme.text,
        font=font(points_size),
        anchor="rm",
    )
    for x, value in zip(figures, line.tiebreaks, strict=False):
        text = fit(as_drawn(value, False), figure_size, FIGURE_ROOM - 12, bold=False)
        draw.text((x, mid), text, fill=theme.text_dim, font=font(figure_size, False), anchor="rm")
    draw.text(
        (COL_GAMES, mid),
        str(line.games),
        fill=theme.text,
        font=font(figure_size + 2, False),
        anchor="rm",
    )


__all__ = ["StandingLine", "StandingsView", "standings_alt", "standings_image", "standings_png"]
