"""The bot's processes give memory they no longer use back to the system: the bot's own a
picture's once it is sent, a worker's what its work left free in its heap.

Each check runs in a process of its own, since malloc's settings belong to the whole process."""

from __future__ import annotations

import asyncio
import ctypes
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from hvbot.infra.workers import WATCH_S, Workers

ROOT = Path(__file__).resolve().parents[2]
PICTURE = 100_000  # bytes: a board picture's size, under malloc's own starting threshold
PICTURES = 40
LOOK_S = 0.1  # how often the test's worker looks after itself (the bot's: WATCH_S)

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="malloc's settings and figures are glibc's (2.33 or later)",
)

# Prints the bytes malloc has mapped on their own: before, with the pictures held, after.
MAPPED = f"""
import ctypes, sys
from hvbot.infra.memory import give_back_large_buffers

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
    # Most, not all: malloc still serves a block from a free one of the heap's if it fits.
    assert holding - before >= PICTURES * PICTURE * 3 // 4
    assert after <= before


def test_without_it_pictures_sit_in_the_heap() -> None:
    """The contrast the setting exists for: malloc's default keeps such blocks in its heap,
    which is given back only from its top."""
    before, holding, _ = mapped("default")
    assert holding - before < PICTURE


_KEPT: list[bytearray] = []  # in the worker: small blocks that stay


def resident_kb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def leave_holes(megabytes: int) -> int:
    """In a worker: fill and free `megabytes` of picture-sized blocks, each followed by a small
    block that stays, the way pictures are freed between the cached pieces of a drawing worker.
    Its resident kB as it held them: freeing them leaves holes in the heap, which stay
    resident until the worker gives them back (measured after the freeing, a look that came
    in between would have given them back already)."""
    pictures = []
    for _ in range(megabytes * 1_000_000 // PICTURE):
        pictures.append(bytearray(b"\xff") * PICTURE)
        _KEPT.append(bytearray(b"\x01") * 600)
    holding = resident_kb()
    del pictures
    return holding


async def test_a_worker_gives_back_what_its_work_left_free_once_quiet() -> None:
    """Within its next look after itself, asked for nothing meanwhile."""
    workers = Workers(1, watch_s=LOOK_S)
    try:
        holding = await workers.run(leave_holes, 40)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5 * WATCH_S  # a generous bound on a slow machine
        after = await workers.run(resident_kb)
        while after >= holding - 20_000 and loop.time() < deadline:
            await asyncio.sleep(0.05)  # a poll, not a wait for quiet: the worker is quiet
            after = await workers.run(resident_kb)
    finally:
        workers.close()
    assert after < holding - 20_000
