"""Reminding the person to move once they have kept the others waiting."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from hvbot.services.access import GameAccess
from hvbot.services.outcomes import Reminder

REMIND_AGAIN = timedelta(hours=1)  # after the first reminder, never more often than this
# Reminders claimed at a time, right before they are posted: a claim's lease (see
# hvbot.store.duties) has to cover only the posts of its own few, not of every reminder due at
# a busy moment.
REMIND_BATCH = 10


class Reminders:
    """Reminders claimed once across every bot process (see `hvbot.store.waits`)."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def due_reminders(
        self, words: Callable[[Reminder], str] | None = None, *, most: int | None = None
    ) -> list[Reminder]:
        """The people to remind now (the first `most` found, if given), each claimed so no
        other process reminds them too, with its `words` (if given) owed in the outbox in the
        same transaction (so a process that dies before posting it leaves it to another); the
        next reminder for the same wait comes an hour later, and a move starts a new wait."""
        store = self.games.store
        now = self.games.clock()
        found = []
        for due in await store.reminders.due(now=now, most=most):
            # Fresh: another process may have passed the turn since this one kept the game.
            game = await store.game(game_id=due.game_id, fresh=True)
            if game is None or game.status != "active":
                continue
            state = self.games.peek_state(game)
            seat = state.current_seat()
            reminder = None
            if seat is not None and not game.seats[seat].is_ai:
                waited = now - (due.turn_since or now)
                reminder = Reminder(game, seat, game.seats[seat].user_id or 0, waited)
            claimed = await store.reminders.claim(
                game_id=game.id,
                due=due.due,
                now=now,
                next_at=now + REMIND_AGAIN if reminder else None,
                text=words(reminder) if reminder and words else None,
            )
            if claimed is not None and reminder is not None:
                found.append(replace(reminder, owed=claimed.owed))
        return found
