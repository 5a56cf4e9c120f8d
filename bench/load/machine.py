"""What the run reads of the machine: the bot processes' memory and CPU from /proc, and the
speed of the cores themselves (a shared virtual machine's host can slow them down for minutes,
and every other figure moves with it)."""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from .config import PROBE_LOOPS, SLOWED, SPIKED


def _stat_fields(pid: int, thread: int | None = None) -> list[str]:
    """/proc/<pid>/stat after the process name (which, in parentheses, may hold spaces); with
    `thread`, that thread's own (/proc/<pid>/task/<thread>/stat)."""
    where = f"/proc/{pid}" if thread is None else f"/proc/{pid}/task/{thread}"
    text = Path(f"{where}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants (the bot's workers, and the process that starts
    them): the bot's memory and CPU are theirs together."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                children.setdefault(int(_stat_fields(int(entry.name))[1]), []).append(
                    int(entry.name)
                )
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def rss_kb(*pids: int, descendants: bool = True) -> int:
    """Resident memory of processes (the bot's) and (unless told otherwise) their
    descendants, together, from the kernel's own count."""
    total = 0
    members = [m for pid in pids for m in (process_tree(pid) if descendants else [pid])]
    for member in members:
        with contextlib.suppress(OSError):  # a worker that ended meanwhile
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int, *, descendants: bool = True) -> float:
    """User plus system CPU time of a process and (unless told otherwise) its descendants
    (every thread), in seconds. A descendant that ended still counts once its parent in the
    tree has waited for it (the kernel then adds its time to the parent's children's time):
    counted only while it ran, a worker that ended between two readings took all its time
    out of the second, and the total over a set-up could come out below the bot's own."""
    if not descendants:
        return _cpu_of([pid])
    return _cpu_of(process_tree(pid), waited_for=True)


def loop_cpu_seconds(pid: int) -> float:
    """User plus system CPU time, in seconds, of a process's main thread: a bot's event loop
    runs there, and everything it does itself passes through it. Set against the wall time,
    it says whether the loop was what the bot waited for (busy all along) or not (the bot's
    other threads, its database's among them, or its answers from elsewhere held it back)."""
    try:
        fields = _stat_fields(pid, thread=pid)  # the main thread's id is the process's
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def cpu_seconds_titled(pid: int, words: tuple[str, ...]) -> float:
    """User plus system CPU time, in seconds, of those of a process and its descendants whose
    title (command line) holds one of `words`: PostgreSQL names each of its processes by what
    it does ("postgres: startup recovering ...", "postgres: walreceiver ...")."""
    return _cpu_of(m for m in process_tree(pid) if any(w in _title(m) for w in words))


def _cpu_of(pids: Iterable[int], *, waited_for: bool = False) -> float:
    """The CPU seconds of these processes, those that have ended left out; with `waited_for`,
    each one's children that ended and were waited for counted in it."""
    total = 0
    for member in pids:
        with contextlib.suppress(OSError):
            fields = _stat_fields(member)
            total += int(fields[11]) + int(fields[12])  # utime, stime
            if waited_for:
                total += int(fields[13]) + int(fields[14])  # cutime, cstime
    return total / os.sysconf("SC_CLK_TCK")


def _title(pid: int) -> str:
    """A process's command line, as `ps` shows it; empty once it has ended."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def slowdown(before: float, probes: Sequence[float]) -> float:
    """How many times slower than its fastest the machine was at its slowest, if the host
    slowed it during the run (see SLOWED and SPIKED); 0.0 if it held its speed.

    Against the fastest probe, before the run or during it: the machine may have been slow
    already when the run began."""
    timed = [before, *probes]
    fastest = min(timed)
    if not fastest > 0:  # no probe, or none that could be read
        return 0.0
    held = max(min(pair) for pair in itertools.pairwise(timed)) / fastest
    spiked = max(timed) / fastest
    if held >= SLOWED or spiked >= SPIKED:
        return max(held, spiked)
    return 0.0


def probe_ms() -> float:
    """This thread's CPU time for a fixed piece of pure Python, in ms. CPU time rather than
    wall time, so other processes running meanwhile do not count; a host that slows the
    machine's cores down does."""
    start = time.thread_time()
    total = 0
    for i in range(PROBE_LOOPS):
        total += i * i
    return (time.thread_time() - start) * 1000
