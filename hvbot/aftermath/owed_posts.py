"""What an owed post says, built from what is stored, whichever process sends it.

The process that made a change usually sends its posts itself, from what it has in hand. When
it died (or was paused past its lease) first, another process builds the same post from the
database: the game is dealt again from its seed and its stored actions, as it was right after
the change, so the post says what the original would have said.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from data.texts import Texts, texts_for
from engine import State
from engine.registry import find_game
from hvbot.messages import buttons, game_posts, replays
from hvbot.messages.post import Post
from hvbot.messages.presenters import presenter_for
from hvbot.messages.wording import mention, move_words, names_of, public
from hvbot.services.access import GameAccess
from hvbot.services.outcomes import ActResult
from hvbot.store import GameRow
from hvbot.store.duties import Owed

log = logging.getLogger(__name__)


async def dealt_again(games: GameAccess, game: GameRow, count: int) -> State | None:
    """The game as it was after its first `count` stored actions (None if fewer are stored
    now: taken back since). The deal alone (`count` 0) reads no actions."""
    texts = [text for _, text in await games.actions(game.id)] if count else []
    if game.seed is None or len(texts) < count:
        return None
    rules = find_game(game.game_name)
    return rules.replay(len(game.seats), game.seed, texts[:count], game.options)


def text_post(owed: Owed) -> Post:
    """The words a text post owes (a reminder, a vote's outcome), as they were written."""
    return Post(str(owed.body["content"]))


async def digest_post(games: GameAccess, game: GameRow, owed: Owed) -> Post | None:
    """A follower's digest (see `hvbot.services.follows`): first the moves it told before
    that were taken back since, in the words the channel was told (the move named as its
    player made it); then the moves its body names, each told as the channel was told it,
    from the public view right after it (so a card drawn face down stays unsaid, and
    nobody's company is named), then where the game stands, or how it ended; in the
    follower's language, as a card with its Unfollow button inside. None when there is
    nothing the channel saw (a card drawn and not yet placed, a move taken back since)."""
    digest = owed.body
    first, count = int(digest["first"]), int(digest["count"])
    texts = texts_for(str(digest.get("language", game.language)))
    actions = await games.actions(game.id)
    if game.seed is None or len(actions) < first + count:
        return None
    rules = find_game(game.game_name)
    presenter = presenter_for(game.game_name, texts.language)
    names = names_of(game, texts)
    state = rules.replay(len(game.seats), game.seed, [t for _, t in actions[:first]], game.options)
    taken_back = [
        _taken_back_words(game, names, texts, told) for told in digest.get("taken_back", ())
    ]
    lines: list[str] = [*taken_back]
    for seat, text in actions[first : first + count]:
        state.apply(text)
        view = state.view(None)
        if presenter.is_public((text,), view):
            lines += presenter.describe((text,), view, names[seat])
    view = state.view(None)
    if state.is_terminal():
        lines.append(presenter.outcome(view, names))
    elif digest.get("over"):
        lines.append(texts("bot.follow.ended"))
    elif not lines:
        return None
    else:
        lines.append(presenter.scores(view, names))
        to_move = state.current_seat()
        if to_move is not None:
            lines.append(texts("bot.follow.next", player=names[to_move]))
    heading = texts(
        "bot.follow.digest",
        game=rules.title,
        number=game.id,
        where=f"<#{game.post_channel_id}>",
    )
    view_ = None if digest.get("over") else buttons.unfollow_view(game.id, texts)
    return Post("\n".join([heading, *lines]), view=view_, card=True)


def _taken_back_words(game: GameRow, names: list[str], texts: Texts, told: dict[str, Any]) -> str:
    """A move taken back, as the channel was told it (`taken_back_post`), for a digest: its
    player by the name the digest gives them, the move in the follower's language."""
    requester = int(told["player"])
    seat = game.seat_of(requester)
    player = names[seat] if seat is not None else f"<@{requester}>"
    return texts(
        "bot.undo.taken_back_ai" if told.get("ai") else "bot.undo.taken_back",
        player=player,
        action=move_words(game.game_name, str(told["action"]), texts.language),
    )


async def start_post(game: GameRow, state: Any, now: datetime) -> Post | None:
    """The first board, saying who begins."""
    post = await game_posts.board_post(game, None, state, now)
    if post is None:
        return None
    first = state.current_seat()
    begins = public(game)(
        "bot.game.begins", game=find_game(game.game_name).title, player=mention(game, first)
    )
    post.content = f"{begins}\n{post.content}"
    return post


async def taken_back_post(
    game: GameRow, state: Any, requester_id: int, action: str, now: datetime, ai_after: int = 0
) -> Post:
    """The board as it was before a move that was taken back, announced like any change
    (`ai_after`: how many actions of AI seats went with it). The move is named as its player
    made it, never by what it showed (a drawn card stays unsaid, and face down again)."""
    post = await game_posts.board_post(game, None, state, now)
    assert post is not None
    took = public(game)(
        "bot.undo.taken_back_ai" if ai_after else "bot.undo.taken_back",
        player=f"<@{requester_id}>",
        action=move_words(game.game_name, action, game.language),
    )
    post.content = f"{took}\n{post.content}"
    return post


async def replay_post(games: GameAccess, game: GameRow) -> Post | None:
    """A finished game's replay (None, with a warning, when it has none: a game abandoned
    before any move, say), with the Rematch button under it: it is the post that follows a
    finished game's result, whichever way it finished (the last move, a forfeit). A finished
    game whose replay cannot be drawn still has the button, under a line of its own."""
    texts = texts_for(game.language)
    actions = await games.actions(game.id)
    # The result's post: a finished game's people may ask for its rematch from it.
    rematch = buttons.rematch_view(game.id, texts) if game.status == "finished" else None
    try:
        post = await replays.replay_post(
            game,
            actions,
            heading=texts("bot.replay.heading"),
            texts=texts,
            kept=games.store.replays,
        )
    except replays.NoReplay as exc:
        log.warning("game %s: no replay: %s", game.id, exc)
        if rematch is None:
            return None
        # No picture to show, but the rematch is still offered.
        return Post(texts("bot.rematch.offer"), view=rematch, card=True)
    post.view = rematch  # inside the card, under the animation
    return post


async def rebuilt(games: GameAccess, game: GameRow, owed: Owed) -> tuple[Post | None, State | None]:
    """The post `owed` stands for, built from what is stored, and for a move, the game as it
    was right after it (None where there is nothing to say any more). A secret, a text and
    the lobby are not built here: they are sent by their own ways (see `Aftermath.deliver`)."""
    body = owed.body
    if owed.kind == "replay":
        return await replay_post(games, game), None
    if owed.kind == "start":
        state = await dealt_again(games, game, 0)
        return (await start_post(game, state, games.clock()) if state is not None else None), None
    if owed.kind == "undo":
        state = await dealt_again(games, game, int(body["count"]))
        if state is None:
            return None, None
        post = await taken_back_post(
            game,
            state,
            int(body["player"]),
            str(body["action"]),
            games.clock(),
            int(body.get("ai", 0)),
        )
        if game.version != owed.version:
            # The game has moved on: its choices are not this board's (Follow stays).
            post.view, post.live_buttons = await game_posts.follow_view(game), False
        return post, None
    if owed.kind == "move":
        first, count = int(body["first"]), int(body["count"])
        after = await dealt_again(games, game, first + count)
        if after is None:
            return None, None
        moved = ActResult(
            game=game,
            state=after,
            seat=int(body["seat"]),
            applied=tuple(after.history[first : first + count]),
            finished=after.is_terminal(),
        )
        board = await game_posts.board_post(game, moved, after, games.clock())
        if board is not None and game.version != owed.version:
            # The game has moved on: its choices are not this board's (Follow stays).
            board.view, board.live_buttons = await game_posts.follow_view(game), False
        return board, after
    raise ValueError(f"post {owed.id}: no way to build a {owed.kind!r}")
