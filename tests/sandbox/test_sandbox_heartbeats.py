"""The bot's heartbeats on the emulated gateway: each answer is timed from its own heartbeat.

The sandbox's gateway runs in the bot's process and answers a heartbeat at once. discord.py
timed such an answer from the heartbeat before (see `hvbot.runtime.heartbeats`), a whole
interval too early, so a bot doing nothing printed "Can't keep up, shard ID 0 websocket is
41.3s behind" every minute or two. Here the gateway asks for a heartbeat every fraction of a
second, and every answer must be timed from no earlier than the moment its own heartbeat was
made: a matter of order between the two, whatever the machine's load.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import running_emulator
from discord.gateway import KeepAliveHandler
from e2e_harness import BotHarness

from sandbox.emulator import DiscordEmulator

# A bot kept connected through a hundred heartbeats: with the tests that take real time,
# in the process tier.
pytestmark = [pytest.mark.e2e, pytest.mark.processes]

INTERVAL_S = 0.05
HEARTBEATS = 120  # the fault struck between one heartbeat in eighty and one in two


@dataclass
class Beats:
    """One connection's heartbeats as its keep-alive handler made them and timed the answers."""

    made: list[float] = field(default_factory=list)  # when each heartbeat's payload was made
    timed_from: list[float] = field(default_factory=list)  # the send time each answer used


@pytest.fixture
def heartbeats(monkeypatch: pytest.MonkeyPatch) -> dict[int, Beats]:
    """discord.py's keep-alive handlers, watched: every heartbeat sent is made by
    `get_payload` just before it goes out, and answers come back in order."""
    watched: dict[int, Beats] = {}
    make, answer = KeepAliveHandler.get_payload, KeepAliveHandler.ack

    def get_payload(handler: KeepAliveHandler) -> dict[str, Any]:
        watched.setdefault(id(handler), Beats()).made.append(time.perf_counter())
        return make(handler)

    def ack(handler: KeepAliveHandler) -> None:
        answer(handler)
        # ack() sets latency = its own time - the send time it used.
        watched[id(handler)].timed_from.append(handler._last_ack - handler.latency)

    monkeypatch.setattr(KeepAliveHandler, "get_payload", get_payload)
    monkeypatch.setattr(KeepAliveHandler, "ack", ack)
    return watched


@pytest.fixture
async def emulator(heartbeats: dict[int, Beats]) -> AsyncIterator[DiscordEmulator]:
    """The `hv` fixture's bot connects, watched from its first heartbeat, to a gateway that
    asks for one every `INTERVAL_S` seconds instead of Discord's 41.25."""
    async with running_emulator(heartbeat_interval_ms=INTERVAL_S * 1000) as emu:
        yield emu


async def test_each_heartbeats_answer_is_timed_from_that_heartbeat(
    hv: BotHarness, heartbeats: dict[int, Beats]
) -> None:
    def answered() -> int:
        return sum(len(beats.timed_from) for beats in heartbeats.values())

    await hv.emu.wait_for(
        lambda: answered() >= HEARTBEATS,
        timeout=HEARTBEATS * INTERVAL_S * 5,  # on a busy machine too
        message=f"{HEARTBEATS} heartbeats answered",
    )
    checked = early = 0
    for beats in heartbeats.values():
        # The first heartbeat of a connection goes out as the handler is made, and its answer
        # is timed from the handler's making: the others are what the keep-alive thread sends.
        for made, timed_from in list(zip(beats.made, beats.timed_from, strict=False))[1:]:
            checked += 1
            early += timed_from < made
    assert checked >= HEARTBEATS - 1
    assert not early, f"{early} of {checked} answers were timed from an earlier heartbeat"
