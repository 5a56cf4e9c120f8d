"""Turn reminders: the person to move is mentioned again in the game's channel after the wait
chosen at /game new, then hourly, until they move.

What is due lives in the database, not in a timer, so a restarted bot reminds on time too;
the check runs every `check_s` seconds. Each reminder is claimed with its words owed in the
outbox, a few at a time right before they are posted, so with several processes it is sent
once (`Aftermath.remind`); the same check takes over the duties other processes left undone
(`Aftermath.do_duties`).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from data.texts import ENGLISH, Texts, texts_for
from games import find_game
from hvbot.database import is_unreachable
from hvbot.services import Reminder

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

log = logging.getLogger(__name__)
# How often reminders and other processes' unfinished duties are looked for: with a claim's
# lease of 20 s (hvbot.store.duties), a dead process's duties are taken over within 25 s.
CHECK_S = 5.0


def waited_words(waited: timedelta, texts: Texts = ENGLISH) -> str:
    minutes = max(1, round(waited.total_seconds() / 60))
    if minutes < 120:
        return texts("bot.time.minutes", count=minutes)
    hours = round(minutes / 60)
    if hours < 48:
        return texts("bot.time.hours", count=hours)
    return texts("bot.time.days", count=round(hours / 24))


def reminder_text(reminder: Reminder) -> str:
    """A public post: in the game's language."""
    texts = texts_for(reminder.game.language)
    return texts(
        "bot.game.reminder",
        player=f"<@{reminder.user_id}>",
        game=find_game(reminder.game.game_name).title,
        waited=waited_words(reminder.waited, texts),
    )


def _failed(what: str, error: Exception) -> None:
    if is_unreachable(error):
        log.warning("%s: the database cannot be reached (%s); trying again", what, error)
    else:
        log.error("%s: a check failed", what, exc_info=error)


class RemindersCog(commands.Cog):
    def __init__(self, bot: GameBot, *, check_s: float = CHECK_S) -> None:
        self.bot = bot
        self.check.change_interval(seconds=check_s)

    async def cog_load(self) -> None:
        self.check.start()

    async def cog_unload(self) -> None:
        self.check.cancel()

    @tasks.loop(seconds=CHECK_S)
    async def check(self) -> None:
        # A failure is logged, and the checks go on: the next round finds what is still due.
        try:
            await self.bot.aftermath.remind(reminder_text)
        except Exception as exc:
            _failed("turn reminders", exc)
        try:
            await self.bot.aftermath.do_duties()
        except Exception as exc:
            _failed("duties left by other processes", exc)

    @check.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (see `GameBot.setup_hook`)."""
    await bot.add_cog(RemindersCog(bot, check_s=bot.remind_check_s))
