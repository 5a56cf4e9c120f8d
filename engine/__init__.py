"""The rules of every game, in pure Python: no Discord, no pictures, no I/O beyond reading
the shipped data files once; deterministic from a seed.

Use `find_game(name)` to get a game, `game.new_state(seats, seed)` to deal, and the `State`
interface (see `engine.core`) to play.
"""

from engine.core import Game, Outcome, State
from engine.errors import ActionSyntaxError, GameError, IllegalActionError
from engine.high_voltage import GAME as HIGH_VOLTAGE
from engine.pylons import GAME as PYLONS
from engine.registry import all_games, find_game, register_game
from engine.sector6 import GAME as SECTOR6

register_game(HIGH_VOLTAGE)
register_game(PYLONS)
register_game(SECTOR6)

__all__ = [
    "HIGH_VOLTAGE",
    "ActionSyntaxError",
    "Game",
    "GameError",
    "IllegalActionError",
    "Outcome",
    "State",
    "all_games",
    "find_game",
    "register_game",
]
