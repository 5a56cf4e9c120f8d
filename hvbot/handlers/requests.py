"""Requests other players answer: taking back a move, abandoning a game under way, and what
becomes of the seat of a player who is away (an AI plays it, or the game ends)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import partial

import discord

from hvbot.aftermath.owed_posts import taken_back_post, text_post
from hvbot.handlers.answering import (
    FollowUp,
    answer_after_change,
    answer_publicly,
    ask_publicly,
    game_client,
    update_clicked,
)
from hvbot.messages import buttons
from hvbot.messages.game_posts import posts_here
from hvbot.messages.post import ALLOWED, Post
from hvbot.messages.wording import language, mention, move_words, public, shown
from hvbot.services import UndoOutcome, VoteOutcome
from hvbot.services.seat_names import said
from hvbot.store import GameRow, UndoRequest
from hvbot.store.duties import Owed


def told_in_words(owed: Sequence[Owed]) -> list[Owed]:
    """The texts among what a change owes, which answer the interaction that made it; the
    rest (the lobby message's update, a replay) follows it (`Aftermath.after_ending`)."""
    return [one for one in owed if one.kind == "text"]


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
        channel_id=interaction.channel_id, user_id=interaction.user.id
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
        vote_id=vote_id, user_id=interaction.user.id, choice=choice
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
    # Decided: the outcome's words, owed with the change, are the answer to the click (the
    # vote's message, edited); a process that takes them over posts them in the channel.
    for owed in told_in_words(outcome.owed):

        async def answer(post: Post) -> None:
            await update_clicked(interaction, game.id, content=post.content, view=None)

        await bot.aftermath.send(owed, game, text_post(owed), via=answer)
    if outcome.status == "ai":
        bot.aftermath.after_change(game, bot.service.games.peek_state(game))  # an AI may move
    else:
        bot.aftermath.after_ending(game, outcome.owed)  # the lobby message says it ended


async def return_seat(interaction: discord.Interaction) -> None:
    bot = game_client(interaction)
    game = await bot.service.absence.return_seat(
        channel_id=interaction.channel_id,
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        language=language(interaction),
    )
    await answer_publicly(
        interaction,
        game,
        content=public(game)("bot.game.returned", player=f"<@{interaction.user.id}>"),
        allowed_mentions=ALLOWED,
    )
    bot.aftermath.buttons.moved_on(game)  # a change of seat moves the game's version on


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


async def taken_back(outcome: UndoOutcome, owed: Owed, now: datetime) -> Post | None:
    """The board as it was before the move, announced like any change to the game (with
    the AI seats' moves taken back after it, if `owed` says so)."""
    assert outcome.state is not None
    requester = outcome.request.requester_id
    ai_after = int(owed.body.get("ai", 0))
    return await taken_back_post(
        outcome.game, outcome.state, requester, outcome.request.action, now, ai_after
    )


async def tell_taken_back(
    interaction: discord.Interaction, outcome: UndoOutcome, *, answered: bool
) -> None:
    """The board as it is again after an undo (`answered`: as the answer to the interaction,
    deferred), then what follows it."""
    aftermath = game_client(interaction).aftermath
    follow_up = FollowUp.of(interaction)
    via = follow_up.via(outcome.game) if answered else None
    try:
        for owed in outcome.owed:
            sent = await aftermath.send(
                owed,
                outcome.game,
                partial(taken_back, outcome, owed, aftermath.games.clock()),
                via=via,
            )
            if sent is None and via is not None:
                await follow_up.withdraw_thinking()  # another process posts the board
            elif sent is not None and not sent.withdrawn and answered:
                await follow_up.posted_there(outcome.game)
    finally:
        assert outcome.state is not None
        aftermath.after_change(outcome.game, outcome.state)


async def request_undo(interaction: discord.Interaction) -> None:
    bot = game_client(interaction)
    outcome = await bot.service.undo.request_undo(
        channel_id=interaction.channel_id, user_id=interaction.user.id
    )
    if outcome.status == "done":
        deferred = interaction.response.defer(
            thinking=True, ephemeral=not posts_here(interaction, outcome.game)
        )
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
        bot.aftermath.after_change(game, bot.service.games.peek_state(game), outcome.owed)
        return
    for owed in told_in_words(outcome.owed):

        async def answer(post: Post) -> None:
            await update_clicked(interaction, game.id, content=post.content, view=None)

        await bot.aftermath.send(owed, game, text_post(owed), via=answer)
    bot.aftermath.after_ending(game, outcome.owed)


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


async def answer_with_told(
    interaction: discord.Interaction, game: GameRow, owed: Sequence[Owed]
) -> None:
    """A change whose words were owed with it (a moderator's end or kick), sent as the public
    answer to the command that made it; a process that takes them over posts them in the
    channel."""
    bot = game_client(interaction)
    for one in told_in_words(owed):

        async def answer(post: Post) -> None:
            await answer_publicly(interaction, game, content=post.content, allowed_mentions=ALLOWED)

        await bot.aftermath.send(one, game, text_post(one), via=answer)
