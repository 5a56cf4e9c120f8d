"""The click that docs/architecture.md follows stays the click the bot makes.

The architecture document names, in order, every module of the project that runs when a person
places a drawn High Voltage card with a button, until the board is posted and the AI seat after
them has answered. This test makes that click against the emulated Discord with a profiler
watching every thread, and fails when the modules that ran differ from the list: a new layer,
a module no longer on the way, or one the document forgot.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import running
from e2e_harness import BotHarness, before_the_ai, open_three_seat_game, prompt_for

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "architecture.md"
PROJECT = ("engine", "render", "data", "games", "hvbot")
# The document's lists in its section on the click: the modules to read (bold, on bullets),
# and every module that runs (numbered).
SECTION = re.compile(r"^## One click.*?(?=^## )", re.M | re.S)
TO_READ = re.compile(r"^- \*\*`([a-z0-9_/.]+\.py)`\*\*", re.M)
LISTED = re.compile(r"^\d+\. `([a-z0-9_/.]+\.py)`", re.M)
# Runs now and then whatever the bot is doing (a gateway heartbeat), not part of any click.
NOT_THE_CLICK = {"hvbot/runtime/heartbeats.py"}


class ModuleTrace:
    """The project's modules whose functions run while `recording`, in the order they first
    run, in every thread: a profile function sees each call."""

    def __init__(self) -> None:
        self.recording = False
        self.seen: dict[str, None] = {}
        self._paths: dict[str, str | None] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.recording and event == "call":
            path = self._project_path(frame.f_code.co_filename)
            if path is not None and path not in self.seen:
                self.seen[path] = None

    def _project_path(self, filename: str) -> str | None:
        if filename not in self._paths:
            found = None
            try:
                relative = Path(filename).resolve().relative_to(ROOT)
            except ValueError:
                relative = None
            if relative is not None and relative.parts[0] in PROJECT:
                found = relative.as_posix()
            self._paths[filename] = found
        return self._paths[filename]


def documented(listed: re.Pattern[str]) -> list[str]:
    """The modules one of the architecture document's lists names for the click, in order."""
    section = SECTION.search(DOCUMENT.read_text(encoding="utf-8"))
    assert section is not None, "docs/architecture.md has a section on one click"
    return listed.findall(section.group(0))


@pytest.fixture
async def traced(
    emulator: DiscordEmulator, tmp_path: Path
) -> AsyncIterator[tuple[BotHarness, ModuleTrace]]:
    """The bot, started with the profiler in place: threads it starts (the database's, the
    drawing's) are watched too."""
    trace = ModuleTrace()
    threading.setprofile(trace)
    sys.setprofile(trace)
    try:
        async with running(BotHarness(emulator, tmp_path / "games.sqlite3")) as harness:
            yield harness, trace
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]  # None stops it, as documented


async def test_a_board_button_click_runs_the_modules_the_architecture_names(
    emulator: DiscordEmulator, traced: tuple[BotHarness, ModuleTrace]
) -> None:
    emu, (hv, trace) = emulator, traced
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state, ai_seat = await before_the_ai(table)
    mover = emu.users[game.seats[state.current_seat() or 0].user_id or 0]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await emu.slash(mover, "hv draw", cell=cell)  # the card, shown to its drawer alone
    drawn = await hv.game()
    prompt = prompt_for(emu, mover, drawn)
    assert prompt is not None, "the drawn card comes with buttons to place it"
    # Nothing else runs meanwhile: the periodic checks (reminders, clocks, owed posts) stop,
    # a round under way included.
    await hv.alone()

    trace.recording = True
    await emu.click(mover, f"act:{drawn.id}:{drawn.version}:place_here_r90", message=prompt.id)
    await emu.wait_for(table.settled, 30, message="the board posted and the AI answered")
    trace.recording = False

    moved = await hv.actions(drawn)
    assert moved[-1][0] == ai_seat, "the AI seat answered within the click's trace"
    ran = [path for path in trace.seen if path not in NOT_THE_CLICK]
    listed = documented(LISTED)
    missing, extra = sorted(set(ran) - set(listed)), sorted(set(listed) - set(ran))
    assert not missing and not extra, (
        "docs/architecture.md's click differs from the modules that ran:\n"
        f"ran but not listed: {missing}\nlisted but did not run: {extra}\n"
        "in the order they ran:\n" + "\n".join(ran)
    )
    to_read = documented(TO_READ)
    assert 8 <= len(to_read) <= 10 and set(to_read) <= set(ran), to_read
