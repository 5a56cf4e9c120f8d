"""Fixed reference opponents for Pylons: players outside the project's levels, for measuring
those levels against something that does not change when they do.

`runner(view, rng)` builds its own shortest connection and never blocks: it places the pylon
that most shortens its shortest path between its two borders, found by a 0-1 breadth-first
search in which an own pylon costs nothing, a free cell it may use costs one, a step is a
knight's move, and a step whose link a link on the board would cross is impossible. The
opponent's pylons are only obstacles to it. A plain racing player like this is what a level
that never looks at its opponent's chain loses to, so a level must beat it clearly.

It is not registered with `engine.ai`, so players never see it as a level; benchmarks and
tests import it from here. It keeps its own small search rather than the AI's, so that
changing the AI never changes the yardstick.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from typing import Any

from games.pylons.rules.board import CELLS, COL, CROSSES, LAST, NAMES, NEIGHBOURS, ROW
from games.pylons.rules.state import CHOOSE, PylonsState

FAR = 10_000  # the distance of a player who can no longer connect


class Racer:
    """One seat's view of the board as a racer sees it: where it may build, its own pylons,
    and which links can never be built."""

    def __init__(self, state: PylonsState, seat: int) -> None:
        self.seat = seat
        self.own = seat + 1
        self.owner = bytearray(state.owner)
        self.crossed = list(state.crossed)
        self.open = state.open[seat]
        axis = COL if seat == 0 else ROW
        self.starts = [c for c in range(CELLS) if axis[c] == 0 and self.open[c]]
        self.ends = [c for c in range(CELLS) if axis[c] == LAST and self.open[c]]

    def usable(self, c: int) -> bool:
        """Free or own, and allowed for this seat."""
        o = self.owner[c]
        return bool(self.open[c]) and (not o or o == self.own)

    def field(self, backwards: bool) -> list[int]:
        """The cost of the cheapest way from one border to every cell, the cell included."""
        owner, crossed, own = self.owner, self.crossed, self.own
        dist = [FAR] * CELLS
        queue: deque[int] = deque()
        for c in self.ends if backwards else self.starts:
            if self.usable(c):
                dist[c] = 0 if owner[c] else 1
                if owner[c]:
                    queue.appendleft(c)
                else:
                    queue.append(c)
        while queue:
            u = queue.popleft()
            du = dist[u]
            for v, link in NEIGHBOURS[u]:
                if crossed[link] or not self.open[v]:
                    continue
                o = owner[v]
                if o == own:
                    if du < dist[v]:
                        dist[v] = du
                        queue.appendleft(v)
                elif not o and du + 1 < dist[v]:
                    dist[v] = du + 1
                    queue.append(v)
        return dist

    def distance(self) -> int:
        ahead = self.field(False)
        return min(ahead[c] for c in self.ends)

    def place(self, c: int) -> list[int]:
        """Build on `c` with the links the rules would make; returns them, for `undo`."""
        owner, crossed, own = self.owner, self.crossed, self.own
        owner[c] = own
        made = []
        for n, link in NEIGHBOURS[c]:
            if owner[n] == own and not crossed[link]:
                made.append(link)
                for other in CROSSES[link]:
                    crossed[other] += 1
        return made

    def undo(self, c: int, made: list[int]) -> None:
        for link in made:
            for other in CROSSES[link]:
                self.crossed[other] -= 1
        self.owner[c] = 0


def runner(view: Mapping[str, Any], rng: random.Random) -> str:
    """The action text of a player that races along its own shortest connection.

    Only a cell on a shortest connection can shorten it, and by one pylon at most, so those
    cells are tried (the ones that link to own pylons first, then in a seeded random order)
    until one shortens it; if none does (its own new links can close a way), the best of
    them is played. With no connection left it plays a random legal cell. On a board with
    swamps, as player 1, it keeps the board and moves first."""
    state = PylonsState.from_view(view)
    if state.is_terminal():
        raise ValueError("The game is over: there is no move to choose.")
    local = random.Random(f"{rng.random()}:{len(state.history)}")
    if state.phase == CHOOSE:
        return "keep"
    racer = Racer(state, state.seat)
    ahead, behind = racer.field(False), racer.field(True)
    best = min(ahead[c] for c in racer.ends)
    owner = racer.owner
    cells = [
        c
        for c in state.free_cells(state.seat)
        if best < FAR and ahead[c] + behind[c] - 1 == best and not owner[c]
    ]
    if not cells:
        return state.sample_action(local).text()
    noise = {c: local.random() for c in cells}

    def links(c: int) -> int:
        return sum(owner[n] == racer.own and not racer.crossed[k] for n, k in NEIGHBOURS[c])

    cells.sort(key=lambda c: (-links(c), noise[c]))
    chosen, shortest = cells[0], FAR + 1
    for c in cells:
        made = racer.place(c)
        after = racer.distance()
        racer.undo(c, made)
        if after < shortest:
            chosen, shortest = c, after
        if after < best:
            break
    return f"place {NAMES[chosen]}"


def race(level: str, seed: int, swamps: str, level_seat: int) -> tuple[int, ...]:
    """The winners of one game between the AI `level` (through `engine.ai.choose`, as the bot
    plays it) in `level_seat` and the runner in the other seat: the one game that benchmarks
    and tests replay."""
    from engine.ai import choose
    from games.pylons.rules import GAME

    state = GAME.new_state(2, seed, {"swamps": swamps})
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        if seat == level_seat:
            text = choose(state.view(seat), level=level, seed=seed)
        else:
            text = runner(state.view(seat), random.Random(seed))
        state.apply(text)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winners


__all__ = ["race", "runner"]
