"""The panel under the Sector 6 maze: a card per player (pawn, name, score, and either the
pieces left to place or the markers collected by value), the status line, the last turn in words,
the marker counts and the oxygen clock's badge.

Where each part goes, and the band behind a lit card, are in `panel_layout`;
the pawns and discs are the board's own pieces (`sprites`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from data.texts import ENGLISH, Texts
from games.sector6.pictures.palette import ground, sector6_palette
from games.sector6.pictures.panel_layout import (
    CARD_H,
    CLOCK_H,
    CLOCK_MAX,
    COUNT_DISC,
    TURN_CLOCK_GAP,
    TURN_CLOCK_MAX,
    TURN_CLOCK_SHARE,
    TURN_CLOCK_SIZE,
    card_band,
    cards,
    counts_on_card,
)
from games.sector6.pictures.sprites import marker_piece, prisoner_piece, supply_piece, tile_piece
from games.sector6.pictures.style import PAD, SMALL, Sector6Theme, View, hex_half, token_half
from games.sector6.pictures.tokens import seat_letters
from render.canvas import Canvas, paste, shorten_names, shrink, wrap
from render.fonts import drawable, font
from render.theme import RGB


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
    rotations = bool((view.get("rules") or {}).get("rotations", True))
    if step == "draw":
        if not view.get("tiles"):
            return say("picture.sector6.draw_first", player=who)
        return say("picture.sector6.draw", player=who)
    if step == "place":
        return say("picture.sector6.place", player=who)
    if step == "act":  # novice mode has no rotations: the picture offers none
        key = "picture.sector6.act" if rotations else "picture.sector6.act_novice"
        return say(key, player=who, cell=view.get("pending"))
    if step == "blocked":
        if rotations:
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


def last_line(
    view: View,
    names: Sequence[str] | None,
    texts: Texts = ENGLISH,
    moves: Sequence[str] | None = None,
) -> str:
    """What the last turn did: `moves`, its actions in words from the game's presenter
    (never their typed form), and the tiles its gears turned. Without `moves`, empty."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("actions") or not moves:
        return ""
    who = seat_name(int(last["seat"]), names, texts)
    text = texts("picture.last_move", player=who, moves="; ".join(moves))
    if last.get("geared"):
        text += texts("picture.sector6.gears", cells=", ".join(last["geared"]))
    return text


def draw_panel(
    canvas: Canvas[Sector6Theme],
    view: View,
    names: Sequence[str] | None,
    texts: Texts,
    turn_clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> None:
    """The players' cards, then the status line (with `turn_clock`, the time the player to
    move has left, when there is one) and the last turn (`moves`: see `last_line`)."""
    theme = canvas.theme
    players = list(view.get("players") or ())
    over = view.get("phase") == "over"
    current = None if over else view.get("current_seat")
    winners = set((view.get("outcome") or {}).get("winners") or ()) if over else set()
    building = view.get("phase") == "build"
    letters = seat_letters([str(p.get("colour", "")) for p in players], texts)
    for player, card in zip(players, cards(theme, len(players)), strict=False):
        seat = int(player["seat"])
        lit = seat == current or seat in winners
        edge = (theme.seat_fill[seat] if seat == current else theme.winner) if lit else None
        supply = (int(player["supply_left"]), int(player["entries_left"])) if building else None
        collected = tuple(sorted((player.get("collected") or {}).items()))
        x, y, card_w = card
        piece = _card_piece(
            canvas.theme,
            card_w,
            seat,
            seat_name(seat, names, texts),
            str(player.get("score", 0)),
            edge,
            letters[seat],
            supply,
            collected,
        )
        paste(canvas.image, piece, (x - CARD_MARGIN, y - CARD_MARGIN))
    _status(canvas, view, names, texts, turn_clock, moves)


CARD_MARGIN = 8  # drawn round a card with it: less than half the room between two cards


@lru_cache(maxsize=256)  # a few games' players' cards: ~30 kB each
def _card_piece(
    theme: Sector6Theme,
    card_w: int,
    seat: int,
    name: str,
    score: str,
    edge: RGB | None,
    letter: str,
    supply: tuple[int, int] | None,
    collected: tuple[tuple[str, int], ...],
) -> Image.Image:
    """A player's card on the panel's ground, with a margin round it: drawn once for what it
    shows and pasted on every board that shows the same (a move changes one or two cards).
    All it shows is in the key, and all of it public: the name, the score, the lit band
    (`edge`, None when not lit), the pawn's `letter`, the pieces left to place while
    building (`supply`) or the markers collected."""
    m = CARD_MARGIN
    top = theme.board_height  # the panel's ground is all one colour
    image = ground(theme).crop((0, top, card_w + 2 * m, top + CARD_H + 2 * m))
    canvas = Canvas(image, theme, sector6_palette)
    card = (m, m, card_w)
    x, y = m, m
    bg = theme.panel_row if edge is not None else theme.panel
    if edge is not None:
        canvas.sprite(card_band, card_w, CARD_H, edge, at=(x, y))
    sprite, mask = prisoner_piece(theme, 15, seat, letter, bg)
    paste(canvas.image, sprite, (x + 26 - token_half(15), y + 27 - token_half(15)), mask)
    canvas.text((x + 48, y + 12), name, size=20, fg=theme.text, bg=bg, max_width=card_w - 110)
    canvas.text((x + card_w - 12, y + 6), score, size=34, fg=theme.text, bg=bg, anchor="ra")
    if supply is not None:
        _supply(canvas, card, seat, supply, bg)
        return image
    half = token_half(COUNT_DISC)
    for count in counts_on_card(card, dict(collected)):
        sprite, mask = marker_piece(theme, COUNT_DISC, count.value, bg)
        paste(canvas.image, sprite, (count.disc[0] - half, count.disc[1] - half), mask)
        canvas.text(count.at, count.text, size=count.size, bold=False, fg=theme.text_dim, bg=bg)
    return image


SUPPLY_RADIUS = 15  # the hexagons that count a player's pieces left to place


def _supply(
    canvas: Canvas[Sector6Theme],
    card: tuple[int, int, int],
    seat: int,
    left: tuple[int, int],
    bg: RGB,
) -> None:
    """What a player has left to place while the maze is built, drawn as the board draws
    it: a maze tile and one of their entry points (a grey tile ringed in their colour), each
    with its count, on the line where the race shows the markers collected. No words: a card
    of four has no room for them at a readable size in every language, and the status line
    says what to do with them."""
    theme = canvas.theme
    x, y, _ = card
    half_w, half_h = hex_half(SUPPLY_RADIUS)
    pieces = (supply_piece(theme, SUPPLY_RADIUS), tile_piece(theme, SUPPLY_RADIUS, seat, 0))
    at = x + 14
    for (sprite, mask), count in zip(pieces, left, strict=True):
        paste(canvas.image, sprite, (at, y + 61 - half_h), mask)
        at += 2 * half_w + 3
        at += canvas.text(
            (at, y + 50), f"×{count}", size=SMALL, bold=False, fg=theme.text_dim, bg=bg
        )
        at += 24


def _status(
    canvas: Canvas[Sector6Theme],
    view: View,
    names: Sequence[str] | None,
    texts: Texts,
    turn_clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> None:
    """The status line with the oxygen clock's badge, and the last turn with the counts.

    The turn clock goes at the right end of the status line (left of the oxygen badge when
    that shows), above the marker counts: the status names the player to move, and the clock
    says how long they have, in the muted colour of the panel's secondary words. It is not a
    badge, so it is never mistaken for the oxygen clock, which counts rounds for everyone."""
    theme = canvas.theme
    y = theme.board_height + 14 + CARD_H + 18
    room = theme.width - 2 * PAD
    clock = clock_text(view, texts)
    if clock:
        label, size = shrink(clock, 20, CLOCK_MAX - 28, smallest=SMALL)
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
    if turn_clock is not None and view.get("phase") != "over":
        words = drawable(turn_clock)
        label, size = shrink(
            words, TURN_CLOCK_SIZE, min(TURN_CLOCK_MAX, room * TURN_CLOCK_SHARE), smallest=SMALL
        )
        if words:
            baseline = y + font(21).getmetrics()[0]
            room -= TURN_CLOCK_GAP + canvas.text(
                (PAD + room, baseline - font(size).getmetrics()[0]),
                label,
                size=size,
                fg=theme.text_dim,
                bg=theme.panel,
                anchor="ra",
            )
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
        label, size = shrink(counts, SMALL, room / 2, bold=False, smallest=SMALL)
        room -= canvas.text(
            (theme.width - PAD, y + 34),
            label,
            size=size,
            bold=False,
            fg=theme.text_dim,
            bg=theme.panel,
            anchor="ra",
        )
        room -= 24
    said = shorten_names(lambda shown: last_line(view, shown, texts, moves), names, SMALL, 2 * room)
    for n, line in enumerate(wrap(said, SMALL, room, LAST_LINES, bold=False)):
        canvas.text(
            (PAD, y + 34 + n * LAST_STEP),
            line,
            size=SMALL,
            bold=False,
            fg=theme.text_dim,
            bg=theme.panel,
        )


LAST_LINES, LAST_STEP = 2, 26  # the last turn: a move and a rotation said in words
