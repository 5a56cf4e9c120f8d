"""High Voltage's pictures, drawn with Pillow from views only: pure functions from a view (the
JSON-ready dict `view(seat)` returns) to PNG bytes. Every function takes an optional `theme`
(see `palette`) and `language` (a language code of `data.texts`) for the words drawn on it;
the same input always gives the same bytes.

- `hv_board_png(view, names=..., clock=...)`: the board and status panel, posted after every
  move, with the time the player to move has left in the panel when `clock` gives it
  (`hv_board_image`: the same before PNG encoding, for a replay's frames).
- `hv_card_png(face)`: a drawn card in its four orientations, for its drawer alone.
- `hv_end_png(view, names=...)`: revealed companies, final scores and winners.
- `hv_secret_png(colour)`: one company colour, for the message that tells a player theirs.
- `STORED_PALETTE`: the board palette of the default theme, kept in `palette.txt` beside this
  code so that no process builds it as it starts (`python -m games palettes` rewrites it).
"""

from games.high_voltage.pictures.board import (
    STORED_PALETTE,
    board_palette,
    hv_board_image,
    hv_board_png,
)
from games.high_voltage.pictures.card import hv_card_png, hv_secret_png
from games.high_voltage.pictures.end import hv_end_png
from games.high_voltage.pictures.palette import THEME, HighVoltageTheme

# The name every game's pictures give their board, by which the command line draws the
# final board of a game record (`python -m games replay --picture`).
board_png = hv_board_png

__all__ = [
    "STORED_PALETTE",
    "THEME",
    "HighVoltageTheme",
    "board_png",
    "hv_board_image",
    "hv_board_png",
    "hv_card_png",
    "hv_end_png",
    "hv_secret_png",
    "warm_up",
]


def warm_up(theme: HighVoltageTheme = THEME) -> None:
    """Get the board palette now (read from its file for the default theme, about a second
    to build for another), so the first board a player sees is as quick as the rest.
    Optional: without it the first board pays."""
    board_palette(theme)
