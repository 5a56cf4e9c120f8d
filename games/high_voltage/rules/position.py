"""What a High Voltage position is made of: its fields, the values they hold, and its copy.

The rules are split by job into modules that read and change one position: `refusals` (why an
action is refused), `legal` (what may be done now), `turn` (what an action does), `scoring`
(what a line is worth and when the game is over), `views` (what a seat may know) and `saving`
(the stored form). They all need the position's shape but not the rules class built from
them, so the shape lives here, below `state`, and none of them imports `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from engine.core import OVER, State
from games.high_voltage.rules.board import Geometry, geometry
from games.high_voltage.rules.lines import DANGER, NO_TOKEN, Board, Line
from games.high_voltage.rules.rules_data import CardSet, Setup

ACTION, PLACING, DECLARING = "action", "placing", "declaring"
PHASES = (ACTION, PLACING, DECLARING, OVER)
EMPTY = -1

# Why a game ended, as stored and shown.
END_ENERGY = "energy_tokens_exhausted"
END_DECK = "last_card_placed"
END_NO_LINES = "no_valid_line_possible"
END_STUCK = "no_legal_action"
END_LIMIT = "move_limit"  # the house rule below: a backstop no real game reaches

# The house rule that makes every game end (README: "The move limit"). The
# rulebook sets no limit: once the cards are face up, rotations are free, so two players can
# turn cards back and forth for ever (tens of thousands of legal moves were seen in one game).
# A game ends, scored as at any other end, once its log holds this many moves (each draw,
# placement, rotation, move, swap and declaration is one). Random games end within 200 moves
# and games between AI seats of every level within about 300 (`python -m games simulate`,
# `bench/hv_endings.py`), so no game played for real comes near it; it only bounds what a
# game's record, log and replay may cost.
MAX_MOVES = 1000


def degrees(quarters: int) -> int:
    """A card's orientation as actions write it: the state stores quarter turns."""
    return quarters * 90


def copy_declined(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record of valid lines left unscored, copied deep enough that no one shares its dicts."""
    return {
        "seat": record["seat"],
        "lines": [{"line": ln["line"], "points": dict(ln["points"])} for ln in record["lines"]],
    }


class Position(State):
    """The whole truth of one game, the deal included: where each card lies, which side is up
    and how it is turned, its energy token, every seat's tokens and colour, the companies'
    scores, the supplies, and where the turn stands.

    Cards and cells are numbers: `grid[cell]` is a card (or EMPTY), `pos[card]` its cell, and
    `card_up`, `rot` (quarter turns) and `energy` are indexed by card. `_board` reads those four
    lists in place, so they are changed in place and never rebound.
    """

    def __init__(self, setup: Setup, cards: CardSet, seats: int, seed: int) -> None:
        super().__init__(seats, seed)
        self.setup = setup
        self.cards = cards
        self.geo: Geometry = geometry(
            setup.grid_size,
            tuple(setup.colours.index(c) for c in setup.station_colour_cycle),
        )
        n_cards = len(cards)
        self.grid: list[int] = [EMPTY] * self.geo.cells
        self.pos: list[int] = [EMPTY] * n_cards
        self.card_up: list[bool] = [False] * n_cards
        self.rot: list[int] = [0] * n_cards
        self.energy: list[int] = [NO_TOKEN] * n_cards
        self.seat_colour: list[int] = []
        self.action_tokens = [setup.action_tokens] * seats
        self.special_tokens = [setup.special_tokens] * seats
        self.point_tokens = [0] * seats
        self.company = [0] * len(setup.colours)
        self.energy_supply = setup.energy_tokens
        self.point_supply = setup.point_tokens
        self.face_down = 0
        self.phase = ACTION
        self.seat = 0
        self.turns_played = 0
        self.actions_taken = 0  # in the current turn
        self.double_turn = False
        self.changed: set[int] = set()  # cards changed by this turn's actions
        self.drawn = EMPTY  # card looked at and not yet placed
        self.drawn_special: str | None = None
        self.closable: list[Line] = []
        self.declared: list[dict[str, Any]] = []  # every scored line, for the log and audits
        # Every "declare none" that left valid lines unscored: public, and a hint of the
        # decliner's colour (an AI seat reads it from the view).
        self.declined: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {"seat": None, "actions": [], "cells": [], "lines": []}
        self._board = Board(
            self.geo,
            self.grid,
            self.card_up,
            self.rot,
            self.energy,
            cards.exits,
            cards.colour,
            cards.is_danger,
        )

    def _name(self, cell: int) -> str:
        return self.geo.names[cell]

    def _is_danger(self, card: int) -> bool:
        return self.energy[card] == DANGER or self.cards.is_danger[card]

    def _empty_cell(self) -> int:
        return self.grid.index(EMPTY)

    def copy(self) -> Self:
        """An independent copy, made directly (no JSON round trip, no validation).

        The bot copies a state for every move, and searches try thousands of actions on one
        position. The board lists are new lists with a new `Board` over them, so changing the
        copy never touches the original; line and record objects are shared because they are
        never changed once made.
        """
        new = object.__new__(type(self))
        new.setup, new.cards, new._seats, new.seed, new.geo = (
            self.setup,
            self.cards,
            self._seats,
            self.seed,
            self.geo,
        )
        new.options = {}
        new.grid, new.pos, new.card_up = self.grid[:], self.pos[:], self.card_up[:]
        new.rot, new.energy = self.rot[:], self.energy[:]
        new.seat_colour = self.seat_colour[:]
        new.action_tokens = self.action_tokens[:]
        new.special_tokens = self.special_tokens[:]
        new.point_tokens = self.point_tokens[:]
        new.company = self.company[:]
        new.energy_supply, new.point_supply = self.energy_supply, self.point_supply
        new.face_down, new.phase, new.seat = self.face_down, self.phase, self.seat
        new.turns_played, new.actions_taken = self.turns_played, self.actions_taken
        new.double_turn = self.double_turn
        new.changed = set(self.changed)
        new.drawn, new.drawn_special = self.drawn, self.drawn_special
        new.closable = list(self.closable)
        new.declared = list(self.declared)
        new.declined = list(self.declined)
        last = self.last
        new.last = {
            "seat": last["seat"],
            "actions": list(last["actions"]),
            "cells": list(last["cells"]),
            "lines": list(last["lines"]),
        }
        new._history = list(self._history)
        new.end_reason = self.end_reason
        new._board = Board(
            new.geo,
            new.grid,
            new.card_up,
            new.rot,
            new.energy,
            new.cards.exits,
            new.cards.colour,
            new.cards.is_danger,
        )
        return new
