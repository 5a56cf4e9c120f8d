"""A rematch from a click: the Rematch button under a finished game's result, and Accept or
Decline on the rematch's lobby message (see `hvbot.services.rematch` for what each does).

Each click is answered privately, in the clicker's language, once the change is stored; what
the change owes (the lobby message posted or edited, at the start the board and each
person's secret) follows through `Aftermath.follow`. The start opens the game's thread as
/game start does (`lobby.open_thread`); a rematch against AI seats alone starts with the
click on Rematch, before its lobby message exists (and the click may come from the old
game's thread), so its thread is started from that message once it is posted
(`Aftermath._post_lobby`).
"""

from __future__ import annotations

from dataclasses import replace

import discord

from hvbot.handlers.answering import FollowUp, answer_after_change, game_client, reply_error
from hvbot.handlers.lobby import is_moderator, open_thread, places_of, role_ids
from hvbot.messages.outgoing import PRIVATE
from hvbot.messages.wording import language, personal
from hvbot.services import BotError, Change


async def _answer(interaction: discord.Interaction, change: Change, note: str) -> None:
    answer = interaction.response.send_message(note, ephemeral=True, allowed_mentions=PRIVATE)
    await answer_after_change(change.game.id, answer)


async def ask(interaction: discord.Interaction, game_id: int) -> None:
    """The Rematch button of the finished game `game_id`."""
    client = game_client(interaction)
    user = interaction.user
    try:
        change = await client.service.rematch.offer(
            game_id=game_id,
            user_id=user.id,
            name=user.display_name,
            language=language(interaction),
            places=places_of(interaction),
            roles=role_ids(interaction),
            moderator=await is_moderator(interaction),
        )
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    lobby = change.game
    if change.what == "started":  # against AI seats alone: nobody else to wait for
        note = personal(interaction)("bot.rematch.started")
    else:
        note = personal(interaction)("bot.rematch.asked", channel=f"<#{lobby.channel_id}>")
    await _answer(interaction, change, note)
    # Where the bot only answers, the lobby (and a start's board) come as this click's.
    await client.aftermath.follow(change, reach=FollowUp.of(interaction).reach())


async def answer(interaction: discord.Interaction, lobby_id: int, *, accept_it: bool) -> None:
    """Accept or Decline on the rematch whose lobby is `lobby_id`."""
    client = game_client(interaction)
    user = interaction.user
    try:
        change = await client.service.rematch.answer(
            lobby_id=lobby_id,
            user_id=user.id,
            accept_it=accept_it,
            name=user.display_name,
            language=language(interaction),
        )
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    await _answer(interaction, change, personal(interaction)(f"bot.rematch.{change.what}"))
    if change.what == "started":
        # Answered first (Discord's three seconds), then the thread, as /game start does.
        change = replace(change, game=await open_thread(interaction, change.game))
    await client.aftermath.follow(change, reach=FollowUp.of(interaction).reach())
