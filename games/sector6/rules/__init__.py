"""Sector 6: 2-4 players build a maze of hexagonal tiles, then race their prisoners through
its corridors for oxygen, turning tiles (and the gears that link them) to open or shut ways.

See `state` for the rules as played and the choices made where the rulebook
leaves room, `actions` for the action texts and `board` for the
cell labels.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Game, OptionSpec
from games.sector6.rules import records
from games.sector6.rules.actions import (
    Collect,
    Done,
    Draw,
    Move,
    Pass,
    Place,
    PlaceEntry,
    Rotate,
    Sector6Action,
    parse_action,
)
from games.sector6.rules.state import MODES, Sector6State


class Sector6Game(Game):
    name = "sector6"
    title = "Sector 6"
    aliases = ("sector-6", "s6")
    min_seats = 2
    max_seats = 4
    options = (
        OptionSpec(
            name="mode",
            default="full",
            choices=MODES,
            help=(
                "full (life sentence): everything, gears included; veteran: no gears, and every "
                "new tile must open onto a corridor; novice: no rotations at all, same building "
                "rule."
            ),
        ),
    )

    def new_state(
        self, seats: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> Sector6State:
        self.check_seats(seats)
        resolved = self.resolve_options(options)
        return Sector6State.deal(seats, seed, resolved["mode"])

    def state_from_dict(self, data: Mapping[str, Any]) -> Sector6State:
        return Sector6State.from_dict(data)

    def parse_action(self, text: str) -> Sector6Action:
        return parse_action(text)

    def from_view(self, view: Mapping[str, Any], rng: random.Random) -> Sector6State:
        """The unseen tiles of every supply drawn again by value (`Sector6State.from_view`)."""
        return Sector6State.from_view(view, rng)

    def record_deal(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The first seat and every tile shown by a draw (`records`)."""
        return records.record_deal(state, seat)

    def deal_from_record(
        self, seats: int, options: Mapping[str, Any] | None, deal: Mapping[str, Any]
    ) -> Sector6State:
        """Supplies that draw the record's tiles, the rest filled in (`records`)."""
        self.check_seats(seats)
        resolved = self.resolve_options(options)
        return records.deal_from_record(seats, resolved["mode"], deal)


GAME = Sector6Game()
Sector6State.game = GAME

__all__ = [
    "GAME",
    "Collect",
    "Done",
    "Draw",
    "Move",
    "Pass",
    "Place",
    "PlaceEntry",
    "Rotate",
    "Sector6Action",
    "Sector6Game",
    "Sector6State",
    "parse_action",
]
