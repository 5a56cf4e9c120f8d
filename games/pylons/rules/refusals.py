"""Why a Pylons action may not be taken: the refusals with their words, and a legal cell to
suggest instead."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalActionError, Phrase, Seat
from games.pylons.rules.board import COL, CORNERS, NAMES, ROW, SIZE, border_owner, cell_of
from games.pylons.rules.position import PylonsPosition

SEAT_NAMES = ("player 1 (blue)", "player 2 (red)")
SEAT_KEYS = ("blue", "red")  # how the language files name each seat in a refusal
BORDER_TEXT = (
    "the west and east borders (columns A and X)",
    "the north and south borders (rows 1 and 24)",
)


def seat(number: int) -> Seat:
    """A seat as a refusal names it: by its colour here, by its player's name in the bot."""
    return Seat(SEAT_NAMES[number], f"engine.pylons.seat.{SEAT_KEYS[number]}", number)


def example(cell: str) -> Phrase:
    """A pylon to place, as a refusal suggests it: the action typed here, the command in
    the bot."""
    return Phrase(f"place {cell}", "engine.pylons.example", cell=cell)


def choose_first() -> IllegalActionError:
    """A pylon before player 1 has chosen the board."""
    return IllegalActionError(
        "First player 1 chooses the board: keep (keep the swamps as they are and move "
        "first) or mirror (mirror them on the NW-SE diagonal and let player 2 move first).",
        key="engine.pylons.choose_first",
        player=seat(0),
    )


def no_choice(state: PylonsPosition) -> IllegalActionError:
    """A board choice once it is made, or in a game without swamps."""
    suggested = example(nearby_cell(state))
    if not state.swamps_on:
        return IllegalActionError(
            f"This game has no swamps, so there is no board to choose: {suggested}.",
            key="engine.pylons.no_swamps",
            example=suggested,
        )
    how = "mirrored" if state.mirrored else "kept"
    return IllegalActionError(
        f"Player 1 has {how} the board already; now it is a pylon: {suggested}.",
        key=f"engine.pylons.board_{how}",
        example=suggested,
        player=seat(0),
    )


def nearby_cell(state: PylonsPosition, near: int | None = None) -> str:
    """A legal cell for the seat to move, the nearest to `near` (or the centre)."""
    free = state.free[state.seat]
    if not free:
        return "no cell"
    target = cell_of(SIZE // 2, SIZE // 2) if near is None else near
    ti, tj = COL[target], ROW[target]
    best = min(free, key=lambda c: (max(abs(COL[c] - ti), abs(ROW[c] - tj)), c))
    return NAMES[best]


def why_not(state: PylonsPosition, c: int) -> IllegalActionError:
    """Why the seat to move cannot build on `c`, and a free cell nearby."""
    name, mover = NAMES[c], state.seat
    fields: dict[str, Any] = {"cell": name}
    if c in CORNERS:
        reason = "corner"
        why = f"{name} is a corner: no one builds on the four corners"
    elif state.swamp[c]:
        reason = "swamp"
        why = f"{name} is swamp: no pylon can stand there"
    elif state.owner[c]:
        owner = state.owner[c] - 1
        reason = "yours" if owner == mover else "taken"
        who = "yours" if owner == mover else f"{SEAT_NAMES[owner]}'s"
        why = f"{name} has a pylon already ({who})"
        if owner != mover:
            fields["owner"] = seat(owner)
    elif border_owner(c) not in (None, mover):
        other = 1 - mover
        reason = f"border_of_{SEAT_KEYS[other]}"
        why = (
            f"{name} is on {BORDER_TEXT[other]}, which only {SEAT_NAMES[other]} may "
            f"build on; yours are {BORDER_TEXT[mover]}"
        )
        fields["owner"] = seat(other)
    else:  # pragma: no cover - every refusal above covers the free-list test
        reason = "not_free"
        why = f"{name} is not free"
    suggested = example(nearby_cell(state, c))
    return IllegalActionError(
        f"{why}. A free cell near it: {suggested}.",
        key="engine.pylons.cannot_build",
        why=Phrase(why, f"engine.pylons.cannot_build_on.{reason}", **fields),
        example=suggested,
    )
