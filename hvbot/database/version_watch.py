"""Games changed by other processes, heard from PostgreSQL as the changes commit.

Each bot process keeps its open games in memory (`hvbot.store.cache`). Before a person's move
is acknowledged, the copy must be the stored one: a stale copy would refuse a good click as
out of date, or acknowledge in public a move whose compare-and-set then fails. Reading the
version again before every move costs a round trip to the server. Instead, a trigger announces
every change of a game's version (migration 0022) on `hvbot_games`, and each process listens
on a connection of its own: a copy no announcement has overtaken is the stored one.

That holds only while the process listens. A connection lost (the server restarting, say)
may have missed announcements, so every copy is doubted until it is read again in a listening
`session`; meanwhile the copies are checked by reading, as without the watch, which is also how
a database away is found before a move is acknowledged. The watch tries to listen again
after growing pauses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import asyncpg

log = logging.getLogger(__name__)

CHANNEL = "hvbot_games"
RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # pauses between tries to listen again, then the last
# What a server away (or going away) raises: the watch then tries again after a pause.
_AWAY = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


class Listener(Protocol):
    """What a watch tells: each version heard, and when listening started again."""

    def heard(self, game_id: int, version: int | None) -> None:
        """The game now stands at `version` (None: it was deleted)."""

    def restarted(self) -> None:
        """Listening started (again): announcements made before it were not heard."""


def parse(payload: str) -> tuple[int, int | None]:
    """`"12 7"` -> (12, 7); `"12 -"` -> (12, None), a deleted game."""
    game, version = payload.split()
    return int(game), None if version == "-" else int(version)


class VersionWatch:
    """Listens for the games' changes on a connection of its own (`connect` opens one), and
    tells those made by other processes: a change made on a connection whose server process
    is one of `own` (this process's pool) is known here already."""

    def __init__(self, connect: Callable[[], Awaitable[asyncpg.Connection]], own: set[int]) -> None:
        self._connect = connect
        self._own = own  # server process ids of this process's own connections
        self._listeners: list[Listener] = []
        self._conn: asyncpg.Connection | None = None
        self._lost = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.listening = False
        self.session = 0  # bumped each time listening starts: copies of before are doubted
        self._started = asyncio.Event()  # set while listening
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    @property
    def server_pid(self) -> int | None:
        """The server process serving the watch's connection, while it listens."""
        return self._conn.get_server_pid() if self._conn is not None else None

    async def listening_again(self) -> None:
        """Returns once the watch listens (at once if it does)."""
        await self._started.wait()

    async def not_listening(self) -> None:
        """Returns once the watch has stopped listening (at once if it does not listen)."""
        await self._lost.wait()

    async def heard_of(self, game_id: int, version: int) -> None:
        """Returns once a version of the game at least `version` is heard (from now on)."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((game_id, version, done))
        await done

    async def start(self) -> None:
        """Listen now if the server lets us, and keep listening (or trying) until closed."""
        with contextlib.suppress(*_AWAY):
            await self._listen()
        if not self.listening:
            self._lost.set()
        self._task = asyncio.create_task(self._keep_listening(), name="version-watch")

    async def close(self) -> None:
        self._closed = True
        self.listening = False
        self._started.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await asyncio.wait_for(conn.close(), 2.0)
            except (TimeoutError, *_AWAY):
                conn.terminate()

    async def _listen(self) -> None:
        conn = await self._connect()
        try:
            conn.add_termination_listener(self._terminated)
            await conn.add_listener(CHANNEL, self._notified)
        except BaseException:
            conn.terminate()
            raise
        self._conn = conn
        self._lost.clear()
        self.session += 1
        self.listening = True
        self._started.set()
        for listener in list(self._listeners):
            listener.restarted()
        log.debug("listening for the games' changes (session %d)", self.session)

    async def _keep_listening(self) -> None:
        attempt = 0
        while not self._closed:
            await self._lost.wait()
            await asyncio.sleep(RETRY_S[min(attempt, len(RETRY_S) - 1)])
            if self._closed:
                return
            try:
                await self._listen()
                attempt = 0
            except _AWAY as exc:
                # The database away is said once, by the requests that meet it: here, a line
                # at DEBUG per try.
                log.debug("cannot listen for the games' changes yet: %s", exc)
                attempt += 1

    def _terminated(self, conn: asyncpg.Connection) -> None:
        if conn is not self._conn:
            return
        self._conn = None
        self.listening = False
        self._started.clear()
        if not self._closed:
            log.debug("stopped hearing the games' changes: the connection was lost")
            self._lost.set()

    def _notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        game_id, version = parse(payload)
        if pid not in self._own:  # this process knows its own changes already
            for listener in list(self._listeners):
                listener.heard(game_id, version)
        if self._waiting:
            still = []
            for waiting in self._waiting:
                game, at_least, done = waiting
                if game == game_id and (version is None or version >= at_least):
                    if not done.done():
                        done.set_result(None)
                else:
                    still.append(waiting)
            self._waiting = still
