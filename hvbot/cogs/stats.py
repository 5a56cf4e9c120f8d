"""/stats: how people do in each game on this server, with an Elo rating per game.

`/stats me` answers only the caller (their record is theirs to share); `/stats server` is a
public board everyone in the channel may read. Both are read from finished games only, so they
never show anything hidden in a game still being played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import find_game
from hvbot.cogs.game import GAME_CHOICES
from hvbot.ratings import START
from hvbot.service import BotError
from hvbot.stats import GameSummary, PlayerStats, summaries

if TYPE_CHECKING:
    from hvbot.client import HvBot

TOP_PLAYERS = 5
EMBED_FIELDS = 25  # Discord's limit per embed; one field per game
NAME_LIMIT = 32  # Discord's own limit on display names; longer ones would crowd the board
COLOUR = discord.Colour.blurple()
RATING_NOTE = (
    f"Ratings are Elo, starting at {START:.0f}, from games between people; "
    "games against AI players count for everything else."
)
NOTHING_YET = "No finished {what}games on this server yet: start one with /game new."
NOT_YOU_YET = "You have not finished a {what}game on this server yet: start one with /game new."


def title_of(game: str) -> str:
    return find_game(game).title


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def name_of(player: PlayerStats) -> str:
    """A display name that reads as itself: no markdown, no pings, not too long."""
    name = player.name if len(player.name) <= NAME_LIMIT else player.name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def rating_text(player: PlayerStats) -> str:
    return str(player.rating.shown) if player.rating else "unrated"


def my_field(player: PlayerStats) -> str:
    """One person's line for one game in /stats me."""
    best = "-" if player.best is None else str(player.best)
    if player.rating:
        rating = f"rating **{player.rating.shown}**"
    else:
        rating = "no rating yet (play another person)"
    return (
        f"Played {player.played} · won {player.wins} ({player.win_rate:.0%})\n"
        f"Best score {best} · {rating}"
    )


def server_field(summary: GameSummary) -> str:
    """One game's board in /stats server: best score ever, then the top players."""
    lines = []
    if summary.best_by is not None:
        best = summary.players[summary.best_by]
        lines.append(f"Best score ever: **{summary.best}** by {name_of(best)}")
    for place, player in enumerate(summary.top(TOP_PLAYERS), start=1):
        lines.append(
            f"{place}. {name_of(player)}: {rating_text(player)} "
            f"({plural(player.played, 'game')}, {plural(player.wins, 'win')})"
        )
    return "\n".join(lines) or "No people have finished this game yet."


def me_embed(found: list[GameSummary], user_id: int) -> discord.Embed:
    embed = discord.Embed(title="Your stats on this server", colour=COLOUR)
    for summary in found[:EMBED_FIELDS]:
        embed.add_field(
            name=title_of(summary.game), value=my_field(summary.players[user_id]), inline=False
        )
    embed.set_footer(text=RATING_NOTE)
    return embed


def server_embed(found: list[GameSummary]) -> discord.Embed:
    embed = discord.Embed(title="Stats for this server", colour=COLOUR)
    for summary in found[:EMBED_FIELDS]:
        name = f"{title_of(summary.game)}: {plural(summary.finished, 'game')} finished"
        embed.add_field(name=name, value=server_field(summary), inline=False)
    embed.set_footer(text=RATING_NOTE)
    return embed


def what(game: str | None) -> str:
    """The words naming the games asked about, for the 'nothing yet' answers."""
    return f"{title_of(game)} " if game else ""


class StatsCog(commands.GroupCog, group_name="stats", group_description="Player statistics"):
    def __init__(self, bot: HvBot) -> None:
        self.bot = bot
        super().__init__()

    @staticmethod
    def _guild(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise BotError("Stats are kept per server: use /stats in a server channel.")
        return interaction.guild_id

    @app_commands.command(name="me", description="Your games, wins and rating here (only to you)")
    @app_commands.describe(game="Only this game (default: every game you have played)")
    @app_commands.choices(game=GAME_CHOICES)
    async def me(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = self._guild(interaction)
        repo = self.bot.service.repo
        found = await summaries(repo, guild_id=guild_id, user_id=interaction.user.id, game=game)
        if not found:
            played_here = await repo.games_with_results(guild_id=guild_id)
            anyone = game in played_here if game else bool(played_here)
            template = NOT_YOU_YET if anyone else NOTHING_YET
            text = template.format(what=what(game))
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.send_message(
            embed=me_embed(found, interaction.user.id), ephemeral=True
        )

    @app_commands.command(name="server", description="Top players and best scores on this server")
    @app_commands.describe(game="Only this game (default: every game played here)")
    @app_commands.choices(game=GAME_CHOICES)
    async def server(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = self._guild(interaction)
        found = await summaries(self.bot.service.repo, guild_id=guild_id, game=game)
        if not found:
            # Nothing to show the channel: only the person who asked is told.
            await interaction.response.send_message(
                NOTHING_YET.format(what=what(game)), ephemeral=True
            )
            return
        await interaction.response.send_message(
            embed=server_embed(found), allowed_mentions=discord.AllowedMentions.none()
        )
