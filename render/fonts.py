"""Fonts for the pictures, loaded once per process.

DejaVu Sans ships in `data/fonts/` so every machine draws the same glyphs (byte-identical
pictures across the bot's hosts). If the files are missing from an install, Pillow's own
scalable font is used instead: the pictures stay readable, only less bold.
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources
from io import BytesIO
from pathlib import Path

from PIL import ImageFont

# Always a FreeType face: the pictures measure lines by its metrics (`getmetrics`), which
# Pillow's bitmap font has not.
Font = ImageFont.FreeTypeFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

# Discord shows a picture in a channel at most about this many pixels wide, whatever its own
# width (a phone, narrower still): a board of 1000 pixels is seen at about half its size.
SHOWN_WIDTH = 550
# The least font size, in pixels as shown, at which a label still reads without opening the
# picture: about the size of Discord's own smallest text.
LEAST_SHOWN = 11


def least_size(width: int) -> int:
    """The smallest font size for a picture `width` pixels wide: a label drawn smaller is
    under LEAST_SHOWN pixels once Discord shrinks the picture to SHOWN_WIDTH."""
    return math.ceil(LEAST_SHOWN * width / SHOWN_WIDTH)


@cache
def font(size: int, bold: bool = True) -> Font:
    """The picture font at `size` pixels; cached because loading a face costs ~1 ms.

    A face is opened from its file when the install has one, so FreeType reads it from the
    file as it needs: given the bytes instead, every size would keep its own copy of the whole
    font (~700 kB each, a dozen sizes in use)."""
    try:
        found = resources.files("data.fonts").joinpath(_FILES[bold])
        if isinstance(found, Path) and found.is_file():
            return ImageFont.truetype(str(found), size=size)
        data = found.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return _default_font(size)
    return ImageFont.truetype(BytesIO(data), size=size)


def _default_font(size: int) -> Font:
    """Pillow's own scalable font, for an install without DejaVu Sans. Pillow built without
    FreeType has only a bitmap font, with no metrics to lay a line out by: refused here
    rather than failing at the first label."""
    face = ImageFont.load_default(size=size)
    if not isinstance(face, ImageFont.FreeTypeFont):
        raise RuntimeError(
            "The pictures need Pillow with FreeType, and this Pillow has none "
            "(its wheels from PyPI have it)."
        )
    return face


def icon_font(size: int, bold: bool = True) -> Font:
    """The font of a letter that is part of an icon: a company disc's letter, a pawn's. It is
    drawn as large as its icon allows, not held to `least_size`: the icon's colour and shape
    say the same, and the panel names it in full-size words."""
    return font(size, bold)


# A code point no font maps: what the face draws for a character it has no glyph for.
_NO_GLYPH = "\uffff"
# Characters that only steer the emoji round them (variation selectors, joiners, tags): drawn
# alone they show a box, and with the emoji gone they have nothing left to steer.
_EMOJI_STEERING = frozenset(
    [0x200D, 0x20E3, *range(0xFE00, 0xFE10), *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0)]
)


def drawable(text: str, bold: bool = True) -> str:
    """`text` without the characters the picture font cannot draw, spaces tidied.

    Texts written for Discord messages carry emoji (the clock's "⏳") that DejaVu Sans has no
    glyph for: drawn, each would be an empty box, which looks like a fault. The words round
    them are kept as they are."""
    kept = "".join(c for c in text if _has_glyph(c, bold))
    return " ".join(kept.split())


def has_glyph(char: str, bold: bool = True) -> bool:
    """Whether the picture font draws `char` as itself (not as the box of a missing glyph):
    a name in any script is drawn with a fallback mark where the font has nothing."""
    return _has_glyph(char, bold)


@cache
def _has_glyph(char: str, bold: bool) -> bool:
    """Whether the face draws `char` as itself, not as its box for a missing glyph. Pillow
    does not say which characters a face maps, so the character's mask is compared with the
    box's; cached, as the same few characters come back on every picture."""
    if char.isspace():
        return True
    if ord(char) in _EMOJI_STEERING:
        return False
    face = font(20, bold)
    missing = face.getmask(_NO_GLYPH)
    mask = face.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)
