"""The event loop the bot runs on (`hvbot.runtime.running.run`): uvloop's where it is
installed, asyncio's own where it is not (Windows), either way running the bot's coroutine to
its end as `asyncio.run` would."""

from __future__ import annotations

import asyncio
import sys

import pytest
import uvloop

from hvbot.runtime.running import loop_name, run


async def which_loop() -> tuple[type, str]:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()), loop_name()


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    kind, name = run(which_loop())
    assert issubclass(kind, uvloop.Loop)
    assert name == "uvloop"


def test_without_uvloop_the_bot_runs_on_asyncio_own_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # `import uvloop` fails, as on Windows
    kind, name = run(which_loop())
    assert not issubclass(kind, uvloop.Loop)
    assert issubclass(kind, asyncio.BaseEventLoop)
    assert name == "asyncio"


def test_what_the_bot_raises_comes_out_of_its_loop() -> None:
    async def fails() -> None:
        await asyncio.sleep(0)
        raise LookupError("no such game")

    with pytest.raises(LookupError, match="no such game"):
        run(fails())
