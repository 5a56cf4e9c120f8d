"""The panel under the Sector 6 maze: a card per player (pawn, name, score, and either what is
left to place or the markers collected by value), the status line, the last turn in words,
the marker counts and the oxygen clock's badge.

The collected counts are laid out from the widths of their labels, so a count never runs
under the next marker, whatever the number of players or digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from data.texts import ENGLISH, Texts
from render.canvas import Canvas, rounded_band, shorten_names, shrink
from render.fonts import font
from render.palette import RGB
from render.sector6_style import PAD, SS, Sector6Theme, View, token_half
from render.sector6_tokens import marker_piece, prisoner_piece, seat_letters

CARD_H = 84
CLOCK_H = 36  # the oxygen clock's badge, beside the status line
CLOCK_MAX = 380  # its widest, in pixels: a long translation shrinks, then is cut
COUNT_DISC = 10  # the radius of a collected marker's disc
COUNT_SIZE = 16  # the font size of a count, shrunk down to COUNT_SMALLEST when room is short
COUNT_SMALLEST = 12
COUNT_GAP = 6  # the least room between one count and the next disc


def seat_name(seat: int, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return texts("picture.player", number=seat + 1)


def status_line(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """Whose turn it is and what they do, or how the game ended, in one line."""
    say = texts
    outcome = view.get("outcome")
    if outcome:
        winners = [seat_name(int(s), names, say) for s in outcome.get("winners") or ()]
        why = str(outcome.get("reason"))
        key = f"picture.sector6.reason_{why}"
        reason = say(key) if say.has(key) else why
        if len(winners) == 1:
            return say("picture.sector6.over_wins", reason=reason, player=winners[0])
        return say("picture.sector6.over_share", reason=reason, players=" & ".join(winners))
    seat = view.get("current_seat")
    who = seat_name(int(seat or 0), names, say)
    step = view.get("step")
    if step == "draw":
        if not view.get("tiles"):
            return say("picture.sector6.draw_first", player=who)
        return say("picture.sector6.draw", player=who)
    if step == "place":
        return say("picture.sector6.place", player=who)
    if step == "act":
        return say("picture.sector6.act", player=who, cell=view.get("pending"))
    if step == "blocked":
        if (view.get("rules") or {}).get("rotations", True):
            left = int(view.get("rotations_left") or 0)
            return say("picture.sector6.blocked", player=who, count=left)
        return say("picture.sector6.blocked_pass", player=who)
    return say("picture.sector6.to_move", player=who)


def clock_text(view: View, texts: Texts = ENGLISH) -> str:
    """The oxygen clock's badge ("Oxygen clock: 4 rounds left"), or "" while it is hidden."""
    clock = view.get("oxygen_clock") or {}
    if not clock.get("shown") or view.get("phase") != "play":
        return ""
    return texts("picture.sector6.clock", count=int(clock.get("rounds_left") or 0))


def markers_text(view: View, texts: Texts = ENGLISH) -> str:
    """Markers free, held and out of reach ("Markers: 6 free · 1 held · 1 out of reach"),
    while the competition runs; the out-of-reach part only when there are some."""
    counts = view.get("markers")
    if not counts or view.get("phase") != "play":  # at the end the outcome says it all
        return ""
    key = "picture.sector6.markers_dead" if counts.get("dead") else "picture.sector6.markers"
    return texts(key, free=counts["free"], held=counts["held"], dead=counts.get("dead", 0))


def last_line(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """What the last turn did, in its action words."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("actions"):
        return ""
    text = f"{seat_name(int(last['seat']), names, texts)}: {', '.join(last['actions'])}"
    if last.get("geared"):
        text += texts("picture.sector6.gears", cells=", ".join(last["geared"]))
    return text


def cards(theme: Sector6Theme, count: int) -> list[tuple[int, int, int]]:
    """(left, top, width) of each player's card, side by side and centred."""
    count = max(1, count)
    width = min(300, (theme.width - (count + 1) * PAD) // count)
    left = (theme.width - count * width - (count - 1) * PAD) // 2
    return [(left + k * (width + PAD), theme.board_height + 14, width) for k in range(count)]


@dataclass(frozen=True)
class Count:
    """One collected-marker count on a card: the disc's centre and the label's left edge."""

    value: int
    disc: tuple[int, int]
    text: str
    at: tuple[int, int]
    size: int


def counts_on_card(
    card: tuple[int, int, int], collected: dict[str, int], prefix: str = "×"
) -> list[Count]:
    """Where a card's four counts go: each label right of its disc, the four spread over
    the card; the font shrinks (then the × goes) before a label could reach the next disc."""
    left, top, width = card
    room = width - 28
    sizes = range(COUNT_SIZE, COUNT_SMALLEST - 1, -1)
    for shown, size in [(p, size) for p in (prefix, "") for size in sizes]:
        texts = [f"{shown}{collected.get(str(v), 0)}" for v in (1, 2, 3, 4)]
        widths = [math.ceil(font(size, False).getlength(t)) + 2 for t in texts]
        gap = (room - sum(2 * COUNT_DISC + 3 + w for w in widths)) / 3
        if gap >= COUNT_GAP:
            break
    gap = max(gap, 0)
    out, x = [], left + 14.0
    for value, text, w in zip((1, 2, 3, 4), texts, widths, strict=True):
        disc = (round(x) + COUNT_DISC, top + 61)
        out.append(Count(value, disc, text, (round(x) + 2 * COUNT_DISC + 3, top + 53), size))
        x += 2 * COUNT_DISC + 3 + w + gap
    return out


def draw_panel(canvas: Canvas, view: View, names: Sequence[str] | None, texts: Texts) -> None:
    theme: Sector6Theme = canvas.theme  # type: ignore[assignment]
    players = list(view.get("players") or ())
    over = view.get("phase") == "over"
    current = None if over else view.get("current_seat")
    winners = set((view.get("outcome") or {}).get("winners") or ()) if over else set()
    building = view.get("phase") == "build"
    letters = seat_letters([str(p.get("colour", "")) for p in players], texts)
    for player, card in zip(players, cards(theme, len(players)), strict=False):
        seat = int(player["seat"])
        x, y, card_w = card
        lit = seat == current or seat in winners
        bg = theme.panel_row if lit else theme.panel
        if lit:
            edge = theme.seat_fill[seat] if seat == current else theme.winner
            canvas.sprite(card_band, card_w, CARD_H, edge, at=(x, y))
        sprite, mask = prisoner_piece(theme, 15, seat, letters[seat], bg)
        canvas.image.paste(sprite, (x + 26 - token_half(15), y + 27 - token_half(15)), mask)
        canvas.text(
            (x + 48, y + 12),
            seat_name(seat, names, texts),
            size=20,
            fg=theme.text,
            bg=bg,
            max_width=card_w - 110,
        )
        canvas.text(
            (x + card_w - 12, y + 6),
            str(player.get("score", 0)),
            size=34,
            fg=theme.text,
            bg=bg,
            anchor="ra",
        )
        if building:
            tiles, entries = int(player["supply_left"]), int(player["entries_left"])
            canvas.text(
                (x + 14, y + 52),
                texts(
                    "picture.sector6.supply",
                    tiles=texts("picture.sector6.tiles", count=tiles),
                    entries=texts("picture.sector6.entries", count=entries),
                ),
                size=15,
                bold=False,
                fg=theme.text_dim,
                bg=bg,
                max_width=card_w - 24,
            )
            continue
        half = token_half(COUNT_DISC)
        for count in counts_on_card(card, player.get("collected") or {}):
            sprite, mask = marker_piece(theme, COUNT_DISC, count.value, bg)
            canvas.image.paste(sprite, (count.disc[0] - half, count.disc[1] - half), mask)
            canvas.text(
                count.at,
                count.text,
                size=count.size,
                bold=False,
                fg=theme.text_dim,
                bg=bg,
            )
    _status(canvas, view, names, texts)


def _status(canvas: Canvas, view: View, names: Sequence[str] | None, texts: Texts) -> None:
    """The status line with the oxygen clock's badge, and the last turn with the counts."""
    theme: Sector6Theme = canvas.theme  # type: ignore[assignment]
    y = theme.board_height + 14 + CARD_H + 18
    room = theme.width - 2 * PAD
    clock = clock_text(view, texts)
    if clock:
        label, size = shrink(clock, 19, CLOCK_MAX - 28)
        w = math.ceil((font(size).getlength(label) + 30) / 10) * 10  # few band sizes
        x = theme.width - PAD - w
        canvas.sprite(card_band, w, CLOCK_H, theme.clock, at=(x, y - 7))
        canvas.text(
            (x + w / 2, y - 7 + CLOCK_H / 2),
            label,
            size=size,
            fg=theme.clock,
            bg=theme.panel_row,
            anchor="mm",
        )
        room -= w + 20
    canvas.text(
        (PAD, y),
        shorten_names(lambda shown: status_line(view, shown, texts), names, 21, room),
        size=21,
        fg=theme.text,
        bg=theme.panel,
        max_width=room,
    )
    room = theme.width - 2 * PAD
    counts = markers_text(view, texts)
    if counts:
        label, size = shrink(counts, 16, room / 2, bold=False)
        room -= canvas.text(
            (theme.width - PAD, y + 36),
            label,
            size=size,
            bold=False,
            fg=theme.text_dim,
            bg=theme.panel,
            anchor="ra",
        )
        room -= 24
    canvas.text(
        (PAD, y + 36),
        last_line(view, names, texts),
        size=16,
        bold=False,
        fg=theme.text_dim,
        bg=theme.panel,
        max_width=room,
    )


@cache
def card_band(theme: Sector6Theme, width: int, height: int, edge: RGB) -> Image.Image:
    """The rounded band behind the player to move (edged in their colour) or a winner."""
    return rounded_band(
        width, height, ground=theme.panel, fill=theme.panel_row, edge=edge, supersample=SS
    )
