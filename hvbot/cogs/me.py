"""/me: what is a person's own, wherever they play: their open games in this server, those
waiting for them first, each with a link to where it is played, and the games they follow
there; and time away from them
(`/me away`, `/me back`), their clocks and reminders standing still meanwhile."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import Command, Option, Texts, texts_for
from engine.registry import find_game
from hvbot.cogs.options import EVERY_CHOICES_SHOWN, WHERE_CHOICES
from hvbot.handlers.answering import quiet_autocomplete
from hvbot.messages import game_posts, time_words
from hvbot.messages.limits import fit_sections, fitted
from hvbot.messages.outgoing import PRIVATE
from hvbot.messages.wording import shown
from hvbot.services import BotError
from hvbot.services.notify import quiet_hours
from hvbot.services.quiet_hours import zone_choices
from hvbot.services.seat_names import said
from hvbot.services.time_away import MOST_DAYS, Away, mark
from hvbot.store import GameRow, NotifySettings
from hvbot.store.sql import stamp

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

MOST_GAMES = 20  # listed at most: a person rarely plays more at once, and a reply is short


def game_line(
    game: GameRow, user_id: int, to_move: int | None, texts: Texts, now: datetime | None = None
) -> str:
    """One game of the list, in the asker's language. A person away (/me away) at `now`
    is told that their clock stands still until they are back, not when it would run out:
    their deadline has been moved past their time away."""
    title = find_game(game.game_name).title
    where = f"<#{game.post_channel_id}>"
    if game.status == "lobby":
        return texts("bot.me.lobby", game=title, where=where, count=len(game.seats))
    if to_move is None:
        return texts("bot.me.nobody", game=title, where=where)
    seat = game.seats[to_move]
    if seat.user_id == user_id:
        until = seat.away_at(stamp(now)) if now is not None else None
        if until is not None and game.clock is not None:
            return texts(
                "bot.me_away.your_turn",
                game=title,
                where=where,
                until=mark(datetime.fromisoformat(until)),
            )
        clock = time_words.deadline_mark(game)
        key = "bot.me.your_turn_clock" if clock else "bot.me.your_turn"
        return texts(key, game=title, where=where, when=clock or "")
    return texts("bot.me.their_turn", game=title, where=where, player=said(seat, texts, shown))


def followed_line(game: GameRow, texts: Texts) -> str:
    """One game the person follows, with a link to where it is played."""
    title = find_game(game.game_name).title
    return texts(
        "bot.follow.me_line", game=title, number=game.id, where=f"<#{game.post_channel_id}>"
    )


def games_reply(
    own: list[tuple[GameRow, int | None]],
    followed: list[GameRow],
    user_id: int,
    texts: Texts,
    now: datetime | None = None,
) -> str:
    """/me games: the person's open games (each with the seat to move, if started), those
    waiting for them first, then the games they follow, within one message: if the lists
    are too long, they end with how many more there are (see `fit_sections`)."""
    if own:
        listed = sorted(
            (
                to_move is None or game.seats[to_move].user_id != user_id,
                game.id,
                game_line(game, user_id, to_move, texts, now),
            )
            for game, to_move in own
        )
        sections = [(texts("bot.me.heading", count=len(own)), [f"- {line}" for *_, line in listed])]
    else:
        sections = [(texts("bot.me.none"), [])]
    if followed:
        sections.append(
            (
                texts("bot.follow.me_heading", count=len(followed)),
                [f"- {followed_line(game, texts)}" for game in followed],
            )
        )
    return fit_sections(sections, lambda count: texts("bot.me_games.more", count=count))


def server_only(command: str) -> BotError:
    return BotError(
        f"Games are played in a server: use /me {command} in one of its channels.",
        key="bot.error.me_server_only",
        command=Command(f"me {command}"),
    )


class MeCog(commands.GroupCog, group_name="me", group_description="Your own games"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="games", description="Your open games in this server, those waiting for you first"
    )
    async def games(self, interaction: discord.Interaction) -> None:
        texts = texts_for(interaction.locale)
        if interaction.guild_id is None:
            raise server_only("games")
        service = self.bot.service
        user_id = interaction.user.id
        found = await service.open_games_of(
            guild_id=interaction.guild_id, user_id=user_id, most=MOST_GAMES
        )
        followed = [
            g for g in await service.follows.followed(user_id) if g.guild_id == interaction.guild_id
        ]
        service = self.bot.service
        own = [
            (
                game,
                service.games.peek_state(game).current_seat() if game.status == "active" else None,
            )
            for game in found
        ]
        await interaction.response.send_message(
            **fitted(
                content=games_reply(own, followed, user_id, texts, service.clock()),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )

    @app_commands.command(
        name="away", description="Away for some days: your clocks and reminders here wait"
    )
    @app_commands.describe(days="How many days (1 to 14)")
    async def away(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, MOST_DAYS]
    ) -> None:
        if interaction.guild_id is None:
            raise server_only("away")
        away = await self.bot.service.time_away.go_away(
            guild_id=interaction.guild_id, user_id=interaction.user.id, days=days
        )
        assert away.until is not None
        texts = texts_for(interaction.locale)
        await interaction.response.send_message(
            texts("bot.me.away", until=mark(away.until), count=len(away.games)),
            ephemeral=True,
            allowed_mentions=PRIVATE,
        )
        await self._lobbies_say_so(away)

    @app_commands.command(name="back", description="Back early: your clocks here run again")
    async def back(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise server_only("back")
        away = await self.bot.service.time_away.come_back(
            guild_id=interaction.guild_id, user_id=interaction.user.id
        )
        texts = texts_for(interaction.locale)
        await interaction.response.send_message(
            texts("bot.me.back", count=len(away.games)), ephemeral=True, allowed_mentions=PRIVATE
        )
        await self._lobbies_say_so(away)

    async def _lobbies_say_so(self, away: Away) -> None:
        """The lobby messages of the person's lobbies show them away, or no longer."""
        service = self.bot.service
        for game_id in away.lobbies:
            game = await service.games.reload(game_id)
            await game_posts.refresh_lobby(self.bot, game, service.clock())

    @app_commands.command(
        name="notify", description="Where and how often your turn reminders come, quiet hours"
    )
    @app_commands.describe(
        where="Where your turn reminders go",
        every="How often they come again",
        quiet_from="When your quiet hours start, like 22:00: no reminder then",
        quiet_to="When your quiet hours end, like 07:00",
        zone="Your time zone, like Europe/Rome",
        quiet_off="True to have no quiet hours",
    )
    @app_commands.choices(where=WHERE_CHOICES, every=EVERY_CHOICES_SHOWN)
    async def notify(
        self,
        interaction: discord.Interaction,
        where: str | None = None,
        every: int | None = None,
        quiet_from: str | None = None,
        quiet_to: str | None = None,
        zone: str | None = None,
        quiet_off: bool = False,
    ) -> None:
        # Each use writes the person's settings: a few a minute, as any repeatable request.
        self.bot.service.throttle.check("me notify", interaction.user.id)
        settings = await self.bot.service.notify.change(
            interaction.user.id,
            where=where,
            every=every,
            quiet_from=quiet_from,
            quiet_to=quiet_to,
            zone=zone,
            quiet_off=quiet_off,
        )
        await interaction.response.send_message(
            settings_text(settings, texts_for(interaction.locale)),
            ephemeral=True,
            allowed_mentions=PRIVATE,
        )

    @notify.autocomplete("zone")
    @quiet_autocomplete
    async def zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_choices(current)]

    @app_commands.command(
        name="help", description="What /me does: your games, time away, reminders"
    )
    async def help(self, interaction: discord.Interaction) -> None:
        texts = texts_for(interaction.locale)
        await interaction.response.send_message(
            **fitted(
                content=help_text(texts),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            )
        )


def help_text(texts: Texts) -> str:
    """/me help, in the reader's language: the clock options named as their client shows them."""
    return texts(
        "bot.me.help",
        most=MOST_DAYS,
        clock=Option("game new clock"),
        timeout=Option("game new timeout"),
    )


def where_words(where: str, texts: Texts) -> str:
    """Where reminders go, as a sentence says it: the menu's "both (channel and direct
    message)" names a choice, "Where: in the game's channel and by direct message" says
    where they go, as the other choices do."""
    if where == "both":
        return texts("bot.notify_where.both")
    return texts(f"commands.choices.where.{where}")


def settings_text(settings: NotifySettings, texts: Texts) -> str:
    """A person's own reminders as they stand, in their language."""
    every = settings.every_minutes
    quiet = quiet_hours(settings)
    lines = [
        texts("bot.notify.heading"),
        texts("bot.notify.where", where=where_words(settings.where, texts)),
        texts("bot.notify.every", every=texts(f"commands.choices.every.{every or 0}")),
        texts(
            "bot.notify.quiet",
            start=f"{quiet.start:%H:%M}",
            end=f"{quiet.end:%H:%M}",
            zone=quiet.zone,
        )
        if quiet
        else texts("bot.notify.no_quiet"),
    ]
    return "\n".join(lines)


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(MeCog(bot))
