"""A game card in Discord's Components V2 layout, as the tests post it through the real
discord.py: one container in the colour of the player to move, whose turn it is with a
button beside it, the board in a gallery with its alt text, a separator and a row of moves.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import ui
from PIL import Image

ORANGE = 0xE67E22
ALT = "The board: Ada's pylon on C3, Bruno's on E5"


def png(size: tuple[int, int] = (12, 8)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (20, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def board_file(name: str = "board.png", size: tuple[int, int] = (12, 8)) -> discord.File:
    return discord.File(io.BytesIO(png(size)), filename=name)


class Card(ui.LayoutView):
    """A game card as the bot would post it: one container with the player's colour, whose
    turn it is with a button beside it, the board in a gallery with its alt text, a
    separator and a row of moves. `pressed` collects the custom ids the bot was told of."""

    def __init__(
        self,
        *,
        turn: str = "Ada to move",
        alt: str = ALT,
        picture: str = "attachment://board.png",
        texts: tuple[str, ...] = (),
    ) -> None:
        super().__init__(timeout=None)
        self.pressed: asyncio.Queue[tuple[str, discord.Interaction]] = asyncio.Queue()
        skip = ui.Button[Card](label="Pass", custom_id="card:pass")
        rotate = ui.Button[Card](label="Rotate", custom_id="card:rotate")
        for button in (skip, rotate):
            button.callback = self._pressed(button)  # type: ignore[method-assign] # a callback per button, as discord.py allows
        self.add_item(
            ui.Container(
                ui.TextDisplay("## Pylons"),
                ui.Section(ui.TextDisplay(turn), accessory=skip),
                *(ui.TextDisplay(t) for t in texts),
                ui.Separator(),
                ui.MediaGallery(discord.MediaGalleryItem(picture, description=alt)),
                ui.ActionRow(rotate),
                accent_colour=ORANGE,
            )
        )

    def _pressed(self, button: ui.Button[Card]) -> Any:
        async def callback(interaction: discord.Interaction) -> None:
            await self.pressed.put((button.custom_id or "", interaction))

        return callback
