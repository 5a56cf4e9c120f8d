"""Pylons positions for tests: a seeded game of random legal pylons."""

from __future__ import annotations

import random

from games.pylons.rules import GAME, PylonsState


def random_game(seed: int, moves: int, swamps: bool) -> PylonsState:
    """The position after up to `moves` random legal actions (fewer if the game ends)."""
    state = GAME.new_state(2, seed, {"swamps": "on" if swamps else "off"})
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    return state
