"""Every registered game keeps the engine contract written in `engine.core`'s docstring.

The games are read from the registry, never listed here, so a game registered later (the
tests' own tic-tac-toe included) is checked as soon as it exists. Each test plays seeded random
games and checks, at positions along the way: the same seed and actions give the same states
and views; saves and copies; the common view keys; that every legal action applies and every
action's text reads back as itself; that autocomplete's targets are the legal actions' own;
and that no view leaks: none holds the seed, and a seat's view stays the same when only what
that seat cannot see is dealt again (`State.redeal`) or guessed (`Game.from_view`).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import COMMON_VIEW_KEYS, OVER, Action, Game, State
from games import all_games

GAMES = all_games()
MAX_ACTIONS = 5000  # a playout stops here if the game has not ended (every game ends far sooner)
VIEWED_POSITIONS = 60  # views are checked at this many positions spread over each playout
CHECKED_POSITIONS = 12  # heavier checks: at this many
ACTIONS_TRIED = 30  # legal actions applied at each checked position (all, if fewer)


def setups(game: Game) -> Iterator[tuple[int, dict[str, Any]]]:
    """(seats, options) to play: the fewest and most seats with default options, then every
    choice of every option."""
    for seats in sorted({game.min_seats, game.max_seats}):
        yield seats, {}
    for spec in game.options:
        for choice in spec.choices:
            if choice != spec.default:
                yield game.max_seats, {spec.name: choice}


def seed_for(game: Game, k: int) -> int:
    """A seed no view could hold by chance: large, and different per game and setup."""
    return 0x5EED_0000_0000 + 7919 * k + sum(map(ord, game.name))


CASES = [
    pytest.param(game, seats, options, seed_for(game, k), id=f"{game.name}-{seats}-{k}")
    for game in GAMES
    for k, (seats, options) in enumerate(setups(game))
]

# A Sector 6 view is large and rebuilding a position from one replays its whole history, so
# searching and redealing every view of every option is a long run: the options beyond the
# first are left to the slow tier.
VIEW_CASES = [
    pytest.param(*case.values, id=case.id, marks=pytest.mark.slow)
    if case.values[0].name == "sector6" and case.id.endswith(("-2", "-3"))
    else case
    for case in CASES
]


def playout(
    game: Game, seats: int, options: dict[str, Any], seed: int
) -> tuple[list[State], list[Any]]:
    """A random game from the deal: every position (the deal first) and the actions taken."""
    state = game.new_state(seats, seed, options)
    rng = random.Random(seed)
    states, actions = [state.copy()], []
    while not state.is_terminal() and len(actions) < MAX_ACTIONS:
        action = state.sample_action(rng)
        state.apply(action)
        states.append(state.copy())
        actions.append(action)
    return states, actions


def checked(states: list[State], count: int = CHECKED_POSITIONS) -> list[State]:
    """About `count` positions spread over a playout, its first and last included."""
    if not states:
        return []
    step = max(1, len(states) // count)
    picked = states[::step]
    return picked if picked[-1] is states[-1] else [*picked, states[-1]]


def viewers(state: State) -> list[int | None]:
    return [None, *range(state.seats)]


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, int, int], tuple[list[State], list[Any]]]:
    """Playouts shared by the tests of this module, made once each."""
    return {}


def play(played: dict, game: Game, seats: int, options: dict[str, Any], seed: int):
    key = (game.name, seats, seed)
    if key not in played:
        played[key] = playout(game, seats, options, seed)
    return played[key]


# ---------------------------------------------------------------------- determinism and saves


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_the_same_seed_and_actions_give_the_same_states_and_views(
    played, game, seats, options, seed
):
    states, actions = play(played, game, seats, options, seed)
    again, again_actions = playout(game, seats, options, seed)
    assert again_actions == actions, "a seeded random game plays the same actions"
    assert [twin.to_dict() for twin in again] == [state.to_dict() for state in states]
    pairs = zip(checked(states, VIEWED_POSITIONS), checked(again, VIEWED_POSITIONS), strict=True)
    for state, twin in pairs:
        for seat in viewers(state):
            assert twin.view(seat) == state.view(seat)
    last = states[-1]
    replayed = game.replay(seats, seed, last.history, options)
    assert replayed == last
    assert all(replayed.view(seat) == last.view(seat) for seat in viewers(last))
    assert len(actions) < MAX_ACTIONS, f"a random game of {game.title} did not end"


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_saves_load_as_they_were_and_copies_are_independent(played, game, seats, options, seed):
    states, _ = play(played, game, seats, options, seed)
    rng = random.Random(seed)
    for state in checked(states):
        saved = state.to_dict()
        stored = json.loads(json.dumps(saved))
        loaded = game.state_from_dict(stored)
        assert type(loaded) is type(state)
        assert loaded.to_dict() == saved and loaded == state
        assert all(loaded.view(seat) == state.view(seat) for seat in viewers(state))
        first = state.copy()
        assert first == state and first is not state and type(first) is type(state)
        if state.is_terminal():
            continue
        second = first.copy()
        action = second.sample_action(rng)
        second.apply(action)
        assert first.to_dict() == saved, "changing a copy changed its original"
        moved = second.to_dict()
        third = second.copy()
        first.apply(action)
        assert first.to_dict() == moved
        if not second.is_terminal():
            second.apply(second.sample_action(rng))
            assert third.to_dict() == moved, "changing the original changed its copy"
        assert state.to_dict() == saved


# ---------------------------------------------------------------------- views


def assert_common_keys(state: State, view: dict[str, Any], seat: int | None) -> None:
    missing = [key for key in COMMON_VIEW_KEYS if key not in view]
    assert not missing, f"view lacks the common keys {missing}"
    assert view["game"] == state.game.name
    assert isinstance(view["view_version"], int)
    assert view["viewer"] == seat
    assert view["seats"] == state.seats
    options = view["options"]
    assert isinstance(options, dict) and options == state.options
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in options.items())
    assert isinstance(view["phase"], str) and view["phase"] == state.phase
    assert (view["phase"] == OVER) == state.is_terminal()
    assert view["current_seat"] == state.current_seat()
    assert view["current_seat"] is None or 0 <= view["current_seat"] < state.seats
    assert view["prompt"] == state.prompt()
    assert view["prompt"] is None or isinstance(view["prompt"], str)
    if state.is_terminal():
        assert view["prompt"] is None
    assert view["history"] == state.history
    assert all(isinstance(text, str) for text in view["history"])
    if state.is_terminal():
        outcome = view["outcome"]
        assert outcome == state.outcome().to_dict()
        assert len(outcome["scores"]) == state.seats
        assert outcome["winners"] and all(0 <= s < state.seats for s in outcome["winners"])
    else:
        assert view["outcome"] is None and state.outcome() is None
    assert json.loads(json.dumps(view)) == view, "a view is JSON-ready data"


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_every_view_has_the_common_keys(played, game, seats, options, seed):
    states, _ = play(played, game, seats, options, seed)
    for state in checked(states, VIEWED_POSITIONS):
        for seat in viewers(state):
            assert_common_keys(state, state.view(seat), seat)
    with pytest.raises(ValueError):
        states[0].view(states[0].seats)


# A key of a JSON text that says "seed" (in a lowered text): a string followed by a colon is a
# key, and no text outside the strings can hold the letters of "seed".
SEED_KEY = re.compile(r'"(?:[^"\\]|\\.)*seed(?:[^"\\]|\\.)*"\s*:')


def holds(value: Any, seed: int) -> bool:
    """Whether JSON-ready data holds the seed anywhere: as a number, in a text or a key (its
    digits, or its hex digits in any case), or as a key naming a seed. Read in the data's JSON
    text, where a number equal to the seed and a text holding its digits both show them; a
    number that only holds the seed's digits among others counts too, which is stricter."""
    text = json.dumps(value, ensure_ascii=False).lower()
    return str(seed) in text or hex(seed)[2:] in text or SEED_KEY.search(text) is not None


def test_the_seed_is_found_wherever_a_view_could_hold_it():
    seed = 0x5EED_0000_1234
    found = [
        {"deal": seed},
        {"cells": [{"note": f"dealt from {seed}"}]},
        {"log": [["x", f"0X{seed:X}"]]},
        {"Seed": 1},
        {"board": {"rng_seed_used": None}},
        {str(seed): "a key"},
        [1, [2, {"deep": [seed]}]],
        {"quote": 'a "text", with', "where": {"SEED": 0}},
    ]
    assert all(holds(view, seed) for view in found)
    clean = [
        {"deal": seed + 1, "flag": True},
        {"note": "the seed is secret", "words": ["seed", "seeded"]},
        {"text": 'a "seed": quoted in a text'},
        {"cells": [{"cell": "A1", "hex": "5eed"}]},
    ]
    assert not any(holds(view, seed) for view in clean)


@pytest.mark.parametrize(("game", "seats", "options", "seed"), VIEW_CASES)
def test_no_view_holds_the_seed(played, game, seats, options, seed):
    states, _ = play(played, game, seats, options, seed)
    for state in checked(states, VIEWED_POSITIONS):
        assert state.seed == seed
        for seat in viewers(state):
            assert not holds(state.view(seat), seed), f"the view of seat {seat} holds the seed"


@pytest.mark.parametrize(("game", "seats", "options", "seed"), VIEW_CASES)
def test_a_view_does_not_change_with_what_its_seat_cannot_see(played, game, seats, options, seed):
    """Everything hidden from a seat dealt afresh (the seed included) leaves that seat's view
    as it was; so does the game's own guess of the hidden part from that view. A view that
    shows something hidden from its seat fails here."""
    states, _ = play(played, game, seats, options, seed)
    rng = random.Random(seed)
    prompting = [state for state in states if state.prompt() is not None]
    for state in checked(states) + checked(prompting, 4)[:4]:
        before = state.to_dict()
        for seat in viewers(state):
            view = state.view(seat)
            for _ in range(2):
                other = state.redeal(seat, rng)
                assert other.seed != state.seed and other.history == state.history
                assert other.view(seat) == view, f"seat {seat} sees what is hidden from it"
                guessed = game.from_view(json.loads(json.dumps(view)), rng)
                assert guessed.view(seat) == view, f"seat {seat}'s view rebuilds differently"
        assert state.to_dict() == before, "looking changed the game"


# ---------------------------------------------------------------------- actions


def assert_action(game: Game, action: Any) -> None:
    assert isinstance(action, Action), f"{action!r} is not an engine.core.Action"
    assert dataclasses.is_dataclass(action)
    text = action.text()
    assert isinstance(text, str) and text
    assert game.parse_action(text) == action, f"{text!r} does not read back as {action!r}"
    assert isinstance(action.kind, str) and action.kind
    assert isinstance(action.reveals_hidden, bool)
    assert action.undoable is not action.reveals_hidden
    assert isinstance(action.shows_its_player, bool)
    assert action.reveals_hidden or not action.shows_its_player, "it shows nothing hidden"
    assert action.prompt is None or isinstance(action.prompt, str)


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_every_legal_action_applies_and_reads_back(played, game, seats, options, seed):
    states, actions = play(played, game, seats, options, seed)
    for text in states[-1].history:
        assert game.parse_action(text).text() == text, f"{text!r} does not round-trip"
        assert states[-1].parse_action(text) == game.parse_action(text)
    for action in actions:
        assert_action(game, action)
    rng = random.Random(seed)
    for state in checked(states):
        legal = state.legal_actions()
        assert bool(legal) is not state.is_terminal()
        tried = legal if len(legal) <= ACTIONS_TRIED else rng.sample(legal, ACTIONS_TRIED)
        for action in tried:
            assert_action(game, action)
            by_object, by_text = state.copy(), state.copy()
            by_object.apply(action)
            by_text.apply(action.text())
            assert by_object == by_text
            assert by_object.history[: len(state.history)] == state.history
            if action.prompt is not None:
                assert by_object.prompt() == action.prompt, f"{action.text()} opens no prompt"


def legal_values(state: State, seat: int, option: str, chosen: dict[str, Any]) -> list[Any]:
    """What `State.targets` gives by its definition, whatever the game overrides."""
    return State.targets(state, seat, option, chosen)


@pytest.mark.parametrize(("game", "seats", "options", "seed"), CASES)
def test_targets_are_the_legal_actions_own(played, game, seats, options, seed):
    states, _ = play(played, game, seats, options, seed)
    rng = random.Random(seed)
    asked = set()
    for state in checked(states):
        seat = state.current_seat()
        legal = state.legal_actions()
        for option in state.target_options:
            kind, _, name = option.partition(".")
            values = state.targets(seat, option)
            assert len(values) == len(set(values)), f"{option} lists a value twice"
            assert set(values) == set(legal_values(state, seat, option, {})), option
            asked.add(option)
            others = [s for s in viewers(state) if s != seat]
            assert all(state.targets(s, option) == [] for s in others), "not their turn"
            of_kind = [a for a in legal if a.kind == kind]
            if not of_kind:
                continue
            example = rng.choice(of_kind)
            for field in dataclasses.fields(example):
                if field.name != name:
                    chosen = {field.name: getattr(example, field.name)}
                    expected = legal_values(state, seat, option, chosen)
                    assert set(state.targets(seat, option, chosen)) == set(expected)
                    assert getattr(example, name) in expected or getattr(example, name) is None
    assert asked == set(states[0].target_options)
