"""Worker processes the event loop talks to itself: one socket to each, no thread between.

`concurrent.futures.ProcessPoolExecutor` hands each call to its workers through two threads
of the calling process, one feeding a queue of calls and one reading the results back, each
taking the interpreter's lock from the event loop for every call: 0.4-0.6 ms of the bot's CPU
a call, timed with a board's view sent and its picture read back, about what drawing a board
costs its worker. The bot draws a picture for every move and three for every game it starts.
Here the event loop writes a call onto a worker's socket and reads the answer when the socket
says it has come (0.1 ms a call, the same timing).

A worker answers its calls in the order they came, one at a time. A call is handed to the
worker with the fewest calls in hand; `hvbot.infra.workers.Workers` says how many may be in
hand at once. A worker that stops (killed, out of memory) fails the calls it held with
`WorkerStopped`, and the next call starts another in its place; closing the workers cancels the
calls in hand.
"""

from __future__ import annotations

import asyncio
import pickle
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

# Each call and each answer is its length, then its pickled bytes.
LENGTH = struct.Struct("!Q")
READ_AT_ONCE = 1 << 18  # bytes read from a socket at a time: a board picture is 75-115 kB


class WorkerStopped(RuntimeError):
    """The worker process running a call stopped before it answered."""


class RemoteTraceback(Exception):
    """Where in the worker a call failed: the failure's cause, as the worker printed it."""

    def __str__(self) -> str:
        return str(self.args[0])


def serve(conn: socket.socket, start: Callable[[], None]) -> None:
    """A worker process: `start`, then each call read from `conn` run and answered, until the
    bot closes its end."""
    start()
    with conn:
        while (call := _read(conn)) is not None:
            try:
                conn.sendall(_answer(call))
            except OSError:  # the bot closed its end while this worked: nobody to answer
                return


def _answer(call: bytes) -> bytes:
    """`call`'s answer, framed: (True, what it returned) or (False, what it raised, where)."""
    try:
        func, args, kwargs = pickle.loads(call)
        reply: tuple[Any, ...] = (True, func(*args, **kwargs))
    except Exception as exc:  # the caller's to see, as if it had run there
        reply = (False, exc, "".join(traceback.format_exception(exc)))
    try:
        answer = pickle.dumps(reply, protocol=5)
    except Exception as exc:  # the result, or the error, cannot travel
        answer = pickle.dumps((False, TypeError(f"the answer cannot be sent: {exc!r}"), ""))
    return LENGTH.pack(len(answer)) + answer


def _read(conn: socket.socket) -> bytes | None:
    """The next call sent, or None once the bot has closed its end."""
    head = _exactly(conn, LENGTH.size)
    return None if head is None else _exactly(conn, LENGTH.unpack(head)[0])


def _exactly(conn: socket.socket, size: int) -> bytes | None:
    data = bytearray(size)
    view, got = memoryview(data), 0
    while got < size:
        try:
            n = conn.recv_into(view[got:])
        except OSError:  # closed by the bot as it stopped
            return None
        if not n:
            return None
        got += n
    return bytes(data)


class WorkerProcess:
    """One worker process, seen from the bot: its socket, and the calls it was handed and
    has not answered, in order."""

    def __init__(self, process: BaseProcess, conn: socket.socket) -> None:
        self.process = process
        self.conn = conn
        self.waiting: deque[asyncio.Future[bytes]] = deque()
        self.stopped = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsent: list[memoryview] = []
        self._read = bytearray()

    def call(self, payload: bytes) -> asyncio.Future[bytes]:
        """Hand the worker a pickled call; the future is its pickled answer."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        if self.stopped:
            answer.set_exception(WorkerStopped("the worker process has stopped"))
            return answer
        if not self.waiting:
            self._loop = loop
            loop.add_reader(self.conn.fileno(), self._readable)
        self.waiting.append(answer)
        self._send([memoryview(LENGTH.pack(len(payload))), memoryview(payload)])
        return answer

    def answers(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether the calls it holds (if any) were made in `loop`. A bot has one event loop;
        a test has one of its own, and workers may outlive it."""
        return not self.waiting or self._loop is loop

    def _send(self, parts: list[memoryview]) -> None:
        if self._unsent:  # behind what is waiting to go
            self._unsent += parts
            return
        try:
            sent = self.conn.sendmsg(parts)
        except BlockingIOError:
            sent = 0
        except OSError:  # its end is closed: stopped
            self.stop()
            return
        self._unsent = _after(parts, sent)
        if self._unsent and self._loop is not None:
            self._loop.add_writer(self.conn.fileno(), self._writable)

    def _writable(self) -> None:
        unsent, self._unsent = self._unsent, []
        if self._loop is not None:
            self._loop.remove_writer(self.conn.fileno())
        self._send(unsent)

    def _readable(self) -> None:
        try:
            chunk = self.conn.recv(READ_AT_ONCE)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.stop()
            return
        self._read += chunk
        while len(self._read) >= LENGTH.size:
            size = LENGTH.unpack_from(self._read)[0]
            end = LENGTH.size + size
            if len(self._read) < end:
                break
            answer = bytes(memoryview(self._read)[LENGTH.size : end])
            del self._read[:end]
            waiting = self.waiting.popleft()
            if not waiting.done():  # not given up on while it was worked on
                waiting.set_result(answer)
        if not self.waiting and self._loop is not None:
            self._loop.remove_reader(self.conn.fileno())

    def stop(self, *, closing: bool = False) -> None:
        """Let the worker go (it ends when it reads that its socket closed). The calls it held
        fail with `WorkerStopped`, or are cancelled when the bot is `closing` its workers (as
        it stops: run again elsewhere, they would start new workers)."""
        if self.stopped:
            return
        self.stopped = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self.conn.fileno())
            self._loop.remove_writer(self.conn.fileno())
        self.conn.close()
        while self.waiting:
            waiting = self.waiting.popleft()
            if closing:
                waiting.cancel()
            elif not waiting.done():
                waiting.set_exception(WorkerStopped("a worker process stopped"))


def _after(parts: list[memoryview], sent: int) -> list[memoryview]:
    """What of `parts` is left once their first `sent` bytes have gone."""
    left = []
    for part in parts:
        if sent >= len(part):
            sent -= len(part)
        else:
            left.append(part[sent:])
            sent = 0
    return left


class WorkerSockets:
    """`processes` worker processes started from `context`, each running `start` first; calls
    go to the one with the fewest in hand."""

    def __init__(self, processes: int, context: BaseContext, start: Callable[[], None]) -> None:
        self.processes = processes
        self._context = context
        self._start = start
        self._workers: list[WorkerProcess] = []

    async def call(self, payload: bytes) -> Any:
        """Run the pickled call `(func, args, kwargs)` in a worker: what it returns, or what it
        raises (its cause the worker's traceback); `WorkerStopped` if the worker stopped."""
        answer = await self._least_busy().call(payload)
        ok, value, *where = pickle.loads(answer)
        if ok:
            return value
        if where and where[0]:
            value.__cause__ = RemoteTraceback(where[0])
        raise value

    def _least_busy(self) -> WorkerProcess:
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            if worker.waiting and not worker.answers(loop):
                worker.stop(closing=True)  # what it owes, it owes an event loop that ended
        self._workers = [worker for worker in self._workers if not worker.stopped]
        while len(self._workers) < self.processes:
            self._workers.append(self._started())
        return min(self._workers, key=lambda worker: len(worker.waiting))

    def _started(self) -> WorkerProcess:
        mine, theirs = socket.socketpair()
        process = self._context.Process(  # type: ignore[attr-defined]  # every context has Process; BaseContext does not declare it
            target=serve, args=(theirs, self._start), daemon=True
        )
        try:
            process.start()
        finally:
            theirs.close()
        mine.setblocking(False)
        return WorkerProcess(process, mine)

    def close(self) -> None:
        """Let every worker go; the calls in hand are cancelled."""
        for worker in self._workers:
            worker.stop(closing=True)
        self._workers = []
