"""The status panel under the board: whose turn, every seat's tokens, company scores and
what is left in the supply.

Everything here is public in the rules (tokens, scores, supply); the only colour shown for a
seat is the one the view itself carries, which is the viewer's own or, at the end, everyone's.
Fixed labels are drawn once into the board's base layer (`panel_ground`); `draw_panel` only
pastes what changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from data.texts import ENGLISH, Texts
from games.high_voltage.pictures.palette import HighVoltageTheme
from games.high_voltage.pictures.sprites import (
    HIGH_VOLTAGE,
    back_icon,
    disc_icon,
    pip_icon,
    reduce_supersampled,
    star_icon,
    token_icon,
)
from render.canvas import Canvas, fit, shorten_names, text_rgb, text_width, wrap
from render.fonts import drawable, font
from render.theme import RGB

View = Mapping[str, Any]

PAD = 24
SPLIT = 0.6  # share of the width for the turn and the players; scores take the rest
ROW_H = 32
PLAYERS_TOP = 112  # first player row, from the top of the panel
COL_ACTIONS, COL_SPECIAL, COL_POINTS = 232, 386, 484  # room for every language's labels
# The smallest text of the board: 20 pixels on a board 956 wide reads as 11 once Discord
# shows it about 550 wide (`render.fonts.least_size`).
SMALL = 20
# The footer's sentences (what the player does now, the last turn, the clock) are read, not
# glanced at: a line of capitals and descenders at 20 pixels is 19 tall, under 11 once shown
# 550 wide; at 21 it is 20 tall, 11.5 as shown.
FOOTER_SIZE = 21
# The line under the headline: what the player does now, on the whole width of the left
# half (the longest, French and German, take about 520 of its 526 pixels).
DETAIL_TOP, DETAIL_SIZE = 52, FOOTER_SIZE
# The turn clock, in the right half under the supply, where nothing else is drawn: beside
# the detail line it left that line too little room in every language but Italian.
CLOCK_TOP = 208  # from the top of the panel: level with the fourth player
CLOCK_SIZE = FOOTER_SIZE
# The last turn in words, across the whole width under the players and the scores: a move
# said in words is longer than its typed form, and a double turn says two.
LAST_TOP = PLAYERS_TOP + 4 * ROW_H + 14
LAST_LINES, LAST_STEP = 3, 26  # a double turn by a long name, in Italian, takes three
# The theme's panel_height (340) holds the last turn's lines: LAST_TOP + 3 * 26 + 8.


_LINE_NAME = re.compile(r"S(\d+)-S(\d+)")


def line_words(
    line: str, texts: Texts = ENGLISH, key: str = "high_voltage.line_name.between"
) -> str:
    """A line named by its stations as players read them on the picture, which numbers the
    stations without the "S" of typed names ("S20-S25" is "between stations 20 and 25"; with
    `key` "picture.hv.line_name.stations", the footer's short "stations 20-25"). A name
    that is not two stations is returned as it is."""
    found = _LINE_NAME.fullmatch(line)
    if found is None:
        return line
    return texts(key, first=found[1], second=found[2])


def seat_name(seat: int, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """Display name of a seat: the bot's name if given, else 'Seat 1' for seat 0."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return texts("picture.seat", number=seat + 1)


def status(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> tuple[str, str]:
    """(headline, detail) for the current phase; the headline names the seat to play in the
    text "picture.hv.to_play" (see `draw_panel`, which shortens the name only)."""
    headline, detail = _status(view, names, texts)
    seat = view.get("current_seat")
    if headline is None:
        return texts("picture.hv.game_over"), detail
    return texts("picture.hv.to_play", player=seat_name(int(seat or 0), names, texts)), detail


def _status(view: View, names: Sequence[str] | None, texts: Texts) -> tuple[str | None, str]:
    """(None when the game is over else the seat's name, detail)."""
    phase = view.get("phase")
    seat = view.get("current_seat")
    if phase == "over" or seat is None:
        outcome = view.get("outcome") or {}
        winners = [seat_name(s, names, texts) for s in outcome.get("winners", [])]
        if not winners:
            return None, ""
        key = "picture.hv.wins" if len(winners) == 1 else "picture.hv.share"
        return None, texts(key, players=" & ".join(winners))
    who = seat_name(int(seat), names, texts)
    if phase == "placing":
        cell = (view.get("drawn") or {}).get("cell", "?")
        return who, texts("picture.hv.placing", cell=cell)
    if phase == "declaring":
        count = len(view.get("closable") or [])
        return who, texts("picture.hv.declaring", count=count)
    if view.get("double_turn"):
        step = int(view.get("actions_taken", 0)) + 1
        return who, texts("picture.hv.double_turn", step=step)
    return who, texts("picture.hv.actions")


def last_move(
    view: View,
    names: Sequence[str] | None,
    texts: Texts = ENGLISH,
    moves: Sequence[str] | None = None,
) -> str:
    """What the last turn did: who, `moves` (its actions already in words, from the game's
    presenter; None leaves them out) and the lines it scored, in one text."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("actions"):
        return ""  # nothing done yet, or only a card looked at
    parts = []
    if moves:
        who = seat_name(int(last["seat"]), names, texts)
        parts.append(texts("picture.last_move", player=who, moves="; ".join(moves)))
    for line in last.get("lines") or []:
        name = line.get("line")
        name = (
            line_words(name, texts, "picture.hv.line_name.stations")
            if name
            else texts("picture.hv.a_line")
        )
        parts.append(texts("picture.hv.scored", line=name, count=len(line.get("cells") or [])))
    return " · ".join(parts)


def _split(theme: HighVoltageTheme, width: int) -> int:
    return round(width * SPLIT)


def panel_ground(
    img: Image.Image, theme: HighVoltageTheme, top: int, texts: Texts = ENGLISH
) -> None:
    """The panel's background and fixed labels, drawn once into the base layer."""
    draw = ImageDraw.Draw(img)
    width = img.width
    split = _split(theme, width)
    draw.rectangle((0, top, width, top + theme.panel_height), fill=theme.panel)
    draw.line((split - 4, top + 18, split - 4, top + LAST_TOP - 14), fill=theme.panel_row, width=2)
    small = font(SMALL, False)
    y = top + PLAYERS_TOP - 27
    ends = (COL_SPECIAL, COL_POINTS, split - 12)
    for (x, key), end in zip(
        ((COL_ACTIONS, "action_tokens"), (COL_SPECIAL, "special"), (COL_POINTS, "points")),
        ends,
        strict=True,
    ):
        label = fit(texts(f"picture.hv.{key}"), SMALL, end - x - 8, bold=False)
        draw.text((x, y), label, fill=theme.text_dim, font=small)
    x0 = split + 16
    col_w = (width - split - 8 - PAD) // 2
    heading = fit(texts("picture.hv.company_scores"), SMALL, width - x0 - PAD, bold=False)
    draw.text((x0, top + 12), heading, fill=theme.text_dim, font=small)
    y = _supply_top(theme) + top
    for x, key in ((x0, "energy_left"), (x0 + col_w, "face_down")):
        label = fit(texts(f"picture.hv.{key}"), SMALL, col_w - 8, bold=False)
        draw.text((x, y + 32), label, fill=theme.text_dim, font=small)


def _supply_top(theme: HighVoltageTheme) -> int:
    return SCORES_TOP + 2 * 38 + 6


SCORES_TOP = 42  # the first row of company scores, from the top of the panel


def draw_panel(
    canvas: Canvas[HighVoltageTheme],
    view: View,
    names: Sequence[str] | None,
    top: int,
    texts: Texts = ENGLISH,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> None:
    """Paste the panel's changing parts into the band that starts at y = `top`. `clock` is
    the time the player to move has left, in words, shown under the turn number (see
    `_clock`); without it the panel is the same to the byte as before clocks existed.
    `moves` are the last turn's actions in words (see `last_move`)."""
    theme = canvas.theme
    width = canvas.image.width
    split = _split(theme, width)
    who, detail = _status(view, names, texts)
    room = split - PAD - 130
    if who is None:
        headline = texts("picture.hv.game_over")
    else:  # shorten a long name, never the words round it
        around = text_width(texts("picture.hv.to_play", player=""), 28)
        headline = texts("picture.hv.to_play", player=fit(who, 28, room - around))
    canvas.text((PAD, top + 14), headline, size=28, fg=theme.text, bg=theme.panel, max_width=room)
    if view.get("phase") != "over":
        canvas.text(
            (split - 16, top + 19),
            texts("picture.hv.turn", turn=view.get("turn", "?")),
            size=20,
            fg=theme.text_dim,
            bg=theme.panel,
            anchor="ra",
        )
    room = detail_room(width)
    if who is None:  # the winners: long names are cut, never the sentence round them
        detail = _outcome(view, names, texts, room)
    if clock is not None and view.get("phase") != "over":
        _clock(canvas, clock, split + 16, top + CLOCK_TOP, clock_room(width))
    canvas.text(
        (PAD, top + DETAIL_TOP),
        detail,
        size=DETAIL_SIZE,
        bold=False,
        fg=theme.text_dim,
        bg=theme.panel,
        max_width=room,
    )
    _players(canvas, view, names, top + PLAYERS_TOP, split, texts)
    _scores(canvas, view, names, top, split, texts)
    said = last_move(view, names, texts, moves)
    lines = wrap(said, FOOTER_SIZE, width - 2 * PAD, LAST_LINES, bold=False)
    for n, line in enumerate(lines):
        canvas.text(
            (PAD, top + LAST_TOP + n * LAST_STEP),
            line,
            size=FOOTER_SIZE,
            bold=False,
            fg=theme.text_dim,
            bg=theme.panel,
        )


def detail_room(width: int) -> int:
    """The detail line's width on a picture `width` pixels wide: the left half, inside the
    padding."""
    return round(width * SPLIT) - 2 * PAD


def clock_room(width: int) -> int:
    """The clock's widest on a picture `width` pixels wide: the right half, inside the
    padding (342 pixels on the board; the widest wording, French, takes 223)."""
    return width - (round(width * SPLIT) + 16) - PAD


def _outcome(view: View, names: Sequence[str] | None, texts: Texts, room: int) -> str:
    """Who won, in `room` pixels: four long names sharing a win are each cut by as much as
    the sentence is too wide, so its words and every winner still show."""
    winners = [int(s) for s in (view.get("outcome") or {}).get("winners", [])]
    if not winners:
        return ""
    key = "picture.hv.wins" if len(winners) == 1 else "picture.hv.share"
    everyone = [seat_name(s, names, texts) for s in winners]

    def said(shown: Sequence[str] | None) -> str:
        return texts(key, players=" & ".join(shown or everyone))

    return shorten_names(said, everyone, DETAIL_SIZE, room, bold=False)


def _clock(canvas: Canvas[HighVoltageTheme], clock: str, left: int, top: int, room: int) -> None:
    """Draw the turn clock from (`left`, `top`), in the right half under the supply: the
    detail line keeps the whole left half, and the clock reads on its own ("42 minutes
    left" says whose time it is, the player's to move). In the turn number's muted colour,
    as it says about the turn rather than the board. A text too long for `room` is cut
    with an ellipsis, and characters the font has no glyph for (a message's emoji) are left
    out rather than drawn as boxes."""
    theme = canvas.theme
    words = drawable(clock)
    if not words:
        return
    canvas.text(
        (left, top), words, size=CLOCK_SIZE, fg=theme.text_dim, bg=theme.panel, max_width=room
    )


def _players(
    canvas: Canvas[HighVoltageTheme],
    view: View,
    names: Sequence[str] | None,
    y: int,
    split: int,
    texts: Texts,
) -> None:
    theme = canvas.theme
    current = view.get("current_seat") if view.get("phase") != "over" else None
    for player in view.get("players") or []:
        seat = int(player["seat"])
        bg: RGB = theme.panel
        if seat == current:
            bg = theme.panel_row
            canvas.sprite(row_band, split - PAD, ROW_H - 2, at=(PAD - 8, y - 3))
        canvas.sprite(disc_icon, player.get("colour"), 24, bg, at=(PAD, y))
        mid = y + 12
        canvas.text(
            (PAD + 34, mid),
            seat_name(seat, names, texts),
            size=20,
            fg=theme.text,
            bg=bg,
            anchor="lm",
            max_width=COL_ACTIONS - PAD - 46,
        )
        actions = int(player.get("action_tokens", 0))
        if 0 < actions <= 8:
            for i in range(actions):
                canvas.sprite(
                    pip_icon, True, 16, bg, theme.hv_bolt, at=(COL_ACTIONS + i * 20, y + 4)
                )
        else:
            _count(
                canvas,
                theme,
                (COL_ACTIONS, mid),
                actions,
                texts("picture.hv.none"),
                bg,
                width=COL_SPECIAL - COL_ACTIONS - 8,
            )
        special = int(player.get("special_tokens", 0))
        if 0 < special <= 3:
            for i in range(special):
                canvas.sprite(star_icon, 22, bg, theme.winner, at=(COL_SPECIAL + i * 24, y + 1))
        else:
            _count(
                canvas,
                theme,
                (COL_SPECIAL, mid),
                special,
                texts("picture.hv.used"),
                bg,
                width=COL_POINTS - COL_SPECIAL - 8,
            )
        canvas.text(
            (COL_POINTS, mid),
            str(player.get("point_tokens", 0)),
            size=20,
            fg=theme.text,
            bg=bg,
            anchor="lm",
        )
        y += ROW_H


def _scores(
    canvas: Canvas[HighVoltageTheme],
    view: View,
    names: Sequence[str] | None,
    top: int,
    split: int,
    texts: Texts,
) -> None:
    theme = canvas.theme
    width = canvas.image.width
    x0 = split + 16
    col_w = (width - split - 8 - PAD) // 2
    scores = view.get("company_scores") or {}
    colours = view.get("colours") or list(scores)
    for i, colour in enumerate(colours[:4]):
        x = x0 + (i % 2) * col_w
        y = top + SCORES_TOP + (i // 2) * 38
        canvas.sprite(disc_icon, colour, 28, theme.panel, at=(x, y))
        canvas.text(
            (x + 38, y + 14),
            str(scores.get(colour, 0)),
            size=24,
            fg=theme.text,
            bg=theme.panel,
            anchor="lm",
        )
    y = top + _supply_top(theme)
    canvas.sprite(token_icon, HIGH_VOLTAGE, 26, theme.panel, at=(x0, y))
    canvas.text(
        (x0 + 34, y + 13),
        str(view.get("energy_supply", 0)),
        size=20,
        fg=theme.text,
        bg=theme.panel,
        anchor="lm",
    )
    canvas.sprite(back_icon, 26, theme.panel, at=(x0 + col_w, y))
    canvas.text(
        (x0 + col_w + 34, y + 13),
        str(view.get("face_down", 0)),
        size=20,
        fg=theme.text,
        bg=theme.panel,
        anchor="lm",
    )


@cache
def row_band(theme: HighVoltageTheme, width: int, height: int) -> Image.Image:
    """The rounded band behind the player whose turn it is."""
    k = theme.supersample
    img = Image.new("RGB", (width * k, height * k), theme.panel)
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, width * k - 1, height * k - 1), radius=7 * k, fill=theme.panel_row
    )
    return reduce_supersampled(img, (width, height))


def specimen_text(sheet: Image.Image, at: tuple[int, int], theme: HighVoltageTheme) -> None:
    """Sample panel texts and icons so the board palette holds their anti-aliased shades."""
    x, y = at
    samples = [
        ("Seat 1234 to play Turn 0123456789", 28, True, theme.text, theme.panel),
        ("Draw, rotate, move or swap a card 0123456789", 20, False, theme.text_dim, theme.panel),
        ("Seat 1234 none used 0123456789", 20, True, theme.text, theme.panel_row),
        ("none used action tokens special points", 20, False, theme.text_dim, theme.panel_row),
        ("Scored S3-S9 · drew turned 90° energy left", 20, False, theme.text_dim, theme.panel),
        ("A B C D E F G 1 2 3 4 5 6 7", 20, True, theme.coordinate_text, theme.background),
    ]
    for i, (text, size, bold, fg, bg) in enumerate(samples):
        sheet.paste(text_rgb(text, size, bold, fg, bg), (x + 4, y + i * 32))
    icons = [
        pip_icon(theme, True, 16, theme.panel, theme.hv_bolt),
        pip_icon(theme, True, 16, theme.panel_row, theme.hv_bolt),
        star_icon(theme, 22, theme.panel, theme.winner),
        star_icon(theme, 22, theme.panel_row, theme.winner),
        token_icon(theme, HIGH_VOLTAGE, 26, theme.panel),
        back_icon(theme, 26, theme.panel),
        disc_icon(theme, None, 24, theme.panel),
        disc_icon(theme, None, 24, theme.panel_row),
        row_band(theme, 200, 29),
    ]
    for i, img in enumerate(icons):
        sheet.paste(img, (x + 4 + i * 40, y + len(samples) * 32 + 4))


def _count(
    canvas: Canvas[HighVoltageTheme],
    theme: HighVoltageTheme,
    at: tuple[float, float],
    count: int,
    none: str,
    bg: RGB,
    *,
    width: float,
) -> None:
    """A count too large for icons as a number, or the dimmed word for none left."""
    label, fg, bold = (str(count), theme.text, True) if count else (none, theme.text_dim, False)
    canvas.text(at, label, size=SMALL, fg=fg, bg=bg, bold=bold, anchor="lm", max_width=width)
