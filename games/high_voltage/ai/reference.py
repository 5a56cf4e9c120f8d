"""A fixed High Voltage opponent for measuring the AI levels: the greedy line closer.

Tournaments of the levels against each other cannot tell whether the whole family got weaker;
a player that never changes can. This one is deliberately simple, deterministic given its
random source, and decides from its own seat's view only. It is not a level players can choose
(it is not registered with `engine.ai`); call `decide(state.view(seat), rng)`.

Its rules, in order:

- **Declaring**: declare the closable line that pays it most (its own colour's points plus the
  point tokens), while one pays it anything; then declare none.
- **Action**: a rotation that closes a line paying it something, the best one; otherwise draw
  a face-down card chosen at random.
- **Placing** the drawn card (back where it was or into the empty cell, any orientation): where
  it closes a line paying it most; otherwise where the station chains reach furthest into the
  grid (the sum of their lengths), which is how close the board is to lines.

Ties go to the first option in a fixed order (cells and orientations in board order).
It never moves or swaps cards, never spends its special token, and ignores other colours.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.high_voltage.rules.actions import Declare, DeclareNone, Draw, HvAction, Place, Rotate
from games.high_voltage.rules.determinize import sample_state
from games.high_voltage.rules.state import ACTION, DECLARING, EMPTY, PLACING, HighVoltageState

NAME = "reference"


def decide(view: Mapping[str, Any], rng: random.Random) -> str:
    """The greedy line closer's action for the seat of `view`, which must be to move."""
    if view.get("viewer") is None or view.get("current_seat") != view.get("viewer"):
        raise ValueError("The reference player decides only for its own seat, on its turn.")
    # Face-down cards are guessed at random; nothing below looks at them.
    state = sample_state(view, rng)
    colour = state.seat_colour[view["viewer"]]
    if state.phase == DECLARING:
        gains = [_gain(state, colour, ln) for ln in state.closable]
        gain = max(gains)
        best = state.closable[gains.index(gain)]
        return (Declare(best.first, best.second) if gain > 0 else DeclareNone()).text()
    if state.phase == PLACING:
        return _placement(state, colour).text()
    if state.phase != ACTION:
        raise ValueError("The game is over.")
    best_gain, best_rotation = 0, None
    names = state.geo.names
    for cell, card in enumerate(state.grid):
        if card == EMPTY or not state.card_up[card] or state._is_danger(card):
            continue
        for q in state.cards.legal_turns[card][state.rot[card]]:
            action = Rotate(names[cell], 90 * q)
            gain = _closing_gain(state, colour, action)
            if gain > best_gain:
                best_gain, best_rotation = gain, action
    if best_rotation is not None:
        return best_rotation.text()
    down = [c for c, k in enumerate(state.grid) if k != EMPTY and not state.card_up[k]]
    return Draw(names[rng.choice(down)]).text()


def _gain(state: HighVoltageState, colour: int, line: Any) -> int:
    points, tokens = state.line_points(line)
    return points[colour] + tokens


def _closing_gain(state: HighVoltageState, colour: int, action: HvAction) -> int:
    """The most a line closed by `action` pays (0 if it closes none)."""
    trial = state.copy()
    trial.apply(action)
    if trial.phase != DECLARING:
        return 0
    return max(_gain(trial, colour, ln) for ln in trial.closable)


def _placement(state: HighVoltageState, colour: int) -> Place:
    card = state.drawn
    seen: set[tuple] = set()
    best: tuple[tuple[int, int], Place] | None = None
    for place in ("here", "empty"):
        for q in range(4):
            picture = (place, state.cards.exits[card][q], state.cards.colour[card][q])
            if picture in seen:
                continue
            seen.add(picture)
            action = Place(place, 90 * q)
            trial = state.copy()
            trial.apply(action)
            if trial.phase == DECLARING:
                score = (max(_gain(trial, colour, ln) for ln in trial.closable), 0)
            else:
                score = (0, _reach(trial))
            if best is None or score > best[0]:
                best = (score, action)
    assert best is not None
    return best[1]


def _reach(state: HighVoltageState) -> int:
    """Cards joined to a station: the sum over stations of their chain's length."""
    geo, cards = state.geo, state.cards
    total = 0
    for station in geo.stations.values():
        cell, edge = station.cell, station.side
        visited: set[int] = set()
        while cell not in visited:
            card = state.grid[cell]
            if card == EMPTY or not state.card_up[card]:
                break
            out = cards.exits[card][state.rot[card]][edge]
            if out < 0:
                break
            visited.add(cell)
            nxt = geo.neighbour[cell][out]
            if nxt < 0:
                break
            cell, edge = nxt, out ^ 2
        total += len(visited)
    return total
