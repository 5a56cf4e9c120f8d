"""High Voltage: 2-4 players lay and turn cards on a 7x7 grid to connect power stations,
each secretly working for one of four power companies."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Game
from games.high_voltage.rules import records
from games.high_voltage.rules.actions import (
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
from games.high_voltage.rules.determinize import sample_state
from games.high_voltage.rules.state import HighVoltageState


class HighVoltageGame(Game):
    name = "high-voltage"
    title = "High Voltage"
    aliases = ("hv", "highvoltage")
    min_seats = 2
    max_seats = 4

    def new_state(
        self, seats: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> HighVoltageState:
        self.check_seats(seats)
        self.resolve_options(options)
        return HighVoltageState.deal(seats, seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> HighVoltageState:
        return HighVoltageState.from_dict(data)

    def parse_action(self, text: str) -> HvAction:
        return parse_action(text)

    def from_view(self, view: Mapping[str, Any], rng: random.Random) -> HighVoltageState:
        """The face-down cards shuffled and the unseen colours drawn (`determinize`)."""
        return sample_state(view, rng)

    def record_deal(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The starting cards, every revealed card and the companies shown (`records`)."""
        return records.record_deal(state, seat)

    def deal_from_record(
        self, seats: int, options: Mapping[str, Any] | None, deal: Mapping[str, Any]
    ) -> HighVoltageState:
        """A deal showing what the record revealed, the rest filled in (`records`)."""
        self.resolve_options(options)
        return records.deal_from_record(seats, deal)


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
