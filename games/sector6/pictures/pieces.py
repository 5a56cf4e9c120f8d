"""Pictures of Sector 6 sent to one player only: the tile they drew, and the colour and shape
of their prisoners.

Both go out as ephemeral or direct messages, once per use, so they are drawn in plain RGB
from the board's own cached pieces (the same walls, floors and tokens as on the board, so a
player recognises them there) and take the slower, smaller PNG encoding. Only the data given
is drawn: the drawn tile's face comes from its drawer's own view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, Texts, texts_for
from games.sector6.pictures.sprites import prisoner_piece, tile_piece
from games.sector6.pictures.style import SECTOR6_THEME, SIDES, Sector6Theme, token_half
from games.sector6.pictures.tokens import seat_letters
from render.canvas import fit, shrink
from render.encode import png_bytes
from render.fonts import font

TURNS = (0, 60, 120, 180, 240, 300)  # the rotations a drawn tile may be placed at
TILE_RADIUS = 74
SLOT_W, SLOT_H = 190, 150  # one turn of the tile: the hexagon and its label below
PAD, TITLE_H, LABEL_H = 24, 56, 52
COLUMNS = 3
SEAT_SIZE = (560, 200)
SEAT_TOKEN = 40


def turned_mask(walls: list[str] | tuple[str, ...], degrees: int) -> int:
    """The walls as a bit mask (N first, clockwise) after turning `degrees` clockwise: the
    wall on side i moves to side i + 1 per 60 degrees, as the engine turns tiles."""
    mask = 0
    for side in walls:
        mask |= 1 << SIDES.index(side)
    steps = degrees // 60 % 6
    return ((mask << steps) | (mask >> (6 - steps))) & 0b111111


def tile_slot(i: int) -> tuple[int, int, int, int]:
    """The box of the i-th turn (0 = r0 ... 5 = r300) in the drawn-tile picture."""
    x = PAD + (i % COLUMNS) * SLOT_W
    y = PAD + TITLE_H + (i // COLUMNS) * (SLOT_H + LABEL_H)
    return x, y, x + SLOT_W, y + SLOT_H


def _paste(canvas: Image.Image, piece: tuple[Image.Image, Image.Image], centre: tuple[int, int]):
    sprite, mask = piece
    x, y = centre[0] - sprite.width // 2, centre[1] - sprite.height // 2
    canvas.paste(sprite.convert("RGB"), (x, y), mask)


def _word(texts: Texts, table: str, name: str) -> str:
    """A word of the game data in `texts`' language, or the name itself when unknown."""
    key = f"{table}.{name}"
    return texts(key) if texts.has(key) else name


def sector6_tile_png(
    drawn: Mapping[str, Any], *, theme: Sector6Theme = SECTOR6_THEME, language: str = DEFAULT
) -> bytes:
    """The drawn tile in its six turns 0° to 300°, so its drawer can pick one; a turn that
    looks exactly like an earlier one says so (a tile with facing walls repeats itself)."""
    walls = list(drawn.get("walls") or ())
    value = int(drawn.get("value") or 0)
    width = 2 * PAD + COLUMNS * SLOT_W
    rows = (len(TURNS) + COLUMNS - 1) // COLUMNS
    height = PAD + TITLE_H + rows * (SLOT_H + LABEL_H)
    img = Image.new("RGB", (width, height), theme.background)
    draw = ImageDraw.Draw(img)
    texts = texts_for(language)
    colour = str(drawn.get("colour") or "")
    if colour:
        name = _word(texts, "picture.colours", colour)
        title = texts("picture.sector6.tile", colour=name, value=value)
    else:
        title = texts("picture.sector6.tile_plain")
    walls_text = texts("picture.sector6.walls", count=len(walls))
    room = width - 2 * PAD - font(18, False).getlength(walls_text) - 16
    title, title_size = shrink(title, 28, room)
    draw.text((PAD, PAD - 6), title, fill=theme.text, font=font(title_size))
    draw.text(
        (width - PAD, PAD + 2),
        walls_text,
        fill=theme.text_dim,
        font=font(18, False),
        anchor="ra",
    )
    seen: dict[int, int] = {}
    for i, degrees in enumerate(TURNS):
        mask = turned_mask(walls, degrees)
        x0, y0, x1, y1 = tile_slot(i)
        centre = ((x0 + x1) // 2, (y0 + y1) // 2)
        _paste(img, tile_piece(theme, TILE_RADIUS, 3 + value, mask), centre)
        label_y = y1 + 4
        draw.text((centre[0], label_y), f"{degrees}°", fill=theme.text, font=font(26), anchor="ma")
        same = seen.setdefault(mask, degrees)
        if same != degrees:
            draw.text(
                (centre[0], label_y + 30),
                texts("picture.same_as", degrees=same),
                fill=theme.text_dim,
                font=font(14, False),
                anchor="ma",
            )
    return png_bytes(img)


def sector6_seat_png(
    view: Mapping[str, Any],
    seat: int,
    *,
    theme: Sector6Theme = SECTOR6_THEME,
    language: str = DEFAULT,
) -> bytes:
    """A seat's prisoner pawn as the board shows it, with its colour, shape and letter named."""
    player = view["players"][seat]
    width, height = SEAT_SIZE
    img = Image.new("RGB", (width, height), theme.background)
    draw = ImageDraw.Draw(img)
    texts = texts_for(language)
    letter = seat_letters([str(p["colour"]) for p in view["players"]], texts)[seat]
    half = token_half(SEAT_TOKEN)
    _paste(img, prisoner_piece(theme, SEAT_TOKEN, seat, letter), (PAD + half, height // 2))
    x = 2 * PAD + 2 * half
    room = width - x - PAD
    heading = fit(texts("picture.sector6.your_prisoners"), 22, room, bold=False)
    draw.text((x, 44), heading, fill=theme.text_dim, font=font(22, False))
    name = _word(texts, "picture.colours", str(player["colour"]))
    name, name_size = shrink(name[:1].upper() + name[1:], 46, room)
    draw.text((x, 76), name, fill=theme.text, font=font(name_size))
    shapes = _word(texts, "picture.sector6.shapes", str(player["shape"]))
    numbered = texts("picture.sector6.pawns", shapes=shapes, letter=letter)
    numbered, numbered_size = shrink(numbered, 18, room, bold=False)
    draw.text((x, 136), numbered, fill=theme.text_dim, font=font(numbered_size, False))
    return png_bytes(img)
