"""Pylons' pictures, drawn with Pillow from views only (see `games.high_voltage.pictures` for
the conventions every game's pictures follow).

- `pylons_board_png(view, names=..., clock=...)`: the board and its panel, after every move,
  with the time the player to move has left on their card when `clock` gives it
  (`pylons_board_image`: the same before PNG encoding, for a replay's frames).
- `pylons_seat_png(seat, colour, goal)`: a player's pylon, for the start-of-game message.
"""

from games.pylons.pictures.board import (
    STORED_PALETTE,
    pylons_board_image,
    pylons_board_png,
    pylons_seat_png,
)
from games.pylons.pictures.palette import PYLONS_THEME, PylonsTheme

# The name every game's pictures give their board, by which the command line draws the
# final board of a game record (`python -m games replay --picture`).
board_png = pylons_board_png

__all__ = [
    "PYLONS_THEME",
    "STORED_PALETTE",
    "PylonsTheme",
    "board_png",
    "pylons_board_image",
    "pylons_board_png",
    "pylons_seat_png",
]
