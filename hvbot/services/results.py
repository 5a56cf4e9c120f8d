"""Results of finished games: each seat's score and win, stored with the finishing move, and
filled in at start-up for games that finished before results were kept."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine import State
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.seat_names import was_removed
from hvbot.store import SeatResult, SeatRow

log = logging.getLogger(__name__)


def seat_results(state: State, seats: Sequence[SeatRow] = ()) -> list[SeatResult]:
    """Each seat's final score and whether it won; empty while the game goes on. With the
    game's `seats`, those a moderator removed are marked as having left early."""
    outcome = state.outcome()
    if outcome is None:
        return []
    winners = set(outcome.winners)
    removed = {s.seat for s in seats if was_removed(s)}
    return [
        SeatResult(seat, score, seat in winners, left_early=seat in removed)
        for seat, score in enumerate(outcome.scores)
    ]


class ResultsBackfill:
    """Results for the games finished before results were stored."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def backfill_results(self) -> int:
        """Store the results of games that finished before results were kept; run at start-up.

        Filling is idempotent: games that have results are not even read again. A saved state
        this engine can no longer read is skipped with a warning rather than stopping the bot.
        Returns how many games got results.
        """
        store = self.games.store
        filled = 0
        for game in await store.finished_games_without_results():
            try:
                state = self.games.peek_state(game)
            except (BotError, KeyError, ValueError) as exc:
                log.warning("game %s: no results, its saved state cannot be read: %s", game.id, exc)
                continue
            results = seat_results(state, game.seats)
            if not results:
                log.warning("game %s: finished, but its saved state is not over", game.id)
                continue
            await store.results.fill(game_id=game.id, results=results)
            filled += 1
        return filled
