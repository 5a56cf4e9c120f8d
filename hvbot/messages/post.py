"""A message about to be sent, built before sending so one shape fits every way of sending it
(interaction reply, follow-up, channel message, DM).

What a game offers to click is plain data here (`Choice`): the presenters say which actions a
post offers and how they read, and `hvbot.messages.buttons` alone turns them into Discord's
persistent buttons, for the game and version they belong to."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import discord

from hvbot.messages import cards
from hvbot.messages.limits import fit_alt, fitted

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)
# What only its asker reads (a refusal, a private answer) pings nobody, whatever it names.
PRIVATE = discord.AllowedMentions.none()


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


class Upload(discord.File):
    """A file to send, as `discord.File`, that leaves nothing for the garbage collector.

    While sending, discord.py stubs out the buffer's `close`, and once sent it sets the real
    one back as an attribute of the buffer itself: a method bound to the buffer, kept in the
    buffer, a reference cycle that held every picture's bytes until the collector's next
    full pass. Taking that attribute off again leaves the buffer's `close` what it was."""

    __slots__ = ()

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)


def upload(data: bytes, filename: str, description: str | None = None) -> Upload:
    """`data` as a file named `filename` (with its alt text), to send with a message."""
    return Upload(io.BytesIO(data), filename=filename, description=description)


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

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": ALLOWED}
        if self.files:
            out["files"] = [
                upload(data, name, fit_alt(alt) or None) for name, data, alt in self.files
            ]
        if self.card:
            shown = [(name, alt) for name, _, alt in self.files]
            out["view"] = cards.card(self.content, shown, accent=self.accent, buttons=self.view)
            return out
        out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.embed is not None:
            out["embed"] = self.embed
        return fitted(**out)

    def edit_kwargs(self) -> dict[str, Any]:
        """What a message is edited with to show this post (one that carries no new file:
        Discord takes an edit's files as `attachments`). A card clears the message's text
        too: one sent as plain text before becomes a card only once its text is cleared,
        as Discord requires, and a card has none to clear."""
        out = self.kwargs()
        if self.card:
            out["content"] = None
        return out


def private(post: Post) -> dict[str, Any]:
    """The post's fields for a message only its asker sees: pinging nobody (`PRIVATE`)."""
    return {**post.kwargs(), "allowed_mentions": PRIVATE}


async def send_private(interaction: discord.Interaction, post: Post) -> None:
    """Send a post only the person who asked sees: the reply, or a follow-up once answered.

    discord.py gives the buttons of an ephemeral message a 15-minute timeout, and a task that
    keeps the view and its buttons alive until then. The bot's buttons find their game through
    their custom id (`hvbot.messages.buttons`), never through the view they were sent in, so
    the view is stopped once sent: at a few moves a second, that is thousands of views fewer
    in memory."""
    if interaction.response.is_done():
        await follow_up_privately(interaction.followup, post)
        return
    await interaction.response.send_message(ephemeral=True, **private(post))
    if post.view is not None:
        post.view.stop()


async def follow_up_privately(webhook: discord.Webhook, post: Post) -> None:
    """`send_private` once the interaction is answered, through its follow-up webhook."""
    await webhook.send(ephemeral=True, **private(post))
    if post.view is not None:
        post.view.stop()
