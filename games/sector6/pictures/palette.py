"""The fixed palette Sector 6 boards are encoded with, built from a specimen of every piece
(so it holds their edge shades) and kept in `palette.txt` for the default theme, the empty
ground a board starts from, and `finish`, which maps a piece's drawing onto that palette.

It sits above the drawings it is built from (`tiles`, `tokens`,
`overlays`, `panel_layout`) and below the cached pieces that use it
(`sprites`), so no drawing module needs the palette."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

from PIL import Image

from games.sector6.pictures.overlays import GEARS, PLAYER, turn_rgb
from games.sector6.pictures.panel_layout import CARD_H, CLOCK_H, card_band
from games.sector6.pictures.style import SECTOR6_THEME, SMALL, SS, Sector6Theme
from games.sector6.pictures.tiles import cog_rgb, ring_rgb, supply_rgb, tile_rgb
from games.sector6.pictures.tokens import door_rgb, marker_rgb, prisoner_rgb
from render.canvas import finish_piece, text_rgb, to_indexed
from render.encode import StoredPalette, build_palette
from render.theme import RGB

Piece = tuple[Image.Image, Image.Image]  # ('P' picture, '1' mask)


def _ground_rgb(theme: Sector6Theme) -> Image.Image:
    img = Image.new("RGB", (theme.width, theme.board_height + theme.panel_height), theme.background)
    img.paste(theme.panel, (0, theme.board_height, theme.width, img.height))
    return img


@cache
def ground(theme: Sector6Theme) -> Image.Image:
    """The empty board: the maze's dark ground above the panel."""
    return to_indexed(_ground_rgb(theme), sector6_palette(theme))


@cache
def sector6_palette(theme: Sector6Theme) -> Image.Image:
    """The fixed palette Sector 6 boards are encoded with. The default theme's is read from
    its file: built, it would cost every process that draws boards, the bot and each drawing
    worker, about half a second of CPU as it starts."""
    return STORED_PALETTE.load() if theme == SECTOR6_THEME else specimen_palette(theme)


def specimen_palette(theme: Sector6Theme) -> Image.Image:
    """The palette built from a specimen of every piece: the truth the stored file is
    checked against, and the palette of any theme but the default."""
    return build_palette(_specimen(theme), theme.sector6_colours())


STORED_PALETTE = StoredPalette(
    Path(__file__).with_name("palette.txt"),
    "Sector 6 board",
    partial(specimen_palette, SECTOR6_THEME),
)


@cache
def sector6_palette_index(theme: Sector6Theme, colour: RGB) -> int:
    """The palette entry of one of the theme's exact colours (for drawing straight onto a
    board)."""
    flat = sector6_palette(theme).getpalette() or []
    for i in range(0, len(flat), 3):
        if tuple(flat[i : i + 3]) == colour:
            return i // 3
    raise ValueError(f"{colour} is not an exact colour of the Sector 6 palette")


def finish(theme: Sector6Theme, img: Image.Image, mask: Image.Image) -> Piece:
    """Reduce a supersampled piece and its coverage mask; map the piece onto the palette."""
    return finish_piece(img, mask, sector6_palette(theme), supersample=SS, cover_at=100)


def _specimen(theme: Sector6Theme) -> Image.Image:
    """One of every kind of piece at a middle size, so the palette holds their edge shades."""
    radius, size = 60, 18
    tiles: list[Image.Image] = []
    masks = (0b000001, 0b000011, 0b001001, 0b000111, 0b010101, 0b001111, 0b011011, 0)
    for kind in range(8):
        for mask in masks[:: 1 if kind >= 4 else 7]:
            tiles.append(tile_rgb(theme, radius, kind, mask)[0].reduce(SS))
        tiles.append(tile_rgb(theme, radius, kind, masks[5], gears=False)[0].reduce(SS))
    for kind in range(4):  # entry points' rims at the smallest and largest radii too: their
        for small in (28, 44):  # shades between rim and grout, never taken for a gear's
            tiles.append(tile_rgb(theme, small, kind, 0)[0].reduce(SS))
    for ring in range(3):
        ring_img, ring_cover = ring_rgb(theme, radius, ring)
        base = tile_rgb(theme, radius, 5, 0)[0]
        base.paste(ring_img, (0, 0), ring_cover)
        tiles.append(base.reduce(SS))
    for who in (PLAYER, GEARS):
        turn_img, turn_cover = turn_rgb(theme, radius, who, frozenset((True, False)))
        base = tile_rgb(theme, radius, 6, 0)[0]
        base.paste(turn_img, (0, 0), turn_cover)
        tiles.append(base.reduce(SS))
    cog_img, cog_cover = cog_rgb(theme, 12)
    base = Image.new("RGB", cog_img.size, theme.floors[2])
    base.paste(cog_img, (0, 0), cog_cover)
    tiles.append(base.reduce(SS))
    for value in (1, 2, 3, 4):
        for bg in (None, theme.panel, theme.panel_row, theme.floors[value]):
            tiles.append(marker_rgb(theme, size, value, bg)[0].reduce(SS))
        # a large one too: its rim's shades between ink and fill, never taken for a gear's
        tiles.append(marker_rgb(theme, 3 * size, value, None)[0].reduce(SS))
        tiles.append(marker_rgb(theme, size, value, None, dead=True)[0].reduce(SS))
    for seat in range(4):
        for bg in (None, theme.panel, theme.panel_row):
            tiles.append(prisoner_rgb(theme, size, seat, "OPWB"[seat], bg)[0].reduce(SS))
        door_img, door_cover = door_rgb(theme, size, seat)
        base = Image.new("RGB", door_img.size, theme.floors[0])
        base.paste(door_img, (0, 0), door_cover)
        tiles.append(base.reduce(SS))
    for bg in (theme.panel, theme.panel_row):
        for piece, cover in (supply_rgb(theme, 14), tile_rgb(theme, 14, 0, 0)):
            base = Image.new("RGB", piece.size, bg)
            base.paste(piece, (0, 0), cover)
            tiles.append(base.reduce(SS))
    for seat in range(4):
        tiles.append(card_band(theme, 200, CARD_H, theme.seat_fill[seat]))
    tiles.append(card_band(theme, 200, CLOCK_H, theme.clock))
    width = theme.width
    placed, x, y, row_h = [], 0, 0, 0
    for tile in tiles:
        if x + tile.width > width:
            x, y, row_h = 0, y + row_h, 0
        placed.append((tile, (x, y)))
        x += tile.width
        row_h = max(row_h, tile.height)
    y += row_h
    texts = [
        ("Player 1234567890 to move · turn of", 21, True, theme.text, theme.panel),
        ("Game over: wins share the win blocked", 21, True, theme.text, theme.panel),
        ("Player 1234567890", 20, True, theme.text, theme.panel_row),
        ("0123456789", 34, True, theme.text, theme.panel_row),
        ("0123456789", 34, True, theme.text, theme.panel),
        ("×0123456789 tiles entries held", SMALL, False, theme.text_dim, theme.panel_row),
        ("×0123456789 tiles entries held", SMALL, False, theme.text_dim, theme.panel),
        ("moved a prisoner from C4 to C7; turned right", SMALL, False, theme.text_dim, theme.panel),
        ("Oxygen clock: 0123456789 rounds left", SMALL, True, theme.clock, theme.panel_row),
    ]
    for floor in theme.floors:
        texts.append(("ABCDEFGHIJKLMNOPQRST 0123456789", SMALL, True, theme.label_ink, floor))
    texts.append(
        ("ABCDEFGHIJKLMNOPQRST 0123456789", SMALL, True, theme.free_edge, theme.background)
    )
    sheet = Image.new("RGB", (width, y + 36 * len(texts)), theme.panel)
    for tile, where in placed:
        sheet.paste(tile, where)
    for n, (text, size_px, bold, fg, bg) in enumerate(texts):
        sheet.paste(text_rgb(text, size_px, bold, fg, bg), (4, y + 36 * n))
    return sheet
