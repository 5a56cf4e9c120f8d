"""What people are told after a change: the board post with its picture, the private
decision waiting for the player to move, the lobby message, each seat's secret.

Private things (a drawn card, the lines you may declare, your colour) only ever go to their
owner, ephemerally or by DM. A game may be played in a thread started from its lobby message:
then every public post of the game goes to the thread (see `hvbot.handlers.answering.FollowUp`),
wherever the command behind it was typed. Sending what a change owes is `hvbot.aftermath`'s:
this module only says it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

import discord

from data.texts import texts_for
from engine.registry import find_game
from hvbot.infra import links, metrics, workers
from hvbot.messages import buttons, cards, time_words
from hvbot.messages.post import Picture, Post
from hvbot.messages.presenters import presenter_for
from hvbot.messages.presenters.base import plain
from hvbot.messages.wording import mention, names_of, picture_names, public, shown
from hvbot.services.outcomes import ActResult
from hvbot.services.rematch import Standing
from hvbot.services.seat_names import said
from hvbot.store import GameRow

log = logging.getLogger(__name__)


def is_public(result: ActResult) -> bool:
    """Whether an action gets a public board post (not when only its player saw something)."""
    presenter = presenter_for(result.game.game_name, result.game.language)
    return presenter.is_public(result.applied, result.public_view())


def move_lines(game: GameRow, result: ActResult) -> list[str]:
    """A public action's words, as its board post says them (none for one only its player
    saw): for a card that shows the board after the next action too (see `board_post`)."""
    presenter = presenter_for(game.game_name, game.language)
    view = result.public_view()
    if not presenter.is_public(result.applied, view):
        return []
    return list(presenter.describe(result.applied, view, names_of(game)[result.seat]))


async def board_post(
    game: GameRow,
    result: ActResult | None,
    state: Any,
    now: datetime,
    *,
    before: Sequence[str] = (),
) -> Post | None:
    """The public message after an action, or the board on request (None if only its player
    saw something, like a card they drew). In the game's language. `before`: the words of the
    action before this one, whose board this card shows too (an AI answering a person in the
    same interaction, where the bot only answers: see `hvbot.aftermath`).

    Its text is written before its pictures are drawn, and the view let go meanwhile (the
    result's copy too: nothing reads it after this): at a few hundred games every board waits
    its turn to be drawn, and the view is the largest thing a waiting move would hold."""
    presenter = presenter_for(game.game_name, game.language)
    texts = public(game)
    view = state.view(None) if result is None else result.public_view()
    names, drawn = names_of(game), picture_names(game)
    lines: list[str] = list(before)
    if result is not None:
        result.let_go_of_view()
        if not presenter.is_public(result.applied, view):
            return None
        lines += presenter.describe(result.applied, view, names[result.seat])
    choices = None
    seat = None if state.is_terminal() else state.current_seat()
    by_ai = seat is None or game.seats[seat].is_ai or seat == game.stand_in_seat
    # The clock is a person's: the picture says what they have left as it is drawn.
    clock = None if by_ai else time_words.time_left(game, now, texts)
    drawing = [
        metrics.timed(
            metrics.BOARD_DRAWING.labels(game.game_name),
            workers.draw(presenter.board_png, view, drawn, clock=clock),
        )
    ]
    if seat is None:
        drawing.append(workers.draw(presenter.end_png, view, drawn))
        lines.append(presenter.outcome(view, names))
        lines.append(texts("bot.board.archived"))
    else:
        lines.append(presenter.scores(view, names))
        who = mention(game, seat)
        waiting = presenter.waiting(view, who)
        if waiting:
            lines.append(waiting)
        elif by_ai:
            lines.append(texts("bot.board.next_ai", player=who))
        else:
            lines.append(texts("bot.board.next", player=who, note=presenter.turn_note(view)))
        if not by_ai:  # the clock is a person's, and an AI's choice comes by itself
            lines += filter(None, [time_words.away_line(game, seat, now, texts)])
            lines += filter(None, [time_words.clock_line(game, texts)])
            choices = buttons.choice_view(game.id, game.version, presenter.public_choices(view))
    # The card is edged in the colour of the seat to move, or of the game's lone winner.
    if seat is None:
        outcome = state.outcome()
        winners: tuple[int, ...] = outcome.winners if outcome is not None else ()
        accent = presenter.accent(winners[0]) if len(winners) == 1 else None
    else:
        accent = presenter.accent(seat)
    alts = [presenter.board_alt(view, drawn, clock=clock)]
    if seat is None:
        alts.append(presenter.end_alt(view, drawn))
    del view
    board, *end = await asyncio.gather(*drawing)
    files = [Picture("board.png", board, alts[0])]
    if end and end[0]:
        files.append(Picture("result.png", end[0], alts[1]))
    return Post(
        "\n".join(lines),
        files=files,
        view=await _board_buttons(game, choices, over=seat is None),
        version=game.version,
        live_buttons=choices is not None,
        card=True,
        accent=accent,
    )


async def _board_buttons(
    game: GameRow, choices: discord.ui.View | None, *, over: bool
) -> discord.ui.View | None:
    """A board post's buttons: while the game is under way, its choices, Follow and the
    "Live board" link; once it is over, the link alone (its page shows the result)."""
    link = await live_link(game)
    if over:
        return buttons.link_view(link, public(game)) if link is not None else None
    return buttons.board_view(game.id, choices, public(game), link)


async def follow_view(game: GameRow) -> discord.ui.View | None:
    """What a board post of the game keeps once its choices are past: the Follow button
    (see `hvbot.services.follows`) while the game is open, and the "Live board" link."""
    return await _board_buttons(game, None, over=not game.is_open)


async def live_link(game: GameRow) -> str | None:
    """The address of the game's live board on the web, for its posts: None when this bot
    serves none (WEB_PORT unset) or the game's server turned the links off."""
    served = links.current()
    return None if served is None else await served.for_game(game.id, game.guild_id)


async def prompt_post(
    game: GameRow, state: Any, user_id: int, language: str | None = None
) -> Post | None:
    """The private decision waiting for `user_id`, if it is theirs to make now, in their
    language (by default the one stored for their seat)."""
    seat = state.current_seat()
    if seat is None or game.seats[seat].user_id != user_id:
        return None
    spoken = language or game.seats[seat].language
    presenter = presenter_for(game.game_name, spoken)
    post = await presenter.prompt(state.view(seat), picture_names(game, texts_for(spoken)))
    if post is None:
        return None
    if post.choices:
        post.view = buttons.choice_view(game.id, game.version, post.choices)
    post.card, post.accent = True, presenter.accent(seat)
    return post


def posts_here(interaction: discord.Interaction, game: GameRow) -> bool:
    """Whether the game's public posts belong where the interaction was used: not when the
    game is played in a thread and the command came from elsewhere (its channel)."""
    return posts_in(interaction.channel_id, game)


def posts_in(channel_id: int | None, game: GameRow) -> bool:
    """`posts_here`, for an interaction used in `channel_id`."""
    return game.thread_id is None or channel_id == game.thread_id


async def post_channel(client: discord.Client, game: GameRow) -> discord.abc.Messageable:
    """The game's thread if it has one, else its channel."""
    where = game.post_channel_id
    found = client.get_channel(where) or await client.fetch_channel(where)
    if not isinstance(found, discord.abc.Messageable):  # a category or a forum: no posts
        raise TypeError(f"game {game.id}: channel {where} takes no posts")
    return found


def lobby_text(game: GameRow, now: datetime, standing: Standing | None = None) -> str:
    """The lobby message, in the game's language; who is away (/me away) at `now` is said;
    and for a rematch waiting for its people (`standing`), who has accepted and who is still
    to (mentioned: they are asked)."""
    texts = public(game)
    rules = find_game(game.game_name)
    seats = "\n".join(
        f"{s.seat + 1}. {said(s, texts, shown)}{time_words.away_mark(s, now, texts)}"
        for s in game.seats
    )
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
        where = "bot.lobby.in_thread" if game.is_open else "bot.lobby.ended_in_thread"
        state += "\n" + texts(where, thread=f"<#{game.thread_id}>")
    if game.clock is not None:
        state += "\n" + time_words.clock_terms(game.clock, texts)
    mode = game.options.get("mode")
    if mode:
        title = texts("bot.lobby.title_mode", game=rules.title, mode=texts(f"bot.mode.{mode}"))
    else:
        title = rules.title
    if standing is not None and game.status == "lobby":
        state += "\n" + texts(
            "bot.rematch.invitation",
            number=standing.of,
            accepted=", ".join(f"<@{user}>" for user in standing.accepted),
            waiting=", ".join(f"<@{user}>" for user in standing.waiting),
        )
    return texts("bot.lobby.text", title=title, seats=seats, state=state)


def lobby_buttons(game: GameRow, standing: Standing | None = None) -> discord.ui.View:
    """The lobby message's buttons: Accept and Decline while it is a rematch waiting for its
    people (`standing`), else the lobby's own; Follow while the game is open (alone once it
    has started)."""
    if standing is not None and game.status == "lobby":
        return buttons.invitation_view(game.id, public(game))
    return buttons.lobby_view(
        game.id, public(game), open_=game.status == "lobby", followable=game.is_open
    )


def lobby_post(game: GameRow, now: datetime, standing: Standing | None) -> Post:
    """A rematch's lobby message, posted (a lobby opened by /game new is its answer)."""
    return Post(lobby_text(game, now, standing), view=lobby_buttons(game, standing), card=True)


def lobby_card(
    game: GameRow,
    now: datetime,
    view: discord.ui.View | None,
    standing: Standing | None = None,
) -> discord.ui.LayoutView:
    """The lobby message as a card: its text (`lobby_text`) and `view`'s buttons, the same
    card whether it is first sent or edited (a lobby's card is never given a picture)."""
    return cards.card(lobby_text(game, now, standing), buttons=view)


def lobby_edit(
    game: GameRow,
    now: datetime,
    view: discord.ui.View | None,
    standing: Standing | None = None,
) -> dict[str, Any]:
    """What the lobby message is edited with: its card, and its plain text cleared. A lobby
    posted as plain text before its game's posts were cards (open while the bot was
    upgraded) becomes a card only once its text is cleared, as Discord requires; a card has
    none to clear."""
    return {"content": None, "view": lobby_card(game, now, view, standing)}


async def refresh_lobby(
    client: discord.Client, game: GameRow, now: datetime, standing: Standing | None = None
) -> None:
    """Edit the one lobby message in place: the seats as they are (and a rematch's
    `standing`), that the game started, or that it has ended (and where it was played).
    Not where the bot only answers (`GameRow.answers_only`): Discord lets it edit a message
    there only through the interaction that made it."""
    if game.lobby_message_id is None or game.answers_only:
        return
    channel = client.get_partial_messageable(game.channel_id)
    try:
        await channel.get_partial_message(game.lobby_message_id).edit(
            **lobby_edit(game, now, lobby_buttons(game, standing), standing)
        )
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id)


THREAD_NAME: Final = 100  # Discord's longest thread name
THREAD_ARCHIVE_MINUTES: Final = 10080  # a week without a post before Discord hides the thread


async def start_thread(
    client: discord.Client, game: GameRow, name: str | None = None
) -> int | None:
    """Start the game's public thread from its lobby message, named after the game (or
    `name`: a tournament's table): the thread's id, or None when there is no lobby message
    or Discord refused (no permission, say), and the game stays in its channel."""
    if game.lobby_message_id is None:
        return None
    # By Discord's route itself: discord.py's `PartialMessage.create_thread` wants the server
    # in this process's cache, and a process that took the post over from another (which
    # died) may not serve that server's shard at all.
    try:
        thread = await client.http.start_thread_with_message(
            game.channel_id,
            game.lobby_message_id,
            name=(name or f"{find_game(game.game_name).title} #{game.id}")[:THREAD_NAME],
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException:
        log.warning("game %s: could not start a thread; playing in the channel", game.id)
        return None
    return int(thread["id"])


def dms_closed_post(game: GameRow, user_ids: list[int]) -> Post:
    """The channel told whose DMs are closed, pointing them to /game mysecret without saying
    anything secret."""
    secret = presenter_for(game.game_name, game.language).secret_words()
    players = ", ".join(f"<@{user_id}>" for user_id in user_ids)
    return Post(public(game)("bot.game.dm_failed", players=players, secret=secret))


async def secret_post(game: GameRow, state: Any, seat: int, language: str | None = None) -> Post:
    """What a seat was told privately at the start, in `language` (by default the seat's:
    a direct message has no interaction to take a language from)."""
    presenter = presenter_for(game.game_name, language or game.seats[seat].language)
    view = state.view(seat)
    alt = presenter.secret_alt(view, seat)
    title, text, picture = await workers.draw(presenter.secret, game.post_channel_id, view, seat)
    return Post(
        f"### {title}\n{text}",
        files=[Picture("secret.png", picture, alt or plain(title))],
        card=True,
        accent=presenter.accent(seat),
    )
