"""The High Voltage rules: one position and every way it may change.

A turn is one action (two with a double turn). An action may make lines closable; the actor
then declares them one by one in the order of their choice, or stops, and every declaration
re-checks the others. The state is the whole truth (the deal included); `view(seat)` is the
only thing that leaves it for players, pictures and AI seats.

`HighVoltageState` is the game's one state class; its work is done by one module per job:
`position` (the fields and the copy), `legal` (what may be done now), `turn` (what an action
does, and the end of turns and of the game), `refusals` (why an action may not be taken),
`scoring` (lines, points and the end-of-game tests), `views` (what a seat may know) and
`saving` (the stored form).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import OVER, Outcome
from engine.errors import IllegalActionError
from games.high_voltage.rules import scoring
from games.high_voltage.rules.actions import ROTATIONS, HvAction, Place
from games.high_voltage.rules.legal import (
    TARGET_OPTIONS,
    action_phase_actions,
    cell_targets,
    declaring_actions,
    placing_actions,
    sample_action_phase,
)
from games.high_voltage.rules.lines import Line
from games.high_voltage.rules.position import (
    ACTION,
    DECLARING,
    EMPTY,
    END_DECK,
    END_ENERGY,
    END_LIMIT,
    END_NO_LINES,
    END_STUCK,
    MAX_MOVES,
    PHASES,
    PLACING,
    Position,
)
from games.high_voltage.rules.rules_data import CardSet, Setup, default_rules
from games.high_voltage.rules.saving import STATE_FORMAT, STATE_VERSION, from_saved, to_saved
from games.high_voltage.rules.turn import apply_action, find_closable, points_of
from games.high_voltage.rules.views import redealt, seat_view

VIEW_VERSION = 1

# The names the rest of the engine, the AI and the tests take from here.
__all__ = [
    "ACTION",
    "DECLARING",
    "EMPTY",
    "END_DECK",
    "END_ENERGY",
    "END_LIMIT",
    "END_NO_LINES",
    "END_STUCK",
    "MAX_MOVES",
    "OVER",
    "PHASES",
    "PLACING",
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_VERSION",
    "HighVoltageState",
]

_PROMPTS = {PLACING: "place", DECLARING: "declare"}


class HighVoltageState(Position):
    """A High Voltage game. Create with `HighVoltageGame().new_state(...)`."""

    game: ClassVar[Any]
    view_version = VIEW_VERSION
    target_options = TARGET_OPTIONS

    # ------------------------------------------------------------------ creation

    @classmethod
    def deal(
        cls, seats: int, seed: int, setup: Setup | None = None, cards: CardSet | None = None
    ) -> HighVoltageState:
        """Shuffle and lay out the cards, turn the starting cards up, hand out colours."""
        if setup is None or cards is None:
            setup, cards = default_rules()
        if not setup.min_players <= seats <= setup.max_players:
            raise ValueError(
                f"High Voltage is for {setup.min_players}-{setup.max_players} players, not {seats}."
            )
        state = cls(setup, cards, seats, seed)
        rng = random.Random(seed)
        order = list(range(len(cards)))
        rng.shuffle(order)
        empty = state.geo.cell(setup.start_empty)
        cells = [c for c in range(state.geo.cells) if c != empty]
        for cell, card in zip(cells, order, strict=True):
            state.grid[cell] = card
            state.pos[card] = cell
        for name in setup.start_face_up:
            card = state.grid[state.geo.cell(name)]
            state.card_up[card] = True
            state.rot[card] = rng.randrange(4)
        state.face_down = len(cards) - len(setup.start_face_up)
        colours = list(range(len(setup.colours)))
        rng.shuffle(colours)
        state.seat_colour = colours[:seats]
        state.seat = rng.randrange(seats)
        return state

    # ------------------------------------------------------------------ interface

    def prompt(self) -> str | None:
        """A drawn card waits to be placed, or closable lines to be declared."""
        return _PROMPTS.get(self.phase)

    def final_scores(self) -> list[int]:
        """Each seat's company points plus point tokens (meaningful at any time, final at end)."""
        return scoring.final_scores(self.company, self.seat_colour, self.point_tokens)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = self.final_scores()
        best = max(scores)
        colours = self.setup.colours
        return Outcome(
            reason=self.end_reason or END_STUCK,
            scores=tuple(scores),
            winners=tuple(s for s, v in enumerate(scores) if v == best),
            details={
                "colours": [colours[c] for c in self.seat_colour],
                "company_scores": dict(zip(colours, self.company, strict=True)),
                "unowned": [colours[c] for c in range(len(colours)) if c not in self.seat_colour],
                "point_tokens": list(self.point_tokens),
            },
        )

    def legal_actions(self) -> list[HvAction]:
        if self.phase == OVER:
            return []
        if self.phase == PLACING:
            return placing_actions()
        if self.phase == DECLARING:
            return declaring_actions(self.closable)
        seat = self.seat
        return action_phase_actions(
            self._board,
            self.cards.legal_turns,
            self.action_tokens[seat],
            self.special_tokens[seat],
            self.actions_taken,
        )

    def sample_action(self, rng: random.Random) -> HvAction:
        """A random legal action: first a kind of action, then one of that kind (see
        `legal.sample_action_phase`), which keeps random playouts cheap."""
        if self.phase == PLACING:
            return Place(rng.choice(("here", "empty")), rng.choice(ROTATIONS))
        if self.phase == DECLARING:
            return rng.choice(self.legal_actions())
        if self.phase == OVER:
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        seat = self.seat
        return sample_action_phase(
            self._board,
            self.cards.legal_turns,
            self.action_tokens[seat],
            self.special_tokens[seat],
            self.actions_taken,
            self.face_down,
            rng,
        )

    def _apply(self, action: Any) -> None:
        apply_action(self, action)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    def to_dict(self) -> dict[str, Any]:
        return to_saved(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighVoltageState:
        return from_saved(cls, data)

    # ------------------------------------------------------------------ lines and the end

    def closable_lines(self) -> list[Line]:
        """The lines the current seat may declare now (empty outside the declaring step)."""
        return list(self.closable) if self.phase == DECLARING else []

    def line_points(self, line: Line) -> tuple[list[int], int]:
        """(points per colour, point tokens the declarer would take) for declaring `line`."""
        return points_of(self, line)

    def _find_closable(self) -> list[Line]:
        """Valid lines through a card this turn changed: the only lines this turn may close."""
        return find_closable(self)

    def no_line_possible(self) -> bool:
        """True only if no valid line can ever be closed again, whatever anyone does (see
        `scoring.no_line_possible` for why the test is sound and never early)."""
        return scoring.no_line_possible(
            self._board,
            self.cards,
            self.setup,
            self.face_down,
            self.action_tokens,
            self.special_tokens,
        )

    def _has_action(self) -> bool:
        """Whether the seat to move has any legal action at all."""
        return scoring.has_action(
            self._board,
            self.cards,
            self.face_down,
            self.action_tokens[self.seat],
            self.special_tokens[self.seat],
        )

    # ------------------------------------------------------------------ for the bot and tests

    def targets(
        self, seat: int | None, option: str, chosen: Mapping[str, Any] | None = None
    ) -> list[Any]:
        """`State.targets`, without listing every swap of the turn (thousands of them, four
        orientations each) for each letter typed in a cell option."""
        if chosen or self.phase != ACTION or seat is None or seat != self.current_seat():
            return super().targets(seat, option, chosen)
        found = cell_targets(
            self._board,
            self.cards.legal_turns,
            option,
            self.action_tokens[seat],
            self.special_tokens[seat],
        )
        return super().targets(seat, option, chosen) if found is None else found

    def redeal(self, seat: int | None, rng: random.Random) -> HighVoltageState:
        """The cards face down shuffled among their cells (but a card `seat` is holding after
        drawing it) and, before the end, the colours `seat` cannot see drawn again from those
        it does not hold; a new seed."""
        return redealt(self, seat, rng)
