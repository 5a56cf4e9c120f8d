"""Fonts for the pictures, loaded once per process.

DejaVu Sans ships in `data/fonts/` so every machine draws the same glyphs (byte-identical
pictures across the bot's hosts). If the files are missing from an install, Pillow's own
scalable font is used instead: the pictures stay readable, only less bold.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from io import BytesIO
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


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
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(BytesIO(data), size=size)
