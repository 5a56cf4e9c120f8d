"""Turn reminders: the person to move is mentioned again in the game's channel after the wait
chosen at /game new, then hourly, until they move.

What is due lives in the database, not in a timer, so a restarted bot reminds on time too;
the check runs every `check_s` seconds. Each reminder is claimed with its words owed in the
outbox, a few at a time right before they are posted, so with several processes it is sent
once (`Reminders.send_due`); the same check takes over the duties other processes left undone
(`GameBot.do_duties`).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from data.texts import ENGLISH, Texts, texts_for
from games import find_game
from hvbot import announcing
from hvbot.posts import Post
from hvbot.service import Reminder

if TYPE_CHECKING:
    from hvbot.client import GameBot

log = logging.getLogger(__name__)
# How often reminders and other processes' unfinished duties are looked for: with a claim's
# lease of 20 s (hvbot.claims), a dead process's duties are taken over within 25 s.
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
        try:
            await self.bot.service.reminders.send_due(reminder_text, self._post)
        except Exception:
            # Logged, and the checks go on: the next round finds what is still due.
            log.exception("turn reminders: a check failed")
        try:
            await self.bot.do_duties()
        except Exception:
            log.exception("duties left by other processes: a check failed")

    async def _post(self, reminder: Reminder) -> None:
        try:
            await announcing.announce(self.bot, reminder.game, Post(reminder_text(reminder)))
        except discord.HTTPException:
            log.warning("game %s: could not post a turn reminder", reminder.game.id)

    @check.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: GameBot) -> None:
    """Loaded as a discord.py extension (see `GameBot.setup_hook`)."""
    await bot.add_cog(RemindersCog(bot, check_s=bot.remind_check_s))
