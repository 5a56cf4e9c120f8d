"""The deal of a Sector 6 game record: what of the shuffled supplies became public, and a
deal rebuilt from it (`Game.record_deal`, `Game.deal_from_record`).

The deal is each seat's face-down supply, in its order, and the first player. The first
player is public from the start. A drawn tile is seen by its drawer alone until it is
placed, face up, for everyone: so a record holds, for each draw, the seat that drew and the
tile it revealed (layout and value), with the move that drew it. A tile still in its drawer's
hand is in its drawer's own record alone; the tiles never drawn are in no record (by the end
of the construction every tile has been drawn, so the record of a game over holds the whole
deal but the order of identical tiles).

Filling in what was never shown cannot change what the moves do or how the game ends: a seat
may draw while its supply holds tiles, which depends on their number alone (public: the
table of supplies and the tiles placed); what a tile does once drawn depends on its layout
and value, which the record gives; tiles of one layout are alike, so which of them was drawn
does not matter. Games saved before the ending rules of today keep the move they began with
(`ending_rules_from`, public in every view).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.sector6.rules.actions import Draw, parse_action
from games.sector6.rules.dealing import supplies_from_view
from games.sector6.rules.rules_data import default_rules
from games.sector6.rules.state import Sector6State
from games.sector6.rules.steps import EMPTY


def record_deal(state: Sector6State, seat: int | None) -> dict[str, Any]:
    """The first seat and every tile a draw revealed (the one in its drawer's hand only for
    `seat`, its drawer): the moves played again on the same supplies, to see each draw."""
    rules = state.rules
    walk = Sector6State(
        rules, state.seats, state.seed, state.mode, state.supplies, state.first_seat
    )
    walk.ending_from = state.ending_from
    draws = []
    for number, text in enumerate(state.history):
        if isinstance(parse_action(text), Draw):
            drawer = walk.seat
            tile = rules.tiles[walk.supplies[drawer][walk.drawn_count[drawer]]]
            draws.append(
                {
                    "move": number,
                    "seat": drawer,
                    "tile": {"layout": tile.layout, "value": tile.value},
                }
            )
        walk.apply(text)
    if walk.to_dict() != state.to_dict():
        raise ValueError("The moves from the deal do not lead to the stored position.")
    if state.drawn != EMPTY and seat != state.seat:
        draws.pop()  # in its drawer's hand: seen by them alone
    return {
        "first_seat": state.first_seat,
        "ending_rules_from": state.ending_from,
        "draws": draws,
    }


def deal_from_record(seats: int, mode: str, deal: Mapping[str, Any]) -> Sector6State:
    """Supplies that begin, seat by seat, with the tiles the record's draws revealed, in that
    order, and go on with the rest of the box by the table of supplies (in a fixed order:
    nobody saw it); the record's first seat."""
    rules = default_rules()
    by_layout = {tile.layout: tile.value for tile in rules.tiles[: rules.maze_tiles]}
    tiles = []
    for draw in deal["draws"]:
        layout, value = str(draw["tile"]["layout"]), int(draw["tile"]["value"])
        if by_layout.get(layout) != value:
            raise ValueError(f"No maze tile of value {value} has the layout {layout!r}.")
        drawer = int(draw["seat"])
        if not 0 <= drawer < seats:
            raise ValueError(f"No seat {drawer} to draw.")
        tiles.append({"kind": "tile", "placed_by": drawer, "layout": layout})
    try:
        supplies = supplies_from_view(
            rules, {"seats": seats, "tiles": tiles, "viewer": None}, random.Random(0)
        )
    except (IndexError, KeyError) as exc:
        raise ValueError("More tiles of one kind are drawn than the box holds.") from exc
    state = Sector6State(rules, seats, 0, mode, supplies, int(deal["first_seat"]))
    state.ending_from = int(deal.get("ending_rules_from") or 0)
    return state
