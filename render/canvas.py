"""Composing a picture directly in palette ('P') mode from cached pieces.

A board is mostly pasted sprites and short labels. Keeping every piece already mapped onto
the board palette means a render is a few hundred byte copies and no colour conversion at
all; the PNG encoder then compresses one byte per pixel. Pieces are cached per process, so a
label such as "Turn 12" is drawn with FreeType once and pasted ever after.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import ceil
from typing import Any

from PIL import Image, ImageDraw

from render.fonts import font
from render.theme import RGB, Theme

SpriteFactory = Callable[..., Image.Image]
PaletteOf = Callable[[Theme], Image.Image]  # a cached function: theme -> 'P' palette image


def text_rgb(text: str, size: int, bold: bool, fg: RGB, bg: RGB) -> Image.Image:
    """`text` on a tight strip of `bg`: width of the advance, height ascent + descent."""
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    width = max(1, ceil(probe.textlength(text, font=f)) + 2)
    img = Image.new("RGB", (width, ascent + descent), bg)
    ImageDraw.Draw(img).text((1, 0), text, fill=fg, font=f)
    return img


def fit(text: str, size: int, width: float, bold: bool = True) -> str:
    """`text` cut with an ellipsis to fit `width` pixels: long Discord names stay one line."""
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: float, lines: int, bold: bool = True) -> list[str]:
    """`text` broken at its spaces into at most `lines` lines of `width` pixels, the last one
    cut with an ellipsis when the text needs more: a caption keeps a readable size rather
    than shrinking to fit one line."""
    f = font(size, bold)
    words = text.split()
    out: list[str] = []
    line = ""
    for i, word in enumerate(words):
        longer = f"{line} {word}" if line else word
        if not line or f.getlength(longer) <= width:
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
    while size > least and font(size, bold).getlength(text) > width:
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
    f = font(size, bold)
    over = f.getlength(said) - width
    if over <= 0 or not names:
        return said
    shorter = [fit(name, size, max(f.getlength(name) - over, 60), bold) for name in names]
    return line(shorter)


class Canvas:
    """A 'P' picture plus the palette every piece pasted into it is mapped onto."""

    def __init__(self, image: Image.Image, theme: Theme, palette: PaletteOf) -> None:
        self.image = image
        self.theme = theme
        self.palette = palette

    def sprite(self, factory: SpriteFactory, *args: Any, at: tuple[int, int]) -> None:
        """Paste `factory(theme, *args)` (an RGB sprite) at `at`, mapped once and cached."""
        self.image.paste(_indexed(self.theme, self.palette, factory, args), at)

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
        `xy`. Returns the label's width in pixels."""
        if max_width is not None:
            text = fit(text, size, max_width, bold)
        if not text:
            return 0
        (w, h), pixels = _label(self.theme, self.palette, text, size, bold, fg, bg)
        # The canvas shares the label's palette, so its colour indices paste as they are.
        img = Image.frombytes("P", (w, h), pixels)
        x, y = xy
        x -= {"l": 1, "m": w // 2, "r": w - 1}[anchor[0]]
        y -= {"a": 0, "m": h // 2, "d": h}[anchor[1]]
        self.image.paste(img, (round(x), round(y)))
        return w - 2


def to_indexed(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Map an RGB image onto `palette` (nearest colour, no dithering: flat areas stay flat)."""
    return img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


@lru_cache(maxsize=2048)  # ~11 kB per cell sprite: at most ~25 MB
def _indexed(
    theme: Theme, palette: PaletteOf, factory: SpriteFactory, args: tuple[Any, ...]
) -> Image.Image:
    return to_indexed(factory(theme, *args), palette(theme))


# Labels are mostly the same few words and coordinates; player names and scores vary by game,
# so the cache is bounded not to grow with the number of games. A label is kept as its size and
# colour indices (~2 kB) rather than as an image, which would carry a copy of the palette and
# Pillow's bookkeeping (~5 kB more each: the cache held over 7 MB at a few hundred games).
@lru_cache(maxsize=1024)
def _label(
    theme: Theme, palette: PaletteOf, text: str, size: int, bold: bool, fg: RGB, bg: RGB
) -> tuple[tuple[int, int], bytes]:
    img = to_indexed(text_rgb(text, size, bold, fg, bg), palette(theme))
    return img.size, img.tobytes()


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
