"""What a piece of code leaves for the garbage collector: objects freed only by a collection
(reference cycles), never by their counts going to zero.

A bot serving thousands of games makes its moves' objects by the hundred thousand a minute:
those that form cycles wait for a full collection, which walks every object the process
holds, with the event loop stopped meanwhile. A test runs the code between `gc.collect()`
calls with `gc.DEBUG_SAVEALL` on, and looks at what the second collection found."""

from __future__ import annotations

import collections
import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def cyclic_garbage() -> Iterator[list[object]]:
    """The objects freed only by a collection while the block ran, in the list yielded
    (filled as the block ends). What was garbage before the block is collected first."""
    found: list[object] = []
    gc.collect()
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def kinds(garbage: list[object]) -> collections.Counter[str]:
    """How many of each type, by module and name: what a failing test says was left."""
    return collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in garbage)
