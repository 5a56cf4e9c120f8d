"""The names of a Sector 6 turn: modes, phases, steps, and the record of the turn being played.

The rules, the views, the saves and the computer players all ask "what does the seat to move
do next?" and "what happened this turn?"; the words for both live here once, so every module
of the game can use them without importing the state that moves through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import OVER

FULL, VETERAN, NOVICE = "full", "veteran", "novice"
MODES = (FULL, VETERAN, NOVICE)

BUILD, PLAY = "build", "play"
PHASES = (BUILD, PLAY, OVER)
# Steps: what the seat to move does next.
DRAW_STEP = "draw"  # construction: draw a tile or place an entry point
PLACE_STEP = "place"  # construction: place the drawn tile
MOVE_STEP = "move"  # competition: move a prisoner
ACT_STEP = "act"  # competition: collect, rotate or done, on the tile just left
BLOCKED_STEP = "blocked"  # competition: no prisoner can move: rotate (or pass)

BLOCKED_ROTATIONS = 2
EMPTY = -1


def fresh_last(seat: int | None) -> dict[str, Any]:
    """The record of one turn, for the picture's highlights and the bot's one-line report."""
    return {
        "seat": seat,
        "actions": [],
        "placed": None,
        "from": None,
        "to": None,
        "collected": None,
        "rotated": [],
        "geared": [],
    }


def copy_last(last: Mapping[str, Any]) -> dict[str, Any]:
    """An independent copy of a turn's record (its lists copied)."""
    return {key: list(value) if isinstance(value, list) else value for key, value in last.items()}


__all__ = [
    "ACT_STEP",
    "BLOCKED_ROTATIONS",
    "BLOCKED_STEP",
    "BUILD",
    "DRAW_STEP",
    "EMPTY",
    "FULL",
    "MODES",
    "MOVE_STEP",
    "NOVICE",
    "OVER",
    "PHASES",
    "PLACE_STEP",
    "PLAY",
    "VETERAN",
    "copy_last",
    "fresh_last",
]
