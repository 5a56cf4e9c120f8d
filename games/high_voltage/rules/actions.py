"""High Voltage actions as frozen dataclasses with one stable text form.

`text()` is what the log, the tests, the CLI, the AI and the Discord buttons share, and
`parse_action(text)` reads it back (plus a few forgiving spellings a person might type).
Cells and stations are kept as text here; whether they exist and the action is legal is the
state's business, so parsing never needs a position.

Forms::

    draw C3                      look at a face-down card (then `place`)
    draw C3 empty r90            draw and place in one step (`here`, `empty` or a cell)
    place here r270              put the card you drew back where it was, turned 270°
    rotate E4 r180               turn a face-up card in place
    move E4 r90                  to the empty cell (spends an action token)
    swap B2 F6 r0 r270           exchange two face-up cards (spends an action token)
    declare S3-S17               score a closable line
    declare none                 declare no (more) lines this action

Any of draw/rotate/move/swap may end with `special=double` (a double turn, announced with the
first action) and move/swap with `special=danger` (move a card with a DANGER token).
Orientations are absolute: r90 is the card's printed picture turned 90° clockwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.core import Action
from engine.errors import ActionSyntaxError, check_length, unreadable

ROTATIONS = (0, 90, 180, 270)
SPECIALS = ("danger", "double")
PLACES = ("here", "empty")

EXAMPLES = (
    "draw C3 · draw C3 empty r90 · place here r180 · rotate E4 r90 · move E4 r0 · "
    "swap B2 F6 r0 r270 · declare S3-S17 · declare none · add special=double or special=danger"
)


def _special_suffix(special: str | None) -> str:
    return f" special={special}" if special else ""


@dataclass(frozen=True)
class Draw(Action):
    kind = "draw"
    cell: str
    place: str | None = None  # None: only look at the card; "here", "empty" or a cell name
    rotation: int | None = None
    special: str | None = None

    @property
    def reveals_hidden(self) -> bool:
        """The drawer sees a face-down card."""
        return True

    @property
    def prompt(self) -> str | None:
        """Drawn without saying where it goes: its drawer is asked where to place it."""
        return "place" if self.place is None else None

    def text(self) -> str:
        where = "" if self.place is None else f" {self.place} r{self.rotation}"
        return f"draw {self.cell}{where}{_special_suffix(self.special)}"


@dataclass(frozen=True)
class Place(Action):
    kind = "place"
    place: str  # "here", "empty" or a cell name
    rotation: int

    def text(self) -> str:
        return f"place {self.place} r{self.rotation}"


@dataclass(frozen=True)
class Rotate(Action):
    kind = "rotate"
    cell: str
    rotation: int
    special: str | None = None

    def text(self) -> str:
        return f"rotate {self.cell} r{self.rotation}{_special_suffix(self.special)}"


@dataclass(frozen=True)
class Move(Action):
    kind = "move"
    cell: str
    rotation: int
    special: str | None = None

    def text(self) -> str:
        return f"move {self.cell} r{self.rotation}{_special_suffix(self.special)}"


@dataclass(frozen=True)
class Swap(Action):
    kind = "swap"
    a: str
    b: str
    rotation_a: int
    rotation_b: int
    special: str | None = None

    def text(self) -> str:
        return (
            f"swap {self.a} {self.b} r{self.rotation_a} r{self.rotation_b}"
            f"{_special_suffix(self.special)}"
        )


@dataclass(frozen=True)
class Declare(Action):
    """Declaring a line shows which companies its player chose to score (a hint at their
    secret colour), so it cannot be taken back; declaring none as well."""

    kind = "declare"
    first: int  # station numbers, lower first
    second: int

    @property
    def reveals_hidden(self) -> bool:
        return True

    @property
    def shows_its_player(self) -> bool:
        """It shows the others a hint at its player's colour, which its player knows."""
        return False

    def __post_init__(self) -> None:
        if self.first > self.second:
            low, high = self.second, self.first
            object.__setattr__(self, "first", low)
            object.__setattr__(self, "second", high)

    @property
    def name(self) -> str:
        return f"S{self.first}-S{self.second}"

    def text(self) -> str:
        return f"declare {self.name}"


@dataclass(frozen=True)
class DeclareNone(Action):
    kind = "declare_none"

    @property
    def reveals_hidden(self) -> bool:
        return True

    @property
    def shows_its_player(self) -> bool:
        """It shows the others a hint at its player's colour, which its player knows."""
        return False

    def text(self) -> str:
        return "declare none"


HvAction = Draw | Place | Rotate | Move | Swap | Declare | DeclareNone

_CELL = re.compile(r"[a-z][0-9]{1,2}", re.ASCII)
_STATION_PAIR = re.compile(r"s?([0-9]{1,3})\s*[-–]\s*s?([0-9]{1,3})", re.ASCII)
_ROTATION = re.compile(r"[0-9]{1,3}", re.ASCII)


def _bad(text: str, why: str, reason: str, **fields: Any) -> ActionSyntaxError:
    return unreadable("high_voltage", text, why, reason, EXAMPLES, **fields)


def _cell(word: str, text: str) -> str:
    if not _CELL.fullmatch(word.lower()):
        raise _bad(text, f"{word!r} is not a cell like C3", "cell", word=word)
    return word.upper()


def _place(word: str, text: str) -> str:
    """Where a drawn card goes: here, empty, or (read as one of those) a cell."""
    return word.lower() if word.lower() in PLACES else _cell(word, text)


def parse_rotation(word: str, text: str | None = None) -> int:
    """Read r90, 90 or 90° as 90; anything else names the four orientations."""
    value = word.lower().removeprefix("r").removesuffix("°").removesuffix("deg")
    if _ROTATION.fullmatch(value) and int(value) in ROTATIONS:
        return int(value)
    raise _bad(
        text or word,
        f"{word!r} is not an orientation; use r0, r90, r180 or r270",
        "orientation",
        word=word,
    )


def parse_action(text: str) -> HvAction:
    """The one reader of High Voltage action text (case and extra spaces ignored; what a
    refusal quotes is as typed)."""
    check_length(text, EXAMPLES)
    words = text.strip().replace(",", " ").split()
    if not words:
        raise _bad(text, "it is empty", "empty")
    special = None
    rest = []
    for word in words:
        if word.lower().startswith("special="):
            value = word.split("=", 1)[1]
            if value.lower() in ("no", "none", ""):
                continue
            if value.lower() not in SPECIALS:
                raise _bad(
                    text, f"special must be danger or double, not {value!r}", "special", value=value
                )
            special = value.lower()
        else:
            rest.append(word)
    if not rest:
        raise _bad(text, "it names no action, only a special token", "only_special")
    verb, args = rest[0].lower(), [word for word in rest[1:] if word.lower() != "to"]
    if verb in ("draw", "pick"):
        if len(args) == 1:
            return Draw(_cell(args[0], text), special=special)
        if len(args) == 3:
            place = _place(args[1], text)
            return Draw(_cell(args[0], text), place, parse_rotation(args[2], text), special)
        raise _bad(
            text, "draw takes a cell, then optionally where (here or empty) and r0-r270", "draw"
        )
    if verb == "place":
        if special:
            raise _bad(
                text, "announce special tokens with the draw, not the placement", "place_special"
            )
        if len(args) != 2:
            raise _bad(text, "place takes where (here or empty) and an orientation", "place")
        place = _place(args[0], text)
        return Place(place, parse_rotation(args[1], text))
    if verb in ("rotate", "turn", "move"):
        if len(args) != 2:
            raise _bad(text, f"{verb} takes a cell and an orientation", "turn", verb=verb)
        cls = Move if verb == "move" else Rotate
        return cls(_cell(args[0], text), parse_rotation(args[1], text), special)
    if verb == "swap":
        if len(args) != 4:
            raise _bad(text, "swap takes two cells and an orientation for each", "swap")
        return Swap(
            _cell(args[0], text),
            _cell(args[1], text),
            parse_rotation(args[2], text),
            parse_rotation(args[3], text),
            special,
        )
    if verb in ("declare", "close"):
        if special:
            raise _bad(text, "declaring a line takes no special token", "declare_special")
        joined = " ".join(args).lower()
        if joined in ("none", "no", "nothing", "pass", "done"):
            return DeclareNone()
        match = _STATION_PAIR.fullmatch(joined)
        if not match:
            raise _bad(text, "declare takes two stations like S3-S17, or none", "declare")
        return Declare(int(match.group(1)), int(match.group(2)))
    raise _bad(text, f"{rest[0]!r} is not an action", "verb", verb=rest[0])
