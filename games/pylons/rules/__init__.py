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
from games.pylons.rules.board import NAMES, SWAMP_MAX, SWAMP_MIN, SWAMP_SIZES, cell_of
from games.pylons.rules.saving import patch
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

    def record_deal(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The swamps as dealt (before player 1's keep-or-mirror choice, which is a move):
        public from the start, the game's whole deal. The first seat follows from that choice,
        so it needs no place here."""
        return {
            "swamps": [{"cell": NAMES[cell_of(i, j)], "size": size} for i, j, size in state.dealt]
        }

    def deal_from_record(
        self, seats: int, options: Mapping[str, Any] | None, deal: Mapping[str, Any]
    ) -> PylonsState:
        """The dealt swamps of the record: nothing else is dealt, so this is the very deal."""
        self.check_seats(seats)
        resolved = self.resolve_options(options)
        swamps = resolved["swamps"] == "on"
        dealt = tuple(patch(p) for p in deal.get("swamps", ()))
        if swamps != bool(dealt):
            raise ValueError("Swamps are dealt when the swamps option is on, and only then.")
        if dealt and (
            sorted(size for _, _, size in dealt) != sorted(SWAMP_SIZES)
            or any(
                not SWAMP_MIN <= k <= SWAMP_MAX - size + 1 for i, j, size in dealt for k in (i, j)
            )
        ):
            raise ValueError("These are not swamps the deal could lay.")
        return PylonsState(0, swamps, dealt)


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
