"""Whether two PNG files show the same picture.

A board's bytes are not always the same for the same picture: its bands are compressed anew
or reused from earlier boards, and ISA-L's deflate may write the same rows in other, as good,
deflate blocks. So a board made elsewhere (a drawing worker, a post the bot sent) is compared
with the board drawn here as what a viewer sees: its size and every pixel."""

from __future__ import annotations

import io

from PIL import Image


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    """A picture as it shows: its size and its pixels in RGBA, whatever its file's encoding."""
    with Image.open(io.BytesIO(png)) as picture:
        return picture.size, picture.convert("RGBA").tobytes()


def same_picture(sent: bytes, expected: bytes) -> bool:
    """Do two PNG files show the same picture, pixel for pixel?"""
    return sent == expected or pixels(sent) == pixels(expected)
