"""What the seat to move may do now: every legal action, one at random, and the cells the
bot offers while a player types a command.

Kept apart because these are the engine's hot loops: an AI search lists the legal actions of
every position it tries and random playouts sample thousands of actions. They read the board
in place and take the seat's token counts, so they never copy or change a position.
"""

from __future__ import annotations

import functools
import random

from games.high_voltage.rules.actions import (
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
from games.high_voltage.rules.lines import DANGER, Board, Line
from games.high_voltage.rules.position import EMPTY, degrees

LegalTurns = list[tuple[tuple[int, ...], ...]]  # CardSet.legal_turns: [card][rot] -> rotations

TARGET_OPTIONS = ("draw.cell", "rotate.cell", "move.cell", "swap.a", "swap.b")


def up_cells(board: Board) -> tuple[list[int], list[int]]:
    """Cells of face-up cards: (ordinary, DANGER card or token)."""
    energy, danger_card, card_up = board.energy, board.danger_card, board.card_up
    normal: list[int] = []
    danger: list[int] = []
    for cell, card in enumerate(board.grid):
        if card != EMPTY and card_up[card]:
            is_danger = energy[card] == DANGER or danger_card[card]
            (danger if is_danger else normal).append(cell)
    return normal, danger


def placing_actions() -> list[HvAction]:
    """A drawn card goes back where it was or into the empty cell, in any orientation."""
    return [Place(p, r) for p in ("here", "empty") for r in ROTATIONS]


def declaring_actions(closable: list[Line]) -> list[HvAction]:
    declares: list[HvAction] = [Declare(ln.first, ln.second) for ln in closable]
    return [*declares, DeclareNone()]


def action_phase_actions(
    board: Board, legal_turns: LegalTurns, action_left: int, special_left: int, actions_taken: int
) -> list[HvAction]:
    """Every draw, rotation, move and swap, each also with a double turn while it may be
    announced, then the moves and swaps of DANGER cards that only a special token pays for.

    The same actions come back in position after position (a search lists them thousands of
    times a decision), so each is made once and handed out again (`_draw`, `_rotations`,
    `_moves`, `_swaps`): actions are immutable values, and a list of them is built from ready
    tuples at a fraction of making thousands of frozen dataclasses every call."""
    names = board.geo.names
    grid, card_up, rot = board.grid, board.card_up, board.rot
    specials: list[str | None] = [None]
    if special_left > 0 and actions_taken == 0:
        specials.append("double")
    normal, danger = up_cells(board)
    face_down = [names[c] for c, k in enumerate(grid) if k != EMPTY and not card_up[k]]
    out: list[HvAction] = []
    for sp in specials:
        out += [_draw(cell, sp) for cell in face_down]
        for cell in normal:
            card = grid[cell]
            out += _rotations(names[cell], legal_turns[card][rot[card]], sp)
        if action_left > 0:
            for c in normal:
                out += _moves(names[c], sp)
            for i, a in enumerate(normal):
                for b in normal[i + 1 :]:
                    out += _swaps(names[a], names[b], sp)
    if special_left > 0 and danger:
        for c in danger:
            out += _moves(names[c], "danger")
        everyone = sorted(normal + danger)
        for i, a in enumerate(everyone):
            for b in everyone[i + 1 :]:
                if a in danger or b in danger:
                    out += _swaps(names[a], names[b], "danger")
    return out


# Each keyed by cell names, turns and specials: as many as a board has cells (pairs of cells
# for swaps), never more however many positions are listed. Once every board size's actions
# have been listed they hold about 7 MB (mostly the swaps: some 3,500 pairs and specials, 16
# orientations each), the same for one game as for thousands.
@functools.cache
def _draw(cell: str, special: str | None) -> Draw:
    return Draw(cell, special=special)


@functools.cache
def _rotations(cell: str, turns: tuple[int, ...], special: str | None) -> tuple[Rotate, ...]:
    return tuple(Rotate(cell, degrees(r), special) for r in turns)


@functools.cache
def _moves(cell: str, special: str | None) -> tuple[Move, ...]:
    return tuple(Move(cell, r, special) for r in ROTATIONS)


@functools.cache
def _swaps(a: str, b: str, special: str | None) -> tuple[Swap, ...]:
    return tuple(Swap(a, b, ra, rb, special) for ra in ROTATIONS for rb in ROTATIONS)


def sample_action_phase(
    board: Board,
    legal_turns: LegalTurns,
    action_left: int,
    special_left: int,
    actions_taken: int,
    face_down: int,
    rng: random.Random,
) -> HvAction:
    """A random legal action of the action phase: first a kind of action, then one of that kind.

    Enumerating every swap (hundreds of pairs times 16 orientations) each turn would make
    random playouts slow; sampling the kind first keeps them cheap and still reaches every
    legal action.
    """
    names = board.geo.names
    grid, rot = board.grid, board.rot
    normal, danger = up_cells(board)
    rotatable = [c for c in normal if legal_turns[grid[c]][rot[grid[c]]]]
    has_tokens = action_left > 0
    has_special = special_left > 0
    kinds = []
    if face_down:
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
    double = "double" if has_special and actions_taken == 0 and rng.random() < 0.05 else None
    if kind == "draw":
        cells = [c for c, k in enumerate(grid) if k != EMPTY and not board.card_up[k]]
        return Draw(names[rng.choice(cells)], special=double)
    if kind == "rotate":
        cell = rng.choice(rotatable)
        card = grid[cell]
        return Rotate(names[cell], degrees(rng.choice(legal_turns[card][rot[card]])), double)
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


def _swap_in_order(
    names: tuple[str, ...], a: int, b: int, rot_a: int, rot_b: int, special: str | None
) -> Swap:
    """The same swap written as `action_phase_actions` lists it: the earlier cell first."""
    if a > b:
        a, b, rot_a, rot_b = b, a, rot_b, rot_a
    return Swap(names[a], names[b], rot_a, rot_b, special)


def cell_targets(
    board: Board, legal_turns: LegalTurns, option: str, action_left: int, special_left: int
) -> list[str] | None:
    """The cells a cell option of the action phase takes over the legal actions, without
    listing every swap of the turn (thousands of them, four orientations each) for each letter
    typed; None for an option that is not one of `TARGET_OPTIONS`."""
    names, grid = board.geo.names, board.grid
    normal, danger = up_cells(board)
    tokens = action_left > 0
    special = special_left > 0
    if option == "draw.cell":
        return [names[c] for c, k in enumerate(grid) if k != EMPTY and not board.card_up[k]]
    if option == "rotate.cell":
        return [names[c] for c in normal if legal_turns[grid[c]][board.rot[grid[c]]]]
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
    return None
