"""Tournaments in a server: a Swiss or a round robin, played over days with turn clocks.

A moderator (or a member who may open games there) opens one in a channel with
`/tournament new`: the game and its options, the format, the table size, the turn clock and
what its running out does, an optional start time and a most of entrants. People sign up
with the Join and Leave buttons of its sign-up post, which lists them. The creator starts it
(or it starts by itself at its time): entrants are seeded by rating, and round 1 is paired.

Each table is an ordinary game (ratings count it as any game), opened already started in
the tournament's channel: its announcement names the seats with mentions, its thread is
started from that message and its boards go there, secrets by DM. Every game has a turn
clock whose running out ends the game as a loss for the one out of time, or gives their seat
to an AI, so no round waits forever. When every game of a round has ended, the next round is
paired from the finished results (`hvbot.services.pairing`), or the tournament ends and its
podium is posted. The round's row is the claim (`hvbot.store.tournaments`): of several
processes that see the last game end, one pairs it.

Withdrawals: a person may leave (before the start: off the list; after: not paired again,
their running game goes on; a round robin's remaining games against them are byes for their
opponents). A moderator may remove someone: as leaving, and their running game counts as
resigned. Pause: no new round is paired while paused (running games go on); resume pairs a
round that is due. Cancel: no more rounds; running games go on as ordinary games.

Every change comes back as a `TournamentChange` with the posts it owes in the outbox, and
`hvbot.aftermath.Aftermath.follow` sends them (see docs/tournaments.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from hvbot.services.access import GameAccess
from hvbot.services.lobby import Lobby
from hvbot.services.outcomes import TournamentChange
from hvbot.store import GameRow
from hvbot.store.tournaments import EntrantRow, RoundRow, TableGameRow, TournamentRow

# Entrants a tournament takes at most (and by default).
MOST_ENTRANTS = 64
# Swiss rounds at most.
MOST_ROUNDS = 12
# A round robin's entrants, at least and at most.
ROUND_ROBIN_FEWEST, ROUND_ROBIN_MOST = 3, 8


@dataclass(frozen=True)
class TableResult:
    """A table of a round as it stands: its game, its players in seat order, and their
    places once it ended (1 = first, ties share; None: still playing, or ended without a
    result)."""

    table: TableGameRow
    status: str
    places: tuple[int, ...] | None


@dataclass(frozen=True)
class TournamentStanding:
    """A tournament as it stands, for `/tournament standings` and the posts: its row, its
    entrants (seed order once started), its rounds as paired, its tables with their results,
    and the standings computed from the finished results (`hvbot.services.standings`'s
    `Standing`s, best first; players are user ids)."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundRow, ...]
    tables: tuple[TableResult, ...]
    standings: tuple[Any, ...]

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)


class Tournaments:
    """Opening, joining, running and ending tournaments (reachable as
    `service.tournaments`). Every refusal is a `BotError` with a text key and an English
    message saying what would be allowed; all times come from the service's clock."""

    def __init__(self, games: GameAccess, lobby: Lobby) -> None:
        self.games = games
        self.lobby = lobby

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.games.clock

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        may_open: bool,
        game: str,
        options: Mapping[str, Any],
        format: str,
        rounds: int | None,
        table: str,
        turn_clock: timedelta,
        timeout: str,
        starts_at: datetime | None,
        most: int | None,
        name: str | None,
        language: str = "en",
    ) -> TournamentChange:
        """Open a tournament in `channel_id` (`may_open`: the person is a moderator, or may
        open games here by the server's settings: the caller decides, as /game new does).
        `format` "swiss" (`rounds` 1..12, None: ceil(log2(entrants)) at the start) or
        "round_robin" (3..8 entrants, tables of 2); `table` "2", "3", "4" or "3-4" (Pylons:
        "2" only); `turn_clock` one of the lengths /game new offers, `timeout` "end" or
        "ai_seat"; `starts_at` in the future or None; `most` 4..64 (None: 64). `name`: its
        title (None: the game's title and "tournament"); `language`: of its posts. Owes the
        sign-up post (`what` "created")."""
        raise NotImplementedError

    async def join(
        self,
        tournament_id: int,
        user_id: int,
        *,
        name: str | None = None,
        language: str | None = None,
    ) -> TournamentChange:
        """Sign up (`name`: how the person is shown, their display name; `language`: their
        own, for their seats). Only in sign-up, once, up to its most. Owes the sign-up post's
        update (kind "signup": a Join button's answer may show it itself)."""
        raise NotImplementedError

    async def leave(self, tournament_id: int, user_id: int) -> TournamentChange:
        """Leave: before the start, off the list; after, withdrawn (not paired again; their
        running game goes on; in a round robin their later games are byes for the others)."""
        raise NotImplementedError

    async def leave_in(self, channel_id: int, user_id: int) -> TournamentChange:
        """`leave` of the one open tournament of `channel_id` (or of the channel a thread is
        in)."""
        raise NotImplementedError

    async def start(
        self, tournament_id: int, user_id: int, *, can_manage: bool
    ) -> TournamentChange:
        """Start now (its creator, or a moderator: `can_manage`): entrants seeded by rating,
        round 1 paired, its games opened (`what` "started")."""
        raise NotImplementedError

    async def remove(self, tournament_id: int, user_id: int, *, by: int) -> TournamentChange:
        """A moderator (`by`) removes `user_id`: withdrawn as by leaving, and their running
        game counts as resigned (`what` "removed"). The caller checks `by` moderates."""
        raise NotImplementedError

    async def pause(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """No new round is paired until `resume` (running games go on)."""
        raise NotImplementedError

    async def resume(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """Pairing goes on: a round that came due while paused is paired now."""
        raise NotImplementedError

    async def cancel(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """No more rounds; running games go on as ordinary games; the sign-up post says
        cancelled."""
        raise NotImplementedError

    async def in_channel(self, channel_id: int) -> TournamentRow | None:
        """The open tournament of a channel (a thread's parent counts: pass the parent's id
        too when asked from a thread, or the thread of one of its games)."""
        raise NotImplementedError

    async def get(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by id, as stored."""
        raise NotImplementedError

    async def standing(self, tournament_id: int) -> TournamentStanding:
        """The tournament as it stands now (see `TournamentStanding`)."""
        raise NotImplementedError

    # ------------------------------------------------------------ for the aftermath

    async def game_ended(self, game: GameRow) -> TournamentChange | None:
        """A table game ended: if it completed its round, the next round paired (once, across
        processes) or the tournament finished; None when nothing more follows."""
        raise NotImplementedError

    async def due(self) -> list[TournamentChange]:
        """The periodic duty: tournaments whose start time has come started, and rounds
        complete but not paired (a process died in between) paired, each once."""
        raise NotImplementedError
