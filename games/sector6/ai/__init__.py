"""Computer players for Sector 6, deciding from a view alone; registered with `engine.ai`.

    from engine.ai import choose
    choose(state.view(seat), level="normal", seed=7)  # -> "move C4 C7"

Levels:
- `random`: a random legal action (a random kind first while building, as `sample_action`;
  the level every game shares, `engine.ai.decide_random`).
- `easy`: the same random player, under the name every game gives its weakest level, so
  that a lobby offers easy, normal and hard in every game.
- `normal`: greedy over whole turns. Every complete turn (a move and what follows it, or the
  rotations of a blocked player) is played on a lean copy of the position
  (`position.Position`) and the result scored (`evaluate_position`): oxygen collected,
  plus most of the value of markers under the seat's own prisoners (no one else can take
  those, and leaving the tile collects them), plus the best marker each prisoner could
  reach within a few moves, halved per move, plus a little mobility; the seat to move next
  gets most of its best next step; minus the same for the strongest opponent. The oxygen
  clock counts: in its last rounds what each seat would take if the game ended now weighs
  more and hopes less, and a seat with no turn left before it stops has no hopes at all.
  While building (`build`), tiles go where they open the most oxygen to the seat's own
  entry points and the least to the others', and an entry point is placed once a spot is
  worth it.
- `hard`: looks ahead (`search`). The best turns by the `normal` measure are each played
  out for a round or more of replies, every seat answering with its own greedy turn, and the
  turn whose outcome scores best is played; deeper rounds follow while the budget lasts. It
  stops at `budget_s` seconds (default 1.5) or after `iterations` positions scored,
  whichever the caller gives (`iterations` alone makes it deterministic, for tests); a
  search cut short keeps the result of the last complete round. The act after a move gets a
  quarter of the budget: the move's search weighed it already. It builds like `normal`.

A view hides each supply's order (and other seats' drawn tile); the players rebuild a full
position with `Sector6State.from_view`, which draws the unseen layouts at random from those
still in the box. Once the maze is complete nothing is hidden any more.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from engine.ai import decide_random, register_agent
from games.sector6.ai.build import build_action
from games.sector6.ai.position import Position, evaluate_position, root_turns, turn_actions
from games.sector6.ai.search import Budget, OutOfBudget, greedy_turn, search_turn
from games.sector6.rules.actions import Sector6Action
from games.sector6.rules.dealing import supplies_from_view
from games.sector6.rules.rules_data import default_rules
from games.sector6.rules.state import ACT_STEP, BUILD, OVER, Sector6State

GAME_NAME = "sector6"
DEFAULT_BUDGET_S = 1.5
ACT_SHARE = 0.25  # of the budget, for the act that follows a move


def evaluate(state: Sector6State, seat: int) -> float:
    """How good a competition position is for `seat` (see `evaluate_position`)."""
    return evaluate_position(Position(state), seat)


def turns(state: Sector6State) -> list[tuple[Sector6Action, ...]]:
    """Every complete turn the seat to move can play from here, as action sequences."""
    position = Position(state)
    return [tuple(turn_actions(state, t)) for t in root_turns(state, position)]


class Kept:
    """Positions of the race, kept between an AI seat's decisions so that a long game is not
    rebuilt from its whole history at every one (a few hundred moves took seconds).

    Only a position whose maze is complete is kept: from then on nothing is hidden and every
    action's effect follows from the position alone, so the kept one with the actions since
    applied is the one `from_view` would build. While the maze is built, the unseen tiles are
    drawn at random at each rebuild, and a kept draw would not match the tiles placed since.
    One position per game, whichever seat asks (none hides anything from another by then),
    the least recently used dropped; a lock, as AI seats may think in threads of one
    process."""

    def __init__(self, most: int = 64) -> None:
        self.most = most
        self._states: OrderedDict[tuple[Any, ...], Sector6State] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(view: Mapping[str, Any]) -> tuple[Any, ...]:
        """The game a view is of: its table's pieces (which, the maze complete, stay where
        they are), its seats and its rules. Two games told apart by nothing here have pieces
        placed alike, and the history then decides whether a kept position fits."""
        pieces = tuple(
            (tile["cell"], tile["kind"], tile.get("layout"), tile.get("value"), tile["placed_by"])
            for tile in view["tiles"]
        )
        options = view.get("options") or {}
        return (
            view["seats"],
            options.get("mode"),
            view["first_seat"],
            view.get("ending_rules_from"),
            pieces,
        )

    def rebuilt(self, view: Mapping[str, Any], rng: random.Random) -> Sector6State:
        """The position the view shows: a kept one carried on, or built afresh."""
        history = list(view.get("history") or ())
        key = self._key(view)
        with self._lock:
            kept = self._states.get(key)
            if kept is not None:
                self._states.move_to_end(key)
                kept = kept.copy()
        state: Sector6State | None = None
        if kept is not None:
            done = len(kept.history)
            if done <= len(history) and kept.history == history[:done]:
                # The unseen tiles are drawn as a rebuild draws them, though none is left
                # unseen: the choices that follow take the same numbers either way.
                supplies_from_view(default_rules(), view, rng)
                for text in history[done:]:
                    kept.apply(text)
                state = kept
        if state is None:
            state = Sector6State.from_view(view, rng)
        if state.phase != BUILD:
            with self._lock:
                self._states[key] = state.copy()
                self._states.move_to_end(key)
                while len(self._states) > self.most:
                    self._states.popitem(last=False)
        return state


KEPT = Kept()


def _position(view: Mapping[str, Any], rng: random.Random) -> tuple[Sector6State, random.Random]:
    """A full position consistent with the view, and a generator for this move's choices.

    The registry hands every move of a game the same seeded generator, so the number of
    actions so far is mixed in: equal choices then vary from move to move, reproducibly."""
    local = random.Random(f"{rng.random()}:{len(view.get('history') or ())}")
    state = KEPT.rebuilt(view, local)
    if state.phase == OVER:
        raise ValueError("The game is over: there is no move to choose.")
    return state, local


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
        return build_action(state, local).text()
    position = Position(state)
    options = root_turns(state, position)
    if hard:
        budget = budget_s
        if budget is None and iterations is None:
            budget = DEFAULT_BUDGET_S
        if state.step == ACT_STEP:
            # The move was chosen by a full search that weighed what follows it already;
            # what to do on the tile just left needs a shorter one.
            budget = None if budget is None else budget * ACT_SHARE
            iterations = None if iterations is None else max(1, int(iterations * ACT_SHARE))
        deadline = None if budget is None else started + budget * 0.9
        turn, _ = search_turn(position, options, local, Budget(deadline, iterations))
    else:
        turn = greedy_turn(position, options, local)
    return turn_actions(state, turn)[0].text()


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
    """The turn a bounded look-ahead over whole turns finds best (see the module docstring)."""
    return _decide(view, rng, budget_s, iterations, hard=True)


register_agent(GAME_NAME, "random", decide_random, "random legal actions")
register_agent(GAME_NAME, "easy", decide_random, "random legal actions, as random")
register_agent(
    GAME_NAME, "normal", decide_normal, "greedy: grabs the oxygen in reach, keeps yours in sight"
)
register_agent(GAME_NAME, "hard", decide_hard, "plays each good turn out against your replies")

__all__ = [
    "Budget",
    "OutOfBudget",
    "decide_hard",
    "decide_normal",
    "evaluate",
    "greedy_turn",
    "search_turn",
    "turns",
]
