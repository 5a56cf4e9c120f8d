"""Shared fixtures: the Discord emulator, and the real bot running against it.

`emulator` is an emulated Discord on 127.0.0.1 with discord.py pointed at it for the test's
duration. `hv` is a started bot on a fresh SQLite file; it draws its pictures in threads of
the test's process, unless the test is marked `drawing_processes(n)` (the deployed bot draws
in a worker process; starting one for every test would only make the suite slower). Both fail
the test at teardown if the bot sent something Discord would have refused, called a route
Discord does not have, or logged an error, because those are bugs even when the test's own
assertions passed.
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
async def hv(
    emulator: DiscordEmulator, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotHarness]:
    marker = request.node.get_closest_marker("drawing_processes")
    processes = marker.args[0] if marker else 0
    harness = BotHarness(emulator, tmp_path / "games.sqlite3", drawing_processes=processes)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
    unexpected = harness.unexpected_errors()
    assert not unexpected, "the bot logged errors:\n" + harness.errors.summary()
