"""The sandbox page's server side, with the real bot behind it: each person's view, their live
events, and the API through which they act, spoken to over real HTTP and WebSockets.

The leak test is the point: whatever the bot sends one person alone (their company by DM, an
ephemeral answer) must never reach another person's browser, in the view or on the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import struct
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from e2e_harness import BotHarness, Table
from PIL import Image

from sandbox.emulator import Change, DiscordEmulator, User, Visibility, layout
from sandbox.emulator.pointing import point_discord_py
from sandbox.web import DEFAULT_PEOPLE, LOCALES, SandboxPage
from sandbox.web.page import STATIC

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

Frame = dict[str, Any]


@pytest.fixture
async def page() -> AsyncIterator[SandboxPage]:
    """An emulated Discord with the page installed, the way `bot.py --sandbox` runs it."""
    emu = DiscordEmulator()
    sandbox = SandboxPage(emu)
    sandbox.install()
    await emu.start()
    try:
        async with point_discord_py(emu):
            yield sandbox
    finally:
        await emu.close()
    assert not emu.rejections, "Discord would have refused:\n" + "\n".join(map(str, emu.rejections))
    assert not emu.unhandled, f"routes Discord does not have: {emu.unhandled}"


@pytest.fixture
def emulator(page: SandboxPage) -> DiscordEmulator:
    """The `hv` fixture's bot connects to the emulator that serves the page."""
    return page.emu


@pytest.fixture
async def http(page: SandboxPage) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=page.emu.base_url) as session:
        yield session


class PageSocket:
    """One person's open page: every frame it received, oldest first."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.frames: list[Frame] = []
        self._arrived = asyncio.Condition()

    async def read(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            async with self._arrived:
                self.frames.append(json.loads(message.data))
                self._arrived.notify_all()

    async def wait_for(self, found: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """The first frame received (so far or next) for which `found` holds."""

        def first() -> Frame | None:
            return next((f for f in self.frames if found(f)), None)

        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(lambda: first() is not None), timeout)
        frame = first()
        assert frame is not None
        return frame

    def messages(self) -> list[Frame]:
        """Every message the page was sent: in its first view and in its live events."""
        out: list[Frame] = []
        for frame in self.frames:
            if frame["type"] == "view":
                out += [m for shown in frame["messages"].values() for m in shown]
            elif frame["type"] == "message":
                out.append(frame["message"])
        return out


@contextlib.asynccontextmanager
async def opened(http: aiohttp.ClientSession, person: User) -> AsyncIterator[PageSocket]:
    async with http.ws_connect(f"/sandbox/ws?person={person.id}") as socket:
        page = PageSocket(socket)
        reading = asyncio.create_task(page.read())
        try:
            await page.wait_for(lambda f: f["type"] == "view")
            yield page
        finally:
            await socket.close()
            await reading


async def call(
    http: aiohttp.ClientSession, path: str, body: Any = None, *, expect: int = 200
) -> dict[str, Any]:
    """POST (or GET without a body) to the page's API; check the status, return the JSON."""
    method = http.get if body is None else http.post
    async with method(f"/sandbox/api/{path}", json=body) as answer:
        data = await answer.json()
        assert answer.status == expect, data
        return data


def person_named(page: SandboxPage, name: str) -> User:
    return next(p for p in page.people if p.name == name)


def is_message(found: Callable[[Frame], bool]) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "message" and found(f["message"])


def button(message: Frame, what: str) -> str:
    """The custom_id of the lobby's Join / Add AI / Start button on a message frame."""
    # Wherever the message holds it: in a row, or in a row inside a card's container.
    ids = [
        c["custom_id"]
        for c, _ in layout.walk(message["components"])
        if c.get("type") == layout.BUTTON and c.get("custom_id", "").endswith(f":{what}")
    ]
    assert len(ids) == 1, message["components"]
    return str(ids[0])


def text_of(message: Frame) -> str:
    """What a reader reads of a message: its content, a card's texts and every text of its
    embeds."""
    parts = [message["content"]]
    if message.get("layout"):
        parts += layout.text_of(message["components"])
    for embed in message["embeds"]:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [(embed.get("footer") or {}).get("text") or ""]
        parts += [(embed.get("author") or {}).get("name") or ""]
        for field in embed.get("fields") or []:
            parts += [field.get("name") or "", field.get("value") or ""]
    return "\n".join(p for p in parts if p)


def find_command(tree: list[Frame], *path: str) -> Frame:
    nodes, node = tree, None
    for name in path:
        node = next(n for n in nodes if n["name"] == name)
        nodes = node["options"]
    assert node is not None
    return node


# ---------------------------------------------------------------------- the view


async def test_a_persons_view_has_the_server_their_dm_the_people_and_localised_commands(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    emu = page.emu
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    view = await call(http, f"view?person={ada.id}")
    assert view["guild"] == {"id": str(emu.guild_id), "name": emu.guild_name}
    assert view["bot"] == {"id": str(emu.bot_user.id), "name": emu.bot_user.name}
    assert view["person"] == {
        "id": str(ada.id),
        "name": "Ada",
        "locale": "en-US",
        "roles": [],
        "owner": False,
        "manage_roles": False,
    }
    # The server's owner is on the page too, last, so its settings can be tried.
    assert [p["name"] for p in view["people"]] == [*DEFAULT_PEOPLE, emu.owner.name]
    assert [p["owner"] for p in view["people"]] == [False] * len(DEFAULT_PEOPLE) + [True]
    assert [loc["code"] for loc in view["locales"]] == ["en-US", "fr", "de", "it"]
    assert [(c["name"], c["kind"], c["parent_id"]) for c in view["channels"]] == [
        ("games", "text", None),
        ("lounge", "text", None),
    ]
    assert view["dm_channel_id"] == str(emu.dm_channel(ada.id).id)
    # A page opened plainly shows the first person; `?as=bruno` names a person by name.
    assert (await call(http, "view"))["person"]["name"] == "Ada"
    assert (await call(http, "view?person=bruno"))["person"]["id"] == str(bruno.id)
    assert view["dm_channel_id"] != (await call(http, f"view?person={bruno.id}"))["dm_channel_id"]
    assert set(view["messages"]) == {c["id"] for c in view["channels"]} | {view["dm_channel_id"]}
    assert not any(view["messages"].values())

    new = find_command(view["commands"], "game", "new")
    assert (new["type"], new["label"]) == ("subcommand", "new")
    game = find_command(view["commands"], "game", "new", "game")
    assert (game["type"], game["required"], game["autocomplete"]) == ("string", False, False)
    assert {"value": "high-voltage", "label": "High Voltage"} in game["choices"]
    cell = find_command(view["commands"], "hv", "draw", "cell")
    assert (cell["required"], cell["autocomplete"]) == (True, True)
    rotation = find_command(view["commands"], "hv", "draw", "rotation")
    assert rotation["type"] == "integer"
    assert [c["value"] for c in rotation["choices"]] == [0, 90, 180, 270]
    # As in Discord, /server is offered only to those who manage the server: not to Ada.
    assert "server" in emu.commands[emu.guild_id]
    assert "server" not in {c["name"] for c in view["commands"]}

    # Ada switches her Discord to French: her commands are labelled as the bot named them.
    registered = emu.commands[emu.guild_id]["game"]
    async with opened(http, ada) as ada_page, opened(http, bruno) as bruno_page:
        assert await call(http, "locale", {"person": str(ada.id), "locale": "fr"}) == {"ok": True}
        frame = await ada_page.wait_for(lambda f: f["type"] == "commands")
        people = await bruno_page.wait_for(lambda f: f["type"] == "people")
    french = find_command(frame["commands"], "game")
    assert french["label"] == registered["name_localizations"]["fr"] != "game"
    assert french["description"] == registered["description_localizations"]["fr"]
    assert {"name": "Ada", "locale": "fr"}.items() <= next(
        p for p in people["people"] if p["id"] == str(ada.id)
    ).items()
    assert not any(f["type"] == "commands" for f in bruno_page.frames)  # his stay English
    view = await call(http, f"view?person={ada.id}")
    assert view["person"]["locale"] == "fr"
    assert find_command(view["commands"], "game")["label"] == french["label"]
    assert find_command(view["commands"], "game", "new", "game")["label"] != "game"
    english = await call(http, f"view?person={bruno.id}")
    assert find_command(english["commands"], "game")["label"] == "game"


# ---------------------------------------------------------------------- acting


async def test_a_command_opens_a_lobby_on_every_page_and_a_click_joins_it(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    emu = page.emu
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    games = str(emu.channel.id)
    async with opened(http, ada) as ada_page, opened(http, bruno) as bruno_page:
        asked = {"game": "high-voltage"}
        answer = await call(
            http,
            "command",
            {"person": str(ada.id), "channel_id": games, "command": "game new", "options": asked},
        )
        assert answer == {"ok": True}
        lobbies = []
        for socket in (ada_page, bruno_page):
            frame = await socket.wait_for(
                is_message(lambda m: m["visibility"] == "public" and m["components"])
            )
            lobbies.append(frame["message"])
        lobby = lobbies[0]
        assert lobbies[1] == lobby
        assert lobby["channel_id"] == games
        assert lobby["interaction"] == {"user": "Ada", "command": "game new"}
        assert lobby["author"] == {
            "id": str(emu.bot_user.id),
            "name": emu.bot_user.name,
            "bot": True,
        }

        join = {
            "person": str(bruno.id),
            "message_id": lobby["id"],
            "custom_id": button(lobby, "join"),
        }
        assert await call(http, "click", join) == {"ok": True}
        await emu.settle()
        game = await hv.game()
        assert [s.display_name for s in game.seats] == ["Ada", "Bruno"]
        for socket in (ada_page, bruno_page):
            edited = await socket.wait_for(
                is_message(lambda m: m["id"] == lobby["id"] and "Bruno" in text_of(m))
            )
            assert edited["message"]["edited"]


async def test_a_command_the_schema_refuses_is_a_400_that_names_what_is_legal(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    emu = page.emu
    ada = person_named(page, "Ada")
    games = str(emu.channel.id)
    before = (emu.last_seq, len(emu.interactions), len(emu.messages_by_id))

    def command(name: str, **options: Any) -> dict[str, Any]:
        return {"person": str(ada.id), "channel_id": games, "command": name, "options": options}

    refused = await call(http, "command", command("game new", game="chess"), expect=400)
    assert "chess" in refused["error"]
    assert all(g in refused["error"] for g in ("high-voltage", "pylons", "sector6"))
    refused = await call(http, "command", command("game new", colour="red"), expect=400)
    assert "colour" in refused["error"] and "game" in refused["error"]
    refused = await call(http, "command", command("hv draw", rotation="90"), expect=400)
    assert "cell" in refused["error"]
    refused = await call(http, "command", command("hv draw", cell="C3", rotation="45"), expect=400)
    assert "rotation" in refused["error"] and "270" in refused["error"]
    refused = await call(http, "command", command("hv draw", cell="C3", rotation="r9"), expect=400)
    assert "whole number" in refused["error"]
    refused = await call(http, "command", command("chess move"), expect=400)
    assert "/game new" in refused["error"]
    refused = await call(http, "command", command("game"), expect=400)
    assert "/game new" in refused["error"]
    assert (emu.last_seq, len(emu.interactions), len(emu.messages_by_id)) == before
    assert await hv.latest_game() is None


async def test_a_command_nobody_answers_tells_the_page_the_application_did_not_respond(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    """The bot's commands stay registered while it is away, as on Discord: running one gets
    Discord's own words back, once its window for an answer has passed."""
    emu = page.emu
    ada = person_named(page, "Ada")
    await hv.stop()
    emu.interaction_window = 0.2
    command = {"person": str(ada.id), "channel_id": str(emu.channel.id), "command": "game new"}
    answer = await call(http, "command", command)
    assert answer == {"ok": False, "error": "The application did not respond"}
    typed = {**command, "command": "hv draw", "option": "cell", "typed": "C"}
    answer = await call(http, "autocomplete", typed)
    assert answer == {"choices": [], "error": "The application did not respond"}


# ---------------------------------------------------------------------- secrets stay private


async def test_one_persons_dms_and_ephemeral_answers_never_reach_another_persons_page(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    """A whole opening through the page's API: lobby, join, an AI seat, start, the secrets
    dealt by DM, an ephemeral answer, autocomplete. Bruno's page receives none of what went to
    Ada alone, and Ada's page receives all of it."""
    emu = page.emu
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    games = str(emu.channel.id)
    async with opened(http, ada) as ada_page, opened(http, bruno) as bruno_page:
        new = {"person": str(ada.id), "channel_id": games, "command": "game new"}
        await call(http, "command", {**new, "options": {"game": "high-voltage"}})
        lobby = (await ada_page.wait_for(is_message(lambda m: bool(m["components"]))))["message"]
        for person, what in ((bruno, "join"), (ada, "addai"), (ada, "start")):
            press = {"person": str(person.id), "message_id": lobby["id"]}
            assert await call(http, "click", {**press, "custom_id": button(lobby, what)}) == {
                "ok": True
            }
            await emu.settle()
        game, state = await Table(emu, hv, [ada, bruno]).wait_for_turn()
        assert [s.display_name for s in game.seats if s.user_id] == ["Ada", "Bruno"]
        assert len(game.seats) == 3

        mine = {"person": str(ada.id), "channel_id": games, "command": "game mysecret"}
        assert await call(http, "command", mine) == {"ok": True}
        await emu.settle()
        mover = next(
            p for p in (ada, bruno) if p.id == game.seats[state.current_seat() or 0].user_id
        )
        typed = {"person": str(mover.id), "channel_id": games, "command": "hv draw"}
        choices = await call(http, "autocomplete", {**typed, "option": "cell", "typed": ""})
        assert choices["choices"], "the bot offered no cell to draw"
        assert all(set(c) == {"name", "value"} for c in choices["choices"])

        def private_to(person: User) -> list[Any]:
            return [
                r
                for r in emu.records
                if r.message_id is not None
                and r.visibility in (Visibility.dm_to(person), Visibility.ephemeral_to(person))
            ]

        adas = private_to(ada)
        assert any(r.visibility.kind == "dm" for r in adas), "Ada got no secret by DM"
        assert any(r.visibility.kind == "ephemeral" for r in adas), "Ada got no ephemeral answer"
        ada_ids = {str(r.message_id) for r in adas}
        # Bruno's page is sent its frames in order: once his own chat line is there, everything
        # before it that was his to see is there too.
        await emu.settle()
        said = await call(
            http, "say", {"person": str(bruno.id), "channel_id": games, "content": "gl"}
        )
        await bruno_page.wait_for(is_message(lambda m: m["id"] == said["id"]))
        await ada_page.wait_for(is_message(lambda m: m["id"] == said["id"]))
        bruno_view = await call(http, f"view?person={bruno.id}")

    assert ada_ids <= {m["id"] for m in ada_page.messages()}
    assert {str(r.message_id) for r in private_to(bruno)} <= {
        m["id"] for m in bruno_page.messages()
    }
    # Texts Bruno may read anyway (the same words in his own DMs) prove nothing either way.
    his_texts = {r.text for r in private_to(bruno)}
    ada_texts = {r.text for r in adas if r.text} - his_texts
    assert ada_texts, "nothing that Ada alone was told"
    seen_by_bruno = [*bruno_page.frames, {"type": "view", **bruno_view}]
    for frame in seen_by_bruno:
        dumped = json.dumps(frame)
        assert not [i for i in ada_ids if i in dumped], f"Ada's message ids in {frame['type']}"
    bruno_read = {text_of(m) for m in bruno_page.messages()}
    bruno_read |= {text_of(m) for shown in bruno_view["messages"].values() for m in shown}
    assert not ada_texts & bruno_read
    his_ids = {str(r.message_id) for r in private_to(bruno)}
    assert {m["id"] for m in bruno_page.messages() if m["visibility"] != "public"} <= his_ids


# ---------------------------------------------------------------------- the change feed


async def test_edits_deletes_threads_and_chat_reach_the_pages_that_may_see_them(
    page: SandboxPage, http: aiohttp.ClientSession
) -> None:
    """What a bot does through Discord's REST API (here sent by hand, with the bot's token)
    shows on the open pages as it happens; a DM and its deletion only on its reader's."""
    emu = page.emu
    emu.allow_threads()
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    bot = {"Authorization": f"Bot {emu.token}"}
    api = "/api/v10"

    async def send(method: str, path: str, body: Any = None, status: int = 200) -> Any:
        async with http.request(method, api + path, json=body, headers=bot) as answer:
            assert answer.status == status, await answer.text()
            return await answer.json() if answer.status != 204 else None

    channel = f"/channels/{emu.channel.id}/messages"
    async with opened(http, ada) as ada_page, opened(http, bruno) as bruno_page:
        posted = await send("POST", channel, {"content": "first words"})
        dm = await send("POST", "/users/@me/channels", {"recipient_id": str(ada.id)})
        whisper = await send("POST", f"/channels/{dm['id']}/messages", {"content": "for Ada"})
        await send("PATCH", f"{channel}/{posted['id']}", {"content": "second words"})
        thread = await send("POST", f"{channel}/{posted['id']}/threads", {"name": "chat"}, 201)
        await send("DELETE", f"/channels/{dm['id']}/messages/{whisper['id']}", status=204)
        await send("DELETE", f"{channel}/{posted['id']}", status=204)
        said = await call(
            http, "say", {"person": str(bruno.id), "channel_id": thread["id"], "content": "hi"}
        )
        for socket in (ada_page, bruno_page):
            await socket.wait_for(is_message(lambda m: m["id"] == said["id"]))

    def events(socket: PageSocket) -> list[tuple[str, str]]:
        out = []
        for frame in socket.frames[1:]:
            if frame["type"] == "message":
                out.append(("message", frame["message"]["content"]))
            elif frame["type"] == "delete":
                out.append(("delete", frame["id"]))
            elif frame["type"] == "channels":
                out.append(("channels", frame["channels"][1]["name"]))
        return out

    assert events(bruno_page) == [
        ("message", "first words"),
        ("message", "second words"),
        ("channels", "chat"),
        ("delete", posted["id"]),
        ("message", "hi"),
    ]
    assert events(ada_page) == [
        ("message", "first words"),
        ("message", "for Ada"),
        ("message", "second words"),
        ("channels", "chat"),
        ("delete", whisper["id"]),
        ("delete", posted["id"]),
        ("message", "hi"),
    ]
    edited = [f["message"] for f in ada_page.frames if f["type"] == "message"][2]
    assert (edited["id"], edited["edited"]) == (posted["id"], True)
    (threads,) = [f["channels"] for f in ada_page.frames if f["type"] == "channels"]
    assert threads[1] == {
        "id": thread["id"],
        "name": "chat",
        "kind": "thread",
        "parent_id": str(emu.channel.id),
    }
    chat = [f["message"] for f in bruno_page.frames if f["type"] == "message"][-1]
    assert chat["author"] == {"id": str(bruno.id), "name": "Bruno", "bot": False}
    assert (chat["channel_id"], chat["visibility"], chat["interaction"]) == (
        thread["id"],
        "public",
        None,
    )


# ---------------------------------------------------------------------- bad input


async def test_unknown_people_channels_and_messages_are_refused_and_change_nothing(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    emu = page.emu
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    games = str(emu.channel.id)
    # Something Ada alone sees: the answer to asking for her secret where no game is.
    (hidden,) = (await emu.slash(ada, "game mysecret")).ephemeral
    before = (emu.last_seq, len(emu.interactions), len(emu.messages_by_id), dict(emu.locales))

    refused = await call(http, "view?person=12345", expect=404)
    assert "Ada" in refused["error"] and "12345" in refused["error"]
    async with http.get("/sandbox/ws?person=nobody") as answer:
        assert answer.status == 404
    command = {"person": "12345", "channel_id": games, "command": "game new"}
    assert "Ada" in (await call(http, "command", command, expect=404))["error"]
    command["person"] = str(ada.id)
    for channel in ("999", "games", str(emu.dm_channel(bruno.id).id)):
        refused = await call(http, "command", {**command, "channel_id": channel}, expect=404)
        assert "#games" in refused["error"] and "#lounge" in refused["error"]
    say = {"person": str(ada.id), "channel_id": str(emu.dm_channel(bruno.id).id), "content": "hi"}
    await call(http, "say", say, expect=404)
    await call(http, "say", {**say, "channel_id": games, "content": " "}, expect=400)
    click = {"person": str(bruno.id), "message_id": "999", "custom_id": "x"}
    assert "999" in (await call(http, "click", click, expect=404))["error"]
    click["message_id"] = str(hidden.message_id)
    await call(http, "click", click, expect=404)  # Ada's, so not there for Bruno
    await call(http, "locale", {"person": str(ada.id), "locale": "xx"}, expect=400)
    await call(http, "command", {"person": str(ada.id)}, expect=400)
    async with http.post("/sandbox/api/command", data=b"{not json") as answer:
        assert answer.status == 400
        assert "JSON" in (await answer.json())["error"]
    async with http.get("/sandbox/api/nothing") as answer:
        assert answer.status == 404
    assert (
        emu.last_seq,
        len(emu.interactions),
        len(emu.messages_by_id),
        dict(emu.locales),
    ) == before
    assert not emu.unhandled


async def test_the_pages_files_are_served_and_nothing_outside_them(
    page: SandboxPage, http: aiohttp.ClientSession
) -> None:
    files = sorted(p.name for p in STATIC.iterdir() if p.is_file())
    assert files, "the page has no static files"
    for name in files:
        async with http.get(f"/sandbox/static/{name}") as answer:
            assert answer.status == 200
            assert (await answer.read()) == (STATIC / name).read_bytes()
            if name.endswith(".js"):
                assert answer.content_type == "text/javascript"
    async with http.get("/") as answer:
        assert answer.status == (200 if (STATIC / "index.html").is_file() else 404)
    for path in (
        "/sandbox/static/..%2Fpage.py",
        "/sandbox/static/.hidden",
        "/sandbox/static/nope.js",
    ):
        async with http.get(path) as answer:
            assert answer.status == 404
    async with http.get("/favicon.ico") as answer:
        assert answer.status == 204


async def test_no_other_site_can_show_the_page_in_a_frame(
    page: SandboxPage, http: aiohttp.ClientSession
) -> None:
    """A framed page's requests come from its own origin: another site could draw over it and
    have a person click for it (clickjacking). Browsers show it in no frame."""
    ada = person_named(page, "Ada")
    for path in ("/", "/sandbox/static/app.js", f"/sandbox/api/view?person={ada.id}", "/sandbox/x"):
        async with http.get(path) as answer:
            assert answer.headers.get("X-Frame-Options") == "DENY", path
            assert answer.headers.get("Content-Security-Policy") == "frame-ancestors 'none'", path


async def test_other_web_sites_in_the_same_browser_cannot_use_the_page(
    page: SandboxPage, http: aiohttp.ClientSession
) -> None:
    """A site open in the same browser may send requests to 127.0.0.1, or have its own name
    resolve there: the page answers neither, and nothing changes."""
    emu = page.emu
    ada = person_named(page, "Ada")
    games = str(emu.channel.id)
    command = {"person": str(ada.id), "channel_id": games, "command": "game new"}
    before = (len(emu.interactions), len(emu.messages_by_id))
    rebound = {"Host": f"evil.example:{emu.port}"}
    for path in ("/", "/sandbox/static/app.js", f"/sandbox/api/view?person={ada.id}"):
        async with http.get(path, headers=rebound) as answer:
            assert answer.status == 403, path
            assert "127.0.0.1" in (await answer.json())["error"]
    foreign = {"Origin": "http://evil.example"}
    async with http.post("/sandbox/api/command", json=command, headers=foreign) as answer:
        assert answer.status == 403
    async with http.post("/sandbox/api/command", data=json.dumps(command)) as answer:
        assert answer.status == 400, "a plain-text body is what a foreign form can send"
        assert "application/json" in (await answer.json())["error"]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await http.ws_connect(f"/sandbox/ws?person={ada.id}", headers=foreign)
    assert refused.value.status == 403
    assert (len(emu.interactions), len(emu.messages_by_id)) == before
    own = {"Origin": emu.base_url}
    async with http.get(f"/sandbox/api/view?person={ada.id}", headers=own) as answer:
        assert answer.status == 200, "the page itself is answered"


async def test_a_persons_secret_picture_reaches_only_their_own_page(
    page: SandboxPage, http: aiohttp.ClientSession
) -> None:
    """A DM's picture is served only from its signed address, and only the person the DM is
    for gets that address: another person's page never sees it, and the file without it is
    not there."""
    emu = page.emu
    ada, bo = person_named(page, "Ada"), person_named(page, "Bruno")
    form = aiohttp.FormData(quote_fields=False)
    alt = "Your company: red."
    attachments = [{"id": 0, "filename": "secret.png", "description": alt}]
    payload = {"content": "your company", "attachments": attachments}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", tiny_png(), filename="secret.png")
    bot = {"Authorization": f"Bot {emu.token}"}
    path = f"/api/v10/channels/{emu.dm_channel(ada.id).id}/messages"
    async with http.post(path, data=form, headers=bot) as answer:
        assert answer.status == 200
        url = (await answer.json())["attachments"][0]["url"]
    signature = url.split("hm=")[1]
    async with http.get(f"/sandbox/api/view?person={ada.id}") as answer:
        assert signature in await answer.text(), "Ada's page shows her picture"
        messages = (await answer.json())["messages"][str(emu.dm_channel(ada.id).id)]
        shown = [a for m in messages for a in m["attachments"]]
        assert [a["description"] for a in shown] == [alt], "with its alt text"
    async with http.get(f"/sandbox/api/view?person={bo.id}") as answer:
        assert signature not in await answer.text(), "Bruno's page never learns its address"
    async with http.get(url.split("?")[0]) as answer:
        assert answer.status == 404
    async with http.get(url) as answer:
        assert answer.status == 200


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (20, 200, 30)).save(out, format="PNG")
    return out.getvalue()


# ---------------------------------------------------------------------- the owner and roles


def role_named(page: SandboxPage, name: str) -> str:
    return next(str(r.id) for r in page.emu.roles.values() if r.name == name)


async def test_the_owner_gives_roles_and_roles_grant_what_they_grant_on_discord(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    """The server's owner has every permission, so /server is offered to them; a member has
    the permissions of the roles they hold, given on the page by whoever may manage roles,
    and the bot sees those roles: an opener role set in /server settings keeps out a member
    without it until the owner gives it to them."""
    emu = page.emu
    owner, bruno, chiara = emu.owner, person_named(page, "Bruno"), person_named(page, "Chiara")
    games = str(emu.channel.id)
    view = await call(http, f"view?person={owner.id}")
    assert view["person"]["owner"] and view["person"]["manage_roles"]
    assert "server" in {c["name"] for c in view["commands"]}
    assert [r["name"] for r in view["roles"]] == ["Admin", "Moderator", "Referee", "Game host"]

    def give(actor: User, member: User, role: str, given: bool = True) -> dict[str, Any]:
        ids = {"member": str(member.id), "role": role_named(page, role), "given": given}
        return {"person": str(actor.id), **ids}

    # Bruno may not give roles: no Manage Roles; nothing changes.
    refused = await call(http, "role", give(bruno, bruno, "Admin"), expect=403)
    assert "Manage Roles" in refused["error"]
    assert emu.roles_of(bruno) == set()

    async with opened(http, bruno) as bruno_page:
        assert await call(http, "role", give(owner, bruno, "Admin")) == {"ok": True}
        frame = await bruno_page.wait_for(lambda f: f["type"] == "commands")
        people = await bruno_page.wait_for(lambda f: f["type"] == "people")
    assert "server" in {c["name"] for c in frame["commands"]}, "an Admin manages the server"
    shown = next(p for p in people["people"] if p["id"] == str(bruno.id))
    assert shown["roles"] == [role_named(page, "Admin")] and shown["manage_roles"]
    # An Admin gives roles below their own, not their own.
    assert await call(http, "role", give(bruno, chiara, "Referee")) == {"ok": True}
    refused = await call(http, "role", give(bruno, chiara, "Admin"), expect=403)
    assert "below" in refused["error"]
    assert await call(http, "role", give(bruno, chiara, "Referee", False)) == {"ok": True}
    assert emu.roles_of(chiara) == set()

    # The owner names the opener role in /server settings: Chiara, without it, is refused.
    settings = {"opener_role": role_named(page, "Game host")}
    command = {"person": str(owner.id), "channel_id": games, "command": "server settings"}
    assert await call(http, "command", {**command, "options": settings}) == {"ok": True}
    await emu.settle()
    refused = await call(
        http, "command", {**command, "options": {"opener_role": "123"}}, expect=400
    )
    assert "Game host" in refused["error"] and "@everyone" in refused["error"]
    open_game = {"person": str(chiara.id), "channel_id": games, "command": "game new"}
    assert await call(http, "command", open_game) == {"ok": True}
    await emu.settle()
    assert await hv.latest_game() is None, "Chiara has not the opener role"
    assert await call(http, "role", give(owner, chiara, "Game host")) == {"ok": True}
    assert await call(http, "command", open_game) == {"ok": True}
    await emu.settle()
    game = await hv.latest_game()
    assert game is not None and [s.display_name for s in game.seats] == ["Chiara"]


async def test_a_moderator_role_grants_manage_messages_to_the_bot(
    page: SandboxPage, hv: BotHarness
) -> None:
    """What the bot is sent for a member: the permissions of their roles, all for the owner."""
    emu = page.emu
    dieter = person_named(page, "Dieter")
    moderator = next(r for r in emu.roles.values() if r.name == "Moderator")
    before = emu.permissions_of(dieter)
    emu.give_role(dieter, moderator)
    assert emu.permissions_of(dieter) == before | moderator.permissions != before
    payload = emu.member_payload(dieter)
    assert payload["roles"] == [str(moderator.id)]
    assert int(payload["permissions"]) == emu.permissions_of(dieter)
    assert int(emu.member_payload(emu.owner)["permissions"]) & (1 << 3)  # Administrator
    emu.take_role(dieter, moderator)
    assert emu.permissions_of(dieter) == before


async def test_a_dismissed_private_answer_never_comes_back(
    page: SandboxPage, hv: BotHarness, http: aiohttp.ClientSession
) -> None:
    """As Discord forgets a dismissed ephemeral answer: not in the view after a reload, not
    on the socket when the bot edits it; only the person's own private answers dismiss."""
    emu = page.emu
    ada, bruno = person_named(page, "Ada"), person_named(page, "Bruno")
    (hidden,) = (await emu.slash(ada, "game mysecret")).ephemeral
    (public,) = (await emu.slash(ada, "game new", game="pylons")).public
    dismiss = {"person": str(ada.id), "message_id": str(hidden.message_id)}
    await call(http, "dismiss", {**dismiss, "person": str(bruno.id)}, expect=404)
    refused = await call(
        http, "dismiss", {**dismiss, "message_id": str(public.message_id)}, expect=400
    )
    assert "private" in refused["error"]
    shown = await call(http, f"view?person={ada.id}")
    assert str(hidden.message_id) in {m["id"] for ms in shown["messages"].values() for m in ms}

    assert await call(http, "dismiss", dismiss) == {"ok": True}
    async with opened(http, ada) as ada_page:
        (view,) = [f for f in ada_page.frames if f["type"] == "view"]
        ids = {m["id"] for ms in view["messages"].values() for m in ms}
        assert str(hidden.message_id) not in ids and str(public.message_id) in ids
        emu.notify(Change("message", message=emu.messages_by_id[hidden.message_id]))
        emu.say(ada, "still here", channel=emu.channel)
        await ada_page.wait_for(is_message(lambda m: m["content"] == "still here"))
    assert str(hidden.message_id) not in {m["id"] for m in ada_page.messages()}


# ---------------------------------------------------------------------- words and emoji


def test_the_pages_own_words_exist_in_every_language_it_offers() -> None:
    """Each of the page's fixed words (i18n.js) in English, Italian, French and German, with
    the same `{names}` to fill in, so no language shows a key or loses a name."""
    source = (STATIC / "i18n.js").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^  (\w+): \{\n(.*?)^  \},", source, re.S | re.M))
    assert sorted(blocks) == ["de", "en", "fr", "it"]
    words = {
        lang: dict(re.findall(r'^    (\w+): "((?:[^"\\]|\\.)*)",', block, re.M))
        for lang, block in blocks.items()
    }
    for lang, found in words.items():
        assert found.keys() == words["en"].keys(), lang
        for key, text in found.items():
            assert text.strip(), (lang, key)
            names = sorted(re.findall(r"\{\w+\}", text))
            assert names == sorted(re.findall(r"\{\w+\}", words["en"][key])), (lang, key)
    # The page's own languages are the ones a person can pick.
    assert {code.split("-")[0] for code, _ in LOCALES} == set(words)
    assert words["fr"]["onlyYou"] != words["en"]["onlyYou"]
    # French writes in a channel ("dans #games") but to a person ("à @Ada"), as its client does.
    assert words["fr"]["messageTo"] == "Envoyer un message dans {place}"
    assert words["fr"]["messageToPerson"] == "Envoyer un message à {place}"
    app = (STATIC / "app.js").read_text(encoding="utf-8")
    assert 'dm ? t("messageToPerson"' in app


def font_characters(path: Path) -> set[int]:
    """The characters a TrueType font has a glyph for (its cmap's format 4 and 12 tables)."""
    data = path.read_bytes()
    count = struct.unpack(">H", data[4:6])[0]
    tables = {
        data[12 + 16 * i : 16 + 16 * i]: struct.unpack(">I", data[20 + 16 * i : 24 + 16 * i])[0]
        for i in range(count)
    }
    cmap = tables[b"cmap"]
    found: set[int] = set()
    for i in range(struct.unpack(">H", data[cmap + 2 : cmap + 4])[0]):
        offset = cmap + struct.unpack(">I", data[cmap + 8 + 8 * i : cmap + 12 + 8 * i])[0]
        if struct.unpack(">H", data[offset : offset + 2])[0] == 12:
            groups = struct.unpack(">I", data[offset + 12 : offset + 16])[0]
            for g in range(groups):
                start, end, _ = struct.unpack(
                    ">III", data[offset + 16 + 12 * g : offset + 28 + 12 * g]
                )
                found |= set(range(start, end + 1))
    return found


# The characters the page's emoji font is used for (app.css's unicode-range).
EMOJI_RANGES = (
    (0x231A, 0x231B),
    (0x23E9, 0x23FA),
    (0x2600, 0x27BF),
    (0x2B50, 0x2B50),
    (0x1F000, 0x1FAFF),
)
# One of them, as a pattern: the bot's sources are read a character class at a time.
EMOJI = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in EMOJI_RANGES) + "]")


def test_every_emoji_the_bot_writes_is_in_the_pages_emoji_font() -> None:
    """The page draws emoji with its own font, as Discord ships its own emoji, so a machine
    without an emoji font shows no empty boxes: every emoji in the bot's texts and code must
    be in that font (a new one is added to it, from Noto Color Emoji, see emoji-LICENSE.txt)."""
    root = STATIC.parents[2]
    have = font_characters(STATIC / "emoji.ttf")
    css = (STATIC / "app.css").read_text(encoding="utf-8")
    assert 'url("/sandbox/static/emoji.ttf")' in css and '--font: "Sandbox Emoji"' in css
    assert {0x23F3, 0x1F4A4} <= have  # the clock's and the away player's
    missing: dict[str, str] = {}
    for pattern in ("data/**/*.toml", "games/**/*.toml", "hvbot/**/*.py", "games/**/*.py"):
        for path in root.glob(pattern):
            for ch in EMOJI.findall(path.read_text(encoding="utf-8")):
                if ord(ch) not in have:
                    missing[ch] = str(path.relative_to(root))
    assert not missing, f"emoji the page's font lacks: {missing}"
