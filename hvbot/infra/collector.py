"""The garbage collector of a bot process: what it walks, and when it may walk everything.

A bot's objects are of two lives: its games (their states, rows, channels and people), held as
long as the games are open, thousands of them; and its moves' objects (an interaction, a card,
a picture's file, a write), gone within a second. The moves leave no reference cycles (see
`tests/e2e/test_e2e_garbage.py`), so they are freed as they go, by their reference counts,
and the collector has nearly nothing to find. Yet left as it is, each of its full passes walked
every object the process holds: at 2,000 games, about 400,000, half a second with the event
loop stopped, and more as more games were opened, finding a few dozen objects.

So what survives a full pass is frozen (`gc.freeze`): the next passes walk only what came
since, the games opened or changed meanwhile. Should something frozen later become cyclic
garbage (a cycle that no test has seen), it would wait there for good; so when the frozen
objects have grown to `GROWTH` times what they were the last time everything was walked, the
next full pass walks everything again (`gc.unfreeze` as it starts), and what is left is frozen
anew. Whatever waits is then at most as much again as the process held at that time, and a
process that holds about the same games does that never; one growing to 10,000 games does it a
handful of times on the way, each pass walking what it holds then.

The young passes come after `YOUNG` new objects, not Python's 700. A bot serving hundreds of
moves at once has a move's objects in flight at every instant: a young pass every 700 objects
found many of them alive, and passed them on to the middle generation, whose passes walked them
again, though they were gone a moment later. Ten thousand objects apart, more of them are gone
before a pass comes. Over 3,000 games set up at once (`python -m bench.load --games 3000 ...`
with LOAD_BOT_LATENESS set), the collector's time went from 3.5 s to 1.9 s and the bot's CPU a
game set up down by 7-8% (two runs of each, in turn), a young pass then taking 6 ms (28 at
most) and a middle one 30 (58 at most). The older generations' thresholds are left as they
are, and so are young passes set further apart already (a test process's) or turned off; the
process's thresholds come back when the last user stops.

`gc.DEBUG_SAVEALL` (a test looking at what a pass found) is left alone: the objects it keeps are
for someone to look at and let go of, not to be frozen for good.

The garbage collector is the process's, so is this: every bot a process runs uses the one
`process_collector`, started by each as it sets up and stopped as the last one closes. Only its
first start counts everything frozen (Python walks every frozen object to count them: some
50 ms at 300,000 in a process that has run many bots); a later start walked only what was not
frozen yet, so it leaves `walked_all` as it was and adds what it froze to `frozen`.
"""

from __future__ import annotations

import functools
import gc
from typing import Any

GROWTH = 2.0  # frozen objects grown this many times over: the next full pass walks all
YOUNG = 10_000  # new objects (less those freed) between two young passes; Python's: 700


class Collector:
    """Freezes what survives each full pass of the garbage collector, from the first `start`
    to the last `stop`: one a process is enough (`process_collector`)."""

    def __init__(self, growth: float = GROWTH, young: int = YOUNG) -> None:
        self.growth = growth
        self.young = young
        # The process's thresholds this replaced (young passes `young` apart), to give back.
        self.replaced: tuple[int, int, int] | None = None
        self.walked_all = 0  # the frozen objects after everything was last walked
        # The frozen objects, as counted when frozen. Frozen objects freed since (a game's
        # state replaced by its next) still count: Python's own count (`gc.get_freeze_count`)
        # walks every frozen object to count them, a pause of its own (25 ms at 1.4 million),
        # so it is asked only where everything was just walked, or where this count says
        # it is time to: counting high, the check comes sooner, never later.
        self.frozen = 0
        self.passes = 0  # full passes seen since the first `start`
        self.passes_over_all = 0  # ...of which walked everything
        self.users = 0  # starts not yet stopped: the bots of the process using it
        self.counted = False  # whether everything frozen has been counted once

    def start(self) -> None:
        """Walk everything not frozen yet (what start-up built, which lives as long as the
        process: the libraries, fonts, picture pieces, card data, commands), freeze it, and
        freeze what survives every full pass until the last user stops, the young passes
        `young` objects apart meanwhile."""
        self.users += 1
        if self.replaced is None:
            found = gc.get_threshold()
            if 0 < found[0] < self.young:  # not off, nor further apart already
                self.replaced = found
                gc.set_threshold(self.young, *found[1:])
        gc.collect()
        if self.counted:
            # What is frozen now: the pass's survivors (the oldest generation) and whatever was
            # made since, by the pass's own finalizers and weak references' callbacks too.
            self.frozen += len(gc.get_objects())
            gc.freeze()
        else:
            gc.freeze()
            self.frozen = self.walked_all = gc.get_freeze_count()
            self.counted = True
        if self._collecting not in gc.callbacks:
            gc.callbacks.append(self._collecting)

    def stop(self) -> None:
        """One user fewer; with none left, freeze nothing more (what is frozen stays so),
        and give the process back the thresholds `start` replaced, if it replaced any."""
        self.users = max(0, self.users - 1)
        if self.users:
            return
        if self._collecting in gc.callbacks:
            gc.callbacks.remove(self._collecting)
        if self.replaced is not None:
            gc.set_threshold(*self.replaced)
            self.replaced = None

    def _collecting(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback, on whichever thread made it collect: a full pass about
        to start walks everything if the frozen objects have grown enough; one ended freezes
        what survived (all of it in the oldest generation then), having counted it. Everything
        frozen is counted only where this count says a walk of everything is due, and after
        one."""
        if info["generation"] != 2 or gc.get_debug() & gc.DEBUG_SAVEALL:
            return
        if phase == "start":
            self.passes += 1
            bound = self.growth * max(self.walked_all, 1)
            if self.frozen > bound:
                # Counted high (the games' states replaced move by move were counted each
                # time they were frozen): count them, once, before walking everything.
                self.frozen = gc.get_freeze_count()
            if self.frozen > bound:
                gc.unfreeze()  # into the oldest generation: this pass walks it all
                self.passes_over_all += 1
                self.walked_all = -1  # set as the pass ends
            return
        if self.walked_all < 0:
            gc.freeze()
            self.frozen = self.walked_all = gc.get_freeze_count()
            return
        self.frozen += len(gc.get_objects())  # what this pass kept, and anything made since
        gc.freeze()


@functools.cache
def process_collector() -> Collector:
    """The process's one collector, shared by every bot it runs."""
    return Collector()
