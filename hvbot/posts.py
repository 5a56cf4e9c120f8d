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


async def render_off_loop(func: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    """Pictures are drawn in a worker thread so a render never delays another interaction."""
    return await asyncio.to_thread(func, *args, **kwargs)
