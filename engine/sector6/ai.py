"""Computer players for Sector 6, deciding from a view alone; registered with `engine.ai`.

    from engine.ai import choose
    choose(state.view(seat), level="normal", seed=7)  # -> "move C4 C7"

Levels:
- `random`: a random legal action (a random kind first while building, as `sample_action`).
- `normal`: greedy over whole turns. Every complete turn (a move and what follows it, or the
  two rotations of a blocked player) is tried on a copy and the position scored: oxygen
  collected, plus most of the value of markers under the seat's own prisoners (no one else
  can take those, and leaving the tile collects them), plus half the best marker each prisoner
  could reach next, plus a little mobility; minus the same for the strongest opponent. While
  building, tiles go where they open the most oxygen to the seat's own entry points and the
  least to the others', and an entry point is placed once a spot is worth it.
- `hard`: looks ahead. The best turns by the `normal` measure are each played out for a
  round or more of replies, every seat answering with its own greedy turn, and the turn whose
  outcome scores best is played; deeper rounds follow while the budget lasts. It stops at
  `budget_s` seconds (default 1.5) or after `iterations` position scorings, whichever the
  caller gives (`iterations` alone makes it deterministic, for tests); a search cut short
  keeps the result of the last complete depth. It builds like `normal`.

A view hides each supply's order (and other seats' drawn tile); the players rebuild a full
position with `Sector6State.from_view`, which draws the unseen layouts at random from those
still in the box. Once the maze is complete nothing is hidden any more.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from engine.ai import register_agent
from engine.sector6.actions import PASS, Place, PlaceEntry, Sector6Action
from engine.sector6.board import opposite, turn_mask
from engine.sector6.state import (
    ACT_STEP,
    BLOCKED_STEP,
    BUILD,
    DRAW_STEP,
    MOVE_STEP,
    OVER,
    PLACE_STEP,
    Sector6State,
)

GAME_NAME = "sector6"
DEFAULT_BUDGET_S = 1.5
HELD = 0.9  # a marker under an own prisoner: nearly collected
REACH = 0.5  # the best marker a prisoner could move onto next turn; squared two moves away
DEPTH = 4  # moves looked ahead for the nearest markers
DRIFT = 0.1  # the pull of a marker out of reach, divided by one plus its distance
MOBILITY = 0.03  # per cell a prisoner could move to
WIN = 1000.0  # a won game outscores any position
ENTRY_GOOD = 6.0  # an entry spot worth placing an entry point on now
HARD_CANDIDATES = 8

Turn = tuple[Sector6Action, ...]


class OutOfBudget(Exception):
    """The search has used its time or its scorings; the caller keeps what it has."""


class Budget:
    """Counts position scorings against an optional cap and an optional deadline."""

    def __init__(self, deadline: float | None, iterations: int | None) -> None:
        self.deadline = deadline
        self.left = iterations
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise OutOfBudget
        if (
            self.deadline is not None
            and self.used % 16 == 0
            and time.perf_counter() > self.deadline
        ):
            raise OutOfBudget


# ---------------------------------------------------------------------- competition


def _prospect(state: Sector6State, cell: int) -> float:
    """The best free marker a prisoner on `cell` could stand on within `DEPTH` moves, each
    move further away halving its worth (other prisoners stay where they are), plus a little
    for every cell it could move to now."""
    marker, prisoner = state.marker, state.prisoner
    reach = state.reach
    first = reach(cell)
    best = 0.0
    seen = {cell, *first}
    frontier = first
    worth = REACH
    for depth in range(DEPTH):
        for n in frontier:
            value = marker[n]
            if value and worth * value > best:
                best = worth * value
        if depth == DEPTH - 1:
            break
        worth *= REACH
        nxt = []
        for n in frontier:
            for m in reach(n):
                if m not in seen and not prisoner[m]:
                    seen.add(m)
                    nxt.append(m)
        frontier = nxt
        if not frontier:
            break
    if not best:
        # Nothing within reach: drift towards the nearest free marker as the crow flies, so
        # prisoners (and the rotations that open ways) head for the last markers.
        distance = state.table.distance
        near = [
            marker[m] / (1 + distance(cell, m))
            for m in state.maze_cells
            if marker[m] and not prisoner[m]
        ]
        if near:
            best = DRIFT * max(near)
    return best + MOBILITY * len(first)


def _strength(state: Sector6State, seat: int) -> float:
    """Collected oxygen plus what the seat's prisoners hold and could reach soon."""
    marker = state.marker
    total = 0.0
    for cell in state.prisoners[seat]:
        total += HELD * marker[cell] + _prospect(state, cell)
    return state.scores()[seat] + total


def evaluate(state: Sector6State, seat: int) -> float:
    """How good the position is for `seat`: its strength minus the strongest opponent's."""
    if state.phase == OVER:
        outcome = state.outcome()
        assert outcome is not None
        scores = outcome.scores
        best_other = max(v for s, v in enumerate(scores) if s != seat)
        won = seat in outcome.winners
        return scores[seat] - best_other + (WIN / len(outcome.winners) if won else -WIN)
    mine = _strength(state, seat)
    others = max(_strength(state, s) for s in range(state.seats) if s != seat)
    return mine - others


def turns(state: Sector6State) -> list[Turn]:
    """Every complete turn the seat to move can play from here, as action sequences."""
    step = state.step
    if step == MOVE_STEP:
        out: list[Turn] = []
        for move in state.legal_actions():
            after = state.clone()
            after.apply(move)
            if after.phase == OVER or after.seat != state.seat or after.step != ACT_STEP:
                out.append((move,))
            else:
                out += [(move, follow) for follow in after.legal_actions()]
        return out
    if step == ACT_STEP:
        return [(a,) for a in state.legal_actions()]
    if step == BLOCKED_STEP:
        firsts = state.legal_actions()
        if firsts == [PASS]:
            return [(PASS,)]
        if state.rotations_left == 1:
            return [(a,) for a in firsts]
        return [(a, b) for a in firsts for b in firsts]
    return []


def _play(state: Sector6State, turn: Turn) -> Sector6State:
    after = state.clone()
    for action in turn:
        after.apply(action)
    return after


def _ranked(
    state: Sector6State, seat: int, budget: Budget | None, rng: random.Random
) -> list[tuple[float, float, Turn, Sector6State]]:
    """Every turn with its one-turn score for `seat`, best first (random tie-breaks)."""
    scored = []
    for turn in turns(state):
        after = _play(state, turn)
        if budget is not None:
            budget.spend()
        scored.append((evaluate(after, seat), rng.random(), turn, after))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


def greedy_turn(state: Sector6State, rng: random.Random, budget: Budget | None = None) -> Turn:
    """The turn that scores best for the seat to move, one turn deep."""
    return _ranked(state, state.seat, budget, rng)[0][2]


def _rollout(
    state: Sector6State, me: int, replies: int, budget: Budget, rng: random.Random
) -> float:
    """Let the next `replies` turns be played greedily, then score the position for `me`."""
    for _ in range(replies):
        if state.phase == OVER:
            break
        state = _play(state, greedy_turn(state, rng, budget))
    budget.spend()
    return evaluate(state, me)


def search_turn(state: Sector6State, rng: random.Random, budget: Budget) -> tuple[Turn, int]:
    """The hard player's turn and the depth (in rounds) it was chosen at."""
    me = state.seat
    ranked = _ranked(state, me, None, rng)
    best = ranked[0][2]
    if len(ranked) == 1:
        return best, 0
    candidates = ranked[:HARD_CANDIDATES]
    depth = 0
    try:
        for rounds in range(1, 6):
            replies = rounds * state.seats - 1
            values = []
            for value, tie, turn, after in candidates:
                if after.phase == OVER:
                    values.append((value, tie, turn))
                    continue
                values.append((_rollout(after, me, replies, budget, rng), tie, turn))
            values.sort(key=lambda item: (-item[0], item[1]))
            best, depth = values[0][2], rounds
    except OutOfBudget:
        pass
    return best, depth


# ---------------------------------------------------------------------- construction


def _sight(state: Sector6State, cell: int, mask: int | None = None) -> float:
    """What a prisoner starting on `cell` could see: the tile values along its straight
    corridors (ignoring prisoners), the best counting fully. `mask` overrides the walls of
    `cell` (an entry point being considered has none)."""
    walls, piece_at, rules = state.walls, state.piece_at, state.rules
    here = walls[cell] if mask is None else mask
    neighbour = state.table.neighbour
    values = []
    for side in range(6):
        if here >> side & 1:
            continue
        back = opposite(side)
        n = neighbour[cell][side]
        while n >= 0 and piece_at[n] >= 0 and not walls[n] >> back & 1:
            values.append(rules.tiles[piece_at[n]].value)
            if walls[n] >> side & 1:
                break
            n = neighbour[n][side]
    if not values:
        return 0.0
    values.sort(reverse=True)
    return values[0] + 0.4 * sum(values[1:3]) + 0.1 * len(values)


def _entries_of(state: Sector6State, seat: int) -> list[int]:
    rules = state.rules
    return [
        state.where[p]
        for p in state.order
        if rules.tiles[p].layout == "entry" and rules.tiles[p].owner == seat
    ]


def _build_score(state: Sector6State, seat: int) -> float:
    """Own entry points' sight minus the best opponent's."""
    sights = [sum(_sight(state, c) for c in _entries_of(state, s)) for s in range(state.seats)]
    return sights[seat] - max(v for s, v in enumerate(sights) if s != seat)


def _best_entry(state: Sector6State, rng: random.Random) -> tuple[float, str]:
    piece = state.rules.entry(state.seat, state.entries_placed[state.seat])
    best = (-1.0, 0.0, "")
    for cell, _ in state.placements(piece):
        value = _sight(state, cell, 0)
        key = (value, rng.random(), cell)
        if key[:2] > best[:2]:
            best = (value, key[1], state.name(cell))
    return best[0], best[2]


def _build_action(state: Sector6State, rng: random.Random) -> Sector6Action:
    seat = state.seat
    if state.step == DRAW_STEP:
        if state.entries_left(seat) == 0:
            return state.legal_actions()[0]  # draw
        value, cell = _best_entry(state, rng)
        if state.supply_left(seat) == 0 or value >= ENTRY_GOOD:
            return PlaceEntry(cell)
        return state.legal_actions()[0]
    assert state.step == PLACE_STEP
    options = state.placements(state.drawn)
    if not state.order:
        return Place(state.name(state.table.centre), int(rng.random() * 6))
    base = state.rules.tiles[state.drawn].walls
    best: tuple[float, float, int, int] | None = None
    seen: set[tuple[int, int]] = set()
    for cell, rotation in options:
        mask = turn_mask(base, rotation)
        if (cell, mask) in seen:
            continue
        seen.add((cell, mask))
        trial = state.clone()
        trial._put(state.drawn, cell, rotation)  # scoring only: the copy is thrown away
        value = _build_score(trial, seat) + 0.05 * trial._touching(cell)
        key = (value, rng.random(), cell, rotation)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return Place(state.name(best[2]), best[3])


# ---------------------------------------------------------------------- entry points


def _position(view: Mapping[str, Any], rng: random.Random) -> tuple[Sector6State, random.Random]:
    """A full position consistent with the view, and a generator for this move's choices.

    The registry hands every move of a game the same seeded generator, so the number of
    actions so far is mixed in: equal choices then vary from move to move, reproducibly."""
    local = random.Random(f"{rng.random()}:{len(view.get('history') or ())}")
    state = Sector6State.from_view(view, local)
    if state.phase == OVER:
        raise ValueError("The game is over: there is no move to choose.")
    return state, local


def decide_random(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """A random legal action."""
    state, local = _position(view, rng)
    return state.sample_action(local).text()


def _decide(
    view: Mapping[str, Any],
    rng: random.Random,
    budget_s: float | None,
    iterations: int | None,
    hard: bool,
) -> str:
    started = time.perf_counter()
    state, local = _position(view, rng)
    if state.phase == BUILD:
        return _build_action(state, local).text()
    if hard:
        budget = budget_s
        if budget is None and iterations is None:
            budget = DEFAULT_BUDGET_S
        deadline = None if budget is None else started + budget * 0.9
        turn, _ = search_turn(state, local, Budget(deadline, iterations))
    else:
        turn = greedy_turn(state, local)
    return turn[0].text()


def decide_normal(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The best whole turn one turn deep (see the module docstring)."""
    return _decide(view, rng, budget_s, iterations, hard=False)


def decide_hard(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The best of the greedy player's candidate turns after a round or more of replies."""
    return _decide(view, rng, budget_s, iterations, hard=True)


register_agent(GAME_NAME, "random", decide_random, "random legal actions")
register_agent(
    GAME_NAME, "normal", decide_normal, "greedy: grabs the oxygen in reach, keeps yours in sight"
)
register_agent(GAME_NAME, "hard", decide_hard, "plays each good turn out against your replies")

__all__ = [
    "Budget",
    "OutOfBudget",
    "decide_hard",
    "decide_normal",
    "decide_random",
    "evaluate",
    "greedy_turn",
    "search_turn",
    "turns",
]
