"""The path of every interaction: check and apply through the service, then tell people.

Bad input is answered ephemerally before anything is shown publicly (a refusal raised by the
service goes up to what runs the handler, `guarded` for a button and
`HvBot.on_app_command_error` for a command, which answer it); a stored change is announced
with the board picture; private things (a drawn card, the lines you may declare, your
colour) only ever go to their owner, ephemerally or by DM. Once a move is acknowledged and
stored, its announcement goes on in a task of its own (`go_on`), so the many moves waiting
for their pictures at a busy moment do not each hold their interaction.

Each message is in the language of whoever reads it: a reply to one person (ephemeral, a
refusal, a private prompt) in their Discord client's (`interaction.locale`), a public post in
the game's (the server's preferred locale when the game was opened, stored with it), a direct
message in the seat's (its person's client, as last seen).

A game may be played in a thread started from its lobby message: then every public post of the
game goes to the thread (`publish`, `announce`), wherever the command behind it was typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from data.texts import Texts, language_of, texts_for
from games import find_game
from hvbot import board_buttons, views, workers
from hvbot.limits import CONTENT, fit_text
from hvbot.posts import ALLOWED, Post, follow_up_privately, send_private
from hvbot.presenters import presenter_for
from hvbot.repository import GameRow
from hvbot.service import ActResult, BotError, UndoOutcome, VoteOutcome

if TYPE_CHECKING:
    from hvbot.client import HvBot

log = logging.getLogger(__name__)
UNKNOWN_INTERACTION = 10062  # Discord's error code for an interaction answered too late


def too_late(error: BaseException) -> bool:
    """Whether Discord refused an answer because its three-second window had closed."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def answer_after_change(game_id: int, answer: Awaitable[Any]) -> bool:
    """Give the answer to an interaction whose change is stored already; False if it came
    too late for Discord (a very busy moment). The person's client has said there was no
    answer, but the change stands, so whatever follows it (the lobby message, the thread,
    the board, the secrets) must still happen: the caller carries on either way."""
    try:
        await answer
    except discord.NotFound as exc:
        if not too_late(exc):
            raise
        log.warning("game %s: answered too late; carrying on without the answer", game_id)
        return False
    return True


async def update_clicked(interaction: discord.Interaction, game_id: int, **fields: Any) -> None:
    """Answer a click on a public message by editing that message. Too late for Discord, the
    bot edits it directly, so a settled question never shows its buttons as still open."""
    edit = interaction.response.edit_message(**fields)
    if not await answer_after_change(game_id, edit) and interaction.message is not None:
        try:
            await interaction.message.edit(**fields)
        except discord.HTTPException:
            log.warning("game %s: could not update the message clicked", game_id)


async def answer_publicly(
    interaction: discord.Interaction, game: GameRow, **message: Any
) -> discord.Message | None:
    """Answer with a new public message. Too late for Discord, the message is posted in the
    game's channel all the same (it may carry buttons, a vote or an undo, that others must
    still be able to press), and that message is returned; None when answered in time."""
    answer = interaction.response.send_message(**message)
    if await answer_after_change(game.id, answer):
        return None
    channel = await post_channel(interaction.client, game)  # type: ignore[arg-type]
    return await channel.send(**message)


async def ask_publicly(
    interaction: discord.Interaction, game: GameRow, **message: Any
) -> discord.Message:
    """`answer_publicly`, and the message posted either way, for a question whose message
    is looked up again later (a lobby, an undo request)."""
    posted = await answer_publicly(interaction, game, **message)
    return posted or await interaction.original_response()


def names_of(game: GameRow) -> list[str]:
    return [seat.display_name for seat in game.seats]


def mention(game: GameRow, seat: int) -> str:
    row = game.seats[seat]
    return f"<@{row.user_id}>" if row.user_id is not None else f"**{row.display_name}**"


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


def personal(interaction: discord.Interaction) -> Texts:
    """The texts of one person's replies: their Discord client's language."""
    return texts_for(interaction.locale)


def public(game: GameRow) -> Texts:
    """The texts of a game's public posts: its stored language."""
    return texts_for(game.language)


def language(interaction: discord.Interaction) -> str:
    """The language code to remember for the person behind an interaction."""
    return language_of(interaction.locale)


def hours_words(texts: Texts, span: timedelta) -> str:
    """A wait in hours, as a person reads it ("3 hours", "under an hour")."""
    hours = span.total_seconds() / 3600
    if hours < 1:
        return texts("bot.time.under_hour")
    return texts("bot.time.hours", count=round(hours))


def move_words(game: str, action: str, language: str) -> str:
    """A stored action of `game` in words, in a language."""
    return presenter_for(game, language).move_words(action)


def explain(texts: Texts, error: BaseException) -> str:
    """An error's message in a language; spans of time among its fields are put in words,
    and so is a move (the field `action`, with the engine name of its game in `game_name`)."""
    key = getattr(error, "key", None)
    if not (key and texts.has(key)):
        return texts.explain(error)
    fields = dict(getattr(error, "fields", {}) or {})
    words = {
        name: hours_words(texts, value) if isinstance(value, timedelta) else value
        for name, value in fields.items()
    }
    if "game_name" in words and "action" in words:
        words["action"] = move_words(words["game_name"], words["action"], texts.language)
    return texts(key, **words)


async def reply_error(interaction: discord.Interaction, message: str | BaseException) -> None:
    """Every refusal is ephemeral and changes nothing; an error is said in the asker's
    language."""
    if isinstance(message, BaseException):
        message = explain(personal(interaction), message)
    message = fit_text(message, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


APOLOGY = texts_for("en")("bot.apology")


@contextlib.asynccontextmanager
async def guarded(interaction: discord.Interaction, game_id: int | None) -> AsyncIterator[None]:
    """Log an unexpected failure with its game and answer with a short apology.

    The game stays consistent because nothing is announced before it is stored, and a failed
    store rolls back whole.
    """
    try:
        yield
    except Exception as exc:
        await answer_failure(exc, game_id, personal(interaction), partial(reply_error, interaction))


async def answer_failure(
    error: Exception,
    game_id: int | None,
    texts: Texts,
    say: Callable[[str], Awaitable[Any]],
    *,
    apology: str = "bot.apology",
) -> None:
    """What `guarded` does with an error: a refusal is said, a failure is logged and
    apologised for (`say` answers the person, in the language of `texts`; `apology` is the
    key of the words, which differ once a move is stored)."""
    if isinstance(error, BotError):
        await say(explain(texts, error))
    elif too_late(error):
        # Nothing was announced that is not stored; the person's client already said so.
        log.warning("game %s: answered too late: Discord's window closed", game_id)
    else:
        log.error("game %s: unexpected error handling an interaction", game_id, exc_info=error)
        with contextlib.suppress(discord.HTTPException):
            await say(texts(apology))


# ---------------------------------------------------------------------- posts


def is_public(result: ActResult) -> bool:
    """Whether an action gets a public board post (not when only its player saw something)."""
    presenter = presenter_for(result.game.game, result.game.language)
    return presenter.is_public(result.applied, result.public_view())


async def board_post(game: GameRow, result: ActResult | None, state: Any) -> Post | None:
    """The public message after an action, or the board on request (None if only its player
    saw something, like a card they drew). In the game's language.

    Its text is written before its pictures are drawn, and the view let go meanwhile (the
    result's copy too: nothing reads it after this): at a few hundred games every board waits
    its turn to be drawn, and the view is the largest thing a waiting move would hold."""
    presenter = presenter_for(game.game, game.language)
    texts = public(game)
    view = state.view(None) if result is None else result.public_view()
    names = names_of(game)
    lines: list[str] = []
    if result is not None:
        result.seen = None
        if not presenter.is_public(result.applied, view):
            return None
        lines += presenter.describe(result.applied, view, names[result.seat])
    buttons = None
    drawing = [workers.draw(presenter.board_png, view, names)]
    if state.is_terminal():
        drawing.append(workers.draw(presenter.end_png, view, names))
        lines.append(presenter.outcome(view, names))
        lines.append(texts("bot.board.archived"))
    else:
        lines.append(presenter.scores(view, names))
        seat = state.current_seat()
        who = mention(game, seat)
        waiting = presenter.waiting(view, who)
        if waiting:
            lines.append(waiting)
        elif game.seats[seat].is_ai:
            lines.append(texts("bot.board.next_ai", player=who))
        else:
            lines.append(texts("bot.board.next", player=who, note=presenter.turn_note(view)))
        if not game.seats[seat].is_ai:  # an AI seat's choice comes by itself
            buttons = views.choice_view(game.id, game.version, presenter.public_choices(view))
    del view
    board, *end = await asyncio.gather(*drawing)
    files = [("board.png", board)]
    if end and end[0]:
        files.append(("result.png", end[0]))
    return Post("\n".join(lines), files=files, view=buttons, version=game.version)


async def prompt_post(
    game: GameRow, state: Any, user_id: int, language: str | None = None
) -> Post | None:
    """The private decision waiting for `user_id`, if it is theirs to make now, in their
    language (by default the one stored for their seat)."""
    seat = state.current_seat()
    if seat is None or game.seats[seat].user_id != user_id:
        return None
    spoken = language or game.seats[seat].language
    post = await presenter_for(game.game, spoken).prompt(state.view(seat))
    if post is not None and post.choices:
        post.view = views.choice_view(game.id, game.version, post.choices)
    return post


def posts_here(interaction: discord.Interaction, game: GameRow) -> bool:
    """Whether the game's public posts belong where the interaction was used: not when the
    game is played in a thread and the command came from elsewhere (its channel)."""
    return posts_in(interaction.channel_id, game)


def posts_in(channel_id: int | None, game: GameRow) -> bool:
    """`posts_here`, for an interaction used in `channel_id`."""
    return game.thread_id is None or channel_id == game.thread_id


async def publish(interaction: discord.Interaction, game: GameRow, post: Post) -> None:
    """A public post answering a deferred interaction. In the game's thread, or in its channel
    when it has none, the post is the answer itself; used elsewhere, the post goes to the
    thread and the person gets a short private note pointing there (so an interaction
    answered this way is deferred privately: see `posts_here`)."""
    await FollowUp.of(interaction).publish(game, post)


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What answering a deferred interaction further needs, without the interaction.

    A move's announcement waits for its board picture, and at a few hundred games most moves
    are waiting at any moment. The interaction, with its person, its message and discord.py's
    frames that dispatched it, is several times the size of this; so a move goes on from here
    in a task of its own (`go_on`), and the handler that received it returns at once."""

    bot: HvBot
    webhook: discord.Webhook  # the interaction's follow-up webhook, valid for 15 minutes
    user_id: int
    channel_id: int | None
    locale: discord.Locale

    @classmethod
    def of(cls, interaction: discord.Interaction) -> FollowUp:
        return cls(
            interaction.client,  # type: ignore[arg-type]
            interaction.followup,
            interaction.user.id,
            interaction.channel_id,
            interaction.locale,
        )

    @property
    def texts(self) -> Texts:
        """The person's language, as `personal`."""
        return texts_for(self.locale)

    @property
    def language(self) -> str:
        return language_of(self.locale)

    async def publish(self, game: GameRow, post: Post) -> None:
        """See `publish`."""
        if posts_in(self.channel_id, game):
            sent = await self.webhook.send(wait=True, **post.kwargs())
            board_buttons.shown(self.bot, game, post, sent)
            return
        await announce(self.bot, game, post)
        await self.webhook.send(
            self.texts("bot.reply.posted_in_thread", thread=f"<#{game.thread_id}>"),
            ephemeral=True,
        )

    async def say(self, message: str) -> None:
        """A private line to the person."""
        await self.webhook.send(fit_text(message, CONTENT), ephemeral=True)


ANSWER_TASK = "hvbot-answer-"  # the name of every `go_on` task: see HvBot._finish_answering


def go_on(follow_up: FollowUp, game_id: int, work: Awaitable[None]) -> None:
    """Finish answering in a task of its own (see `FollowUp`), guarded like the handler it
    comes from: a failure is logged with its game, and the person gets the apology."""
    task = asyncio.create_task(_guarded_follow_up(follow_up, game_id, work))
    task.set_name(f"{ANSWER_TASK}{game_id}")
    follow_up.bot.keep_until_done(task)


async def _guarded_follow_up(follow_up: FollowUp, game_id: int, work: Awaitable[None]) -> None:
    try:
        await work
    except Exception as exc:
        # Only a stored move goes on here: "the game is unchanged, try again" would be untrue.
        await answer_failure(
            exc, game_id, follow_up.texts, follow_up.say, apology="bot.apology_after_move"
        )


# ---------------------------------------------------------------------- acting


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
                pending.seen = None  # no board post will read the view (see `board_post`)
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
        bot: HvBot = self.interaction.client  # type: ignore[assignment]
        try:
            result = await bot.service.act(
                user_id=self.interaction.user.id,
                before_store=self,
                language=language(self.interaction),
                **where,
            )
        except BotError as exc:
            await self.refuse(exc)
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
        bot: HvBot = self.interaction.client  # type: ignore[assignment]
        post = await board_post(result.game, result, result.state)
        if post is not None:
            await announce(bot, result.game, post)
        await bot.posted(result.game)
        bot.after_change(result.game, result.state)


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
    try:
        if shown:
            post = await board_post(result.game, result, result.state)
            assert post is not None
            await follow_up.publish(result.game, post)
        prompt = await prompt_post(result.game, result.state, follow_up.user_id, follow_up.language)
        if prompt is not None:
            await follow_up_privately(follow_up.webhook, prompt)
        elif not shown:
            await follow_up.say(follow_up.texts("bot.reply.done"))
    finally:
        # The move is stored: an AI seat moves next, or the game's replay is posted, even when
        # telling of the move failed (then the post is not owed any longer either: retried
        # by another process, Discord would most likely refuse it again).
        await follow_up.bot.posted(result.game)
        follow_up.bot.after_change(result.game, result.state)


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
        await board_buttons.clicked(interaction.client, result.game, message.id)  # type: ignore[arg-type]
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
                action=move_words(result.game.game, action, language(interaction)),
            ),
            view=None,
            attachments=[],
            embed=None,
        )
    follow_up = FollowUp.of(interaction)
    go_on(follow_up, result.game.id, _announce_button(follow_up, result))


async def _announce_button(follow_up: FollowUp, result: ActResult) -> None:
    """A button's move, once its prompt is answered: the board post, if the move shows one."""
    try:
        post = await board_post(result.game, result, result.state)
        if post is not None:
            await follow_up.publish(result.game, post)
    finally:
        await follow_up.bot.posted(result.game)  # as in `_announce_command`
        follow_up.bot.after_change(result.game, result.state)


# ---------------------------------------------------------------------- absent players


def vote_text(outcome: VoteOutcome) -> str:
    vote, game = outcome.vote, outcome.game
    away = game.seats[vote.seat]
    name = away.display_name if away.user_id is None else mention(game, vote.seat)
    voters = " ".join(f"<@{u}>" for u in vote.asked if u not in vote.votes)
    return public(game)(
        "bot.vote.asked", player=name, voters=voters, cast=len(vote.votes), count=len(vote.asked)
    )


async def request_takeover(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    outcome = await bot.service.request_takeover(
        channel_id=interaction.channel_id, user_id=interaction.user.id
    )
    await answer_publicly(
        interaction,
        outcome.game,
        content=vote_text(outcome),
        view=views.vote_view(outcome.vote.id, public(outcome.game)),
        allowed_mentions=ALLOWED,
    )


async def cast_vote(interaction: discord.Interaction, vote_id: int, choice: str) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    outcome = await bot.service.cast_vote(
        vote_id=vote_id, user_id=interaction.user.id, choice=choice
    )
    game = outcome.game
    if outcome.status == "open":
        await update_clicked(
            interaction,
            game.id,
            content=vote_text(outcome),
            view=views.vote_view(vote_id, public(game)),
        )
    elif outcome.status == "ai":
        name = game.seats[outcome.vote.seat].display_name
        await update_clicked(
            interaction, game.id, content=public(game)("bot.vote.ai", player=name), view=None
        )
        bot.after_change(game, bot.service.peek_state(game))  # the AI may be to move
    else:
        await update_clicked(interaction, game.id, content=public(game)("bot.vote.end"), view=None)
        board_buttons.moved_on(bot, game)


async def return_seat(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    game = await bot.service.return_seat(
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
    board_buttons.moved_on(bot, game)  # a change of seat moves the game's version on


# ---------------------------------------------------------------------- taking back


def undo_move(outcome: UndoOutcome) -> str:
    """The move an undo request is about, in words, in the game's language."""
    game = outcome.game
    return move_words(game.game, outcome.request.action, game.language)


def undo_text(outcome: UndoOutcome) -> str:
    request = outcome.request
    who = f"<@{request.requester_id}>"
    waiting = " ".join(f"<@{u}>" for u in request.waiting_for)
    return public(outcome.game)(
        "bot.undo.asked", player=who, action=undo_move(outcome), waiting=waiting
    )


async def taken_back(outcome: UndoOutcome) -> Post:
    """The board as it was before the move, announced like any change to the game."""
    assert outcome.state is not None
    post = await board_post(outcome.game, None, outcome.state)
    assert post is not None
    took = public(outcome.game)(
        "bot.undo.taken_back",
        player=f"<@{outcome.request.requester_id}>",
        action=undo_move(outcome),
    )
    post.content = f"{took}\n{post.content}"
    return post


async def request_undo(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    outcome = await bot.service.request_undo(
        channel_id=interaction.channel_id, user_id=interaction.user.id
    )
    if outcome.status == "done":
        deferred = interaction.response.defer(
            thinking=True, ephemeral=not posts_here(interaction, outcome.game)
        )
        if await answer_after_change(outcome.game.id, deferred):
            await publish(interaction, outcome.game, await taken_back(outcome))
        else:
            await announce(bot, outcome.game, await taken_back(outcome))
        bot.after_change(outcome.game, outcome.state)
        return
    message = await ask_publicly(
        interaction,
        outcome.game,
        content=undo_text(outcome),
        view=views.undo_view(outcome.request.id, public(outcome.game)),
        allowed_mentions=ALLOWED,
    )
    await bot.service.repo.set_undo_message(request_id=outcome.request.id, message_id=message.id)


async def answer_undo(interaction: discord.Interaction, request_id: int, *, accept: bool) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    outcome = await bot.service.answer_undo(
        request_id=request_id, user_id=interaction.user.id, accept=accept
    )
    action = undo_move(outcome)
    game_id = outcome.game.id
    if outcome.status == "waiting":
        waiting = views.undo_view(request_id, public(outcome.game))
        await update_clicked(interaction, game_id, content=undo_text(outcome), view=waiting)
    elif outcome.status == "refused":
        said = public(outcome.game)(
            "bot.undo.refused", player=f"<@{interaction.user.id}>", action=action
        )
        await update_clicked(interaction, game_id, content=said, view=None)
    else:
        said = public(outcome.game)("bot.undo.accepted", action=action)
        await update_clicked(interaction, game_id, content=said, view=None)
        await announce(bot, outcome.game, await taken_back(outcome))
        bot.after_change(outcome.game, outcome.state)


async def post_channel(bot: HvBot, game: GameRow) -> discord.abc.Messageable:
    """The game's thread if it has one, else its channel."""
    where = game.post_channel_id
    return bot.get_channel(where) or await bot.fetch_channel(where)  # type: ignore[return-value]


async def announce(bot: HvBot, game: GameRow, post: Post) -> None:
    """Post to the game's thread if it has one, else to its channel."""
    channel = await post_channel(bot, game)
    sent = await channel.send(**post.kwargs())
    board_buttons.shown(bot, game, post, sent)


# ---------------------------------------------------------------------- lobby


def lobby_text(game: GameRow) -> str:
    """The lobby message, in the game's language."""
    texts = public(game)
    rules = find_game(game.game)
    seats = "\n".join(f"{s.seat + 1}. {s.display_name}" for s in game.seats)
    seats = seats or texts("bot.lobby.nobody")
    if game.status == "lobby":
        state = texts(
            "bot.lobby.waiting",
            seated=len(game.seats),
            most=rules.max_seats,
            count=rules.min_seats,
        )
    elif game.status == "active":
        state = texts("bot.lobby.started")
    else:
        state = texts(f"bot.lobby.{game.status}")
    if game.thread_id is not None:
        state += "\n" + texts("bot.lobby.in_thread", thread=f"<#{game.thread_id}>")
    mode = game.options.get("mode")
    if mode:
        title = texts("bot.lobby.title_mode", game=rules.title, mode=texts(f"bot.mode.{mode}"))
    else:
        title = rules.title
    return texts("bot.lobby.text", title=title, seats=seats, state=state)


async def refresh_lobby(bot: HvBot, game: GameRow) -> None:
    """Edit the one lobby message in place (after a slash command changed the seats)."""
    if game.lobby_message_id is None:
        return
    channel = bot.get_partial_messageable(game.channel_id)
    try:
        await channel.get_partial_message(game.lobby_message_id).edit(
            content=lobby_text(game),
            view=views.lobby_view(game.id, public(game), open_=game.status == "lobby"),
        )
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id)


async def lobby_change(
    interaction: discord.Interaction,
    change: Callable[[], Awaitable[GameRow]],
    *,
    from_button: bool,
    confirm: str,
) -> GameRow | None:
    """`confirm`: the key of the private note when the change came from a command."""
    try:
        game = await change()
    except BotError as exc:
        await reply_error(interaction, exc)
        return None
    if from_button:
        lobby = views.lobby_view(game.id, public(game))
        await update_clicked(interaction, game.id, content=lobby_text(game), view=lobby)
    else:
        note = interaction.response.send_message(personal(interaction)(confirm), ephemeral=True)
        await answer_after_change(game.id, note)
        await refresh_lobby(interaction.client, game)  # type: ignore[arg-type]
    return game


async def lobby_button(interaction: discord.Interaction, game_id: int, what: str) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    game = await bot.service.repo.game(game_id=game_id)
    if game is None or game.status != "lobby" or game.channel_id != interaction.channel_id:
        await reply_error(interaction, personal(interaction)("bot.lobby.closed"))
        return
    await lobby_action(interaction, what, from_button=True)


async def lobby_action(
    interaction: discord.Interaction, what: str, *, from_button: bool, level: str = "easy"
) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    service = bot.service
    channel_id = interaction.channel_id
    user = interaction.user
    if what == "join":
        await lobby_change(
            interaction,
            lambda: service.join(
                channel_id=channel_id,
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
            lambda: service.leave(channel_id=channel_id, user_id=user.id),
            from_button=from_button,
            confirm="bot.lobby.left",
        )
    elif what == "addai":
        await lobby_change(
            interaction,
            lambda: service.add_ai(channel_id=channel_id, user_id=user.id, level=level),
            from_button=from_button,
            confirm="bot.lobby.ai_added",
        )
    elif what == "start":
        await start_game(interaction, from_button=from_button)


async def start_game(interaction: discord.Interaction, *, from_button: bool) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        game, state = await bot.service.start(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            can_manage=can_manage(interaction),
        )
    except BotError as exc:
        await reply_error(interaction, exc)
        return
    if from_button:
        closed = views.lobby_view(game.id, public(game), open_=False)
        await update_clicked(interaction, game.id, content=lobby_text(game), view=closed)
    else:
        note = personal(interaction)("bot.lobby.game_started")
        await answer_after_change(game.id, interaction.response.send_message(note, ephemeral=True))
    # Answered first (Discord's three seconds), then the thread; the lobby says where it is.
    game = await open_thread(interaction, game)
    if not from_button or game.thread_id is not None:
        await refresh_lobby(bot, game)
    post = await board_post(game, None, state)
    if post is not None:
        first = state.current_seat()
        begins = public(game)(
            "bot.game.begins", game=find_game(game.game).title, player=mention(game, first)
        )
        post.content = f"{begins}\n{post.content}"
        await announce(bot, game, post)
    await send_secrets(bot, game, state)
    bot.after_change(game, state)


THREAD_ARCHIVE_MINUTES = 10080  # a week without a post before Discord hides the thread


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
    bot: HvBot = interaction.client  # type: ignore[assignment]
    lobby = bot.get_partial_messageable(
        game.channel_id, guild_id=game.guild_id
    ).get_partial_message(game.lobby_message_id)
    try:
        thread = await lobby.create_thread(
            name=f"{find_game(game.game).title} #{game.id}",
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except (discord.HTTPException, ValueError):
        log.warning("game %s: could not start a thread; playing in the channel", game.id)
        return game
    await bot.service.repo.set_thread(game_id=game.id, thread_id=thread.id)
    return await bot.service.repo.game(game_id=game.id) or game


async def send_secrets(bot: HvBot, game: GameRow, state: Any) -> None:
    """Each person's colour by DM; a closed DM is reported without saying anything secret."""
    failed = []
    for seat in game.seats:
        if seat.user_id is None:
            continue
        post = await secret_post(game, state, seat.seat)
        try:
            user = bot.get_user(seat.user_id) or await bot.fetch_user(seat.user_id)
            await user.send(**post.kwargs())
        except discord.HTTPException:
            failed.append(f"<@{seat.user_id}>")
    if failed:
        secret = presenter_for(game.game, game.language).secret_words()
        notice = public(game)("bot.game.dm_failed", players=", ".join(failed), secret=secret)
        await announce(bot, game, Post(notice))


async def secret_post(game: GameRow, state: Any, seat: int, language: str | None = None) -> Post:
    """What a seat was told privately at the start, in `language` (by default the seat's:
    a direct message has no interaction to take a language from)."""
    presenter = presenter_for(game.game, language or game.seats[seat].language)
    title, text, picture = await workers.draw(
        presenter.secret, game.channel_id, state.view(seat), seat
    )
    embed = discord.Embed(title=title, description=text)
    embed.set_image(url="attachment://secret.png")
    return Post("", files=[("secret.png", picture)], embed=embed)
