"""What a seat sees of a Pylons game (everything but the seed: the game has no secrets), and
the position rebuilt from a view."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.core import OVER
from games.pylons.rules.board import (
    LINK_A,
    LINK_B,
    MAX_PYLONS,
    NAMES,
    SEAT_COLOURS,
    SEAT_DIRECTIONS,
    SIZE,
    Patch,
    cell_of,
    mirror_patches,
    swamp_cells,
)
from games.pylons.rules.position import PylonsPosition
from games.pylons.rules.saving import patch

# The state class that builds the game (`PylonsState`, given by the state itself).
P = TypeVar("P", bound=PylonsPosition)


def link_view(state: PylonsPosition, link: int) -> dict[str, Any]:
    """A link as the view shows it: its two cells and the seat whose link it is."""
    return {
        "cells": [NAMES[LINK_A[link]], NAMES[LINK_B[link]]],
        "seat": state.link_on[link] - 1 if state.link_on[link] else state.owner[LINK_A[link]] - 1,
    }


def seat_view(state: PylonsPosition, seat: int | None) -> dict[str, Any]:
    """Everything about the game (it has no secrets) except the seed, as JSON-ready data."""
    over = state.phase == OVER
    players = [
        {
            "seat": s,
            "colour": SEAT_COLOURS[s],
            "direction": SEAT_DIRECTIONS[s],
            "borders": ["A", "X"] if s == 0 else ["1", "24"],
            "score": state.scores[s],
            "pylons": state.placed[s],
        }
        for s in (0, 1)
    ]
    last = {
        "seat": state.last_seat,
        "action": state._history[-1] if state._history else None,
        "cell": NAMES[state.last_cell] if state.last_cell >= 0 else None,
        "links": [link_view(state, k)["cells"] for k in state.last_links],
        "blocked": [link_view(state, k)["cells"] for k in state.last_blocked],
    }
    return {
        "size": SIZE,
        "move": len(state.order) + (0 if over else 1),
        "mirrored": state.mirrored,
        "first_seat": state.first_seat,
        "swamps": [{"cell": NAMES[cell_of(i, j)], "size": s} for i, j, s in state.patches],
        "swamp_cells": [NAMES[c] for c in swamp_cells(state.patches)],
        "players": players,
        "scores": list(state.scores),
        "pylons": [{"cell": NAMES[c], "seat": state.owner[c] - 1} for c in state.order],
        "links": [link_view(state, k) for k in state.links],
        "max_pylons": MAX_PYLONS,
        "pylons_left": MAX_PYLONS - len(state.order),
        "last": last,
        "skipped": [{"seat": s, "after": n} for s, n in state.skipped],
    }


def state_from_view(cls: Callable[[int, bool, Sequence[Patch]], P], view: Mapping[str, Any]) -> P:
    """The position a view shows, rebuilt from public information alone (no seed): what an
    AI seat searches from. The swamps as dealt are recovered by undoing a mirror."""
    swamps = (view.get("options") or {}).get("swamps", "on") == "on"
    patches = tuple(patch(p) for p in view["swamps"])
    dealt = mirror_patches(patches) if view.get("mirrored") else patches
    state = cls(0, swamps, dealt)
    for text in view["history"]:
        state.apply(text)
    return state
