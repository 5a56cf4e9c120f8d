"""The competition phase of Sector 6: the actions of a turn, what each does, and the end.

A turn is a move of one own prisoner, then collect, rotate or done on the tile it left; a
seat whose prisoners cannot move rotates the tiles under them instead (or passes, in novice
mode). After every change the end rules are asked whether the game is over
(`ending`), and at the end each player takes the markers under their own
prisoners. Each action function checks before it changes anything, so a refused action
leaves the position exactly as it was.
"""

from __future__ import annotations

from engine.core import OVER
from engine.errors import IllegalActionError, Phrase
from games.sector6.rules.actions import COLLECT, DONE, PASS, Move, Rotate, Sector6Action
from games.sector6.rules.board import opposite, turn_mask
from games.sector6.rules.ending import (
    END_CLOCK,
    END_HELD,
    END_LIMIT,
    END_STUCK,
    clock_ran_out,
    rule_end,
)
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.refusals import (
    act_hint,
    blocked_hint,
    build_hint,
    cell_of,
    joined,
    moves_text,
    not_after_move,
    refuse,
    why_not_move,
)
from games.sector6.rules.steps import (
    ACT_STEP,
    BLOCKED_ROTATIONS,
    BLOCKED_STEP,
    BUILD,
    EMPTY,
    MOVE_STEP,
    PLAY,
)

V1_MAX_ROUNDS = 100  # the backstop version 1 saves were played under (their replay keeps it)


def play_actions(state: Sector6Position) -> list[Sector6Action]:
    """Every action the seat to move may take in the competition phase."""
    seat = state.seat
    if state.step == MOVE_STEP:
        return [
            Move(state.name(a), state.name(b))
            for a in sorted(state.prisoners[seat])
            for b in state.reach(a)
        ]
    if state.step == ACT_STEP:
        acts: list[Sector6Action] = []
        if state.marker[state.pending]:
            acts.append(COLLECT)
        if state.rotations:
            name = state.name(state.pending)
            acts += [Rotate(name, False), Rotate(name, True)]
        acts.append(DONE)
        return acts
    if not state.rotations:
        return [PASS]
    return [
        Rotate(state.name(c), way) for c in sorted(state.prisoners[seat]) for way in (False, True)
    ]


# ---------------------------------------------------------------------- turns and the end


def begin_competition(state: Sector6Position) -> None:
    """Markers on every maze tile, prisoners on the entry points; the first player again."""
    tiles = state.rules.tiles
    for piece in state.order:
        cell = state.where[piece]
        tile = tiles[piece]
        if tile.value:
            state.marker[cell] = tile.value
            state.maze_cells.append(cell)
        else:
            state.prisoner[cell] = tile.owner + 1
            state.prisoners[tile.owner].append(cell)
    state.phase = PLAY
    start_turn(state, state.first_seat)


def start_turn(state: Sector6Position, seat: int) -> None:
    """`seat` moves a prisoner, or, if none can move, rotates (or passes; in novice mode the
    game ends if no one at all can move)."""
    state.seat = seat
    state.pending = EMPTY
    state.rotations_left = 0
    state._fresh = True
    if state.can_move(seat):
        state.step = MOVE_STEP
        return
    state.step = BLOCKED_STEP
    if state.rotations:
        state.rotations_left = BLOCKED_ROTATIONS
    elif not any(state.can_move(s) for s in range(state.seats)):
        finish(state, END_STUCK)


def new_ending(state: Sector6Position) -> bool:
    """Whether the end rules of `ending` apply to the action just logged
    (always, but in the replay of a game saved before they existed)."""
    return len(state._history) > state.ending_from


def ended_by_rule(state: Sector6Position) -> bool:
    """End the game if every marker left is held (or, under the end rules, held or out of
    reach): after a move or a collection, and after a rotation, which may seal tiles."""
    if new_ending(state):
        reason = rule_end(state)
    else:
        reason = END_HELD if state.free_markers() == 0 else None
    if reason is None:
        return False
    finish(state, reason)
    return True


def end_turn(state: Sector6Position) -> None:
    """The turn is over: the clock or the backstop may end the game, else the next seat."""
    state.turns_played += 1
    state.play_turns += 1
    if new_ending(state) and clock_ran_out(state):
        finish(state, END_CLOCK)
        return
    limit = state.max_turns if new_ending(state) else V1_MAX_ROUNDS * state.seats
    if state.play_turns >= limit:
        finish(state, END_LIMIT)
        return
    start_turn(state, (state.seat + 1) % state.seats)


def finish(state: Sector6Position, reason: str) -> None:
    """Each player takes the markers under their own prisoners; the game is over."""
    for seat in range(state.seats):
        for cell in state.prisoners[seat]:
            value = state.marker[cell]
            if value:
                state.collected[seat][value] += 1
                state.taken[seat].append(value)
                state.marker[cell] = 0
    state.phase = OVER
    state.step = ""
    state.pending = EMPTY
    state.rotations_left = 0
    state.end_reason = reason


def turn_tile(state: Sector6Position, cell: int, clockwise: bool) -> list[int]:
    """Turn the tile on `cell` one side; in full mode the tiles whose gears meet it (a
    closed side against a closed side, judged before anything turns) turn the other way.
    Returns the cells turned by gears."""
    steps = 1 if clockwise else 5
    meshed = []
    if state.gears:
        walls, piece_at = state.walls, state.piece_at
        mask = walls[cell]
        for side, n in enumerate(state.table.neighbour[cell]):
            if mask >> side & 1 and n >= 0 and piece_at[n] >= 0 and walls[n] >> opposite(side) & 1:
                meshed.append(n)
    spin(state, cell, steps)
    for n in meshed:
        spin(state, n, 6 - steps)
    return meshed


def spin(state: Sector6Position, cell: int, steps: int) -> None:
    """Turn the piece on `cell` `steps` sides clockwise."""
    piece = state.piece_at[cell]
    state.rot[piece] = (state.rot[piece] + steps) % 6
    state.walls[cell] = turn_mask(state.walls[cell], steps)


# ---------------------------------------------------------------------- the actions


def move(state: Sector6Position, action: Move) -> None:
    """A prisoner of the seat goes in a straight line; then the seat acts on the tile left."""
    if state.step == ACT_STEP:
        lead = Phrase("You have moved this turn already", "engine.sector6.lead.moved")
        raise refuse(act_hint(state, lead))
    if state.step == BLOCKED_STEP:
        raise refuse(blocked_hint(state))
    if state.step != MOVE_STEP:
        raise refuse(build_hint(state))
    a, b = cell_of(state.table, action.origin), cell_of(state.table, action.target)
    if state.prisoner[a] != state.seat + 1:
        mine = joined(state.table, state.prisoners[state.seat], "and")
        who = "no prisoner" if not state.prisoner[a] else "someone else's prisoner"
        raise IllegalActionError(
            f"{state.name(a)} holds {who}: your prisoners are on {mine}.",
            key="engine.sector6.not_your_prisoner."
            + ("empty" if not state.prisoner[a] else "other"),
            cell=state.name(a),
            cells=mine,
        )
    if b not in state.reach(a):
        why, moves = why_not_move(state, a, b), moves_text(state)
        raise IllegalActionError(
            f"{why} Moves you can make: {moves}.",
            key="engine.sector6.cannot_move",
            why=why,
            moves=moves,
        )
    seat = state.seat
    state.prisoner[a] = 0
    state.prisoner[b] = seat + 1
    state.prisoners[seat][state.prisoners[seat].index(a)] = b
    state.pending = a
    state._record(
        Move(state.name(a), state.name(b)).text(), **{"from": state.name(a), "to": state.name(b)}
    )
    if ended_by_rule(state):
        return
    state.step = ACT_STEP
    if not state.rotations and not state.marker[a]:
        end_turn(state)


def collect(state: Sector6Position) -> None:
    """The seat takes the marker of the tile its prisoner just left."""
    if state.step != ACT_STEP:
        raise refuse(not_after_move(state, "collect", "collect"))
    value = state.marker[state.pending]
    if not value:
        name = state.name(state.pending)
        lead = Phrase(
            f"{name} has no oxygen marker left", "engine.sector6.lead.no_marker", cell=name
        )
        raise refuse(act_hint(state, lead))
    state.collected[state.seat][value] += 1
    state.marker[state.pending] = 0
    state.quiet_since = state.play_turns + 1  # the clock starts again after this turn
    state._record(COLLECT.text(), collected=state.name(state.pending))
    if ended_by_rule(state):
        return
    end_turn(state)


def rotate(state: Sector6Position, action: Rotate) -> None:
    """The tile just left turns (after a move), or a tile under a blocked seat's prisoner."""
    if state.step == ACT_STEP:
        if not state.rotations:
            lead = Phrase("Novice mode has no rotations", "engine.sector6.lead.novice")
            raise refuse(act_hint(state, lead))
        cell = state.pending if action.cell is None else cell_of(state.table, action.cell)
        if cell != state.pending:
            name = state.name(state.pending)
            lead = Phrase(
                f"Only the tile your prisoner just left ({name}) may be turned",
                "engine.sector6.lead.only_left_tile",
                cell=name,
            )
            raise refuse(act_hint(state, lead))
    elif state.step == BLOCKED_STEP and state.rotations:
        mine = state.prisoners[state.seat]
        if action.cell is None:
            raise refuse(blocked_hint(state))
        cell = cell_of(state.table, action.cell)
        if cell not in mine:
            hint = blocked_hint(state)
            raise IllegalActionError(
                f"{state.name(cell)} holds none of your prisoners. {hint}",
                key="engine.sector6.not_under_prisoner",
                cell=state.name(cell),
                hint=hint,
            )
    else:
        raise refuse(not_after_move(state, "rotate the tile you left", "rotate"))
    geared = turn_tile(state, cell, action.clockwise)
    text = Rotate(state.name(cell), action.clockwise).text()
    state._record(text, rotated=[state.name(cell)], geared=[state.name(c) for c in geared])
    state.last_turns.append((cell, action.clockwise, tuple(geared)))
    if new_ending(state) and ended_by_rule(state):  # a rotation may seal the last ones
        return
    if state.step == ACT_STEP:
        end_turn(state)
    else:
        state.rotations_left -= 1
        if state.rotations_left == 0:
            end_turn(state)


def done(state: Sector6Position) -> None:
    """The seat ends its turn without acting on the tile it left."""
    if state.step != ACT_STEP:
        raise refuse(not_after_move(state, "end your turn with done", "done"))
    state._record(DONE.text())
    end_turn(state)


def pass_turn(state: Sector6Position) -> None:
    """A blocked seat in novice mode, which cannot rotate, lets the turn go by."""
    if state.step != BLOCKED_STEP or state.rotations:
        if state.step == BLOCKED_STEP:
            raise refuse(blocked_hint(state))
        lead = "You may pass only when neither of your prisoners can move (novice mode). "
        if state.phase == BUILD:
            hint = build_hint(state)
            raise IllegalActionError(
                lead + hint, key="engine.sector6.pass_only_blocked.building", hint=hint
            )
        moves = moves_text(state)
        raise IllegalActionError(
            lead + f"Moves: {moves}.", key="engine.sector6.pass_only_blocked.moves", moves=moves
        )
    state._record(PASS.text())
    end_turn(state)


__all__ = [
    "V1_MAX_ROUNDS",
    "begin_competition",
    "collect",
    "done",
    "end_turn",
    "finish",
    "move",
    "pass_turn",
    "play_actions",
    "rotate",
    "spin",
    "start_turn",
    "turn_tile",
]
