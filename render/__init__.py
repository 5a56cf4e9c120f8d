"""What every game's pictures share, drawn with Pillow: composing a picture in palette mode
from cached pieces (`render.canvas`), PNG encoding on a fixed palette (`render.encode`), the
shipped fonts (`render.fonts`), the look all boards have in common (`render.theme`) and the
animated replay of a whole game (`render.replay`). Each game draws its own pictures from its
views in its own folder (`games/<game>/pictures/`), on top of these.

- `replay_gif(views, paint)`: an animated GIF of a whole game from its public views, one
  frame per position (at most `MAX_FRAMES`, evenly spread: `frames_of`), kept under
  `REPLAY_BUDGET` bytes.
"""

from render.replay import MAX_FRAMES, REPLAY_BUDGET, Replay, ReplayTooLarge, frames_of, replay_gif
from render.theme import RGB, Theme

__all__ = [
    "MAX_FRAMES",
    "REPLAY_BUDGET",
    "RGB",
    "Replay",
    "ReplayTooLarge",
    "Theme",
    "frames_of",
    "replay_gif",
]
