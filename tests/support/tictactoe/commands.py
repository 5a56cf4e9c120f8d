"""/ttt: marking a cell, the game's one move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from hvbot.cogs.moves import Choices, GameMoves
from hvbot.handlers import moves
from tictactoe.rules import GAME_NAME

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


class TicTacToeCog(GameMoves, group_name="ttt", group_description="Tic-tac-toe moves"):
    game = GAME_NAME

    async def _free_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        """The free cells, matching what is typed so far, offered to the player to move only
        (the engine answers none for anyone else)."""
        return await self.suggest(
            interaction, current, lambda state, seat: state.targets(seat, "mark.cell")
        )

    @app_commands.command(name="mark", description="Put your mark on a free cell")
    @app_commands.describe(cell="A free cell such as B2 (columns A-C, rows 1-3)")
    @app_commands.autocomplete(cell=_free_cells)
    async def mark(self, interaction: discord.Interaction, cell: str) -> None:
        await moves.act_from_command(interaction, f"mark {cell}")


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(TicTacToeCog(bot))
