"""The bot's process gives a picture's memory back to the system once it is sent.

Each check runs in a fresh interpreter, since malloc's settings belong to the whole process."""

from __future__ import annotations

import ctypes
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PICTURE = 100_000  # bytes: a board picture's size, under malloc's own starting threshold
PICTURES = 40

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="malloc's settings and figures are glibc's (2.33 or later)",
)

# Prints the bytes malloc has mapped on their own: before, with the pictures held, after.
MAPPED = f"""
import ctypes, sys
from hvbot.memory import give_back_large_buffers

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split())]

mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = MallInfo2
if sys.argv[1] == "given back" and not give_back_large_buffers():
    sys.exit("not set")
before = mallinfo2().hblkhd
held = [bytearray({PICTURE}) for _ in range({PICTURES})]
holding = mallinfo2().hblkhd
del held
print(before, holding, mallinfo2().hblkhd)
"""


def mapped(mode: str) -> tuple[int, int, int]:
    done = subprocess.run(
        [sys.executable, "-c", MAPPED, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    before, holding, after = map(int, done.stdout.split())
    return before, holding, after


def test_pictures_get_mappings_of_their_own_that_go_back_when_freed() -> None:
    before, holding, after = mapped("given back")
    assert holding - before >= PICTURES * PICTURE
    assert after <= before


def test_without_it_pictures_sit_in_the_heap() -> None:
    """The contrast the setting exists for: malloc's default keeps such blocks in its heap,
    which is given back only from its top."""
    before, holding, _ = mapped("default")
    assert holding - before < PICTURE
