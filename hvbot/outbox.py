"""Posting what another process owed: a stored move's board post, or a reminder's words.

A move and its announcement are stored together (see `hvbot.claims`). Normally the process that
stored the move posts it at once as the answer to the person. When that process died first,
the post is made here, by whichever process claims it, in the game's channel (or thread): the
board is rebuilt from the deal and the action log, as it was right after the move, so the post
says what the original would have said. If the game has not moved on since, what follows the
move follows here too (the AI seat to move, or the replay of a finished game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import find_game
from hvbot import flow
from hvbot.claims import Announcement
from hvbot.posts import Post
from hvbot.service import ActResult

if TYPE_CHECKING:
    from hvbot.client import HvBot


async def post(bot: HvBot, owed: Announcement) -> None:
    """Make one owed post (nothing, if its game or its move is gone)."""
    repo = bot.service.repo
    game = await repo.game(game_id=owed.game_id)
    if game is None:
        return
    if not owed.is_move:
        await flow.announce(bot, game, Post(str(owed.body["content"])))
        return
    texts = [text for _, text in await repo.actions(game_id=game.id)]
    first, count = int(owed.body["first"]), int(owed.body["count"])
    if game.seed is None or len(texts) < first + count:
        return  # taken back since: there is nothing to tell
    rules = find_game(game.game)
    state = rules.replay(len(game.seats), game.seed, texts[: first + count], game.options)
    moved = ActResult(
        game, state, int(owed.body["seat"]), texts[first : first + count], state.is_terminal()
    )
    board = await flow.board_post(game, moved, state)
    if board is not None:
        await flow.announce(bot, game, board)
    if (game.version == owed.version and game.is_open) or state.is_terminal():
        bot.after_change(game, state)
