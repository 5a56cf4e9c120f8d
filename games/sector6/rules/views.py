"""What a Sector 6 game shows: each seat's view of it, and the result at the end.

The renderer and the computer players only ever receive these (never the position itself),
so this is where the game's secrets are kept back: no view holds the seed or the order of
any supply, and the face of a drawn tile goes to its drawer alone.
"""

from __future__ import annotations

from typing import Any

from engine.core import OVER, Outcome
from games.sector6.rules.actions import DEGREES
from games.sector6.rules.board import sides_of
from games.sector6.rules.ending import END_HELD, clock_view, dead_markers, marker_counts
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.steps import ACT_STEP, EMPTY


def result(state: Sector6Position) -> Outcome | None:
    """The result once the game is over: the highest total wins; a tie goes to the seat with
    more markers of the first value of the rules' tie-break, then the next, else the win is
    shared."""
    if state.phase != OVER:
        return None
    scores = state.scores()
    keys = [
        (scores[s], *(state.collected[s][v] for v in state.rules.tie_break))
        for s in range(state.seats)
    ]
    best = max(keys)
    winners = tuple(s for s in range(state.seats) if keys[s] == best)
    decided = "shared"
    if len(winners) == 1:
        runner_up = max(k for s, k in enumerate(keys) if s != winners[0])
        i = next(i for i in range(len(best)) if best[i] != runner_up[i])
        decided = "score" if i == 0 else state.rules.colours[state.rules.tie_break[i - 1]]
    left = {str(v): 0 for v in state.rules.values}
    for c in state.maze_cells:
        if state.marker[c]:
            left[str(state.marker[c])] += 1
    return Outcome(
        reason=state.end_reason or END_HELD,
        scores=tuple(scores),
        winners=winners,
        details={
            "collected": [state._counts(s) for s in range(state.seats)],
            "taken_at_end": [list(t) for t in state.taken],
            "left_on_board": left,
            "out_of_reach": len(dead_markers(state)),
            "tie_break": [state.rules.colours[v] for v in state.rules.tie_break],
            "decided_by": decided,
        },
    )


def tile_view(state: Sector6Position, piece: int) -> dict[str, Any]:
    """A placed piece as everyone sees it."""
    rules = state.rules
    tile = rules.tiles[piece]
    cell = state.where[piece]
    q, r = state.table.axial(cell)
    entry = tile.layout == "entry"
    marker, prisoner = state.marker[cell], state.prisoner[cell]
    return {
        "cell": state.name(cell),
        "q": q,
        "r": r,
        "kind": "entry" if entry else "tile",
        "value": tile.value,
        "colour": rules.seats[tile.owner].colour if entry else rules.colours[tile.value],
        "layout": tile.layout,
        "walls": sides_of(state.walls[cell]),
        "rotation": DEGREES[state.rot[piece]],
        "owner": tile.owner if entry else None,
        "placed_by": state.placer[piece],
        "marker": marker or None,
        "prisoner": prisoner - 1 if prisoner else None,
    }


def unplaced(state: Sector6Position) -> list[dict[str, int]]:
    """For each seat, the values of its tiles not yet placed (the drawn one included): public.
    All seats in one pass over the placed pieces, as a view needs them all."""
    supply = {str(v): n for v, n in state.rules.supplies[state.seats].items()}
    counts = [dict(supply) for _ in range(state.seats)]
    tiles, placer = state.rules.tiles, state.placer
    for piece in state.order:
        value, seat = tiles[piece].value, placer[piece]
        if value and 0 <= seat < state.seats:
            counts[seat][str(value)] -= 1
    return counts


def placements(state: Sector6Position) -> dict[str, list[int]]:
    """Where the drawn tile may go now: the turns (degrees clockwise) that fit each cell, in
    the order of the legal `place` actions (`construction.build_actions`). Only its drawer is
    told: the turns follow from its walls, which no one else has seen."""
    fits: dict[str, list[int]] = {}
    for cell, rotation in state.placements(state.drawn):
        fits.setdefault(state.name(cell), []).append(DEGREES[rotation])
    return fits


def seat_view(state: Sector6Position, seat: int | None) -> dict[str, Any]:
    """What `seat` may know (None: a spectator). Never the seed nor any supply's order;
    the drawn tile's face only for its drawer."""
    over = state.phase == OVER
    drawn: dict[str, Any] | None = None
    if state.drawn != EMPTY:
        drawn = {"seat": state.seat}
        if seat == state.seat:
            tile = state.rules.tiles[state.drawn]
            drawn.update(
                {
                    "value": tile.value,
                    "colour": state.rules.colours[tile.value],
                    "layout": tile.layout,
                    "walls": sides_of(tile.walls),
                    "placements": placements(state),
                }
            )
    scores = state.scores()
    not_placed = unplaced(state)
    players = [
        {
            "seat": s,
            "colour": state.rules.seats[s].colour,
            "shape": state.rules.seats[s].shape,
            "score": scores[s],
            "collected": state._counts(s),
            "supply_left": state.supply_left(s),
            "unplaced": not_placed[s],
            "entries_left": state.entries_left(s),
            "prisoners": [state.name(c) for c in state.prisoners[s]],
        }
        for s in range(state.seats)
    ]
    on_board = {str(v): 0 for v in state.rules.values}
    for c in state.maze_cells:
        if state.marker[c]:
            on_board[str(state.marker[c])] += 1
    last = state.last
    return {
        "rules": {
            "gears": state.gears,
            "rotations": state.rotations,
            "galleries": state.galleries,
        },
        "table": {"columns": state.table.columns, "rows": state.table.rows},
        "step": None if over else state.step,
        "first_seat": state.first_seat,
        "turns_played": state.turns_played,
        "competition_turns": state.play_turns,
        "max_competition_turns": state.max_turns,
        "tiles": [tile_view(state, p) for p in state.order],
        "pieces_to_place": sum(
            state.supply_left(s) + state.entries_left(s) for s in range(state.seats)
        )
        + (1 if state.drawn != EMPTY else 0),
        "drawn": drawn,
        "build_cells": [state.name(c) for c in state.build_cells()],
        "pending": None if state.step != ACT_STEP or over else state.name(state.pending),
        "rotations_left": state.rotations_left,
        "markers_on_board": on_board,
        "free_markers": state.free_markers(),
        "markers": marker_counts(state),
        "oxygen_clock": clock_view(state),
        "ending_rules_from": state.ending_from,
        "players": players,
        "scores": scores,
        "last": {
            "seat": last["seat"],
            "actions": list(last["actions"]),
            "placed": last["placed"],
            "from": last["from"],
            "to": last["to"],
            "collected": last["collected"],
            "rotated": list(last["rotated"]),
            "geared": list(last["geared"]),
            "turns": [
                {
                    "cell": state.name(cell),
                    "clockwise": clockwise,
                    "geared": [state.name(c) for c in geared],
                }
                for cell, clockwise, geared in state.last_turns
            ],
        },
    }


__all__ = ["placements", "result", "seat_view", "tile_view", "unplaced"]
