"""Pictures drawn in a worker process are the pictures drawn here, and a worker that dies is
replaced without losing the picture being drawn."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import find_game
from hvbot.drawing import WATCH_S, Drawing
from hvbot.presenters import presenter_for, warm_up


@pytest.fixture
async def worker():
    drawing = Drawing(1, warm_up=warm_up)
    yield drawing
    drawing.close()


def _board_args(game: str):
    rules = find_game(game)
    state = rules.new_state(rules.min_seats, 11)
    return state.view(None), [f"Player {i + 1}" for i in range(rules.min_seats)]


@pytest.mark.parametrize("game", ["high-voltage", "pylons", "sector6"])
async def test_a_board_drawn_in_a_worker_is_the_board_drawn_here(worker, game):
    view, names = _board_args(game)
    # A presenter travels as its game and language: the worker's own presenter draws.
    presenter = presenter_for(game, "de")
    png = await worker.draw(presenter.board_png, view, names)
    assert png == presenter.board_png(view, names)
    assert await worker.draw(os.getpid) != os.getpid()


async def test_a_worker_that_dies_is_replaced(worker):
    first = await worker.draw(os.getpid)
    os.kill(first, signal.SIGKILL)
    view, names = _board_args("high-voltage")
    presenter = presenter_for("high-voltage")
    assert await worker.draw(presenter.board_png, view, names) == presenter.board_png(view, names)
    assert await worker.draw(os.getpid) not in (first, os.getpid())


async def test_no_processes_draws_in_a_thread_here():
    drawing = Drawing(0)
    assert await drawing.draw(os.getpid) == os.getpid()
    with pytest.raises(ValueError):
        Drawing(-1)


KILLED_BOT = """
import asyncio, os, sys
from hvbot.drawing import Drawing

async def main():
    drawing = Drawing(1)
    print(await drawing.draw(os.getpid), flush=True)
    os._exit(0)  # killed: nothing is shut down

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_worker_ends_when_its_bot_was_killed(tmp_path):
    script = tmp_path / "killed_bot.py"
    script.write_text(KILLED_BOT)
    root = Path(__file__).resolve().parent.parent
    printed = tmp_path / "printed.txt"
    with printed.open("w") as out:  # not a pipe: the workers would hold it open
        subprocess.run(
            [sys.executable, str(script)],
            stdout=out,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(root)},
            check=True,
        )
    worker = int(printed.read_text().strip())
    assert Path(f"/proc/{worker}").exists()
    deadline = time.monotonic() + 10 * WATCH_S
    while time.monotonic() < deadline and Path(f"/proc/{worker}").exists():
        time.sleep(0.1)
    assert not Path(f"/proc/{worker}").exists(), "the drawing worker outlived its bot"
