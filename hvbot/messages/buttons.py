"""Buttons that survive a restart.

Every button is a `DynamicItem` whose custom_id names the game (and for action buttons the
game version it was made for and the engine action itself), so after a restart discord.py
rebuilds it from the custom_id alone and the click works as before. A click on a button made
for an older version of the game is refused instead of applied to a position the player did
not see.

Labels are in the language of whoever sees the button: a public post's in the game's, a
private prompt's in its person's. The custom_id never depends on the language, so a button
works the same whatever language it was drawn in.

A click reaches its handler through `Clicks`, handed over once at start-up (`register`), so this
module needs nothing from the modules that answer clicks: the presenters say what a post offers
as plain `Choice`s, this module makes them buttons, and the bot says where clicks go.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord.ext import commands

from data.texts import ENGLISH, Texts
from hvbot.messages.post import Choice

LOBBY_ACTIONS = {  # what -> style; the label is the text bot.button.<what>
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "addai": discord.ButtonStyle.secondary,
    # The one action the lobby leads to, in Discord's primary colour: red is for what
    # destroys, and starting destroys nothing.
    "start": discord.ButtonStyle.primary,
}


STYLES = {  # a Choice's look -> Discord's button style
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


Click = Callable[..., Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Clicks:
    """Where the clicks on each kind of button go: (interaction, game id, lobby action),
    (interaction, game id, version, engine action), (interaction, request id, accepted),
    (interaction, vote id, choice)."""

    lobby: Click
    action: Click
    undo: Click
    vote: Click


_CLICKS: list[Clicks] = []  # the one set handed over at start-up (see `register`)


def _clicks() -> Clicks:
    return _CLICKS[-1]


def encode_action(text: str) -> str:
    return text.replace(" ", "_")


def decode_action(token: str) -> str:
    return token.replace("_", " ")


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lobby:(?P<game>[0-9]+):(?P<what>join|leave|addai|start)",
):
    def __init__(self, game_id: int, what: str, texts: Texts = ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=texts(f"bot.button.{what}"),
                style=LOBBY_ACTIONS[what],
                custom_id=f"lobby:{game_id}:{what}",
            )
        )
        self.game_id = game_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _clicks().lobby(interaction, self.game_id, self.what)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"act:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<action>[A-Za-z0-9_=-]+)",
):
    """A button that applies one engine action for the player it was shown to."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"act:{game_id}:{version}:{encode_action(action)}"
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=custom_id, row=row)
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["action"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _clicks().action(interaction, self.game_id, self.version, self.action)


def lobby_view(game_id: int, texts: Texts = ENGLISH, *, open_: bool = True) -> discord.ui.View:
    """The lobby's buttons, labelled in the game's language (`texts`)."""
    view = discord.ui.View(timeout=None)
    if open_:
        for what in LOBBY_ACTIONS:
            view.add_item(LobbyButton(game_id, what, texts))
    return view


def choice_view(game_id: int, version: int, choices: Iterable[Choice]) -> discord.ui.View | None:
    """The buttons of a game's choices, made for the game's `version` (None if it offers none)."""
    view = discord.ui.View(timeout=None)
    for choice in choices:
        view.add_item(
            ActionButton(
                game_id,
                version,
                choice.action,
                label=choice.label,
                style=STYLES[choice.look],
                row=choice.row,
            )
        )
    return view if view.children else None


class _Answer:
    """Shared by the buttons that answer a request waiting in the database (an undo, a vote):
    the custom_id carries the request's id and the choice, so a click works after a restart.
    Mixed into a DynamicItem, which needs a template of its own per class."""

    prefix: ClassVar[str]
    choices: ClassVar[dict[str, discord.ButtonStyle]]  # choice -> style
    # The label of a choice is the text bot.button.<prefix>_<choice>.

    def __init__(self, request_id: int, choice: str, texts: Texts = ENGLISH) -> None:
        button = discord.ui.Button(
            label=texts(f"bot.button.{self.prefix}_{choice}"),
            style=self.choices[choice],
            custom_id=f"{self.prefix}:{request_id}:{choice}",
        )
        super().__init__(button)  # type: ignore[call-arg]
        self.request_id = request_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Any:
        return cls(int(match["request"]), match["choice"])

    @classmethod
    def view(cls, request_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for choice in cls.choices:
            view.add_item(cls(request_id, choice, texts))  # type: ignore[arg-type]
        return view


class UndoButton(
    _Answer,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"undo:(?P<request>[0-9]+):(?P<choice>yes|no)",
):
    """Accept or refuse a request to take back a move."""

    prefix = "undo"
    choices: ClassVar[dict[str, discord.ButtonStyle]] = {
        "yes": discord.ButtonStyle.success,
        "no": discord.ButtonStyle.danger,
    }

    async def callback(self, interaction: discord.Interaction) -> None:
        await _clicks().undo(interaction, self.request_id, self.choice == "yes")


class VoteButton(
    _Answer,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"away:(?P<request>[0-9]+):(?P<choice>ai|end)",
):
    """A vote on a seat whose person is away: let an AI play it, or end the game."""

    prefix = "away"
    choices: ClassVar[dict[str, discord.ButtonStyle]] = {
        "ai": discord.ButtonStyle.primary,
        "end": discord.ButtonStyle.danger,
    }

    async def callback(self, interaction: discord.Interaction) -> None:
        await _clicks().vote(interaction, self.request_id, self.choice)


def undo_view(request_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    return UndoButton.view(request_id, texts)


def vote_view(vote_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    return VoteButton.view(vote_id, texts)


def register(bot: commands.Bot, clicks: Clicks) -> None:
    """Make the buttons work, after a restart too, sending their clicks to `clicks`."""
    _CLICKS[:] = [clicks]
    bot.add_dynamic_items(LobbyButton, ActionButton, UndoButton, VoteButton)
