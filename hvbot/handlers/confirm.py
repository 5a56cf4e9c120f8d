"""A private "are you sure?" before what cannot be taken back (resigning, abandoning a game).

The question is answered privately to the person who asked, with a red button that does it and
a grey one that does nothing; only that person's clicks count. Nothing is stored until the red
button is pressed, so a question left unanswered (or a bot restarted meanwhile) changes nothing:
its buttons stop after `CONFIRM_TIMEOUT_S`, and the question then says so.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import discord

from data.texts import Texts
from hvbot.handlers.answering import guarded
from hvbot.messages.outgoing import PRIVATE
from hvbot.messages.wording import personal

CONFIRM_TIMEOUT_S = 120.0  # how long the buttons of the question wait for the person
Act = Callable[[discord.Interaction], Awaitable[None]]


class Confirm(discord.ui.View):
    """The buttons under the question asked of `asking` (the interaction of the command that
    asked): the red one runs `act` with its click, the grey one ends the question. The
    question's message is that interaction's private answer, edited when it is settled."""

    def __init__(
        self,
        asking: discord.Interaction,
        act: Act,
        texts: Texts,
        *,
        label: str,
        timeout: float | None = None,
    ) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT_S if timeout is None else timeout)
        self.asking = asking
        self.act = act
        self.texts = texts
        yes: discord.ui.Button[Confirm] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.danger
        )
        no: discord.ui.Button[Confirm] = discord.ui.Button(
            label=texts("bot.confirm.cancel_button"), style=discord.ButtonStyle.secondary
        )
        yes.callback = self._confirmed  # type: ignore[method-assign]  # a plain Button's callback is set, not subclassed
        no.callback = self._cancelled  # type: ignore[method-assign]  # a plain Button's callback is set, not subclassed
        self.add_item(yes)
        self.add_item(no)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only the person who asked answers; anyone else is told so, privately."""
        if interaction.user.id == self.asking.user.id:
            return True
        await interaction.response.send_message(
            personal(interaction)("bot.confirm.not_yours"), ephemeral=True, allowed_mentions=PRIVATE
        )
        return False

    async def _confirmed(self, interaction: discord.Interaction) -> None:
        self.stop()
        done = False
        async with guarded(interaction, None):  # a refusal (the game ended meanwhile) is said
            await self.act(interaction)
            done = True
        # Settled: the question says so, or keeps its words after a refusal; no buttons.
        await self._settle(self.texts("bot.confirm.confirmed") if done else None)

    async def _cancelled(self, interaction: discord.Interaction) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=self.texts("bot.confirm.cancelled"), view=None
        )

    async def on_timeout(self) -> None:
        await self._settle(self.texts("bot.confirm.timed_out"))

    async def _settle(self, content: str | None) -> None:
        """Say how the question ended (None: its words stay), its buttons gone (the asking
        interaction's answer may be edited for 15 minutes, longer than the question waits)."""
        with contextlib.suppress(discord.HTTPException):
            if content is None:
                await self.asking.edit_original_response(view=None)
            else:
                await self.asking.edit_original_response(content=content, view=None)


async def ask(interaction: discord.Interaction, question: str, label: str, act: Act) -> None:
    """Ask the person privately whether to go on, in their language; `act` runs with the click
    of the red button labelled `label`."""
    texts = personal(interaction)
    view = Confirm(interaction, act, texts, label=label)
    await interaction.response.send_message(
        question, view=view, ephemeral=True, allowed_mentions=PRIVATE
    )
