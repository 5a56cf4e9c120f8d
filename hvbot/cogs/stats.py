"""/stats: how people do in each game on this server, with a rating per game (and how strong
each of the game's AI levels plays: see `hvbot.services.ratings`).

`/stats me` answers only the caller (their record is theirs to share) with a picture of it:
each game's rating and its history, games finished and abandoned, median time to move, best
results. `/stats server` is a public board everyone in the channel may read: a leaderboard
picture per game. Each picture comes with its text twin as alt text
(`hvbot.messages.leaderboards`). On a server with seasons, both show the season running beside
all time (each game's season board before its all-time one; the season's rating, games and
wins in each game's band of the record), and `season:` reads one season alone, counted as its
end counts it (`hvbot.services.season_stats`), offered by autocomplete. Each is limited to a
few a minute per person (the service's `throttle`). Both are read from finished games only, so
they never show anything hidden in a game still being played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import Command, Texts, texts_for
from engine.registry import find_game
from hvbot.cogs.options import GAME_CHOICES
from hvbot.handlers.answering import make_way, quiet_autocomplete
from hvbot.messages import leaderboards
from hvbot.messages.leaderboards import Beside
from hvbot.messages.outgoing import PRIVATE, send_kwargs, send_private
from hvbot.messages.post import Post
from hvbot.services import BotError
from hvbot.services.stats import GameSummary

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

# /stats me answers in the asker's language; /stats server posts in the server's.
MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices


def titles_of(found: list[GameSummary]) -> dict[str, str]:
    """Each game's name as players read it, by the game's key."""
    return {summary.game: find_game(summary.game).title for summary in found}


def title_of(game: str) -> str:
    return find_game(game).title


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
                "Stats are kept per server: use /stats me in a server channel.",
                key="bot.error.stats_server_only",
                command=Command("stats me"),
            )
        return interaction.guild_id

    async def _beside(self, guild_id: int, user_id: int | None = None) -> Beside | None:
        """The season running on the server and its boards so far (only those `user_id`
        played, if given), to show beside all time; None while seasons are off there."""
        seasons = self.bot.service.season_stats
        current = await seasons.current(guild_id)
        if current is None:
            return None
        return Beside(current, await seasons.boards(guild_id, current, user_id=user_id))

    @app_commands.command(name="me", description="Your games, wins and rating here (only to you)")
    @app_commands.describe(
        game="Only this game (default: every game you have played)",
        season="A season to show, e.g. 2026-11 (default: all time, beside the current season)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def me(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        guild_id = self._guild(interaction)
        self.bot.service.throttle.check("stats me", interaction.user.id)
        if season is not None:
            await self._my_season(interaction, guild_id, game, season)
            return
        texts = texts_for(interaction.locale)
        stats = self.bot.service.stats
        found = await stats.summaries(guild_id=guild_id, user_id=interaction.user.id, game=game)
        if not found:
            played_here = await stats.games_played(guild_id=guild_id)
            anyone = game in played_here if game else bool(played_here)
            text = nothing_yet(texts, game, anyone=anyone)
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=PRIVATE)
            return
        # A picture to draw: answered "thinking" at once, privately, so Discord's three
        # seconds never run out behind boards being drawn.
        await interaction.response.defer(thinking=True, ephemeral=True)
        habits = await stats.habits(guild_id=guild_id, user_id=interaction.user.id)
        post = await leaderboards.me_post(
            found,
            habits,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            titles=titles_of(found),
            texts=texts,
            beside=await self._beside(guild_id, interaction.user.id),
        )
        await _private(interaction, post)

    async def _my_season(
        self, interaction: discord.Interaction, guild_id: int, game: str | None, typed: str
    ) -> None:
        """/stats me season: the person's record in that season alone."""
        texts = texts_for(interaction.locale)
        seasons = self.bot.service.season_stats
        season = await seasons.named(guild_id, typed)
        user_id = interaction.user.id
        boards = await seasons.boards(guild_id, season, game=game, user_id=user_id)
        if not boards:
            key = "bot.season_stats.not_you_game" if game else "bot.season_stats.not_you"
            text = texts(key, season=season.label, game=title_of(game) if game else "")
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=PRIVATE)
            return
        await interaction.response.defer(thinking=True, ephemeral=True)
        found = [board.summary for board in boards]
        habits = await self.bot.service.stats.habits(
            guild_id=guild_id, user_id=user_id, season=season
        )
        post = await leaderboards.me_post(
            found,
            habits,
            user_id=user_id,
            name=interaction.user.display_name,
            titles=titles_of(found),
            texts=texts,
            season=season,
        )
        await _private(interaction, post)

    @app_commands.command(name="server", description="Top players and best scores on this server")
    @app_commands.describe(
        game="Only this game (default: every game played here)",
        season="A season to show, e.g. 2026-11 (default: all time, beside the current season)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def server(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        guild_id = self._guild(interaction)
        self.bot.service.throttle.check("stats server", interaction.user.id)
        if season is not None:
            await self._server_season(interaction, guild_id, game, season)
            return
        found = await self.bot.service.stats.summaries(guild_id=guild_id, game=game)
        if not found:
            # Nothing to show the channel: only the person who asked is told.
            await interaction.response.send_message(
                nothing_yet(texts_for(interaction.locale), game),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            )
            return
        await interaction.response.defer(thinking=True)  # public: the pictures take a moment
        beside = await self._beside(guild_id)
        if beside is not None and game is not None:
            beside = Beside(beside.season, [b for b in beside.boards if b.game == game])
        post = await leaderboards.server_post(
            found,
            now=self.bot.service.clock(),
            titles=titles_of(found),
            texts=texts_for(interaction.guild_locale),
            beside=beside,
        )
        await _public(interaction, post)

    async def _server_season(
        self, interaction: discord.Interaction, guild_id: int, game: str | None, typed: str
    ) -> None:
        """/stats server season: that season's boards alone, for the channel."""
        seasons = self.bot.service.season_stats
        season = await seasons.named(guild_id, typed)
        boards = await seasons.boards(guild_id, season, game=game)
        if not boards:
            texts = texts_for(interaction.locale)
            if game is None:  # only a stamp the season's own test reads otherwise
                text = texts("bot.season.no_games")
            else:
                text = texts(
                    "bot.season_stats.nothing_game", season=season.label, game=title_of(game)
                )
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=PRIVATE)
            return
        await interaction.response.defer(thinking=True)
        post = await leaderboards.season_server_post(
            season, boards, texts=texts_for(interaction.guild_locale)
        )
        await _public(interaction, post)

    @me.autocomplete("season")
    @quiet_autocomplete
    async def me_season_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._season_choices(interaction, current)

    @server.autocomplete("season")
    @quiet_autocomplete
    async def server_season_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._season_choices(interaction, current)

    async def _season_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's seasons with finished games, the latest first, those holding what
        was typed; none outside a server or while seasons are off."""
        if interaction.guild_id is None:
            return []
        played = await self.bot.service.season_stats.played(interaction.guild_id)
        typed = current.strip().upper()
        labels = [s.label for s in played if typed in s.label.upper()]
        return [app_commands.Choice(name=label, value=label) for label in labels[:MAX_CHOICES]]


async def _private(interaction: discord.Interaction, post: Post) -> None:
    """A card for the asker alone, answering its private "thinking…": the thinking goes
    first and the card comes as its own message (see `make_way`)."""
    await make_way(interaction.followup, post)
    await send_private(interaction, post)


async def _public(interaction: discord.Interaction, post: Post) -> None:
    """A board for the channel: public, and pinging nobody whatever the names on it. A card
    with pictures: its "thinking…" goes first, and it comes as its own message (see
    `make_way`)."""
    await make_way(interaction.followup, post)
    await interaction.followup.send(
        **{**send_kwargs(post), "allowed_mentions": discord.AllowedMentions.none()}
    )


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(StatsCog(bot))
