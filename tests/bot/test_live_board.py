"""The live board's parts one by one: the signed links, the settings that turn it on, the
browser's language, the page's words and HTML (escaped, nothing inline), the server setting
that turns links off, and the secret every process shares."""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import re
from datetime import datetime
from random import Random

import pytest
from played_games import started_game

from engine.registry import find_game
from hvbot.infra import links
from hvbot.infra.config import ConfigError, load_settings
from hvbot.infra.links import SIGNATURE_CHARS, LiveLinks, sign, signed
from hvbot.messages.game_posts import follow_view
from hvbot.services import GameService
from hvbot.services.server_settings import Change, apply
from hvbot.store import GameRow, GameStore, SeatRow, ServerSettings
from hvbot.store.server_settings import web_secret
from hvbot.web import Hub
from hvbot.web.page import Moment, board_words, deadline_ms, language_from, page_html


def test_a_link_is_signed_by_the_secret_and_checked_in_constant_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    signature = sign("a secret of the bot", 12)
    assert re.fullmatch(rf"[0-9a-f]{{{SIGNATURE_CHARS}}}", signature)
    assert signed("a secret of the bot", 12, signature)
    assert not signed("a secret of the bot", 13, signature)  # another game's
    assert not signed("another secret", 12, signature)
    last = "1" if signature[-1] == "0" else "0"
    assert not signed("a secret of the bot", 12, signature[:-1] + last)  # one digit off
    assert not signed("a secret of the bot", 12, "")
    # The comparison is hmac's, whose time does not depend on where the strings differ.
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(links.hmac, "compare_digest", spy)
    assert signed("a secret of the bot", 12, signature)
    assert compared == [(signature.encode(), signature.encode())]


async def test_links_point_at_the_public_address_unless_the_server_turned_them_off() -> None:
    async def allowed(guild_id: int | None) -> bool:
        return guild_id != 666

    served = LiveLinks("s" * 20, "https://boards.example.org/", allowed)
    assert served.url(5) == f"https://boards.example.org/board/5/{sign('s' * 20, 5)}"
    assert await served.for_game(5, 1) == served.url(5)
    assert await served.for_game(5, 666) is None
    assert "s" * 20 not in repr(served)


def test_the_web_settings_are_read_and_checked() -> None:
    off = load_settings({"DISCORD_TOKEN": "x"})
    assert off.web_port is None
    on = load_settings(
        {
            "DISCORD_TOKEN": "x",
            "WEB_PORT": "8080",
            "WEB_PUBLIC_URL": "https://boards.example.org/",
            "WEB_SECRET": "k" * 32,
        }
    )
    assert (on.web_port, on.web_host, on.web_address) == (
        8080,
        "127.0.0.1",
        "https://boards.example.org",
    )
    assert "k" * 32 not in repr(on)
    local = load_settings({"DISCORD_TOKEN": "x", "WEB_PORT": "8080"})
    assert local.web_address == "http://127.0.0.1:8080" and local.web_secret is None
    for wrong, says in (
        ({"WEB_PORT": "web"}, "WEB_PORT must be a port number"),
        ({"WEB_PORT": "80", "WEB_PUBLIC_URL": "boards.example.org"}, "WEB_PUBLIC_URL must"),
        ({"WEB_PORT": "80", "WEB_PUBLIC_URL": "ftp://x.org"}, "WEB_PUBLIC_URL must"),
        ({"WEB_PORT": "80", "WEB_SECRET": "short"}, "WEB_SECRET must be at least 16"),
    ):
        with pytest.raises(ConfigError, match=says):
            load_settings({"DISCORD_TOKEN": "x", **wrong})


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("ja, de;q=0.3, fr;q=0.7", "fr"),
        ("de-CH", "de"),
        ("fr;q=0, en;q=0.1", "en"),
        ("zh, ja", "en"),
        ("fr;q=bad, it", "it"),
    ],
)
def test_the_page_speaks_the_language_the_browser_prefers(
    accept: str | None, language: str
) -> None:
    assert language_from(accept) == language


def a_game(name: str = "Ada", clock_deadline: str | None = None) -> tuple[GameRow, Moment]:
    rules = find_game("high-voltage")
    state = rules.new_state(2, 4242)
    seats = (
        SeatRow(0, 1, None, name),
        SeatRow(1, None, "hard", "AI 1 (hard)"),
    )
    game = GameRow(
        id=7,
        game_name="high-voltage",
        guild_id=1,
        channel_id=2,
        creator_id=1,
        status="active",
        seed=4242,
        options={},
        state_json=None,
        version=3,
        lobby_message_id=None,
        seats=seats,
        clock_deadline=clock_deadline,
    )
    return game, Moment(game, state, (), "/board/7/x/3.png")


def test_the_page_says_the_public_view_in_words_and_escapes_every_name() -> None:
    hostile = '<script>alert("x")</script> & "Ada"'
    _, moment = a_game(hostile)
    words = board_words(moment, "en")
    assert words["version"] == 3 and not words["over"]
    assert [seat["name"] for seat in words["seats"]] == [hostile, "AI 1 (hard)"]
    assert [seat["ai"] for seat in words["seats"]] == [False, True]
    assert words["text_board"], "the board as text, for screen readers"
    assert words["moves"] == [] and words["result"] is None
    html = page_html(moment, "en", "/board/7/x/events", 0, words)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Ada&quot;" in html
    # One script, a file; no inline script, style or handler for the policy to refuse.
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/live.js" defer>']
    assert "<style" not in html and not re.search(r"<[^>]+\son\w+=", html)
    assert "Your company" not in html  # a seat's own words, never the spectators'
    assert '<li class="none">No moves yet.</li>' in html
    italian = board_words(moment, "it")
    assert italian["text_board"] != words["text_board"] or italian["turn"] != words["turn"]


def test_the_clock_is_a_deadline_only_while_a_person_is_to_move() -> None:
    game, moment = a_game(clock_deadline="2026-11-22T13:00:00+00:00")
    seat = moment.state.current_seat()
    at = int(datetime.fromisoformat("2026-11-22T13:00:00+00:00").timestamp() * 1000)
    expected = at if seat is not None and not game.seats[seat].is_ai else None
    assert deadline_ms(game, moment.state) == expected
    paused = GameRow(**{**game.__dict__, "clock_paused_at": "2026-11-22T12:00:00+00:00"})
    assert deadline_ms(paused, moment.state) is None


def test_a_server_turns_the_links_off_and_on_again() -> None:
    off = apply(ServerSettings(), Change(live_board=False), guild_id=1)
    assert off.live_links is False
    assert apply(off, Change(live_board=True), guild_id=1).live_links is None  # the default
    assert apply(off, Change(language="it"), guild_id=1).live_links is False


async def test_the_setting_and_the_secret_are_kept_for_every_process(database_url: str) -> None:
    stores = [await GameStore.open(database_url) for _ in range(2)]
    try:
        one, two = stores
        await one.server_settings.set(5, ServerSettings(live_links=False))
        assert (await two.server_settings.of(5)).live_links is False
        await one.server_settings.set(5, ServerSettings())
        two.server_settings._cache.clear()
        assert (await two.server_settings.of(5)).live_links is None
        # The first process to serve boards makes the secret; every other reads the same.
        made = await asyncio.gather(
            web_secret(one.db, "first" * 4), web_secret(two.db, "second" * 4)
        )
        assert made[0] == made[1] and made[0] in ("first" * 4, "second" * 4)
        assert await web_secret(two.db, "third" * 4) == made[0]
    finally:
        for store in stores:
            await store.close()


async def test_a_board_post_keeps_its_live_link_once_the_game_is_over() -> None:
    served = LiveLinks("s" * 20, "https://boards.example.org")
    links.use(served)
    try:
        game, _ = a_game()
        under_way = await follow_view(game)
        assert under_way is not None
        found = [
            (getattr(b, "custom_id", None), getattr(b, "url", None)) for b in under_way.children
        ]
        assert (None, served.url(game.id)) in found and len(found) == 2  # and Follow
        over = await follow_view(dataclasses.replace(game, status="finished"))
        assert over is not None
        assert [getattr(b, "url", None) for b in over.children] == [served.url(game.id)]
    finally:
        links.use(None)
    assert await follow_view(dataclasses.replace(game, status="finished")) is None


async def test_the_hub_draws_once_per_version_and_reads_again_what_it_may_have_missed(
    database_url: str,
) -> None:
    """The hub builds a game's frame once per version however often it is told; on
    PostgreSQL, a change made by another process is read when listening starts again (the
    changes made meanwhile were not heard)."""
    one = GameService(await GameStore.open(database_url), seed_source=Random(5))
    other = GameService(await GameStore.open(database_url), seed_source=Random(6))
    hub = Hub(one.games, lambda game_id, version: f"/board/{game_id}/s/{version}.png")
    try:
        game = await started_game(
            one, channel_id=3, guild_id=1, players=[(1, "Ada"), (2, "Bo")], game_name="high-voltage"
        )
        frame = await hub.frame(game.id)
        assert frame is not None and frame.version == game.version and hub.drawn == 1
        for _ in range(3):
            hub.changed(game.id)  # told again, nothing new: nothing drawn again
        await hub.frame(game.id)
        board = hub.boards[game.id]
        assert board.building is not None
        await board.building
        assert hub.drawn == 1
        if not one.repo.shared:
            return  # SQLite: one process has the games, and nobody else changes them
        # Another process moves; this one missed it, and hears that it may have.
        state = other.games.load_state(game)
        seat = state.current_seat()
        assert seat is not None
        await other.play.act(
            game_id=game.id,
            user_id=game.seats[seat].user_id or 0,
            action=state.sample_action(Random(1)).text(),
        )
        hub.restarted()
        assert board.building is not None
        await board.building
        assert board.now is not None and board.now.version == game.version + 1
        assert board.before is frame and hub.drawn == 2
    finally:
        await hub.close()
        await one.close()
        await other.close()
