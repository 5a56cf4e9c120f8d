"""Answering an interaction within Discord's rules: three seconds to acknowledge, refusals
only the asker sees, follow-ups through the interaction's webhook for 15 minutes.

Bad input is answered ephemerally before anything is shown publicly (a refusal raised by the
service goes up to what runs the handler, `guarded` for a button and
`GameBot.on_app_command_error` for a command, which answer it). Once a move is acknowledged and
stored, its announcement goes on in a task of its own (`go_on`), so the many moves waiting for
their pictures at a busy moment do not each hold their interaction.

While the database cannot be reached (restarting, say), a person is told so privately, in
their language, "try again in a moment" (`refusal`, `answer_failure`), never left without an
answer; nothing they asked was done, and the same request works once the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any, ParamSpec, Protocol, TypeVar, cast

import discord

from data.texts import Texts, language_of, texts_for
from hvbot.aftermath import Aftermath, Reach
from hvbot.database import is_unreachable
from hvbot.messages.game_posts import post_channel, posts_in
from hvbot.messages.limits import CONTENT, fit_text
from hvbot.messages.outgoing import PRIVATE, send_kwargs
from hvbot.messages.post import Post
from hvbot.messages.wording import explain, personal
from hvbot.services import BotError, GameService
from hvbot.store import GameRow

log = logging.getLogger(__name__)


class GameClient(Protocol):
    """What the handlers need of the bot beside its connection to Discord: the games'
    service, and the aftermath of the changes they make."""

    service: GameService
    aftermath: Aftermath


def game_client(interaction: discord.Interaction) -> GameClient:
    """The bot that received the interaction, as the handlers see it."""
    return cast(GameClient, interaction.client)


UNAVAILABLE = "bot.error.store_unavailable"  # what a person is told while the store is away


def unavailable() -> BotError:
    """The refusal while the game store cannot be reached (restarting, out of reach): nothing
    was done, and the same request works once it is back, by itself, without a restart."""
    return BotError(
        "The game store cannot be reached just now: try again in a moment.", key=UNAVAILABLE
    )


def refusal(error: BaseException) -> BotError | None:
    """What an error is said to a person as: a refusal as itself, the store being away as
    `unavailable`; None for a failure (logged and apologised for)."""
    if isinstance(error, BotError):
        return error
    if is_unreachable(error):
        log.debug("the game store is away: told the person to try again (%s)", error)
        return unavailable()
    return None


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
    _, posted = await _answer_or_post(interaction, game, **message)
    return posted


async def ask_publicly(
    interaction: discord.Interaction, game: GameRow, **message: Any
) -> discord.Message:
    """`answer_publicly`, and the message posted either way, for a question whose message
    is looked up again later (a lobby, an undo request). Discord's answer to the callback
    carries the message it made, so it is not asked for again: one request fewer for every
    game opened."""
    answer, posted = await _answer_or_post(interaction, game, **message)
    return answer or posted or await interaction.original_response()


async def _answer_or_post(
    interaction: discord.Interaction, game: GameRow, **message: Any
) -> tuple[discord.InteractionMessage | None, discord.Message | None]:
    """The message of the answer if Discord made it in time (or None, if its reply did not
    say), and the message posted in the channel instead if the answer came too late. A
    deferred interaction (a new lobby that waited: see `after_catching_up`) is answered by
    replacing its "thinking…", or, where Discord no longer takes that, by the post."""
    made: list[discord.InteractionMessage | None] = []

    async def answering() -> None:
        sent = await interaction.response.send_message(**message)
        resource = sent.resource if sent is not None else None
        made.append(resource if isinstance(resource, discord.InteractionMessage) else None)

    if interaction.response.is_done():
        if (replaced := await _replace_thinking(interaction, game, message)) is not None:
            return replaced, None
    elif await answer_after_change(game.id, answering()):
        return (made[0] if made else None), None
    if game.answers_only:
        return None, None  # where the bot only answers, it cannot post on its own instead
    channel = await post_channel(interaction.client, game)
    return None, await channel.send(**message)


# What Discord answers an edit of a deferred answer it no longer takes: its interaction's
# token has run out (fifteen minutes), or the "thinking…" message was deleted.
GONE_STATUSES = (401, 404)


async def _replace_thinking(
    interaction: discord.Interaction, game: GameRow, message: dict[str, Any]
) -> discord.InteractionMessage | None:
    """`message` in place of the deferred answer's "thinking…"; None if Discord no longer
    takes it there."""
    try:
        return await interaction.edit_original_response(**message)
    except discord.HTTPException as exc:
        if exc.status not in GONE_STATUSES:
            raise
        log.warning("game %s: the deferred answer is gone (%s); posting instead", game.id, exc)
        return None


async def after_catching_up(interaction: discord.Interaction, game: GameRow) -> GameRow:
    """A new game opened while its process is behind on what the games started already owe
    (see `hvbot.aftermath.backlog`): answered at once with Discord's "thinking…", which the
    game's lobby replaces (`ask_publicly`) once the process has caught up. The game as it is
    by then: someone may have joined it by /game join, or started or abandoned it. A deferral
    too late for Discord leaves the lobby to be posted instead, as any late answer."""
    client = game_client(interaction)
    backlog = client.aftermath.backlog
    if not backlog.behind:
        return game
    await answer_after_change(game.id, interaction.response.defer(thinking=True))
    await backlog.caught_up()
    try:
        return await client.service.games.find(game.id, fresh=True) or game
    except Exception as exc:
        if not is_unreachable(exc):
            raise
        return game  # the store is away a moment: the lobby as it was made


async def reply_error(interaction: discord.Interaction, message: str | BaseException) -> None:
    """Every refusal is ephemeral, pings nobody and changes nothing; an error is said in the
    asker's language, with the names people chose in it escaped (`wording.explain`)."""
    if isinstance(message, BaseException):
        message = explain(personal(interaction), message)
    message = fit_text(message, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=PRIVATE)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=PRIVATE)


_Asked = ParamSpec("_Asked")
_Choice = TypeVar("_Choice")


def quiet_autocomplete(
    suggest: Callable[_Asked, Coroutine[Any, Any, list[_Choice]]],
) -> Callable[_Asked, Coroutine[Any, Any, list[_Choice]]]:
    """Autocomplete that answers no suggestions when it fails unexpectedly. It runs at every
    keystroke of whatever anyone types, and discord.py would leave the person's client saying
    it did not respond and log a traceback for each one: here a failure is one line of
    warning, its traceback at debug level."""

    @functools.wraps(suggest)
    async def quietly(*args: _Asked.args, **kwargs: _Asked.kwargs) -> list[_Choice]:
        try:
            return await suggest(*args, **kwargs)
        except Exception as exc:
            log.warning("autocomplete %s failed, suggested nothing: %r", suggest.__name__, exc)
            log.debug("autocomplete %s failed", suggest.__name__, exc_info=exc)
            return []

    return quietly


@contextlib.asynccontextmanager
async def guarded(interaction: discord.Interaction, game_id: int | None) -> AsyncIterator[None]:
    """Log an unexpected failure with its game and answer with a short apology; a store that
    cannot be reached just now is said as such, "try again in a moment" (`answer_failure`).

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
    away: str = UNAVAILABLE,
) -> None:
    """What `guarded` does with an error: a refusal is said, a failure is logged and
    apologised for (`say` answers the person, in the language of `texts`; `apology` is the
    key of the words, which differ once a move is stored, and `away` those said while the
    store cannot be reached)."""
    if isinstance(error, BotError):
        await say(explain(texts, error))
    elif is_unreachable(error):
        # The database said once that it is away; each person told is not worth a line more.
        log.debug("game %s: the game store is away: %s", game_id, error)
        with contextlib.suppress(discord.HTTPException):
            await say(texts(away))
    elif too_late(error):
        # Nothing was announced that is not stored; the person's client already said so.
        log.warning("game %s: answered too late: Discord's window closed", game_id)
    else:
        log.error("game %s: unexpected error handling an interaction", game_id, exc_info=error)
        with contextlib.suppress(discord.HTTPException):
            await say(texts(apology))


async def make_way(webhook: discord.Webhook, post: Post) -> None:
    """Before `post` answers a deferral whose "thinking…" is still shown: if it is a card with
    a picture, the thinking is withdrawn, and the post follows as a message of its own. The
    follow-up that replaces the thinking is an edit of it, and Discord refuses a new upload
    edited into a card's gallery (discord-api-docs #7529, open)."""
    if post.card and post.files:
        with contextlib.suppress(discord.HTTPException):
            await webhook.delete_message("@original")  # type: ignore[arg-type]  # Discord takes "@original" for the first answer; discord.py types an id as int


async def publish(interaction: discord.Interaction, game: GameRow, post: Post) -> None:
    """A public post answering a deferred interaction (see `FollowUp.publish`)."""
    await FollowUp.of(interaction).publish(game, post)


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What answering a deferred interaction further needs, without the interaction.

    A move's announcement waits for its board picture, and at a few hundred games most moves
    are waiting at any moment. The interaction, with its person, its message and discord.py's
    frames that dispatched it, is several times the size of this; so a move goes on from here
    in a task of its own (`go_on`), and the handler that received it returns at once."""

    aftermath: Aftermath
    webhook: discord.Webhook  # the interaction's follow-up webhook, valid for 15 minutes
    user_id: int
    channel_id: int | None
    locale: discord.Locale

    @classmethod
    def of(cls, interaction: discord.Interaction) -> FollowUp:
        return cls(
            game_client(interaction).aftermath,
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

    def reach(self, *, withdraw: bool = False) -> Reach:
        """This interaction as the way to a game the bot reaches only by answering (see
        `Reach`): `withdraw` when its answer so far is a private "thinking…"."""
        return Reach(self.webhook, self.aftermath.games.clock(), withdraw=withdraw)

    async def publish(self, game: GameRow, post: Post) -> None:
        """A public post that no change owes (the board shown again on request): the answer
        where the game is played, else in its thread with a pointer there."""
        message: discord.Message
        if posts_in(self.channel_id, game):
            await make_way(self.webhook, post)
            message = await self.webhook.send(wait=True, **send_kwargs(post))
        else:
            message = await self.aftermath.sender.to_game(game, post)
            await self.posted_there(game)
        self.aftermath.buttons.shown(game, post, message)

    async def withdraw_thinking(self) -> None:
        """Delete the private "thinking…" of a deferral that has nothing more to say to the
        person (the board, in the channel, says it)."""
        with contextlib.suppress(discord.HTTPException):
            await self.webhook.delete_message("@original")  # type: ignore[arg-type]  # Discord takes "@original" for the first answer; discord.py types an id as int

    async def posted_there(self, game: GameRow) -> None:
        """Point the person to the thread where the post answering them went."""
        if not posts_in(self.channel_id, game):
            await self.say(self.texts("bot.reply.posted_in_thread", thread=f"<#{game.thread_id}>"))

    async def say(self, message: str) -> None:
        """A private line to the person."""
        await self.webhook.send(
            fit_text(message, CONTENT), ephemeral=True, allowed_mentions=PRIVATE
        )


async def show_owed(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """After a refusal in a game the bot reaches only by answering (`GameRow.answers_only`):
    what the game owes from before (a clock run out while nobody was there, a reminder whose
    DM was refused) is shown through this interaction all the same, as its follow-ups (see
    `Aftermath.catch_up`). Nothing for a game played in its channel."""
    service = game_client(interaction).service
    found: list[GameRow | None] = []
    if game_id is not None:
        found.append(await service.games.find(game_id))
    elif interaction.channel_id is not None:
        found.append(await service.games.in_channel(interaction.channel_id, interaction.user.id))
        # And the game played there last, if it ended while nobody was there (its clock ran
        # out, a loss): its people learn it at their next interaction in the channel.
        found += [a.game for a in await service.games.finished(interaction.channel_id, limit=1)]
    games = [game for game in found if game is not None and game.answers_only]
    if not games:
        return
    follow_up = FollowUp.of(interaction)
    reach = follow_up.reach()
    for game in games:
        await follow_up.aftermath.catch_up(game, reach)


def let_go(interaction: discord.Interaction) -> None:
    """Once a handler is wholly done with `interaction`: untie it from its response.

    discord.py keeps the response it hands out (`interaction.response`) on the interaction,
    and the response keeps the interaction it answers: a reference cycle, holding the
    interaction's person, its data and the clicked message with all its components, that
    only the garbage collector's full passes freed, one for every command and click. Untied,
    it all goes as soon as the handler lets go of it. Asked for after this, the response
    would start afresh as unanswered: this is for the handler's very end. The response's
    place is discord.py's own (no public way empties it); where a release keeps it
    elsewhere, nothing is changed."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")


ANSWER_TASK = "hvbot-answer-"  # the name of every `go_on` task: see GameBot._finish_answering


def go_on(follow_up: FollowUp, game_id: int, work: Awaitable[None]) -> None:
    """Finish answering in a task of its own (see `FollowUp`), guarded like the handler it
    comes from: a failure is logged with its game, and the person gets the apology."""
    task = asyncio.create_task(_guarded_follow_up(follow_up, game_id, work))
    task.set_name(f"{ANSWER_TASK}{game_id}")
    follow_up.aftermath.keep(task)


async def _guarded_follow_up(follow_up: FollowUp, game_id: int, work: Awaitable[None]) -> None:
    try:
        await work
    except Exception as exc:
        # Only a stored move goes on here: "the game is unchanged, try again" would be untrue.
        await answer_failure(
            exc,
            game_id,
            follow_up.texts,
            follow_up.say,
            apology="bot.apology_after_move",
            away="bot.error.store_unavailable_after_move",
        )
