"""PNG encoding that is fast, small and repeatable: equal pictures, equal pixels.

A full-colour PNG of the board costs ~15 ms to compress and ~150 kB; the same picture mapped
onto a fixed 256-colour palette compresses in ~2 ms to a fraction of the size. The palette is
built once per theme from the sprites themselves, so anti-aliased edges keep their in-between
shades, and it always holds the theme's flat colours exactly; a default theme's palette is
kept in a file (`StoredPalette`), so that processes do not build it again as they start.
Pillow writes no time stamp into a PNG, and the compression level is fixed, so equal pictures
give equal bytes (but for the boards' bands: below). The board uses zlib level 1: about 4 ms
and ~100 kB, where level 6 saves a fifth of the bytes for twice the time.

Even at level 1, zlib compressing a board's 1.2 million pixels was most of the time a board
takes. The board's pixels are compressed by ISA-L's deflate (`isal`, Intel's library, through
its Python binding) instead: level 1 there gives zlib level 1's size in about a tenth of the
time, and any zlib reader decodes it (a Sector 6 board, mostly flat colour, uses its level 0:
half the time again, for a fifth more bytes).

And a move changes a few cells and the panel of a board that is otherwise the one before it.
So a board is written in bands of `BAND_ROWS` rows, each compressed on its own (`Bands`): a
band whose pixels this process has compressed before, at the same level, is reused as it is,
and only the bands a move changed are compressed again. The bytes of a band and the level are
the whole key, so a reused band is the same pixels, whichever picture or game it was first seen
in, and a picture's pixels are the same whether its bands were reused or not. Its bytes nearly
always are too, but not always: ISA-L now and then gives the same rows another, as good,
Huffman code (seen as one band of a board whose compressed bytes differed from the 8th byte on,
in a test process after hundreds of boards), so pictures are compared by their pixels.
"""

from __future__ import annotations

import io
import itertools
import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageChops

from render.theme import RGB

FAST = 1  # the board: rendered after every move, must encode in a few milliseconds
# A board of mostly flat colour (Sector 6's maze): ISA-L's fastest level compresses its bands
# in about half the time of level 1, for about a fifth more bytes.
FASTEST = 0
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
        far = off_by(sheet, colour)
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


def png_bytes(
    img: Image.Image,
    level: int = SMALL,
    edges: Sequence[int] = (),
    *,
    known: Encoded | None = None,
    encoded: Encoded | None = None,
) -> bytes:
    """Encode as an indexed PNG. A 'P' image is written as it is (its palette was fixed in
    advance); any other image gets a palette chosen for it (slower: for one-off pictures).
    A 'P' board at the FAST or FASTEST level is written in bands (`banded_png`, with its
    `edges`, `known` and `encoded`)."""
    if level <= FAST and img.mode == "P" and "transparency" not in img.info:
        return banded_png(img, edges=tuple(edges), known=known, encoded=encoded, level=level)
    if img.mode != "P":
        img = flat_exact_palette(img.convert("RGB"))
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=level, optimize=False)
    return out.getvalue()


# A colour covering this share of a one-off picture (in a sample of every SAMPLE_STEP-th pixel
# of every SAMPLE_STEP-th row) is a flat colour, which the picture's palette holds exactly.
FLAT_SHARE = 0.001
SAMPLE_STEP = 4
# Palette entries the octree leaves free, for flat colours it put in a box another one owns.
SPARE = 8


def flat_exact_palette(img: Image.Image) -> Image.Image:
    """An RGB one-off picture mapped onto 256 colours of its own, its flat colours exact.

    Pillow's fast octree sorts the colours into boxes and paints each box its average; a flat
    colour then becomes the colour of its box, and a second flat colour in the same box is
    given one of SPARE entries kept free. Median cut, used before, gave a palette as close
    on average, but choosing it took five to six times as long on our cards, results, secrets
    and tables, most of their drawing (a High Voltage result 25 ms in all before, 11 after;
    the longest standings table 180 and 82: `python bench/render.py`), and it put the odd
    anti-aliased edge 60 levels from its colour, where no pixel of those pictures is now more
    than 15 away."""
    indexed = img.quantize(
        colors=256 - SPARE, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    size = (max(1, img.width // SAMPLE_STEP), max(1, img.height // SAMPLE_STEP))
    boxes = Image.frombytes("L", size, indexed.resize(size, Image.Resampling.NEAREST).tobytes())
    sample = Image.merge("RGBA", (*img.resize(size, Image.Resampling.NEAREST).split(), boxes))
    pixels = size[0] * size[1]
    values = (indexed.getpalette() or []) + [0] * 768
    spare = iter(range(256 - SPARE, 256))
    owned: set[int] = set()
    for count, found in sorted(sample.getcolors(pixels) or [], reverse=True):
        if count < FLAT_SHARE * pixels or not isinstance(found, tuple):
            break
        *colour, index = found
        if index in owned:  # a second flat colour in one box: its pixels get an entry apart
            index = next(spare, -1)
            if index < 0:
                return img.quantize(
                    colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
                )
            indexed.paste(index, mask=off_by(img, colour).point(lambda v: 255 * (v == 0)))
        owned.add(index)
        values[3 * index : 3 * index + 3] = colour
    indexed.putpalette(values[:768])
    return indexed


def off_by(img: Image.Image, colour: Sequence[int]) -> Image.Image:
    """How far each pixel of the RGB `img` is from `colour`: an 'L' image of the largest of
    its three differences."""
    red, green, blue = ImageChops.difference(img, Image.new("RGB", img.size, tuple(colour))).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


BAND_ROWS = 32  # a band: about a third of a High Voltage card's height, 30 kB of pixels
# A picture's bands as written: (top, bottom) rows -> (raw deflate blocks, Adler-32 of rows).
Encoded = dict[tuple[int, int], tuple[bytes, int]]
SAMPLE = 61  # bands are filed by every SAMPLE-th pixel (then all their pixels are compared)
BUCKET = 4  # bands kept under one sample: a few moves' versions of a band may share one
# What the bands kept for reuse may hold, their pixels and compressed bytes together: about
# the bands of a dozen boards, the last few moves of several games in one drawing process.
BAND_CACHE_BYTES = 16 * 1024 * 1024
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A zlib stream's header: deflate with a 32 kB window, compressed fast (readers ignore that).
_ZLIB_HEADER = b"\x78\x01"
_LAST_BLOCK = zlib.compressobj(FAST, zlib.DEFLATED, -15).flush()  # an empty final block
_ADLER_BASE = 65521
_IDAT_CRC = zlib.crc32(b"IDAT")  # a chunk's CRC-32 covers its kind, then its data


class Bands:
    """Bands of pictures' rows, compressed each on its own, the most recently used kept up to
    a number of bytes.

    A band is compressed by a fresh compressor and ended with a flush to a byte boundary, so
    its compressed bytes refer to nothing outside it: any run of them, in any order, followed
    by a final block, is a valid deflate stream of the bands' rows in that order. A band is
    reused only when all its pixels, and its width, are those asked for: two pictures share a
    compressed band only where they are the same. Hashing every pixel of a board to find its
    bands cost more than drawing half of it, so bands are filed by a sample of their pixels
    (every SAMPLE-th), up to BUCKET bands under one sample, and compared in full in place.
    Drawing may run in threads of one process: the bookkeeping is under a lock, the
    compressing is not."""

    def __init__(self, budget: int = BAND_CACHE_BYTES) -> None:
        self.budget = budget
        self.held = 0
        self._kept: OrderedDict[tuple[int, int, bytes], list[tuple[bytes, bytes, int]]]
        self._kept = OrderedDict()
        self._lock = threading.Lock()

    def compressed(
        self, picture: bytes, top: int, bottom: int, width: int, level: int = FAST
    ) -> tuple[bytes, int]:
        """Rows `top` to `bottom` (excluded) of `picture`, palette indices `width` to a row,
        each row followed by a zero byte (as `_rows` reads them), as PNG rows, each after its
        filter byte (0: palette rows are not filtered), in raw deflate blocks ending on a byte
        boundary, compressed at `level`; and the Adler-32 of those rows. Only the band's rows
        are compared to the bands kept and kept; the row above it gives its first filter byte
        (when there is none, the rows are copied after a zero byte)."""
        line = width + 1
        start, end = top * line, bottom * line
        key = (width, level, picture[start:end:SAMPLE])
        with self._lock:
            for pixels, blocks, adler in self._kept.get(key, ()):
                if len(pixels) == end - start and picture.startswith(pixels, start):
                    self._kept.move_to_end(key)
                    return blocks, adler
        pixels = picture[start:end]
        # The PNG rows are a filter byte, then each row and the zero byte after it, which is
        # the next row's filter byte, but for the last row's. Below the first row, the first
        # filter byte is the zero byte after the row above: the rows are read as they lie.
        # (Given to the compressor in one piece: given in two it writes other bytes.)
        if start:
            rows: bytes | memoryview = memoryview(picture)[start - 1 : end - 1]
        else:
            rows = b"".join((b"\0", memoryview(picture)[: end - 1]))
        packer = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
        blocks = packer.compress(rows) + packer.flush(isal_zlib.Z_SYNC_FLUSH)
        adler = isal_zlib.adler32(rows)  # zlib's, several times quicker
        size = len(pixels) + len(blocks)
        if size <= self.budget:
            with self._lock:
                bucket = self._kept.setdefault(key, [])
                bucket.insert(0, (pixels, blocks, adler))
                self.held += size
                if len(bucket) > BUCKET:
                    gone, gone_blocks, _ = bucket.pop()
                    self.held -= len(gone) + len(gone_blocks)
                self._kept.move_to_end(key)
                while self.held > self.budget:
                    _, dropped = self._kept.popitem(last=False)
                    self.held -= sum(
                        len(gone) + len(gone_blocks) for gone, gone_blocks, _ in dropped
                    )
        return blocks, adler

    def __len__(self) -> int:
        """How many bands are kept."""
        with self._lock:
            return sum(len(bucket) for bucket in self._kept.values())

    def clear(self) -> None:
        """Forget every band (the benchmark's board seen for the first time; tests)."""
        with self._lock:
            self._kept.clear()
            self.held = 0


BANDS = Bands()


def banded_png(
    img: Image.Image,
    bands: Bands = BANDS,
    edges: tuple[int, ...] = (),
    rows: int = BAND_ROWS,
    *,
    known: Encoded | None = None,
    encoded: Encoded | None = None,
    level: int = FAST,
) -> bytes:
    """A 'P' image as an 8-bit indexed PNG whose pixel data is compressed in bands of at most
    `rows` rows at `level`, each reused from `bands` when this process compressed the same
    pixels at that level before.

    `edges` are rows where a band starts: where one part of the picture's layout ends and the
    next begins (a row of cells, a line of the panel). A move then changes whole bands, and
    little beside the parts it changed is compressed again: with bands of 32 rows wherever
    they fell, a card's row of 104 pixels touched five of them.

    `known`: bands of an earlier picture with the same layout whose rows this picture shares,
    pixel for pixel (it was drawn over that one, see `render.overdraw`), as that picture's
    `encoded`: written as they are, their pixels neither read nor compared. `encoded`, when
    given, is filled with this picture's bands."""
    if img.mode != "P":
        raise ValueError(f"a banded PNG is written from a 'P' image, not {img.mode!r}")
    width, height = img.size
    palette = _palette(img)  # (this loads a picture read from a file: its rows are read below)
    spans = _band_rows(height, edges, rows)
    known = known or {}
    # Reading only the bands to write costs a copy each; past a few, reading all is quicker.
    pixels = _rows(img, 0, height) if 4 * len(known) < len(spans) else None
    blocks = [_ZLIB_HEADER]
    adler = 1
    for top, bottom in spans:
        part = known.get((top, bottom))
        if part is None:
            if pixels is not None:
                part = bands.compressed(pixels, top, bottom, width, level)
            else:
                above = max(top - 1, 0)  # the row above too, for the zero byte after it
                band = _rows(img, above, bottom)
                part = bands.compressed(band, top - above, bottom - above, width, level)
        if encoded is not None:
            encoded[(top, bottom)] = part
        compressed, band_adler = part
        blocks.append(compressed)
        adler = _adler_joined(adler, band_adler, (bottom - top) * (width + 1))
    blocks += [_LAST_BLOCK, adler.to_bytes(4, "big")]
    # The picture's bytes are put together once: the pixel data's chunk is written around its
    # blocks as they are, its checksum summed over them in turn (ISA-L's CRC-32, the same
    # figure as zlib's, many times quicker), instead of joining them and copying the joined
    # data into the chunk and the chunk into the file (each copy cost as much as the sum).
    idat = 0
    checksum = _IDAT_CRC
    for block in blocks:
        idat += len(block)
        checksum = isal_zlib.crc32(block, checksum)
    return b"".join(
        (
            _SIGNATURE,
            _header_chunks(width, height, palette),
            struct.pack(">I", idat),
            b"IDAT",
            *blocks,
            struct.pack(">I", checksum),
            _IEND,
        )
    )


def _rows(img: Image.Image, top: int, bottom: int) -> bytes:
    """The pixels of rows `top` to `bottom` (excluded) of a 'P' image, a byte each, each row
    followed by a zero byte: the PNG's filter bytes in their places, so that a band's PNG
    rows are the bytes from the zero byte after the row above it to its last row, and never
    need to be put together (see `Bands.compressed`).

    Read by Pillow's raw encoder straight from the picture's rows (a row of one byte more than
    the picture is wide is written with a zero byte after the row), in one piece: a board
    reads a dozen bands, and `crop` made a picture of each (its palette copied and checked)
    that `tobytes` then read in 64 kB pieces and joined, which took several times as long
    as reading the rows."""
    width = img.width
    size = (width + 1) * (bottom - top)
    if size == 0:
        return b""
    encoder = Image._getencoder("P", "raw", ("P", width + 1, 1))
    encoder.setimage(img.im, (0, top, width, bottom))
    _, status, data = encoder.encode(size)  # a buffer the size of the rows: read at once
    if status != 1:  # 1: every row read; anything else would be a bug here
        raise RuntimeError(f"reading rows {top}-{bottom} of a picture failed ({status})")
    return data


def _palette(img: Image.Image) -> bytes:
    """A 'P' image's palette as RGB bytes (black alone when it has none), read as bytes
    instead of as the list of ints `Image.getpalette` makes."""
    img.load()  # a palette put on the image is handed to its pixels when it is loaded
    try:
        mode = img.im.getpalettemode()
    except ValueError:  # no palette
        return b"\0\0\0"
    return img.im.getpalette(mode, "RGB")


@lru_cache(maxsize=16)
def _header_chunks(width: int, height: int, palette: bytes) -> bytes:
    """The IHDR and PLTE chunks of an 8-bit indexed picture: the same for every board of a
    game and look."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, indexed
    colours = palette[: 3 * 256].ljust(3 * 256, b"\0")
    return _chunk(b"IHDR", header) + _chunk(b"PLTE", colours)


@lru_cache(maxsize=64)
def _band_rows(height: int, edges: tuple[int, ...], rows: int) -> tuple[tuple[int, int], ...]:
    """(top, bottom) of every band: a band starts at each edge, and the rows between two edges
    are shared out evenly between as few bands of at most `rows` rows as hold them."""
    cuts = sorted({0, height, *(e for e in edges if 0 < e < height)})
    out: list[tuple[int, int]] = []
    for top, bottom in itertools.pairwise(cuts):
        count = -(-(bottom - top) // rows)
        out += [
            (top + (bottom - top) * i // count, top + (bottom - top) * (i + 1) // count)
            for i in range(count)
        ]
    return tuple(out)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_IEND = _chunk(b"IEND", b"")


def _adler_joined(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from the checksum of each (as
    zlib's adler32_combine): the sum of the bytes adds up, and every running sum of the second
    string counts the first string's sum once more."""
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = ((first >> 16) + (second >> 16) + second_length * ((first & 0xFFFF) - 1)) % _ADLER_BASE
    return low | high << 16
