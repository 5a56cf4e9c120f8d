"""The emulator as its REST routes see it: every part `DiscordEmulator` is built from, and the
state its `__init__` creates for them.

The routes (`rest`) are objects of their own, given the emulator, and the emulator's server
puts them on its application: naming the emulator's type here, below both, keeps the imports
pointing one way, so no route module imports the server back, not even for a type hint.
"""

from __future__ import annotations

from .acting import Acting
from .faults import Faults
from .models import Rejection
from .openapi import SpecValidator
from .stored_messages import MessageStore


class EmulatorParts(Acting, MessageStore):
    """The parts of `DiscordEmulator` (see `server` for why they share one object), with
    its addresses."""

    # Set by `DiscordEmulator.__init__`; the parts declare the rest of its state.
    token: str
    faults: Faults
    validator: SpecValidator | None
    rejections: list[Rejection]
    unhandled: list[str]
    duplicates_refused: int
    command_syncs: int
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be for the bot to talk to this emulator."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-ws"
