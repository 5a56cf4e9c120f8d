"""The High Voltage rules: one position and every way it may change.

A turn is one action (two with a double turn). An action may make lines closable; the actor
then declares them one by one in the order of their choice, or stops, and every declaration
re-checks the others. The state is the whole truth (the deal included); `view(seat)` is the
only thing that leaves it for players, pictures and AI seats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import OVER, Outcome, State, check_saved_format
from engine.errors import IllegalActionError, Phrase
from engine.high_voltage.actions import (
    ROTATIONS,
    Declare,
    DeclareNone,
    Draw,
    HvAction,
    Move,
    Place,
    Rotate,
    Swap,
)
from engine.high_voltage.board import SIDE_NAMES, Geometry, geometry
from engine.high_voltage.lines import DANGER, HIGH_VOLTAGE, NO_TOKEN, Board, Line
from engine.high_voltage.rules_data import EDGES, CardSet, Setup, default_rules, parse_setup

STATE_FORMAT = "high-voltage-state"
STATE_VERSION = 1
VIEW_VERSION = 1

ACTION, PLACING, DECLARING = "action", "placing", "declaring"
PHASES = (ACTION, PLACING, DECLARING, OVER)
EMPTY = -1
ENERGY_NAMES = ("none", "high_voltage", "danger")

# Why a game ended, as stored and shown.
END_ENERGY = "energy_tokens_exhausted"
END_DECK = "last_card_placed"
END_NO_LINES = "no_valid_line_possible"
END_STUCK = "no_legal_action"


def _deg(quarters: int) -> int:
    return quarters * 90


class HighVoltageState(State):
    """A High Voltage game. Create with `HighVoltageGame().new_state(...)`."""

    game: ClassVar[Any]
    view_version = VIEW_VERSION
    target_options = ("draw.cell", "rotate.cell", "move.cell", "swap.a", "swap.b")

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
        return [self.company[self.seat_colour[s]] + self.point_tokens[s] for s in range(self.seats)]

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

    # ------------------------------------------------------------------ helpers

    def _name(self, cell: int) -> str:
        return self.geo.names[cell]

    def _is_danger(self, card: int) -> bool:
        return self.energy[card] == DANGER or self.cards.is_danger[card]

    def _empty_cell(self) -> int:
        return self.grid.index(EMPTY)

    def _face_up_card_at(self, name: str, verb: str) -> tuple[int, int]:
        """(cell, card) of a face-up card, or a message saying why `verb` cannot use it."""
        cell = self.geo.cell(name)
        card = self.grid[cell]
        if card == EMPTY:
            raise IllegalActionError(
                f"{self._name(cell)} is the empty cell: there is no card to {verb}.",
                key=f"engine.high_voltage.no_card_to.{verb}",
                cell=self._name(cell),
            )
        if not self.card_up[card]:
            raise IllegalActionError(
                f"{self._name(cell)} is face down: draw it first (draw {self._name(cell)}).",
                key="engine.high_voltage.face_down",
                cell=self._name(cell),
            )
        return cell, card

    def _danger_note(self, cell: int, card: int) -> Phrase:
        name = self._name(cell)
        if self.cards.is_danger[card]:
            return Phrase(f"{name} is a DANGER card", "engine.high_voltage.danger.card", cell=name)
        return Phrase(
            f"{name} carries a DANGER token", "engine.high_voltage.danger.token", cell=name
        )

    def _check_special(self, special: str | None) -> None:
        if special is None:
            return
        if self.special_tokens[self.seat] <= 0:
            raise IllegalActionError(
                "You have used your special action token already.",
                key="engine.high_voltage.special_used",
            )
        if special == "double" and self.actions_taken > 0:
            raise IllegalActionError(
                "A double turn is announced with the first action of the turn, not the second.",
                key="engine.high_voltage.double_first",
            )

    def _pay_for_move(
        self, danger_cards: list[tuple[int, int]], special: str | None, what: str
    ) -> str:
        """Check which token pays for a move or swap; return 'special' or 'action'."""
        if danger_cards:
            cell, card = danger_cards[0]
            note = self._danger_note(cell, card)
            if special != "danger" or self.special_tokens[self.seat] <= 0:
                if self.special_tokens[self.seat] <= 0:
                    raise IllegalActionError(
                        f"{note}; only a special action token lets you {what} it, "
                        "and yours is used.",
                        key=f"engine.high_voltage.danger_special_used.{what}",
                        note=note,
                    )
                raise IllegalActionError(
                    f"{note}: to {what} it, use your special action token (add special=danger).",
                    key=f"engine.high_voltage.danger_needs_special.{what}",
                    note=note,
                )
            return "special"
        if special == "danger":
            raise IllegalActionError(
                f"special=danger is for moving or swapping a card with a DANGER token; "
                f"to {what} these cards spend an action token (leave special out).",
                key=f"engine.high_voltage.danger_not_needed.{what}",
            )
        if self.action_tokens[self.seat] <= 0:
            raise IllegalActionError(
                f"You have no action tokens left, so you cannot {what}: draw a card or rotate one.",
                key=f"engine.high_voltage.no_action_tokens.{what}",
            )
        return "action"

    # ------------------------------------------------------------------ applying actions

    def _apply(self, action: Any) -> None:
        if self.phase == PLACING:
            if not isinstance(action, Place):
                drawn_from = self._name(self.pos[self.drawn])
                raise IllegalActionError(
                    f"First place the card you drew from {drawn_from}: "
                    f"place here r0 (or r90, r180, r270), or place empty r0.",
                    key="engine.high_voltage.place_first",
                    cell=drawn_from,
                )
            self._place(action)
            return
        if self.phase == DECLARING:
            if isinstance(action, Declare):
                self._declare(action)
            elif isinstance(action, DeclareNone):
                self._history.append(action.text())
                self.declined.append(
                    {
                        "seat": self.seat,
                        "lines": [
                            {
                                "line": ln.name,
                                "points": dict(
                                    zip(self.setup.colours, self.line_points(ln)[0], strict=True)
                                ),
                            }
                            for ln in self.closable
                        ],
                    }
                )
                self._finish_action()
            else:
                names = ", ".join(line.name for line in self.closable)
                raise IllegalActionError(
                    f"First choose which lines to declare: declare {self.closable[0].name} "
                    f"(closable: {names}), or declare none.",
                    key="engine.high_voltage.declare_first",
                    line=self.closable[0].name,
                    lines=names,
                )
            return
        if isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, Rotate):
            self._rotate(action)
        elif isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Swap):
            self._swap(action)
        elif isinstance(action, Place):
            raise IllegalActionError(
                "There is no drawn card to place: draw one first (draw C3).",
                key="engine.high_voltage.no_drawn_card",
            )
        elif isinstance(action, Declare | DeclareNone):
            raise IllegalActionError(
                "No line is waiting to be declared: lines are declared right after the action "
                "that closed them.",
                key="engine.high_voltage.nothing_to_declare",
            )
        else:
            raise IllegalActionError(
                f"{action!r} is not a High Voltage action.",
                key="engine.high_voltage.not_an_action",
                action=action,
            )

    def _draw(self, action: Draw) -> None:
        cell = self.geo.cell(action.cell)
        card = self.grid[cell]
        if card == EMPTY or self.card_up[card]:
            state = "the empty cell" if card == EMPTY else "face up already"
            example = self._example_face_down()
            raise IllegalActionError(
                f"{self._name(cell)} is {state}: draw a face-down card ({example}).",
                key="engine.high_voltage.draw_face_down."
                + ("empty" if card == EMPTY else "face_up"),
                cell=self._name(cell),
                example=example,
            )
        if action.special == "danger":
            raise self._danger_only()
        self._check_special(action.special)
        target = None
        if action.place is not None:
            target = self._resolve_place(action.place, cell)
        # Everything is checked: from here on the action happens.
        self._begin_action(action.special)
        self.drawn = card
        self.drawn_special = action.special
        self.phase = PLACING
        if target is None:
            self._history.append(Draw(self._name(cell), special=action.special).text())
            return
        place_word, rotation = target, action.rotation or 0
        self._history.append(Draw(self._name(cell), place_word, rotation, action.special).text())
        self._put_drawn(place_word, rotation)

    def _example_face_down(self) -> Phrase:
        for cell, card in enumerate(self.grid):
            if card != EMPTY and not self.card_up[card]:
                name = self._name(cell)
                return Phrase(
                    f"for example draw {name}", "engine.high_voltage.example.draw", cell=name
                )
        return Phrase("but none is left", "engine.high_voltage.example.none_left")

    def _danger_only(self) -> IllegalActionError:
        return IllegalActionError(
            "special=danger is only for moving or swapping a DANGER card.",
            key="engine.high_voltage.danger_only",
        )

    def _resolve_place(self, place: str, drawn_cell: int) -> str:
        if place in ("here", "empty"):
            return place
        cell = self.geo.cell(place)
        if cell == drawn_cell:
            return "here"
        if cell == self._empty_cell():
            return "empty"
        raise IllegalActionError(
            f"A drawn card goes back where it was ({self._name(drawn_cell)}) or into the empty "
            f"cell ({self._name(self._empty_cell())}), not {self._name(cell)}.",
            key="engine.high_voltage.drawn_card_goes",
            here=self._name(drawn_cell),
            empty=self._name(self._empty_cell()),
            cell=self._name(cell),
        )

    def _place(self, action: Place) -> None:
        place = self._resolve_place(action.place, self.pos[self.drawn])
        self._history.append(Place(place, action.rotation).text())
        self._put_drawn(place, action.rotation)

    def _put_drawn(self, place: str, rotation: int) -> None:
        card = self.drawn
        origin = self.pos[card]
        summary = Draw(self._name(origin), place, rotation, self.drawn_special).text()
        if place == "empty":
            target = self._empty_cell()
            self.grid[origin] = EMPTY
            self.grid[target] = card
            self.pos[card] = target
        self.card_up[card] = True
        self.rot[card] = rotation // 90
        self.face_down -= 1
        self.drawn = EMPTY
        self.drawn_special = None
        self.last["cells"] = sorted({origin, self.pos[card]})
        self._after_action([card], summary)

    def _rotate(self, action: Rotate) -> None:
        cell, card = self._face_up_card_at(action.cell, "rotate")
        if self._is_danger(card):
            note = self._danger_note(cell, card)
            raise IllegalActionError(
                f"{note}, so it cannot be rotated (not even with the "
                f"special action token, which only moves or swaps it).",
                key="engine.high_voltage.danger_no_rotation",
                note=note,
            )
        if action.special == "danger":
            raise self._danger_only()
        target = action.rotation // 90
        legal = self.cards.legal_turns[card][self.rot[card]]
        if target not in legal:
            options: str = ", ".join(f"r{_deg(r)}" for r in legal) or Phrase(
                "none", "engine.high_voltage.no_rotations"
            )
            name, turned = self._name(cell), f"r{_deg(target)}"
            if target == self.rot[card]:
                why = Phrase(
                    f"{name} is already at {turned}",
                    "engine.high_voltage.same_rotation.already",
                    cell=name,
                    rotation=turned,
                )
            else:
                why = Phrase(
                    f"turning {name} to {turned} gives the same picture",
                    "engine.high_voltage.same_rotation.same_picture",
                    cell=name,
                    rotation=turned,
                )
            raise IllegalActionError(
                f"{why}; a rotation must change the paths. Legal: {options}.",
                key="engine.high_voltage.same_rotation.message",
                why=why,
                options=options,
            )
        self._check_special(action.special)
        self._begin_action(action.special)
        self._history.append(Rotate(self._name(cell), action.rotation, action.special).text())
        self.rot[card] = target
        self.last["cells"] = [cell]
        self._after_action([card])

    def _move(self, action: Move) -> None:
        cell, card = self._face_up_card_at(action.cell, "move")
        pay = self._pay_for_move(
            [(cell, card)] if self._is_danger(card) else [], action.special, "move"
        )
        if pay == "action" and action.special == "double":
            self._check_special("double")
        self._begin_action(action.special, pay)
        self._history.append(Move(self._name(cell), action.rotation, action.special).text())
        target = self._empty_cell()
        self.grid[cell], self.grid[target] = EMPTY, card
        self.pos[card] = target
        self.rot[card] = action.rotation // 90
        self.last["cells"] = sorted((cell, target))
        self._after_action([card])

    def _swap(self, action: Swap) -> None:
        cell_a, card_a = self._face_up_card_at(action.a, "swap")
        cell_b, card_b = self._face_up_card_at(action.b, "swap")
        if cell_a == cell_b:
            raise IllegalActionError(
                "A swap needs two different cards.", key="engine.high_voltage.swap_same"
            )
        dangers = [(c, k) for c, k in ((cell_a, card_a), (cell_b, card_b)) if self._is_danger(k)]
        pay = self._pay_for_move(dangers, action.special, "swap")
        if pay == "action" and action.special == "double":
            self._check_special("double")
        self._begin_action(action.special, pay)
        self._history.append(
            Swap(
                self._name(cell_a),
                self._name(cell_b),
                action.rotation_a,
                action.rotation_b,
                action.special,
            ).text()
        )
        self.grid[cell_a], self.grid[cell_b] = card_b, card_a
        self.pos[card_a], self.pos[card_b] = cell_b, cell_a
        self.rot[card_a] = action.rotation_a // 90
        self.rot[card_b] = action.rotation_b // 90
        self.last["cells"] = sorted((cell_a, cell_b))
        self._after_action([card_a, card_b])

    def _begin_action(self, special: str | None, pay: str | None = None) -> None:
        """Spend tokens and open the action; called only once the action is known legal."""
        if self.actions_taken == 0:
            self.last = {"seat": self.seat, "actions": [], "cells": [], "lines": []}
        if special is not None:
            self.special_tokens[self.seat] -= 1
            if special == "double":
                self.double_turn = True
        if pay == "action":
            self.action_tokens[self.seat] -= 1
        self.last["lines"] = []

    def _after_action(self, cards: list[int], summary: str | None = None) -> None:
        self.actions_taken += 1
        self.last["actions"].append(summary or self._history[-1])
        self.changed.update(cards)
        self.closable = self._find_closable()
        if self.closable:
            self.phase = DECLARING
        else:
            self._finish_action()

    def _find_closable(self) -> list[Line]:
        """Valid lines through a card this turn changed: the only lines this turn may close."""
        board = self._board
        cells = [self.pos[card] for card in self.changed if self.card_up[card]]
        return [
            line
            for line in board.lines_through(cells)
            if board.problem(line, self.setup.min_line_cards, self.setup.max_high_voltage_on_line)
            is None
        ]

    def closable_lines(self) -> list[Line]:
        """The lines the current seat may declare now (empty outside the declaring step)."""
        return list(self.closable) if self.phase == DECLARING else []

    def line_points(self, line: Line) -> tuple[list[int], int]:
        """(points per colour, point tokens the declarer would take) for declaring `line`."""
        points = [0] * len(self.company)
        for colour in line.colours:
            points[colour] += 1
        stations = self.geo.stations
        points[stations[line.first].colour] += 1
        points[stations[line.second].colour] += 1
        tokens = min(self.setup.points_for_length(len(line)), self.point_supply)
        return points, tokens

    def _declare(self, action: Declare) -> None:
        line = next(
            (ln for ln in self.closable if (ln.first, ln.second) == (action.first, action.second)),
            None,
        )
        if line is None:
            names = ", ".join(ln.name for ln in self.closable)
            raise IllegalActionError(
                f"{action.name} is not a line you can declare now; you can declare {names}, "
                f"or declare none.",
                key="engine.high_voltage.not_closable",
                line=action.name,
                lines=names,
            )
        self._history.append(action.text())
        points, tokens = self.line_points(line)
        for colour, value in enumerate(points):
            self.company[colour] += value
        self.point_tokens[self.seat] += tokens
        self.point_supply -= tokens
        placed = flipped = 0
        for cell in line.cells:
            card = self.grid[cell]
            if self.energy[card] == NO_TOKEN:
                if self.energy_supply == 0:
                    continue  # the supply ran out during this line; the game ends after it
                self.energy[card] = HIGH_VOLTAGE
                self.energy_supply -= 1
                placed += 1
            elif self.energy[card] == HIGH_VOLTAGE:
                self.energy[card] = DANGER
                flipped += 1
        record = {
            "seat": self.seat,
            "line": line.name,
            "cells": [self._name(c) for c in line.cells],
            "entries": [EDGES[e] for e in line.entries],
            "points": dict(zip(self.setup.colours, points, strict=True)),
            "point_tokens": tokens,
            "tokens_placed": placed,
            "tokens_flipped": flipped,
        }
        self.declared.append(record)
        self.last["lines"].append(record)
        if self.energy_supply == 0:
            self._end(END_ENERGY)
            return
        self.closable = self._find_closable()
        if not self.closable:
            self._finish_action()

    def _finish_action(self) -> None:
        """Close the action: end the game if a rule says so, else pass on the turn."""
        self.closable = []
        self.phase = ACTION
        if self.face_down == 0:
            self._end(END_DECK)
            return
        if self.actions_taken >= (2 if self.double_turn else 1):
            self.seat = (self.seat + 1) % self.seats
            self.turns_played += 1
            self.actions_taken = 0
            self.double_turn = False
            self.changed = set()
        if self.no_line_possible():
            self._end(END_NO_LINES)
        elif not self._has_action():
            self._end(END_STUCK)

    def _end(self, reason: str) -> None:
        if self.actions_taken:
            self.turns_played += 1
        self.phase = OVER
        self.end_reason = reason
        self.closable = []

    # ------------------------------------------------------------------ end-of-game tests

    def no_line_possible(self) -> bool:
        """True only if no valid line can ever be closed again, whatever anyone does.

        Sound, never early: (1) a line needs `min_line_cards` cards that carry no DANGER
        token, of which at most `max_high_voltage_on_line` carry HIGH VOLTAGE, and tokens are
        never removed; face-down cards count as usable whatever they hide, so the test reveals
        nothing. (2) Once nothing can be drawn, moved or swapped by anyone, only rotations
        remain, and an exact search over orientations decides whether a line can appear.
        """
        clean = self.face_down
        high_voltage = 0
        for card in range(len(self.cards)):
            if self.card_up[card] and not self.cards.is_danger[card]:
                if self.energy[card] == NO_TOKEN:
                    clean += 1
                elif self.energy[card] == HIGH_VOLTAGE:
                    high_voltage += 1
        if (
            clean + min(high_voltage, self.setup.max_high_voltage_on_line)
            < self.setup.min_line_cards
        ):
            return True
        if self.face_down or any(self.action_tokens) or any(self.special_tokens):
            return False
        return not self._board.rotation_line_possible(
            self.cards.can_go_straight,
            self.cards.can_turn,
            self.setup.min_line_cards,
            self.setup.max_high_voltage_on_line,
        )

    def _has_action(self) -> bool:
        if self.face_down:
            return True
        seat = self.seat
        movable = self.action_tokens[seat] > 0
        special = self.special_tokens[seat] > 0
        for card in range(len(self.cards)):
            if not self.card_up[card]:
                continue
            if self._is_danger(card):
                if special:
                    return True
            elif movable or self.cards.legal_turns[card][self.rot[card]]:
                return True
        return False

    # ------------------------------------------------------------------ enumerating actions

    def _up_cells(self) -> tuple[list[int], list[int]]:
        """Cells of face-up cards: (ordinary, DANGER card or token)."""
        normal, danger = [], []
        for cell, card in enumerate(self.grid):
            if card != EMPTY and self.card_up[card]:
                (danger if self._is_danger(card) else normal).append(cell)
        return normal, danger

    def legal_actions(self) -> list[HvAction]:
        if self.phase == OVER:
            return []
        if self.phase == PLACING:
            return [Place(p, r) for p in ("here", "empty") for r in ROTATIONS]
        if self.phase == DECLARING:
            return [Declare(ln.first, ln.second) for ln in self.closable] + [DeclareNone()]
        names = self.geo.names
        seat = self.seat
        specials: list[str | None] = [None]
        if self.special_tokens[seat] > 0 and self.actions_taken == 0:
            specials.append("double")
        normal, danger = self._up_cells()
        out: list[HvAction] = []
        for sp in specials:
            out += [
                Draw(names[c], special=sp)
                for c, k in enumerate(self.grid)
                if k != EMPTY and not self.card_up[k]
            ]
            for cell in normal:
                card = self.grid[cell]
                out += [
                    Rotate(names[cell], _deg(r), sp)
                    for r in self.cards.legal_turns[card][self.rot[card]]
                ]
            if self.action_tokens[seat] > 0:
                out += [Move(names[c], r, sp) for c in normal for r in ROTATIONS]
                out += [
                    Swap(names[a], names[b], ra, rb, sp)
                    for i, a in enumerate(normal)
                    for b in normal[i + 1 :]
                    for ra in ROTATIONS
                    for rb in ROTATIONS
                ]
        if self.special_tokens[seat] > 0 and danger:
            out += [Move(names[c], r, "danger") for c in danger for r in ROTATIONS]
            everyone = sorted(normal + danger)
            out += [
                Swap(names[a], names[b], ra, rb, "danger")
                for i, a in enumerate(everyone)
                for b in everyone[i + 1 :]
                if a in danger or b in danger
                for ra in ROTATIONS
                for rb in ROTATIONS
            ]
        return out

    def sample_action(self, rng: random.Random) -> HvAction:
        """A random legal action: first a kind of action, then one of that kind.

        Enumerating every swap (hundreds of pairs times 16 orientations) each turn would make
        random playouts slow; sampling the kind first keeps them cheap and still reaches every
        legal action.
        """
        if self.phase == PLACING:
            return Place(rng.choice(("here", "empty")), rng.choice(ROTATIONS))
        if self.phase == DECLARING:
            return rng.choice(self.legal_actions())
        if self.phase == OVER:
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        names = self.geo.names
        seat = self.seat
        normal, danger = self._up_cells()
        rotatable = [
            c for c in normal if self.cards.legal_turns[self.grid[c]][self.rot[self.grid[c]]]
        ]
        has_tokens = self.action_tokens[seat] > 0
        has_special = self.special_tokens[seat] > 0
        kinds = []
        if self.face_down:
            kinds.append("draw")
        if rotatable:
            kinds.append("rotate")
        if has_tokens and normal:
            kinds.append("move")
        if has_tokens and len(normal) >= 2:
            kinds.append("swap")
        if has_special and danger:
            kinds.append("danger")
        kind = rng.choice(kinds)
        double = (
            "double" if has_special and self.actions_taken == 0 and rng.random() < 0.05 else None
        )
        if kind == "draw":
            cells = [c for c, k in enumerate(self.grid) if k != EMPTY and not self.card_up[k]]
            return Draw(names[rng.choice(cells)], special=double)
        if kind == "rotate":
            cell = rng.choice(rotatable)
            card = self.grid[cell]
            return Rotate(
                names[cell], _deg(rng.choice(self.cards.legal_turns[card][self.rot[card]])), double
            )
        if kind == "move":
            return Move(names[rng.choice(normal)], rng.choice(ROTATIONS), double)
        if kind == "swap":
            a, b = rng.sample(normal, 2)
            return _swap_in_order(names, a, b, rng.choice(ROTATIONS), rng.choice(ROTATIONS), double)
        cell = rng.choice(danger)
        others = [c for c in normal + danger if c != cell]
        if others and rng.random() < 0.5:
            other = rng.choice(others)
            return _swap_in_order(
                names, cell, other, rng.choice(ROTATIONS), rng.choice(ROTATIONS), "danger"
            )
        return Move(names[cell], rng.choice(ROTATIONS), "danger")

    # ------------------------------------------------------------------ views

    def _card_face(self, card: int, quarters: int) -> dict[str, Any]:
        face = self.cards.faces[card]
        return {
            "kind": face.kind,
            "rotation": _deg(quarters),
            "paths": [
                {
                    "edges": [EDGES[p.rotated(quarters).a], EDGES[p.rotated(quarters).b]],
                    "colour": p.colour,
                }
                for p in face.paths
            ],
        }

    def _line_view(self, line: Line) -> dict[str, Any]:
        points, tokens = self.line_points(line)
        stations = self.geo.stations
        return {
            "line": line.name,
            "stations": [line.first, line.second],
            "sides": [
                SIDE_NAMES[stations[line.first].side],
                SIDE_NAMES[stations[line.second].side],
            ],
            "cells": [self._name(c) for c in line.cells],
            "entries": [EDGES[e] for e in line.entries],
            "length": len(line),
            "points": dict(zip(self.setup.colours, points, strict=True)),
            "point_tokens": tokens,
        }

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator). Never holds the seed, a face-down face or
        another seat's colour before the end; the drawn card's face only for its drawer."""
        over = self.phase == OVER
        colours = self.setup.colours
        cells = []
        for cell, card in enumerate(self.grid):
            entry: dict[str, Any] = {"cell": self._name(cell)}
            if card == EMPTY:
                entry["state"] = "empty"
            elif not self.card_up[card]:
                entry["state"] = "down"
            else:
                entry["state"] = "up"
                entry.update(self._card_face(card, self.rot[card]))
                entry["energy"] = ENERGY_NAMES[self.energy[card]]
            cells.append(entry)
        players = []
        for s in range(self.seats):
            visible = over or s == seat
            players.append(
                {
                    "seat": s,
                    "action_tokens": self.action_tokens[s],
                    "special_tokens": self.special_tokens[s],
                    "point_tokens": self.point_tokens[s],
                    "colour": colours[self.seat_colour[s]] if visible else None,
                }
            )
        drawn = None
        if self.phase == PLACING:
            drawn = {"cell": self._name(self.pos[self.drawn])}
            if seat == self.seat:
                drawn.update(self._card_face(self.drawn, 0))
        return {
            "grid_size": self.geo.size,
            "turn": self.turns_played + (0 if over else 1),
            "double_turn": self.double_turn,
            "actions_taken": self.actions_taken,
            "cells": cells,
            "empty_cell": self._name(self._empty_cell()) if EMPTY in self.grid else None,
            "stations": [
                {
                    "station": st.number,
                    "side": SIDE_NAMES[st.side],
                    "cell": self._name(st.cell),
                    "colour": colours[st.colour],
                }
                for st in self.geo.stations.values()
            ],
            "colours": list(colours),
            "players": players,
            "company_scores": dict(zip(colours, self.company, strict=True)),
            "energy_supply": self.energy_supply,
            "point_supply": self.point_supply,
            "face_down": self.face_down,
            "drawn": drawn,
            "closable": [self._line_view(ln) for ln in self.closable],
            # Public: everyone saw which cards this turn's actions changed. An AI seat needs it
            # to know which lines the turn may still close (see `_find_closable`).
            "turn_changed_cells": sorted(self._name(self.pos[card]) for card in self.changed),
            # Public logs: every scored line and every set of valid lines left unscored.
            "declared": [dict(rec) for rec in self.declared],
            "declined": [_copy_declined(rec) for rec in self.declined],
            "last": {
                "seat": self.last["seat"],
                "actions": list(self.last["actions"]),
                "cells": [self._name(c) for c in self.last["cells"]],
                "lines": [dict(rec) for rec in self.last["lines"]],
            },
        }

    # ------------------------------------------------------------------ for the bot and tests

    def targets(
        self, seat: int | None, option: str, chosen: Mapping[str, Any] | None = None
    ) -> list[Any]:
        """`State.targets`, without listing every swap of the turn (thousands of them, four
        orientations each) for each letter typed in a cell option."""
        if chosen or self.phase != ACTION or seat is None or seat != self.current_seat():
            return super().targets(seat, option, chosen)
        names, grid = self.geo.names, self.grid
        normal, danger = self._up_cells()
        tokens = self.action_tokens[seat] > 0
        special = self.special_tokens[seat] > 0
        if option == "draw.cell":
            return [names[c] for c, k in enumerate(grid) if k != EMPTY and not self.card_up[k]]
        if option == "rotate.cell":
            turns = self.cards.legal_turns
            return [names[c] for c in normal if turns[grid[c]][self.rot[grid[c]]]]
        if option == "move.cell":
            return [names[c] for c in (normal if tokens else []) + (danger if special else [])]
        if option in ("swap.a", "swap.b"):
            pairs = set()
            if tokens:
                pairs |= {(a, b) for i, a in enumerate(normal) for b in normal[i + 1 :]}
            if special and danger:
                risky = set(danger)
                everyone = sorted(normal + danger)
                pairs |= {
                    (a, b)
                    for i, a in enumerate(everyone)
                    for b in everyone[i + 1 :]
                    if a in risky or b in risky
                }
            end = 0 if option == "swap.a" else 1
            return [names[c] for c in sorted({pair[end] for pair in pairs})]
        return super().targets(seat, option, chosen)

    def redeal(self, seat: int | None, rng: random.Random) -> HighVoltageState:
        """The cards face down shuffled among their cells (but a card `seat` is holding after
        drawing it) and, before the end, the colours `seat` cannot see drawn again from those
        it does not hold; a new seed."""
        other = self.copy()
        other.seed = rng.getrandbits(62)
        held = self.drawn if self.phase == PLACING and seat == self.seat else EMPTY
        cells = [c for c, k in enumerate(self.grid) if k not in (EMPTY, held)]
        cells = [c for c in cells if not self.card_up[self.grid[c]]]
        cards = [self.grid[c] for c in cells]
        rng.shuffle(cards)
        for cell, card in zip(cells, cards, strict=True):
            other.grid[cell] = card
            other.pos[card] = cell
        if self.drawn not in (EMPTY, held):
            other.drawn = other.grid[self.pos[self.drawn]]
        if self.phase != OVER:
            own = None if seat is None else self.seat_colour[seat]
            free = [c for c in range(len(self.setup.colours)) if c != own]
            rng.shuffle(free)
            for s in range(self.seats):
                if s != seat:
                    other.seat_colour[s] = free.pop()
        return other

    # ------------------------------------------------------------------ copying

    def copy(self) -> HighVoltageState:
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

    # ------------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "seats": self.seats,
            "seed": self.seed,
            "setup": self.setup.to_dict(),
            "cards": self.cards.to_data(),
            "grid": list(self.grid),
            "card_up": [int(u) for u in self.card_up],
            "rot": list(self.rot),
            "energy": list(self.energy),
            "seat_colour": list(self.seat_colour),
            "action_tokens": list(self.action_tokens),
            "special_tokens": list(self.special_tokens),
            "point_tokens": list(self.point_tokens),
            "company": list(self.company),
            "energy_supply": self.energy_supply,
            "point_supply": self.point_supply,
            "phase": self.phase,
            "seat": self.seat,
            "turns_played": self.turns_played,
            "actions_taken": self.actions_taken,
            "double_turn": self.double_turn,
            "changed": sorted(self.changed),
            "drawn": self.drawn,
            "drawn_special": self.drawn_special,
            "declared": [dict(rec) for rec in self.declared],
            "declined": [_copy_declined(rec) for rec in self.declined],
            "last": {
                "seat": self.last["seat"],
                "actions": list(self.last["actions"]),
                "cells": list(self.last["cells"]),
                "lines": [dict(rec) for rec in self.last["lines"]],
            },
            "history": list(self._history),
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighVoltageState:
        check_saved_format(data, format=STATE_FORMAT, version=STATE_VERSION, title="High Voltage")
        try:
            setup = parse_setup(data["setup"], "saved game setup")
            cards = CardSet.from_data(data["cards"], setup.colours)
            state = cls(setup, cards, int(data["seats"]), int(data["seed"]))
            n_cells, n_cards = state.geo.cells, len(cards)
            grid = [int(c) for c in data["grid"]]
            if len(grid) != n_cells or sorted(c for c in grid if c != EMPTY) != list(
                range(n_cards)
            ):
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
            state.point_tokens = [
                int(v) for v in _sized(data["point_tokens"], seats, "point_tokens")
            ]
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
            state.declined = [_copy_declined(rec) for rec in data.get("declined", [])]
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
            raise ValueError(
                f"Saved High Voltage state is incomplete or malformed: {exc!r}"
            ) from exc
        if state.phase == DECLARING:
            state.closable = state._find_closable()
        return state


_PROMPTS = {PLACING: "place", DECLARING: "declare"}


def _swap_in_order(
    names: tuple[str, ...], a: int, b: int, rot_a: int, rot_b: int, special: str | None
) -> Swap:
    """The same swap written as `legal_actions` lists it: the earlier cell first."""
    if a > b:
        a, b, rot_a, rot_b = b, a, rot_b, rot_a
    return Swap(names[a], names[b], rot_a, rot_b, special)


def _copy_declined(record: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "seat": record["seat"],
        "lines": [{"line": ln["line"], "points": dict(ln["points"])} for ln in record["lines"]],
    }


def _sized(values: Any, size: int, name: str) -> list[Any]:
    if not isinstance(values, list) or len(values) != size:
        raise ValueError(f"{name!r} must be a list of {size} values")
    return values
