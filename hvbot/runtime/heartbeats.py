"""How discord.py times the gateway's heartbeats, corrected for a gateway that answers at once.

discord.py (2.7.1 and before) sends each heartbeat from its keep-alive thread, and that thread
notes the time of sending only once the send has completed and it runs again. When the gateway
answers within that moment, the HEARTBEAT_ACK is read on the event loop before the thread has
noted anything: the answer is timed from the heartbeat before, a whole interval earlier (41.25
seconds on Discord), and discord.py warns "Can't keep up, shard ID 0 websocket is 41.3s behind"
while nothing is slow at all; `bot.latency` reads 41 seconds too. The sandbox's emulated
gateway runs in the bot's own process and answers in microseconds, so there it happened to
about one heartbeat in two; a gateway proxy next to a deployed bot does the same.

The correction is the one discord.py itself took after 2.7.1: the time of sending is noted on
the event loop just before the heartbeat goes out, so no answer can be read before it. The
thread's own note afterwards moves it only by the time the send took, as before.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from discord.gateway import DiscordWebSocket

SendHeartbeat = Callable[[DiscordWebSocket, Any], Awaitable[None]]
_CORRECTED = "_notes_its_send_time"  # marks the corrected method, so it is installed once


def time_heartbeats_from_their_sending() -> None:
    """Have every gateway connection note when each heartbeat leaves, on the event loop, before
    it is sent (idempotent: a second call changes nothing)."""
    original: SendHeartbeat = DiscordWebSocket.send_heartbeat
    if getattr(original, _CORRECTED, False):
        return

    @functools.wraps(original)
    async def send_heartbeat(self: DiscordWebSocket, data: Any) -> None:
        keep_alive = getattr(self, "_keep_alive", None)
        if keep_alive is not None:
            keep_alive._last_send = time.perf_counter()
        await original(self, data)

    setattr(send_heartbeat, _CORRECTED, True)
    DiscordWebSocket.send_heartbeat = send_heartbeat  # type: ignore[method-assign]  # the correction: discord.py's own method, wrapped
