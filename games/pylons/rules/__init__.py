"""Pylons: two players build pylons on a 24x24 board, each trying to link their own two
opposite borders with one network of knight-move power links that no other link may cross.

The game is a TwixT-like race with random swamps; this project calls it Pylons to keep it
apart from the High Voltage card game. See `games.pylons.rules.state` for the rules as played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Game, OptionSpec
from games.pylons.rules.actions import Keep, Mirror, Place, PylonsAction, parse_action
from games.pylons.rules.state import MAX_PYLONS, PylonsState


class PylonsGame(Game):
    name = "pylons"
    title = "Pylons"
    aliases = ("twixt",)
    min_seats = 2
    max_seats = 2
    options = (
        OptionSpec(
            name="swamps",
            default="on",
            choices=("on", "off"),
            help=(
                "on: four random swamps, and player 1 first chooses to keep them and move "
                "first or to mirror them and let player 2 start; off: an open board, player 1 "
                "starts."
            ),
        ),
    )

    def new_state(
        self, seats: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> PylonsState:
        self.check_seats(seats)
        resolved = self.resolve_options(options)
        return PylonsState.deal(seed, swamps=resolved["swamps"] == "on")

    def state_from_dict(self, data: Mapping[str, Any]) -> PylonsState:
        return PylonsState.from_dict(data)

    def parse_action(self, text: str) -> PylonsAction:
        return parse_action(text)

    def from_view(self, view: Mapping[str, Any], rng: random.Random) -> PylonsState:
        """Nothing is hidden: the swamps shown and the history rebuild the game exactly."""
        return PylonsState.from_view(view)


GAME = PylonsGame()
PylonsState.game = GAME

__all__ = [
    "GAME",
    "MAX_PYLONS",
    "Keep",
    "Mirror",
    "Place",
    "PylonsAction",
    "PylonsGame",
    "PylonsState",
    "parse_action",
]
