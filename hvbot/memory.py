"""How the bot's process hands the memory of its pictures back to the system.

Every public move sends a board picture (75-115 kB of PNG) through the bot's process: read
back from the drawing worker, then uploaded to Discord. glibc's malloc serves blocks that size
from its heap, and a heap is given back to the system only from its top, so a busy moment
leaves it at its high-water mark for good. At a few hundred games, the pictures in flight at
once left the bot's heap 20-30 MB larger, most of it free but held. Below a fixed threshold of
64 kB, each picture gets a mapping of its own instead, which goes back to the system as soon as
it is sent; a fixed threshold also stops malloc raising it as it sees large blocks freed.

Only the bot's own process does this, not the drawing workers: drawing a board makes many large
blocks of its own, and a mapping for each made drawing about 30% slower, to save a few MB that
a worker holds once and keeps reusing.
"""

from __future__ import annotations

import ctypes
import platform

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
LARGE_BYTES = 64 * 1024  # a board picture is larger; a game's stored state is smaller


def give_back_large_buffers(threshold: int = LARGE_BYTES) -> bool:
    """Have every block of `threshold` bytes or more mapped on its own and unmapped when freed.

    False where the C library is not glibc (macOS, Alpine's musl): nothing changes there."""
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, threshold) == 1
