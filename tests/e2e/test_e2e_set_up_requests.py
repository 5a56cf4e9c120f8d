"""What setting up a game asks of Discord: every request is CPU the bot spends on each of
thousands of games opened, so one more is a regression to see, not to find in a benchmark."""

from __future__ import annotations

import collections
import re

import pytest
from e2e_harness import BotHarness, open_three_seat_game

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e


def _kind(path: str) -> str:
    """A request's path with its ids and tokens left out."""
    path = re.sub(r"/interactions/\d+/[^/]+/", "/interactions/{id}/{token}/", path)
    return re.sub(r"/\d+", "/{id}", path.removeprefix("/api/v10"))


async def test_a_game_set_up_makes_nine_requests_to_discord(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """/game new, Join, Add AI and Start: each click answered once, the board posted in the
    channel, and each person's secret sent by DM in a channel opened once for them."""
    emu = emulator
    before = len(emu.requests)
    await open_three_seat_game(emu, hv)
    await emu.settle()
    made = collections.Counter(f"{r.method} {_kind(r.path)}" for r in emu.requests[before:])
    assert made == {
        "POST /interactions/{id}/{token}/callback": 4,
        "POST /channels/{id}/messages": 3,
        "POST /users/@me/channels": 2,
    }, made
