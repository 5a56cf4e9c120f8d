"""/help: what the bot does and how a game begins, and in a channel with a game, that game's
own commands, each named as a mention the reader's Discord shows in their language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import Command, Texts, texts_for
from engine.registry import all_games, find_game
from hvbot.cogs.moves import group_of, in_private_channels
from hvbot.messages.limits import fitted
from hvbot.messages.presenters import presenter_for
from hvbot.plugins import private_channel_games

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


def private_channels(texts: Texts) -> str:
    """What differs in a DM or a group DM (see `GameRow.answers_only`), and its games."""
    private = private_channel_games()
    return texts(
        "bot.private.help",
        games=", ".join(f"**{find_game(name).title}**" for name in private),
        server_games=", ".join(
            f"**{game.title}**" for game in all_games() if game.name not in private
        ),
    )


class HelpCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @in_private_channels  # says what differs in a DM or a group DM
    @app_commands.command(
        name="help", description="What this bot does, and the commands of the game here"
    )
    async def help(self, interaction: discord.Interaction) -> None:
        texts = texts_for(interaction.locale)
        games = ", ".join(f"**{game.title}**" for game in all_games())
        lines = [texts("bot.help.intro", games=games), texts("bot.tournament_cmd.help")]
        here = await self.bot.service.games.in_channel(interaction.channel_id, interaction.user.id)
        if here is not None:
            group = group_of(self.bot, here.game_name)
            left_out = presenter_for(here.game_name).commands_left_out(here.options)
            lines.append(
                texts(
                    "bot.help.here",
                    game=find_game(here.game_name).title,
                    commands=Command(group, left_out) if group else Command("game board"),
                )
            )
        elif interaction.guild_id is not None:
            lines.append(texts("bot.help.none_here"))
        lines.append(private_channels(texts))
        await interaction.response.send_message(
            **fitted(
                content="\n\n".join(lines),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(HelpCog(bot))
