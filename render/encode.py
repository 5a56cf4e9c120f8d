"""PNG encoding that is fast, small and byte-for-byte repeatable.

A full-colour PNG of the board costs ~15 ms to compress and ~150 kB; the same picture mapped
onto a fixed 256-colour palette compresses in ~2 ms to a fraction of the size. The palette is
built once per theme from the sprites themselves, so anti-aliased edges keep their in-between
shades, and it always holds the theme's flat colours exactly; a default theme's palette is
kept in a file (`StoredPalette`), so that processes do not build it again as they start.
Pillow writes no time stamp into a PNG, and the compression level is fixed, so equal pictures
give equal bytes. The board uses zlib level 1: about 4 ms and ~100 kB, where level 6 saves a
fifth of the bytes for twice the time.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

from render.theme import RGB

FAST = 1  # the board: rendered after every move, must encode in a few milliseconds
SMALL = 6  # one-off pictures (card, end, secret): size matters more than time
# Shades this close to a flat colour are left out of a palette: Pillow maps colours through a
# coarse lookup grid, and a near twin could otherwise capture the flat colour's pixels.
NEAR = 10


def build_palette(specimen: Image.Image, exact: tuple[RGB, ...]) -> Image.Image:
    """A 'P' image whose palette is `exact` followed by the commonest other shades of
    `specimen` (median cut), for `Image.quantize(palette=...)`.

    Pixels already close to an exact colour are painted over first, so the 256 entries go to
    the in-between shades of edges and text instead of to near twins of flat areas."""
    sheet = specimen.convert("RGB")
    near_any = Image.new("L", sheet.size, 0)
    for colour in exact:
        diff = ImageChops.difference(sheet, Image.new("RGB", sheet.size, colour)).split()
        far = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2])
        near_any = ImageChops.lighter(near_any, far.point(lambda v: 255 if v < NEAR else 0))
    sheet.paste(exact[0], (0, 0, *sheet.size), near_any)
    spare = 256 - len(exact)
    reduced = sheet.quantize(
        colors=spare + 1, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    flat = reduced.getpalette() or []
    shades = [
        shade
        for shade in (tuple(flat[i : i + 3]) for i in range(0, len(flat), 3))
        if all(max(abs(a - b) for a, b in zip(shade, c, strict=True)) >= NEAR for c in exact)
    ]
    colours: list[tuple[int, ...]] = list(dict.fromkeys([*exact, *shades]))[:256]
    colours += [colours[-1]] * (256 - len(colours))
    return palette_image(colours)


def palette_image(colours: Sequence[Sequence[int]]) -> Image.Image:
    """A 'P' image holding `colours` as its palette, for `Image.quantize(palette=...)`."""
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


@dataclass(frozen=True)
class StoredPalette:
    """A palette from `build_palette`, kept in a text file beside the drawing code it comes
    from.

    Every process that draws boards, the bot and each of its drawing workers, needs a game's
    palette before its first board, and building it from a specimen sheet costs a third of a
    second to a second of CPU at each start-up, for a result that only the drawing code and
    the theme decide. Read from the file it costs well under a millisecond. The file is text,
    one `#rrggbb` line per entry in order, so a change of art shows in review as the entries
    it moved; a test per game checks that it still matches what the drawing code builds."""

    path: Path
    about: str  # what the palette is for, written at the top of the file
    build: Callable[[], Image.Image]  # the palette built afresh, as the file should hold it

    def load(self) -> Image.Image:
        """The stored palette, as `build_palette` returned it when the file was written."""
        colours: list[tuple[int, ...]] = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if not line or line.startswith("# "):
                continue
            if not re.fullmatch("#[0-9a-f]{6}", line):
                raise ValueError(f"{self.path}: {line!r} is not a #rrggbb colour")
            colours.append(tuple(bytes.fromhex(line[1:])))
        if len(colours) != 256:
            raise ValueError(f"{self.path} holds {len(colours)} colours, not 256")
        return palette_image(colours)

    def text(self, palette: Image.Image) -> str:
        """The file's contents for `palette`."""
        flat = palette.getpalette() or []
        lines = [
            f"# The 256-colour palette of the {self.about}, entry by entry: the theme's exact",
            "# colours, then the commonest edge shades of its sprites. Written by",
            "# `python -m games palettes` after a change of the drawing; do not edit by hand.",
            *("#" + bytes(flat[i : i + 3]).hex() for i in range(0, len(flat), 3)),
        ]
        return "\n".join(lines) + "\n"

    def refresh(self) -> bool:
        """Build the palette afresh and write it; False when the file held it already."""
        text = self.text(self.build())
        if self.path.exists() and self.path.read_text(encoding="utf-8") == text:
            return False
        self.path.write_text(text, encoding="utf-8")
        return True


def png_bytes(img: Image.Image, level: int = SMALL) -> bytes:
    """Encode as an indexed PNG. A 'P' image is written as it is (its palette was fixed in
    advance); any other image gets a palette chosen for it (slower: for one-off pictures)."""
    if img.mode != "P":
        img = img.convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=level, optimize=False)
    return out.getvalue()
