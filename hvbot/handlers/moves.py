"""A move from a slash command or a button: acknowledged as soon as it is known to be legal,
stored, then followed (`Aftermath.follow` posts its board in the game's channel and carries the
game on), then the mover's next private decision.

The interaction itself is answered privately (a command) or by editing what was clicked (a
button): the board is a post the move owes, and an owed post goes only where Discord's nonce
guards it, so that no copy of it is ever seen twice."""

from __future__ import annotations

import logging
from typing import Any

import discord

from hvbot.handlers.answering import (
    FollowUp,
    game_client,
    go_on,
    make_way,
    refusal,
    reply_error,
    show_owed,
)
from hvbot.messages import cards
from hvbot.messages.game_posts import follow_view, is_public, posts_in, prompt_post
from hvbot.messages.outgoing import follow_up_privately, send_kwargs, send_private
from hvbot.messages.wording import language, move_words, personal
from hvbot.services import ActResult, BotError

log = logging.getLogger(__name__)


class Acknowledgement:
    """Answers an interaction as soon as its action is known to be legal, before it is stored:
    Discord gives three seconds, and a busy database must not eat them. Whether the answer
    could be given is remembered, so a move stored after the window closed is still announced.
    A command's deferral is private: the board goes to the channel as its own post."""

    def __init__(self, interaction: discord.Interaction, **defer: Any) -> None:
        self.interaction = interaction
        self.defer = defer
        self.shown = False  # the action gets a public board post
        self.tried = False
        self.answered = False

    async def __call__(self, pending: ActResult) -> None:
        self.shown = is_public(pending)
        if not self.shown:
            pending.let_go_of_view()  # no board post will read the view (see `board_post`)
        self.tried = True
        try:
            await self.interaction.response.defer(**self.defer)
            self.answered = True
        except discord.NotFound:
            log.warning("game %s: answered too late; will announce in the channel", pending.game.id)

    async def act(self, **where: Any) -> ActResult | None:
        """Apply the person's action through the service, acknowledging it once legal. None
        when there is nothing more to do here: refused (they were told) or answered too late
        (the channel was told)."""
        try:
            result = await game_client(self.interaction).service.play.act(
                user_id=self.interaction.user.id,
                acknowledge=self,
                language=language(self.interaction),
                **where,
            )
        except Exception as exc:
            if not await self.refused(exc, where.get("game_id")):
                raise
            return None
        if not self.answered:
            await self.announce_late(result)
            return None
        return result

    async def refused(self, error: Exception, game_id: int | None) -> bool:
        """Tell the person why their action was not taken, if `error` is a refusal or the
        store being away (nothing was stored); False for a failure, which is not said here.

        A function of its own, so that no variable of `act`, whose frame the error's
        traceback holds, holds the error: that is a reference cycle, left for the garbage
        collector's full passes at every refused move."""
        said = refusal(error)
        if said is None:
            return False
        await self.refuse(said)
        if isinstance(error, BotError) and self.interaction.response.is_done():
            # Where the bot only answers, a refused move shows what its game owed.
            await show_owed(self.interaction, game_id)
        return True

    async def refuse(self, message: str | BaseException) -> None:
        """A refusal after the deferral (the store failed), said privately."""
        interaction = self.interaction
        if self.tried and not self.answered:
            log.warning("refusal unsent: the interaction's window had closed (%s)", message)
            return
        try:
            await reply_error(interaction, message)
        except discord.NotFound:
            # Refused after Discord's window closed (the game's earlier move was still being
            # saved): nothing changed, and the player's client already said there was no answer.
            log.warning("refusal unsent: the interaction's window had closed (%s)", message)

    async def announce_late(self, result: ActResult) -> None:
        """The window closed before the answer: the board goes to the channel all the same."""
        await game_client(self.interaction).aftermath.follow(result)


async def act_from_command(interaction: discord.Interaction, action: str) -> None:
    """A slash command that is an action: refusals private, a private "thinking…" once it is
    legal, then the board in the game's channel and the mover's next decision privately."""
    ack = Acknowledgement(interaction, thinking=True, ephemeral=True)
    result = await ack.act(channel_id=interaction.channel_id, action=action)
    if result is None:
        return
    follow_up = FollowUp.of(interaction)
    go_on(follow_up, result.game.id, _announce_command(follow_up, result, shown=ack.shown))


async def _announce_command(follow_up: FollowUp, result: ActResult, *, shown: bool) -> None:
    """A command's move, deferred and stored: what follows it, then the private "thinking…"
    becomes the mover's next private decision if they have one, a word on where the board
    went if it is elsewhere, "done" if it has no board, or goes.

    Where the bot only answers (`GameRow.answers_only`), the board, and the AI's moves after
    it, are this interaction's follow-ups, the "thinking…" withdrawn before them."""
    reach = follow_up.reach(withdraw=True)
    await follow_up.aftermath.follow(result, reach=reach)
    prompt = await prompt_post(result.game, result.state, follow_up.user_id, follow_up.language)
    if prompt is not None and result.game.answers_only:
        await reach.send(prompt, ephemeral=True)
    elif prompt is not None:
        await make_way(follow_up.webhook, prompt)
        await follow_up_privately(follow_up.webhook, prompt)
    elif not shown:
        await follow_up.say(follow_up.texts("bot.reply.done"))
    elif not posts_in(follow_up.channel_id, result.game):
        await follow_up.posted_there(result.game)
    elif reach.withdraw:  # unless the answers in a private channel withdrew it already
        await follow_up.withdraw_thinking()  # the board in the channel says it all


async def action_button(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A button on a private prompt (replaced by what comes next) or on a public board post
    (which keeps its picture and loses its buttons): apply, then announce."""
    ack = Acknowledgement(interaction)
    result = await ack.act(game_id=game_id, action=action, expected_version=version)
    if result is None:
        return
    message = interaction.message
    prompt = await prompt_post(
        result.game, result.state, interaction.user.id, language(interaction)
    )
    if message is not None and not message.flags.ephemeral:
        # Its choices go (a card keeps its words and picture); its Follow button stays while
        # the game is open.
        kept = cards.without_choices(message, await follow_view(result.game))
        await interaction.edit_original_response(view=kept)
        await game_client(interaction).aftermath.buttons.clicked(result.game, message.id)
        if prompt is not None:
            await send_private(interaction, prompt)
        _carry_on(interaction, result)
        return
    done = personal(interaction)(
        "bot.reply.done_action",
        action=move_words(result.game.game_name, action, language(interaction)),
    )
    if prompt is not None and cards.is_card(message) and not prompt.files:
        # The next decision, in words and buttons alone, takes the card's place.
        edit = send_kwargs(prompt)
        edit.pop("allowed_mentions", None)
        await interaction.edit_original_response(attachments=[], **edit)
        _carry_on(interaction, result)
        return
    # The prompt is settled where it is. A next decision with a picture comes as a new card:
    # Discord refuses a new upload edited into a card's gallery (discord-api-docs #7529).
    if cards.is_card(message):
        # A card's flag stays: it is settled as a card of words.
        await interaction.edit_original_response(view=cards.said(done), attachments=[])
    else:
        await interaction.edit_original_response(
            content=done, view=None, attachments=[], embed=None
        )
    if prompt is not None:
        await send_private(interaction, prompt)
    _carry_on(interaction, result)


def _carry_on(interaction: discord.Interaction, result: ActResult) -> None:
    """What follows a button's move, in a task of its own once the click is answered."""
    follow_up = FollowUp.of(interaction)
    go_on(follow_up, result.game.id, _announce_button(follow_up, result))


async def _announce_button(follow_up: FollowUp, result: ActResult) -> None:
    """A button's move, once its click is answered: what follows it (its board post; where
    the bot only answers, as the click's follow-ups, with the AI's moves after it)."""
    await follow_up.aftermath.follow(result, reach=follow_up.reach())
    if not posts_in(follow_up.channel_id, result.game) and is_public(result):
        await follow_up.posted_there(result.game)
