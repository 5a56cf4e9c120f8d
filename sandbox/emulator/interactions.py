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
# Interactions > Receiving and Responding > Followup Messages: "Interaction tokens are valid
# for 15 minutes", and an app installed only by the user (not by the server) may send "5
# followup messages per interaction".
TOKEN_LIFETIME = 15 * 60.0
USER_INSTALL_FOLLOWUPS = 5
# Installation contexts (Application Commands > Installation Context) and interaction
# contexts (Interactions > Interaction Context Types).
GUILD_INSTALL = 0
USER_INSTALL = 1
GUILD_CONTEXT = 0
BOT_DM_CONTEXT = 1
PRIVATE_CHANNEL_CONTEXT = 2


class Clock:
    """The emulated Discord's own time, in seconds, for its rules that last minutes (an
    interaction's token): the event loop's clock, plus however far a test moved it
    (`advance`), so a test can let fifteen minutes pass without waiting for them."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return asyncio.get_running_loop().time() + self.offset

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass for Discord (never backwards)."""
        if seconds < 0:
            raise ValueError("Discord's clock does not go back")
        self.offset += seconds


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
    # Where it came from (`GUILD_CONTEXT`, `BOT_DM_CONTEXT`, `PRIVATE_CHANNEL_CONTEXT`) and the
    # installations that allowed it: installation type -> the server's id ("0" in the bot's
    # DM) or the user's, as `authorizing_integration_owners` says.
    context: int = GUILD_CONTEXT
    owners: dict[str, str] = field(default_factory=dict)

    @property
    def user_installed_only(self) -> bool:
        """Whether only the user's installation allowed it (not a server's): then Discord
        allows it 5 follow-ups."""
        return set(self.owners) == {str(USER_INSTALL)}

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the user's action to the bot's acknowledgement."""
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.created_at
