"""How far a bot process is behind on what its changes owe, so that new games wait for it.

A click or a command is answered first (Discord's three seconds), and what its change owes
follows after: a start's first board, each person's secret, the AI seat's first move. Answers
are quick and owed posts are slow, so a process asked for new games faster than it can carry
out their starts falls further behind with every lobby it answers. At 10,000 games opened two
hundred at a time, people waited minutes for the first board of games that had started while
new lobbies were still answered within milliseconds, and what waited held the process's memory
at its high-water mark for good.

So what a process owes comes before new games: while more than `MOST_UNDER_WAY` changes are
being followed here (their posts going out, their AI seats moving), a new lobby waits until
fewer are, showing Discord's "thinking…" meanwhile. Nothing else waits: a move, a click in a
lobby open already, a board asked for again are the people already playing.

The count is of work owed, not of games: an AI seat's run of moves counts for as long as it
runs, and each of its moves once more while that move is followed, but not its pause before
each move (`idle`). The pause is the game's pacing (an AI answering at once reads as a
machine), with nothing to carry out meanwhile. Counted, it made new lobbies show "thinking…"
while the process waited on nothing but the clock: at 1.5 s a pause, seventy moves a second
handing the turn to AI seats keep a hundred pauses under way, the whole count.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from hvbot.infra import metrics

# Changes followed at once before a new lobby waits. Far more than a busy server's games
# start at one moment; enough that a process whose owed posts wait on Discord's answers
# still has work for its CPU meanwhile.
MOST_UNDER_WAY = 100


class Backlog:
    """The changes this process is following now (`working`, `track`), and the wait of a new
    game until they are at most `most` (`caught_up`)."""

    def __init__(self, most: int = MOST_UNDER_WAY) -> None:
        self.most = most
        self.under_way = 0
        self._room = asyncio.Event()
        self._room.set()

    @property
    def behind(self) -> bool:
        """More changes are being followed than a new game may wait behind."""
        return self.under_way > self.most

    @contextmanager
    def working(self) -> Iterator[None]:
        """One change followed for as long as the block runs."""
        self._count(1)
        try:
            yield
        finally:
            self._count(-1)

    def track(self, task: asyncio.Task[None]) -> None:
        """One change followed for as long as `task` runs (an AI seat's moves), but for
        the blocks it runs `idle`."""
        self._count(1)
        task.add_done_callback(lambda _: self._count(-1))

    @contextmanager
    def idle(self) -> Iterator[None]:
        """Inside a change counted (`working`, `track`): a block that only waits on
        purpose (an AI seat's pause before its move) is no work under way, and a new game
        does not wait behind it."""
        self._count(-1)
        try:
            yield
        finally:
            self._count(1)

    async def caught_up(self) -> None:
        """Return once at most `most` changes are being followed: the wait of a new game
        found `behind` (counted in the metrics as one that waited, however short)."""
        metrics.LOBBIES_DEFERRED.inc()
        while self.behind:
            await self._room.wait()

    def _count(self, step: int) -> None:
        self.under_way += step
        metrics.CHANGES_UNDER_WAY.inc(step)
        if self.behind:
            self._room.clear()
        else:
            self._room.set()
