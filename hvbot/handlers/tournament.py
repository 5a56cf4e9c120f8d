"""A tournament from Discord: `/tournament` and the Join and Leave buttons of its sign-up post.

What a tournament does is the service's (`hvbot.services.tournaments`); here is only what
Discord adds: who asks, where (a game's thread counts as its tournament's channel), whether
they moderate, the time they typed, and the answer. Each handler reads the interaction,
calls one service method, answers, and hands the change to `Aftermath.follow`, which sends
what it owes (the sign-up post's update, a round's tables and their games). A click on Join
or Leave is answered by editing the sign-up post itself (`answered=("signup",)`); a command
is answered privately, in the asker's language. A refusal changes nothing and is said
privately, in the asker's language too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import discord

from data.texts import Option
from hvbot.handlers.answering import game_client, reply_error
from hvbot.handlers.lobby import is_moderator
from hvbot.messages import tournaments as tournament_posts
from hvbot.messages.outgoing import PRIVATE, edit_kwargs
from hvbot.messages.wording import language, personal, shown
from hvbot.services import BotError
from hvbot.services.outcomes import TournamentChange
from hvbot.services.quiet_hours import known_zone
from hvbot.store.tournaments import TournamentRow

log = logging.getLogger(__name__)

# A start time as typed: "18:00" (the next such time), or a day and a time,
# "2026-12-05 18:00".
_START = re.compile(r"(?:(?P<day>\d{4}-\d\d-\d\d)[ T]+)?(?P<hour>\d{1,2})(?::(?P<minute>\d\d))?")
START_FORM = "HH:MM or YYYY-MM-DD HH:MM"
# How far ahead a start may be set: a sign-up open longer is forgotten by its entrants.
LATEST_START = timedelta(days=60)


def start_time(typed: str, zone: str | None, now: datetime) -> datetime:
    """When a tournament starts, from what its creator typed: a time of day ("18:00", the
    next time the zone's clock shows it) or a day and a time ("2026-12-05 18:00"), read in
    `zone` (a name like Europe/Rome, any case; None: UTC, as Discord shows no zone of its
    own). Refused, naming the forms that work, unless it lies ahead and within 60 days."""
    where = _zone(zone)
    found = _START.fullmatch(typed.strip())
    if found is None or int(found["hour"]) > 23 or int(found["minute"] or 0) > 59:
        raise _bad_start(typed)
    clock = time(int(found["hour"]), int(found["minute"] or 0))
    local_now = now.astimezone(where)
    if found["day"]:
        try:
            day = date.fromisoformat(found["day"])
        except ValueError as exc:
            raise _bad_start(typed) from exc
        at = datetime.combine(day, clock, tzinfo=where).astimezone(UTC)
    else:
        at = datetime.combine(local_now.date(), clock, tzinfo=where).astimezone(UTC)
        if at <= now:
            at = datetime.combine(
                local_now.date() + timedelta(days=1), clock, tzinfo=where
            ).astimezone(UTC)
    if at <= now:
        raise BotError(
            f"{typed} has passed already: give a time ahead, or leave out start and start "
            "the tournament with /tournament start.",
            key="bot.tournament_cmd.start_past",
            typed=typed,
            option=Option("tournament new start"),
        )
    if at - now > LATEST_START:
        raise BotError(
            f"{typed} is more than 60 days ahead: give a start within 60 days.",
            key="bot.tournament_cmd.start_far",
            typed=typed,
        )
    return at


def _zone(zone: str | None) -> ZoneInfo:
    if zone is None or not zone.strip():
        return ZoneInfo("UTC")
    name = known_zone(zone)
    if name is None:
        raise BotError(
            f"{zone} is not a time zone: pick one of the suggestions of zone, like Europe/Rome.",
            key="bot.tournament_cmd.bad_zone",
            typed=zone,
            option=Option("tournament new zone"),
        )
    return ZoneInfo(name)


def _bad_start(typed: str) -> BotError:
    return BotError(
        f"{typed} is not a time: use {START_FORM}, like 18:00 or 2026-12-05 18:00.",
        key="bot.tournament_cmd.bad_start",
        typed=typed,
    )


async def moderates(interaction: discord.Interaction) -> bool:
    """Whether the person may run any tournament here: a moderator as the games count one
    (`lobby.is_moderator`), or a manager of the server."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild) or await is_moderator(interaction)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel a tournament of this interaction lives in: a thread's (a table game's, or
    any other) is its parent's."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    if interaction.channel_id is None:
        raise no_tournament()
    return interaction.channel_id


def no_tournament() -> BotError:
    return BotError(
        "This channel has no tournament under way or signing up: /tournament new opens one.",
        key="bot.tournament_cmd.none_here",
    )


async def here(interaction: discord.Interaction) -> TournamentRow:
    """The channel's open tournament (signing up, running or paused), or a refusal."""
    found = await game_client(interaction).service.tournaments.in_channel(channel_of(interaction))
    if found is None:
        raise no_tournament()
    return found


async def _answered(interaction: discord.Interaction, words: str) -> None:
    """A private line once the change is stored; too late for Discord, the change stands
    and what follows it still happens."""
    try:
        await interaction.response.send_message(words, ephemeral=True, allowed_mentions=PRIVATE)
    except discord.NotFound as exc:
        log.warning("a tournament's answer came too late for Discord: %s", exc)


async def act(
    interaction: discord.Interaction,
    make: Callable[[TournamentRow], Awaitable[TournamentChange]],
    note: str,
    **fields: str,
) -> None:
    """A /tournament command on the channel's tournament: the change made, a private note
    (`note`: its key, filled with the tournament's name and `fields`), then what the change
    owes."""
    tournament = await here(interaction)
    change = await make(tournament)
    words = personal(interaction)(note, name=shown(change.tournament.name), **fields)
    await _answered(interaction, words)
    await game_client(interaction).aftermath.follow(change)


async def signup_click(interaction: discord.Interaction, tournament_id: int, choice: str) -> None:
    """Join or Leave on the sign-up post of `tournament_id`: answered by the post as it is
    now, with the entrant added or taken off (the update the change owes, so it is marked
    made rather than sent again)."""
    client = game_client(interaction)
    user = interaction.user
    tournaments = client.service.tournaments
    try:
        if choice == "join":
            change = await tournaments.join(
                tournament_id, user.id, name=user.display_name, language=language(interaction)
            )
        else:
            change = await tournaments.leave(tournament_id, user.id)
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    standing = await tournaments.standing(tournament_id)
    post = tournament_posts.signup_post(change.tournament, standing.entrants)
    try:
        await interaction.response.edit_message(**edit_kwargs(post))
    except discord.NotFound as exc:
        log.warning("tournament %s: the sign-up answer came too late: %s", tournament_id, exc)
        await client.aftermath.follow(change)  # the owed update edits the post itself
        return
    await client.aftermath.follow(change, answered=("signup",))
