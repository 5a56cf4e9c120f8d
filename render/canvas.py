"""Composing a picture directly in palette ('P') mode from cached pieces.

A board is mostly pasted sprites and short labels. Keeping every piece already mapped onto
the board palette means a render is a few hundred byte copies and no colour conversion at
all; the PNG encoder then compresses one byte per pixel. Pieces are cached per process, so a
label such as "Turn 12" is drawn with FreeType once and pasted ever after, and so are the
widths of texts (`text_width`), which the panels measure to fit names and place columns.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import ceil
from typing import Any, Generic, TypeVar

from PIL import Image, ImageDraw

from render.fonts import font
from render.theme import RGB, Theme

SpriteFactory = Callable[..., Image.Image]
PaletteOf = Callable[[Theme], Image.Image]  # a cached function: theme -> 'P' palette image
# A game's own theme (a subclass of Theme, with its own sizes and colours), which its drawing
# functions read off the canvas they are given.
ThemeT = TypeVar("ThemeT", bound=Theme)


def paste(
    target: Image.Image, piece: Image.Image, at: tuple[int, int], mask: Image.Image | None = None
) -> None:
    """`target.paste(piece, at, mask)` for a piece in the target's own mode, drawn in memory
    (a cached sprite, label or letter).

    A board pastes a few hundred pieces, and Pillow's `paste` checks the pieces' modes and
    loads both pictures on each call, which took twice as long as the copying itself: here
    the pixels are copied straight away."""
    source, into = piece.im, target.im
    if source.mode != into.mode:
        raise ValueError(f"a {source.mode!r} piece pasted into a {into.mode!r} picture")
    x, y = at
    width, height = source.size
    if mask is None:
        into.paste(source, (x, y, x + width, y + height))
    else:
        into.paste(source, (x, y, x + width, y + height), mask.im)


def text_rgb(text: str, size: int, bold: bool, fg: RGB, bg: RGB) -> Image.Image:
    """`text` on a tight strip of `bg`: width of the advance, height ascent + descent."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    width = max(1, ceil(probe.textlength(text, font=f)) + 2)
    img = Image.new("RGB", (width, ascent + descent), bg)
    ImageDraw.Draw(img).text((1, 0), text, fill=fg, font=f)
    return img


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = True) -> float:
    """The advance of `text` in the picture font, in pixels, as `font(size, bold).getlength`
    gives it.

    Each board measures a dozen texts or more (names to fit, columns to place), most of them
    new to the process (each move's words), and FreeType lays a text out afresh each time it
    is asked (~0.1 ms). A text of letters is measured instead as it is drawn (see `_label`),
    letter by letter: the advance of each letter plus the kerning of each pair, both kept."""
    if " " not in text:
        return _word_width(text, size, bold)[0]
    if _letters(text) is None:
        return _advance(text, size, bold)
    # Word by word (a new line is mostly words seen before; a ligature never spans a space):
    # each word's width, the spaces', and the kerning where a word meets a space.
    words = text.split(" ")
    width = _advance(" ", size, bold) * (len(words) - 1)
    before: str | None = None  # the letter laid out last
    for i, word in enumerate(words):
        if i:  # a space before this word
            if before is not None:
                width += _kerning((before, " "), size, bold)
            before = " "
        if word:
            word_width, first, last = _word_width(word, size, bold)
            width += word_width
            if before is not None:
                width += _kerning((before, first), size, bold)
            before = last
    return width


@lru_cache(maxsize=4096)
def _word_width(word: str, size: int, bold: bool) -> tuple[float, str, str]:
    """A text without spaces: its advance (letter by letter where it may be drawn so, see
    `text_width`), its first letter and its last."""
    letters = _letters(word)
    if letters is None or not letters:
        return _advance(word, size, bold), word[:1], word[-1:]
    width = sum(_advance(letter, size, bold) for letter in letters)
    for pair in itertools.pairwise(letters):
        width += _kerning(pair, size, bold)
    return width, letters[0], letters[-1]


@lru_cache(maxsize=4096)
def _advance(text: str, size: int, bold: bool) -> float:
    return font(size, bold).getlength(text)


@lru_cache(maxsize=8192)
def _kerning(pair: tuple[str, str], size: int, bold: bool) -> float:
    """How much closer (or further) two letters stand than their advances alone."""
    first, second = pair
    alone = _advance(first, size, bold) + _advance(second, size, bold)
    return _advance(first + second, size, bold) - alone


# A letter, or letters the font draws as one (ligatures, longest first), laid out as one.
_LETTER = re.compile("ffi|ffl|ff|fi|fl|.", re.DOTALL)


def _letters(text: str) -> list[str] | None:
    """`text` as the letters FreeType lays out side by side (a ligature as one), or None
    when it may not be drawn letter by letter: only letters that stand side by side in
    reading order and join nothing, as Latin, Greek and Cyrillic letters, digits and common
    symbols do, are. A combining accent, a right-to-left or joined script (a Discord name
    may be in any) is laid out by FreeType as a whole line."""
    if not text.isascii() and not all(_side_by_side(ord(c)) for c in text):
        return None
    return _LETTER.findall(text) if "f" in text else list(text)


def _side_by_side(code: int) -> bool:
    """Below the combining accents (Latin), Greek to Cyrillic, or punctuation and symbols."""
    return code < 0x300 or 0x370 <= code < 0x590 or 0x2000 <= code < 0x2400


def fit(text: str, size: int, width: float, bold: bool = True) -> str:
    """`text` cut with an ellipsis to fit `width` pixels: long Discord names stay one line.

    The longest beginning of `text` that fits with its ellipsis is found by halving (a text
    grows no narrower as it gets longer), in as many measures as the length has binary
    digits: one character off per measure took minutes for a name of thousands of them."""
    if text_width(text, size, bold) <= width:
        return text
    fits, too_long = 0, len(text)  # text[:fits] + "…" fits (or fits is 0); text[:too_long] not
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if text_width(text[:middle] + "…", size, bold) <= width:
            fits = middle
        else:
            too_long = middle
    return text[:fits] + "…"


def wrap(text: str, size: int, width: float, lines: int, bold: bool = True) -> list[str]:
    """`text` broken at its spaces into at most `lines` lines of `width` pixels, the last one
    cut with an ellipsis when the text needs more: a caption keeps a readable size rather
    than shrinking to fit one line."""
    words = text.split()
    out: list[str] = []
    line = ""
    for i, word in enumerate(words):
        longer = f"{line} {word}" if line else word
        if not line or text_width(longer, size, bold) <= width:
            line = longer
            continue
        if len(out) == lines - 1:
            out.append(fit(" ".join([line, *words[i:]]), size, width, bold))
            return out
        out.append(fit(line, size, width, bold))
        line = word
    if line:
        out.append(fit(line, size, width, bold))
    return out


def shrink(
    text: str, size: int, width: float, bold: bool = True, smallest: int | None = None
) -> tuple[str, int]:
    """(`text`, font size) to fit `width` pixels: the size goes down to `smallest` (default
    three quarters of `size`) before the text is cut, so a longer translation of a label
    stays whole when it can."""
    least = smallest if smallest is not None else max(1, size * 3 // 4)
    while size > least and text_width(text, size, bold) > width:
        size -= 1
    return fit(text, size, width, bold), size


def shorten_names(
    line: Callable[[Sequence[str] | None], str],
    names: Sequence[str] | None,
    size: int,
    width: float,
    bold: bool = True,
) -> str:
    """`line(names)`, with the names cut by as much as the line is too wide for `width`: a
    long Discord name loses its end, never the words of the sentence round it."""
    said = line(names)
    over = text_width(said, size, bold) - width
    if over <= 0 or not names:
        return said
    shorter = [
        fit(name, size, max(text_width(name, size, bold) - over, 60), bold) for name in names
    ]
    return line(shorter)


class Canvas(Generic[ThemeT]):
    """A 'P' picture plus the palette every piece pasted into it is mapped onto."""

    def __init__(self, image: Image.Image, theme: ThemeT, palette: PaletteOf) -> None:
        self.image = image
        self.theme = theme
        self.palette = palette
        # A theme is a frozen dataclass of dozens of fields, hashed afresh whenever it is part
        # of a cache's key: a board's hundred sprite lookups spent most of a millisecond on
        # it. Its number in `_looks` is hashed once per board instead.
        self._look = _look_number(theme, palette)

    def sprite(self, factory: SpriteFactory, *args: Any, at: tuple[int, int]) -> None:
        """Paste `factory(theme, *args)` (an RGB sprite) at `at`, mapped once and cached."""
        paste(self.image, _indexed(self._look, factory, args), at)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        *,
        size: int,
        fg: RGB,
        bg: RGB,
        bold: bool = True,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> int:
        """Paste a label; `anchor` is two letters as in Pillow (l/m/r, a/m) for the point
        `xy`. Returns the label's width in pixels.

        A label drawn once is kept and pasted ever after; a new one is put together from
        letters drawn once (see `_label`)."""
        if max_width is not None:
            text = fit(text, size, max_width, bold)
        if not text:
            return 0
        # The canvas shares the label's palette, so its colour indices paste as they are.
        img = _label(self._look, text, size, bold, fg, bg)
        w, h = img.size
        x, y = xy
        across, down = anchor[0], anchor[1]
        x -= 1 if across == "l" else w // 2 if across == "m" else w - 1
        y -= 0 if down == "a" else h // 2 if down == "m" else h
        paste(self.image, img, (round(x), round(y)))
        return w - 2


def to_indexed(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Map an RGB image onto `palette` (nearest colour, no dithering: flat areas stay flat)."""
    return img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


# Every (theme, palette) a canvas was made with, by number: the caches below are keyed by the
# number, so that a theme is hashed once per picture, not once per piece. A process uses one
# theme per game (the tests a few more), so the list stays as short as that.
_looks: list[tuple[Theme, PaletteOf]] = []
_look_numbers: dict[tuple[Theme, PaletteOf], int] = {}
_looks_lock = threading.Lock()


def _look_number(theme: Theme, palette: PaletteOf) -> int:
    number = _look_numbers.get((theme, palette))
    if number is None:
        with _looks_lock:
            number = _look_numbers.setdefault((theme, palette), len(_looks))
            if number == len(_looks):
                _looks.append((theme, palette))
    return number


@lru_cache(maxsize=2048)  # ~11 kB per cell sprite: at most ~25 MB
def _indexed(look: int, factory: SpriteFactory, args: tuple[Any, ...]) -> Image.Image:
    theme, palette = _looks[look]
    return to_indexed(factory(theme, *args), palette(theme))


# Labels are mostly the same few words and coordinates; player names and scores vary by game,
# so the caches are bounded not to grow with the number of games. A label is kept as an image
# made afresh from its colour indices: the image `quantize` returns carries a copy of the
# palette and Pillow's bookkeeping (~5 kB more each: the cache held over 7 MB at a few hundred
# games), one made from its bytes about 2 kB, and making it at each paste cost more than the
# paste.
@lru_cache(maxsize=1024)
def _label(look: int, text: str, size: int, bold: bool, fg: RGB, bg: RGB) -> Image.Image:
    """`text_rgb(text, ...)` mapped onto the look's palette.

    Each move brings new texts (the move in words, the turn's number), and FreeType takes
    about 0.02 ms a letter to draw one (a long line: a millisecond), then mapping the line's
    colours onto the palette as much again. A text of letters (`_letters`) is put together
    instead from letters drawn once per process, each where FreeType's own layout puts it
    (the advances and kernings before it, rounded as FreeType rounds), and its shades of
    ink mapped onto the palette through one table per pair of colours: the same pixels as
    the line drawn whole."""
    letters = _letters(text)
    if letters is None:
        theme, palette = _looks[look]
        img = to_indexed(text_rgb(text, size, bold, fg, bg), palette(theme))
        return Image.frombytes("P", img.size, img.tobytes())
    ascent, descent = font(size, bold).getmetrics()
    ink = Image.new("L", (max(1, ceil(text_width(text, size, bold)) + 2), ascent + descent), 0)
    core = ink.im
    pen = 1.0  # text_rgb draws from x = 1
    before = None
    for letter in letters:
        if before is not None:
            pen += _kerning((before, letter), size, bold)
        shape, dx, dy, width, height, advance = _laid(letter, size, bold)
        if shape is not None:
            # FreeType places a glyph on the pixel its pen position rounds to, half up, and
            # lays its ink over the ink already there (two letters may touch: "rt"), which
            # is full ink pasted through the letter's shape.
            x = (round(pen * 64) + 32 >> 6) + dx
            core.paste(255, (x, dy, x + width, dy + height), shape)
        pen += advance
        before = letter
    return Image.frombytes("P", ink.size, ink.tobytes().translate(_shades(look, fg, bg)))


@lru_cache(maxsize=4096)
def _laid(letter: str, size: int, bold: bool) -> tuple[Any, int, int, int, int, float]:
    """What laying out one letter needs, looked up once a letter: its shape's pixels (None
    without ink), its offset, its size and its advance. A line is laid out letter by letter,
    and asking for each of these apart (and Pillow's properties for the shape's pixels and
    size) took longer than the pasting."""
    glyph = _glyph(letter, size, bold)
    advance = _advance(letter, size, bold)
    if glyph is None:
        return None, 0, 0, 0, 0, advance
    shape, dx, dy = glyph
    return shape.im, dx, dy, shape.width, shape.height, advance


def _glyph(letter: str, size: int, bold: bool) -> tuple[Image.Image, int, int] | None:
    """One letter's ink as FreeType draws it alone at a whole pixel ('L', as tight as its
    ink) and its offset from the pen's position on the top line; None for a letter without
    ink (a space). Drawn once a letter, for `_laid`, which keeps it."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    room = size  # for a letter reaching left of its pen position, or right of its advance
    sheet = Image.new("L", (ceil(_advance(letter, size, bold)) + 2 * room, ascent + descent), 0)
    ImageDraw.Draw(sheet).text((room, 0), letter, fill=255, font=f)
    box = sheet.getbbox()
    if box is None:
        return None
    return sheet.crop(box), box[0] - room, box[1]


@lru_cache(maxsize=256)
def _shades(look: int, fg: RGB, bg: RGB) -> bytes:
    """The palette entry of every shade of `fg` ink on `bg`, by the ink's coverage (0-255):
    the shades blended as text is drawn, then mapped as `to_indexed` maps a whole label."""
    theme, palette = _looks[look]
    strip = Image.new("RGB", (256, 1), bg)
    strip.paste(fg, (0, 0, 256, 1), Image.frombytes("L", (256, 1), bytes(range(256))))
    return to_indexed(strip, palette(theme)).tobytes()


def forget_texts() -> None:
    """Forget every label drawn and every text measured, as if each text were new to this
    process (benchmarks: the words of each move are new when its board is drawn). The
    letters and their advances stay: a process that has drawn a few boards has them all."""
    _label.cache_clear()
    text_width.cache_clear()


def rounded_band(
    width: int, height: int, *, ground: RGB, fill: RGB, edge: RGB, supersample: int
) -> Image.Image:
    """A rounded, edged band (behind the player to move or a winner), drawn supersampled and
    reduced so its corners are smooth."""
    ss = supersample
    img = Image.new("RGB", (width * ss, height * ss), ground)
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, width * ss - 1, height * ss - 1),
        radius=10 * ss,
        fill=fill,
        outline=edge,
        width=3 * ss,
    )
    return img.reduce(ss)


def finish_piece(
    img: Image.Image, mask: Image.Image, palette: Image.Image, *, supersample: int, cover_at: int
) -> tuple[Image.Image, Image.Image]:
    """Reduce a supersampled piece and its coverage mask (opaque where coverage reaches
    `cover_at` of 255) and map the piece onto `palette`, ready to paste."""
    small = img.reduce(supersample)
    cover = mask.reduce(supersample).point(lambda v: 255 if v >= cover_at else 0).convert("1")
    return to_indexed(small, palette), cover
