"""Why a High Voltage action is refused, in words a player can act on.

Every refusal names what was wrong and what would be legal instead, and carries a text key so
the bot can say it in the player's language. Gathered here, away from the code that applies
actions, so that `turn` reads as the rules and this module as the messages; the checks that
only raise (`face_up_card_at`, `check_special`, `pay_for_move`, `resolve_place`) change nothing.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalActionError, Phrase
from games.high_voltage.rules.lines import Board, Line
from games.high_voltage.rules.position import EMPTY, degrees


def face_up_card_at(board: Board, name: str, verb: str) -> tuple[int, int]:
    """(cell, card) of a face-up card, or a message saying why `verb` cannot use it."""
    cell = board.geo.cell(name)
    card = board.grid[cell]
    named = board.geo.names[cell]
    if card == EMPTY:
        raise IllegalActionError(
            f"{named} is the empty cell: there is no card to {verb}.",
            key=f"engine.high_voltage.no_card_to.{verb}",
            cell=named,
        )
    if not board.card_up[card]:
        raise IllegalActionError(
            f"{named} is face down: draw it first (draw {named}).",
            key="engine.high_voltage.face_down",
            cell=named,
        )
    return cell, card


def danger_note(board: Board, cell: int, card: int) -> Phrase:
    """Why the card on `cell` counts as DANGER: printed so, or carrying the token."""
    name = board.geo.names[cell]
    if board.danger_card[card]:
        return Phrase(f"{name} is a DANGER card", "engine.high_voltage.danger.card", cell=name)
    return Phrase(f"{name} carries a DANGER token", "engine.high_voltage.danger.token", cell=name)


def check_special(special: str | None, special_left: int, actions_taken: int) -> None:
    """Refuse a special action token the seat no longer has, or a double turn announced late."""
    if special is None:
        return
    if special_left <= 0:
        raise IllegalActionError(
            "You have used your special action token already.",
            key="engine.high_voltage.special_used",
        )
    if special == "double" and actions_taken > 0:
        raise IllegalActionError(
            "A double turn is announced with the first action of the turn, not the second.",
            key="engine.high_voltage.double_first",
        )


def pay_for_move(
    board: Board,
    danger_cards: list[tuple[int, int]],
    special: str | None,
    what: str,
    action_left: int,
    special_left: int,
) -> str:
    """Check which token pays for a move or swap; return 'special' or 'action'."""
    if danger_cards:
        cell, card = danger_cards[0]
        note = danger_note(board, cell, card)
        if special != "danger" or special_left <= 0:
            if special_left <= 0:
                raise IllegalActionError(
                    f"{note}; only a special action token lets you {what} it, and yours is used.",
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
    if action_left <= 0:
        raise IllegalActionError(
            f"You have no action tokens left, so you cannot {what}: draw a card or rotate one.",
            key=f"engine.high_voltage.no_action_tokens.{what}",
        )
    return "action"


def resolve_place(board: Board, place: str, drawn_cell: int) -> str:
    """Where a drawn card goes, as "here" or "empty", from those words or a cell's name."""
    if place in ("here", "empty"):
        return place
    cell = board.geo.cell(place)
    if cell == drawn_cell:
        return "here"
    empty = board.grid.index(EMPTY)
    if cell == empty:
        return "empty"
    names = board.geo.names
    raise IllegalActionError(
        f"A drawn card goes back where it was ({names[drawn_cell]}) or into the empty "
        f"cell ({names[empty]}), not {names[cell]}.",
        key="engine.high_voltage.drawn_card_goes",
        here=names[drawn_cell],
        empty=names[empty],
        cell=names[cell],
    )


def not_face_down(board: Board, cell: int, card: int) -> IllegalActionError:
    """A draw from the empty cell or from a card already face up."""
    state = "the empty cell" if card == EMPTY else "face up already"
    example = _example_face_down(board)
    name = board.geo.names[cell]
    return IllegalActionError(
        f"{name} is {state}: draw a face-down card ({example}).",
        key="engine.high_voltage.draw_face_down." + ("empty" if card == EMPTY else "face_up"),
        cell=name,
        example=example,
    )


def _example_face_down(board: Board) -> Phrase:
    for cell, card in enumerate(board.grid):
        if card != EMPTY and not board.card_up[card]:
            name = board.geo.names[cell]
            return Phrase(f"for example draw {name}", "engine.high_voltage.example.draw", cell=name)
    return Phrase("but none is left", "engine.high_voltage.example.none_left")


def danger_only() -> IllegalActionError:
    """special=danger on a draw or a rotation, which never need it."""
    return IllegalActionError(
        "special=danger is only for moving or swapping a DANGER card.",
        key="engine.high_voltage.danger_only",
    )


def danger_not_rotated(board: Board, cell: int, card: int) -> IllegalActionError:
    note = danger_note(board, cell, card)
    return IllegalActionError(
        f"{note}, so it cannot be rotated (not even with the "
        f"special action token, which only moves or swaps it).",
        key="engine.high_voltage.danger_no_rotation",
        note=note,
    )


def same_picture(
    board: Board, cell: int, card: int, target: int, legal: tuple[int, ...]
) -> IllegalActionError:
    """A rotation to `target` quarter turns that leaves the paths as they are."""
    # Typed as r90 where actions are typed; said as 90°, as the commands offer them.
    typed = ", ".join(f"r{degrees(r)}" for r in legal) or "none"
    options: str = ", ".join(f"{degrees(r)}°" for r in legal) or Phrase(
        "none", "engine.high_voltage.no_rotations"
    )
    name, turned = board.geo.names[cell], degrees(target)
    if target == board.rot[card]:
        why = Phrase(
            f"{name} is already at r{turned}",
            "engine.high_voltage.same_rotation.already",
            cell=name,
            degrees=turned,
        )
    else:
        why = Phrase(
            f"turning {name} to r{turned} gives the same picture",
            "engine.high_voltage.same_rotation.same_picture",
            cell=name,
            degrees=turned,
        )
    return IllegalActionError(
        f"{why}; a rotation must change the paths. Legal: {typed}.",
        key="engine.high_voltage.same_rotation.message",
        why=why,
        options=options,
    )


def swap_same() -> IllegalActionError:
    return IllegalActionError(
        "A swap needs two different cards.", key="engine.high_voltage.swap_same"
    )


def place_first(drawn_from: str) -> IllegalActionError:
    """Any action but a placement while a drawn card waits."""
    return IllegalActionError(
        f"First place the card you drew from {drawn_from}: "
        f"place here r0 (or r90, r180, r270), or place empty r0.",
        key="engine.high_voltage.place_first",
        cell=drawn_from,
    )


def declare_first(closable: list[Line]) -> IllegalActionError:
    """Any action but a declaration while closable lines wait."""
    names = ", ".join(line.name for line in closable)
    return IllegalActionError(
        f"First choose which lines to declare: declare {closable[0].name} "
        f"(closable: {names}), or declare none.",
        key="engine.high_voltage.declare_first",
        line=closable[0].name,
        lines=names,
    )


def not_closable(line_name: str, closable: list[Line]) -> IllegalActionError:
    names = ", ".join(ln.name for ln in closable)
    return IllegalActionError(
        f"{line_name} is not a line you can declare now; you can declare {names}, or declare none.",
        key="engine.high_voltage.not_closable",
        line=line_name,
        lines=names,
    )


def no_drawn_card() -> IllegalActionError:
    return IllegalActionError(
        "There is no drawn card to place: draw one first (draw C3).",
        key="engine.high_voltage.no_drawn_card",
    )


def nothing_to_declare() -> IllegalActionError:
    return IllegalActionError(
        "No line is waiting to be declared: lines are declared right after the action "
        "that closed them.",
        key="engine.high_voltage.nothing_to_declare",
    )


def not_an_action(action: Any) -> IllegalActionError:
    return IllegalActionError(
        f"{action!r} is not a High Voltage action.",
        key="engine.high_voltage.not_an_action",
        action=action,
    )
