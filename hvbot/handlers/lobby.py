"""The lobby: joining, leaving, AI seats and the start, from slash commands or the lobby
message's buttons; at the start, the game's thread if it asked for one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord

from hvbot.handlers.answering import (
    FollowUp,
    answer_after_change,
    game_client,
    reply_error,
    update_clicked,
)
from hvbot.messages import buttons
from hvbot.messages.game_posts import lobby_edit, start_thread
from hvbot.messages.outgoing import PRIVATE
from hvbot.messages.wording import language, personal, public
from hvbot.services import BotError, Change, in_channel
from hvbot.services.server_settings import is_moderator_role
from hvbot.store import GameRow


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


def places_of(interaction: discord.Interaction) -> tuple[int, ...]:
    """Where the interaction happened, as a server's settings name places for games: the
    channel, its category, and for a thread its channel and that channel's category."""
    channel = interaction.channel
    places = [interaction.channel_id or 0]
    if isinstance(channel, discord.Thread):
        places.append(channel.parent_id)
        channel = channel.parent
    category = getattr(channel, "category_id", None)
    if category:
        places.append(category)
    return tuple(places)


def role_ids(interaction: discord.Interaction) -> frozenset[int]:
    """The roles of the member who acted (none in a DM)."""
    return frozenset(role.id for role in getattr(interaction.user, "roles", ()))


async def is_moderator(interaction: discord.Interaction) -> bool:
    """A member who looks after the server's channels: Manage Channels, Manage Threads or
    Manage Messages, as Discord grants them in this channel, or the role the server's
    settings name for it."""
    perms = getattr(interaction, "permissions", None)
    if perms and (perms.manage_channels or perms.manage_threads or perms.manage_messages):
        return True
    if interaction.guild_id is None:
        return False
    settings = await game_client(interaction).service.server_settings.of(interaction.guild_id)
    return is_moderator_role(settings, role_ids(interaction))


def moderators_only() -> BotError:
    """The refusal of what only moderators may do (see `is_moderator`)."""
    return BotError(
        "Only moderators (Manage Channels, Manage Threads or Manage Messages, or the"
        " server's moderator role) can do that.",
        key="bot.error.moderators_only",
    )


async def lobby_change(
    interaction: discord.Interaction,
    make: Callable[[], Awaitable[Change]],
    *,
    from_button: bool,
    confirm: str,
) -> None:
    """A change of the lobby's seats: a click is answered with the lobby message as it is now
    (which is the update the change owes), a command with a private note (`confirm`: its
    key), the lobby message then updated as the change owes."""
    try:
        change = await make()
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    game = change.game
    answered: tuple[str, ...] = ()
    if from_button:
        lobby = buttons.lobby_view(game.id, public(game))
        now = game_client(interaction).service.clock()
        await update_clicked(interaction, game.id, **lobby_edit(game, now, lobby))
        answered = ("lobby",)
    else:
        note = interaction.response.send_message(
            personal(interaction)(confirm), ephemeral=True, allowed_mentions=PRIVATE
        )
        await answer_after_change(game.id, note)
    reach = FollowUp.of(interaction).reach()  # where the bot only answers: its posts' way
    await game_client(interaction).aftermath.follow(change, answered=answered, reach=reach)


async def lobby_button(interaction: discord.Interaction, game_id: int, what: str) -> None:
    # As stored: another process may have closed or started it (costs no read while the
    # database's watch vouches for the copy in memory).
    game = await game_client(interaction).service.games.find(game_id, fresh=True)
    if game is None or game.status != "lobby" or game.channel_id != interaction.channel_id:
        await reply_error(interaction, personal(interaction)("bot.lobby.closed"))
        return
    await lobby_action(interaction, what, from_button=True)


async def lobby_action(
    interaction: discord.Interaction, what: str, *, from_button: bool, level: str = "easy"
) -> None:
    service = game_client(interaction).service
    channel_id = interaction.channel_id
    user = interaction.user
    if what == "join":
        await lobby_change(
            interaction,
            lambda: service.lobby.join(
                channel_id=in_channel(channel_id),
                user_id=user.id,
                name=user.display_name,
                language=language(interaction),
            ),
            from_button=from_button,
            confirm="bot.lobby.joined",
        )
    elif what == "leave":
        await lobby_change(
            interaction,
            # A rematch's lobby waiting for its people is left by declining it.
            lambda: service.rematch.leave(channel_id=in_channel(channel_id), user_id=user.id),
            from_button=from_button,
            confirm="bot.lobby.left",
        )
    elif what == "addai":
        moderator = await is_moderator(interaction)
        await lobby_change(
            interaction,
            lambda: service.lobby.add_ai(
                channel_id=in_channel(channel_id),
                user_id=user.id,
                level=level,
                moderator=moderator,
            ),
            from_button=from_button,
            confirm="bot.lobby.ai_added",
        )
    elif what == "start":
        await start_game(interaction, from_button=from_button)


async def start_game(interaction: discord.Interaction, *, from_button: bool) -> None:
    client = game_client(interaction)
    try:
        change = await client.service.lobby.start(
            channel_id=in_channel(interaction.channel_id),
            user_id=interaction.user.id,
            can_manage=can_manage(interaction),
        )
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    game = change.game
    if from_button:
        closed = buttons.lobby_view(game.id, public(game), open_=False, followable=game.is_open)
        now = game_client(interaction).service.clock()
        await update_clicked(interaction, game.id, **lobby_edit(game, now, closed))
    else:
        note = personal(interaction)("bot.lobby.game_started")
        answer = interaction.response.send_message(note, ephemeral=True, allowed_mentions=PRIVATE)
        await answer_after_change(game.id, answer)
    # Answered first (Discord's three seconds), then the thread; the lobby says where it is.
    game = await open_thread(interaction, game)
    # The answer showed the lobby as it is now, unless it has a thread to point to since.
    answered = ("lobby",) if from_button and game.thread_id is None else ()
    # The lobby's update (unless made already), the first board, each person's secret.
    reach = FollowUp.of(interaction).reach()  # where the bot only answers: its posts' way
    await client.aftermath.follow(replace(change, game=game), answered=answered, reach=reach)


def may_open_thread(interaction: discord.Interaction) -> bool:
    """The bot may start a public thread where the interaction was used and post in it
    (never in a thread or a DM: threads hang off text channels)."""
    perms = interaction.app_permissions
    kind = getattr(interaction.channel, "type", None)
    return (
        kind in (discord.ChannelType.text, discord.ChannelType.news)
        and perms.create_public_threads
        and perms.send_messages_in_threads
    )


async def open_thread(interaction: discord.Interaction, game: GameRow) -> GameRow:
    """Start the game's thread from its lobby message if the game asked for one and the bot
    may; return the game as it is now. Without a thread the game stays in its channel."""
    if not game.wants_thread or game.lobby_message_id is None or game.thread_id is not None:
        return game
    if not may_open_thread(interaction):
        return game
    thread_id = await start_thread(interaction.client, game)
    if thread_id is None:
        return game
    return await game_client(interaction).service.games.set_thread(game, thread_id)
