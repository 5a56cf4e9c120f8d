"""A move from a slash command or a button: acknowledged as soon as it is known to be legal,
stored, then announced (the board post, then the mover's next private decision)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from hvbot.database import is_unreachable
from hvbot.handlers.answering import FollowUp, game_client, go_on, refusal, reply_error
from hvbot.messages.game_posts import is_public, posts_here, prompt_post
from hvbot.messages.post import follow_up_privately, send_private
from hvbot.messages.wording import language, move_words, personal
from hvbot.services import ActResult

log = logging.getLogger(__name__)


class Acknowledgement:
    """Answers an interaction as soon as its action is known to be legal, before it is stored:
    Discord gives three seconds, and a busy database must not eat them. Whether the answer
    could be given is remembered, so a move stored after the window closed is still announced.

    `shown`: the action gets a public board post; `public`: the deferral is public, because
    that post is the answer (not when it goes to the game's thread from elsewhere).
    """

    def __init__(self, interaction: discord.Interaction, **defer: Any) -> None:
        self.interaction = interaction
        self.defer = defer
        self.shown = False
        self.public = False
        self.tried = False
        self.answered = False

    async def __call__(self, pending: ActResult) -> None:
        if "thinking" in self.defer:
            # The deferral's visibility is that of the first follow-up, so a move that only
            # shows its player something (a drawn card) is deferred privately, and so is one
            # whose board goes to the game's thread while the command was typed elsewhere.
            self.shown = is_public(pending)
            if not self.shown:
                pending.let_go_of_view()  # no board post will read the view (see `board_post`)
            self.public = self.shown and posts_here(self.interaction, pending.game)
            self.defer["ephemeral"] = not self.public
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
            said = refusal(exc)  # a refusal, or the store away: nothing was stored
            if said is None:
                raise
            await self.refuse(said)
            return None
        if not self.answered:
            await self.announce_late(result)
            return None
        return result

    async def refuse(self, message: str | BaseException) -> None:
        """A refusal after the deferral (the store failed): never left in a public message."""
        interaction = self.interaction
        if self.tried and not self.answered:
            log.warning("refusal unsent: the interaction's window had closed (%s)", message)
            return
        if self.answered and self.public:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        try:
            await reply_error(interaction, message)
        except discord.NotFound:
            # Refused after Discord's window closed (the game's earlier move was still being
            # saved): nothing changed, and the player's client already said there was no answer.
            log.warning("refusal unsent: the interaction's window had closed (%s)", message)

    async def announce_late(self, result: ActResult) -> None:
        """The window closed before the answer: tell the channel rather than leave it silent."""
        aftermath = game_client(self.interaction).aftermath
        try:
            await aftermath.send_move(result)
        finally:
            aftermath.after_change(result.game, result.state, result.owed)


async def act_from_command(interaction: discord.Interaction, action: str) -> None:
    """A slash command that is an action: errors ephemeral, success is the public board post."""
    ack = Acknowledgement(interaction, thinking=True)
    result = await ack.act(channel_id=interaction.channel_id, action=action)
    if result is None:
        return
    follow_up = FollowUp.of(interaction)
    go_on(follow_up, result.game.id, _announce_command(follow_up, result, shown=ack.shown))


async def _announce_command(follow_up: FollowUp, result: ActResult, *, shown: bool) -> None:
    """A command's move, deferred and stored: its board post, then the mover's next private
    decision if they have one, else a private "done"."""
    aftermath = follow_up.aftermath
    try:
        via = follow_up.via(result.game)
        try:
            sent = await aftermath.send_move(result, via=via, shown=shown)
        except Exception as exc:
            if is_unreachable(exc) and shown and via is not None:
                # Nothing was posted: the board stays owed, posted once the store is back.
                # The public "thinking…" goes, so the person is told privately (`go_on`).
                await follow_up.withdraw_thinking()
            raise
        if sent is None and shown and via is not None:
            await follow_up.withdraw_thinking()  # another process posts the board
        elif sent is not None and not sent.withdrawn:
            await follow_up.posted_there(result.game)
        prompt = await prompt_post(result.game, result.state, follow_up.user_id, follow_up.language)
        if prompt is not None:
            await follow_up_privately(follow_up.webhook, prompt)
        elif not shown:
            await follow_up.say(follow_up.texts("bot.reply.done"))
    finally:
        # The move is stored: an AI seat moves next, or the game's replay is posted, even when
        # telling of the move failed.
        aftermath.after_change(result.game, result.state, result.owed)


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
        await interaction.edit_original_response(view=None)
        await game_client(interaction).aftermath.buttons.clicked(result.game, message.id)
        if prompt is not None:
            await send_private(interaction, prompt)
    elif prompt is not None:
        edit = prompt.kwargs()
        files = edit.pop("files", [])
        edit.pop("allowed_mentions", None)
        await interaction.edit_original_response(attachments=files, **edit)
    else:
        await interaction.edit_original_response(
            content=personal(interaction)(
                "bot.reply.done_action",
                action=move_words(result.game.game_name, action, language(interaction)),
            ),
            view=None,
            attachments=[],
            embed=None,
        )
    follow_up = FollowUp.of(interaction)
    go_on(follow_up, result.game.id, _announce_button(follow_up, result))


async def _announce_button(follow_up: FollowUp, result: ActResult) -> None:
    """A button's move, once its prompt is answered: the board post, if the move shows one."""
    aftermath = follow_up.aftermath
    try:
        sent = await aftermath.send_move(result, via=follow_up.via(result.game))
        if sent is not None and not sent.withdrawn:
            await follow_up.posted_there(result.game)
    finally:
        aftermath.after_change(result.game, result.state, result.owed)  # as after a command
