"""Sector 6 actions as frozen dataclasses with one stable text form.

`text()` is what the log, the tests, the CLI, the AI seats and the Discord layer share, and
`parse_action(text)` reads it back, with a few forgiving spellings a person might type (case
and extra spaces never matter). Cells are labels such as `C4` (see `board`);
whether a cell exists and the action is legal now is the state's business, so parsing never
needs a position.

Construction (each turn is one `draw` then one `place`, or one `place entry`)::

    draw                 turn over the top tile of your face-down supply; you alone see it
    place C4 r120        put the drawn tile on C4, turned 120 degrees clockwise
    place entry C4       put one of your entry points on C4 instead of drawing

Rotations are r0, r60, r120, r180, r240 or r300: degrees clockwise from the way the drawn
tile is shown (its walls as listed in `games/sector6/tiles.json`). `r2` is read as r120 too.
`place tile C4 r120` and `entry C4` are accepted spellings.

Competition (each turn is one `move` and then one of `collect`, `rotate` or `done`)::

    move C4 C7           move your prisoner on C4 in a straight line to C7
    collect              take the oxygen marker of the tile the prisoner just left
    rotate C4 right      turn that tile one side (60 degrees) clockwise; `left` is
                         anticlockwise. After a move the cell may be left out: `rotate left`
    done                 end the turn without collecting or rotating
    rotate C4 left       (blocked: neither prisoner can move) one of your two rotations of a
                         tile under one of your prisoners
    pass                 (novice mode, blocked) let the turn go by

`move C4 to C7` is accepted, and so are `cw`/`clockwise` and `ccw`/`anticlockwise`/
`counterclockwise` for the rotation's direction, and `skip` or `nothing` for `done`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core import Action
from engine.errors import ActionSyntaxError, check_length, unreadable

DEGREES = (0, 60, 120, 180, 240, 300)
EXAMPLES = (
    "draw · place C4 r120 · place entry C4 · move C4 C7 · collect · rotate right · "
    "rotate C4 left · done · pass"
)
_CELL = re.compile(r"[a-z][0-9]{1,2}", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,3}", re.ASCII)
_LETTER = re.compile(r"[a-zA-Z]", re.ASCII)
_FILLERS = ("to", "tile", "at", "on")
_RIGHT = ("right", "cw", "clockwise", "r")
_LEFT = ("left", "ccw", "anticlockwise", "counterclockwise", "l")


@dataclass(frozen=True)
class Draw(Action):
    """Its drawer alone sees the tile, then is asked where to place it."""

    kind = "draw"

    @property
    def reveals_hidden(self) -> bool:
        return True

    @property
    def prompt(self) -> str | None:
        return "place"

    def text(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Place(Action):
    kind = "place"
    cell: str
    rotation: int  # sixths of a turn clockwise, 0-5

    @property
    def degrees(self) -> int:
        """The rotation in degrees clockwise, as the text and the commands give it."""
        return DEGREES[self.rotation]

    def text(self) -> str:
        return f"place {self.cell} r{DEGREES[self.rotation]}"


@dataclass(frozen=True)
class PlaceEntry(Action):
    kind = "entry"
    cell: str

    def text(self) -> str:
        return f"place entry {self.cell}"


@dataclass(frozen=True)
class Move(Action):
    kind = "move"
    origin: str
    target: str

    def text(self) -> str:
        return f"move {self.origin} {self.target}"


@dataclass(frozen=True)
class Collect(Action):
    kind = "collect"

    def text(self) -> str:
        return "collect"


@dataclass(frozen=True)
class Rotate(Action):
    kind = "rotate"
    cell: str | None  # None: the tile the prisoner just left (after a move only)
    clockwise: bool

    def text(self) -> str:
        way = "right" if self.clockwise else "left"
        return f"rotate {way}" if self.cell is None else f"rotate {self.cell} {way}"


@dataclass(frozen=True)
class Done(Action):
    kind = "done"

    def text(self) -> str:
        return "done"


@dataclass(frozen=True)
class Pass(Action):
    kind = "pass"

    def text(self) -> str:
        return "pass"


Sector6Action = Draw | Place | PlaceEntry | Move | Collect | Rotate | Done | Pass

DRAW, COLLECT, DONE, PASS = Draw(), Collect(), Done(), Pass()


def _bad(text: str, why: str, reason: str, **fields: Any) -> ActionSyntaxError:
    return unreadable("sector6", text, why, reason, EXAMPLES, **fields)


def _cell(word: str, text: str) -> str:
    if not _CELL.fullmatch(word.lower()):
        raise _bad(text, f"{word!r} is not a cell like C4", "cell", word=word)
    return f"{word[0].upper()}{int(word[1:])}"


def parse_rotation(word: str, text: str | None = None) -> int:
    """Sixths of a turn from r120, 120, 120° or r2; anything else names the six choices."""
    value = word.lower().removeprefix("r").removesuffix("°").removesuffix("deg")
    if _NUMBER.fullmatch(value):
        n = int(value)
        if n in DEGREES:
            return DEGREES.index(n)
        if 1 <= n <= 5:
            return n
    raise _bad(
        text or word,
        f"{word!r} is not a rotation; use r0, r60, r120, r180, r240 or r300",
        "rotation",
        word=word,
    )


def _way(word: str, text: str) -> bool:
    if word.lower() in _RIGHT:
        return True
    if word.lower() in _LEFT:
        return False
    raise _bad(
        text,
        f"{word!r} is not a direction; say left (anticlockwise) or right (clockwise)",
        "direction",
        word=word,
    )


def _join_cells(words: list[str]) -> list[str]:
    """`C 4` typed with a space is one cell."""
    out: list[str] = []
    for word in words:
        if _NUMBER.fullmatch(word) and out and _LETTER.fullmatch(out[-1]):
            out[-1] += word
        else:
            out.append(word)
    return out


def parse_action(text: str) -> Sector6Action:
    """The one reader of Sector 6 action text (case and extra spaces ignored; what a refusal
    quotes is as typed).

    A game is loaded, and an AI seat rebuilds its position, by replaying every action of its
    history (hundreds in a long game), mostly the same texts as the last time: the actions
    read lately are kept (they are frozen, so one can stand for every reading of its text),
    which saves a sixth of a replay."""
    return _read(text)


@lru_cache(maxsize=2048)  # a long game's history twice over; a few hundred kB
def _read(text: str) -> Sector6Action:
    check_length(text, EXAMPLES)
    words = _join_cells(text.strip().replace(",", " ").split())
    if not words:
        raise _bad(text, "it is empty", "empty")
    verb, args = words[0].lower(), [w for w in words[1:] if w.lower() not in _FILLERS]
    if verb == "draw":
        if args:
            raise _bad(text, "draw takes nothing after it; place the tile next", "draw")
        return DRAW
    if verb == "entry":
        verb, args = "place", ["entry", *args]
    if verb in ("place", "put"):
        if [w.lower() for w in args[:1]] == ["entry"]:
            if len(args) != 2:
                raise _bad(text, "place entry takes one cell", "entry")
            return PlaceEntry(_cell(args[1], text))
        if len(args) != 2:
            raise _bad(
                text, "place takes a cell and a rotation (r0-r300), or entry and a cell", "place"
            )
        return Place(_cell(args[0], text), parse_rotation(args[1], text))
    if verb == "move":
        if len(args) != 2:
            raise _bad(text, "move takes the prisoner's cell and the cell it goes to", "move")
        return Move(_cell(args[0], text), _cell(args[1], text))
    if verb in ("collect", "take"):
        if args:
            raise _bad(text, "collect takes nothing after it", "collect")
        return COLLECT
    if verb in ("rotate", "turn"):
        if len(args) == 1:
            return Rotate(None, _way(args[0], text))
        if len(args) == 2:
            return Rotate(_cell(args[0], text), _way(args[1], text))
        raise _bad(
            text, "rotate takes a direction (left or right), optionally after a cell", "rotate"
        )
    if verb in ("done", "skip", "nothing", "end"):
        if args:
            raise _bad(text, f"{verb} takes nothing after it", "done", verb=verb)
        return DONE
    if verb == "pass":
        if args:
            raise _bad(text, "pass takes nothing after it", "pass")
        return PASS
    raise _bad(text, f"{words[0]!r} is not an action", "verb", verb=words[0])
