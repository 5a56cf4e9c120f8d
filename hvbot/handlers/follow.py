"""Following a game one does not play, from `/game follow` or the Follow button, and
stopping, from `/game unfollow` or the Unfollow button under a digest.

Who may follow is the service's (`hvbot.services.follows`); here is only what Discord adds:
a person follows a game from where they see it (the command typed, or the button clicked, in
its channel or its thread, and Discord saying they may view that channel), and a game played
in a thread has its follower added to the thread (Discord's Add Thread Member: doing it twice
changes nothing, so a second /game follow adds them again if they left). Everything is said
to the person alone, in their language.
"""

from __future__ import annotations

import logging

import discord

from engine.registry import find_game
from hvbot.handlers.answering import game_client
from hvbot.messages.outgoing import PRIVATE
from hvbot.messages.wording import language, personal
from hvbot.services import BotError, in_channel
from hvbot.services.follows import Following
from hvbot.store import GameRow

log = logging.getLogger(__name__)


def can_view(interaction: discord.Interaction) -> bool:
    """Whether Discord lets the person view the channel the interaction came from (a
    button on a message they see, a command typed there): the interaction's own permissions,
    as Discord computed them for this member in this channel."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.view_channel)


async def follow_game(interaction: discord.Interaction, game_id: int | None) -> None:
    """`/game follow` (the channel's game, or the one picked) or the Follow button."""
    if interaction.guild_id is None:
        raise BotError(
            "Games are followed in their server: use /game follow in the game's channel.",
            key="bot.follow.server_only",
        )
    if not can_view(interaction):
        raise BotError(
            "You cannot see that game's channel, so you cannot follow it.",
            key="bot.follow.cannot_see",
        )
    service = game_client(interaction).service
    channel_id = interaction.channel_id
    game: GameRow | None
    if game_id is not None:
        game = await service.games.find(game_id, fresh=True)
        if game is None:
            raise BotError(
                "That is not one of this channel's games: pick one of the suggestions.",
                key="bot.error.not_a_game_here",
            )
    else:
        game = await service.games.open_game(in_channel(channel_id), interaction.user.id)
    following = await service.follows.follow(
        game=game,
        user_id=interaction.user.id,
        channel_id=channel_id,
        language=language(interaction),
    )
    key = "bot.follow.followed_dm" if following.by_dm else "bot.follow.followed_thread"
    if not following.by_dm and not await _add_to_thread(interaction, following):
        key = "bot.follow.thread_failed"
    elif following.by_dm and not following.new:
        key = "bot.follow.already"
    elif following.thread_later:
        key = "bot.following.followed_lobby"  # the start joins them to its thread
    await _say(interaction, key, following.game)


async def unfollow_game(interaction: discord.Interaction, game_id: int | None) -> None:
    """`/game unfollow` (the game picked, or the channel's) or the Unfollow button of a
    digest. A follower in the game's thread is taken out of it."""
    service = game_client(interaction).service
    if game_id is None:
        game = await service.games.in_channel(interaction.channel_id, interaction.user.id)
        if game is None:
            raise BotError(
                "You do not follow that game. /me games lists the games you follow.",
                key="bot.follow.not_following",
            )
        game_id = game.id
    following = await service.follows.unfollow(game_id=game_id, user_id=interaction.user.id)
    if not following.by_dm and following.game.thread_id is not None:
        thread = await _thread(interaction, following.game.thread_id)
        if thread is not None:
            try:
                await thread.remove_user(discord.Object(interaction.user.id))
            except discord.HTTPException as exc:
                log.info("game %s: could not take a follower out of its thread: %s", game_id, exc)
    await _say(interaction, "bot.follow.unfollowed", following.game)


async def _add_to_thread(interaction: discord.Interaction, following: Following) -> bool:
    thread_id = following.game.thread_id
    assert thread_id is not None
    thread = await _thread(interaction, thread_id)
    if thread is None:
        return False
    try:
        await thread.add_user(discord.Object(interaction.user.id))
    except discord.HTTPException as exc:
        log.info("game %s: could not add a follower to its thread: %s", following.game.id, exc)
        return False
    return True


async def _thread(interaction: discord.Interaction, thread_id: int) -> discord.Thread | None:
    client = interaction.client
    try:
        found = client.get_channel(thread_id) or await client.fetch_channel(thread_id)
    except discord.HTTPException:
        return None
    return found if isinstance(found, discord.Thread) else None


async def _say(interaction: discord.Interaction, key: str, game: GameRow) -> None:
    texts = personal(interaction)
    where = f"<#{game.post_channel_id}>"
    words = texts(key, game=find_game(game.game_name).title, number=game.id, where=where)
    if interaction.response.is_done():
        await interaction.followup.send(words, ephemeral=True, allowed_mentions=PRIVATE)
    else:
        await interaction.response.send_message(words, ephemeral=True, allowed_mentions=PRIVATE)
