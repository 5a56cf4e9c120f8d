"""The supplies of Sector 6: dealt from the seed, checked, and dealt again for a guess.

The one secret of the game is what lies face down in each supply, and in what order. Whoever
builds a game needs the same answers: the deal from the seed (every seat its count of tiles
per value from the box, each supply shuffled, then the first player drawn), the check that a
saved or hand-made deal is one the box allows, and, for a computer player guessing at what it
cannot see, a deal that keeps every tile some seat has seen and draws the rest again by value.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.sector6.rules.rules_data import Rules


def check_supplies(rules: Rules, seats: int, supplies: Sequence[Sequence[int]]) -> None:
    """Supplies must hold distinct maze tiles, each seat the table's count per value."""
    if len(supplies) != seats:
        raise ValueError(f"{seats} seats need {seats} supplies, found {len(supplies)}")
    seen: set[int] = set()
    want = rules.supplies[seats]
    for seat, supply in enumerate(supplies):
        counts = dict.fromkeys(rules.values, 0)
        for piece in supply:
            if not 0 <= piece < rules.maze_tiles or piece in seen:
                raise ValueError(f"supply {seat} holds {piece!r}: not a free maze tile")
            seen.add(piece)
            counts[rules.tiles[piece].value] += 1
        if counts != dict(want):
            raise ValueError(f"supply {seat} does not match the table for {seats} players")


def deal_supplies(rules: Rules, seats: int, seed: int) -> tuple[list[list[int]], int]:
    """(every seat's supply, shuffled; the first seat), all drawn from `seed`."""
    rng = random.Random(seed)
    supplies: list[list[int]] = [[] for _ in range(seats)]
    for value in rules.values:
        box = [t.id for t in rules.tiles[: rules.maze_tiles] if t.value == value]
        rng.shuffle(box)
        n = rules.supplies[seats][value]
        for seat in range(seats):
            supplies[seat] += box[seat * n : (seat + 1) * n]
    for supply in supplies:
        rng.shuffle(supply)
    return supplies, rng.randrange(seats)


def supplies_from_view(
    rules: Rules, view: Mapping[str, Any], rng: random.Random
) -> list[list[int]]:
    """Supplies consistent with what a view shows (`Sector6State.from_view`).

    A tile's layout and value are what a seat sees, not which of the box's identical tiles it
    is: the placed tiles (and the viewer's drawn one) take the first free tile of their layout,
    in the order they were placed; the rest of each supply is drawn by value from what is
    left, then shuffled."""
    seats = int(view["seats"])
    free: dict[int, list[int]] = {v: [] for v in rules.values}
    for tile in rules.tiles[: rules.maze_tiles]:
        free[tile.value].append(tile.id)
    by_layout: dict[str, list[int]] = {}
    for tile in rules.tiles[: rules.maze_tiles]:
        by_layout.setdefault(tile.layout, []).append(tile.id)
    supplies: list[list[int]] = [[] for _ in range(seats)]

    def take(layout: str) -> int:
        piece = by_layout[layout].pop(0)
        free[rules.tiles[piece].value].remove(piece)
        return piece

    for tile in view["tiles"]:
        if tile["kind"] == "tile":
            supplies[int(tile["placed_by"])].append(take(str(tile["layout"])))
    drawn = view.get("drawn") or {}
    if "layout" in drawn and drawn.get("seat") == view.get("viewer"):
        supplies[int(drawn["seat"])].append(take(str(drawn["layout"])))
    for seat in range(seats):
        rest: list[int] = []
        want = dict(rules.supplies[seats])
        for piece in supplies[seat]:
            want[rules.tiles[piece].value] -= 1
        for value, n in want.items():
            pool = free[value]
            rng.shuffle(pool)
            rest += [pool.pop() for _ in range(n)]
        rng.shuffle(rest)
        supplies[seat] += rest
    return supplies


def supplies_redealt(
    rules: Rules, seats: int, known: Sequence[Sequence[int]], rng: random.Random
) -> list[list[int]]:
    """Supplies that start with the tiles of `known` (per seat, in order) and go on with the
    rest of the box drawn again by value, shuffled (`Sector6State.redeal`)."""
    used = {piece for pieces in known for piece in pieces}
    pool: dict[int, list[int]] = {v: [] for v in rules.values}
    for tile in rules.tiles[: rules.maze_tiles]:
        if tile.id not in used:
            pool[tile.value].append(tile.id)
    supplies = []
    for pieces in known:
        want = dict(rules.supplies[seats])
        for piece in pieces:
            want[rules.tiles[piece].value] -= 1
        rest: list[int] = []
        for value, n in want.items():
            rng.shuffle(pool[value])
            rest += [pool[value].pop() for _ in range(n)]
        rng.shuffle(rest)
        supplies.append(list(pieces) + rest)
    return supplies


__all__ = ["check_supplies", "deal_supplies", "supplies_from_view", "supplies_redealt"]
