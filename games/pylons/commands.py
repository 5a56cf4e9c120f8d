"""/pylons: placing a pylon. The opening keep-or-mirror choice comes as buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from hvbot.cogs.moves import Choices, GameMoves
from hvbot.handlers import moves

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


class PylonsCog(GameMoves, group_name="pylons", group_description="Pylons moves"):
    game = "pylons"

    async def _free_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        """Cells where the caller may place a pylon now (none unless it is their turn)."""
        return await self.suggest(
            interaction, current, lambda state, seat: state.targets(seat, "place.cell")
        )

    @app_commands.command(name="place", description="Put a pylon on a free cell")
    @app_commands.describe(cell="A free cell such as K12 (columns A-X, rows 1-24)")
    @app_commands.autocomplete(cell=_free_cells)
    async def place(self, interaction: discord.Interaction, cell: str) -> None:
        await moves.act_from_command(interaction, f"place {cell}")


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (see `GameBot.setup_hook`)."""
    await bot.add_cog(PylonsCog(bot))
