"""/server settings: what a server's owners decide for the games played in it. Discord shows
the command only to members with Manage Server (`default_permissions`), and the server's
admins can give it to others in Discord's own Integrations page, so the bot asks nothing more
of whoever sends it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import Option, Texts, language_of, texts_for
from hvbot.cogs.options import (
    CLOCK_CHOICES,
    FORGET_CHOICES,
    LANGUAGE_CHOICES,
    SEASON_CHOICES,
    TIMEOUT_CHOICES,
)
from hvbot.infra import links
from hvbot.messages.limits import fitted
from hvbot.services import MAX_ABSENT_HOURS, MAX_REMIND_MINUTES
from hvbot.services.season_ends import RANKED_PER_GAME
from hvbot.services.seasons import season_at
from hvbot.services.server_settings import (
    DEFAULT_ABSENT_HOURS,
    DEFAULT_REMIND_MINUTES,
    GAMES_PER_CHANNEL_RANGE,
    LOBBY_HOURS_RANGE,
    MOST_OPEN_RANGE,
    Change,
    games_per_channel,
    lobby_hours,
    most_open,
)
from hvbot.store import ServerSettings, TurnClock

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


class Place(app_commands.Transformer):
    """A channel option offering text channels and categories (every channel in one), as the
    places where games may be opened; read as Discord sends it, so a channel the bot has not
    seen yet is as good as any."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.category]

    async def transform(
        self, interaction: discord.Interaction, value: app_commands.AppCommandChannel
    ) -> app_commands.AppCommandChannel:
        return value


class TextChannelOption(Place):
    """A text channel option (where a season's end is announced), read as Discord sends it,
    as `Place` is."""

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerCog(
    commands.GroupCog,
    group_name="server",
    group_description="Settings for this server's games (server managers)",
):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="settings", description="Show this server's game settings, or change those given"
    )
    @app_commands.describe(
        allow="Games may be opened in this channel or category (add one at a time)",
        disallow="Take a channel or category off the places for games",
        opener_role="Only members with this role open games (@everyone: anyone)",
        moderator_role="Members with this role moderate games, as Manage Messages does",
        language="The language of the server's public game posts",
        reminder="New games: minutes before the player to move is reminded (0: never)",
        absent="New games: hours before the others may vote to replace an absent player",
        clock="New games: time each player has for a move",
        timeout="New games: what happens when a player's time runs out",
        most_open="How many open lobbies and games one member may have",
        lobby_hours="Hours an unstarted lobby lives before it closes itself",
        games_per_channel="How many games one channel holds at once, each in its own thread",
        season="How long a season of leaderboards lasts (UTC calendar), or off",
        season_channel="Where a season's end and its final leaderboards are announced",
        rank_role="The role the best players of each game get at a season's end (@everyone: none)",
        live_board="Whether board posts link to the game's live board on the web",
        forget="Put one setting back to its default",
    )
    @app_commands.choices(
        season=SEASON_CHOICES,
        language=LANGUAGE_CHOICES,
        clock=CLOCK_CHOICES,
        timeout=TIMEOUT_CHOICES,
        forget=FORGET_CHOICES,
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        allow: app_commands.Transform[app_commands.AppCommandChannel, Place] | None = None,
        disallow: app_commands.Transform[app_commands.AppCommandChannel, Place] | None = None,
        opener_role: discord.Role | None = None,
        moderator_role: discord.Role | None = None,
        language: str | None = None,
        reminder: app_commands.Range[int, 0, MAX_REMIND_MINUTES] | None = None,
        absent: app_commands.Range[int, 0, MAX_ABSENT_HOURS] | None = None,
        clock: int | None = None,
        timeout: str = "ai_move",
        most_open: app_commands.Range[int, MOST_OPEN_RANGE[0], MOST_OPEN_RANGE[1]] | None = None,
        lobby_hours: app_commands.Range[int, LOBBY_HOURS_RANGE[0], LOBBY_HOURS_RANGE[1]]
        | None = None,
        games_per_channel: app_commands.Range[
            int, GAMES_PER_CHANNEL_RANGE[0], GAMES_PER_CHANNEL_RANGE[1]
        ]
        | None = None,
        season: str | None = None,
        season_channel: app_commands.Transform[app_commands.AppCommandChannel, TextChannelOption]
        | None = None,
        rank_role: discord.Role | None = None,
        live_board: bool | None = None,
        forget: str | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # the group is registered for servers only
        change = Change(
            allow=allow.id if allow else None,
            disallow=disallow.id if disallow else None,
            opener_role=opener_role.id if opener_role else None,
            moderator_role=moderator_role.id if moderator_role else None,
            language=language,
            reminder=reminder,
            absent=absent,
            clock=TurnClock(clock, timeout) if clock is not None else None,
            most_open=most_open,
            lobby_hours=lobby_hours,
            games_per_channel=games_per_channel,
            season=season,
            season_channel=season_channel.id if season_channel else None,
            rank_role=rank_role.id if rank_role else None,
            live_board=live_board,
            forget=forget,
        )
        service = self.bot.service.server_settings
        settings = await service.change(guild_id, change)  # nothing given: nothing stored
        texts = texts_for(interaction.locale)
        shown = settings_text(
            settings,
            texts,
            server_language=language_of(interaction.guild_locale),
            now=self.bot.service.clock(),
            manage_roles=interaction.app_permissions.manage_roles,
        )
        heading = texts("bot.server.changed" if not change.empty else "bot.server.heading")
        await interaction.response.send_message(
            **fitted(
                content=f"{heading}\n{shown}",
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )


def settings_text(
    settings: ServerSettings,
    texts: Texts,
    *,
    server_language: str,
    now: datetime | None = None,
    manage_roles: bool = True,
) -> str:
    """A server's settings as they stand, one line each, in the reader's language; the
    seasons' lines say what is missing for them to work (a channel to announce in, the bot's
    Manage Roles permission, which `manage_roles` says it has)."""
    places = ", ".join(f"<#{place}>" for place in settings.game_places)
    clock = settings.clock
    language = settings.language or server_language
    lines = [
        texts("bot.server.places", places=places) if places else texts("bot.server.anywhere"),
        texts("bot.server.openers", role=f"<@&{settings.opener_role}>")
        if settings.opener_role
        else texts("bot.server.everyone_opens"),
        texts("bot.server.moderators", role=f"<@&{settings.moderator_role}>")
        if settings.moderator_role
        else texts("bot.server.moderators_by_permission"),
        texts(
            "bot.server.own_language" if settings.language is None else "bot.server.language",
            language=texts(f"bot.language_names.{language}"),
        ),
        texts(
            "bot.server.new_games",
            reminder=texts(
                "bot.time.minutes", count=_or(settings.remind_minutes, DEFAULT_REMIND_MINUTES)
            ),
            absent=texts("bot.time.hours", count=_or(settings.absent_hours, DEFAULT_ABSENT_HOURS)),
            clock=texts(f"commands.choices.clock.{clock.minutes}")
            + f" ({texts(f'commands.choices.timeout.{clock.timeout}')})"
            if clock
            else texts("commands.choices.clock.0"),
        ),
        texts(
            "bot.server.limits",
            count=most_open(settings),
            hours=texts("bot.time.hours", count=lobby_hours(settings)),
        ),
        texts("bot.server.per_channel", count=games_per_channel(settings)),
        *season_lines(settings, texts, now=now or datetime.now(UTC), manage_roles=manage_roles),
    ]
    if links.current() is not None:  # the bot serves live boards: the server may turn them off
        on = settings.live_links is not False
        lines.append(texts("bot.web.settings_on" if on else "bot.web.settings_off"))
    return "\n".join(lines)


def season_lines(
    settings: ServerSettings, texts: Texts, *, now: datetime, manage_roles: bool
) -> list[str]:
    """The seasons' settings: their length and the season now, where their end is told, and
    the rank role, with what keeps it from being given."""
    current = season_at(settings.season_length or "off", now)
    if current is None:
        return [texts("bot.season.settings_off")]
    lines = [
        texts(
            "bot.season.settings_on",
            length=texts(f"bot.season.length_{settings.season_length}"),
            season=current.label,
        ),
        texts("bot.season.settings_channel", channel=f"<#{settings.season_channel}>")
        if settings.season_channel
        else texts(
            "bot.season.settings_no_channel", option=Option("server settings season_channel")
        ),
    ]
    if settings.rank_role is None:
        lines.append(texts("bot.season.ranks_off"))
    else:
        role = f"<@&{settings.rank_role}>"
        lines.append(texts("bot.season.ranks_on", role=role, count=RANKED_PER_GAME))
        if not manage_roles:
            lines.append(texts("bot.season.ranks_no_permission", role=role))
    return lines


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(ServerCog(bot))
