"""The Pylons board picture posted after every move.

A render is a copy of a cached base (margin, coordinates, the board with its holes, border
strips and border lines, the panel ground) with small cached pieces pasted on it: swamp cells,
links, pylons, then the panel's labels. Pieces are drawn supersampled once per process,
mapped onto the board's fixed palette, and pasted through a one-bit mask, so a link or a
pylon keeps its smooth edge against the board and never leaves a box around itself. A board
is drawn over the last one this process drew, with only the pieces a move changed drawn
again (`render.overdraw`).

Only the view is read, and a Pylons view has no secrets: every seat gets the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, ENGLISH, Texts, texts_for
from games.pylons.pictures.palette import PYLONS_THEME, PylonsTheme
from render.canvas import (
    Canvas,
    finish_piece,
    fit,
    paste,
    rounded_band,
    shorten_names,
    shrink,
    text_rgb,
    text_width,
    to_indexed,
)
from render.encode import FAST, StoredPalette, build_palette, png_bytes
from render.fonts import drawable, font
from render.overdraw import Boards, Drawn, Op, draw_pieces, piece_op
from render.theme import RGB

View = Mapping[str, Any]
Piece = tuple[Image.Image, Image.Image]  # ('P' picture, '1' mask)

SIZE = 24
SS = 4  # supersampling of the pieces
PAD = 24  # panel padding
LINK_PAD = 8  # room round a link's segment in its piece
PYLON_HALF = 17  # a pylon piece is 2 * PYLON_HALF + 1 pixels square (room for the ring)
FORWARD = ((1, 2), (-1, 2), (2, 1), (-2, 1))  # a link is drawn from its northern end
DIRECTION_KEYS = ("picture.pylons.horizontal", "picture.pylons.vertical")
GROUND_BOARD, GROUND_BLUE, GROUND_RED = 0, 1, 2
# The smallest text of the board: 20 pixels on a board 956 wide reads as 11 once Discord
# shows it about 550 wide (`render.fonts.least_size`).
SMALL = 20
NAME_SIZE = 22  # a player's name on their card
CLOCK_SIZE = SMALL  # the turn clock, after the name on the card of the player to move
CLOCK_MAX = 260  # its widest, in pixels: a longer text is cut
CLOCK_LEAST = 150  # the room a long name leaves it (the name is cut first, down to this)
CLOCK_GAP = 14  # between the name and the clock, and between the clock and the score


def pylons_board_png(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: PylonsTheme = PYLONS_THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> bytes:
    """The board and its panel as PNG bytes. `names` are display names by seat (default
    'Player 1', 'Player 2'); `language` a language code of `data.texts` for the panel;
    `clock` the time the player to move has left, already in words of that language ("42
    minutes left"), drawn on their card after their name (None: no clock, the picture as
    without one); `moves` the last action in words of that language, as the presenter says
    it ("kept the board"), for the panel's last line when it placed no pylon (a pylon's
    line is drawn from the view: its cell and links)."""
    image, drawn = _board(view, names, theme, language, clock, moves, keep=True)
    png = png_bytes(image, FAST, band_edges(theme), known=drawn.known, encoded=drawn.encoded)
    _drawn.keep(drawn)
    return png


@cache
def band_edges(theme: PylonsTheme = PYLONS_THEME) -> tuple[int, ...]:
    """The rows where the board's parts meet, where the PNG's bands start (see
    `render.encode.banded_png`): each row of cells (a pylon stands inside its cell's row),
    and the players' cards (the one to move is lit)."""
    side = board_side(theme)
    cells = [theme.margin + j * theme.cell for j in range(SIZE + 1)]
    return (*cells, side, side + CARD_TOP, side + CARD_TOP + CARD_H)


# ---------------------------------------------------------------------- layout


def board_side(theme: PylonsTheme = PYLONS_THEME) -> int:
    """Width of the picture and height of its square board part."""
    return 2 * theme.margin + SIZE * theme.cell


def cell_ij(name: str) -> tuple[int, int]:
    """(i, j) of a cell name such as 'K12' (column K is i = 10, row 12 is j = 11)."""
    return ord(name[0].upper()) - 65, int(name[1:]) - 1


def cell_origin(i: int, j: int, theme: PylonsTheme = PYLONS_THEME) -> tuple[int, int]:
    """The north-west pixel of cell (i, j)."""
    return theme.margin + i * theme.cell, theme.margin + j * theme.cell


def cell_centre(name: str, theme: PylonsTheme = PYLONS_THEME) -> tuple[int, int]:
    """The pixel at the centre of a named cell: where its pylon stands."""
    x, y = cell_origin(*cell_ij(name), theme)
    return x + theme.cell // 2, y + theme.cell // 2


def seat_name(seat: int, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return texts("picture.player", number=seat + 1)


def _ground(i: int, j: int) -> int:
    """What lies under a pylon: the plain board or one player's border strip."""
    if i in (0, SIZE - 1):
        return GROUND_BLUE
    if j in (0, SIZE - 1):
        return GROUND_RED
    return GROUND_BOARD


def _ground_rgb(theme: PylonsTheme, ground: int) -> RGB:
    return theme.board if ground == GROUND_BOARD else theme.seat_tint[ground - 1]


# ---------------------------------------------------------------------- the picture


def pylons_board_image(
    view: View,
    *,
    names: Sequence[str] | None = None,
    theme: PylonsTheme = PYLONS_THEME,
    language: str = DEFAULT,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> Image.Image:
    """The board as a palette image, before PNG encoding. The clock is drawn with the rest
    of the panel, never into the cached base: its text changes with every post."""
    return _board(view, names, theme, language, clock, moves, keep=False)[0]


def _board(
    view: View,
    names: Sequence[str] | None,
    theme: PylonsTheme,
    language: str,
    clock: str | None,
    moves: Sequence[str] | None,
    *,
    keep: bool,
) -> tuple[Image.Image, Drawn]:
    """The board, drawn over the last board this process drew when there is one and `keep`
    (see `render.overdraw`: a move adds a pylon and its links, and moves the last pylon's
    ring), else on the base; and what to keep of it."""
    image, drawn = draw_pieces(
        _pieces(view, theme), _base(theme), _panel_ground(theme), theme, _drawn, keep=keep
    )
    canvas = Canvas(image, theme, pylons_palette)
    _panel(canvas, view, names, board_side(theme), texts_for(language), clock, moves)
    return image, drawn


DRAWN_KEPT = 2  # boards kept, one per theme: ~0.9 MB each with the scratch
_drawn = Boards(DRAWN_KEPT)


def forget_boards() -> None:
    """Forget the boards kept to draw the next ones over (benchmarks: a process that has not
    drawn this game lately; tests)."""
    _drawn.forget()


@cache
def _panel_ground(theme: PylonsTheme) -> Image.Image:
    """The base below the board, where the panel is drawn afresh on every board."""
    base = _base(theme)
    return base.crop((0, board_side(theme), base.width, base.height))


def _pieces(view: View, theme: PylonsTheme) -> list[Op]:
    """The board's pieces in the order they are drawn: swamp cells, links, pylons."""
    ops: list[Op] = []
    # Pieces are cached per process under keys that include the theme; hashing a theme costs
    # more than pasting, so each render looks each kind of piece up once.
    swamp_of: dict[int, Piece] = {}
    link_of: dict[tuple[int, int, bool], Piece] = {}
    pylon_of: dict[tuple[int, int, bool], Piece] = {}
    swamps = {cell_ij(name) for name in view.get("swamp_cells") or ()}
    for i, j in sorted(swamps):
        sides = (
            ((i, j - 1) in swamps)
            | ((i + 1, j) in swamps) << 1
            | ((i, j + 1) in swamps) << 2
            | ((i - 1, j) in swamps) << 3
        )
        if sides not in swamp_of:
            swamp_of[sides] = swamp_piece(theme, sides)
        sprite = swamp_of[sides][0]  # a whole cell: pasted with no mask
        ops.append(piece_op(("swamp", sides), (sprite, None), cell_origin(i, j, theme)))
    outcome = view.get("outcome") or {}
    network = set((outcome.get("details") or {}).get("network") or ())
    half = theme.cell // 2
    for link in view.get("links") or ():
        a, b = link["cells"]
        (ai, aj), (bi, bj) = cell_ij(a), cell_ij(b)
        if bj < aj:
            ai, aj, bi, bj = bi, bj, ai, aj
        k = FORWARD.index((bi - ai, bj - aj))
        won = a in network and b in network
        key = (k, int(link["seat"]), won)
        if key not in link_of:
            link_of[key] = link_piece(theme, *key)
        x, y = cell_origin(ai, aj, theme)
        dx = FORWARD[k][0] * theme.cell
        at = (x + half + min(0, dx) - LINK_PAD, y + half - LINK_PAD)
        ops.append(piece_op(("link", *key), link_of[key], at))
    last = (view.get("last") or {}).get("cell")
    for pylon in view.get("pylons") or ():
        name = pylon["cell"]
        i, j = cell_ij(name)
        key = (int(pylon["seat"]), _ground(i, j), name == last)
        if key not in pylon_of:
            pylon_of[key] = pylon_piece(theme, *key)
        x, y = cell_origin(i, j, theme)
        at = (x + half - PYLON_HALF, y + half - PYLON_HALF)
        ops.append(piece_op(("pylon", *key), pylon_of[key], at))
    return ops


# ---------------------------------------------------------------------- panel


def status_line(view: View, names: Sequence[str] | None, texts: Texts = ENGLISH) -> str:
    """Whose turn it is, or how the game ended, in one line."""
    outcome = view.get("outcome")
    if outcome:
        winners = list(outcome.get("winners") or [])
        scores = list(outcome.get("scores") or [0, 0])
        if outcome.get("reason") == "connected" and len(winners) == 1:
            key = (
                "picture.pylons.links_horizontal"
                if winners[0] == 0
                else "picture.pylons.links_vertical"
            )
            return texts(key, player=seat_name(winners[0], names, texts))
        if len(winners) == 1:
            return texts(
                "picture.pylons.wins_on_score",
                player=seat_name(winners[0], names, texts),
                high=max(scores),
                low=min(scores),
            )
        return texts("picture.pylons.draw", score=scores[0])
    seat = int(view.get("current_seat") or 0)
    who = seat_name(seat, names, texts)
    if view.get("phase") == "choose":
        return texts("picture.pylons.chooses", player=who)
    left = view.get("pylons_left", 0)
    return texts("picture.pylons.to_play", player=who, move=view.get("move", "?"), count=left)


def last_line(
    view: View,
    names: Sequence[str] | None,
    texts: Texts = ENGLISH,
    moves: Sequence[str] | None = None,
) -> str:
    """What the last action did: a pylon's cell and links, or `moves`, the action in words
    from the game's presenter (the opening choice), never its typed form."""
    last = view.get("last") or {}
    if last.get("seat") is None or not last.get("action"):
        return ""
    who = seat_name(int(last["seat"]), names, texts)
    if not last.get("cell"):
        return texts("picture.last_move", player=who, moves="; ".join(moves)) if moves else ""
    links = len(last.get("links") or [])
    text = texts("picture.pylons.last", player=who, cell=last["cell"], count=links)
    blocked = len(last.get("blocked") or [])
    if blocked:
        text += texts("picture.pylons.blocked", count=blocked)
    return text


def _panel(
    canvas: Canvas[PylonsTheme],
    view: View,
    names: Sequence[str] | None,
    top: int,
    texts: Texts,
    clock: str | None = None,
    moves: Sequence[str] | None = None,
) -> None:
    """The two players' cards (the one to move lit, with their `clock` after the name when
    there is one), then the status line and, under it, the last move."""
    theme = canvas.theme
    width = canvas.image.width
    card_w = (width - 3 * PAD) // 2
    over = view.get("phase") == "over"
    current = None if over else view.get("current_seat")
    winners = set((view.get("outcome") or {}).get("winners") or ()) if over else set()
    players = {int(p["seat"]): p for p in view.get("players") or ()}
    for seat in (0, 1):
        player = players.get(seat, {})
        x = PAD + seat * (card_w + PAD)
        y = top + CARD_TOP
        lit = seat == current or (seat in winners and len(winners) == 1)
        bg = theme.panel_row if lit else theme.panel
        if lit:
            canvas.sprite(card_band, card_w, CARD_H, seat if seat == current else -1, at=(x, y))
        sprite, mask = pylon_piece(theme, seat, -1 if lit else -2, False)
        paste(canvas.image, sprite, (x + 10, y + CARD_H // 2 - PYLON_HALF), mask)
        name = seat_name(seat, names, texts)
        name_room: float = card_w - 160
        label = drawable(clock) if clock is not None and seat == current else ""
        if label:
            right = x + card_w - 14 - _score_width(player, texts) - CLOCK_GAP
            name_room, label, clock_size = _name_and_clock(name, label, right - x - 52, name_room)
        name_w = canvas.text(
            (x + 52, y + 10),
            name,
            size=NAME_SIZE,
            fg=theme.text,
            bg=bg,
            max_width=name_room,
        )
        if label:
            baseline = y + 10 + font(NAME_SIZE).getmetrics()[0]
            canvas.text(
                (x + 52 + name_w + CLOCK_GAP, baseline - font(clock_size, False).getmetrics()[0]),
                label,
                size=clock_size,
                bold=False,
                fg=theme.text_dim,
                bg=bg,
            )
        pylons = int(player.get("pylons", 0))
        goal = texts("picture.pylons.pylons", direction=texts(DIRECTION_KEYS[seat]), count=pylons)
        goal = fit(goal, SMALL, card_w - 52 - 14 - _score_width(player, texts) - 12, bold=False)
        canvas.text(
            (x + 52, y + 40),
            goal,
            size=SMALL,
            bold=False,
            fg=theme.text_dim,
            bg=bg,
        )
        canvas.text(
            (x + card_w - 14, y + 4),
            texts("picture.pylons.score"),
            size=SMALL,
            bold=False,
            fg=theme.text_dim,
            bg=bg,
            anchor="ra",
        )
        canvas.text(
            (x + card_w - 14, y + 27),
            str(player.get("score", 0)),
            size=32,
            fg=theme.text,
            bg=bg,
            anchor="ra",
        )
    y = top + 12 + CARD_H + 12
    room = width - 2 * PAD
    canvas.text(
        (PAD, y),
        shorten_names(lambda shown: status_line(view, shown, texts), names, 20, room),
        size=20,
        fg=theme.text,
        bg=theme.panel,
        max_width=room,
    )
    canvas.text(
        (PAD, y + 30),
        shorten_names(lambda shown: last_line(view, shown, texts, moves), names, SMALL, room),
        size=SMALL,
        bold=False,
        fg=theme.text_dim,
        bg=theme.panel,
        max_width=room,
    )


CARD_TOP, CARD_H = 12, 68  # the players' cards, from the top of the panel


def _score_width(player: Mapping[str, Any], texts: Texts) -> int:
    """How far the score's label and number reach in from the card's right edge."""
    label = text_width(texts("picture.pylons.score"), SMALL, False)
    number = text_width(str(player.get("score", 0)), 32)
    return math.ceil(max(label, number))


def _name_and_clock(name: str, clock: str, room: float, name_max: float) -> tuple[float, str, int]:
    """(the name's room, the clock's text and font size) when both share `room` pixels of
    the card's first line, the name never wider than `name_max` as without a clock: the name
    keeps its width while the clock gets at least CLOCK_LEAST (or all it needs, when less);
    a name too long for that is cut first, then the clock shrinks, then it is cut."""
    name_w = min(text_width(name, NAME_SIZE) + 2, name_max)
    clock_w = min(text_width(clock, CLOCK_SIZE, False), CLOCK_MAX)
    name_room = max(0.0, min(name_w, room - CLOCK_GAP - min(clock_w, CLOCK_LEAST)))
    clock_room = min(room - min(name_w, name_room) - CLOCK_GAP, CLOCK_MAX)
    label, size = shrink(clock, CLOCK_SIZE, clock_room, bold=False, smallest=SMALL)
    return name_room, label, size


@cache
def card_band(theme: PylonsTheme, width: int, height: int, seat: int) -> Image.Image:
    """The rounded band behind the player to move (edged in their colour) or the winner."""
    edge = theme.seat_fill[seat] if seat >= 0 else theme.winner
    return rounded_band(
        width, height, ground=theme.panel, fill=theme.panel_row, edge=edge, supersample=SS
    )


# ---------------------------------------------------------------------- pieces


def _finish(theme: PylonsTheme, img: Image.Image, mask: Image.Image) -> Piece:
    """Reduce a supersampled piece and its coverage mask; map the piece onto the palette."""
    return finish_piece(img, mask, pylons_palette(theme), supersample=SS, cover_at=80)


def _pylon_rgb(
    theme: PylonsTheme, seat: int, ground: RGB, ring: bool
) -> tuple[Image.Image, Image.Image]:
    side = (2 * PYLON_HALF + 1) * SS
    img = Image.new("RGB", (side, side), ground)
    mask = Image.new("L", (side, side), 0)
    c = side / 2
    targets = (ImageDraw.Draw(img), ImageDraw.Draw(mask))
    if ring:
        r = 16.2 * SS
        ring_box, ring_width = (c - r, c - r, c + r, c + r), round(3.2 * SS)
        targets[0].ellipse(ring_box, outline=theme.last_ring, width=ring_width)
        targets[1].ellipse(ring_box, outline=255, width=ring_width)
    fill = theme.seat_fill[seat]
    if seat == 0:
        r = 10.5 * SS
        box = (c - r, c - r, c + r, c + r)
        targets[0].ellipse(box, fill=fill, outline=theme.ink, width=2 * SS)
        targets[1].ellipse(box, fill=255)
        r = 3.2 * SS
        targets[0].ellipse((c - r, c - r, c + r, c + r), fill=theme.seat_tint[0])
    else:
        h = 9.5 * SS
        box = (c - h, c - h, c + h, c + h)
        targets[0].rounded_rectangle(box, radius=2 * SS, fill=fill, outline=theme.ink, width=2 * SS)
        targets[1].rounded_rectangle(box, radius=2 * SS, fill=255)
        h = 2.8 * SS
        targets[0].rectangle((c - h, c - h, c + h, c + h), fill=theme.seat_tint[1])
    return img, mask


@cache
def pylon_piece(theme: PylonsTheme, seat: int, ground: int, ring: bool) -> Piece:
    """A pylon: player 1's a blue disc, player 2's a red square, each with a light centre mark;
    `ring` circles the last one placed. `ground` is what the edge blends into (a board
    ground, or -1/-2 for the panel's highlighted and plain backgrounds)."""
    if ground == -1:
        colour = theme.panel_row
    elif ground == -2:
        colour = theme.panel
    else:
        colour = _ground_rgb(theme, ground)
    return _finish(theme, *_pylon_rgb(theme, seat, colour, ring))


def _link_rgb(theme: PylonsTheme, k: int, seat: int, won: bool) -> tuple[Image.Image, Image.Image]:
    dx, dy = FORWARD[k]
    c = theme.cell
    w = abs(dx) * c + 2 * LINK_PAD + 1
    h = dy * c + 2 * LINK_PAD + 1
    img = Image.new("RGB", (w * SS, h * SS), theme.board)
    mask = Image.new("L", (w * SS, h * SS), 0)
    ax = LINK_PAD - min(0, dx * c)
    ends = [
        ((ax + 0.5) * SS, (LINK_PAD + 0.5) * SS),
        ((ax + dx * c + 0.5) * SS, (LINK_PAD + dy * c + 0.5) * SS),
    ]
    draw, cover = ImageDraw.Draw(img), ImageDraw.Draw(mask)
    outer = 12 if won else 8
    if won:
        draw.line(ends, fill=theme.win_glow, width=outer * SS)
    else:
        draw.line(ends, fill=theme.ink, width=outer * SS)
    draw.line(ends, fill=theme.seat_fill[seat], width=5 * SS)
    cover.line(ends, fill=255, width=outer * SS)
    return img, mask


@cache
def link_piece(theme: PylonsTheme, k: int, seat: int, won: bool) -> Piece:
    """A link from its northern pylon along forward direction `k`: a band in the player's
    colour with a dark rim, or a gold one on the network that won."""
    return _finish(theme, *_link_rgb(theme, k, seat, won))


def _swamp_rgb(theme: PylonsTheme, sides: int) -> Image.Image:
    c = theme.cell
    img = Image.new("RGB", (c * SS, c * SS), theme.swamp)
    draw = ImageDraw.Draw(img)
    edge = 3 * SS
    if not sides & 1:
        draw.rectangle((0, 0, c * SS, edge - 1), fill=theme.swamp_dark)
    if not sides & 2:
        draw.rectangle((c * SS - edge, 0, c * SS, c * SS), fill=theme.swamp_dark)
    if not sides & 4:
        draw.rectangle((0, c * SS - edge, c * SS, c * SS), fill=theme.swamp_dark)
    if not sides & 8:
        draw.rectangle((0, 0, edge - 1, c * SS), fill=theme.swamp_dark)
    for row, shift in ((0.36, -0.12), (0.68, 0.08)):
        y = row * c * SS
        x0 = (0.22 + shift) * c * SS
        width = 0.5 * c * SS
        for n in range(2):
            left = x0 + n * width / 2
            draw.arc(
                (left, y - 0.1 * c * SS, left + width / 2, y + 0.1 * c * SS),
                start=180 if n == 0 else 0,
                end=360 if n == 0 else 180,
                fill=theme.swamp_dark,
                width=round(2.2 * SS),
            )
    return img


@cache
def swamp_piece(theme: PylonsTheme, sides: int) -> Piece:
    """One swamp cell with waves; `sides` has a bit per neighbour that is swamp too (N, E, S,
    W), and every other side gets a dark bank, so a patch reads as one pool."""
    img = _swamp_rgb(theme, sides)
    return _finish(theme, img, Image.new("L", img.size, 255))


def _hole_rgb(theme: PylonsTheme, ground: RGB) -> Image.Image:
    c = theme.cell
    img = Image.new("RGB", (c * SS, c * SS), ground)
    r = 2.6 * SS
    m = c * SS / 2
    ImageDraw.Draw(img).ellipse((m - r, m - r, m + r, m + r), fill=theme.hole)
    return img.reduce(SS)


# ---------------------------------------------------------------------- base and palette


def _base_rgb(theme: PylonsTheme) -> Image.Image:
    """Margin, coordinates, board, holes, border strips and lines, corners, panel ground."""
    side = board_side(theme)
    c, o = theme.cell, theme.margin
    img = Image.new("RGB", (side, side + theme.panel_height), theme.background)
    draw = ImageDraw.Draw(img)
    far = o + SIZE * c
    draw.rectangle((o - 3, o - 3, far + 2, far + 2), fill=theme.board_edge)
    draw.rectangle((o, o, far - 1, far - 1), fill=theme.board)
    holes = {g: _hole_rgb(theme, _ground_rgb(theme, g)) for g in (0, 1, 2)}
    for j in range(SIZE):
        for i in range(SIZE):
            x, y = cell_origin(i, j, theme)
            if i in (0, SIZE - 1) and j in (0, SIZE - 1):
                draw.rectangle((x, y, x + c - 1, y + c - 1), fill=theme.corner)
                continue
            img.paste(holes[_ground(i, j)], (x, y))
    line = 4
    for x in (o + c, o + (SIZE - 1) * c):  # player 1's border lines, between A|B and W|X
        draw.rectangle(
            (x - line // 2, o + c, x + line // 2 - 1, far - c - 1), fill=theme.seat_fill[0]
        )
    for y in (o + c, o + (SIZE - 1) * c):  # player 2's, between rows 1|2 and 23|24
        draw.rectangle(
            (o + c, y - line // 2, far - c - 1, y + line // 2 - 1), fill=theme.seat_fill[1]
        )
    f = font(SMALL)
    half = o // 2
    for n in range(SIZE):
        mid = o + n * c + c // 2
        letter, digit = chr(65 + n), str(n + 1)
        edge = n in (0, SIZE - 1)
        letter_ink = theme.seat_label[0] if edge else theme.coordinate_text
        digit_ink = theme.seat_label[1] if edge else theme.coordinate_text
        draw.text((mid, half), letter, fill=letter_ink, font=f, anchor="mm")
        draw.text((mid, side - half), letter, fill=letter_ink, font=f, anchor="mm")
        draw.text((half, mid), digit, fill=digit_ink, font=f, anchor="mm")
        draw.text((side - half, mid), digit, fill=digit_ink, font=f, anchor="mm")
    draw.rectangle((0, side, side, side + theme.panel_height), fill=theme.panel)
    return img


@cache
def _base(theme: PylonsTheme) -> Image.Image:
    return to_indexed(_base_rgb(theme), pylons_palette(theme))


@cache
def pylons_palette(theme: PylonsTheme) -> Image.Image:
    """The fixed palette Pylons boards are encoded with. The default theme's is read from its
    file: built, it would cost every process that draws boards, the bot and each drawing
    worker, about a third of a second of CPU as it starts."""
    return STORED_PALETTE.load() if theme == PYLONS_THEME else specimen_palette(theme)


def specimen_palette(theme: PylonsTheme) -> Image.Image:
    """The palette built from a specimen of every piece: the truth the stored file is
    checked against, and the palette of any theme but the default."""
    return build_palette(_specimen(theme), theme.pylons_colours())


STORED_PALETTE = StoredPalette(
    Path(__file__).with_name("palette.txt"), "Pylons board", partial(specimen_palette, PYLONS_THEME)
)


def _specimen(theme: PylonsTheme) -> Image.Image:
    tiles: list[Image.Image] = []
    for seat in (0, 1):
        for ring in (False, True):
            for ground in (theme.board, *theme.seat_tint, theme.panel, theme.panel_row):
                tiles.append(_pylon_rgb(theme, seat, ground, ring)[0].reduce(SS))
        for k in range(4):
            for won in (False, True):
                tiles.append(_link_rgb(theme, k, seat, won)[0].reduce(SS))
        tiles.append(card_band(theme, 200, CARD_H, seat))
    for sides in (0, 5, 10, 15):
        tiles.append(_swamp_rgb(theme, sides).reduce(SS))
    base = _base_rgb(theme)
    width = base.width
    rows, x, y, row_h = [], 0, base.height, 0
    for tile in tiles:
        if x + tile.width > width:
            x, y, row_h = 0, y + row_h, 0
        rows.append((tile, (x, y)))
        x += tile.width
        row_h = max(row_h, tile.height)
    texts = [
        ("Player 12 to play · move 0123456789 pylons left", 20, True, theme.text, theme.panel),
        ("Game over: a draw wins on score links", 20, True, theme.text, theme.panel),
        ("Player 1234567890 score", 22, True, theme.text, theme.panel_row),
        ("Player 1234567890", 22, True, theme.text, theme.panel),
        ("0123456789", 32, True, theme.text, theme.panel_row),
        ("0123456789", 32, True, theme.text, theme.panel),
        (
            "links west ↔ east north ↕ south · pylons score",
            SMALL,
            False,
            theme.text_dim,
            theme.panel_row,
        ),
        (
            "links west ↔ east north ↕ south · pylons score",
            SMALL,
            False,
            theme.text_dim,
            theme.panel,
        ),
        ("Player: K12, 2 links, 1 blocked mirrored", SMALL, False, theme.text_dim, theme.panel),
    ]
    y += row_h
    sheet = Image.new("RGB", (width, y + 40 * len(texts)), theme.panel)
    sheet.paste(base, (0, 0))
    for tile, at in rows:
        sheet.paste(tile, at)
    for n, (text, size, bold, fg, bg) in enumerate(texts):
        sheet.paste(text_rgb(text, size, bold, fg, bg), (4, y + 40 * n))
    return sheet


SEAT_SIZE = (560, 200)


@cache
def pylons_seat_png(
    seat: int,
    colour: str,
    goal: str,
    *,
    theme: PylonsTheme = PYLONS_THEME,
    language: str = DEFAULT,
) -> bytes:
    """A player's pylon as the board shows it, with its colour and the edges to link (the
    start-of-game message; Pylons hides nothing, so this only makes every game begin alike)."""
    width, height = SEAT_SIZE
    img = Image.new("RGB", (width, height), theme.panel)
    big, mask = _pylon_rgb(theme, seat, theme.panel, False)
    side = 3 * (2 * PYLON_HALF + 1)
    piece = big.resize((side, side), Image.Resampling.LANCZOS)
    shape = mask.resize((side, side), Image.Resampling.LANCZOS)
    img.paste(piece, (40, (height - side) // 2), shape)
    draw = ImageDraw.Draw(img)
    x = 40 + side + 36
    texts = texts_for(language)
    room = width - x - 24
    heading = fit(texts("picture.pylons.your_pylons"), 22, room, bold=False)
    draw.text((x, 40), heading, fill=theme.text_dim, font=font(22, False))
    key = f"picture.colours.{colour}"
    name = texts(key) if texts.has(key) else colour
    name, size = shrink(name[:1].upper() + name[1:], 46, room)
    draw.text((x, 72), name, fill=theme.seat_fill[seat], font=font(size))
    goal_text, goal_size = shrink(texts("picture.pylons.goal", goal=goal), 18, room, bold=False)
    draw.text((x, 134), goal_text, fill=theme.text_dim, font=font(goal_size, False))
    return png_bytes(img)
