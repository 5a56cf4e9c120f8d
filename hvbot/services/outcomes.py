"""What the services hand back: frozen values, stored already and ready to announce.

Every change to a game comes back as a `Change` (or a kind of one that says more: a move, an
undo, a vote, a clock or a reminder falling due), so that what follows it is decided in one
place from the value alone (`hvbot.aftermath.Aftermath.follow`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from engine import State
from hvbot.services.seasons import Season
from hvbot.store import AbsenceVote, GameRow, UndoRequest
from hvbot.store.duties import Owed
from hvbot.store.tournaments import TournamentRow


class _ViewMemo:
    """The spectators' view of one position, built once when first asked for."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class Change:
    """A change to one game, stored already: the game as stored after it, its engine state
    (None where the change did not hand one over: a lobby, a game ended without a move; the
    state is then read from the game when needed), and the posts it owes, in the order owed,
    held by this process for their lease (see `hvbot.store.duties`). `what` says which way a
    change went where it can go several ("resigned" or "ended", say)."""

    game: GameRow
    state: State | None = None
    owed: tuple[Owed, ...] = ()
    what: str = ""


@dataclass(frozen=True, kw_only=True)
class ActResult(Change):
    """The outcome of one player's (or AI's) action: stored already, ready to announce.

    `state` is the game's state after it, the very one the store keeps in memory for the next
    move (see `GameStore.peek_state`): announcing reads it, and nothing changes it. `owed`
    holds its board post."""

    state: State
    seat: int
    applied: tuple[str, ...]  # action texts, in order
    finished: bool = False
    # The change took the claim of the thinking of the AI seat it handed the turn to, for
    # this process (see `hvbot.store.duties.AiClaim`): it goes on to the AI without claiming
    # it again.
    ai_claimed: bool = False
    # What everyone sees now, once asked for: announcing a move needs it several times (is it
    # public? the board, the scores, who is next), and building it is a fair share of a move.
    # The result of a move and its acknowledgement before storing share it: the same position.
    _seen: _ViewMemo = field(default_factory=_ViewMemo, repr=False, compare=False)

    def public_view(self) -> dict[str, Any]:
        """The spectators' view of the game after the action (built once, then shared: no
        reader changes a view)."""
        if self._seen.view is None:
            self._seen.view = self.state.view(None)
        return self._seen.view

    def let_go_of_view(self) -> None:
        """Nothing will read the view any more: let it go (a waiting board post holds the
        result, and the view is the largest part of it)."""
        self._seen.view = None


@dataclass(frozen=True, kw_only=True)
class UndoOutcome(Change):
    """Where a request to take back a move (or to abandon the game) stands: "asked" (waiting
    for the others' answers), "waiting" (some have accepted), "refused", or "done" (with the
    state from before it, and the board as it is again owed)."""

    request: UndoRequest
    status: str


@dataclass(frozen=True, kw_only=True)
class VoteOutcome(Change):
    """Where a vote about an absent person stands: "open", or decided: "ai" (an AI plays their
    seat until they return) or "end" (the game is abandoned), its words owed."""

    vote: AbsenceVote
    status: str


@dataclass(frozen=True, kw_only=True)
class Reminder(Change):
    """A person who has been waited for: mention them again in the game's channel, or by DM
    (its words owed)."""

    seat: int
    user_id: int
    waited: timedelta


@dataclass(frozen=True, kw_only=True)
class ClockEvent(Change):
    """A turn clock that fell due, claimed by this process, its words owed in the outbox:
    the warning to the person to move (`ran_out` False, owed by DM), or their time having
    run out (`ran_out` True: an AI plays the move or takes the seat, the channel is told)."""

    seat: int
    user_id: int
    ran_out: bool


@dataclass(frozen=True, kw_only=True)
class SeasonEnd:
    """A server's season that ended, recorded by this process (see `hvbot.store.seasons`),
    with what it owes in the outbox: the final leaderboards announced in the server's season
    channel, and the rank roles given and taken. Not a game's change: it names a server, and
    `Aftermath.follow` sends what it owes as it does a game's."""

    guild_id: int
    season: Season
    owed: tuple[Owed, ...] = ()


@dataclass(frozen=True, kw_only=True)
class TournamentChange:
    """A change to a tournament, stored already (see `hvbot.services.tournaments`): the
    tournament as stored after it, the posts it owes (its sign-up post's update, a round's
    announcement, the standings, the podium: server posts, with no game), the table games it
    opened (each a started game's `Change`, with its own owed posts: its announcement in the
    tournament's channel, from which its thread is started, its first board and secrets) or
    whose seat it resigned, and `what` happened: "created", "joined", "left", "started",
    "paired", "removed", "resigned" (a removed person's seat, by the periodic check),
    "paused", "resumed", "cancelled", "finished". Not a game's change: `Aftermath.follow`
    sends what it owes, then follows each of its games."""

    tournament: TournamentRow
    owed: tuple[Owed, ...] = ()
    games: tuple[Change, ...] = ()
    what: str = ""
