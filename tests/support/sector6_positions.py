"""Hand-built Sector 6 positions for scenario tests.

`position()` lays tiles, entry points, markers and prisoners straight onto the table and
starts the competition phase, skipping construction, so a test can set up exactly the walls
and gears it is about. Such a position has no history, so it is for rule tests only (it
cannot be saved or replayed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.sector6.rules import GAME, Sector6State
from games.sector6.rules.board import SIDES, turn_mask
from games.sector6.rules.state import BUILD, PLAY

# layout -> (value, walls at r0), from games/sector6/tiles.json
LAYOUTS = {
    "single": ("N",),
    "corner": ("N", "NE"),
    "facing": ("N", "S"),
    "row": ("N", "NE", "SE"),
    "alternating": ("N", "SE", "SW"),
    "bend": ("N", "NE", "SE", "S"),
    "straight": ("N", "NE", "S", "SW"),
}


def walls_after(layout: str, rotation: int) -> set[str]:
    """The closed sides of a layout turned `rotation` sixths clockwise."""
    mask = 0
    for side in LAYOUTS[layout]:
        mask |= 1 << SIDES.index(side)
    mask = turn_mask(mask, rotation)
    return {SIDES[i] for i in range(6) if mask >> i & 1}


def position(
    tiles: Mapping[str, tuple[str, int]],
    *,
    prisoners: Mapping[int, Sequence[str]],
    seats: int = 2,
    mode: str = "full",
    seat: int = 0,
    markers: Mapping[str, int] | None = None,
) -> Sector6State:
    """`tiles` maps a cell to (layout, rotation in sixths) or ("entry", owner seat);
    `prisoners` maps a seat to its prisoners' cells; `markers` overrides the marker on a
    cell (0 for none; by default every maze tile has the marker of its value)."""
    state = GAME.new_state(seats, 1, {"mode": mode})
    assert state.phase == BUILD
    rules = state.rules
    free = list(range(rules.maze_tiles))
    entries = {s: [rules.entry(s, k) for k in range(rules.entries_per_player)] for s in range(4)}
    for label, (layout, turn) in tiles.items():
        cell = state.table.index[label]
        if layout == "entry":
            piece = entries[turn].pop(0)
            rotation = 0
        else:
            piece = next(p for p in free if rules.tiles[p].layout == layout)
            free.remove(piece)
            rotation = turn
        state.seat = 0
        state._put(piece, cell, rotation)
        tile = rules.tiles[piece]
        if tile.value:
            state.maze_cells.append(cell)
            state.marker[cell] = tile.value
    for label, value in (markers or {}).items():
        state.marker[state.table.index[label]] = value
    for s, cells in prisoners.items():
        for label in cells:
            cell = state.table.index[label]
            assert state.piece_at[cell] >= 0, f"no tile under the prisoner on {label}"
            state.prisoner[cell] = s + 1
            state.prisoners[s].append(cell)
    state.supplies = [[] for _ in range(seats)]
    state.drawn_count = [0] * seats
    state.entries_placed = [rules.entries_per_player] * seats
    state.phase = PLAY
    state._start_turn(seat)
    return state
