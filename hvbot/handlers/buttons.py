"""What a click on one of the bot's buttons does, found by its custom id.

Each kind of button is a `DynamicItem` (discord.py's persistent buttons): discord.py matches a
click's custom id against the templates registered at start-up (`ITEMS`, in
`GameBot.setup_hook`), rebuilds the item from the id alone (a restart loses nothing), and calls
its `callback`, which calls the handler, guarded like a command: a refusal is said to the
clicker, an unexpected error logged with its game. How a button looks, and its id, is
`hvbot.messages.buttons`'.
"""

from __future__ import annotations

import re
from typing import Self

import discord

from hvbot.handlers import follow, lobby, moves, rematch, requests, tournament
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
