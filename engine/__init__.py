"""The rules of every game, in pure Python: no Discord, no pictures, no I/O beyond reading
the shipped data files once; deterministic from a seed.

The list of games is not kept here: each game's manifest in `games` registers its rules (see
`engine.registry`). Use `games.find_game(name)` to get a game, `game.new_state(seats, seed)`
to deal, and the `State` interface (see `engine.core`) to play.
"""

from engine.core import Game, Outcome, State
from engine.errors import ActionSyntaxError, GameError, IllegalActionError

__all__ = [
    "ActionSyntaxError",
    "Game",
    "GameError",
    "IllegalActionError",
    "Outcome",
    "State",
]
