"""Where the parts of the panel under the Sector 6 maze go, and the rounded band drawn behind
a lit card (the player to move or a winner) and the oxygen clock's badge.

The collected counts are laid out from the widths of their labels, so a count never runs
under the next marker, whatever the number of players or digits.

Kept apart from the panel's words and drawing (`panel`): the board's palette
is built from the band (`palette`) and the panel pastes pieces mapped onto that
palette, so the band sits below the palette and the panel above it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from PIL import Image

from games.sector6.pictures.style import PAD, SMALL, SS, Sector6Theme
from render.canvas import rounded_band, text_width
from render.theme import RGB

CARD_TOP, CARD_H = 14, 84  # the players' cards, from the top of the panel
CLOCK_H = 36  # the oxygen clock's badge, beside the status line
CLOCK_MAX = 380  # its widest, in pixels: a long translation shrinks, then is cut
TURN_CLOCK_SIZE = SMALL  # the turn clock (the time to move), at the status line's right end
TURN_CLOCK_MAX = 380  # its widest, in pixels: a longer text is
# cut; and never more than TURN_CLOCK_SHARE of the line it shares with the status
TURN_CLOCK_SHARE = 0.4
TURN_CLOCK_GAP = 20  # the least room between it and the status line
COUNT_DISC = 10  # the radius of a collected marker's disc
COUNT_SIZE = SMALL  # the font size of a count; when room is short its × goes
COUNT_SMALLEST = SMALL
COUNT_GAP = 6  # the least room between one count and the next disc


def cards(theme: Sector6Theme, count: int) -> list[tuple[int, int, int]]:
    """(left, top, width) of each player's card, side by side and centred."""
    count = max(1, count)
    width = min(300, (theme.width - (count + 1) * PAD) // count)
    left = (theme.width - count * width - (count - 1) * PAD) // 2
    return [(left + k * (width + PAD), theme.board_height + CARD_TOP, width) for k in range(count)]


@dataclass(frozen=True)
class Count:
    """One collected-marker count on a card: the disc's centre and the label's left edge."""

    value: int
    disc: tuple[int, int]
    text: str
    at: tuple[int, int]
    size: int


def counts_on_card(
    card: tuple[int, int, int], collected: dict[str, int], prefix: str = "×"
) -> list[Count]:
    """Where a card's four counts go: each label right of its disc, the four spread over
    the card; the font shrinks (then the × goes) before a label could reach the next disc."""
    left, top, width = card
    room = width - 28
    sizes = range(COUNT_SIZE, COUNT_SMALLEST - 1, -1)
    for shown, size in [(p, size) for p in (prefix, "") for size in sizes]:
        texts = [f"{shown}{collected.get(str(v), 0)}" for v in (1, 2, 3, 4)]
        widths = [math.ceil(text_width(t, size, False)) + 2 for t in texts]
        gap = (room - sum(2 * COUNT_DISC + 3 + w for w in widths)) / 3
        if gap >= COUNT_GAP:
            break
    gap = max(gap, 0)
    out, x = [], left + 14.0
    for value, text, w in zip((1, 2, 3, 4), texts, widths, strict=True):
        disc = (round(x) + COUNT_DISC, top + 61)
        out.append(Count(value, disc, text, (round(x) + 2 * COUNT_DISC + 3, top + 50), size))
        x += 2 * COUNT_DISC + 3 + w + gap
    return out


@cache
def card_band(theme: Sector6Theme, width: int, height: int, edge: RGB) -> Image.Image:
    """The rounded band behind the player to move (edged in their colour), a winner or the
    oxygen clock's badge."""
    return rounded_band(
        width, height, ground=theme.panel, fill=theme.panel_row, edge=edge, supersample=SS
    )
