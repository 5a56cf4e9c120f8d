"""Turn reminders: the person to move is mentioned again in the game's channel after the wait
chosen at /game new, then hourly, until they move.

What is due lives in the database, not in a timer, so a restarted bot reminds on time too;
the check runs every `check_s` seconds.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from engine import find_game
from hvbot import flow
from hvbot.posts import Post
from hvbot.service import Reminder

if TYPE_CHECKING:
    from hvbot.client import HvBot

log = logging.getLogger(__name__)
CHECK_S = 30.0


def waited_words(waited: timedelta) -> str:
    minutes = max(1, round(waited.total_seconds() / 60))
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    if hours < 48:
        return f"{hours} hours"
    return f"{round(hours / 24)} days"


def reminder_text(reminder: Reminder) -> str:
    title = find_game(reminder.game.game).title
    return (
        f"<@{reminder.user_id}>, it is your turn in **{title}** (waiting for "
        f"{waited_words(reminder.waited)}). /game board shows the board and your choices again."
    )


class RemindersCog(commands.Cog):
    def __init__(self, bot: HvBot, *, check_s: float = CHECK_S) -> None:
        self.bot = bot
        self.check.change_interval(seconds=check_s)

    async def cog_load(self) -> None:
        self.check.start()

    async def cog_unload(self) -> None:
        self.check.cancel()

    @tasks.loop(seconds=CHECK_S)
    async def check(self) -> None:
        try:
            due = await self.bot.service.due_reminders()
        except Exception:
            # Logged, and the checks go on: the next round finds what is still due.
            log.exception("turn reminders: a check failed")
            return
        for reminder in due:
            try:
                await flow.announce(self.bot, reminder.game, Post(reminder_text(reminder)))
            except discord.HTTPException:
                log.warning("game %s: could not post a turn reminder", reminder.game.id)

    @check.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()
