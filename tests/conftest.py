"""Shared fixtures: the Discord emulator, and the real bot running against it.

`emulator` is an emulated Discord on 127.0.0.1 with discord.py pointed at it for the test's
duration. `hv` is a started bot on a fresh SQLite file. Both fail the test at teardown if the
bot sent something Discord would have refused, called a route Discord does not have, or logged
an error, because those are bugs even when the test's own assertions passed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_emulator import DiscordEmulator
from e2e_harness import BotHarness, pointed_at


@pytest.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    emu = await DiscordEmulator().start()
    try:
        async with pointed_at(emu):
            yield emu
    finally:
        await emu.close()
    assert not emu.rejections, "Discord would have refused:\n" + "\n".join(map(str, emu.rejections))
    assert not emu.unhandled, f"routes Discord does not have: {emu.unhandled}"


@pytest.fixture
async def hv(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[BotHarness]:
    harness = BotHarness(emulator, tmp_path / "games.sqlite3")
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
    unexpected = harness.unexpected_errors()
    assert not unexpected, "the bot logged errors:\n" + harness.errors.summary()
