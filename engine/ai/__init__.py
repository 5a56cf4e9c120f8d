"""AI seats for every game: one entry point, and a registry of levels per game.

The bot calls, in a worker thread (a decision may take up to its time budget)::

    from engine.ai import choose
    text = choose(state.view(seat), level="hard", seed=some_int)
    state.apply(text)

An AI seat decides from the view of its own seat only, exactly as a person would: it never
receives the state, so it cannot see face-down cards or the other seats' secrets. The answer is
the action's text form, the same words a player could type.

Each game registers its levels (`register_agent`); a game's agents are imported the first time
one of its views is decided, so importing `engine.ai` stays cheap. Every game offers at least
`random`, the same for all (`decide_random`: a random legal action, drawn by the game's own
sampler from a position the viewer cannot tell from the real one), and its own stronger levels.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.registry import find_game


class Agent(Protocol):
    """Decide one action from one seat's view.

    `rng` is the only source of randomness. `budget_s` bounds the wall-clock time; `iterations`
    bounds the search by a count instead, which makes the decision reproducible (tests and
    benchmarks). Either may be None: the agent's own default applies.
    """

    def __call__(
        self,
        view: Mapping[str, Any],
        *,
        rng: random.Random,
        budget_s: float | None,
        iterations: int | None,
    ) -> str: ...


@dataclass(frozen=True)
class AgentInfo:
    game: str
    level: str
    decide: Agent
    about: str  # one line for people choosing an opponent


_AGENTS: dict[tuple[str, str], AgentInfo] = {}
# Where each game's agents live (see `register_provider`); imported on first use.
_PROVIDERS: dict[str, str] = {}


def register_provider(game: str, module: str) -> None:
    """Name the module whose import registers `game`'s agents (done by the game's manifest,
    see `games`): it is imported the first time an agent of the game is asked for."""
    _PROVIDERS[game] = module


def register_agent(game: str, level: str, decide: Agent, about: str = "") -> None:
    """Make `level` available for views of `game` (the game's registry name)."""
    key = (game, level)
    if key in _AGENTS:
        raise ValueError(f"An AI level {level!r} is registered for {game!r} already.")
    _AGENTS[key] = AgentInfo(game, level, decide, about)


def _load(game: str) -> None:
    module = _PROVIDERS.get(game)
    if module is not None and not any(g == game for g, _ in _AGENTS):
        importlib.import_module(module)


def levels(game: str) -> list[str]:
    """The AI levels offered for `game`, weakest first as registered."""
    _load(game)
    return [level for (g, level) in _AGENTS if g == game]


def agent(game: str, level: str) -> AgentInfo:
    _load(game)
    found = _AGENTS.get((game, level))
    if found is None:
        offered = ", ".join(levels(game)) or "none"
        raise KeyError(f"No AI level {level!r} for {game!r}; levels: {offered}.")
    return found


def choose(
    view: Mapping[str, Any],
    *,
    level: str,
    seed: int,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The text of the action the AI at `view["viewer"]` takes now.

    Deterministic for the same (view, level, seed) when the search is bounded by `iterations`
    (or for levels that do not search); with a wall-clock `budget_s` the amount of search
    depends on the machine, though never on anything the view does not show. Raises
    ValueError if the view is not a live position with the viewer to move.
    """
    game = view.get("game")
    if not isinstance(game, str):
        raise ValueError("Not a game view: it names no game.")
    info = agent(game, level)
    if view.get("viewer") is None or view.get("current_seat") != view.get("viewer"):
        raise ValueError("An AI decides only for its own seat, when that seat is to move.")
    if budget_s is not None and budget_s <= 0:
        raise ValueError("budget_s must be positive.")
    if iterations is not None and iterations < 1:
        raise ValueError("iterations must be at least 1.")
    rng = random.Random(f"ai:{game}:{level}:{seed}")
    return info.decide(view, rng=rng, budget_s=budget_s, iterations=iterations)


def decide_random(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The `random` level of every game: a whole position the viewer cannot tell from the
    real one (`Game.from_view`), then a random legal action as the game's sampler draws it
    (`State.sample_action`: a random kind of action first where a game has several).

    `choose` hands every move of a game a generator seeded the same way, so the number of
    actions so far is mixed in: equal choices then vary from move to move, reproducibly."""
    history = view.get("history") or ()
    local = random.Random(f"{rng.random()}:{len(history)}")
    state = find_game(str(view["game"])).from_view(view, local)
    if state.is_terminal():
        raise ValueError("The game is over: there is no move to choose.")
    return state.sample_action(local).text()


__all__ = [
    "Agent",
    "AgentInfo",
    "agent",
    "choose",
    "decide_random",
    "levels",
    "register_agent",
    "register_provider",
]
