"""A lean copy of a Sector 6 competition position, for the computer players to think with.

The rules engine checks every action, writes its text to the history and keeps a record of
the turn for the picture: right for a game, but most of the cost of a search that tries
thousands of turns. `Position` holds only the arrays the competition changes (walls,
markers, prisoners, collected oxygen, the turn and clock counters) and plays whole turns on
them, trusting its own move generator. It follows the rules of `games.sector6.rules.state`:
a straight move through open sides, then collect, rotate (with gears in full mode) or
nothing on the tile left; two rotations under the prisoners of a blocked player (a pass in
novice mode); the end when no free marker is left or the free ones are all out of reach
(`games.sector6.rules.ending.rule_end`), when the oxygen clock runs out, or at the turn backstop.

A turn is a tuple of three ints (see `Turn`); `turn_actions` turns one back into the
engine's actions, so whatever the search picks is played through the real rules.

`evaluate` scores a position for one seat; it is what both thinking levels maximise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.sector6.rules.actions import COLLECT, DONE, PASS, Move, Rotate, Sector6Action
from games.sector6.rules.board import opposite, straight_moves, turn_mask
from games.sector6.rules.ending import rule_end
from games.sector6.rules.state import ACT_STEP, BLOCKED_STEP, MOVE_STEP, OVER

if TYPE_CHECKING:
    from games.sector6.rules.state import Sector6State

# A turn: (origin, target, act) moves the prisoner on `origin` to `target`, then does `act`
# on `origin`; (ACT_ONLY, pending, act) is the act alone, after a move already made;
# (BLOCKED, r1, r2) are a blocked player's rotations, r = cell * 2 + (1 if clockwise),
# r2 = NONE when only one is left; (PASSING, 0, 0) is a novice's pass.
Turn = tuple[int, int, int]
ACT_ONLY, BLOCKED, PASSING, NONE = -1, -2, -3, -1
DONE_ACT, COLLECT_ACT, LEFT_ACT, RIGHT_ACT = 0, 1, 2, 3

HELD = 0.9  # a marker under an own prisoner: nearly collected (leaving it collects it)
REACH = 0.5  # a marker one move away; each further move halves it again
DEPTH = 3  # moves looked ahead for the markers a prisoner could reach
DRIFT = 0.1  # the pull of a marker out of reach, divided by one plus its distance
MOBILITY = 0.03  # per cell a prisoner could move to
TEMPO = 0.35  # the seat to move turns its best next step into oxygen almost surely
WIN = 1000.0  # a finished game outscores any position
CLOCK_NEAR = 3  # rounds before the clock's end from which the end result starts to count


class Position:
    """The competition phase of a game, copied from a state; `play` one turn at a time."""

    __slots__ = (
        "clock_turns",
        "collected",
        "distance",
        "gears",
        "marker",
        "max_turns",
        "maze_cells",
        "neighbour",
        "over",
        "piece_at",
        "play_turns",
        "prisoner",
        "prisoners",
        "quiet_since",
        "rotations",
        "rules",
        "seat",
        "seats",
        "table",
        "walls",
    )

    def __init__(self, state: Sector6State | None = None) -> None:
        if state is None:
            return
        self.table = state.table
        self.rules = state.rules
        self.neighbour = state.table.neighbour
        self.distance = state.table.distance
        self.piece_at = state.piece_at[:]  # tiles never move once play begins
        self.maze_cells = state.maze_cells[:]
        self.walls = state.walls[:]
        self.marker = state.marker[:]
        self.prisoner = state.prisoner[:]
        self.prisoners = [cells[:] for cells in state.prisoners]
        self.collected = [c[:] for c in state.collected]
        self.seats = state.seats
        self.seat = state.seat
        self.gears = state.gears
        self.rotations = state.rotations
        self.play_turns = state.play_turns
        self.quiet_since = state.quiet_since
        self.clock_turns = state.rules.clock_rounds * state.seats
        self.max_turns = state.max_turns
        self.over = state.phase == OVER

    def copy(self) -> Position:
        other = Position()
        other.table = self.table
        other.rules = self.rules
        other.neighbour = self.neighbour
        other.distance = self.distance
        other.piece_at = self.piece_at
        other.maze_cells = self.maze_cells
        other.walls = self.walls[:]
        other.marker = self.marker[:]
        other.prisoner = self.prisoner[:]
        other.prisoners = [cells[:] for cells in self.prisoners]
        other.collected = [c[:] for c in self.collected]
        other.seats = self.seats
        other.seat = self.seat
        other.gears = self.gears
        other.rotations = self.rotations
        other.play_turns = self.play_turns
        other.quiet_since = self.quiet_since
        other.clock_turns = self.clock_turns
        other.max_turns = self.max_turns
        other.over = self.over
        return other

    # ------------------------------------------------------------------ rules

    def reach(self, cell: int) -> list[int]:
        """Cells a prisoner on `cell` may move to (as `Sector6State.reach`)."""
        return straight_moves(cell, self.walls, self.piece_at, self.prisoner, self.neighbour)

    def can_move(self, seat: int) -> bool:
        return any(self.reach(c) for c in self.prisoners[seat])

    def scores(self) -> list[int]:
        return [sum(v * n for v, n in enumerate(c)) for c in self.collected]

    def clock_left(self) -> int:
        """Turns left before the oxygen clock ends the game, if no one collects."""
        return self.clock_turns - (self.play_turns - self.quiet_since)

    def turns(self) -> list[Turn]:
        """Every complete turn of the seat to move, at the start of its turn."""
        seat = self.seat
        if not self.can_move(seat):
            if not self.rotations:
                return [(PASSING, 0, 0)]
            spins = [c * 2 + way for c in sorted(self.prisoners[seat]) for way in (0, 1)]
            return [(BLOCKED, a, b) for a in spins for b in spins]
        marker, rotations = self.marker, self.rotations
        out: list[Turn] = []
        for a in sorted(self.prisoners[seat]):
            acts = self.acts(a)
            for b in self.reach(a):
                if rotations or marker[a]:
                    out += [(a, b, act) for act in acts]
                else:
                    out.append((a, b, DONE_ACT))
        return out

    def acts(self, cell: int) -> list[int]:
        """What may follow a move off `cell`."""
        acts = [COLLECT_ACT] if self.marker[cell] else []
        if self.rotations:
            acts += [LEFT_ACT, RIGHT_ACT]
        acts.append(DONE_ACT)
        return acts

    def play(self, turn: Turn) -> None:
        """Play one complete turn of the seat to move (or, for ACT_ONLY, finish one)."""
        a, b, act = turn
        if a == PASSING:
            self._end_turn()
            return
        if a == BLOCKED:
            for spin in (b, act):
                if spin == NONE:
                    break
                self._turn_tile(spin >> 1, bool(spin & 1))
                if self._ended():
                    return
            self._end_turn()
            return
        if a != ACT_ONLY:
            seat = self.seat
            self.prisoner[a] = 0
            self.prisoner[b] = seat + 1
            cells = self.prisoners[seat]
            cells[cells.index(a)] = b
            if self._ended():
                return
            pending = a
        else:
            pending = b
        if act == COLLECT_ACT:
            value = self.marker[pending]
            self.collected[self.seat][value] += 1
            self.marker[pending] = 0
            self.quiet_since = self.play_turns + 1
            if self._ended():
                return
        elif act in (LEFT_ACT, RIGHT_ACT):
            self._turn_tile(pending, act == RIGHT_ACT)
            if self._ended():
                return
        self._end_turn()

    def _turn_tile(self, cell: int, clockwise: bool) -> None:
        steps = 1 if clockwise else 5
        walls = self.walls
        if self.gears:
            piece_at, neighbour = self.piece_at, self.neighbour[cell]
            mask = walls[cell]
            meshed = [
                n
                for side, n in enumerate(neighbour)
                if mask >> side & 1
                and n >= 0
                and piece_at[n] >= 0
                and walls[n] >> opposite(side) & 1
            ]
            for n in meshed:
                walls[n] = turn_mask(walls[n], 6 - steps)
        walls[cell] = turn_mask(walls[cell], steps)

    def _ended(self) -> bool:
        if rule_end(self) is None:
            return False
        self._finish()
        return True

    def _end_turn(self) -> None:
        self.play_turns += 1
        if self.play_turns - self.quiet_since >= self.clock_turns or (
            self.play_turns >= self.max_turns
        ):
            self._finish()
            return
        self.seat = (self.seat + 1) % self.seats
        if not self.rotations and not any(self.can_move(s) for s in range(self.seats)):
            self._finish()  # novice: no one can ever move again

    def _finish(self) -> None:
        marker = self.marker
        for seat, cells in enumerate(self.prisoners):
            for cell in cells:
                if marker[cell]:
                    self.collected[seat][marker[cell]] += 1
                    marker[cell] = 0
        self.over = True

    def winners(self) -> list[int]:
        keys = [
            (sum(v * n for v, n in enumerate(c)), *(c[v] for v in self.rules.tie_break))
            for c in self.collected
        ]
        best = max(keys)
        return [s for s, k in enumerate(keys) if k == best]


def root_turns(state: Sector6State, position: Position) -> list[Turn]:
    """The turns open to the seat to move in `state`, which may be halfway through a turn."""
    if state.step == MOVE_STEP:
        return position.turns()
    if state.step == ACT_STEP:
        return [(ACT_ONLY, state.pending, act) for act in position.acts(state.pending)]
    if state.step == BLOCKED_STEP:
        if not state.rotations:
            return [(PASSING, 0, 0)]
        spins = [c * 2 + way for c in sorted(state.prisoners[state.seat]) for way in (0, 1)]
        if state.rotations_left == 1:
            return [(BLOCKED, a, NONE) for a in spins]
        return [(BLOCKED, a, b) for a in spins for b in spins]
    return []


def turn_actions(state: Sector6State, turn: Turn) -> list[Sector6Action]:
    """The engine's actions for a turn (the first is what the player types now)."""
    a, b, act = turn
    name = state.name
    if a == PASSING:
        return [PASS]
    if a == BLOCKED:
        return [Rotate(name(s >> 1), bool(s & 1)) for s in (b, act) if s != NONE]
    out: list[Sector6Action] = []
    pending = b
    if a != ACT_ONLY:
        out.append(Move(name(a), name(b)))
        pending = a
    if act == COLLECT_ACT:
        out.append(COLLECT)
    elif act in (LEFT_ACT, RIGHT_ACT):
        out.append(Rotate(name(pending), act == RIGHT_ACT))
    elif state.rotations or state.marker[pending]:
        out.append(DONE)  # else the turn ends by itself after the move
    return out


# ---------------------------------------------------------------------- evaluation


def _prospect(
    position: Position, cell: int, reach: Callable[[int], list[int]]
) -> tuple[float, float]:
    """(the best free marker a prisoner on `cell` could stand on within `DEPTH` moves, each
    move further away halving its worth, other prisoners staying put; the best one move
    away, at full value). Out of reach of every move, a marker still pulls a little by its
    distance, so prisoners, and the rotations that open ways, head for the last markers."""
    marker, prisoner = position.marker, position.prisoner
    first = reach(cell)
    best = 0.0
    near = 0
    for n in first:
        if marker[n] > near:
            near = marker[n]
    best = REACH * near
    seen = {cell, *first}
    frontier = first
    worth = REACH
    for _ in range(DEPTH - 1):
        worth *= REACH
        nxt = []
        for n in frontier:
            for m in reach(n):
                if m not in seen:
                    seen.add(m)
                    nxt.append(m)
                    if worth * marker[m] > best:
                        best = worth * marker[m]
        frontier = nxt
        if not frontier:
            break
    if not best:
        distance = position.distance
        pulls = [
            marker[m] / (1 + distance(cell, m))
            for m in position.maze_cells
            if marker[m] and not prisoner[m]
        ]
        if pulls:
            best = DRIFT * max(pulls)
    return best + MOBILITY * len(first), float(near)


def _strengths(position: Position) -> list[float]:
    """Each seat's collected oxygen plus what its prisoners hold and could reach soon.

    Near the end of the oxygen clock, what a seat would take if the game ended now counts
    more and more, and its prospects less: nothing is collected after the clock stops."""
    marker = position.marker
    scores = position.scores()
    left = position.clock_left()
    rounds_left = left / position.seats
    late = 0.0 if rounds_left >= CLOCK_NEAR else 1.0 - rounds_left / CLOCK_NEAR
    memo: dict[int, list[int]] = {}
    plain = position.reach

    def reach(cell: int) -> list[int]:
        # The four prisoners' searches cross the same tiles: work each out once.
        found = memo.get(cell)
        if found is None:
            found = memo[cell] = plain(cell)
        return found

    out = []
    for seat, cells in enumerate(position.prisoners):
        held = 0.0
        hope = 0.0
        step = 0.0
        for cell in cells:
            held += marker[cell]
            far, near = _prospect(position, cell, reach)
            hope += far
            step = max(step, near)
        # Turns this seat still has before the clock stops: none means its hopes are void.
        mine_left = (left - ((seat - position.seat) % position.seats)) > 0
        if not mine_left:
            hope, step = 0.0, 0.0
        tempo = TEMPO * step if seat == position.seat else 0.0
        out.append(scores[seat] + (HELD + (1 - HELD) * late) * held + (1 - late) * hope + tempo)
    return out


def evaluate_position(position: Position, seat: int) -> float:
    """How good the position is for `seat`: its strength minus the strongest opponent's; a
    finished game counts its result first."""
    if position.over:
        scores = position.scores()
        winners = position.winners()
        best_other = max(v for s, v in enumerate(scores) if s != seat)
        won = seat in winners
        return scores[seat] - best_other + (WIN / len(winners) if won else -WIN)
    strengths = _strengths(position)
    mine = strengths[seat]
    return mine - max(v for s, v in enumerate(strengths) if s != seat)


__all__ = [
    "Position",
    "Turn",
    "evaluate_position",
    "root_turns",
    "turn_actions",
]
