"""The bot's worker processes, seen through the sockets it talks to them over: every call
answered whole and by its own answer, what a call raises raised in the bot, and a worker that
stops failing only the calls it held."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from worker_calls import held_until, marked_and_held

from hvbot.infra.worker_sockets import RemoteTraceback, WorkerSockets, WorkerStopped
from hvbot.infra.workers import Workers

BOUND_S = 60  # for a worker to answer at all, however busy the machine: a hang fails, late


def call(func: Callable[..., Any], *args: Any) -> bytes:
    return pickle.dumps((func, args, {}), protocol=5)


@pytest.fixture
async def pool() -> AsyncIterator[WorkerSockets]:
    sockets = WorkerSockets(1, multiprocessing.get_context("forkserver"), os.getpid)
    yield sockets
    sockets.close()


async def marked(marks: Path, but: frozenset[int] = frozenset()) -> int:
    """The pid of the first worker other than `but` to say it has a call (`marked_and_held`)."""
    async with asyncio.timeout(BOUND_S):
        while not (pids := {int(mark.name) for mark in marks.iterdir()} - but):
            await asyncio.sleep(0.01)
    return min(pids)


async def test_a_call_and_an_answer_larger_than_a_socket_holds_go_whole(pool):
    """Six MB each way: more than the socket takes at once, so both are sent in parts."""
    size = 6_000_000
    async with asyncio.timeout(BOUND_S):
        assert await pool.call(call(len, b"x" * size)) == size
        assert await pool.call(call(bytes, size)) == bytes(size)


async def test_what_a_call_raises_is_raised_here_with_where_it_was_raised(pool):
    with pytest.raises(ValueError, match="invalid literal") as raised:
        await pool.call(call(int, "seven"))
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "ValueError: invalid literal" in str(raised.value.__cause__)


async def test_an_answer_that_cannot_be_sent_is_said_so_and_the_worker_goes_on(pool):
    with pytest.raises(TypeError, match="the answer cannot be sent"):
        await pool.call(call(threading.Lock))
    assert await pool.call(call(abs, -5)) == 5


async def test_a_call_given_up_while_it_is_worked_on_leaves_the_next_its_own_answer(pool, tmp_path):
    """A worker answers in order: the answer of a call given up on is read and dropped, never
    taken for the answer of the call after it."""
    gate = tmp_path / "gate"
    given_up = asyncio.create_task(pool.call(call(held_until, str(gate))))
    await asyncio.sleep(0)  # handed to the worker
    given_up.cancel()
    after = asyncio.create_task(pool.call(call(abs, -5)))
    await asyncio.sleep(0)
    gate.touch()
    assert await asyncio.wait_for(after, BOUND_S) == 5
    assert given_up.cancelled()


async def test_a_call_goes_to_a_worker_that_is_free(tmp_path):
    gate = tmp_path / "gate"
    sockets = WorkerSockets(2, multiprocessing.get_context("forkserver"), os.getpid)
    try:
        held = asyncio.create_task(sockets.call(call(marked_and_held, str(gate), str(tmp_path))))
        busy = await marked(tmp_path)
        free = await asyncio.wait_for(sockets.call(call(os.getpid)), BOUND_S)
        assert free not in (busy, os.getpid())
        gate.touch()
        assert await asyncio.wait_for(held, BOUND_S) == busy
    finally:
        sockets.close()


async def test_a_worker_killed_at_work_fails_its_call_and_another_takes_the_next(pool, tmp_path):
    gate = tmp_path / "gate"
    held = asyncio.create_task(pool.call(call(marked_and_held, str(gate), str(tmp_path))))
    killed = await marked(tmp_path)
    os.kill(killed, signal.SIGKILL)
    with pytest.raises(WorkerStopped):
        await asyncio.wait_for(held, BOUND_S)
    assert await asyncio.wait_for(pool.call(call(os.getpid)), BOUND_S) not in (killed, os.getpid())


async def test_the_bots_call_whose_worker_was_killed_at_work_is_run_again_by_another(tmp_path):
    gate = tmp_path / "gate"
    workers = Workers(1)
    try:
        held = asyncio.create_task(workers.run(marked_and_held, str(gate), str(tmp_path)))
        killed = await marked(tmp_path)
        os.kill(killed, signal.SIGKILL)
        again = await marked(tmp_path, but=frozenset({killed}))
        gate.touch()
        assert await asyncio.wait_for(held, BOUND_S) == again
    finally:
        workers.close()


async def test_closed_its_calls_are_cancelled_and_its_workers_end(tmp_path):
    """As the bot stops: the calls in hand are not run again elsewhere, which would start
    new workers."""
    gate = tmp_path / "gate"
    sockets = WorkerSockets(1, multiprocessing.get_context("forkserver"), os.getpid)
    held = asyncio.create_task(sockets.call(call(marked_and_held, str(gate), str(tmp_path))))
    pid = await marked(tmp_path)
    (worker,) = sockets._workers
    sockets.close()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(held, BOUND_S)
    assert not sockets._workers
    gate.touch()  # it reads that its socket closed once its call is done
    await asyncio.to_thread(worker.process.join, BOUND_S)
    assert worker.process.exitcode == 0, pid


def test_workers_outlive_the_event_loop_that_gave_them_calls(tmp_path):
    """A call given up on in one event loop, and that loop gone (each test has its own), its
    answer never comes to the next loop's call."""
    gate = tmp_path / "gate"
    sockets = WorkerSockets(1, multiprocessing.get_context("forkserver"), os.getpid)

    async def given_up() -> None:
        held = asyncio.create_task(sockets.call(call(held_until, str(gate))))
        await asyncio.sleep(0)  # handed to the worker
        held.cancel()

    async def next_one() -> int:
        gate.touch()
        return await asyncio.wait_for(sockets.call(call(abs, -5)), BOUND_S)

    try:
        asyncio.run(given_up())
        assert asyncio.run(next_one()) == 5
    finally:
        sockets.close()
