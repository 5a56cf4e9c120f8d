"""A post as discord.py sends it: its pictures as uploads, its words as text or as a card, and
whom it may ping.

`hvbot.messages.post` is the plain data the presenters build, in the drawing workers too;
this is where a post becomes discord.py's arguments, in the bot's own process only.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from hvbot.messages import cards
from hvbot.messages.limits import fit_alt, fitted
from hvbot.messages.post import Post

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)
# What only its asker reads (a refusal, a private answer) pings nobody, whatever it names.
PRIVATE = discord.AllowedMentions.none()


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


def send_kwargs(post: Post) -> dict[str, Any]:
    """What a message is sent with to show `post`."""
    out: dict[str, Any] = {"allowed_mentions": ALLOWED}
    if post.files:
        out["files"] = [upload(data, name, fit_alt(alt) or None) for name, data, alt in post.files]
    if post.card:
        shown = [(name, alt) for name, _, alt in post.files]
        out["view"] = cards.card(post.content, shown, accent=post.accent, buttons=post.view)
        return out
    out["content"] = post.content
    if post.view is not None:
        out["view"] = post.view
    if post.embed is not None:
        out["embed"] = post.embed
    return fitted(**out)


def edit_kwargs(post: Post) -> dict[str, Any]:
    """What a message is edited with to show `post` (one that carries no new file: Discord
    takes an edit's files as `attachments`). A card clears the message's text too: one sent
    as plain text before becomes a card only once its text is cleared, as Discord requires,
    and a card has none to clear."""
    out = send_kwargs(post)
    if post.card:
        out["content"] = None
    return out


def private_kwargs(post: Post) -> dict[str, Any]:
    """What a message only its asker sees is sent with to show `post`: pinging nobody
    (`PRIVATE`)."""
    return {**send_kwargs(post), "allowed_mentions": PRIVATE}


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
    await interaction.response.send_message(ephemeral=True, **private_kwargs(post))
    if post.view is not None:
        post.view.stop()


async def follow_up_privately(webhook: discord.Webhook, post: Post) -> None:
    """`send_private` once the interaction is answered, through its follow-up webhook."""
    await webhook.send(ephemeral=True, **private_kwargs(post))
    if post.view is not None:
        post.view.stop()
