"""The tests' quick way to finish a Pylons game (`played_games.line_across`) wins by the rules:
the seat it chose links its borders within some 30 moves, on boards with swamps and without,
whichever seat it chose."""

from __future__ import annotations

import random

import pytest
from played_games import KEEP, line_across, next_planned

from games import find_game

QUICK = 30  # moves: the winner's 13 pylons, the loser's as many, and the choice of board


@pytest.mark.parametrize("swamps", ["on", "off"])
def test_the_chosen_seat_links_its_borders_within_a_few_moves(swamps: str) -> None:
    winners = set()
    for seed in range(40):
        state = find_game("pylons").new_state(2, seed, {"swamps": swamps})
        rng = random.Random(seed)
        if KEEP in {a.text() for a in state.legal_actions()}:
            state.apply(KEEP)
        plan = line_across(state, rng)
        assert plan, f"deal {seed}: a band clear of swamps"
        winner = min(plan, key=lambda seat: len(plan[seat]))  # the line: 13 pylons
        moves = 0
        while not state.is_terminal():
            legal = {a.text() for a in state.legal_actions()}
            seat = state.current_seat()
            assert seat is not None
            planned = next_planned(plan, seat, legal)
            assert planned, f"deal {seed}: seat {seat} has a planned move left"
            state.apply(planned)
            moves += 1
        assert (state.end_reason, state.winner) == ("connected", winner), f"deal {seed}"
        assert moves <= QUICK, f"deal {seed}: {moves} moves"
        winners.add(winner)
    assert winners == {0, 1}, "either seat may be the one that wins"
