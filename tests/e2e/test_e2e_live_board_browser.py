"""The live board in a real browser (Debian's headless Chromium, driven by selenium): two pages
on one game follow five moves made through the emulated Discord, each page updated within a
second of the move; the clock counts down in the page, against the bot's own (injected) time;
and nothing the pages, their script or the events on the wire carry names a seat's hidden
company, a face-down or drawn card, or the deal's seed.

Every wait is on the page (a selenium wait on what it shows) or the emulator, never a pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest
from browser import CHROMEDRIVER, CHROMIUM, CHROMIUM_ARGS, missing_browser, page_wait
from e2e_harness import BotHarness, Table, board_posts
from moved_clock import MovedClock
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from data.texts import LANGUAGES
from engine import State
from games.high_voltage.rules.position import EMPTY, Position
from games.high_voltage.rules.views import card_face
from hvbot.infra import links
from hvbot.messages.presenters import presenter_for
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.processes,  # the real browser
    pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser())),
]

MOVES = 5
WITHIN_MS = 1000.0  # the product's promise: a page shows a move within a second
# The keys an update's board may have: words and numbers, never a part of the view.
BOARD_KEYS = {
    "version",
    "over",
    "picture",
    "alt",
    "seats",
    "turn",
    "deadline",
    "scores",
    "result",
    "moves",
    "text_board",
}
# What the page shows, read in one round trip.
READ_PAGE = """
const b = document.body, c = document.getElementById('clock');
return {version: Number(b.dataset.version), shownAt: Number(b.dataset.shownAt || 0),
        left: c.hidden ? null : Number(c.dataset.left), clock: c.textContent,
        turn: document.getElementById('turn').textContent,
        moves: document.querySelectorAll('#moves li').length};
"""


@contextlib.contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    profile = tempfile.mkdtemp(prefix="live-board-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in CHROMIUM_ARGS:
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--lang=en-US")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        with contextlib.suppress(Exception):
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def read(driver: webdriver.Chrome) -> dict[str, Any]:
    return driver.execute_script(READ_PAGE)  # type: ignore[no-any-return]


def shown(driver: webdriver.Chrome, version: int, timeout: float = 10.0) -> dict[str, Any]:
    """What the page shows once it shows `version` or a later one."""
    page_wait(driver, timeout, poll_frequency=0.01).until(
        lambda d: read(d)["version"] >= version and read(d)["shownAt"] > 0,
        message=f"the page never showed version {version}",
    )
    return read(driver)


class Wire:
    """Every event sent to a viewer in one language, as bytes on the wire."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.task: asyncio.Task[None] | None = None

    async def tap(self, session: aiohttp.ClientSession, url: str, language: str) -> None:
        async with session.get(url, headers={"Accept-Language": language}) as response:
            async for line in response.content:
                self.frames.append(line.decode())


def private_lines(game: GameRow, state: State) -> set[str]:
    """What a seat's own text board says that the spectators' does not (its company, the card
    it drew), in every language: none of it may reach a page."""
    found: set[str] = set()
    names = [seat.display_name for seat in game.seats]
    for language in LANGUAGES:
        presenter = presenter_for(game.game_name, language)
        spectators = presenter.text_board(state.view(None), names) or []
        public = {line for part in spectators for line in part}
        for seat in range(len(game.seats)):
            own = presenter.text_board(state.view(seat), names) or []
            found |= {line.strip() for part in own for line in part if line not in public}
    return {line for line in found if line}


def face_down_words(state: State) -> set[str]:
    """Each face-down card as its drawer would be told it (its cell and kind), in every
    language: none of it may reach a page."""
    assert isinstance(state, Position)
    found = set()
    for language in LANGUAGES:
        presenter = presenter_for("high-voltage", language)
        for cell, card in enumerate(state.grid):
            if card != EMPTY and not state.card_up[card]:
                face = {"cell": state._name(cell), **card_face(state.cards, card, 0)}
                found.add(presenter.card_alt(face).splitlines()[0])
    return found


def tied(text: str, name: str, colour: str) -> bool:
    """Does a text tie `name` to `colour` within a few words on one line?"""
    near = r"(?:\W+\w+){0,3}\W+"
    who, what = re.escape(name), re.escape(colour)
    pattern = rf"\b{who}\b{near}{what}\b|\b{what}\b{near}{who}\b"
    return any(re.search(pattern, line, re.IGNORECASE) for line in text.splitlines())


async def test_two_pages_follow_five_moves_each_within_a_second_and_nothing_leaks(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bot = hv.bot
    assert bot is not None
    # The bot's time two hours behind the browser's: the page's clock counts against the
    # bot's, so it still shows about an hour left rather than nothing.
    clock = MovedClock(datetime.now(UTC) - timedelta(hours=2))
    bot.service.clock = clock
    await bot.serve_boards(0)
    served = links.current()
    assert served is not None
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage", clock=60)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada, bo], seed=3)
    game, state = await table.wait_for_turn()
    (page,) = [b.url for b in board_posts(emu)[0].components if b.url]
    assert page == served.url(game.id)
    seen: list[tuple[GameRow, State]] = [(game, state)]

    async with aiohttp.ClientSession() as session:
        wires = {language: Wire() for language in LANGUAGES}
        for language, wire in wires.items():
            wire.task = asyncio.create_task(wire.tap(session, page + "/events", language))
        async with session.get(page) as response:
            html = await response.text()
        async with session.get(served.address + "/live.js") as response:
            script = await response.text()
        with chromium() as one, chromium() as two:
            pages = (one, two)
            await asyncio.gather(*(asyncio.to_thread(p.get, page) for p in pages))
            first = await asyncio.gather(
                *(asyncio.to_thread(shown, p, game.version) for p in pages)
            )
            for looked in first:
                assert looked["version"] == game.version
                # About an hour left by the bot's clock (the browser's is two hours ahead).
                assert 58 * 60 <= looked["left"] <= 60 * 60, looked
            # The clock counts down in the page by itself: a second later it shows less.
            start = first[0]["left"]
            await asyncio.to_thread(
                page_wait(one, 5, poll_frequency=0.05).until,
                lambda d: read(d)["left"] < start,
                "the clock never counted down",
            )

            delays: list[float] = []
            for move in range(MOVES):
                before = game.version
                sent = time.time() * 1000  # before the move is sent: its delay counted whole
                await table.play(game, state)
                after = await asyncio.gather(
                    *(asyncio.to_thread(shown, p, before + 1) for p in pages)
                )
                delays += [looked["shownAt"] - sent for looked in after]
                game, state = await table.wait_for_turn()
                seen.append((game, state))
                # Updated before the next move is made, whatever the delay.
                for looked in after:
                    assert looked["version"] > before, (move, looked)
            final = await asyncio.gather(
                *(asyncio.to_thread(shown, p, game.version) for p in pages)
            )
            sources = [await asyncio.to_thread(lambda p=p: p.page_source) for p in pages]
        print(f"delays from a move to its page updated (ms): {[round(d) for d in delays]}")
        assert max(delays) < WITHIN_MS, delays
        for looked in final:
            assert looked["moves"] == len(await hv.actions(game))
        for wire in wires.values():
            assert wire.task is not None
            wire.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await wire.task

    # Nothing on the page, in its script or on the wire names a secret.
    events = [frame for wire in wires.values() for frame in wire.frames]
    data = [json.loads(f.removeprefix("data: ")) for f in events if f.startswith("data: ")]
    assert len(data) >= len(LANGUAGES) * 2
    for event in data:
        assert set(event) == {"now", "board"}
        assert set(event["board"]) == BOARD_KEYS, set(event["board"])
    everything = "\n".join([html, script, *sources, *events])
    decoded = "\n".join([html, *sources, *(json.dumps(d, ensure_ascii=False) for d in data)])
    assert str(game.seed) not in everything
    assert game.state_json is not None and '"card_up"' not in everything
    hidden = set().union(*(private_lines(g, s) for g, s in seen))
    assert hidden, "the seats' own boards say something the spectators' does not"
    for line in hidden:
        assert line not in decoded, line
    face_down = set().union(*(face_down_words(s) for _, s in seen))
    assert face_down, "cards lay face down"
    for words in face_down:
        assert words not in decoded, words
    for game_now, state_now in seen:
        for seat in game_now.seats:
            colour = state_now.view(seat.seat)["players"][seat.seat]["colour"]
            for language in LANGUAGES:
                word = presenter_for(game.game_name, language).colour(colour)
                assert not tied(decoded, seat.display_name, word), (seat.display_name, word)
