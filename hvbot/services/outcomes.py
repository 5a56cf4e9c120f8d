"""What the services hand back: frozen values, stored already and ready to announce."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from engine import State
from hvbot.store import AbsenceVote, GameRow, UndoRequest
from hvbot.store.duties import Owed


class _ViewMemo:
    """The spectators' view of one position, built once when first asked for."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None


@dataclass(frozen=True)
class ActResult:
    """The outcome of one player's (or AI's) action: stored already, ready to announce.

    `state` is the game's state after it, the very one the store keeps in memory for the next
    move (see `GameStore.peek_state`): announcing reads it, and nothing changes it."""

    game: GameRow
    state: State
    seat: int
    applied: tuple[str, ...]  # action texts, in order
    finished: bool = False
    owed: tuple[Owed, ...] = ()  # the posts the move owes, held by this process (its board)
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


@dataclass(frozen=True)
class UndoOutcome:
    """Where a request to take back a move stands: "asked" (waiting for the others' answers),
    "waiting" (some have accepted), "refused", or "done" (with the state from before it)."""

    request: UndoRequest
    game: GameRow
    status: str
    state: State | None = None
    owed: tuple[Owed, ...] = ()  # when done: the board as it is again, held by this process


@dataclass(frozen=True)
class VoteOutcome:
    """Where a vote about an absent person stands: "open", or decided: "ai" (an AI plays their
    seat until they return) or "end" (the game is abandoned)."""

    vote: AbsenceVote
    game: GameRow
    status: str
    owed: tuple[Owed, ...] = ()  # when decided: the outcome's words, held by this process


@dataclass(frozen=True)
class Reminder:
    """A person who has been waited for: mention them again in the game's channel, or by DM."""

    game: GameRow
    seat: int
    user_id: int
    waited: timedelta
    owed: tuple[Owed, ...] = ()  # its posts, owed in the outbox (see hvbot.store.duties)


@dataclass(frozen=True)
class ClockEvent:
    """A turn clock that fell due, claimed by this process, its words owed in the outbox:
    the warning to the person to move (`ran_out` False, owed by DM), or their time having
    run out (`ran_out` True: an AI plays the move or takes the seat, the channel is told)."""

    game: GameRow
    seat: int
    user_id: int
    ran_out: bool
    owed: tuple[Owed, ...] = ()
