"""What a click on one of the bot's buttons does, found by its custom id.

Each kind of button is a `DynamicItem` (discord.py's persistent buttons): discord.py matches a
click's custom id against the templates registered at start-up (`ITEMS`, in
`GameBot.setup_hook`), rebuilds the item from the id alone (a restart loses nothing), and calls
its `callback`, which calls the handler, guarded like a command: a refusal is said to the
clicker, an unexpected error logged with its game. How a button looks, and its id, is
`hvbot.messages.buttons`'.

discord.py would rebuild the whole clicked message as a view first (`View.from_message`: for
a card, its container, text, gallery, rows and every button), only to find the button clicked
in it and hang the item there; these items are made from the custom id alone and never look
at a view, so `answer_clicks` has the clicks handed to them without it (see `call_item`).
"""

from __future__ import annotations

import inspect
import logging
import re
from typing import Any, Self

import discord
from discord.ui.view import ViewStore

from hvbot.handlers import answering, follow, lobby, moves, rematch, requests, tournament
from hvbot.handlers.answering import guarded
from hvbot.messages.buttons import (
    ACTION_ID,
    FOLLOW_ID,
    LOBBY_ID,
    REMATCH_ID,
    UNDO_ID,
    VOTE_ID,
    action_id,
    answer_id,
    decode_action,
    follow_id,
    lobby_id,
    rematch_id,
    unfollow_id,
)
from hvbot.messages.tournaments import SIGNUP_CHOICES, signup_id

log = logging.getLogger(__name__)

Button = discord.ui.Button[discord.ui.View]
# Join and Leave on a tournament's sign-up post (`hvbot.messages.tournaments.signup_id`).
SIGNUP_ID = rf"tour:(?P<tournament>[0-9]+):(?P<choice>{'|'.join(SIGNUP_CHOICES)})"


class LobbyClick(discord.ui.DynamicItem[Button], template=LOBBY_ID):
    """Join, Leave, Add AI or Start, on a lobby message."""

    def __init__(self, game_id: int, what: str) -> None:
        super().__init__(discord.ui.Button(custom_id=lobby_id(game_id, what)))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await lobby.lobby_button(interaction, self.game_id, self.what)


class ActionClick(discord.ui.DynamicItem[Button], template=ACTION_ID):
    """One engine action, for the game version it was made for: on a private prompt (a drawn
    card's placements) or a board post (the choices after a move)."""

    def __init__(self, game_id: int, version: int, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=action_id(game_id, version, action)))
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["action"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await moves.action_button(interaction, self.game_id, self.version, self.action)


class UndoClick(discord.ui.DynamicItem[Button], template=UNDO_ID):
    """Yes or no to a request to take back a move, or to abandon the game."""

    def __init__(self, request_id: int, choice: str) -> None:
        super().__init__(discord.ui.Button(custom_id=answer_id("undo", request_id, choice)))
        self.request_id, self.choice = request_id, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["request"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            await requests.answer_undo(interaction, self.request_id, accept=self.choice == "yes")


class VoteClick(discord.ui.DynamicItem[Button], template=VOTE_ID):
    """A vote on the seat of a person away: an AI plays it, or the game ends."""

    def __init__(self, vote_id: int, choice: str) -> None:
        super().__init__(discord.ui.Button(custom_id=answer_id("away", vote_id, choice)))
        self.vote_id, self.choice = vote_id, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["request"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            await requests.cast_vote(interaction, self.vote_id, self.choice)


class RematchClick(discord.ui.DynamicItem[Button], template=REMATCH_ID):
    """Rematch, under a finished game's result (`ask`); Accept or Decline on the rematch's
    lobby message (`yes`, `no`: its id is the lobby's)."""

    def __init__(self, game_id: int, choice: str) -> None:
        super().__init__(discord.ui.Button(custom_id=rematch_id(game_id, choice)))
        self.game_id, self.choice = game_id, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            if self.choice == "ask":
                await rematch.ask(interaction, self.game_id)
            else:
                await rematch.answer(interaction, self.game_id, accept_it=self.choice == "yes")


class FollowClick(discord.ui.DynamicItem[Button], template=FOLLOW_ID):
    """Follow, on a lobby message or a board post (`follow`): follow the game without
    playing it; Unfollow, under a follower's digest (`unfollow`)."""

    def __init__(self, game_id: int, what: str) -> None:
        custom_id = follow_id(game_id) if what == "follow" else unfollow_id(game_id)
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            if self.what == "follow":
                await follow.follow_game(interaction, self.game_id)
            else:
                await follow.unfollow_game(interaction, self.game_id)


class SignupClick(discord.ui.DynamicItem[Button], template=SIGNUP_ID):
    """Join or Leave, on a tournament's sign-up post."""

    def __init__(self, tournament_id: int, choice: str) -> None:
        super().__init__(discord.ui.Button(custom_id=signup_id(tournament_id, choice)))
        self.tournament_id, self.choice = tournament_id, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["tournament"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            await tournament.signup_click(interaction, self.tournament_id, self.choice)


# Registered at start-up.
ITEMS = (
    LobbyClick,
    ActionClick,
    UndoClick,
    VoteClick,
    RematchClick,
    FollowClick,
    SignupClick,
)


async def call_item(
    component_type: int,
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction,
    custom_id: str,
    match: re.Match[str],
) -> None:
    """What discord.py's `ViewStore.schedule_dynamic_item_call` does with a click on a
    button of `ITEMS`, its view left out: the item made from the custom id, its check, its
    callback, each failure logged as discord.py logs it. The button handed to
    `from_custom_id` stands for the one clicked, which these items do not read. Rebuilding the
    clicked card as a view was a tenth of the bot's work for a click on a lobby button. Done,
    the interaction is let go of (`answering.let_go`)."""
    try:
        await _click(factory, interaction, custom_id, match)
    finally:
        answering.let_go(interaction)


async def _click(
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction,
    custom_id: str,
    match: re.Match[str],
) -> None:
    if interaction.message is None:
        return
    clicked: Button = discord.ui.Button(custom_id=custom_id)
    try:
        item = await factory.from_custom_id(interaction, clicked, match)
    except Exception:
        log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("Ignoring exception in dynamic item callback for %r", item)


def answer_clicks(store: ViewStore) -> bool:
    """Have discord.py's store of views hand the clicks on the bot's buttons to `call_item`
    (see the module); whether it does. Only the bot's own items are registered with it
    (`ITEMS`). The method is discord.py's own, not its public API: a release that hands it
    something else keeps its own way, which is slower but right."""
    handed = tuple(inspect.signature(store.schedule_dynamic_item_call).parameters)
    if handed != tuple(inspect.signature(call_item).parameters):
        log.warning("discord.py hands a click %s; clicks rebuild their message as it does", handed)
        return False
    # discord.py calls it on the instance for each click matching a registered template.
    store.schedule_dynamic_item_call = call_item  # type: ignore[method-assign]  # see above
    return True
