"""/tournament: Swiss and round robin tournaments in a server's channel, played over days with
turn clocks (what they do is `hvbot.services.tournaments`'; what is said, `hvbot.messages.
tournaments`'; the answers, `hvbot.handlers.tournament`'s).

`/tournament new` takes the game and its options as /game new does (the same choices, the
same names in every language), the format, the table size, the turn clock (required: a
round must end) and what its running out does, an optional start time and a most of
entrants; the sign-up post it owes carries the Join and Leave buttons. The others act on the
channel's open tournament (from a table game's thread too): its creator or a moderator
starts, pauses, resumes or cancels it; a moderator removes a member; anyone leaves it or
reads its standings, privately or for the channel as /stats does.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import language_of, texts_for
from hvbot.cogs.game import mode_options
from hvbot.cogs.options import (
    CLOCK_CHOICES,
    GAME_CHOICES,
    GAMES_WITH_MODES,
    MODE_CHOICES,
    TIMEOUT_CHOICES,
)
from hvbot.handlers import answering
from hvbot.handlers import tournament as handling
from hvbot.handlers.lobby import moderators_only, places_of, role_ids
from hvbot.messages import tournaments as tournament_posts
from hvbot.messages.outgoing import PRIVATE, send_kwargs, send_private
from hvbot.messages.translator import choice
from hvbot.messages.wording import language, personal, shown
from hvbot.services import BotError
from hvbot.services.lobby import may_open_here
from hvbot.services.quiet_hours import zone_choices
from hvbot.services.tournaments import MOST_ENTRANTS, MOST_ROUNDS

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

# A tournament's clock is required, and its running out must end a turn for good: an AI
# playing one move would leave a player who never comes back holding up the round.
TOURNAMENT_CLOCKS = [c for c in CLOCK_CHOICES if c.value != 0]
TOURNAMENT_TIMEOUTS = [c for c in TIMEOUT_CHOICES if c.value in ("end", "ai_seat")]
FORMAT_CHOICES = [
    choice(name, value, key=f"commands.choices.tournament_format.{value}")
    for value, name in (
        ("swiss", "Swiss: players of equal points meet, for a set number of rounds"),
        ("round_robin", "round robin: everyone meets everyone (3 to 8 players)"),
    )
]
TABLE_CHOICES = [
    choice(name, value, key=f"commands.choices.tournament_table.{value.replace('-', '_')}")
    for value, name in (
        ("2", "2 players"),
        ("3", "3 players"),
        ("4", "4 players"),
        ("3-4", "3 or 4 players"),
    )
]
NAME_LONGEST = 80  # a tournament's name heads its posts and pictures
FEWEST_ENTRANTS = 4  # the `most` option's least: two tables of two
MAX_CHOICES = 25  # Discord's limit on autocomplete choices


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog,
    group_name="tournament",
    group_description="Swiss and round robin tournaments in this server",
):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="Which game to play",
        clock="Time each player has for a move (a tournament needs a clock)",
        format="Swiss (default) or round robin",
        rounds="Swiss: how many rounds (default: enough to find a winner)",
        table="Players at a table (default: 2)",
        timeout="What happens when a player's time runs out (default: the game ends)",
        mode=app_commands.locale_str(
            f"{GAMES_WITH_MODES} only: how much of the rules to use", games=GAMES_WITH_MODES
        ),
        start="When it starts by itself: HH:MM or YYYY-MM-DD HH:MM (default: when started)",
        zone="The time zone of the start time, like Europe/Rome (default: UTC)",
        most="How many may sign up at most (default: 64)",
        title="The tournament's name (default: the game's)",
    )
    @app_commands.rename(title="name")
    @app_commands.choices(
        game=GAME_CHOICES,
        clock=TOURNAMENT_CLOCKS,
        format=FORMAT_CHOICES,
        table=TABLE_CHOICES,
        timeout=TOURNAMENT_TIMEOUTS,
        mode=MODE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        clock: int,
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, MOST_ROUNDS] | None = None,
        table: str = "2",
        timeout: str = "end",
        mode: str | None = None,
        start: str | None = None,
        zone: str | None = None,
        most: app_commands.Range[int, FEWEST_ENTRANTS, MOST_ENTRANTS] | None = None,
        title: app_commands.Range[str, 1, NAME_LONGEST] | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if isinstance(interaction.channel, discord.Thread):
            raise BotError(
                "A tournament lives in a channel, and its games in that channel's threads: "
                "use /tournament new in the channel itself.",
                key="bot.tournament_cmd.not_in_thread",
            )
        service = self.bot.service
        moderator = await handling.moderates(interaction)
        settings = await service.server_settings.of(interaction.guild_id)
        roles = role_ids(interaction)
        # Where games may be opened, and whether this person may: as /game new asks.
        may_open_here(settings, places_of(interaction), roles, moderator=moderator)
        # A tournament is opened by moderators, or by the members the server's opener role
        # names; on a server where anyone opens games, a tournament stays with moderators.
        may_open = moderator or (settings.opener_role is not None and settings.opener_role in roles)
        now = service.clock()
        change = await service.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            may_open=may_open,
            game=game,
            options=mode_options(game, mode) or {},
            format=format,
            rounds=rounds,
            table=table,
            turn_clock=timedelta(minutes=clock),
            timeout=timeout,
            starts_at=handling.start_time(start, zone, now) if start is not None else None,
            most=most,
            name=title,
            language=language_of(interaction.guild_locale),
        )
        await answering.answer_after_change(
            change.tournament.id,
            interaction.response.send_message(
                personal(interaction)(
                    "bot.tournament_cmd.opened", name=shown(change.tournament.name)
                ),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            ),
        )
        await self.bot.aftermath.follow(change)

    @new.autocomplete("zone")
    @answering.quiet_autocomplete
    async def zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_choices(current, MAX_CHOICES)]

    @app_commands.command(name="join", description="Sign up for this channel's tournament")
    async def join(self, interaction: discord.Interaction) -> None:
        user = interaction.user
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.join(
                t.id, user.id, name=user.display_name, language=language(interaction)
            ),
            "bot.tournament_cmd.joined",
        )

    @app_commands.command(
        name="leave",
        description="Leave this channel's tournament (after the start: not paired again)",
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.leave(t.id, interaction.user.id),
            "bot.tournament_cmd.left",
        )

    @app_commands.command(
        name="start", description="Start the tournament now (its creator or moderators)"
    )
    async def start(self, interaction: discord.Interaction) -> None:
        manage = await handling.moderates(interaction)
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.start(
                t.id, interaction.user.id, can_manage=manage
            ),
            "bot.tournament_cmd.started",
        )

    @app_commands.command(
        name="remove",
        description="Moderators: take a member out; their game under way counts as resigned",
    )
    @app_commands.describe(member="Who leaves the tournament")
    async def remove(self, interaction: discord.Interaction, member: discord.Member) -> None:
        if not await handling.moderates(interaction):
            raise moderators_only()
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.remove(t.id, member.id, by=interaction.user.id),
            "bot.tournament_cmd.removed",
            member=member.mention,
        )

    @app_commands.command(
        name="pause", description="No new round is paired until resumed (creator or moderators)"
    )
    async def pause(self, interaction: discord.Interaction) -> None:
        manage = await handling.moderates(interaction)
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.pause(
                t.id, by=interaction.user.id, can_manage=manage
            ),
            "bot.tournament_cmd.paused",
        )

    @app_commands.command(
        name="resume", description="Pair rounds again after a pause (creator or moderators)"
    )
    async def resume(self, interaction: discord.Interaction) -> None:
        manage = await handling.moderates(interaction)
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.resume(
                t.id, by=interaction.user.id, can_manage=manage
            ),
            "bot.tournament_cmd.resumed",
        )

    @app_commands.command(
        name="cancel",
        description=(
            "End the tournament: no more rounds; games under way go on (creator or moderators)"
        ),
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        manage = await handling.moderates(interaction)
        await handling.act(
            interaction,
            lambda t: self.bot.service.tournaments.cancel(
                t.id, by=interaction.user.id, can_manage=manage
            ),
            "bot.tournament_cmd.cancelled",
        )

    @app_commands.command(
        name="standings", description="Where everyone stands in this channel's tournament"
    )
    @app_commands.describe(public="True to show it to the channel (default: only to you)")
    async def standings(self, interaction: discord.Interaction, public: bool = False) -> None:
        tournament = await handling.here(interaction)
        self.bot.service.throttle.check("tournament standings", interaction.user.id)
        standing = await self.bot.service.tournaments.standing(tournament.id)
        # Public, in the tournament's language, as its own posts; private, in the asker's.
        texts = texts_for(tournament.language) if public else personal(interaction)
        await interaction.response.defer(thinking=True, ephemeral=not public)
        post = await tournament_posts.standings_post(standing, texts)
        # A card with a picture: the thinking goes first, the card comes as its own message.
        await answering.make_way(interaction.followup, post)
        if public:
            await interaction.followup.send(
                **{**send_kwargs(post), "allowed_mentions": discord.AllowedMentions.none()}
            )
        else:
            await send_private(interaction, post)


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(TournamentCog(bot))
