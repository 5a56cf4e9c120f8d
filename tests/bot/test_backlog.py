"""The count of changes a bot process is following, which new lobbies wait behind."""

from __future__ import annotations

import asyncio

import pytest

from hvbot.aftermath.backlog import Backlog


async def test_a_new_game_waits_until_the_changes_under_way_are_few_enough() -> None:
    backlog = Backlog(most=1)
    await backlog.caught_up()  # nothing under way: no wait
    finishing = asyncio.Event()

    async def ai_moves() -> None:
        await finishing.wait()

    task = asyncio.create_task(ai_moves())
    backlog.track(task)
    with backlog.working():
        assert backlog.under_way == 2 and backlog.behind
        waiting = asyncio.create_task(backlog.caught_up())
        await asyncio.sleep(0)
        assert not waiting.done()
    assert backlog.under_way == 1 and not backlog.behind
    await waiting  # one change under way is within the bound
    with backlog.working():
        waiting = asyncio.create_task(backlog.caught_up())
        await asyncio.sleep(0)
        assert not waiting.done()
        finishing.set()
        await task
        await waiting
    assert backlog.under_way == 0


async def test_a_change_that_fails_is_no_longer_counted() -> None:
    backlog = Backlog(most=0)
    with pytest.raises(RuntimeError), backlog.working():
        raise RuntimeError("a post could not go out")
    assert backlog.under_way == 0 and not backlog.behind


async def test_an_ai_seats_pause_is_no_work_under_way() -> None:
    """An AI seat waits a moment before its move, as a person would: nothing is carried out
    meanwhile, and a new game does not wait for it; its move after the pause is work again."""
    backlog = Backlog(most=0)
    paused, resume, moved, done = (asyncio.Event() for _ in range(4))

    async def ai_moves() -> None:
        with backlog.idle():
            paused.set()
            await resume.wait()
        moved.set()
        await done.wait()

    task = asyncio.create_task(ai_moves())
    backlog.track(task)
    await paused.wait()
    assert backlog.under_way == 0 and not backlog.behind
    await asyncio.wait_for(backlog.caught_up(), 1)  # at once: the pause holds up nobody
    resume.set()
    await moved.wait()
    assert backlog.under_way == 1 and backlog.behind
    waiting = asyncio.create_task(backlog.caught_up())
    await asyncio.sleep(0)
    assert not waiting.done(), "the AI's move is work a new game waits behind"
    done.set()
    await task
    await waiting
    assert backlog.under_way == 0
