"""What each High Voltage action does to a position, and how a turn passes on or the game ends.

A turn is one action (two with a double turn). A draw waits for its placement; an action that
makes lines closable waits for the actor's declarations; then the action is finished: the turn
passes when its actions are taken, and the game ends when a rule says so. Every function here
checks first and changes the position only once the action is known legal, so a refused action
leaves the position as it was; the messages of refusals live in `refusals`.
"""

from __future__ import annotations

from typing import Any

from engine.core import OVER
from games.high_voltage.rules.actions import Declare, DeclareNone, Draw, Move, Place, Rotate, Swap
from games.high_voltage.rules.lines import DANGER, HIGH_VOLTAGE, NO_TOKEN, Line
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
    PLACING,
    Position,
)
from games.high_voltage.rules.refusals import (
    check_special,
    danger_not_rotated,
    danger_only,
    declare_first,
    face_up_card_at,
    no_drawn_card,
    not_an_action,
    not_closable,
    not_face_down,
    nothing_to_declare,
    pay_for_move,
    place_first,
    resolve_place,
    same_picture,
    swap_same,
)
from games.high_voltage.rules.rules_data import EDGES
from games.high_voltage.rules.scoring import (
    has_action,
    line_points,
    no_line_possible,
    valid_lines_through,
)


def apply_action(state: Position, action: Any) -> None:
    """Check `action` against the phase and the position, then apply it."""
    if state.phase == PLACING:
        if not isinstance(action, Place):
            raise place_first(state._name(state.pos[state.drawn]))
        _place(state, action)
        return
    if state.phase == DECLARING:
        if isinstance(action, Declare):
            _declare(state, action)
        elif isinstance(action, DeclareNone):
            _decline(state, action)
        else:
            raise declare_first(state.closable)
        return
    if isinstance(action, Draw):
        _draw(state, action)
    elif isinstance(action, Rotate):
        _rotate(state, action)
    elif isinstance(action, Move):
        _move(state, action)
    elif isinstance(action, Swap):
        _swap(state, action)
    elif isinstance(action, Place):
        raise no_drawn_card()
    elif isinstance(action, Declare | DeclareNone):
        raise nothing_to_declare()
    else:
        raise not_an_action(action)


def find_closable(state: Position) -> list[Line]:
    """Valid lines through a card this turn changed: the only lines this turn may close."""
    cells = [state.pos[card] for card in state.changed if state.card_up[card]]
    return valid_lines_through(state._board, cells, state.setup)


def points_of(state: Position, line: Line) -> tuple[list[int], int]:
    """`scoring.line_points` for this position's board and point supply."""
    return line_points(line, state.geo, state.setup, state.point_supply)


# ---------------------------------------------------------------------- the actions


def _draw(state: Position, action: Draw) -> None:
    board = state._board
    cell = state.geo.cell(action.cell)
    card = state.grid[cell]
    if card == EMPTY or state.card_up[card]:
        raise not_face_down(board, cell, card)
    if action.special == "danger":
        raise danger_only()
    check_special(action.special, state.special_tokens[state.seat], state.actions_taken)
    target = None
    if action.place is not None:
        target = resolve_place(board, action.place, cell)
    # Everything is checked: from here on the action happens.
    _begin_action(state, action.special)
    state.drawn = card
    state.drawn_special = action.special
    state.phase = PLACING
    if target is None:
        state._history.append(Draw(state._name(cell), special=action.special).text())
        return
    place_word, rotation = target, action.rotation or 0
    state._history.append(Draw(state._name(cell), place_word, rotation, action.special).text())
    _put_drawn(state, place_word, rotation)


def _place(state: Position, action: Place) -> None:
    place = resolve_place(state._board, action.place, state.pos[state.drawn])
    state._history.append(Place(place, action.rotation).text())
    _put_drawn(state, place, action.rotation)


def _put_drawn(state: Position, place: str, rotation: int) -> None:
    card = state.drawn
    origin = state.pos[card]
    summary = Draw(state._name(origin), place, rotation, state.drawn_special).text()
    if place == "empty":
        target = state._empty_cell()
        state.grid[origin] = EMPTY
        state.grid[target] = card
        state.pos[card] = target
    state.card_up[card] = True
    state.rot[card] = rotation // 90
    state.face_down -= 1
    state.drawn = EMPTY
    state.drawn_special = None
    state.last["cells"] = sorted({origin, state.pos[card]})
    _after_action(state, [card], summary)


def _rotate(state: Position, action: Rotate) -> None:
    board = state._board
    cell, card = face_up_card_at(board, action.cell, "rotate")
    if state._is_danger(card):
        raise danger_not_rotated(board, cell, card)
    if action.special == "danger":
        raise danger_only()
    target = action.rotation // 90
    legal = state.cards.legal_turns[card][state.rot[card]]
    if target not in legal:
        raise same_picture(board, cell, card, target, legal)
    check_special(action.special, state.special_tokens[state.seat], state.actions_taken)
    _begin_action(state, action.special)
    state._history.append(Rotate(state._name(cell), action.rotation, action.special).text())
    state.rot[card] = target
    state.last["cells"] = [cell]
    _after_action(state, [card])


def _move(state: Position, action: Move) -> None:
    board = state._board
    cell, card = face_up_card_at(board, action.cell, "move")
    dangers = [(cell, card)] if state._is_danger(card) else []
    pay = _pay(state, dangers, action.special, "move")
    _begin_action(state, action.special, pay)
    state._history.append(Move(state._name(cell), action.rotation, action.special).text())
    target = state._empty_cell()
    state.grid[cell], state.grid[target] = EMPTY, card
    state.pos[card] = target
    state.rot[card] = action.rotation // 90
    state.last["cells"] = sorted((cell, target))
    _after_action(state, [card])


def _swap(state: Position, action: Swap) -> None:
    board = state._board
    cell_a, card_a = face_up_card_at(board, action.a, "swap")
    cell_b, card_b = face_up_card_at(board, action.b, "swap")
    if cell_a == cell_b:
        raise swap_same()
    both = ((cell_a, card_a), (cell_b, card_b))
    dangers = [(c, k) for c, k in both if state._is_danger(k)]
    pay = _pay(state, dangers, action.special, "swap")
    _begin_action(state, action.special, pay)
    state._history.append(
        Swap(
            state._name(cell_a),
            state._name(cell_b),
            action.rotation_a,
            action.rotation_b,
            action.special,
        ).text()
    )
    state.grid[cell_a], state.grid[cell_b] = card_b, card_a
    state.pos[card_a], state.pos[card_b] = cell_b, cell_a
    state.rot[card_a] = action.rotation_a // 90
    state.rot[card_b] = action.rotation_b // 90
    state.last["cells"] = sorted((cell_a, cell_b))
    _after_action(state, [card_a, card_b])


def _pay(state: Position, dangers: list[tuple[int, int]], special: str | None, what: str) -> str:
    """The token that pays for a move or swap; a double turn announced with one paid by an
    action token also needs the special token."""
    seat = state.seat
    pay = pay_for_move(
        state._board,
        dangers,
        special,
        what,
        state.action_tokens[seat],
        state.special_tokens[seat],
    )
    if pay == "action" and special == "double":
        check_special("double", state.special_tokens[seat], state.actions_taken)
    return pay


# ---------------------------------------------------------------------- declaring lines


def _declare(state: Position, action: Declare) -> None:
    line = next(
        (ln for ln in state.closable if (ln.first, ln.second) == (action.first, action.second)),
        None,
    )
    if line is None:
        raise not_closable(action.name, state.closable)
    state._history.append(action.text())
    points, tokens = points_of(state, line)
    for colour, value in enumerate(points):
        state.company[colour] += value
    state.point_tokens[state.seat] += tokens
    state.point_supply -= tokens
    placed = flipped = 0
    for cell in line.cells:
        card = state.grid[cell]
        if state.energy[card] == NO_TOKEN:
            if state.energy_supply == 0:
                continue  # the supply ran out during this line; the game ends after it
            state.energy[card] = HIGH_VOLTAGE
            state.energy_supply -= 1
            placed += 1
        elif state.energy[card] == HIGH_VOLTAGE:
            state.energy[card] = DANGER
            flipped += 1
    record = {
        "seat": state.seat,
        "line": line.name,
        "cells": [state._name(c) for c in line.cells],
        "entries": [EDGES[e] for e in line.entries],
        "points": dict(zip(state.setup.colours, points, strict=True)),
        "point_tokens": tokens,
        "tokens_placed": placed,
        "tokens_flipped": flipped,
    }
    state.declared.append(record)
    state.last["lines"].append(record)
    if state.energy_supply == 0:
        _end(state, END_ENERGY)
        return
    state.closable = find_closable(state)
    if not state.closable:
        _finish_action(state)


def _decline(state: Position, action: DeclareNone) -> None:
    """Leave the closable lines unscored, on the public record of lines declined."""
    state._history.append(action.text())
    state.declined.append(
        {
            "seat": state.seat,
            "lines": [
                {
                    "line": ln.name,
                    "points": dict(zip(state.setup.colours, points_of(state, ln)[0], strict=True)),
                }
                for ln in state.closable
            ],
        }
    )
    _finish_action(state)


# ---------------------------------------------------------------------- the turn around them


def _begin_action(state: Position, special: str | None, pay: str | None = None) -> None:
    """Spend tokens and open the action; called only once the action is known legal."""
    if state.actions_taken == 0:
        state.last = {"seat": state.seat, "actions": [], "cells": [], "lines": []}
    if special is not None:
        state.special_tokens[state.seat] -= 1
        if special == "double":
            state.double_turn = True
    if pay == "action":
        state.action_tokens[state.seat] -= 1
    state.last["lines"] = []


def _after_action(state: Position, cards: list[int], summary: str | None = None) -> None:
    state.actions_taken += 1
    state.last["actions"].append(summary or state._history[-1])
    state.changed.update(cards)
    state.closable = find_closable(state)
    if state.closable:
        state.phase = DECLARING
    else:
        _finish_action(state)


def _finish_action(state: Position) -> None:
    """Close the action: end the game if a rule says so (the move limit, `MAX_MOVES`, the
    last of them), else pass on the turn."""
    state.closable = []
    state.phase = ACTION
    if state.face_down == 0:
        _end(state, END_DECK)
        return
    if state.actions_taken >= (2 if state.double_turn else 1):
        state.seat = (state.seat + 1) % state.seats
        state.turns_played += 1
        state.actions_taken = 0
        state.double_turn = False
        state.changed = set()
    if no_line_possible(
        state._board,
        state.cards,
        state.setup,
        state.face_down,
        state.action_tokens,
        state.special_tokens,
    ):
        _end(state, END_NO_LINES)
    elif not has_action(
        state._board,
        state.cards,
        state.face_down,
        state.action_tokens[state.seat],
        state.special_tokens[state.seat],
    ):
        _end(state, END_STUCK)
    elif len(state._history) >= MAX_MOVES:
        # Last, so that a rule of the rulebook ending the game at the same move names it.
        _end(state, END_LIMIT)


def _end(state: Position, reason: str) -> None:
    if state.actions_taken:
        state.turns_played += 1
    state.phase = OVER
    state.end_reason = reason
    state.closable = []
