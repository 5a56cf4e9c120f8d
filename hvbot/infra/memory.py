"""How the bot's processes hand memory they no longer use back to the system.

Every public move sends a board picture (75-115 kB of PNG) through the bot's process: read
back from the drawing worker, then uploaded to Discord. glibc's malloc serves blocks that size
from its heap, and a heap is given back to the system only from its top, so a busy moment
leaves it at its high-water mark for good. At 200 games, the pictures in flight in a busy spell
left up to 27 MB free but held in the bot's heap. With malloc's mapping threshold fixed at 64 kB,
each picture gets a mapping of its own instead, which goes back to the system as soon as it is
sent (fixed, malloc no longer raises the threshold as it sees large blocks freed).

Not so where pictures are drawn (the workers, or the bot itself with DRAWING_PROCESSES=0):
drawing a board makes many large blocks of its own, and a mapping for each made drawing about
30% slower. A worker instead gives back the free pages inside its heap every couple of seconds
(`trim`): a drawing worker that has drawn 6000 boards then holds 72 MB instead of 77, at no cost
to its speed.
"""

from __future__ import annotations

import ctypes
import functools
import platform

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
LARGE_BYTES = 64 * 1024  # a board picture is larger; a game's stored state is smaller


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    """The C library, where it is glibc (not on macOS or Alpine's musl: nothing is tuned there)."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None


def give_back_large_buffers(threshold: int = LARGE_BYTES) -> bool:
    """Have every block of `threshold` bytes or more mapped on its own and unmapped when freed.
    False where that cannot be set."""
    libc = _glibc()
    if libc is None:
        return False
    mallopt = libc.mallopt
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, threshold) == 1


def trim() -> bool:
    """Give the pages free inside malloc's heap back to the system; False where that cannot be
    done. It takes 2-30 ms, holding malloc's lock meanwhile: a worker does it every 2 s.

    A heap is otherwise given back only from its top, so blocks freed below a block still in use
    stay resident for good: in a drawing worker, pictures freed between the cached pieces."""
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
