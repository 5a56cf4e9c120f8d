"""The look every game's pictures share, as one frozen theme that each game's own theme
extends: the dark ground, the status panel and its text.

A theme is hashable on purpose: sprite caches are keyed by it, so a second theme (a light
board, a larger size for a tablet) can live in the same process without mixing sprites.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """What all the boards have in common, so all games look like one bot; each game's
    theme adds its own sizes and colours."""

    panel_height: int = 240
    background: RGB = (24, 29, 40)
    coordinate_text: RGB = (150, 162, 186)
    panel: RGB = (18, 22, 32)
    panel_row: RGB = (38, 49, 73)
    text: RGB = (234, 238, 246)
    text_dim: RGB = (139, 150, 171)
    ink: RGB = (28, 31, 38)
    winner: RGB = (255, 208, 71)


__all__ = ["RGB", "Theme"]
