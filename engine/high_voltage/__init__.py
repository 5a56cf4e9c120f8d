"""High Voltage: 2-4 players lay and turn cards on a 7x7 grid to connect power stations,
each secretly working for one of four power companies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Game
from engine.high_voltage.actions import (
    Declare,
    DeclareNone,
    Draw,
    HvAction,
    Move,
    Place,
    Rotate,
    Swap,
    parse_action,
)
from engine.high_voltage.state import HighVoltageState


class HighVoltageGame(Game):
    name = "high-voltage"
    title = "High Voltage"
    aliases = ("hv", "highvoltage")
    min_seats = 2
    max_seats = 4

    def reveals_hidden(self, action: str) -> bool:
        """A draw shows a face-down card; a declaration shows which company its player backs
        (and which they do not), a hint at their secret colour."""
        return action.split()[:1] in (["draw"], ["declare"])

    def new_state(
        self, seats: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> HighVoltageState:
        self.check_seats(seats)
        self.resolve_options(options)
        return HighVoltageState.deal(seats, seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> HighVoltageState:
        return HighVoltageState.from_dict(data)


GAME = HighVoltageGame()
HighVoltageState.game = GAME

__all__ = [
    "GAME",
    "Declare",
    "DeclareNone",
    "Draw",
    "HighVoltageGame",
    "HighVoltageState",
    "HvAction",
    "Move",
    "Place",
    "Rotate",
    "Swap",
    "parse_action",
]
