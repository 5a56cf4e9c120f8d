"""The live board on the web: the page a board post's "Live board" button opens, served by the
bot itself, followed through server-sent events as the game moves, and private by
construction (a signed link, the public view only, the usual headers).

The bot runs against the emulated Discord; the page is read over HTTP (aiohttp's client), as a
browser reads it (the real browser's test is test_e2e_live_board_browser.py)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from html import escape
from typing import Any

import aiohttp
import pytest
from e2e_harness import BotHarness, board_posts, check_board_card, open_three_seat_game
from metric_samples import sampler

from data.texts import texts_for
from hvbot.infra import links, metrics
from hvbot.infra.links import sign
from hvbot.messages.wording import picture_names
from hvbot.runtime.client import GameBot
from hvbot.web.server import POLICY
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def serving(hv: BotHarness) -> tuple[GameBot, str]:
    """The bot serving live boards on a free port; the address its links start with."""
    bot = hv.bot
    assert bot is not None
    await bot.serve_boards(0)
    served = links.current()
    assert served is not None
    return bot, served.address


def live_links(record: Any) -> list[str]:
    return [button.url for button in record.components if button.url]


class Events:
    """One viewer of a game's events: each event's board, as it comes."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.frames: list[str] = []  # every data line, as sent

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            line = await asyncio.wait_for(self.response.content.readline(), timeout)
            text = line.decode()
            if text.startswith("data: "):
                self.frames.append(text)
                return json.loads(text.removeprefix("data: "))
            assert line, "the events ended"

    async def version(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            event = await self.next(timeout)
            if event["board"]["version"] >= version:
                return event


async def open_events(
    session: aiohttp.ClientSession, page: str, language: str = "en"
) -> AsyncIterator[Events]:
    async with session.get(page + "/events", headers={"Accept-Language": language}) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        yield Events(response)


async def test_a_board_post_links_to_a_signed_page_of_the_public_view(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bot, address = await serving(hv)
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, _ = await table.wait_for_turn()
    page = f"{address}/board/{game.id}/{sign(await bot.service.web_secret('unused'), game.id)}"
    # Each board post under way carries the game's link, beside its other buttons.
    (first,) = board_posts(emu)
    assert live_links(first) == [page]
    assert first.custom_ids, "the post keeps its own buttons"
    # The link sits in the card, in a row beside the others, as every button of a board.
    rows = check_board_card(emu, first)["components"][2:]
    assert [page] == [b["url"] for row in rows for b in row["components"] if b.get("url")]

    async with aiohttp.ClientSession() as session:
        async with session.get(page) as response:
            assert response.status == 200
            html = await response.text()
            headers = response.headers
        assert headers["Content-Security-Policy"] == POLICY
        assert "'unsafe-inline'" not in POLICY and "script-src 'self'" in POLICY
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["Cache-Control"] == "no-store"  # a game under way
        assert headers["Content-Language"] == "en"
        # No script inline: the one script is a file of the bot's own.
        assert re.findall(r"<script[^>]*>", html) == ['<script src="/live.js" defer>']
        assert "<style" not in html and not re.search(r"<[^>]+\son\w+=", html)
        # The seats by name, the AI's with its level, whose turn, the moves, the text board.
        for name in picture_names(game):
            assert escape(name) in html, name
        assert any("AI" in name and "(" in name for name in picture_names(game))
        assert f"High Voltage game #{game.id}: live board" in html
        for part in ("Players", "Moves so far", "The board as text", 'id="turn"'):
            assert part in html

        # A wrong signature, another game's, or no game: one 404 that says nothing more, with
        # the same headers.
        wrong = [
            f"{address}/board/{game.id}/{'0' * 32}",
            f"{address}/board/{game.id}/{sign('another secret', game.id)}",
            f"{address}/board/{game.id + 1}/{page.rsplit('/', 1)[1]}",
            f"{address}/board/{game.id + 50}/"
            f"{sign(await bot.service.web_secret('unused'), game.id + 50)}",
            f"{page}/events".replace(page.rsplit("/", 1)[1], "f" * 32),
            f"{page}/{game.version}.png".replace(page.rsplit("/", 1)[1], "e" * 32),
        ]
        for url in wrong:
            async with session.get(url) as response:
                assert response.status == 404, url
                assert await response.text() == "Not found"
                assert response.headers["X-Frame-Options"] == "DENY"
                assert response.headers["Content-Security-Policy"] == POLICY

        # The picture is the version's, as the page names it.
        src = re.search(r'<img id="picture" src="([^"]+)"', html)
        assert src is not None
        async with session.get(address + src.group(1)) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "image/png"
            assert (await response.read()).startswith(b"\x89PNG")
        for asset, kind in (("/live.js", "text/javascript"), ("/live.css", "text/css")):
            async with session.get(address + asset) as response:
                assert response.status == 200 and response.content_type == kind
                assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_the_page_speaks_the_browsers_language(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    await serving(hv)
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, _ = await table.wait_for_turn()
    (post,) = board_posts(emu)
    (page,) = live_links(post)
    async with aiohttp.ClientSession() as session:
        for accept, language in (
            ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
            ("de", "de"),
            ("ja, it;q=0.5", "it"),
            ("ja", "en"),
        ):
            async with session.get(page, headers={"Accept-Language": accept}) as response:
                html = await response.text()
                assert response.headers["Content-Language"] == language
            assert f'<html lang="{language}">' in html
            texts = texts_for(language)
            title = texts("bot.web.title", game="High Voltage", number=game.id)
            assert title.replace("'", "&#x27;") in html, (accept, title)
            assert texts("bot.web.moves") in html


async def test_every_viewer_follows_each_move_from_one_drawing_per_version(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bot, _ = await serving(hv)
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    (page,) = live_links(board_posts(emu)[0])
    assert bot.web is not None
    hub = bot.web.hub
    sample = sampler(metrics.WEB_VIEWERS, metrics.WEB_DRAWN)
    watching = sample("hvbot_web_viewers")
    async with aiohttp.ClientSession() as session:
        viewers = [open_events(session, page, language) for language in ("en", "it", "en")]
        events = [await anext(viewer) for viewer in viewers]
        for viewer in events:
            first = await viewer.next()
            assert first["board"]["version"] == game.version
        assert sample("hvbot_web_viewers") == watching + 3  # the metrics count the viewers
        drawn, counted = hub.drawn, sample("hvbot_web_boards_drawn_total")
        for _ in range(3):
            before = game.version
            await table.play(game, state)
            game, state = await table.wait_for_turn()
            for viewer in events:
                event = await viewer.version(game.version)
                assert event["board"]["version"] > before
                assert event["board"]["picture"].endswith(f"/{event['board']['version']}.png")
        # One drawing per version, however many watch (an AI move in between is a version too).
        assert hub.drawn - drawn <= game.version - first["board"]["version"]
        assert sample("hvbot_web_boards_drawn_total") - counted == hub.drawn - drawn
        last = events[0].frames[-1]
        said = json.loads(last.removeprefix("data: "))["board"]
        moves = await hv.actions(game)
        assert len(said["moves"]) == len(moves)
        assert (
            json.loads(events[1].frames[-1].removeprefix("data: "))["board"]["moves"]
            != (said["moves"])
        ), "the Italian viewer reads the moves in Italian"
        for viewer in viewers:
            await viewer.aclose()


async def test_a_server_can_turn_the_links_off(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    await serving(hv)
    owner = emu.owner
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    (page,) = live_links(board_posts(emu)[0])
    reply = await emu.slash(owner, "server settings")
    assert texts_for("en")("bot.web.settings_on") in reply.messages[0].content
    async with aiohttp.ClientSession() as session:
        async for events in open_events(session, page):
            await events.next()
            reply = await emu.slash(owner, "server settings", live_board=False)
            assert texts_for("en")("bot.web.settings_off") in reply.messages[0].content
            since = emu.last_seq
            await table.play(game, state)
            game, state = await table.wait_for_turn()
            # A page left open is shown nothing more: its events end.
            assert (await asyncio.wait_for(events.response.content.read(), 10)).strip() == b""
    later = board_posts(emu, since=since)
    assert later and all(live_links(post) == [] for post in later)
    async with aiohttp.ClientSession() as session, session.get(page) as response:
        assert response.status == 404
    await emu.slash(owner, "server settings", live_board=True)
    async with aiohttp.ClientSession() as session, session.get(page) as response:
        assert response.status == 200


async def test_game_board_shows_the_link_to_someone_not_at_the_table(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    await serving(hv)
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, _ = await table.wait_for_turn()
    (page,) = live_links(board_posts(emu)[0])
    cy = emu.add_user("Cy")
    reply = await emu.slash(cy, "game board", game=game.id)
    shown = [m for m in reply.messages if m.visibility == Visibility.ephemeral_to(cy.id)]
    assert [live_links(m) for m in shown if live_links(m)] == [[page]]


async def test_the_page_shows_the_result_and_the_last_board_keeps_its_link(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A short game (the tests' tic-tac-toe) played to its end while a viewer watches: the last
    update says the result, the page may then be kept by a cache, and the final board post
    carries the link alone (no Follow: nothing more will happen)."""
    emu = emulator
    await serving(hv)
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="tic-tac-toe")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    (page,) = live_links(board_posts(emu)[0])
    people = {ada.id: ada, bo.id: bo}
    async with aiohttp.ClientSession() as session:
        async for events in open_events(session, page):
            assert (await events.next())["board"]["over"] is False
            for cell in ("A1", "B1", "A2", "B2", "A3"):
                game = await hv.game()
                state = await hv.state(game)
                seat = state.current_seat()
                assert seat is not None
                mover = people[game.seats[seat].user_id or 0]
                await emu.slash(mover, "ttt mark", cell=cell)
            game = await hv.game()
            assert game.status != "active"
            last = (await events.version(game.version))["board"]
            assert last["over"] is True and last["result"]
            assert last["deadline"] is None
        async with session.get(page) as response:
            assert response.status == 200
            assert response.headers["Cache-Control"] == "public, max-age=3600"
            html = await response.text()
            assert last["result"].splitlines()[0] in html.replace("&#x27;", "'")
    final = board_posts(emu)[-1]
    assert [b.url for b in final.components] == [page]
    check_board_card(emu, final)  # the result's card, with the link inside it
