"""Every colour and size of the Pylons pictures, in one frozen theme that extends the look
all the games share (`render.theme`)."""

from __future__ import annotations

from dataclasses import dataclass

from render.theme import RGB, Theme


@dataclass(frozen=True)
class PylonsTheme(Theme):
    """The Pylons board: a light 24x24 board inside the dark margin and panel that all the
    games' pictures share, so they look like one bot.

    The two players differ in shape as well as hue (player 1 builds round blue pylons, player
    2 square red ones) and their border lines sit on different sides, so the board reads the
    same for colour-blind players and in greyscale. Swamps carry a wave pattern for the same
    reason. Sizes give a 956 x 1096 picture: 24 cells of 37 pixels and a 140-pixel panel.
    """

    __hash__ = Theme.__hash__  # worked out once (see `render.theme.Theme`)

    cell: int = 37
    margin: int = 34
    panel_height: int = 156
    board: RGB = (236, 230, 214)
    board_edge: RGB = (188, 176, 148)
    corner: RGB = (52, 60, 80)
    hole: RGB = (166, 155, 130)
    swamp: RGB = (118, 158, 104)
    swamp_dark: RGB = (58, 98, 56)
    seat_fill: tuple[RGB, RGB] = ((38, 96, 220), (210, 40, 48))
    seat_tint: tuple[RGB, RGB] = ((214, 225, 247), (246, 215, 210))
    seat_label: tuple[RGB, RGB] = ((128, 168, 255), (255, 138, 138))  # on the dark margin
    last_ring: RGB = (255, 79, 216)
    win_glow: RGB = (255, 196, 40)

    def pylons_colours(self) -> tuple[RGB, ...]:
        """Flat colours of the Pylons board that must survive palette reduction exactly."""
        flat = [
            self.background,
            self.board,
            self.board_edge,
            self.corner,
            self.hole,
            self.swamp,
            self.swamp_dark,
            *self.seat_fill,
            *self.seat_tint,
            *self.seat_label,
            self.last_ring,
            self.win_glow,
            self.coordinate_text,
            self.panel,
            self.panel_row,
            self.text,
            self.text_dim,
            self.ink,
            self.winner,
        ]
        return tuple(dict.fromkeys(flat))


PYLONS_THEME = PylonsTheme()
"""The theme of the Pylons board picture."""
