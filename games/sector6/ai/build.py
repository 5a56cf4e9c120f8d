"""How the Sector 6 computer players build the maze and place their entry points.

The maze decides the competition: a prisoner moves only in straight lines through open
sides, so an entry point is worth the oxygen its corridors lead to. Tiles go where they open
the most oxygen to the seat's own entry points and the least to the others', and an entry
point is placed once a spot is worth it (or when nothing else is left to place).
"""

from __future__ import annotations

import random

from games.sector6.rules.actions import Place, PlaceEntry, Sector6Action
from games.sector6.rules.board import opposite, turn_mask
from games.sector6.rules.state import DRAW_STEP, PLACE_STEP, Sector6State

ENTRY_GOOD = 6.0  # an entry spot worth placing an entry point on now


def sight(state: Sector6State, cell: int, mask: int | None = None) -> float:
    """What a prisoner starting on `cell` could see: the tile values along its straight
    corridors (ignoring prisoners), the best counting fully. `mask` overrides the walls of
    `cell` (an entry point being considered has none)."""
    walls, piece_at, rules = state.walls, state.piece_at, state.rules
    here = walls[cell] if mask is None else mask
    neighbour = state.table.neighbour
    values = []
    for side in range(6):
        if here >> side & 1:
            continue
        back = opposite(side)
        n = neighbour[cell][side]
        while n >= 0 and piece_at[n] >= 0 and not walls[n] >> back & 1:
            values.append(rules.tiles[piece_at[n]].value)
            if walls[n] >> side & 1:
                break
            n = neighbour[n][side]
    if not values:
        return 0.0
    values.sort(reverse=True)
    return values[0] + 0.4 * sum(values[1:3]) + 0.1 * len(values)


def entries_of(state: Sector6State, seat: int) -> list[int]:
    """Cells of the entry points `seat` has placed."""
    rules = state.rules
    return [
        state.where[p]
        for p in state.order
        if rules.tiles[p].layout == "entry" and rules.tiles[p].owner == seat
    ]


def build_score(state: Sector6State, seat: int) -> float:
    """Own entry points' sight minus the best opponent's."""
    sights = [sum(sight(state, c) for c in entries_of(state, s)) for s in range(state.seats)]
    return sights[seat] - max(v for s, v in enumerate(sights) if s != seat)


def best_entry(state: Sector6State, rng: random.Random) -> tuple[float, str]:
    """The best spot for the seat's next entry point and what it is worth."""
    piece = state.rules.entry(state.seat, state.entries_placed[state.seat])
    best = (-1.0, 0.0, "")
    for cell, _ in state.placements(piece):
        value = sight(state, cell, 0)
        key = (value, rng.random(), cell)
        if key[:2] > best[:2]:
            best = (value, key[1], state.name(cell))
    return best[0], best[2]


def build_action(state: Sector6State, rng: random.Random) -> Sector6Action:
    """The construction action of the seat to move."""
    seat = state.seat
    if state.step == DRAW_STEP:
        if state.entries_left(seat) == 0:
            return state.legal_actions()[0]  # draw
        value, entry = best_entry(state, rng)
        if state.supply_left(seat) == 0 or value >= ENTRY_GOOD:
            return PlaceEntry(entry)
        return state.legal_actions()[0]
    assert state.step == PLACE_STEP
    options = state.placements(state.drawn)
    if not state.order:
        return Place(state.name(state.table.centre), int(rng.random() * 6))
    base = state.rules.tiles[state.drawn].walls
    best: tuple[float, float, int, int] | None = None
    seen: set[tuple[int, int]] = set()
    for cell, rotation in options:
        mask = turn_mask(base, rotation)
        if (cell, mask) in seen:
            continue
        seen.add((cell, mask))
        trial = state.copy()
        trial._put(state.drawn, cell, rotation)  # scoring only: the copy is thrown away
        value = build_score(trial, seat) + 0.05 * trial._touching(cell)
        key = (value, rng.random(), cell, rotation)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return Place(state.name(best[2]), best[3])


__all__ = ["build_action", "build_score", "sight"]
