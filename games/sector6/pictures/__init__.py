"""Sector 6's pictures, drawn with Pillow from views only (see `games.high_voltage.pictures`
for the conventions every game's pictures follow).

- `sector6_board_png(view, names=..., clock=...)`: the maze and its panel, after every move,
  with the time the player to move has left on the status line when `clock` gives
  it (`sector6_board_image`: the same before PNG encoding, for a replay's frames).
- `sector6_tile_png(drawn)`: a drawn tile in its six turns, for its drawer alone.
- `sector6_seat_png(view, seat)`: a player's prisoner colour and shape.
"""

from games.sector6.pictures.board import sector6_board_image, sector6_board_png, warm_up
from games.sector6.pictures.palette import STORED_PALETTE
from games.sector6.pictures.pieces import sector6_seat_png, sector6_tile_png
from games.sector6.pictures.style import SECTOR6_THEME, Sector6Theme

# The name every game's pictures give their board, by which the command line draws the
# final board of a game record (`python -m games replay --picture`).
board_png = sector6_board_png

__all__ = [
    "SECTOR6_THEME",
    "STORED_PALETTE",
    "Sector6Theme",
    "board_png",
    "sector6_board_image",
    "sector6_board_png",
    "sector6_seat_png",
    "sector6_tile_png",
    "warm_up",
]
