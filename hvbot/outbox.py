"""Posting what another process owed: a stored move's board post, a reminder's words, or a
finished game's replay.

A move and its announcement are stored together (see `hvbot.claims`). Normally the process that
stored the move posts it at once as the answer to the person. When that process died first,
the post is made here, by whichever process claims it, in the game's channel (or thread): the
board is rebuilt from the deal and the action log, as it was right after the move, so the post
says what the original would have said. If the game has not moved on since, what follows the
move follows here too (the AI seat to move); a finished game's replay is owed on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import State
from games import find_game
from hvbot import announcing, claims
from hvbot.claims import Announcement
from hvbot.posts import Post
from hvbot.service import ActResult
from hvbot.store import GameRow, GameStore

if TYPE_CHECKING:
    from hvbot.client import GameBot


async def post(bot: GameBot, owed: Announcement) -> None:
    """Make one owed post (nothing, if its game or its move is gone), mark it made, then
    carry the game on from it: in that order, since an AI seat waits for its game's owed
    posts before it plays (`GameBot._run_ai`). Nothing at all if another process took the post
    over meanwhile (see `claims.take`)."""
    repo = bot.service.repo
    if not await claims.take(repo.db, owed):
        return
    game = await repo.game(game_id=owed.game_id)
    after: State | None = None
    if game is not None and owed.kind == "replay":
        await bot.post_replay(game)
    elif game is not None and not owed.is_move:
        await announcing.announce(bot, game, Post(str(owed.body["content"])))
    elif game is not None:
        after = await _after_move(repo, game, owed)
        if after is not None:
            board = await announcing.board_post(game, _moved(game, owed, after), after)
            if board is not None:
                if game.version != owed.version:
                    board.view = None  # the game has moved on: its buttons are not this board's
                await announcing.announce(bot, game, board)
    await claims.sent(repo.db, owed.id)
    # A finished game's replay is owed on its own, after the last move's post.
    goes_on = game is not None and game.version == owed.version and game.is_open
    if game is not None and after is not None and goes_on and not after.is_terminal():
        bot.after_change(game, after)


async def _after_move(repo: GameStore, game: GameRow, owed: Announcement) -> State | None:
    """The game as it was right after the owed move (None if it was taken back since)."""
    texts = [text for _, text in await repo.actions(game_id=game.id)]
    first, count = int(owed.body["first"]), int(owed.body["count"])
    if game.seed is None or len(texts) < first + count:
        return None
    rules = find_game(game.game_name)
    return rules.replay(len(game.seats), game.seed, texts[: first + count], game.options)


def _moved(game: GameRow, owed: Announcement, after: State) -> ActResult:
    """The owed move as the service handed it over when it was stored."""
    first, count = int(owed.body["first"]), int(owed.body["count"])
    applied = tuple(after.history[first : first + count])
    return ActResult(game, after, int(owed.body["seat"]), applied, after.is_terminal())
