"""How a Sector 6 competition ends: the rulebook's end, the markers out of play, the clock.

The rulebook ends the game when every oxygen marker left on the board lies under a prisoner.
Played as written, games stall: a rotation can seal a tile for ever, so its marker can never
be stood on, and a trailing player can refuse to take the last free marker and let the others
circle. This project adds two rules (design: sector6.md, "Dead markers do not count" and
"Oxygen clock"):

- A marker no prisoner can ever reach again is dead, out of play: the game ends when every
  marker left is under a prisoner or dead (`rule_end`).
- When `clock_rounds` full rounds (data: `oxygen_clock_rounds`) pass with no marker collected,
  the competition ends the same way (`clock_ran_out`); stepping onto a marker is not progress,
  collecting it is.

The per-player turn limit (`max_rounds`) stays behind both as a last backstop against a bug.
Every collection sets the clock back, so no game outlasts (markers + 1) x `clock_rounds`
rounds; the data must put the backstop at or above that, or it could cut short a game that
is still collecting.

The dead test must be sound: it may miss a marker that is in truth unreachable (the game then
goes on until the clock ends it), but it must never call dead a marker a prisoner could still
stand on, or it would end a game the rulebook could still end. `live_cells` therefore marks
every tile that anything could ever reach, starting from the prisoners' tiles and spreading
to a neighbour whenever the neighbour might some day be entered or turned from there:

- Novice (no rotations): walls never change and a prisoner only ever crosses a side open on
  both tiles, so it stays inside the group of tiles joined to its own by open corridors. A
  tile is live when it is so joined to a prisoner's tile; other prisoners standing in the way
  are ignored (they may move away).
- Veteran (rotations, no gears): only a tile a prisoner stands on or has just left is turned.
  A free tile (no prisoner on it) whose open side faces a live tile is live: that neighbour
  may hold a prisoner or be turned to open its side, and then a prisoner walks in. A free
  tile whose sides facing live tiles are all walls is never entered from them, hence never
  turned either: its walls stay where they are, so it stays sealed.
- Full (gears): as veteran, and a free tile next to a live maze tile is live whatever side it
  shows: if it shows a wall, the neighbour may be turned until its own wall meets it and its
  gears turn the tile. Only entry points have no walls, so no gear; a live entry point makes
  a neighbour live only through that neighbour's open side.

What is left unmarked is exactly the largest group of free tiles whose open sides face only
gaps or the group (and, in full mode, whose walls face only gaps, entry points or the group):
nothing outside such a group can ever enter or turn it, and nothing inside it moves, so by
induction over the turns it stays as it is for the rest of the game. A prisoner next to the
group does not change that: it can turn its own tile, but the group shows it walls only, and
(in full mode) it stands on a maze tile the group does not touch or on an entry point, which
has no gears. `tests/engine/test_sector6_ending.py` checks the test against an exhaustive search of
the positions reachable on small boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.sector6.rules.board import Grid, opposite
from games.sector6.rules.rules_data import Rules

END_HELD = "all_oxygen_held"  # the rulebook: every marker left lies under a prisoner
END_DEAD = "rest_out_of_reach"  # every marker left is under a prisoner or dead
END_CLOCK = "oxygen_clock"  # rounds without a collection ran the clock out
END_STUCK = "no_one_can_move"  # novice mode: every prisoner is blocked for good
END_LIMIT = "turn_limit"  # the backstop on turns per player
END_REASONS = (END_HELD, END_DEAD, END_CLOCK, END_STUCK, END_LIMIT)


# What the tests below read of a position, as protocols rather than the state class: the game's
# state (`Sector6State`) calls them, and so does the AI's lean copy of a competition
# (`games.sector6.ai.position.Position`), which holds the same arrays; and this module, which
# the state imports, imports no state back.


class Maze(Protocol):
    """The tiles, markers and prisoners of a position, which the dead-marker test reads."""

    @property
    def rules(self) -> Rules: ...
    @property
    def table(self) -> Grid: ...
    @property
    def rotations(self) -> bool: ...
    @property
    def gears(self) -> bool: ...
    @property
    def piece_at(self) -> Sequence[int]: ...
    @property
    def walls(self) -> Sequence[int]: ...
    @property
    def marker(self) -> Sequence[int]: ...
    @property
    def prisoner(self) -> Sequence[int]: ...
    @property
    def prisoners(self) -> Sequence[Sequence[int]]: ...
    @property
    def maze_cells(self) -> Sequence[int]: ...


class NamedMaze(Maze, Protocol):
    """A maze whose cells can be named, for the view's list of dead markers."""

    def name(self, cell: int) -> str: ...


class Clocked(Protocol):
    """The turn counters of a competition, which the oxygen clock reads."""

    @property
    def rules(self) -> Rules: ...
    @property
    def seats(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def play_turns(self) -> int: ...
    @property
    def quiet_since(self) -> int: ...


def live_cells(state: Maze, stop_at_free_marker: bool = False) -> bytearray:
    """1 for every tile a prisoner might still stand on some day, 0 elsewhere (see the module
    docstring for why each step is safe). With `stop_at_free_marker` the search stops at the
    first free marker it marks, for callers that only ask whether one is live."""
    table, walls, piece_at = state.table, state.walls, state.piece_at
    marker, prisoner, tiles = state.marker, state.prisoner, state.rules.tiles
    neighbour = table.neighbour
    novice, gears = not state.rotations, state.gears
    live = bytearray(table.cells)
    stack = [c for cells in state.prisoners for c in cells]
    for cell in stack:
        live[cell] = 1
    while stack:
        here = stack.pop()
        shut = walls[here]
        turns_others = gears and tiles[piece_at[here]].value > 0  # a maze tile has gears
        for side, there in enumerate(neighbour[here]):
            if there < 0 or live[there] or piece_at[there] < 0:
                continue
            if walls[there] >> opposite(side) & 1 and not turns_others:
                continue  # it shows a wall here: never entered this way, and no gear turns it
            if novice and shut >> side & 1:
                continue  # without rotations this wall stays for good
            live[there] = 1
            if stop_at_free_marker and marker[there] and not prisoner[there]:
                return live
            stack.append(there)
    return live


def marker_counts(state: NamedMaze) -> dict[str, Any]:
    """Markers on the board: `free` still in play (no prisoner on them, one may come), `held`
    under a prisoner, `dead` out of play (no prisoner can ever reach them), and the labels of
    the dead ones' cells (`dead_cells`, in cell order) for the picture to grey them out."""
    marker, prisoner = state.marker, state.prisoner
    live = live_cells(state)
    counts: dict[str, Any] = {"free": 0, "held": 0, "dead": 0}
    dead = []
    for cell in sorted(state.maze_cells):
        if marker[cell]:
            kind = "held" if prisoner[cell] else "free" if live[cell] else "dead"
            counts[kind] += 1
            if kind == "dead":
                dead.append(state.name(cell))
    counts["dead_cells"] = dead
    return counts


def dead_markers(state: Maze) -> list[int]:
    """Cells of the free markers no prisoner can ever reach, in cell order."""
    live = live_cells(state)
    marker, prisoner = state.marker, state.prisoner
    return sorted(c for c in state.maze_cells if marker[c] and not prisoner[c] and not live[c])


def rule_end(state: Maze) -> str | None:
    """`END_HELD` when no marker is free, `END_DEAD` when the free ones are all dead, else
    None (the game goes on). Cheap in the usual case: the search stops at the first live free
    marker."""
    marker, prisoner = state.marker, state.prisoner
    if not any(marker[c] and not prisoner[c] for c in state.maze_cells):
        return END_HELD
    live = live_cells(state, stop_at_free_marker=True)
    if any(live[c] and marker[c] and not prisoner[c] for c in state.maze_cells):
        return None
    return END_DEAD


def quiet_turns(state: Clocked) -> int:
    """Competition turns completed since the last collection (or the start of play)."""
    return max(0, state.play_turns - state.quiet_since)


def clock_ran_out(state: Clocked) -> bool:
    """True once `clock_rounds` full rounds have passed with no marker collected."""
    return quiet_turns(state) >= state.rules.clock_rounds * state.seats


def clock_view(state: Clocked) -> dict[str, Any]:
    """The oxygen clock as a view shows it: rounds passed and left in the stretch without a
    collection, turns left (for AI players), and whether the board shows it yet (from round
    `clock_shown_from` of the stretch, during the competition only)."""
    rules, seats = state.rules, state.seats
    turns = quiet_turns(state)
    passed = turns // seats
    running = state.phase == "play"
    return {
        "rounds": rules.clock_rounds,
        "shown_from": rules.clock_shown_from,
        "rounds_passed": passed,
        "rounds_left": max(0, rules.clock_rounds - passed),
        "turns_left": max(0, rules.clock_rounds * seats - turns),
        "shown": running and passed + 1 >= rules.clock_shown_from,
    }


__all__ = [
    "END_CLOCK",
    "END_DEAD",
    "END_HELD",
    "END_LIMIT",
    "END_REASONS",
    "END_STUCK",
    "Clocked",
    "Maze",
    "NamedMaze",
    "clock_ran_out",
    "clock_view",
    "dead_markers",
    "live_cells",
    "marker_counts",
    "quiet_turns",
    "rule_end",
]
