"""Pylons actions as frozen dataclasses with one stable text form.

Forms::

    place K12      put a pylon on K12 (columns A..X west to east, rows 1..24 north to south)
    keep           player 1 keeps the swamps as dealt and moves first
    mirror         player 1 mirrors the swamps on the NW-SE diagonal; player 2 moves first

`keep` and `mirror` exist only in games with swamps, as the very first action. A bare cell
(`K12`) is read as `place K12`, since that is what a player typing a cell means. Parsing needs
no position; whether the cell is free and usable is the state's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Action
from engine.errors import ActionSyntaxError, check_length, unreadable
from games.pylons.rules.board import CELLS, NAMES, parse_cell

EXAMPLES = "place K12 · K12 · keep · mirror"


@dataclass(frozen=True)
class Place(Action):
    kind = "place"
    cell: str  # a cell name such as "K12"

    def text(self) -> str:
        return f"place {self.cell}"


@dataclass(frozen=True)
class Keep(Action):
    kind = "keep"

    def text(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Mirror(Action):
    kind = "mirror"

    def text(self) -> str:
        return "mirror"


PylonsAction = Place | Keep | Mirror

# One shared, immutable action per cell: random seats and playouts hand these out without
# building a new object per move.
PLACE: tuple[Place, ...] = tuple(Place(NAMES[c]) for c in range(CELLS))
PLACE_TEXT: tuple[str, ...] = tuple(action.text() for action in PLACE)
# The cell of each placement's own text: a saved history replays without reading its words.
PLACED_BY_TEXT: dict[str, int] = {text: c for c, text in enumerate(PLACE_TEXT)}
KEEP = Keep()
MIRROR = Mirror()


def _bad(text: str, why: str, reason: str, **fields: Any) -> ActionSyntaxError:
    return unreadable("pylons", text, why, reason, EXAMPLES, **fields)


def _cell(word: str, text: str) -> Place:
    cell = parse_cell(word)
    if cell is None:
        raise _bad(text, f"{word!r} is not a cell; cells run from A1 to X24", "cell", word=word)
    return PLACE[cell]


def parse_action(text: str) -> PylonsAction:
    """The one reader of Pylons action text (case and extra spaces ignored; what a refusal
    quotes is as typed)."""
    check_length(text, EXAMPLES)
    words = text.strip().split()
    if not words:
        raise _bad(text, "it is empty", "empty")
    verb, args = words[0].lower(), words[1:]
    if verb in ("place", "put", "build", "pylon"):
        if len(args) != 1:
            raise _bad(text, "place takes one cell", "place")
        return _cell(args[0], text)
    if verb == "keep":
        if args:
            raise _bad(text, "keep takes nothing after it", "keep")
        return KEEP
    if verb == "mirror":
        if args:
            raise _bad(text, "mirror takes nothing after it", "mirror")
        return MIRROR
    if len(words) == 1 and parse_cell(verb) is not None:
        return _cell(verb, text)
    raise _bad(text, f"{words[0]!r} is not an action", "verb", verb=words[0])
