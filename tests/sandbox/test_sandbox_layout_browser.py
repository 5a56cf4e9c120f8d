"""A Components V2 card on the sandbox page, in a real headless Chromium: the bot (the real
discord.py) posts a game card through the emulated Discord, and the page must draw it as
Discord does: the container with its accent colour down its left side, whose turn it is with
the section's button beside it, the board in a gallery whose picture loads and carries its alt
text, a separator, and buttons a person can press, which reach the bot and change the card.

The emulator, the page and the bot run in a thread of their own (their own event loop), so the
browser, driven here without pauses, never holds them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import discord
import pytest
from browser import Person, missing_browser
from e2e_harness import ready_when_guilds_arrive
from layout_cards import ALT, ORANGE, Card, board_file

from sandbox.emulator import DiscordEmulator
from sandbox.emulator.pointing import point_discord_py
from sandbox.web import SandboxPage

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.processes,
    pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser())),
]

T = TypeVar("T")

# What the page drew of a message's layout, read in one round trip.
READ_CARD = """
const node = document.querySelector(`.message[data-message-id="${arguments[0]}"]`);
if (!node) return null;
const box = node.querySelector('.layout > .layout-container');
const img = node.querySelector('.layout-gallery img.gallery-image');
const badge = node.querySelector('.layout-gallery .alt-badge');
const accessory = node.querySelector('.layout-section .layout-accessory button.component-button');
return {
  accent: box ? box.dataset.accentColor : null,
  bar: box ? getComputedStyle(box).borderLeftColor : null,
  barWidth: box ? getComputedStyle(box).borderLeftWidth : null,
  alt: img ? img.alt : null,
  loaded: img ? (img.complete && img.naturalWidth > 0) : false,
  badge: badge ? badge.title : null,
  accessory: accessory ? accessory.dataset.customId : null,
  separators: node.querySelectorAll('.layout-separator.divider').length,
  text: node.innerText,
};
"""


class Backstage:
    """The emulated Discord with the page installed, and a bot that posts a card and answers
    its buttons by moving the turn on, all on one event loop in a thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stack = contextlib.AsyncExitStack()
        self.emu = DiscordEmulator()
        self.page = SandboxPage(self.emu)
        self.page.install()
        self.bot = discord.Client(intents=discord.Intents.default())
        ready_when_guilds_arrive(self.bot)  # not discord.py's two seconds after the guild
        self.cards: list[Card] = []
        self.answering: asyncio.Task[None] | None = None

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    async def start(self) -> None:
        await self.emu.start()
        await self.stack.enter_async_context(point_discord_py(self.emu))
        await self.bot.login(self.emu.token)
        self.connection = asyncio.create_task(self.bot.connect(reconnect=False))
        await asyncio.wait_for(self.bot.wait_until_ready(), 15)

    async def post_card(self) -> int:
        """The bot posts the card in the server's first channel; each press of its buttons is
        answered with the card of the next turn."""
        channel = await self.bot.fetch_channel(self.emu.channel.id)
        assert isinstance(channel, discord.TextChannel)
        self.cards.append(Card())
        sent = await channel.send(view=self.cards[-1], file=board_file(size=(240, 160)))
        self.answering = asyncio.create_task(self.answer())
        return sent.id

    async def answer(self) -> None:
        while True:
            _, interaction = await self.cards[-1].pressed.get()
            self.cards.append(Card(turn="Bruno to move"))
            await interaction.response.edit_message(view=self.cards[-1])

    async def stop(self) -> None:
        if self.answering is not None:
            self.answering.cancel()
        await self.bot.close()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.connection, 10)
        await self.stack.aclose()
        await self.emu.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.run(self.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def backstage() -> Iterator[Backstage]:
    stage = Backstage()
    try:
        stage.run(stage.start())
        yield stage
    finally:
        stage.close()
    assert not stage.emu.rejections, "\n".join(map(str, stage.emu.rejections))


def test_the_page_draws_a_card_as_discord_does_and_its_buttons_reach_the_bot(
    backstage: Backstage,
) -> None:
    message_id = str(backstage.run(backstage.post_card()))
    ada = Person(backstage.page.url, "Ada")
    try:
        ada.open()
        ada.channel(backstage.emu.channel.name)

        def card() -> dict[str, Any] | None:
            drawn = ada.driver.execute_script(READ_CARD, message_id)
            return drawn if drawn and drawn["loaded"] else None

        drawn = ada.wait(card, "the card is drawn and its picture loaded")
        accent = f"#{ORANGE:06x}"
        assert drawn["accent"] == accent
        assert drawn["bar"] == "rgb(230, 126, 34)" and drawn["barWidth"] == "4px"
        assert drawn["alt"] == ALT and drawn["badge"] == ALT
        assert drawn["accessory"] == "card:pass"
        assert drawn["separators"] == 1
        assert "Ada to move" in drawn["text"] and "Pylons" in drawn["text"]
        shown = ada.wait_message(lambda m: m.id == message_id, "the card is listed")
        assert shown.custom_ids == ("card:pass", "card:rotate")
        # The board is drawn from the card's own file, nowhere else on the message.
        assert len(shown.images) == 1 and "/attachments/" in shown.images[0]

        ada.press("card:rotate", message_id)
        ada.wait_message(
            lambda m: m.id == message_id and "Bruno to move" in m.text, "the card moves on"
        )
        ada.press("card:pass", message_id)
        ada.wait(
            lambda: (
                backstage.emu.interactions
                and len(backstage.cards) == 3
                and "Bruno to move"
                in (ada.driver.execute_script(READ_CARD, message_id) or {})["text"]
            ),
            "the section's button reaches the bot",
        )
    finally:
        ada.close()
