"""Reminding the person to move once they have kept the others waiting, as they chose to be
reminded (`/me notify`: where, how often, never in their quiet hours)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hvbot.services.access import GameAccess
from hvbot.services.notify import REMIND_AGAIN, plan
from hvbot.services.outcomes import Reminder

__all__ = ["REMIND_AGAIN", "REMIND_BATCH", "Reminders"]
# Reminders claimed at a time, right before they are posted: a claim's lease (see
# hvbot.store.duties) has to cover only the posts of its own few, not of every reminder due at
# a busy moment.
REMIND_BATCH = 10


class Reminders:
    """Reminders claimed once across every bot process (see `hvbot.store.waits`)."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def due_reminders(
        self,
        words: Callable[[Reminder], str] | None = None,
        *,
        most: int | None = None,
        dm_words: Callable[[Reminder], str] | None = None,
    ) -> list[Reminder]:
        """The people to remind now (the first `most` found, if given), each claimed so no
        other process reminds them too, with its `words` (if given: in the channel, and
        `dm_words` by DM, as the person chose with /me notify) owed in the outbox in the same
        transaction (so a process that dies before posting it leaves it to another). The next
        reminder for the same wait comes as the person wants (see `notify.plan`: an hour
        later by default, or after their quiet hours); a move starts a new wait. A reminder
        held back (quiet hours) is returned with nothing owed."""
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
            if seat is None or game.seats[seat].is_ai:
                # Nobody to remind: the reminder goes, so it is not found due again.
                await store.reminders.claim(game_id=game.id, due=due.due, now=now, next_at=None)
                continue
            waited = now - (due.turn_since or now)
            reminder = Reminder(
                game=game, seat=seat, user_id=game.seats[seat].user_id or 0, waited=waited
            )
            settings = await store.notify.of(reminder.user_id)
            planned = plan(settings, now=now, turn_since=due.turn_since)
            bodies: list[dict[str, Any]] = []  # the posts owed: a text, and whom to DM it to
            if planned.send and words is not None and game.answers_only:
                # The bot cannot post in the game's channel on its own: by DM (or, DMs
                # closed, at the game's next interaction: see `hvbot.aftermath`).
                text = (dm_words or words)(reminder)
                bodies.append({"content": text, "user": reminder.user_id})
            elif planned.send and words is not None:
                if settings.where in ("channel", "both"):
                    bodies.append({"content": words(reminder)})
                if settings.where in ("dm", "both"):
                    text = (dm_words or words)(reminder)
                    bodies.append({"content": text, "user": reminder.user_id})
            claimed = await store.reminders.claim(
                game_id=game.id, due=due.due, now=now, next_at=planned.next_at, bodies=bodies
            )
            if claimed is not None:
                found.append(replace(reminder, owed=claimed.owed))
        return found
