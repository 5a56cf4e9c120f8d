"""The stored form of a High Voltage position: what the database keeps, and how it is read back.

The stored form is the whole truth (the seed and every face-down card included), versioned,
and never shown to players. Reading it checks everything a hand-edited or damaged row could get
wrong, so a bad save is refused with a message instead of becoming a broken game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from engine.core import check_saved_format
from games.high_voltage.rules.lines import DANGER, HIGH_VOLTAGE, NO_TOKEN
from games.high_voltage.rules.position import DECLARING, EMPTY, PHASES, Position, copy_declined
from games.high_voltage.rules.rules_data import CardSet, parse_setup
from games.high_voltage.rules.turn import find_closable

STATE_FORMAT = "high-voltage-state"
STATE_VERSION = 1

P = TypeVar("P", bound=Position)


def to_saved(state: Position) -> dict[str, Any]:
    """The whole position as JSON-ready data."""
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "seats": state.seats,
        "seed": state.seed,
        "setup": state.setup.to_dict(),
        "cards": state.cards.to_data(),
        "grid": list(state.grid),
        "card_up": [int(u) for u in state.card_up],
        "rot": list(state.rot),
        "energy": list(state.energy),
        "seat_colour": list(state.seat_colour),
        "action_tokens": list(state.action_tokens),
        "special_tokens": list(state.special_tokens),
        "point_tokens": list(state.point_tokens),
        "company": list(state.company),
        "energy_supply": state.energy_supply,
        "point_supply": state.point_supply,
        "phase": state.phase,
        "seat": state.seat,
        "turns_played": state.turns_played,
        "actions_taken": state.actions_taken,
        "double_turn": state.double_turn,
        "changed": sorted(state.changed),
        "drawn": state.drawn,
        "drawn_special": state.drawn_special,
        "declared": [dict(rec) for rec in state.declared],
        "declined": [copy_declined(rec) for rec in state.declined],
        "last": {
            "seat": state.last["seat"],
            "actions": list(state.last["actions"]),
            "cells": list(state.last["cells"]),
            "lines": [dict(rec) for rec in state.last["lines"]],
        },
        "history": list(state._history),
        "end_reason": state.end_reason,
    }


def from_saved(cls: type[P], data: Mapping[str, Any]) -> P:
    """A `cls` position rebuilt from `to_saved` output; ValueError saying what is wrong."""
    check_saved_format(data, format=STATE_FORMAT, version=STATE_VERSION, title="High Voltage")
    try:
        setup = parse_setup(data["setup"], "saved game setup")
        cards = CardSet.from_data(data["cards"], setup.colours)
        state = cls(setup, cards, int(data["seats"]), int(data["seed"]))
        n_cells, n_cards = state.geo.cells, len(cards)
        grid = [int(c) for c in data["grid"]]
        if len(grid) != n_cells or sorted(c for c in grid if c != EMPTY) != list(range(n_cards)):
            raise ValueError("the grid must hold every card exactly once and one empty cell")
        state.grid[:] = grid
        for cell, card in enumerate(grid):
            if card != EMPTY:
                state.pos[card] = cell
        state.card_up[:] = [bool(u) for u in _sized(data["card_up"], n_cards, "card_up")]
        state.rot[:] = [int(r) % 4 for r in _sized(data["rot"], n_cards, "rot")]
        state.energy[:] = [int(e) for e in _sized(data["energy"], n_cards, "energy")]
        if any(e not in (NO_TOKEN, HIGH_VOLTAGE, DANGER) for e in state.energy):
            raise ValueError("energy values are 0, 1 or 2")
        seats = state.seats
        state.seat_colour = [int(c) for c in _sized(data["seat_colour"], seats, "seat_colour")]
        state.action_tokens = [
            int(v) for v in _sized(data["action_tokens"], seats, "action_tokens")
        ]
        state.special_tokens = [
            int(v) for v in _sized(data["special_tokens"], seats, "special_tokens")
        ]
        state.point_tokens = [int(v) for v in _sized(data["point_tokens"], seats, "point_tokens")]
        state.company = [int(v) for v in _sized(data["company"], len(setup.colours), "company")]
        state.energy_supply = int(data["energy_supply"])
        state.point_supply = int(data["point_supply"])
        state.face_down = sum(1 for card in range(n_cards) if not state.card_up[card])
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        state.phase = data["phase"]
        state.seat = int(data["seat"])
        if not 0 <= state.seat < seats:
            raise ValueError("the seat to move is out of range")
        state.turns_played = int(data["turns_played"])
        state.actions_taken = int(data["actions_taken"])
        state.double_turn = bool(data["double_turn"])
        state.changed = {int(c) for c in data["changed"]}
        state.drawn = EMPTY if data["drawn"] is None else int(data["drawn"])
        state.drawn_special = data["drawn_special"]
        state.declared = [dict(rec) for rec in data["declared"]]
        # Saves from before this log existed have none.
        state.declined = [copy_declined(rec) for rec in data.get("declined", [])]
        last = data["last"]
        state.last = {
            "seat": last["seat"],
            "actions": list(last["actions"]),
            "cells": [int(c) for c in last["cells"]],
            "lines": [dict(rec) for rec in last["lines"]],
        }
        state._history = [str(t) for t in data["history"]]
        state.end_reason = data["end_reason"]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"Saved High Voltage state is incomplete or malformed: {exc!r}") from exc
    if state.phase == DECLARING:
        state.closable = find_closable(state)
    return state


def _sized(values: Any, size: int, name: str) -> list[Any]:
    if not isinstance(values, list) or len(values) != size:
        raise ValueError(f"{name!r} must be a list of {size} values")
    return values
