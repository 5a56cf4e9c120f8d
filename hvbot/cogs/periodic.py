"""Turn reminders and turn clocks: the person to move is mentioned again in the game's channel
after the wait chosen at /game new, then hourly, until they move; with a turn clock, they are
warned privately when a quarter of their time is left, and when it runs out an AI plays for
them.

What is due lives in the database, not in a timer, so a restarted bot reminds on time too;
the check runs every `check_s` seconds, and at once when something tells it to look now
(`RemindersCog.wake`: the tests do when they move time on, instead of polling every tenth of
a second to notice it). Each reminder is claimed with its words owed in the
outbox, a few at a time right before they are posted, so with several processes it is sent
once (`Aftermath.remind`); the same check takes over the duties other processes left undone
(`Aftermath.do_duties`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from discord.ext import commands

from hvbot.database import failed
from hvbot.messages import time_words

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

log = logging.getLogger(__name__)
# How often reminders and other processes' unfinished duties are looked for: with a claim's
# lease of 20 s (hvbot.store.duties), a dead process's duties are taken over within 25 s.
CHECK_S = 5.0


def _failed(what: str, error: Exception) -> None:
    # While the database is away every round fails alike: the database warned once, and
    # says when it is back; a round meanwhile is a DEBUG line, not a traceback.
    failed(log, error, "%s: a check failed", what)


class RemindersCog(commands.Cog):
    """Runs the checks, a round every `check_s` seconds from the moment the bot is ready; a
    round that `wake` asks for starts at once (after the round under way, if any), and the
    interval counts anew from its end."""

    def __init__(self, bot: GameBot, *, check_s: float = CHECK_S) -> None:
        self.bot = bot
        self.check_s = check_s
        self.rounds = 0  # rounds finished: a test waits for a whole one after its change
        self.in_round = False
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._every_interval(), name="periodic checks")

    async def cog_unload(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait({task})  # its end, without taking its cancel for this one's

    def wake(self) -> None:
        """Look now rather than at the end of the interval: something may have fallen due."""
        self._woken.set()

    async def _every_interval(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            # Cleared before the round looks: a wake while it runs is for what it may have
            # looked at too early, and is another round right after.
            self._woken.clear()
            self.in_round = True
            try:
                await self.check()
            finally:
                self.in_round = False
            self.rounds += 1
            # `asyncio.timeout`, not `wait_for`: Python 3.11's `wait_for` returns the wake
            # when it comes in the same moment as the cancel of a stopping bot, and the checks
            # would go on for good, with the bot's close waiting for them.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.check_s):
                    await self._woken.wait()

    async def check(self) -> None:
        """One round of every check."""
        # A failure is logged, and the checks go on: the next round finds what is still due.
        try:
            await self.bot.aftermath.remind(time_words.reminder_text, time_words.reminder_dm)
        except Exception as exc:
            _failed("turn reminders", exc)
        try:
            await self.bot.aftermath.run_clocks(
                time_words.warning, time_words.ran_out, time_words.stand_in_name
            )
        except Exception as exc:
            _failed("turn clocks", exc)
        try:
            await self.bot.aftermath.send_digests()
        except Exception as exc:
            _failed("followers' digests", exc)
        try:
            await self.bot.aftermath.close_expired_lobbies()
        except Exception as exc:
            _failed("lobbies past their day", exc)
        try:
            await self.bot.aftermath.end_seasons()
        except Exception as exc:
            _failed("seasons' ends", exc)
        try:
            await self.bot.aftermath.run_tournaments()
        except Exception as exc:
            _failed("tournaments' starts and rounds", exc)
        try:
            await self.bot.aftermath.do_duties()
        except Exception as exc:
            _failed("duties left by other processes", exc)
        if self.bot.metrics is not None:
            try:
                await self.bot.metrics.refresh(self.bot.service)
            except Exception as exc:
                _failed("the metrics' open games and owed posts", exc)


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(RemindersCog(bot, check_s=bot.remind_check_s))
