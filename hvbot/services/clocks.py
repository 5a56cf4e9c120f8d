"""Turn clocks: the person to move is warned privately when a quarter of their time is left,
and when it has run out an AI plays that move for them, or takes their seat for the rest of
the game, or the game ends there as their loss (the game's `TurnClock.timeout`). Each is
claimed once across every bot process (see `hvbot.store.clocks`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from hvbot.services.access import GameAccess
from hvbot.services.outcomes import ClockEvent
from hvbot.store import GameRow, SeatRow, VersionConflict

log = logging.getLogger(__name__)

# Clocks claimed at a time, right before their words are posted (as reminders are).
CLOCK_BATCH = 10

WarningWords = Callable[[GameRow, int, timedelta], str]  # (game, seat, time left) -> DM words
RanOutWords = Callable[[GameRow, int], str]  # (game, seat) -> the channel's words


class TurnClocks:
    """What falls due on the games' turn clocks."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def due(
        self,
        warning: WarningWords,
        ran_out: RanOutWords,
        *,
        most: int = CLOCK_BATCH,
        stand_in_name: Callable[[GameRow, SeatRow], str] | None = None,
    ) -> list[ClockEvent]:
        """The warnings and timeouts due now (of the first `most` games found), each claimed
        by this process with its words owed; the games as they are after."""
        store = self.games.store
        now = self.games.clock()
        found: list[ClockEvent] = []
        for due in await store.clocks.due(now=now, most=most):
            # Fresh: another process may have passed the turn since this one kept the game.
            game = await store.game(game_id=due.game_id, fresh=True)
            if game is None or game.status != "active" or game.clock is None:
                continue
            seat = self.games.peek_state(game).current_seat()
            if seat is None or game.seats[seat].is_ai or game.version != due.version:
                continue
            user_id = game.seats[seat].user_id or 0
            if due.deadline is not None:
                event = await self._run_out(game, seat, due.deadline, ran_out, stand_in_name)
            elif due.warn_at is not None and game.clock_deadline is not None:
                left = datetime.fromisoformat(game.clock_deadline) - now
                owed = await store.clocks.warn(
                    game_id=game.id,
                    warn_at=due.warn_at,
                    now=now,
                    user_id=user_id,
                    text=warning(game, seat, left),
                )
                event = (
                    ClockEvent(game=game, seat=seat, user_id=user_id, ran_out=False, owed=(owed,))
                    if owed
                    else None
                )
            else:
                event = None
            if event is not None:
                found.append(event)
        return found

    async def _run_out(
        self,
        game: GameRow,
        seat: int,
        deadline: str,
        ran_out: RanOutWords,
        stand_in_name: Callable[[GameRow, SeatRow], str] | None,
    ) -> ClockEvent | None:
        store = self.games.store
        user_id = game.seats[seat].user_id or 0
        assert game.clock is not None
        if game.clock.timeout == "ai_move":
            handed = await store.clocks.hand_to_ai(
                game_id=game.id,
                version=game.version,
                seat=seat,
                now=self.games.clock(),
                text=ran_out(game, seat),
            )
            if handed is None:
                return None
            log.info("game %s: seat %s ran out of time; an AI plays the move", game.id, seat)
            return ClockEvent(
                game=await self.games.reload(game.id),
                seat=seat,
                user_id=user_id,
                ran_out=True,
                owed=(handed,),
            )
        # The seat goes to an AI for the rest of the game (as after an absence vote), or the
        # game ends there: one versioned change, so of two processes that find it due, one
        # makes it.
        async with store.lock(game.id):
            game = await self.games.reload(game.id)
            if game.clock_deadline != deadline or game.clock is None:  # moved on meanwhile
                return None
            try:
                if game.clock.timeout == "end":
                    owed = tuple(await self.games.forfeit(game, seat, told=ran_out(game, seat)))
                    game = await self.games.reload(game.id)
                else:
                    away = game.seats[seat]
                    name = stand_in_name(game, away) if stand_in_name else away.display_name
                    game, owed = await self.games.stand_in(
                        game, seat, name=name, told=ran_out(game, seat)
                    )
            except VersionConflict:
                return None
        return ClockEvent(game=game, seat=seat, user_id=user_id, ran_out=True, owed=owed)
