"""Open games in memory: each game's row and its engine state, as one versioned entry.

A move costs no read at all when its game is here: under load every trip to the database
waits its turn on a busy event loop. Every open game's row is kept (its saved state compressed
beside it); built engine states only for the games played most lately (`KEPT_STATES`), which
covers a move's aftermath and keeps the collector's work bounded. The row and its state are
kept and dropped together, so there is one thing to invalidate: after a failed compare-and-set
(another process changed the game) the entry goes, and the next read fetches the game afresh.

When other processes share the database, a copy may have been overtaken by one of their
changes. With PostgreSQL each change is heard as it commits (`hvbot.database.version_watch`):
an entry put while listening, and overtaken by no version heard since, is `current`, and a
move on it needs no read of the version first.

Nothing here reads the database; `hvbot.store.GameStore` fills and updates it.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from engine import State
from hvbot.database import VersionWatch
from hvbot.store.rows import GameRow

# Engine states kept, those of the games played most lately: a move's aftermath (its board,
# the AI seat's reply) finds its state here. A state is 7-85 kB of small objects (High
# Voltage's the least, Pylons' the most), and every one kept is walked by the collector: with
# all ten thousand open games' states kept, its full passes held the event loop for a second
# and more in play. A game played every few minutes finds its state gone at its next move,
# and builds it from its saved form, kept compressed with its row: a tenth of a millisecond
# for High Voltage, a quarter for the others. Rows of open games are all kept.
KEPT_STATES = 1_000
# Games whose latest change is remembered (see `GameCache.unchanged_since`): a read of a game
# whose change was forgotten is kept only if it began after the latest one forgotten. A read
# lasts milliseconds, during which far fewer games change; each kept costs some 80 bytes.
KEPT_CHANGES = 10_000
# How a kept row's saved state is compressed (zlib's fastest): a High Voltage game's 3-5 kB of
# JSON is about a quarter of that, in 30-80 microseconds once a change, and read back (when a
# row is handed out) in about 12.
SAVED_LEVEL = 1


class GameCache:
    """Open games by id (and by channel and thread), each at one version, with the engine
    state of that version once it was built. States handed out are never to be changed."""

    def __init__(
        self,
        *,
        enabled: bool = True,
        kept_states: int = KEPT_STATES,
        watch: VersionWatch | None = None,
    ) -> None:
        self.enabled = enabled
        self.kept_states = kept_states
        self.watch = watch
        # The watch's listening session each row was put in (absent: put while not listening),
        # and versions heard newer than a row's (its copy is stale).
        self._sessions: dict[int, int] = {}
        self._overtaken: dict[int, int] = {}
        # Each row is kept without its saved state (`state_json`), which is kept compressed
        # beside it: at 10,000 open games the text was 40 MB of the bot's memory, where the
        # built states (kept too) are what a move reads. A row handed out has it back.
        self._rows: dict[int, GameRow] = {}
        self._saved: dict[int, bytes] = {}
        self._states: OrderedDict[int, State] = OrderedDict()  # least recently used first
        # Channel (for a game not in a thread) or thread id -> id of its open game.
        self._by_channel: dict[int, int] = {}
        # Changes committed so far: a read that began before one may predate it (see `read`).
        self.writes = 0
        # When (in `writes`) each game last changed, the latest last; when the watch last
        # started listening again; and the latest such time forgotten (see `unchanged_since`).
        self._changed_at: dict[int, int] = {}
        self._restarted_at = 0
        self._forgotten_at = 0

    def row(self, game_id: int) -> GameRow | None:
        cached = self._rows.get(game_id)
        return None if cached is None else self._whole(cached)

    def _whole(self, cached: GameRow) -> GameRow:
        """A kept row with its saved state back (see `_saved`)."""
        saved = self._saved.get(cached.id)
        if saved is None:
            return cached
        return replace(cached, state_json=zlib.decompress(saved).decode())

    def held(self) -> set[int]:
        """The games in memory now: those played (or looked at) since the process started."""
        return set(self._rows)

    def current(self, game_id: int) -> bool:
        """Whether the game's copy here is known to be the stored one: put while the watch
        listened, in its current session, and overtaken by no change heard since."""
        session = self.session()
        return (
            session is not None
            and self._sessions.get(game_id) == session
            and game_id in self._rows
            and game_id not in self._overtaken
        )

    def confirmed(self, game_id: int, *, since: int) -> None:
        """The copy was just found to be the stored one (by a read begun at `since`, the
        `writes` of then): current from now, if nothing was heard or changed meanwhile."""
        if self.unchanged_since(game_id, since):
            self._stored(game_id, began=self.session())

    def unchanged_since(self, game_id: int, since: int) -> bool:
        """Whether nothing that could make a read of the game begun at `since` (the `writes`
        of then) out of date has happened since: no change to this game, nor the watch
        started again. Another game's change leaves the read as good: with hundreds of games
        being opened at once, some change commits during nearly every read, and a read kept
        only when none at all did was hardly ever kept, so every look at a game read it
        again (its row, then its seats)."""
        return (
            since >= self._restarted_at
            and since >= self._forgotten_at
            and self._changed_at.get(game_id, 0) <= since
        )

    def _touched(self, game_id: int) -> None:
        """A change to the game committed (or was heard of): reads under way are not kept."""
        self.writes += 1
        self._changed_at.pop(game_id, None)  # to the end: the latest last
        self._changed_at[game_id] = self.writes
        if len(self._changed_at) > KEPT_CHANGES:
            oldest = next(iter(self._changed_at))
            self._forgotten_at = self._changed_at.pop(oldest)

    def session(self) -> int | None:
        """The watch's listening session now, None while it does not listen: a change begun
        now leaves a current copy only if the watch listens throughout (see `changed`)."""
        watch = self.watch
        return watch.session if watch is not None and watch.listening else None

    def _stored(self, game_id: int, *, began: int | None) -> None:
        """The copy here is the stored one now: current while the watch goes on listening,
        if it has listened since `began` (a session) without a break. Another process's
        change made while it did not listen would not have been heard."""
        if began is not None and began == self.session() and game_id in self._rows:
            self._sessions[game_id] = began
        else:
            self._sessions.pop(game_id, None)

    def heard(self, game_id: int, version: int | None) -> None:
        """Another process (or this one) changed the game to `version`, None if deleted.
        A read under way may predate the change, so it is not kept (see `read`)."""
        self._touched(game_id)
        cached = self._rows.get(game_id)
        if cached is None:
            return
        if version is None:
            self.forget(game_id)
        elif version > cached.version:
            self._overtaken[game_id] = max(version, self._overtaken.get(game_id, 0))

    def restarted(self) -> None:
        """The watch listens again, after a while it did not: whatever it missed is unknown,
        so every copy waits to be confirmed (the new session tells them apart), and reads
        under way are not kept."""
        self.writes += 1
        self._restarted_at = self.writes

    def in_channel(self, channel_id: int) -> GameRow | None:
        """The open game of a channel or of its thread, if it is here and no newer version of
        it was heard: another process may have finished it, and the channel may hold another
        game by now (`heard` only knows the version, not what changed). Such a copy is let
        go, so that the channel is read afresh once, not at every look while it stays empty."""
        game_id = self._by_channel.get(channel_id)
        if game_id is None:
            return None
        if game_id in self._overtaken:
            self.forget(game_id)
            return None
        return self._whole(self._rows[game_id])

    def read(self, game: GameRow, *, since: int) -> GameRow:
        """A game read from the database, kept only if no change to it was committed since
        the read began (`since`, the `writes` of then): the row might predate it. A restart of
        the watch meanwhile counts as a change to every game (see `unchanged_since`)."""
        if self.unchanged_since(game.id, since):
            self._put(game, self.state(game))
            self._stored(game.id, began=self.session())
        return game

    def changed(
        self, game_id: int, state: State | None = None, *, began: int | None = None, **changes: Any
    ) -> None:
        """A committed change: the game's copy in memory follows it, if there is one. With a
        new `version` and `state_json`, `state` is the engine state saved (or None); a change
        that leaves the saved state as it was keeps the built one. `began`: the watch's
        `session` when the change began; the new version is current only if the watch has
        listened since (else it waits to be confirmed by a read)."""
        self._touched(game_id)
        cached = self._rows.get(game_id)
        if cached is None:
            return
        if "version" in changes and cached.version != changes["version"] - 1:
            # The copy here is not the version this change was made on: another process's
            # change was read in while this one committed. Patching it would mix two versions.
            self.forget(game_id)
            return
        saved = None
        if "state_json" not in changes:
            saved = self._saved.get(game_id)
            if state is None:
                state = self._states.get(game_id)
        self._put(replace(cached, **changes), state, saved=saved)
        if "version" in changes:
            # Committed with a compare-and-set: the stored version when it committed.
            self._stored(game_id, began=began)

    def forget(self, game_id: int) -> None:
        """Drop a game's entry, e.g. after another process changed it."""
        self._touched(game_id)
        self._states.pop(game_id, None)
        self._sessions.pop(game_id, None)
        self._overtaken.pop(game_id, None)
        self._saved.pop(game_id, None)
        cached = self._rows.pop(game_id, None)
        if cached is None:
            return
        for channel_id in (cached.channel_id, cached.thread_id):
            if channel_id is not None and self._by_channel.get(channel_id) == game_id:
                del self._by_channel[channel_id]

    def state(self, game: GameRow) -> State | None:
        """The engine state kept for exactly this version of the game, if any."""
        cached = self._rows.get(game.id)
        if cached is None or cached.version != game.version:
            return None
        found = self._states.get(game.id)
        if found is not None:
            self._states.move_to_end(game.id)
        return found

    def keep_state(self, game: GameRow, state: State) -> None:
        """Keep the state built for a game, if this version of it is the one here."""
        cached = self._rows.get(game.id)
        if cached is not None and cached.version == game.version:
            self._keep(game.id, state)

    def _put(self, game: GameRow, state: State | None, *, saved: bytes | None = None) -> None:
        """Keep `game` (with `state`, if built); `saved`: its saved state compressed, when
        `game` comes without it (a kept row changed in other columns)."""
        if not (game.is_open and self.enabled):
            self.forget(game.id)
            return
        if game.state_json is not None:
            saved = zlib.compress(game.state_json.encode(), SAVED_LEVEL)
            game = replace(game, state_json=None)
        if saved is None:
            self._saved.pop(game.id, None)
        else:
            self._saved[game.id] = saved
        self._rows[game.id] = game
        if self._overtaken.get(game.id, -1) <= game.version:
            self._overtaken.pop(game.id, None)
        if game.thread_id is None:
            # A tournament's table before its thread starts is not its channel's game: the
            # channel holds several of them (see `games.open_in_channel`).
            if game.tournament_id is None:
                self._by_channel[game.channel_id] = game.id
        else:  # played in its thread: the channel may hold another game
            if self._by_channel.get(game.channel_id) == game.id:
                del self._by_channel[game.channel_id]
            self._by_channel[game.thread_id] = game.id
        if state is None:
            self._states.pop(game.id, None)
        else:
            self._keep(game.id, state)

    def _keep(self, game_id: int, state: State) -> None:
        self._states[game_id] = state
        self._states.move_to_end(game_id)
        while len(self._states) > self.kept_states:
            self._states.popitem(last=False)
