"""/stats: how people do in each game on this server, with a rating per game (and how strong
each of the game's AI levels plays: see `hvbot.services.ratings`).

`/stats me` answers only the caller (their record is theirs to share); `/stats server` is a
public board everyone in the channel may read. Each is limited to a few a minute per person
(the service's `throttle`). Both are read from finished games only, so they
never show anything hidden in a game still being played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import ENGLISH, Texts, texts_for
from engine.registry import find_game
from hvbot.cogs.options import GAME_CHOICES
from hvbot.messages.limits import fitted
from hvbot.messages.post import PRIVATE
from hvbot.messages.wording import shown
from hvbot.services import BotError
from hvbot.services.ratings import ORIGIN
from hvbot.services.stats import GameSummary, PlayerStats

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

TOP_PLAYERS = 5
EMBED_FIELDS = 25  # Discord's limit per embed; one field per game
NAME_LIMIT = 32  # Discord's own limit on display names; longer ones would crowd the board
COLOUR = discord.Colour.blurple()
# /stats me answers in the asker's language; /stats server posts in the server's.


def title_of(game: str) -> str:
    return find_game(game).title


def summary_title(summary: GameSummary, texts: Texts = ENGLISH) -> str:
    """The game's name, with its table size for a game rated per size."""
    title = title_of(summary.game)
    if summary.players_at is None:
        return title
    return texts("bot.ratings.at_table", game=title, count=summary.players_at)


def name_of(player: PlayerStats) -> str:
    """A display name that reads as itself: no markdown, no pings, no link (`shown`), not too
    long."""
    name = player.name if len(player.name) <= NAME_LIMIT else player.name[: NAME_LIMIT - 1] + "…"
    return shown(name)


def rating_text(player: PlayerStats, texts: Texts = ENGLISH) -> str:
    """ "1234", "1234?" while uncertain, or "unrated"."""
    return player.rating.text() if player.rating else texts("bot.stats.unrated")


def rating_note(texts: Texts = ENGLISH) -> str:
    return texts("bot.stats.rating_note", start=f"{ORIGIN:.0f}")


def ai_line(ai: PlayerStats, texts: Texts = ENGLISH) -> str:
    """One AI level's line in /stats server: how strong it has shown itself here."""
    key = f"bot.level.{ai.level}"
    level = texts(key) if texts.has(key) else str(ai.level)
    return texts(
        "bot.ratings.ai",
        level=level,
        rating=rating_text(ai, texts),
        games=texts("bot.stats.games", count=ai.played),
        wins=texts("bot.stats.wins", count=ai.wins),
    )


def my_field(player: PlayerStats, texts: Texts = ENGLISH) -> str:
    """One person's line for one game in /stats me."""
    best = "-" if player.best is None else str(player.best)
    if player.rating:
        rating = texts("bot.stats.rating", rating=player.rating.text())
    else:
        rating = texts("bot.stats.no_rating")
    return texts(
        "bot.stats.mine",
        played=player.played,
        wins=player.wins,
        rate=f"{player.win_rate:.0%}",
        best=best,
        rating=rating,
    )


def server_field(summary: GameSummary, texts: Texts = ENGLISH) -> str:
    """One game's board in /stats server: best score ever, the top players, then the AI
    levels that played, strongest first."""
    lines = []
    if summary.best_by is not None:
        best = summary.players[summary.best_by]
        lines.append(texts("bot.stats.best_ever", score=summary.best, player=name_of(best)))
    for place, player in enumerate(summary.top(TOP_PLAYERS), start=1):
        lines.append(
            texts(
                "bot.stats.top",
                place=place,
                player=name_of(player),
                rating=rating_text(player, texts),
                games=texts("bot.stats.games", count=player.played),
                wins=texts("bot.stats.wins", count=player.wins),
            )
        )
    if not lines:
        lines.append(texts("bot.stats.nobody"))
    lines += [ai_line(ai, texts) for ai in summary.ai_lines()]
    return "\n".join(lines)


def me_embed(found: list[GameSummary], user_id: int, texts: Texts = ENGLISH) -> discord.Embed:
    embed = discord.Embed(title=texts("bot.stats.me_title"), colour=COLOUR)
    for summary in found[:EMBED_FIELDS]:
        embed.add_field(
            name=summary_title(summary, texts),
            value=my_field(summary.players[user_id], texts),
            inline=False,
        )
    embed.set_footer(text=rating_note(texts))
    return embed


def server_embed(found: list[GameSummary], texts: Texts = ENGLISH) -> discord.Embed:
    embed = discord.Embed(title=texts("bot.stats.server_title"), colour=COLOUR)
    for summary in found[:EMBED_FIELDS]:
        name = texts(
            "bot.stats.finished", game=summary_title(summary, texts), count=summary.finished
        )
        embed.add_field(name=name, value=server_field(summary, texts), inline=False)
    embed.set_footer(text=rating_note(texts))
    return embed


def nothing_yet(texts: Texts, game: str | None, *, anyone: bool = False) -> str:
    """Nobody (or, with `anyone`, everyone but the asker) has finished such a game here."""
    if anyone:
        key = "bot.stats.not_you_game" if game else "bot.stats.not_you"
    else:
        key = "bot.stats.nothing_game" if game else "bot.stats.nothing"
    return texts(key, game=title_of(game)) if game else texts(key)


class StatsCog(commands.GroupCog, group_name="stats", group_description="Player statistics"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @staticmethod
    def _guild(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise BotError(
                "Stats are kept per server: use /stats in a server channel.",
                key="bot.error.stats_server_only",
            )
        return interaction.guild_id

    @app_commands.command(name="me", description="Your games, wins and rating here (only to you)")
    @app_commands.describe(game="Only this game (default: every game you have played)")
    @app_commands.choices(game=GAME_CHOICES)
    async def me(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = self._guild(interaction)
        self.bot.service.throttle.check("stats me", interaction.user.id)
        texts = texts_for(interaction.locale)
        stats = self.bot.service.stats
        found = await stats.summaries(guild_id=guild_id, user_id=interaction.user.id, game=game)
        if not found:
            played_here = await stats.games_played(guild_id=guild_id)
            anyone = game in played_here if game else bool(played_here)
            text = nothing_yet(texts, game, anyone=anyone)
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=PRIVATE)
            return
        await interaction.response.send_message(
            **fitted(
                embed=me_embed(found, interaction.user.id, texts),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            )
        )

    @app_commands.command(name="server", description="Top players and best scores on this server")
    @app_commands.describe(game="Only this game (default: every game played here)")
    @app_commands.choices(game=GAME_CHOICES)
    async def server(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = self._guild(interaction)
        self.bot.service.throttle.check("stats server", interaction.user.id)
        found = await self.bot.service.stats.summaries(guild_id=guild_id, game=game)
        if not found:
            # Nothing to show the channel: only the person who asked is told.
            await interaction.response.send_message(
                nothing_yet(texts_for(interaction.locale), game),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            )
            return
        await interaction.response.send_message(
            **fitted(
                embed=server_embed(found, texts_for(interaction.guild_locale)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (see `GameBot.setup_hook`)."""
    await bot.add_cog(StatsCog(bot))
