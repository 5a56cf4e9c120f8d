"""The saved form of a Sector 6 game, and how a save is read back and checked.

The deal and the history are the truth: a save is rebuilt by replaying its history on its
supplies. The board is stored too, so that people can read a save, and so that loading can
compare it with the replay and refuse a hand-edited or corrupt one. Version 1 saves come from
before the end rules of `ending` and are still read (see `load`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from engine.core import check_saved_format
from engine.errors import GameError
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.rules_data import default_rules
from games.sector6.rules.steps import copy_last

STATE_FORMAT = "sector6-state"
STATE_VERSION = 2  # 2: the end rules (the oxygen clock, markers out of reach)
READ_VERSIONS = (1, STATE_VERSION)

# What a save stores besides its deal and history, compared with the replay when loading.
CHECKED_V1 = (
    "phase",
    "step",
    "seat",
    "tiles",
    "drawn",
    "markers",
    "prisoners",
    "collected",
    "taken",
    "turns_played",
    "competition_turns",
    "last",
    "end_reason",
)
CHECKED = (*CHECKED_V1, "quiet_since")

P = TypeVar("P", bound=Sector6Position)


def saved_form(state: Sector6Position) -> dict[str, Any]:
    """The saved game: deal and history are the truth; the board is stored too, so a save
    can be read by people and is checked against its own history when loaded.

    It is made after every action the bot takes (and before and after every refusal the
    tests check), so the board's lists are read through local names."""
    names, where, rot, placer, marker = (
        state.table.names,
        state.where,
        state.rot,
        state.placer,
        state.marker,
    )
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "seats": state.seats,
        "seed": state.seed,
        "options": {"mode": state.mode},
        "first_seat": state.first_seat,
        "supplies": [list(s) for s in state.supplies],
        "history": list(state._history),
        "phase": state.phase,
        "step": state.step,
        "seat": state.seat,
        "tiles": [[names[where[p]], p, rot[p], placer[p]] for p in state.order],
        "drawn": state.drawn,
        "markers": {names[c]: marker[c] for c in state.maze_cells if marker[c]},
        "prisoners": [[names[c] for c in cells] for cells in state.prisoners],
        "collected": [list(c) for c in state.collected],
        "taken": [list(t) for t in state.taken],
        "turns_played": state.turns_played,
        "competition_turns": state.play_turns,
        "quiet_since": state.quiet_since,
        "ending_rules_from": state.ending_from,
        "last": copy_last(state.last),
        "end_reason": state.end_reason,
    }


def load(cls: type[P], data: Mapping[str, Any]) -> P:
    """Rebuild by replaying the saved history on the saved supplies, then check that the
    stored position agrees with the replay (a hand-edited or corrupt save is refused).

    A version 1 save comes from before the end rules of `ending`: its
    actions replay under the old ending (a rule that ends games sooner could otherwise
    end it halfway through its own history), and the rules apply from its next action
    on, the oxygen clock counting from its last collection."""
    version = data.get("version")
    check_saved_format(
        data,
        format=STATE_FORMAT,
        version=version if version in READ_VERSIONS else STATE_VERSION,
        title="Sector 6",
    )
    try:
        state = cls(
            default_rules(),
            int(data["seats"]),
            int(data["seed"]),
            str(data["options"]["mode"]),
            [[int(p) for p in s] for s in data["supplies"]],
            int(data["first_seat"]),
        )
        if version == 1:
            state.ending_from = len(data["history"])
        else:
            state.ending_from = int(data["ending_rules_from"])
        for text in data["history"]:
            state.apply(str(text))
        checked = CHECKED if version == STATE_VERSION else CHECKED_V1
        stored = {key: data[key] for key in checked}
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"Saved Sector 6 state is incomplete or malformed: {exc!r}") from exc
    except GameError as exc:
        raise ValueError(f"Saved Sector 6 history does not replay: {exc}") from exc
    replayed = state.to_dict()
    for key in checked:
        if stored[key] != replayed[key]:
            raise ValueError(f"Saved Sector 6 state disagrees with its history on {key!r}.")
    return state


__all__ = ["READ_VERSIONS", "STATE_FORMAT", "STATE_VERSION", "load", "saved_form"]
