"""Which cores the bots run on, and which the rest of a run does.

On a machine whose every core the run keeps busy, each process's CPU is taken from all the
others: the bots' PostgreSQL server, the players' replica and the players themselves then
slow the bots down as much as the bots' own work does. A bot deployed on PostgreSQL has a
database on a machine of its own; one on SQLite does that work in its own process. With
`--bot-cores N` the bots (and the workers they start, which inherit it) keep to the first N
cores, and this process (the emulator and the players) with the PostgreSQL servers it starts to
the others: what the bots store a second is then what their cores let them, as on a machine of
their own, whichever database they use. Without it every process may run on every core.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from .machine import process_tree


@dataclass(frozen=True)
class Cores:
    """The cores the bots keep to, and those the rest of the run keeps to."""

    bots: frozenset[int]
    others: frozenset[int]

    @property
    def bots_arg(self) -> str:
        """The bots' cores as `bench/load_bot.py --cores` takes them."""
        return ",".join(str(core) for core in sorted(self.bots))


def split(count: int, available: Iterable[int]) -> Cores:
    """The first `count` of the `available` cores for the bots, the rest for the others.
    Raises ValueError, saying what would do, if that leaves either side none."""
    cores = sorted(available)
    if not 0 < count < len(cores):
        raise ValueError(
            f"--bot-cores gives the bots cores of their own and leaves the others at least one: "
            f"1 to {len(cores) - 1} on this machine's {len(cores)} usable core(s)"
        )
    return Cores(frozenset(cores[:count]), frozenset(cores[count:]))


def keep_to(cores: Iterable[int]) -> None:
    """This process, and every process it starts from now on, runs on `cores` alone."""
    os.sched_setaffinity(0, set(cores))


def cores_of(pids: Iterable[int]) -> frozenset[int]:
    """Every core the processes (with their descendants: a bot's workers) may run on, as the
    kernel has it."""
    found: set[int] = set()
    for pid in pids:
        for member in process_tree(pid):
            try:
                found |= os.sched_getaffinity(member)
            except OSError:  # a worker that ended meanwhile
                continue
    return frozenset(found)
