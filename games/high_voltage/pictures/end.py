"""The end-of-game picture: every seat's secret company revealed, the colours no one held,
final scores and the winner or winners.

Reads only `view["outcome"]` (and seat names), which the engine fills once the game is over;
until then there is nothing secret-free to show, so a view without it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, Texts, texts_for
from games.high_voltage.pictures.palette import THEME, HighVoltageTheme
from games.high_voltage.pictures.panel import row_band, seat_name
from games.high_voltage.pictures.sprites import disc_icon, star_icon
from render.canvas import fit, shrink
from render.encode import png_bytes
from render.fonts import font

WIDTH = 900
PAD = 32
ROW = 58
COL_NAME, COL_COMPANY, COL_POINTS, COL_TOKENS, COL_TOTAL = 84, 300, 636, 770, 850
HEAD = 18  # the column headings: 18 pixels on a picture 900 wide read as 11 in Discord
SCORE_HEAD = 184  # the company score's heading, right-aligned: the widest in any language


def hv_end_png(
    view: Mapping[str, Any],
    *,
    names: Sequence[str] | None = None,
    theme: HighVoltageTheme = THEME,
    language: str = DEFAULT,
) -> bytes:
    """The final result as PNG bytes; raises ValueError if the game is not over."""
    outcome = view.get("outcome")
    if not outcome:
        raise ValueError("The game is not over: there is no outcome to show yet.")
    return png_bytes(end_image(outcome, names=names, theme=theme, language=language))


def _word(texts: Texts, key: str, name: str) -> str:
    return texts(key) if texts.has(key) else name


def end_image(
    outcome: Mapping[str, Any],
    *,
    names: Sequence[str] | None = None,
    theme: HighVoltageTheme = THEME,
    language: str = DEFAULT,
) -> Image.Image:
    """The result drawn from an outcome dict (reason, scores, winners, details)."""
    texts = texts_for(language)
    scores = [int(s) for s in outcome.get("scores", [])]
    winners = {int(s) for s in outcome.get("winners", [])}
    details = outcome.get("details") or {}
    colours = list(details.get("colours") or [None] * len(scores))
    company = details.get("company_scores") or {}
    tokens = list(details.get("point_tokens") or [0] * len(scores))
    unowned = list(details.get("unowned") or [])
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))

    top_rows = 196
    height = top_rows + ROW * len(order) + (24 + ROW * len(unowned) if unowned else 0) + PAD
    img = Image.new("RGB", (WIDTH, height), theme.panel)
    draw = ImageDraw.Draw(img)
    draw.text((PAD, PAD - 6), texts("picture.hv.game_over"), fill=theme.text, font=font(40))
    why = str(outcome.get("reason", ""))
    reason = _word(texts, f"picture.hv.end.reason_{why}", why)
    reason, reason_size = shrink(reason, 20, WIDTH - 2 * PAD, bold=False)
    draw.text((PAD, PAD + 46), reason, fill=theme.text_dim, font=font(reason_size, False))

    names_won = [seat_name(s, names, texts) for s in order if s in winners]
    best = max(scores) if scores else 0
    points_said = texts("picture.hv.end.points", count=best)
    if len(names_won) == 1:
        banner = texts("picture.hv.end.wins", player=names_won[0], points=points_said)
    elif names_won:
        who = ", ".join(names_won[:-1]) + " & " + names_won[-1]
        banner = texts("picture.hv.end.share", players=who, points=points_said)
    else:
        banner = texts("picture.hv.end.no_winner")
    room = WIDTH - 2 * PAD - 74
    size = 26
    while size > 18 and font(size).getlength(banner) > room:
        size -= 1
    img.paste(row_band(theme, WIDTH - 2 * PAD, 52), (PAD, 110))
    img.paste(star_icon(theme, 34, theme.panel_row, theme.winner), (PAD + 12, 119))
    draw.text(
        (PAD + 58, 136), fit(banner, size, room), fill=theme.winner, font=font(size), anchor="lm"
    )

    y = top_rows - 22
    # Each heading has the room up to the next one (right-aligned ones: back to the last).
    for x, key, anchor, room in (
        (COL_NAME, "player", "la", COL_COMPANY - COL_NAME - 12),
        (COL_COMPANY, "company", "la", COL_POINTS - COL_COMPANY - SCORE_HEAD - 12),
        (COL_POINTS, "company_score", "ra", SCORE_HEAD),
        (COL_TOKENS, "point_tokens", "ra", COL_TOKENS - COL_POINTS - 12),
        (COL_TOTAL, "total", "ra", COL_TOTAL - COL_TOKENS - 12),
    ):
        label, size = shrink(texts(f"picture.hv.end.{key}"), HEAD, room, bold=False, smallest=HEAD)
        draw.text((x, y), label, fill=theme.text_dim, font=font(size, False), anchor=anchor)
    y = top_rows
    for seat in order:
        colour = colours[seat] if seat < len(colours) else None
        won = seat in winners
        mid = y + ROW // 2 - 4
        place = 1 + sum(1 for s in scores if s > scores[seat])
        draw.text((PAD + 8, mid), f"{place}.", fill=theme.text_dim, font=font(22), anchor="lm")
        draw.text(
            (COL_NAME, mid),
            fit(seat_name(seat, names, texts), 24, COL_COMPANY - COL_NAME - 16),
            fill=theme.winner if won else theme.text,
            font=font(24),
            anchor="lm",
        )
        _company(img, draw, colour, COL_COMPANY, mid, theme, texts)
        points = int(company.get(colour, 0)) if colour else 0
        token = int(tokens[seat]) if seat < len(tokens) else 0
        draw.text((COL_POINTS, mid), str(points), fill=theme.text, font=font(24), anchor="rm")
        draw.text((COL_TOKENS, mid), f"+{token}", fill=theme.text, font=font(24), anchor="rm")
        draw.text(
            (COL_TOTAL, mid),
            str(scores[seat]),
            fill=theme.winner if won else theme.text,
            font=font(30),
            anchor="rm",
        )
        y += ROW
    if unowned:
        draw.line((PAD, y + 6, WIDTH - PAD, y + 6), fill=theme.panel_row, width=2)
        y += 24
        for colour in unowned:
            mid = y + ROW // 2 - 4
            draw.text(
                (COL_NAME, mid),
                fit(texts("picture.hv.end.no_one"), 24, COL_COMPANY - COL_NAME - 16, bold=False),
                fill=theme.text_dim,
                font=font(24, False),
                anchor="lm",
            )
            _company(img, draw, colour, COL_COMPANY, mid, theme, texts)
            draw.text(
                (COL_POINTS, mid),
                str(int(company.get(colour, 0))),
                fill=theme.text_dim,
                font=font(24),
                anchor="rm",
            )
            y += ROW
    return img


def _company(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    colour: str | None,
    x: int,
    mid: int,
    theme: HighVoltageTheme,
    texts: Texts,
) -> None:
    img.paste(disc_icon(theme, colour, 34, theme.panel), (x, mid - 17))
    if colour:
        name = theme.company(colour).name
        label = _word(texts, f"picture.hv.companies.{name}", name)
    else:
        label = texts("picture.hv.end.unknown")
    draw.text((x + 46, mid), label, fill=theme.text, font=font(22, False), anchor="lm")
