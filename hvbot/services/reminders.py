"""Reminding the person to move once they have kept the others waiting."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from hvbot.services.access import GameAccess
from hvbot.services.outcomes import Reminder

REMIND_AGAIN = timedelta(hours=1)  # after the first reminder, never more often than this


class Reminders:
    """Reminders claimed once across every bot process (see `hvbot.store.reminders`)."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def due_reminders(self, words: Callable[[Reminder], str] | None = None) -> list[Reminder]:
        """The people to remind now, each claimed so no other process reminds them too, with
        its `words` (if given) owed in the outbox in the same transaction (so a process that
        dies before posting it leaves it to another); the next reminder for the same wait
        comes an hour later, and a move starts a new wait."""
        store = self.games.store
        now = self.games.clock()
        found = []
        for due in await store.reminders.due(now=now):
            game = await store.game(game_id=due.game_id)
            if game is None or game.status != "active":
                continue
            state = self.games.peek_state(game)
            seat = state.current_seat()
            reminder = None
            if seat is not None and not game.seats[seat].is_ai:
                waited = now - (due.turn_since or now)
                reminder = Reminder(game, seat, game.seats[seat].user_id or 0, waited)
            announced = await store.reminders.claim(
                game_id=game.id,
                due=due.due,
                next_at=now + REMIND_AGAIN if reminder else None,
                text=words(reminder) if reminder and words else None,
            )
            if announced is not None and reminder is not None:
                found.append(replace(reminder, announcement_id=announced))
        return found
