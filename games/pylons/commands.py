"""/pylons: placing a pylon. The opening keep-or-mirror choice comes as buttons."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from engine import State
from games.pylons.rules.board import NAMES
from hvbot.cogs.moves import Choices, GameMoves, in_private_channels
from hvbot.handlers import moves

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


def _free(state: State, seat: int | None) -> list[str]:
    """Cells where `seat` may place a pylon now."""
    return state.targets(seat, "place.cell")


@in_private_channels  # played in DMs and group DMs too
class PylonsCog(GameMoves, group_name="pylons", group_description="Pylons moves"):
    game = "pylons"

    def cell_names(self, state: State) -> Collection[str]:
        return NAMES

    async def _free_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        """Cells where the caller may place a pylon now (none unless it is their turn)."""
        return await self.suggest(interaction, current, _free)

    @app_commands.command(name="place", description="Put a pylon on a free cell")
    @app_commands.describe(cell="A free cell such as K12 (columns A-X, rows 1-24)")
    @app_commands.autocomplete(cell=_free_cells)
    async def place(self, interaction: discord.Interaction, cell: str) -> None:
        if await self.not_cells(interaction, (cell, _free)):
            return
        await moves.act_from_command(interaction, f"place {cell}")


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(PylonsCog(bot))
