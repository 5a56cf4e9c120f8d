"""Buttons on a public board post are taken off once the game has moved past them.

Some board posts carry buttons (`Presenter.public_choices`: the choices after a Sector 6 move,
a blocked player's rotations, the Pylons opening choice), made for one version of the game. A
click on one takes them off its post (`handlers.moves.action_button`, then `clicked`). But the
turn may move on otherwise (a command, an AI seat, an undo, a resignation, the game's end), and then
they could only be refused as out of date. So the game remembers its one post with live
buttons and the version they are for (`LiveButtons.keep`, stored with the game: any
process, and the same one after a restart, sees it), and the buttons are taken off as soon as
the game is past their version: after each board post (`shown`: the post before it), and after
each change (`moved_on`, from `Aftermath.follow`, whatever the change).

It never holds up what it follows: it runs in a task of its own once the new post is out. A
post deleted meanwhile, or that can no longer be edited, is let be (a warning at most): its
buttons are refused as out of date, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from hvbot.database import is_unreachable
from hvbot.messages import cards, game_posts
from hvbot.messages.post import Post
from hvbot.messages.presenters import presenter_for
from hvbot.messages.presenters.base import Presenter
from hvbot.store import GameRow
from hvbot.store.buttons import LiveButtons

log = logging.getLogger(__name__)
# Named like the tasks answering interactions (`answering.ANSWER_TASK`), which closing waits for.
TASK = "hvbot-answer-buttons-"


def has_buttons(game: GameRow) -> bool:
    """Whether the game ever puts buttons on its board posts that the bot takes off later: not
    where it reaches its players only by answering (`GameRow.answers_only`), as it cannot
    edit messages there; a click there takes the buttons off the card clicked, and an older
    card's stale button is refused by its version."""
    if game.answers_only:
        return False
    presenter = type(presenter_for(game.game_name))
    return presenter.public_choices is not Presenter.public_choices


class BoardButtons:
    """The live buttons of the games' board posts, for one process (`keep` holds a task in
    the process's care until it ends, so closing waits for it)."""

    def __init__(
        self,
        client: discord.Client,
        live: LiveButtons,
        keep: Callable[[asyncio.Task[None]], None],
    ) -> None:
        self.client = client
        self.live = live
        self.keep = keep

    def shown(self, game: GameRow, post: Post, message: discord.Message | None) -> None:
        """`post` went out as `message`: if it is a board post (`Post.version`), remember it
        when it has buttons, and take off the buttons the game is past."""
        if post.version is None or not has_buttons(game):
            return
        if post.live_buttons and message is not None:
            work = self._keep(game, message.id, post.version)
        else:
            work = self._drop_stale(game)
        self._in_background(game, work)

    def moved_on(self, game: GameRow) -> None:
        """The game changed: take off the buttons it is past, if some post still shows them."""
        if has_buttons(game):
            self._in_background(game, self._drop_stale(game))

    async def clicked(self, game: GameRow, message_id: int) -> None:
        """A click took the buttons off the post `message_id`: nothing is left to take off
        there."""
        try:
            await self.live.forget(game_id=game.id, message_id=message_id)
        except Exception as exc:
            # At worst the post's buttons are taken off a second time.
            log.warning(
                "game %s: could not forget the buttons clicked",
                game.id,
                exc_info=not is_unreachable(exc),
            )

    def _in_background(self, game: GameRow, work: Awaitable[None]) -> None:
        task = asyncio.create_task(_quietly(game, work))
        task.set_name(f"{TASK}{game.id}")
        self.keep(task)

    async def _keep(self, game: GameRow, message_id: int, version: int) -> None:
        stale = await self.live.keep(game_id=game.id, message_id=message_id, version=version)
        for old in stale:
            await self._take_off(game, old)

    async def _drop_stale(self, game: GameRow) -> None:
        old = await self.live.drop_stale(game_id=game.id)
        if old is not None:
            await self._take_off(game, old)

    async def _take_off(self, game: GameRow, message_id: int) -> None:
        """Edit a board post to drop its choices, keeping its text, its pictures and its
        Follow button (while the game is open). A card is read first: its layout is its
        whole message, so it is sent again without the choices' rows (`cards.without_choices`;
        its flag cannot be taken off), showing the pictures it already has."""
        channel = self.client.get_partial_messageable(game.post_channel_id, guild_id=game.guild_id)
        try:
            message = await channel.fetch_message(message_id)
            view = cards.without_choices(message, await game_posts.follow_view(game))
            await message.edit(view=view)
        except discord.NotFound:
            log.info("game %s: the post with old buttons is gone", game.id)
        except discord.HTTPException as exc:
            log.warning("game %s: could not take old buttons off: %s", game.id, exc)


async def _quietly(game: GameRow, work: Awaitable[None]) -> None:
    try:
        await work
    except Exception as exc:
        # Nothing is lost: at worst a button stays, and is refused as out of date.
        log.warning(
            "game %s: could not take old buttons off", game.id, exc_info=not is_unreachable(exc)
        )
