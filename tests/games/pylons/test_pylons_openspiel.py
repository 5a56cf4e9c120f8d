"""Our open board against OpenSpiel's twixt, move by move: the cell mapping of the bench
opponent (`bench.openspiel_pylons`) is right when both engines, fed the same moves, offer the
same cells, agree on whose turn it is, and end the same games with the same winner.

OpenSpiel is an optional benchmark dependency, so without it these tests are skipped."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is an optional benchmark dependency (pip install .[bench])"
)

from bench.openspiel_pylons import (  # noqa: E402
    OpenSpielMCTS,
    from_spiel,
    spiel_game,
    spiel_state,
    to_spiel,
)
from games.pylons.ai.reference import runner  # noqa: E402
from games.pylons.rules import GAME  # noqa: E402
from games.pylons.rules.board import CELL_INDEX, CELLS  # noqa: E402


def test_the_mapping_is_a_transposition_both_ways():
    assert sorted(to_spiel(c) for c in range(CELLS)) == list(range(CELLS))
    assert all(from_spiel(to_spiel(c)) == c for c in range(CELLS))
    state = spiel_game().new_initial_state()
    # our B5 is column 1, row 4: OpenSpiel's column e (4), row 2 (1)
    assert state.action_to_string(0, to_spiel(CELL_INDEX["B5"])) == "xe2"
    assert state.action_to_string(0, to_spiel(CELL_INDEX["X2"])) == "xb24"


@pytest.mark.parametrize("seed", range(6))
def test_both_engines_play_the_same_game_in_lockstep(seed):
    """Racing players with some random moves, so that games end by a connection before the
    pylon limit: at every move the legal cells and the player to move agree, and the game
    ends in both engines at the same pylon with the same winner."""
    game = spiel_game()
    start = game.new_initial_state()
    state = GAME.new_state(2, seed, {"swamps": "off"})
    theirs = start.clone()
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_seat()
        assert theirs.current_player() == seat
        legal = {to_spiel(c) for c in state.free_cells(seat)}
        offered = set(theirs.legal_actions())
        if len(state.order) == 1:  # OpenSpiel's swap: the first pylon's cell, never ours
            offered.discard(to_spiel(state.order[0]))
        assert offered == legal
        if rng.random() < 0.3:
            text = state.sample_action(rng).text()
        else:
            text = runner(state.view(seat), rng)
        state.apply(text)
        theirs.apply_action(to_spiel(CELL_INDEX[text.split()[1]]))
        if not state.is_terminal():
            assert not theirs.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "connected"
    assert theirs.is_terminal()
    assert theirs.returns()[outcome.winners[0]] == 1.0
    assert spiel_state(game, start, state).history() == theirs.history()


def test_the_mcts_opponent_answers_with_one_of_our_legal_moves_and_never_swaps():
    """After the first pylon OpenSpiel offers the swap (taking that cell); the bench opponent
    leaves it out, so what it plays is always a legal move of ours."""
    for seed in range(3):
        state = GAME.new_state(2, seed, {"swamps": "off"})
        state.apply("place L12")
        mcts = OpenSpielMCTS(simulations=40, seed=seed)
        text = mcts(state, 1)
        assert text in {a.text() for a in state.legal_actions()}
        state.apply(text)
        assert mcts(state, 0) in {a.text() for a in state.legal_actions()}


def test_the_mcts_opponent_refuses_swamps_and_the_wrong_seat():
    mcts = OpenSpielMCTS(simulations=10, seed=1)
    with pytest.raises(ValueError, match="swamps"):
        state = GAME.new_state(2, 1, {"swamps": "on"})
        state.apply("keep")
        mcts(state, 0)
    with pytest.raises(ValueError, match="seat to move"):
        mcts(GAME.new_state(2, 1, {"swamps": "off"}), 1)
