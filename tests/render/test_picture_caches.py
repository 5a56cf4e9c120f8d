"""What a process keeps between pictures to draw the next one quickly (PNG bands it compressed,
labels and letters it drew, the last High Voltage and Sector 6 board of each look, the
Sector 6 players' cards) never shows in a picture: a board drawn with everything kept from
other boards, of this game or another, is the board drawn from nothing, pixel for pixel (and
most often byte for byte: see `same_picture`); and what is kept stays within its bounds.

Boards are drawn as the bot draws them (each game's presenter) for views of seeded random
games, several games interleaved, so that each board is drawn over what the boards of other
games left behind.
"""

from __future__ import annotations

import importlib
import io
import itertools
import pickle
import random
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from games import find_game
from games.high_voltage.pictures import THEME as HV_THEME
from games.high_voltage.pictures import hv_board_png
from games.high_voltage.pictures.board import (
    DRAWN_KEPT,
    _drawn,
    band_edges,
    board_palette,
    forget_boards,
)
from games.pylons.pictures import board as pylons_board
from games.sector6.pictures import SECTOR6_THEME, sector6_board_png
from games.sector6.pictures import board as sector6_board
from hvbot.messages.presenters import presenter_for
from render import overdraw
from render.canvas import Canvas, _label, _look_number, forget_texts, text_rgb, text_width
from render.canvas import to_indexed as indexed
from render.encode import (
    BAND_ROWS,
    BANDS,
    FAST,
    FASTEST,
    SAMPLE,
    Bands,
    _adler_joined,
    _band_rows,
    _rows,
    banded_png,
    png_bytes,
)
from render.fonts import font

SEATS = {"high-voltage": 4, "pylons": 2, "sector6": 3}
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri"]
# Modules whose caches hold drawn pieces (sprites, labels, letters), emptied for a board drawn
# from nothing; the palettes are read from their files and hold no drawing.
DRAWING = (
    "render.canvas",
    "games.high_voltage.pictures.board",
    "games.high_voltage.pictures.sprites",
    "games.pylons.pictures.board",
    "games.sector6.pictures.board",
    "games.sector6.pictures.panel",
    "games.sector6.pictures.sprites",
    "games.sector6.pictures.tokens",
    "games.sector6.pictures.panel_layout",
)


def forget_everything() -> None:
    """This process as if it had drawn no board: no band, no kept board, no piece drawn."""
    BANDS.clear()
    forget_boards()
    sector6_board.forget_boards()
    pylons_board.forget_boards()
    forget_texts()
    for name in DRAWING:
        for attr, value in vars(importlib.import_module(name)).items():
            if hasattr(value, "cache_clear") and "palette" not in attr:
                value.cache_clear()


def decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def png_parts(png: bytes) -> tuple[bytes, bytes, bytes]:
    """A PNG's header, palette and rows, its zlib stream decompressed whole (so its checksum
    is checked, which image readers skip once they have every row)."""
    chunks: dict[bytes, bytes] = {}
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + png[at + 8 : at + 8 + length]
        at += 12 + length
    return chunks[b"IHDR"], chunks[b"PLTE"], zlib.decompress(chunks[b"IDAT"])


def assert_same_picture(a: bytes, b: bytes) -> None:
    """The same picture: size, palette and every pixel, each PNG whole and sound. Not always
    the same bytes: ISA-L's deflate now and then writes a band's rows in other (as good)
    deflate blocks, though it is given the same rows (seen about once in a few hundred
    boards in a long run of one process)."""
    if a == b:
        png_parts(a)  # sound, and the other is the same bytes
        return
    assert png_parts(a) == png_parts(b)


def interleaved(game: str, seeds: tuple[int, ...], moves: int) -> Iterator[dict[str, Any]]:
    """Public views of a few seeded random games, a move of each in turn."""
    rules = find_game(game)
    states = [rules.new_state(SEATS[game], seed) for seed in seeds]
    rngs = [random.Random(seed) for seed in seeds]
    for _ in range(moves):
        for state, rng in zip(states, rngs, strict=True):
            if not state.is_terminal():
                state.apply(state.sample_action(rng))
                yield state.view(None)


def board(game: str) -> Callable[[dict[str, Any]], bytes]:
    presenter = presenter_for(game)
    return lambda view: presenter.board_png(view, NAMES[: SEATS[game]])


@pytest.fixture(autouse=True)
def _nothing_kept_between_tests() -> Iterator[None]:
    yield
    BANDS.clear()
    forget_boards()
    sector6_board.forget_boards()
    pylons_board.forget_boards()
    forget_texts()


# ----------------------------------------------------------------- warm and cold, side by side


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_board_drawn_after_other_games_boards_is_the_board_drawn_from_nothing(game: str) -> None:
    draw = board(game)
    views = list(interleaved(game, (3, 11), 40))
    warm = [draw(view) for view in views]  # each over what the boards before it left
    for view, png in list(zip(views, warm, strict=True))[::9]:
        forget_everything()
        cold = draw(view)
        assert_same_picture(png, cold)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_board_is_the_same_whatever_was_drawn_between(game: str) -> None:
    """A, then other boards, then A again: the same bytes, and each of the others is what it
    is when drawn first in a fresh process."""
    draw = board(game)
    views = list(interleaved(game, (5, 6, 7), 12))
    first, others = views[0], views[1:]
    before = draw(first)
    seen = [draw(view) for view in others]
    assert_same_picture(draw(first), before)
    for view, png in list(zip(others, seen, strict=True))[::7]:
        BANDS.clear()
        forget_boards()
        sector6_board.forget_boards()
        pylons_board.forget_boards()
        forget_texts()
        assert_same_picture(draw(view), png)


def test_a_board_drawn_over_another_language_or_with_lines_outlined_is_its_own() -> None:
    """The kept High Voltage board is per look: a German board is never drawn over an English
    one, and a board with the declarable lines outlined is neither drawn over nor kept."""
    views = list(interleaved("high-voltage", (2,), 30))
    english = [hv_board_png(view, names=NAMES) for view in views[:10]]
    german = hv_board_png(views[10], names=NAMES, language="de")
    lines = [
        {"line": "S1-S9", "cells": [views[11]["cells"][0]["cell"]], "stations": [1, 9]},
    ]
    outlined = hv_board_png(views[11], names=NAMES, highlight=lines)
    after = hv_board_png(views[12], names=NAMES)
    forget_boards()
    BANDS.clear()
    assert_same_picture(hv_board_png(views[10], names=NAMES, language="de"), german)
    assert_same_picture(hv_board_png(views[11], names=NAMES, highlight=lines), outlined)
    forget_boards()
    assert_same_picture(hv_board_png(views[12], names=NAMES), after)
    assert_same_picture(hv_board_png(views[9], names=NAMES), english[9])


def test_a_seats_own_view_leaves_nothing_of_it_on_the_next_public_board() -> None:
    """A seat's view shows its own colour in the panel; the public board drawn next, over the
    kept board, shows none of it."""
    rules = find_game("high-voltage")
    state = rules.new_state(4, 9)
    rng = random.Random(9)
    for _ in range(12):
        state.apply(state.sample_action(rng))
    hv_board_png(state.view(state.current_seat()), names=NAMES)
    public = hv_board_png(state.view(None), names=NAMES)
    forget_boards()
    BANDS.clear()
    assert_same_picture(hv_board_png(state.view(None), names=NAMES), public)


def game_positions(game: str, seed: int, moves: int, seats: int) -> Iterator[Any]:
    """The states of one seeded random game after each move."""
    state = find_game(game).new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply(state.sample_action(rng))
        yield state


def sector6_game(seed: int, moves: int, seats: int = 3) -> Iterator[Any]:
    """The states of one seeded random Sector 6 game after each move (building, then play)."""
    return game_positions("sector6", seed, moves, seats)


# A game whose boards are drawn over the last one: its pictures' module, the positions of a
# game of it, and the players' names.
DRAWN_OVER = {
    "sector6": (sector6_board, sector6_game(4, 140), NAMES[:3]),
    "pylons": (pylons_board, game_positions("pylons", 4, 140, 2), NAMES[:2]),
}


@pytest.mark.parametrize("game", sorted(DRAWN_OVER))
def test_a_game_drawn_move_by_move_is_each_board_drawn_from_nothing(game: str) -> None:
    """Each board of a game drawn over the one before (only the pieces a move changed drawn
    again) is the board drawn with no board kept, pixel for pixel (see `same_picture`); and
    most boards of play are drawn over the last one, not whole."""
    module, positions, names = DRAWN_OVER[game]
    png = getattr(module, f"{game}_board_png")
    image = getattr(module, f"{game}_board_image")
    drawn_over: list[bool] = []
    dirty = overdraw.changed_boxes

    def counted(*args: Any) -> Any:
        boxes = dirty(*args)
        drawn_over.append(boxes is not None)
        return boxes

    looked_up = 0
    lookup = Bands.compressed

    def counted_band(*args: Any) -> Any:
        nonlocal looked_up
        looked_up += 1
        return lookup(*args)

    views = [state.view(None) for state in positions]
    warm: list[bytes] = []
    module.forget_boards()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(overdraw, "changed_boxes", counted)
        patch.setattr(Bands, "compressed", counted_band)
        warm = [png(view, names=names) for view in views]
    assert sum(drawn_over) > len(views) // 2
    # The bands a board shares with the one it was drawn over are written as they were,
    # neither read nor compared.
    spans = len(_band_rows(decoded(warm[0]).height, module.band_edges(), BAND_ROWS))
    assert looked_up < 0.6 * spans * len(views), (looked_up, spans * len(views))
    for view, drawn in zip(views, warm, strict=True):
        module.forget_boards()
        BANDS.clear()
        cold = png(view, names=names)
        assert_same_picture(drawn, cold)
        assert decoded(drawn).tobytes() == image(view, names=names).tobytes()
    forget_everything()
    assert_same_picture(png(views[-1], names=names), warm[-1])


def test_a_sector6_seats_own_view_leaves_nothing_of_it_on_the_next_public_board() -> None:
    """A seat's view shows the tile it drew (while building) and what else only it may see;
    the public board drawn next, over the kept board, shows none of it."""
    names = NAMES[:3]
    for state in sector6_game(8, 30):
        seat = state.current_seat()
        if seat is None or seat < 0:
            continue
        sector6_board_png(state.view(seat), names=names)
        public = sector6_board_png(state.view(None), names=names)
        sector6_board.forget_boards()
        BANDS.clear()
        assert_same_picture(sector6_board_png(state.view(None), names=names), public)


def test_few_sector6_boards_are_kept() -> None:
    views = [state.view(None) for state in sector6_game(1, 3)]
    for language in ("en", "de", "fr", "it", "en"):
        for view in views:
            sector6_board_png(view, names=NAMES[:3], language=language)
    assert 0 < len(sector6_board._drawn) <= min(sector6_board.DRAWN_KEPT, 4)


# ----------------------------------------------------------------- the PNG bands


def picture(seed: int, size: tuple[int, int] = (300, 200)) -> Image.Image:
    """A 'P' picture of flat blocks and noise, on the High Voltage palette."""
    rng = random.Random(seed)
    img = Image.new("P", size, 0)
    img.putpalette(board_palette(HV_THEME).getpalette() or [])
    for _ in range(30):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        img.paste(rng.randrange(256), (x, y, x + rng.randrange(1, 60), y + rng.randrange(1, 40)))
    return img


def test_a_banded_png_decodes_to_the_picture_and_its_palette() -> None:
    img = picture(1)
    png = banded_png(img, Bands())
    out = decoded(png)
    assert out.mode == "P" and out.size == img.size
    assert out.tobytes() == img.tobytes()
    assert out.getpalette() == img.getpalette()
    assert zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])  # one stream


def test_every_chunk_of_a_banded_png_holds_its_length_and_checksum() -> None:
    """Checked here as zlib computes a chunk's CRC-32 over its kind and data, since a reader
    may skip the check (the pixel data's checksum is summed band by band)."""
    png = banded_png(picture(3), Bands(), edges=(17, 90))
    at, kinds = 8, []
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (checksum,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert checksum == zlib.crc32(kind + data), kind
        kinds.append(kind)
        at += 12 + length
    assert at == len(png) and kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


@pytest.mark.parametrize("changed", [1, 5])  # bands read one by one, or the picture whole
def test_a_picture_drawn_over_another_encodes_as_the_picture_afresh(changed: int) -> None:
    """Bands known from the picture before are written as they were, the rest read from the
    picture, a few bands alone or the whole picture when many changed: the same PNG as the
    new picture encoded with nothing known."""
    before = picture(4, (300, 640))
    encoded: dict[tuple[int, int], tuple[bytes, int]] = {}
    banded_png(before, Bands(), encoded=encoded)
    after = before.copy()
    spans = _band_rows(640, (), 32)
    moved = spans[3 : 3 + changed] + spans[-changed:]
    for top, bottom in moved:
        after.paste(7, (10, top + 2, 40, bottom - 2))
    known = {span: part for span, part in encoded.items() if span not in moved}
    png = banded_png(after, Bands(), known=known)
    assert_same_picture(png, banded_png(after, Bands()))
    assert decoded(png).tobytes() == after.tobytes()


@pytest.mark.parametrize("span", [(0, 1), (0, 200), (17, 49), (199, 200), (90, 90)])
def test_the_rows_read_for_a_band_are_the_rows_of_the_picture(span: tuple[int, int]) -> None:
    """Bands are read from the picture's rows without cropping it: the crop's rows, each
    followed by a zero byte (the next row's PNG filter byte), first and last rows and the
    whole picture included."""
    img = picture(6)
    top, bottom = span
    pixels = img.crop((0, top, img.width, bottom)).tobytes()
    rows = [pixels[at : at + img.width] for at in range(0, len(pixels), img.width)]
    assert _rows(img, top, bottom) == b"".join(row + b"\0" for row in rows)


def test_a_band_is_reused_only_at_the_level_it_was_compressed_at() -> None:
    """A board at the fastest level never takes bands compressed at the fast level (nor the
    other way round): each picture's bytes are those of its own level, whatever was drawn
    before it."""
    bands = Bands()
    fast = banded_png(picture(5), bands, level=FAST)
    kept = len(bands)
    fastest = banded_png(picture(5), bands, level=FASTEST)
    assert len(bands) == 2 * kept  # none of the fast level's bands taken
    assert fastest == banded_png(picture(5), Bands(), level=FASTEST) != fast
    assert decoded(fastest).tobytes() == decoded(fast).tobytes() == picture(5).tobytes()


def test_reused_bands_give_the_same_bytes_as_fresh_ones() -> None:
    bands = Bands()
    first = banded_png(picture(2), bands, edges=(17, 90))
    kept = len(bands)
    assert kept == len(_band_rows(200, (17, 90), 32))
    assert banded_png(picture(2), bands, edges=(17, 90)) == first
    assert len(bands) == kept  # nothing compressed again
    assert banded_png(picture(2), Bands(), edges=(17, 90)) == first


def test_a_band_that_differs_in_one_pixel_the_sample_skips_is_not_reused() -> None:
    """Bands are filed by every SAMPLE-th pixel: two bands alike there but for one pixel
    between are both kept, and each picture gets its own."""
    bands = Bands()
    one = picture(3)
    other = one.copy()
    x = 1 if SAMPLE > 1 else 0  # pixel 1 of the first row is between two sampled pixels
    other.putpixel((x, 0), (one.getpixel((x, 0)) + 1) % 256)
    assert one.tobytes()[::SAMPLE] == other.tobytes()[::SAMPLE]
    for img in (one, other, one, other):
        assert decoded(banded_png(img, bands)).tobytes() == img.tobytes()


def test_bands_kept_stay_within_their_budget() -> None:
    bands = Bands(budget=200_000)
    for seed in range(40):
        banded_png(picture(seed, (400, 300)), bands)
        assert bands.held <= bands.budget
    assert 0 < len(bands) < 40 * len(_band_rows(300, (), 32))


def test_bands_start_at_the_edges_and_share_the_rows_between() -> None:
    rows = _band_rows(300, (30, 114, 218), 32)
    assert [top for top, _ in rows][:2] == [0, 30]
    assert {30, 114, 218} <= {top for top, _ in rows}
    assert all(0 < bottom - top <= 32 for top, bottom in rows)
    assert rows[-1][1] == 300
    assert all(a[1] == b[0] for a, b in itertools.pairwise(rows))
    edges = band_edges(HV_THEME)
    assert all(0 < edge < 1270 for edge in edges)


@pytest.mark.parametrize("sizes", [(0, 5), (7, 65521), (100_000, 3), (70_000, 70_000)])
def test_two_checksums_join_as_zlib_computes_the_whole(sizes: tuple[int, int]) -> None:
    rng = random.Random(sum(sizes))
    first, second = (bytes(rng.randrange(256) for _ in range(n)) for n in sizes)
    joined = _adler_joined(zlib.adler32(first), zlib.adler32(second), len(second))
    assert joined == zlib.adler32(first + second)


def test_a_picture_with_transparency_or_in_colour_is_encoded_as_before() -> None:
    img = picture(4)
    img.info["transparency"] = 0
    assert decoded(png_bytes(img, 1)).tobytes() == img.tobytes()
    rgb = Image.new("RGB", (20, 10), (200, 10, 10))
    assert decoded(png_bytes(rgb, 1)).convert("RGB").getpixel((3, 3)) == (200, 10, 10)


# ----------------------------------------------------------------- labels put together


TEXTS = [
    "Bruno drew C4 and placed it rotated to 90°",
    "Chiara a posé la carte en E5, tournée à 270°",
    "Wählen Sie: Drehung überprüfen",
    "office fin flûte affiche baffle",  # ligatures
    "rt ft ry fj Ty Yo Va AVATAR",  # kerning, letters whose ink overlaps
    "Annabelle-Sophie…",
    "×3",
    "שלום Ada",  # right to left: drawn whole by FreeType
    "e\u0301te",  # a combining accent: drawn whole
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(("size", "bold"), [(20, False), (21, True), (28, True)])
def test_a_label_put_together_from_letters_is_the_line_freetype_draws(
    text: str, size: int, bold: bool
) -> None:
    look = _look_number(HV_THEME, board_palette)
    fg, bg = HV_THEME.text, HV_THEME.panel_row
    made = _label(look, text, size, bold, fg, bg)
    whole = indexed(text_rgb(text, size, bold, fg, bg), board_palette(HV_THEME))
    assert made.size == whole.size
    assert made.tobytes() == whole.tobytes()
    assert text_width(text, size, bold) == font(size, bold).getlength(text)


def test_a_text_is_measured_word_by_word_as_freetype_measures_it_whole() -> None:
    rng = random.Random(3)
    letters = "abcdefghijklmnopqrstuvwxyzTVAY0123456789.,:;'-()°×…éàüß  fffifl"
    for _ in range(500):
        text = "".join(rng.choice(letters) for _ in range(rng.randrange(1, 50)))
        for size, bold in ((20, False), (21, True)):
            assert text_width(text, size, bold) == font(size, bold).getlength(text), text


def test_a_label_on_a_canvas_is_the_same_drawn_again_from_nothing() -> None:
    def draw() -> bytes:
        canvas = Canvas(Image.new("P", (600, 60), 0), HV_THEME, board_palette)
        canvas.text((10, 10), TEXTS[1], size=20, fg=HV_THEME.text, bg=HV_THEME.panel)
        canvas.text((590, 40), "Turn 12", size=20, fg=HV_THEME.text, bg=HV_THEME.panel, anchor="rm")
        return canvas.image.tobytes()

    warm = draw()
    forget_everything()
    assert draw() == warm


# ----------------------------------------------------------------- themes


def test_a_theme_keeps_its_hash_and_is_equal_only_to_an_equal_theme() -> None:
    same = replace(HV_THEME)
    other = replace(HV_THEME, cell=100)
    assert same == HV_THEME and hash(same) == hash(HV_THEME)
    assert other != HV_THEME
    assert {HV_THEME: 1}.get(same) == 1 and {HV_THEME: 1}.get(other) is None
    copy = pickle.loads(pickle.dumps(SECTOR6_THEME))
    assert copy == SECTOR6_THEME and hash(copy) == hash(SECTOR6_THEME)
    assert "_hash" not in pickle.loads(pickle.dumps(HV_THEME)).__dict__


def test_few_boards_are_kept() -> None:
    for language in ("en", "de", "fr", "it"):
        for view in list(interleaved("high-voltage", (1,), 3)):
            hv_board_png(view, names=NAMES, language=language)
    assert 0 < len(_drawn) <= min(DRAWN_KEPT, 4)
