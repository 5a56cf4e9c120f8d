"""Every colour and size of the High Voltage pictures, in one frozen theme that extends the
look all the games share (`render.theme`).

Company colours are never told apart by hue alone: each has a letter and a path pattern, so
the board reads the same for colour-blind players and in a greyscale screenshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.theme import RGB, Theme

# Path patterns, drawn in ink along the middle of a coloured band.
SOLID, DASHES, DOTS, PINSTRIPE = "solid", "dashes", "dots", "pinstripe"


@dataclass(frozen=True)
class Company:
    """How one company colour is shown: fill, its letter and the pattern on its paths."""

    name: str
    fill: RGB
    letter: str
    letter_ink: RGB  # letter colour on a disc of `fill`, chosen for contrast
    pattern: str
    pattern_ink: RGB


@dataclass(frozen=True)
class HighVoltageTheme(Theme):
    """Sizes in final pixels and every colour of the board, card, end and secret pictures."""

    __hash__ = Theme.__hash__  # worked out once (see `render.theme.Theme`)

    # sizes
    cell: int = 104  # pitch of one grid cell
    frame: int = 84  # depth of the score-card frame around the grid
    margin: int = 30  # outer margin holding the A-G / 1-7 coordinates
    panel_height: int = 340  # the status panel: up to four players, then the last turn
    gutter: int = 6  # dark gap between two cards
    radius: int = 9  # card corner radius
    supersample: int = 4  # sprites are drawn this much larger, then reduced (anti-aliasing)
    path_width: float = 0.17  # of the cell pitch
    token_centre: float = 0.22  # energy token centre, from the card's north-west corner
    token_radius: float = 0.165
    # board
    frame_card: RGB = (44, 53, 71)
    frame_corner: RGB = (36, 43, 58)
    frame_text: RGB = (214, 221, 234)
    # cards
    card_face: RGB = (241, 232, 211)
    card_edge: RGB = (196, 182, 152)
    card_back: RGB = (35, 82, 92)
    card_back_line: RGB = (49, 106, 117)
    card_back_emblem: RGB = (233, 185, 73)
    empty_cell: RGB = (15, 18, 26)
    empty_edge: RGB = (70, 81, 104)
    danger_card: RGB = (40, 40, 44)
    danger_stripe: RGB = (255, 176, 0)
    danger_stripe_dark: RGB = (26, 26, 28)
    bridge_gap: RGB = (241, 232, 211)
    # energy tokens: HIGH VOLTAGE is a dark disc with a bolt, DANGER an orange triangle
    hv_token: RGB = (26, 33, 50)
    hv_bolt: RGB = (120, 226, 255)
    danger_token: RGB = (255, 106, 19)
    danger_ink: RGB = (33, 14, 4)
    # highlights
    changed_outline: RGB = (255, 79, 216)
    drawn_outline: RGB = (255, 255, 255)
    trace_glow: RGB = (143, 243, 255)
    # the lines a player may declare, outlined on their prompt's picture: one colour each, in
    # turn (colours the board has already, so its palette holds them exactly)
    line_marks: tuple[RGB, ...] = (
        (255, 255, 255),
        (255, 208, 71),
        (143, 243, 255),
        (255, 79, 216),
    )
    line_mark_width: int = 5
    # panel and other pictures
    unknown: RGB = (96, 104, 122)
    # Each seat's public colour, which a card of the game is edged in while the seat is to
    # move: none of them a company's, which the rules keep secret until the end.
    seat_accents: tuple[RGB, ...] = (
        (155, 89, 182),  # purple
        (240, 128, 24),  # orange
        (236, 72, 153),  # pink
        (170, 178, 194),  # silver
    )
    companies: tuple[Company, ...] = (
        Company("red", (229, 72, 77), "R", (255, 255, 255), SOLID, (28, 31, 38)),
        Company("yellow", (245, 197, 24), "Y", (28, 31, 38), DASHES, (28, 31, 38)),
        Company("green", (48, 164, 108), "G", (255, 255, 255), DOTS, (18, 34, 26)),
        Company("blue", (62, 123, 250), "B", (255, 255, 255), PINSTRIPE, (246, 248, 255)),
    )

    def company(self, name: str) -> Company:
        """The style of a colour name; an unknown name (edited data) still gets a readable
        grey disc with its initial rather than breaking every picture."""
        for c in self.companies:
            if c.name == name:
                return c
        return Company(name, self.unknown, name[:1].upper() or "?", self.text, SOLID, self.ink)

    def base_colours(self) -> tuple[RGB, ...]:
        """Flat colours that must survive palette reduction exactly (tests sample them)."""
        flat = [
            self.background,
            self.frame_card,
            self.frame_corner,
            self.frame_text,
            self.coordinate_text,
            self.card_face,
            self.card_edge,
            self.card_back,
            self.card_back_line,
            self.card_back_emblem,
            self.empty_cell,
            self.empty_edge,
            self.danger_card,
            self.danger_stripe,
            self.danger_stripe_dark,
            self.hv_token,
            self.hv_bolt,
            self.danger_token,
            self.danger_ink,
            self.changed_outline,
            self.drawn_outline,
            self.trace_glow,
            self.panel,
            self.panel_row,
            self.text,
            self.text_dim,
            self.ink,
            self.unknown,
            self.winner,
            *self.line_marks,
        ]
        for c in self.companies:
            flat += [c.fill, c.letter_ink, c.pattern_ink]
        return tuple(dict.fromkeys(flat))


THEME = HighVoltageTheme()
"""The one theme the bot uses; pass another `HighVoltageTheme` to any renderer to change the
look."""
