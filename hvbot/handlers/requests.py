"""Requests other players answer: taking back a move, abandoning a game under way, and what
becomes of the seat of a player who is away (an AI plays it, or the game ends); and the other
changes to a game's seats or its end that are not moves: resigning, a moderator's end or kick.

Each reads the interaction, calls one service method and hands the change it returns to
`Aftermath.follow`. A click on a public question (a vote, a request) is answered by editing
that question; the words a change owes go to the channel as posts of their own, where
Discord's nonce guards them."""

from __future__ import annotations

import discord

from engine.registry import find_game
from hvbot.handlers.answering import (
    FollowUp,
    answer_after_change,
    answer_publicly,
    ask_publicly,
    game_client,
    update_clicked,
)
from hvbot.handlers.lobby import can_manage
from hvbot.messages import buttons
from hvbot.messages.game_posts import posts_here
from hvbot.messages.outgoing import ALLOWED, PRIVATE
from hvbot.messages.wording import language, mention, move_words, personal, public, shown
from hvbot.services import UndoOutcome, VoteOutcome, in_channel
from hvbot.services.seat_names import said
from hvbot.store import GameRow, UndoRequest


def vote_text(outcome: VoteOutcome) -> str:
    vote, game = outcome.vote, outcome.game
    away = game.seats[vote.seat]
    name = said(away, public(game), shown) if away.user_id is None else mention(game, vote.seat)
    voters = " ".join(f"<@{u}>" for u in vote.asked if u not in vote.votes)
    return public(game)(
        "bot.vote.asked", player=name, voters=voters, cast=len(vote.votes), count=len(vote.asked)
    )


async def request_takeover(interaction: discord.Interaction) -> None:
    bot = game_client(interaction)
    outcome = await bot.service.absence.request_takeover(
        channel_id=in_channel(interaction.channel_id), user_id=interaction.user.id
    )
    await answer_publicly(
        interaction,
        outcome.game,
        content=vote_text(outcome),
        view=buttons.vote_view(outcome.vote.id, public(outcome.game)),
        allowed_mentions=ALLOWED,
    )


async def cast_vote(interaction: discord.Interaction, vote_id: int, choice: str) -> None:
    bot = game_client(interaction)
    outcome = await bot.service.absence.cast_vote(
        vote_id=vote_id, user_id=interaction.user.id, choice=choice, escape=shown
    )
    game = outcome.game
    if outcome.status == "open":
        await update_clicked(
            interaction,
            game.id,
            content=vote_text(outcome),
            view=buttons.vote_view(vote_id, public(game)),
        )
        return
    # Decided: the vote shows its last count without buttons; its outcome's words are owed
    # with the change, and follow it in the channel (then an AI moves, or the game ends).
    await update_clicked(interaction, game.id, content=vote_text(outcome), view=None)
    await bot.aftermath.follow(outcome)


async def return_seat(interaction: discord.Interaction) -> None:
    bot = game_client(interaction)
    change = await bot.service.absence.return_seat(
        channel_id=in_channel(interaction.channel_id),
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        language=language(interaction),
    )
    game = change.game
    await answer_publicly(
        interaction,
        game,
        content=public(game)("bot.game.returned", player=f"<@{interaction.user.id}>"),
        allowed_mentions=ALLOWED,
    )
    await bot.aftermath.follow(change)


def undo_move(outcome: UndoOutcome) -> str:
    """The move an undo request is about, in words, in the game's language."""
    game = outcome.game
    return move_words(game.game_name, outcome.request.action, game.language)


def undo_text(outcome: UndoOutcome) -> str:
    request = outcome.request
    who = f"<@{request.requester_id}>"
    waiting = " ".join(f"<@{u}>" for u in request.waiting_for)
    return public(outcome.game)(
        "bot.undo.asked", player=who, action=undo_move(outcome), waiting=waiting
    )


async def tell_taken_back(
    interaction: discord.Interaction, outcome: UndoOutcome, *, answered: bool
) -> None:
    """The board as it is again after an undo, posted in the game's channel, then what
    follows it (`answered`: the interaction was deferred privately, and that "thinking…" goes
    or points to the thread)."""
    follow_up = FollowUp.of(interaction)
    await follow_up.aftermath.follow(outcome)
    if answered:
        if posts_here(interaction, outcome.game):
            await follow_up.withdraw_thinking()
        else:
            await follow_up.posted_there(outcome.game)


async def request_undo(interaction: discord.Interaction) -> None:
    bot = game_client(interaction)
    outcome = await bot.service.undo.request_undo(
        channel_id=in_channel(interaction.channel_id), user_id=interaction.user.id
    )
    if outcome.status == "done":
        deferred = interaction.response.defer(thinking=True, ephemeral=True)
        answered = await answer_after_change(outcome.game.id, deferred)
        await tell_taken_back(interaction, outcome, answered=answered)
        return
    message = await ask_publicly(
        interaction,
        outcome.game,
        content=undo_text(outcome),
        view=buttons.undo_view(outcome.request.id, public(outcome.game)),
        allowed_mentions=ALLOWED,
    )
    await bot.service.undo.set_message(outcome.request, message.id)


def abandon_text(game: GameRow, request: UndoRequest) -> str:
    waiting = " ".join(f"<@{u}>" for u in request.waiting_for)
    return public(game)("bot.abandon.asked", player=f"<@{request.requester_id}>", waiting=waiting)


async def ask_to_abandon(
    interaction: discord.Interaction, game: GameRow, request: UndoRequest
) -> None:
    """The creator's wish to abandon a game under way, put to the others with the buttons
    that answer an undo request."""
    bot = game_client(interaction)
    message = await ask_publicly(
        interaction,
        game,
        content=abandon_text(game, request),
        view=buttons.undo_view(request.id, public(game)),
        allowed_mentions=ALLOWED,
    )
    await bot.service.undo.set_message(request, message.id)


async def answered_abandon(interaction: discord.Interaction, outcome: UndoOutcome) -> None:
    """An answer to a request to abandon: the question again (still waiting), or what was
    decided, owed with the change and sent as the answer to the click."""
    bot = game_client(interaction)
    game, request = outcome.game, outcome.request
    if outcome.status == "waiting":
        view = buttons.undo_view(request.id, public(game))
        await update_clicked(interaction, game.id, content=abandon_text(game, request), view=view)
        return
    if outcome.status == "refused":
        said = public(game)(
            "bot.abandon.refused",
            player=f"<@{interaction.user.id}>",
            creator=f"<@{request.requester_id}>",
        )
        await update_clicked(interaction, game.id, content=said, view=None)
    else:
        # Agreed: the question stays as asked, without buttons; the end's words follow it.
        await update_clicked(interaction, game.id, view=None)
    await bot.aftermath.follow(outcome)


async def answer_undo(interaction: discord.Interaction, request_id: int, *, accept: bool) -> None:
    bot = game_client(interaction)
    outcome = await bot.service.undo.answer_undo(
        request_id=request_id, user_id=interaction.user.id, accept=accept
    )
    if outcome.request.kind == "abandon":
        await answered_abandon(interaction, outcome)
        return
    action = undo_move(outcome)
    game_id = outcome.game.id
    if outcome.status == "waiting":
        waiting = buttons.undo_view(request_id, public(outcome.game))
        await update_clicked(interaction, game_id, content=undo_text(outcome), view=waiting)
    elif outcome.status == "refused":
        said = public(outcome.game)(
            "bot.undo.refused", player=f"<@{interaction.user.id}>", action=action
        )
        await update_clicked(interaction, game_id, content=said, view=None)
    else:
        said = public(outcome.game)("bot.undo.accepted", action=action)
        await update_clicked(interaction, game_id, content=said, view=None)
        await tell_taken_back(interaction, outcome, answered=False)


async def resign(interaction: discord.Interaction) -> None:
    """Resigning, once confirmed (`interaction`: the click that confirmed it): said in the
    channel, then what follows (an AI plays the seat, or the game ends as the loss)."""
    bot = game_client(interaction)
    change = await bot.service.play.resign(
        channel_id=in_channel(interaction.channel_id), user_id=interaction.user.id
    )
    game = change.game
    words = "bot.game.resigned_last" if change.what == "ended" else "bot.game.resigned"
    await answer_publicly(
        interaction,
        game,
        content=public(game)(words, player=interaction.user.mention),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await bot.aftermath.follow(change)


async def abandon(interaction: discord.Interaction) -> None:
    """Abandoning, once confirmed (`interaction`: the click that confirmed it): a game under
    way asks the others first; else it ends at once, said in the channel."""
    bot = game_client(interaction)
    change = await bot.service.abandon.abandon(
        channel_id=in_channel(interaction.channel_id),
        user_id=interaction.user.id,
        can_manage=can_manage(interaction),
    )
    game = change.game
    if isinstance(change, UndoOutcome):  # a game under way: the others are asked first
        await ask_to_abandon(interaction, game, change.request)
        return
    await answer_publicly(
        interaction,
        game,
        content=public(game)(
            "bot.game.abandoned",
            game=find_game(game.game_name).title,
            player=interaction.user.mention,
        ),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await bot.aftermath.follow(change)


async def end_game(interaction: discord.Interaction, game_id: int | None) -> None:
    """A moderator's end: told to them privately, and to the channel in the words it owes."""
    bot = game_client(interaction)
    change = await bot.service.moderation.end(
        channel_id=in_channel(interaction.channel_id),
        moderator=interaction.user.mention,
        game_id=game_id,
        user_id=interaction.user.id,
    )
    await _done_privately(interaction, change.game, "bot.reply.done")
    await bot.aftermath.follow(change)


async def kick_seat(interaction: discord.Interaction, seat: int, game_id: int | None) -> None:
    """A moderator frees a seat in a lobby, or gives a seat under way to an AI (with no
    person left, the game ends): told to them privately, to the channel as the change owes."""
    bot = game_client(interaction)
    change = await bot.service.moderation.kick(
        channel_id=in_channel(interaction.channel_id),
        seat_number=seat,
        moderator=interaction.user.mention,
        game_id=game_id,
        user_id=interaction.user.id,
    )
    said = "bot.moderation.freed" if change.what == "freed" else "bot.reply.done"
    await _done_privately(interaction, change.game, said)
    await bot.aftermath.follow(change)


async def _done_privately(interaction: discord.Interaction, game: GameRow, key: str) -> None:
    note = interaction.response.send_message(
        personal(interaction)(key), ephemeral=True, allowed_mentions=PRIVATE
    )
    await answer_after_change(game.id, note)
