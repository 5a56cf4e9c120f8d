"""The stored form of a Pylons game: the deal and the history are the truth, the board is
stored beside them, and a save is checked against its own replay when loaded."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.core import check_saved_format
from engine.errors import GameError
from games.pylons.rules.board import (
    CELL_INDEX,
    COL,
    LINK_A,
    LINK_B,
    NAMES,
    ROW,
    SIZE,
    Patch,
    check_patches,
)
from games.pylons.rules.position import PylonsPosition

# The state class that builds the game (`PylonsState`, given by the state itself).
P = TypeVar("P", bound=PylonsPosition)

STATE_FORMAT = "pylons-state"
STATE_VERSION = 1


def to_saved(state: PylonsPosition) -> dict[str, Any]:
    """The saved game: deal and history are the truth; the board is stored too, so a save
    can be read by people and is checked against its own history when loaded."""
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "seats": 2,
        "seed": state.seed,
        "options": {"swamps": "on" if state.swamps_on else "off"},
        "dealt_swamps": [[i, j, s] for i, j, s in state.dealt],
        "history": list(state._history),
        "phase": state.phase,
        "seat": state.seat,
        "mirrored": state.mirrored,
        "pylons": [[NAMES[c], state.owner[c] - 1] for c in state.order],
        "links": [[NAMES[LINK_A[k]], NAMES[LINK_B[k]]] for k in state.links],
        "scores": list(state.scores),
        "skipped": [[s, n] for s, n in state.skipped],
        "end_reason": state.end_reason,
    }


def from_saved(cls: Callable[[int, bool, Sequence[Patch]], P], data: Mapping[str, Any]) -> P:
    """Rebuild by replaying the saved history on the saved deal, then check that the
    stored board agrees with the replay (a hand-edited or corrupt save is refused)."""
    check_saved_format(data, format=STATE_FORMAT, version=STATE_VERSION, title="Pylons")
    try:
        if int(data["seats"]) != 2:
            raise ValueError("Pylons is for 2 players")
        swamps = data["options"]["swamps"]
        if swamps not in ("on", "off"):
            raise ValueError(f"option swamps must be on or off, not {swamps!r}")
        dealt = tuple(patch(p) for p in data["dealt_swamps"])
        if swamps == "on":
            check_patches(dealt)
        elif dealt:
            raise ValueError("a game without swamps has no swamps dealt")
        state = cls(int(data["seed"]), swamps == "on", dealt)
        for text in data["history"]:
            state.apply(str(text))
        stored = {key: data[key] for key in _CHECKED}
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"Saved Pylons state is incomplete or malformed: {exc!r}") from exc
    except GameError as exc:
        raise ValueError(f"Saved Pylons history does not replay: {exc}") from exc
    replayed = state.to_dict()
    for key in _CHECKED:
        if _plain(stored[key]) != replayed[key]:
            raise ValueError(f"Saved Pylons state disagrees with its history on {key!r}.")
    return state


_CHECKED = ("phase", "seat", "mirrored", "pylons", "links", "scores", "skipped", "end_reason")


def _plain(value: Any) -> Any:
    """JSON-shaped data with tuples as lists, for comparing a save with a replay."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def patch(value: Any) -> Patch:
    """A swamp patch from a save ([i, j, size]) or a view ({"cell": "F7", "size": 3})."""
    if isinstance(value, Mapping):
        c = CELL_INDEX[str(value["cell"]).upper()]
        return (COL[c], ROW[c], int(value["size"]))
    i, j, s = (int(v) for v in value)
    if not (0 <= i < SIZE and 0 <= j < SIZE and s > 0):
        raise ValueError(f"swamp patch {value!r} is off the board")
    return (i, j, s)
