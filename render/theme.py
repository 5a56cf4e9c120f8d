"""The look every game's pictures share, as one frozen theme that each game's own theme
extends: the dark ground, the status panel and its text.

A theme is hashable on purpose: sprite caches are keyed by it, so a second theme (a light
board, a larger size for a tablet) can live in the same process without mixing sprites.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """What all the boards have in common, so all games look like one bot; each game's
    theme adds its own sizes and colours.

    Its hash is worked out once per theme: the caches of pictures' pieces are keyed by their
    theme, a board looks a hundred pieces up, and a frozen dataclass hashes its dozens of
    fields anew each time (most of a millisecond a board). A game's theme, a dataclass of its
    own, keeps this hash with `__hash__ = Theme.__hash__`."""

    def __hash__(self) -> int:
        try:
            cached: int = self.__dict__["_hash"]
            return cached
        except KeyError:
            value = hash((type(self), *(getattr(self, f.name) for f in fields(self))))
            object.__setattr__(self, "_hash", value)  # frozen: set once, as its own cache
            return value

    def __getstate__(self) -> dict[str, object]:
        """What pickling keeps: the fields, not the hash (strings hash differently in
        another process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

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
