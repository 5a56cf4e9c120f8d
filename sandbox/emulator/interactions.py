"""One interaction's life, from the user's action to the bot's last follow-up.

The acting side creates it when a user runs a command or presses a button; the REST routes
update it as the bot answers (callback, follow-ups, edits of the original). Kept apart from both
so that each reads the same record without importing the other.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .models import User

INTERACTION_WINDOW = 3.0  # seconds Discord gives a bot to acknowledge an interaction


@dataclass
class InteractionState:
    """An interaction from creation to its last follow-up."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    created_at: float
    start_seq: int
    source_message_id: int | None = None
    callback_type: int | None = None
    original_message_id: int | None = None
    placeholder_pending: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged_at: float | None = None
    expired: bool = False
    # The slash command it ran ("game new"), shown above its reply as "Ada used /game new".
    command: str | None = None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the user's action to the bot's acknowledgement."""
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.created_at
