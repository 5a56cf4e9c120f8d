"""The common engine core: the registry, creating games, the checks every game gets for free,
and one conformance run over every registered game."""

from __future__ import annotations

import json
import random

import pytest

from engine import ActionSyntaxError, GameError, IllegalActionError
from games import all_games, find_game
from games.high_voltage.rules import GAME as HIGH_VOLTAGE


@pytest.mark.parametrize(
    "name", ["high-voltage", "High Voltage", "hv", "HV", "highvoltage", " high voltage "]
)
def test_find_game_by_name_title_or_alias(name):
    assert find_game(name) is HIGH_VOLTAGE


def test_a_game_found_by_its_own_name_is_found_without_reading_the_name_over(monkeypatch):
    """The bot names games by their own names, on every post: a look-up, not the name
    lowered and stripped of its spaces and dashes as a person's spelling is."""

    def spelled(name: str) -> str:
        raise AssertionError(f"{name!r} was read as a person's spelling")

    monkeypatch.setattr("engine.registry._key", spelled)
    assert find_game("high-voltage") is HIGH_VOLTAGE


def test_an_unknown_game_is_a_clear_key_error():
    with pytest.raises(KeyError) as caught:
        find_game("chess")
    message = str(caught.value)
    assert "No game called 'chess'" in message and "high-voltage" in message


def test_every_registered_game_is_listed_once():
    names = [game.name for game in all_games()]
    assert "high-voltage" in names and len(names) == len(set(names))


@pytest.mark.parametrize("seats", [0, 1, 5, 8])
def test_seat_count_outside_the_range_is_refused(seats):
    with pytest.raises(ValueError, match="for 2-4 players"):
        HIGH_VOLTAGE.new_state(seats, 1)


def test_an_unknown_option_is_refused():
    with pytest.raises(ValueError, match="Unknown option 'variant'"):
        HIGH_VOLTAGE.new_state(2, 1, {"variant": "fast"})
    HIGH_VOLTAGE.new_state(2, 1, {})  # no options at all is fine


def test_error_types_share_one_base():
    """The Discord layer and the CLI catch GameError and show its text."""
    assert issubclass(ActionSyntaxError, GameError) and issubclass(IllegalActionError, GameError)
    assert issubclass(GameError, ValueError)


@pytest.mark.parametrize("seat", [7, 2, -1])
def test_view_of_a_seat_that_does_not_exist_raises(seat):
    state = HIGH_VOLTAGE.new_state(2, 1)
    with pytest.raises(ValueError, match="No seat"):
        state.view(seat)


def _play_out(game, seats, seed, limit=2000):
    state = game.new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return state
        state.apply(state.sample_action(rng))
    raise AssertionError(f"{game.name} did not finish within {limit} actions")


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
@pytest.mark.parametrize("seed", [3, 2024])
def test_conformance_random_playouts(game, seed):
    """Every game: random playouts end, the result is well formed, the log replays to the same
    state, the state survives JSON, views are JSON and never carry the seed."""
    seats = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    state = _play_out(game, seats, seed)
    result = state.outcome()
    assert result is not None and len(result.scores) == seats
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)
    assert state.legal_actions() == [] and state.current_seat() is None
    assert game.replay(seats, seed, state.history) == state
    assert game.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for seat in [None, *range(seats)]:
        view = json.loads(json.dumps(state.view(seat)))
        assert "seed" not in set(_keys(view))
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(state.history[-1])


def test_copy_is_independent():
    state = HIGH_VOLTAGE.new_state(2, 9)
    copy = state.copy()
    assert copy == state and copy is not state
    copy.apply(copy.sample_action(random.Random(1)))
    assert copy != state
    assert state.history == []


def test_states_are_not_hashable():
    """States are mutable; equality compares the whole truth, so hashing is refused."""
    with pytest.raises(TypeError):
        hash(HIGH_VOLTAGE.new_state(2, 1))


def test_which_actions_show_something_hidden_and_so_cannot_be_taken_back():
    from games import find_game

    hv, pylons, sector6 = find_game("high-voltage"), find_game("pylons"), find_game("sector6")

    def hidden(game, text):
        action = game.parse_action(text)
        assert action.undoable is not action.reveals_hidden
        return action.reveals_hidden

    assert hidden(hv, "draw C3") and hidden(hv, "draw C3 here r90")
    assert hidden(hv, "declare S1-S5") and hidden(hv, "declare none")
    assert not any(hidden(hv, a) for a in ("rotate C3 r90", "move C3 r0", "swap A1 B1 r0 r0"))
    assert not hidden(pylons, "place K12") and not hidden(pylons, "mirror")
    assert hidden(sector6, "draw")
    assert not hidden(sector6, "move C4 C7") and not hidden(sector6, "collect")


def test_which_hidden_things_are_shown_to_the_player_who_acts():
    """A drawn card is hidden from its drawer too; a declared line only hints to the others
    at its player's own colour: alone with AI seats, only the latter may be taken back."""
    from games import find_game

    hv, sector6 = find_game("high-voltage"), find_game("sector6")
    assert hv.parse_action("draw C3").shows_its_player
    assert hv.parse_action("draw C3 here r90").shows_its_player
    assert sector6.parse_action("draw").shows_its_player
    assert not hv.parse_action("declare S1-S5").shows_its_player
    assert not hv.parse_action("declare none").shows_its_player
    assert not hv.parse_action("rotate C3 r90").shows_its_player


def test_a_draw_alone_opens_the_drawers_prompt():
    from games import find_game

    hv, sector6 = find_game("high-voltage"), find_game("sector6")
    assert hv.parse_action("draw C3").prompt == "place"
    assert hv.parse_action("draw C3 empty r90").prompt is None
    assert sector6.parse_action("draw").prompt == "place"
    assert sector6.parse_action("place entry C4").prompt is None
