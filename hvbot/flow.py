"""The path of every interaction: check and apply through the service, then tell people.

Bad input is answered ephemerally before anything is shown publicly; a stored change is
announced with the board picture; private things (a drawn card, the lines you may declare, your
colour) only ever go to their owner, ephemerally or by DM.

A game may be played in a thread started from its lobby message: then every public post of the
game goes to the thread (`publish`, `announce`), wherever the command behind it was typed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from engine import find_game
from hvbot import views
from hvbot.posts import ALLOWED, Post, render_off_loop, send_private
from hvbot.presenters import presenter_for
from hvbot.repository import GameRow
from hvbot.service import ActResult, BotError, UndoOutcome, VoteOutcome

if TYPE_CHECKING:
    from hvbot.client import HvBot

log = logging.getLogger(__name__)


def names_of(game: GameRow) -> list[str]:
    return [seat.display_name for seat in game.seats]


def mention(game: GameRow, seat: int) -> str:
    row = game.seats[seat]
    return f"<@{row.user_id}>" if row.user_id is not None else f"**{row.display_name}**"


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


async def reply_error(interaction: discord.Interaction, message: str) -> None:
    """Every refusal is ephemeral and changes nothing."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


APOLOGY = "Sorry, something went wrong on my side; the game is unchanged. Please try again."


@contextlib.asynccontextmanager
async def guarded(interaction: discord.Interaction, game_id: int | None) -> AsyncIterator[None]:
    """Log an unexpected failure with its game and answer with a short apology.

    The game stays consistent because nothing is announced before it is stored, and a failed
    store rolls back whole.
    """
    try:
        yield
    except BotError as exc:
        await reply_error(interaction, str(exc))
    except Exception:
        log.exception("game %s: unexpected error handling an interaction", game_id)
        with contextlib.suppress(discord.HTTPException):
            await reply_error(interaction, APOLOGY)


# ---------------------------------------------------------------------- posts


def is_public(result: ActResult) -> bool:
    """Whether an action gets a public board post (not when only its player saw something)."""
    presenter = presenter_for(result.game.game)
    return presenter.is_public(result.applied, result.state.view(None))


async def board_post(game: GameRow, result: ActResult | None, state: Any) -> Post | None:
    """The public message after an action, or the board on request (None if only its player
    saw something, like a card they drew)."""
    presenter = presenter_for(game.game)
    view = state.view(None)
    names = names_of(game)
    lines: list[str] = []
    if result is not None:
        if not presenter.is_public(result.applied, view):
            return None
        lines += presenter.describe(result.applied, view, names[result.seat])
    board = await render_off_loop(presenter.board_png, view, names)
    if state.is_terminal():
        picture = await render_off_loop(presenter.end_png, view, names)
        lines.append(presenter.outcome(view, names))
        lines.append("The game is archived; start a new one any time with /game new.")
        files = [("board.png", board)] + ([("result.png", picture)] if picture else [])
        return Post("\n".join(lines), files=files)
    lines.append(presenter.scores(view, names))
    seat = state.current_seat()
    who = mention(game, seat)
    waiting = presenter.waiting(view, who)
    if waiting:
        lines.append(waiting)
    elif game.seats[seat].is_ai:
        lines.append(f"Next: {who} is thinking…")
    else:
        lines.append(f"Next: {who}, your turn{presenter.turn_note(view)}.")
    return Post(
        "\n".join(lines), files=[("board.png", board)], view=presenter.public_buttons(game, view)
    )


async def prompt_post(game: GameRow, state: Any, user_id: int) -> Post | None:
    """The private decision waiting for `user_id`, if it is theirs to make now."""
    seat = state.current_seat()
    if seat is None or game.seats[seat].user_id != user_id:
        return None
    return await presenter_for(game.game).prompt(game, state.view(seat))


def posts_here(interaction: discord.Interaction, game: GameRow) -> bool:
    """Whether the game's public posts belong where the interaction was used: not when the
    game is played in a thread and the command came from elsewhere (its channel)."""
    return game.thread_id is None or interaction.channel_id == game.thread_id


async def publish(interaction: discord.Interaction, game: GameRow, post: Post) -> None:
    """A public post answering a deferred interaction. In the game's thread, or in its channel
    when it has none, the post is the answer itself; used elsewhere, the post goes to the
    thread and the person gets a short private note pointing there (so an interaction
    answered this way is deferred privately: see `posts_here`)."""
    if posts_here(interaction, game):
        await interaction.followup.send(**post.kwargs())
        return
    await announce(interaction.client, game, post)  # type: ignore[arg-type]
    await interaction.followup.send(
        f"Posted in <#{game.thread_id}>, where this game is played.", ephemeral=True
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
                user_id=self.interaction.user.id, before_store=self, **where
            )
        except BotError as exc:
            await self.refuse(str(exc))
            return None
        if not self.answered:
            await self.announce_late(result)
            return None
        return result

    async def refuse(self, message: str) -> None:
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
        bot.after_change(result.game, result.state)


async def act_from_command(interaction: discord.Interaction, action: str) -> None:
    """A slash command that is an action: errors ephemeral, success is the public board post."""
    bot: HvBot = interaction.client  # type: ignore[assignment]
    ack = Acknowledgement(interaction, thinking=True)
    result = await ack.act(channel_id=interaction.channel_id, action=action)
    if result is None:
        return
    if ack.shown:
        post = await board_post(result.game, result, result.state)
        assert post is not None
        await publish(interaction, result.game, post)
    prompt = await prompt_post(result.game, result.state, interaction.user.id)
    if prompt is not None:
        await send_private(interaction, prompt)
    elif not ack.shown:
        await interaction.followup.send("Done.", ephemeral=True)
    bot.after_change(result.game, result.state)


async def action_button(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A button on a private prompt (replaced by what comes next) or on a public board post
    (which keeps its picture and loses its buttons): apply, then announce."""
    bot: HvBot = interaction.client  # type: ignore[assignment]
    ack = Acknowledgement(interaction)
    result = await ack.act(game_id=game_id, action=action, expected_version=version)
    if result is None:
        return
    message = interaction.message
    prompt = await prompt_post(result.game, result.state, interaction.user.id)
    if message is not None and not message.flags.ephemeral:
        await interaction.edit_original_response(view=None)
        if prompt is not None:
            await send_private(interaction, prompt)
    elif prompt is not None:
        edit = prompt.kwargs()
        files = edit.pop("files", [])
        edit.pop("allowed_mentions", None)
        await interaction.edit_original_response(attachments=files, **edit)
    else:
        await interaction.edit_original_response(
            content=f"Done: {action}.", view=None, attachments=[], embed=None
        )
    post = await board_post(result.game, result, result.state)
    if post is not None:
        await publish(interaction, result.game, post)
    bot.after_change(result.game, result.state)


# ---------------------------------------------------------------------- absent players


def vote_text(outcome: VoteOutcome) -> str:
    vote, game = outcome.vote, outcome.game
    away = game.seats[vote.seat]
    name = away.display_name if away.user_id is None else mention(game, vote.seat)
    voters = " ".join(f"<@{u}>" for u in vote.asked if u not in vote.votes)
    cast = len(vote.votes)
    return (
        f"{name} has been away a long time. {voters}: let an AI play their seat until they "
        f"come back (/game return), or end the game? {cast} of {len(vote.asked)} voted; a "
        "choice wins with more than half, and the next move cancels the vote."
    )


async def request_takeover(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        outcome = await bot.service.request_takeover(
            channel_id=interaction.channel_id, user_id=interaction.user.id
        )
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return
    await interaction.response.send_message(
        vote_text(outcome), view=views.vote_view(outcome.vote.id), allowed_mentions=ALLOWED
    )


async def cast_vote(interaction: discord.Interaction, vote_id: int, choice: str) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        outcome = await bot.service.cast_vote(
            vote_id=vote_id, user_id=interaction.user.id, choice=choice
        )
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return
    game = outcome.game
    if outcome.status == "open":
        await interaction.response.edit_message(
            content=vote_text(outcome), view=views.vote_view(vote_id)
        )
    elif outcome.status == "ai":
        name = game.seats[outcome.vote.seat].display_name
        await interaction.response.edit_message(
            content=f"Decided: {name}. They can take their seat back any time with /game return.",
            view=None,
        )
        bot.after_change(game, bot.service.load_state(game))  # the AI may be to move
    else:
        await interaction.response.edit_message(
            content="Decided: the game ends here, unfinished. Start a new one with /game new.",
            view=None,
        )


async def return_seat(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        await bot.service.return_seat(
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
        )
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return
    await interaction.response.send_message(
        f"<@{interaction.user.id}> is back and plays their own seat again.",
        allowed_mentions=ALLOWED,
    )


# ---------------------------------------------------------------------- taking back


def undo_text(outcome: UndoOutcome) -> str:
    request = outcome.request
    who = f"<@{request.requester_id}>"
    waiting = " ".join(f"<@{u}>" for u in request.waiting_for)
    return (
        f"{who} asks to take back their last move ({request.action}). {waiting}: do you "
        "accept? Everyone asked must accept, and the next move cancels the request."
    )


async def taken_back(outcome: UndoOutcome) -> Post:
    """The board as it was before the move, announced like any change to the game."""
    assert outcome.state is not None
    post = await board_post(outcome.game, None, outcome.state)
    assert post is not None
    post.content = (
        f"<@{outcome.request.requester_id}> took back {outcome.request.action}.\n" + post.content
    )
    return post


async def request_undo(interaction: discord.Interaction) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        outcome = await bot.service.request_undo(
            channel_id=interaction.channel_id, user_id=interaction.user.id
        )
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return
    if outcome.status == "done":
        await interaction.response.defer(
            thinking=True, ephemeral=not posts_here(interaction, outcome.game)
        )
        await publish(interaction, outcome.game, await taken_back(outcome))
        bot.after_change(outcome.game, outcome.state)
        return
    await interaction.response.send_message(
        undo_text(outcome), view=views.undo_view(outcome.request.id), allowed_mentions=ALLOWED
    )
    message = await interaction.original_response()
    await bot.service.repo.set_undo_message(request_id=outcome.request.id, message_id=message.id)


async def answer_undo(interaction: discord.Interaction, request_id: int, *, accept: bool) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    try:
        outcome = await bot.service.answer_undo(
            request_id=request_id, user_id=interaction.user.id, accept=accept
        )
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return
    action = outcome.request.action
    if outcome.status == "waiting":
        await interaction.response.edit_message(
            content=undo_text(outcome), view=views.undo_view(request_id)
        )
    elif outcome.status == "refused":
        await interaction.response.edit_message(
            content=f"<@{interaction.user.id}> said no: {action} stands.", view=None
        )
    else:
        await interaction.response.edit_message(
            content=f"Everyone accepted: {action} is taken back.", view=None
        )
        await announce(bot, outcome.game, await taken_back(outcome))
        bot.after_change(outcome.game, outcome.state)


async def announce(bot: HvBot, game: GameRow, post: Post) -> None:
    """Post to the game's thread if it has one, else to its channel."""
    where = game.post_channel_id
    channel = bot.get_channel(where) or await bot.fetch_channel(where)
    await channel.send(**post.kwargs())  # type: ignore[union-attr]


# ---------------------------------------------------------------------- lobby


def lobby_text(game: GameRow) -> str:
    rules = find_game(game.game)
    seats = "\n".join(f"{s.seat + 1}. {s.display_name}" for s in game.seats) or "nobody yet"
    if game.status == "lobby":
        state = (
            f"Waiting for players ({len(game.seats)}/{rules.max_seats}, at least "
            f"{rules.min_seats}). The creator starts the game."
        )
    elif game.status == "active":
        state = "Started: good luck!"
    else:
        state = f"This game is {game.status}."
    if game.thread_id is not None:
        state += f"\nThe game is played in <#{game.thread_id}>."
    mode = game.options.get("mode")
    title = f"{rules.title} ({mode} mode)" if mode else rules.title
    return f"**{title}**: new game\n{seats}\n{state}"


async def refresh_lobby(bot: HvBot, game: GameRow) -> None:
    """Edit the one lobby message in place (after a slash command changed the seats)."""
    if game.lobby_message_id is None:
        return
    channel = bot.get_partial_messageable(game.channel_id)
    try:
        await channel.get_partial_message(game.lobby_message_id).edit(
            content=lobby_text(game), view=views.lobby_view(game.id, open_=game.status == "lobby")
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
    try:
        game = await change()
    except BotError as exc:
        await reply_error(interaction, str(exc))
        return None
    if from_button:
        await interaction.response.edit_message(
            content=lobby_text(game), view=views.lobby_view(game.id)
        )
    else:
        await interaction.response.send_message(confirm, ephemeral=True)
        await refresh_lobby(interaction.client, game)  # type: ignore[arg-type]
    return game


async def lobby_button(interaction: discord.Interaction, game_id: int, what: str) -> None:
    bot: HvBot = interaction.client  # type: ignore[assignment]
    game = await bot.service.repo.game(game_id=game_id)
    if game is None or game.status != "lobby" or game.channel_id != interaction.channel_id:
        await reply_error(interaction, "This lobby is closed. Start a new game with /game new.")
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
            lambda: service.join(channel_id=channel_id, user_id=user.id, name=user.display_name),
            from_button=from_button,
            confirm="You joined the game.",
        )
    elif what == "leave":
        await lobby_change(
            interaction,
            lambda: service.leave(channel_id=channel_id, user_id=user.id),
            from_button=from_button,
            confirm="You left the game.",
        )
    elif what == "addai":
        await lobby_change(
            interaction,
            lambda: service.add_ai(channel_id=channel_id, user_id=user.id, level=level),
            from_button=from_button,
            confirm="AI player added.",
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
        await reply_error(interaction, str(exc))
        return
    if from_button:
        await interaction.response.edit_message(
            content=lobby_text(game), view=views.lobby_view(game.id, open_=False)
        )
    else:
        await interaction.response.send_message("The game has started.", ephemeral=True)
    # Answered first (Discord's three seconds), then the thread; the lobby says where it is.
    game = await open_thread(interaction, game)
    if not from_button or game.thread_id is not None:
        await refresh_lobby(bot, game)
    post = await board_post(game, None, state)
    if post is not None:
        first = state.current_seat()
        post.content = (
            f"**{find_game(game.game).title}** begins! {mention(game, first)} goes first.\n"
            + post.content
        )
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
        await announce(
            bot,
            game,
            Post(
                f"I could not send a direct message to {', '.join(failed)}: use /game mysecret "
                "here to see your company privately."
            ),
        )


async def secret_post(game: GameRow, state: Any, seat: int) -> Post:
    presenter = presenter_for(game.game)
    title, text, picture = await render_off_loop(presenter.secret, game, state.view(seat), seat)
    embed = discord.Embed(title=title, description=text)
    embed.set_image(url="attachment://secret.png")
    return Post("", files=[("secret.png", picture)], embed=embed)
