"""What one seat may know of a High Voltage game, and the deals it cannot tell from the real one.

`seat_view` is the only way a position reaches players, pictures and AI seats, so the rules of
secrecy sit here in one place: no seed, no face-down face, no other seat's colour before the
end, and the drawn card's face only for its drawer. `redealt` is the other side of the same
line: it changes exactly what `seat_view` hides.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from engine.core import OVER
from games.high_voltage.rules.board import SIDE_NAMES
from games.high_voltage.rules.lines import Line
from games.high_voltage.rules.position import EMPTY, PLACING, Position, copy_declined, degrees
from games.high_voltage.rules.rules_data import EDGES, CardSet
from games.high_voltage.rules.scoring import line_points

ENERGY_NAMES = ("none", "high_voltage", "danger")

P = TypeVar("P", bound=Position)


def card_face(cards: CardSet, card: int, quarters: int) -> dict[str, Any]:
    """A card's picture turned by `quarters`, as views describe it.

    Every view holds every face-up card's, so each path's edges are turned here as
    `Path.rotated` turns them, without making the turned paths."""
    face = cards.faces[card]
    return {
        "kind": face.kind,
        "rotation": degrees(quarters),
        "paths": [
            {
                "edges": [EDGES[(p.a + quarters) % 4], EDGES[(p.b + quarters) % 4]],
                "colour": p.colour,
            }
            for p in face.paths
        ],
    }


def line_view(state: Position, line: Line) -> dict[str, Any]:
    """A closable line as the declaring prompt shows it: where it runs and what it scores."""
    setup = state.setup
    points, tokens = line_points(line, state.geo, setup, state.point_supply)
    stations = state.geo.stations
    return {
        "line": line.name,
        "stations": [line.first, line.second],
        "sides": [
            SIDE_NAMES[stations[line.first].side],
            SIDE_NAMES[stations[line.second].side],
        ],
        "cells": [state._name(c) for c in line.cells],
        "entries": [EDGES[e] for e in line.entries],
        "length": len(line),
        "points": dict(zip(setup.colours, points, strict=True)),
        "point_tokens": tokens,
    }


def seat_view(state: Position, seat: int | None) -> dict[str, Any]:
    """What `seat` may know (None: a spectator). Never holds the seed, a face-down face or
    another seat's colour before the end; the drawn card's face only for its drawer."""
    over = state.phase == OVER
    colours = state.setup.colours
    cells = []
    for cell, card in enumerate(state.grid):
        entry: dict[str, Any] = {"cell": state._name(cell)}
        if card == EMPTY:
            entry["state"] = "empty"
        elif not state.card_up[card]:
            entry["state"] = "down"
        else:
            entry["state"] = "up"
            entry.update(card_face(state.cards, card, state.rot[card]))
            entry["energy"] = ENERGY_NAMES[state.energy[card]]
        cells.append(entry)
    players = []
    for s in range(state.seats):
        visible = over or s == seat
        players.append(
            {
                "seat": s,
                "action_tokens": state.action_tokens[s],
                "special_tokens": state.special_tokens[s],
                "point_tokens": state.point_tokens[s],
                "colour": colours[state.seat_colour[s]] if visible else None,
            }
        )
    drawn = None
    if state.phase == PLACING:
        drawn = {"cell": state._name(state.pos[state.drawn])}
        if seat == state.seat:
            drawn.update(card_face(state.cards, state.drawn, 0))
    return {
        "grid_size": state.geo.size,
        "turn": state.turns_played + (0 if over else 1),
        "double_turn": state.double_turn,
        "actions_taken": state.actions_taken,
        "cells": cells,
        "empty_cell": state._name(state._empty_cell()) if EMPTY in state.grid else None,
        "stations": [
            {
                "station": st.number,
                "side": SIDE_NAMES[st.side],
                "cell": state._name(st.cell),
                "colour": colours[st.colour],
            }
            for st in state.geo.stations.values()
        ],
        "colours": list(colours),
        "players": players,
        "company_scores": dict(zip(colours, state.company, strict=True)),
        "energy_supply": state.energy_supply,
        "point_supply": state.point_supply,
        "face_down": state.face_down,
        "drawn": drawn,
        "closable": [line_view(state, ln) for ln in state.closable],
        # Public: everyone saw which cards this turn's actions changed. An AI seat needs it
        # to know which lines the turn may still close (see `turn.find_closable`).
        "turn_changed_cells": sorted(state._name(state.pos[card]) for card in state.changed),
        # Public logs: every scored line and every set of valid lines left unscored.
        "declared": [dict(rec) for rec in state.declared],
        "declined": [copy_declined(rec) for rec in state.declined],
        "last": {
            "seat": state.last["seat"],
            "actions": list(state.last["actions"]),
            "cells": [state._name(c) for c in state.last["cells"]],
            "lines": [dict(rec) for rec in state.last["lines"]],
        },
    }


def redealt(state: P, seat: int | None, rng: random.Random) -> P:
    """A copy with the cards face down shuffled among their cells (but a card `seat` is
    holding after drawing it) and, before the end, the colours `seat` cannot see drawn again
    from those it does not hold; a new seed."""
    other = state.copy()
    other.seed = rng.getrandbits(62)
    held = state.drawn if state.phase == PLACING and seat == state.seat else EMPTY
    cells = [c for c, k in enumerate(state.grid) if k not in (EMPTY, held)]
    cells = [c for c in cells if not state.card_up[state.grid[c]]]
    cards = [state.grid[c] for c in cells]
    rng.shuffle(cards)
    for cell, card in zip(cells, cards, strict=True):
        other.grid[cell] = card
        other.pos[card] = cell
    if state.drawn not in (EMPTY, held):
        other.drawn = other.grid[state.pos[state.drawn]]
    if state.phase != OVER:
        own = None if seat is None else state.seat_colour[seat]
        free = [c for c in range(len(state.setup.colours)) if c != own]
        rng.shuffle(free)
        for s in range(state.seats):
            if s != seat:
                other.seat_colour[s] = free.pop()
    return other
