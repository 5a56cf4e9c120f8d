"""What the worker tests hand a worker process to run, kept apart from the tests themselves.

A worker imports the module of every function it is handed. Defined in a test module, each
worker started (and every one started again after a test killed it) imported that whole
module and all the test module imports: the bot's store, its database drivers, pytest. Here
it imports only what these few calls need.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from hvbot.plugins import plugins


def held_until(gate: str) -> None:
    """In a worker: be busy until the test opens `gate` (makes the file), so the test decides
    how long, whatever the machine's speed."""
    deadline = time.monotonic() + 60
    while not os.path.exists(gate):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{gate} was never opened")
        time.sleep(0.002)


def registered() -> list[str]:
    """The games the worker knows."""
    return [plugin.name for plugin in plugins()]


class Parcel:
    """Something handed to a worker that the test can watch for (by a weak reference)."""

    def __init__(self, size: int) -> None:
        self.size = size


def size_of(parcel: Parcel) -> int:
    return parcel.size


def drawn_after(seconds: float, marks: str) -> float:
    """As a drawing that takes `seconds`: marks its end in the folder `marks`."""
    time.sleep(seconds)
    Path(marks, str(os.getpid()) + "-" + str(time.monotonic_ns())).touch()
    return time.monotonic()


def marked_and_held(gate: str, marks: str) -> int:
    """In a worker: say it has the call (a file named by its pid in the folder `marks`), then
    `held_until` the gate opens; its pid."""
    Path(marks, str(os.getpid())).touch()
    held_until(gate)
    return os.getpid()
