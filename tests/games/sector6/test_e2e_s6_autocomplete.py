"""Sector 6's slow cell suggestions (every free cell of an empty table, each with the turns
that fit) are worked out off the event loop, once per version of the game, and the next
keystrokes are answered from what was worked out."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from e2e_harness import BotHarness, board_posts

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_the_first_placement_is_suggested_off_the_loop_and_once_per_version(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="sector6", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    game = await hv.game()
    state = await hv.state()
    mover = emu.users[game.seats[state.current_seat()].user_id or 0]
    await emu.slash(mover, "s6 draw")

    worked: list[str] = []
    # The module as the bot loaded it (discord.py loads an extension's module afresh).
    s6_commands = sys.modules["games.sector6.commands"]
    listed = s6_commands.place_cells

    def counted(*args: Any) -> list[str]:
        worked.append(threading.current_thread().name)
        return listed(*args)

    monkeypatch.setattr(s6_commands, "place_cells", counted)
    loop_thread = threading.current_thread().name
    first = await emu.autocomplete(mover, "s6 place", "cell", "")
    assert len(first) == 25
    narrowed = await emu.autocomplete(mover, "s6 place", "cell", "J")
    assert narrowed and all(c["value"].startswith("J") for c in narrowed)
    assert all("(" in c["name"] for c in narrowed), "each with the turns that fit"
    again = await emu.autocomplete(mover, "s6 place", "cell", "")
    assert again == first
    assert len(worked) == 1, "worked out once for this version of the game"
    assert worked[0] != loop_thread, "not on the event loop"
    # With a rotation chosen, the cells it fits are another question.
    await emu.autocomplete(mover, "s6 place", "cell", "", rotation=60)
    assert len(worked) == 2
