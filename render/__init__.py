"""Pictures of games, drawn with Pillow from views only: pure functions from a view (the
JSON-ready dict an engine's `view(seat)` returns) to PNG bytes.

The renderer never sees a whole game state, so it cannot leak what a view leaves out. Every
function takes an optional `theme` (see `render.palette`) and `language` (a language code of
`data.texts`, English by default) for the words drawn on it; the same input always gives the
same bytes.

- `hv_board_png(view, names=...)`: the High Voltage board and status panel, posted after
  every move.
- `hv_card_png(face)`: a drawn card in its four orientations, for its drawer alone.
- `hv_end_png(view, names=...)`: revealed companies, final scores and winners.
- `hv_secret_png(colour)`: one company colour, for the message that tells a player theirs.
- `pylons_board_png(view, names=...)`: the Pylons board and its panel, after every move;
  `pylons_seat_png(seat, colour, goal)`: a player's pylon, for the start-of-game message.
- `sector6_board_png(view, names=...)`: the Sector 6 maze and its panel, after every move.
- `sector6_tile_png(drawn)`: a drawn Sector 6 tile in its six turns, for its drawer alone.
- `sector6_seat_png(view, seat)`: a Sector 6 player's prisoner colour and shape.
- `hv_board_image`, `pylons_board_image`, `sector6_board_image`: the same boards as palette
  images before PNG encoding, for pictures made of many boards.
- `replay_gif(views, paint)`: an animated GIF of a whole game from its public views, one
  frame per position, kept under `REPLAY_BUDGET` bytes.
"""

from render.hv_board import board_palette, hv_board_image, hv_board_png
from render.hv_card import hv_card_png, hv_secret_png
from render.hv_end import hv_end_png
from render.palette import PYLONS_THEME, THEME, PylonsTheme, Theme
from render.pylons_board import pylons_board_image, pylons_board_png, pylons_seat_png
from render.replay import REPLAY_BUDGET, Replay, ReplayTooLarge, replay_gif
from render.sector6_board import sector6_board_image, sector6_board_png
from render.sector6_pieces import sector6_seat_png, sector6_tile_png

__all__ = [
    "PYLONS_THEME",
    "REPLAY_BUDGET",
    "THEME",
    "PylonsTheme",
    "Replay",
    "ReplayTooLarge",
    "Theme",
    "hv_board_image",
    "hv_board_png",
    "hv_card_png",
    "hv_end_png",
    "hv_secret_png",
    "pylons_board_image",
    "pylons_board_png",
    "pylons_seat_png",
    "replay_gif",
    "sector6_board_image",
    "sector6_board_png",
    "sector6_seat_png",
    "sector6_tile_png",
    "warm_up",
]


def warm_up(theme: Theme = THEME) -> None:
    """Build the board palette and the common sprites now (about a second), so the first
    board a player sees is as quick as the rest. Optional: without it the first board pays."""
    board_palette(theme)
