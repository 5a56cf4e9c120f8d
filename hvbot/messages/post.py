"""A message about to be sent, built before sending so one shape fits every way of sending it
(interaction reply, follow-up, channel message, DM).

What a game offers to click is plain data here (`Choice`): the presenters say which actions a
post offers and how they read, and `hvbot.messages.buttons` alone turns them into Discord's
persistent buttons, for the game and version they belong to.

A post is plain data: the presenters build posts in the drawing worker processes too, which
never import discord.py (with aiohttp, a fifth of a second of CPU for the server the workers
are forked from, and about 20 MB of each worker's memory). `hvbot.messages.outgoing` makes a
post into what discord.py sends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    import discord

Look = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One engine action offered as a button: the action's text, the label its reader sees,
    its colour (Discord's button styles) and the row it sits on (None: Discord's layout)."""

    action: str
    label: str
    look: Look = "secondary"
    row: int | None = None


class Picture(NamedTuple):
    """A file a post carries: its name, its bytes and its alt text (Discord's attachment
    description), which says in the reader's language what a sighted reader learns from the
    picture, so that a person using a screen reader learns it too. Built from the same view
    as the picture, so it can say nothing the picture may not show."""

    name: str
    data: bytes
    alt: str


@dataclass
class Post:
    content: str
    files: list[Picture] = field(default_factory=list)
    view: discord.ui.View | None = None
    # The actions the post offers (a game's presenter says which); made into `view` by the
    # handlers, which know the game and version they are for (see `buttons.choice_view`).
    choices: tuple[Choice, ...] = ()
    embed: discord.Embed | None = None
    # A board post: the game's version it shows, which its buttons are for (hvbot.board_buttons).
    version: int | None = None
    # A board post whose buttons include the game's choices for `version`, which are taken
    # off once the game is past it (its Follow button stays: see `game_posts.follow_view`).
    live_buttons: bool = False
    # Sent as a card (`hvbot.messages.cards`): its words, pictures and buttons in one
    # container, edged in `accent` (an RGB colour as an int; None: Discord's plain edge).
    card: bool = False
    accent: int | None = None
