"""A message about to be sent, built before sending so one shape fits every way of sending it
(interaction reply, follow-up, channel message, DM), and pictures drawn off the event loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)


@dataclass
class Post:
    content: str
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    embed: discord.Embed | None = None

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "allowed_mentions": ALLOWED}
        if self.files:
            out["files"] = [
                discord.File(io.BytesIO(data), filename=name) for name, data in self.files
            ]
        if self.view is not None:
            out["view"] = self.view
        if self.embed is not None:
            out["embed"] = self.embed
        return out


async def send_private(interaction: discord.Interaction, post: Post) -> None:
    """Send a post only the person who asked sees: the reply, or a follow-up once answered.

    discord.py gives the buttons of an ephemeral message a 15-minute timeout, and a task that
    keeps the view and its buttons alive until then. The bot's buttons find their game through
    their custom id (`hvbot.views`), never through the view they were sent in, so the view is
    stopped once sent: at a few moves a second, that is thousands of views fewer in memory."""
    kwargs = post.kwargs()
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
    if post.view is not None:
        post.view.stop()


async def render_off_loop(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Pictures are drawn in a worker thread so a render never delays another interaction.

    asyncio's default pool of a few threads, not one thread of their own: a single drawing
    thread was measured to make answers later (p99 0.6-2.5 s against 0.2-0.8 s at 200 games),
    as the small pictures in answers queued behind boards and the drawing, which lets go of
    the interpreter's lock inside Pillow, used one core instead of two."""
    return await asyncio.to_thread(func, *args, **kwargs)
