"""The games watched on the web, each drawn once per version however many watch it.

A change reaches the hub two ways, neither of them a viewer asking the database:
- the changes this process makes, from the one pipeline (`Aftermath.follow` tells `changed`);
- on PostgreSQL, those another process stored, heard as they commit on the channel every
  process listens to (`hvbot.database.version_watch`: the hub is one of its listeners).

For a game someone watches, either makes the hub read the game once and build its `Frame`:
the picture drawn once (by the drawing workers, as a board post's), the moves said once, the
words once per language asked for. Every viewer of the game is then woken to send it; a viewer
holds nothing of its own but its connection. Changes that come while a frame is being built
are folded into one more build.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.core import State
from hvbot.database import failed
from hvbot.infra import metrics, workers
from hvbot.messages.presenters import presenter_for
from hvbot.messages.wording import picture_names
from hvbot.services.access import GameAccess
from hvbot.store import GameRow
from hvbot.web.page import Moment, as_json, board_words, event_data

log = logging.getLogger(__name__)

KEEP_ALIVE_S = 15.0  # a viewer with nothing new is sent a comment this often (proxies close idle)
IDLE_S = 60.0  # a game nobody follows is forgotten this long after its page was last served
# An event's bytes are sent as they are to the viewers woken within this long of their making:
# the bot's time in it is then off by less than that, for the page's clock.
SAME_EVENT_MS = 250


@dataclass
class Frame:
    """One version of a watched game: its picture (PNG, drawn once) and its words, made once
    per language (JSON), lazily."""

    moment: Moment
    png: bytes
    _words: dict[str, tuple[dict[str, Any], str]] = field(default_factory=dict)
    _events: dict[str, tuple[int, bytes]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.moment.game.version

    @property
    def game(self) -> GameRow:
        return self.moment.game

    def words(self, language: str) -> tuple[dict[str, Any], str]:
        """The words in `language`, and the same as JSON."""
        made = self._words.get(language)
        if made is None:
            said = board_words(self.moment, language)
            made = self._words[language] = (said, as_json(said))
        return made

    def event(self, language: str, now_ms: int) -> bytes:
        """The server-sent event of this version in `language`, the bot's time in it: made
        once for all the viewers woken together (within `SAME_EVENT_MS`), not once each."""
        made = self._events.get(language)
        if made is None or not 0 <= now_ms - made[0] < SAME_EVENT_MS:
            made = self._events[language] = (now_ms, event_data(self.words(language)[1], now_ms))
        return made[1]


class Board:
    """A watched game: its latest frame and the one before (a picture asked for just as the
    next version came), and how many follow it."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.now: Frame | None = None
        self.before: Frame | None = None
        self.watchers = 0
        self.updated = asyncio.Event()  # set, and replaced, when a new frame is made
        self.gone = False  # the game is no more (or not started): its viewers stop
        self.building: asyncio.Task[None] | None = None
        self.again = False  # a change came while building: build once more after
        self.forget: asyncio.TimerHandle | None = None

    def frame_of(self, version: int) -> Frame | None:
        for frame in (self.now, self.before):
            if frame is not None and frame.version == version:
                return frame
        return None


class Hub:
    """The watched games of this process. `games` reads them; `picture_address` is where a
    version's picture is served (its page's address, the version)."""

    def __init__(self, games: GameAccess, picture_address: Callable[[int, int], str]) -> None:
        self.games = games
        self.picture_address = picture_address
        self.boards: dict[int, Board] = {}
        self.closed = False
        self.drawn = 0  # pictures drawn, in all: the tests and the benchmark count them

    # ------------------------------------------------------------------ told of changes

    def changed(self, game_id: int) -> None:
        """A change to the game was stored: its viewers get the new version."""
        board = self.boards.get(game_id)
        if board is not None and not self.closed:
            self._build(board)

    def heard(self, game_id: int, version: int | None) -> None:
        """Another process stored a change (`VersionWatch`'s listener)."""
        self.changed(game_id)

    def restarted(self) -> None:
        """The watch listens again: changes made meanwhile were not heard, so every watched
        game is read again."""
        for game_id in list(self.boards):
            self.changed(game_id)

    # ------------------------------------------------------------------ frames

    async def frame(self, game_id: int) -> Frame | None:
        """The game's latest frame (built now if nobody watches it yet); None if there is no
        such game under way or ended."""
        board = self._board(game_id)
        if board.now is None and not board.gone:
            await self._wait_built(board)
        if board.watchers == 0:
            self._forget_later(board)
        return board.now

    async def follow(self, game_id: int) -> AsyncIterator[Frame | None]:
        """The game's frames, the latest first, then each newer one as it is made; None now
        and then when nothing new came (a viewer's connection kept alive). Ends when the game
        is gone or the hub closes."""
        board = self._board(game_id)
        board.watchers += 1
        metrics.WEB_VIEWERS.inc()
        if board.forget is not None:
            board.forget.cancel()
            board.forget = None
        try:
            if board.now is None and not board.gone:
                await self._wait_built(board)
            shown = -1
            while not self.closed and not board.gone:
                frame = board.now
                if frame is not None and frame.version > shown:
                    shown = frame.version
                    yield frame
                    continue
                updated = board.updated
                try:
                    await asyncio.wait_for(updated.wait(), KEEP_ALIVE_S)
                except TimeoutError:
                    yield None
        finally:
            board.watchers -= 1
            metrics.WEB_VIEWERS.dec()
            if board.watchers == 0:
                self._forget_later(board)

    def _board(self, game_id: int) -> Board:
        board = self.boards.get(game_id)
        if board is None:
            board = self.boards[game_id] = Board(game_id)
        return board

    def _forget_later(self, board: Board) -> None:
        if board.forget is not None:
            board.forget.cancel()
        loop = asyncio.get_running_loop()
        board.forget = loop.call_later(IDLE_S, self._forget, board)

    def _forget(self, board: Board) -> None:
        if board.watchers == 0 and self.boards.get(board.game_id) is board:
            del self.boards[board.game_id]

    async def _wait_built(self, board: Board) -> None:
        self._build(board)
        task = board.building
        if task is not None:
            await asyncio.shield(task)

    def _build(self, board: Board) -> None:
        if board.building is not None and not board.building.done():
            board.again = True
            return
        board.building = asyncio.create_task(
            self._building(board), name=f"web-board-{board.game_id}"
        )

    async def _building(self, board: Board) -> None:
        while True:
            board.again = False
            try:
                await self._build_once(board)
            except Exception as exc:
                failed(log, exc, "game %s: could not make its live board", board.game_id)
            if not board.again or self.closed:
                return

    async def _build_once(self, board: Board) -> None:
        game = await self.games.find(board.game_id, fresh=True)
        if game is None or game.state_json is None:
            board.gone = True
            self._wake(board)
            return
        if board.now is not None and board.now.version >= game.version:
            return
        state: State = self.games.peek_state(game)
        moves = await self.games.actions(game.id)
        presenter = presenter_for(game.game_name, game.language)
        view = state.view(None)
        png = await workers.draw(presenter.board_png, view, picture_names(game), clock=None)
        del view
        self.drawn += 1
        metrics.WEB_DRAWN.inc()
        picture = self.picture_address(game.id, game.version)
        frame = Frame(Moment(game, state, tuple(moves), picture), png)
        if board.now is not None and board.now.version >= frame.version:
            return  # a newer one was made meanwhile
        board.before, board.now = board.now, frame
        self._wake(board)

    @staticmethod
    def _wake(board: Board) -> None:
        woken, board.updated = board.updated, asyncio.Event()
        woken.set()

    async def close(self) -> None:
        """Wake every viewer to end, and stop building."""
        self.closed = True
        tasks = []
        for board in self.boards.values():
            self._wake(board)
            if board.forget is not None:
                board.forget.cancel()
            if board.building is not None and not board.building.done():
                board.building.cancel()
                tasks.append(board.building)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def now_ms(clock: Callable[[], datetime]) -> int:
    """The bot's time (its injected clock) in milliseconds since the epoch."""
    return int(clock().timestamp() * 1000)
