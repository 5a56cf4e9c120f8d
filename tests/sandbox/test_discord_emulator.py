"""The Discord emulator on its own, spoken to over real HTTP and a real websocket: it must
refuse what Discord refuses, or the end-to-end tests could pass with a bot Discord rejects."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord import app_commands
from e2e_harness import ready_when_guilds_arrive
from PIL import Image

from sandbox.emulator import (
    DiscordEmulator,
    EmulatorUsageError,
    InteractionFailed,
    Visibility,
    locate_spec,
    rules,
    shard_of,
)
from sandbox.emulator.openapi import ENV_VAR

pytestmark = pytest.mark.e2e  # the emulated Discord that the end-to-end tests stand on

SPEC = locate_spec()
needs_spec = pytest.mark.skipif(SPEC is None, reason="Discord's OpenAPI file is not available")


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


@pytest.fixture
async def http(emu: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(base_url=emu.base_url, headers=headers) as session:
        yield session


async def post_message(
    http: aiohttp.ClientSession, emu: DiscordEmulator, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", json=body) as answer:
        return answer.status, await answer.json()


def png(size: tuple[int, int] = (8, 6)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def rows(count: int, per_row: int = 1) -> list[dict[str, Any]]:
    return [
        {"type": 1, "components": [button(f"b{r}-{c}") for c in range(per_row)]}
        for r in range(count)
    ]


async def test_requests_without_the_bot_token_are_unauthorised(emu: DiscordEmulator) -> None:
    async with (
        aiohttp.ClientSession(base_url=emu.base_url) as anonymous,
        anonymous.get("/api/v10/users/@me", headers={"Authorization": "Bot wrong"}) as answer,
    ):
        assert answer.status == 401
        assert (await answer.json())["message"] == "401: Unauthorized"
    assert [r.status for r in emu.rejections] == [401]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
        ({"content": "six rows", "components": rows(6)}, ("components",), "BASE_TYPE_BAD_LENGTH"),
        (
            {"content": "six buttons", "components": rows(1, per_row=6)},
            ("components", "0", "components"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"content": "id", "components": [{"type": 1, "components": [button("x" * 101)]}]},
            ("components", "0", "components", "0", "custom_id"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {
                "content": "label",
                "components": [{"type": 1, "components": [button("a", "y" * 81)]}],
            },
            ("components", "0", "components", "0", "label"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {
                "content": "twice",
                "components": [{"type": 1, "components": [button("same"), button("same")]}],
            },
            ("components", "0", "components", "1", "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        ({"embeds": [{"title": "t" * 257}]}, ("embeds", "0", "title"), "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "e" * 2001}]},
            ("embeds",),
            "BASE_TYPE_MAX_LENGTH",
        ),
    ],
)
async def test_messages_over_discords_limits_are_invalid_form_bodies(
    emu: DiscordEmulator,
    http: aiohttp.ClientSession,
    body: dict[str, Any],
    path: tuple[str, ...],
    code: str,
) -> None:
    status, answer = await post_message(http, emu, body)
    assert status == 400
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    node = answer["errors"]
    for key in path:
        node = node[key]
    assert code in [e["code"] for e in node["_errors"]], answer
    assert not emu.records, "a refused message must not be recorded as sent"
    assert len(emu.rejections) == 1


async def test_an_empty_message_is_refused(emu: DiscordEmulator, http: aiohttp.ClientSession):
    status, answer = await post_message(http, emu, {"content": ""})
    assert (status, answer["code"]) == (400, 50006)


async def test_a_nonce_enforced_is_answered_with_its_message_in_its_channel_until_deleted(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """Discord answers a second create with the same nonce (with enforce_nonce) with the first
    message and makes nothing; the same nonce in another channel, or after the first message
    was deleted, makes a message. (Looked up by channel and nonce,
    which a load run of thousands of games needs: see `MessageStore.by_nonce`.)"""
    body = {"content": "the board", "nonce": "move-7", "enforce_nonce": True}
    status, first = await post_message(http, emu, body)
    assert status == 200
    status, again = await post_message(http, emu, body)
    assert (status, again["id"]) == (200, first["id"]) and emu.duplicates_refused == 1
    other = emu.add_channel("other")
    async with http.post(f"/api/v10/channels/{other.id}/messages", json=body) as answer:
        assert (await answer.json())["id"] != first["id"]
    async with http.delete(f"/api/v10/channels/{emu.channel.id}/messages/{first['id']}"):
        pass
    status, after = await post_message(http, emu, body)
    assert after["id"] != first["id"] and emu.duplicates_refused == 1


async def test_a_message_with_a_picture_is_recorded_with_the_decoded_image(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    form = aiohttp.FormData(quote_fields=False)
    alt = "Picture of the board. Last move: Ada rotated E4 to 90°."
    attachments = [{"id": 0, "filename": "board.png", "description": alt}]
    payload = {"content": "the board", "attachments": attachments}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png((12, 7)), filename="board.png")
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        assert answer.status == 200
        message = await answer.json()
    assert message["attachments"][0]["filename"] == "board.png"
    assert (message["attachments"][0]["width"], message["attachments"][0]["height"]) == (12, 7)
    assert message["attachments"][0]["description"] == alt, "its alt text, as Discord keeps it"
    (record,) = emu.messages()
    assert record.kind == "channel_message" and record.visibility == Visibility.public()
    assert record.attachment("board.png").description == alt
    image = record.attachment("board.png").image
    assert image is not None and image.size == (12, 7)
    async with http.get(message["attachments"][0]["url"]) as download:
        assert await download.read() == record.attachment("board.png").data


async def post_files(
    http: aiohttp.ClientSession, emu: DiscordEmulator, sizes: list[int]
) -> tuple[int, dict[str, Any]]:
    form = aiohttp.FormData(quote_fields=False)
    names = [f"part{i}.bin" for i in range(len(sizes))]
    attachments = [{"id": i, "filename": name} for i, name in enumerate(names)]
    form.add_field("payload_json", json.dumps({"content": "files", "attachments": attachments}))
    for i, (name, size) in enumerate(zip(names, sizes, strict=True)):
        form.add_field(f"files[{i}]", b"x" * size, filename=name)
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        return answer.status, await answer.json()


async def test_ten_files_within_the_upload_limit_are_sent(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    share = rules.FILE_SIZE_LIMIT // rules.FILES_LIMIT
    status, message = await post_files(http, emu, [share] * rules.FILES_LIMIT)
    assert status == 200, message
    assert len(message["attachments"]) == rules.FILES_LIMIT


async def test_an_eleventh_file_is_an_invalid_form_body(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    status, answer = await post_files(http, emu, [10] * (rules.FILES_LIMIT + 1))
    assert (status, answer["code"]) == (400, 50035)
    assert "BASE_TYPE_BAD_LENGTH" in [e["code"] for e in answer["errors"]["attachments"]["_errors"]]
    assert not emu.records


async def test_files_over_the_upload_limit_together_are_too_large(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """Each under the limit, not together: Discord counts a message's files as one upload."""
    half = rules.FILE_SIZE_LIMIT // 2
    status, answer = await post_files(http, emu, [half, half + 1])
    assert (status, answer["code"]) == (413, 40005)
    assert not emu.records and len(emu.rejections) == 1


@needs_spec
async def test_request_bodies_are_checked_against_discords_openapi_schema(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    assert emu.validator is not None
    bad_style = {"content": "hi", "components": [{"type": 1, "components": [button("a")]}]}
    bad_style["components"][0]["components"][0]["style"] = 9
    status, answer = await post_message(http, emu, bad_style)
    assert (status, answer["code"]) == (400, 50035)
    style = answer["errors"]["components"]["0"]["components"]["0"]["style"]
    assert style["_errors"][0]["code"] == "BASE_TYPE_CHOICES"

    status, answer = await post_message(http, emu, {"embeds": [{"color": 2**24}]})
    assert status == 400
    assert answer["errors"]["embeds"]["0"]["color"]["_errors"][0]["code"] == "NUMBER_TYPE_MAX"

    # An attachment's alt text holds at most 1024 characters.
    form = aiohttp.FormData(quote_fields=False)
    long = [{"id": 0, "filename": "board.png", "description": "x" * 1025}]
    form.add_field("payload_json", json.dumps({"content": "the board", "attachments": long}))
    form.add_field("files[0]", png((12, 7)), filename="board.png")
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        assert answer.status == 400
        errors = (await answer.json())["errors"]
    assert errors["attachments"]["0"]["description"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"

    commands = [{"name": "x" * 33, "description": "too long a name", "type": 1}]
    async with http.put(f"/api/v10/applications/{emu.application_id}/commands", json=commands) as a:
        assert a.status == 400
        assert "name" in (await a.json())["errors"]["0"]


@needs_spec
async def test_a_body_sent_again_gets_the_same_answer_without_being_checked_again(
    emu: DiscordEmulator, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's commands (80 kB) are sent at every start: their check's answer is kept."""
    assert emu.validator is not None
    walked: list[object] = []
    check = emu.validator.check
    monkeypatch.setattr(emu.validator, "check", lambda *a: walked.append(a[1]) or check(*a))
    # The schema's answers are the process's (one schema a process): bodies no test sent.
    content = f"sent again {uuid.uuid4()}"
    bad = {"content": content, "embeds": [{"color": 2**24}]}
    answers = [await post_message(http, emu, bad) for _ in range(2)]
    assert answers[0] == answers[1] and answers[0][0] == 400
    assert walked == [bad], "the same body checked twice"
    good = {"content": content, "embeds": [{"color": 2**24 - 1}]}
    for _ in range(2):
        status, _ = await post_message(http, emu, good)
        assert status == 200, "a body like a refused one is refused"
    assert walked == [bad, good]


async def test_the_schema_check_is_skipped_when_the_file_is_absent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing.json"))
    assert locate_spec() is None
    async with DiscordEmulator(spec_path=None) as emu:
        assert emu.validator is None
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession(base_url=emu.base_url, headers=headers) as http:
            body = {"content": "hi", "components": [{"type": 1, "components": [button("a")]}]}
            body["components"][0]["components"][0]["style"] = 9
            status, _ = await post_message(http, emu, body)
            assert status == 200  # only the schema knows the styles; Discord's limits still hold
            status, _ = await post_message(http, emu, {"content": "x" * 2001})
            assert status == 400


async def test_a_rate_limit_fault_answers_429_once_with_discords_headers(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    emu.faults.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.25)
    async with http.post(
        f"/api/v10/channels/{emu.channel.id}/messages", json={"content": "one"}
    ) as answer:
        assert answer.status == 429
        assert await answer.json() == {
            "message": "You are being rate limited.",
            "retry_after": 0.25,
            "global": False,
            "code": 0,
        }
        for header in ("Retry-After", "X-RateLimit-Remaining", "X-RateLimit-Reset-After", "Via"):
            assert header in answer.headers
    status, _ = await post_message(http, emu, {"content": "two"})
    assert status == 200
    assert [m.content for m in emu.messages()] == ["two"]
    assert not emu.rejections, "a deliberate fault is not the bot's mistake"


async def test_dms_to_a_user_who_closed_them_fail_with_50007(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    shy, open_ = emu.add_user("Shy"), emu.add_user("Open")
    emu.faults.close_dms(shy.id)
    for user, expected in ((shy, 403), (open_, 200)):
        async with http.post(
            "/api/v10/users/@me/channels", json={"recipient_id": str(user.id)}
        ) as a:
            channel = await a.json()
        async with http.post(
            f"/api/v10/channels/{channel['id']}/messages", json={"content": "secret"}
        ) as answer:
            assert answer.status == expected
            if expected == 403:
                assert (await answer.json())["code"] == 50007
    (record,) = emu.messages()
    assert record.kind == "dm" and record.visibility == Visibility.dm_to(open_)


async def receive(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await asyncio.wait_for(socket.receive(), 5)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    return json.loads(message.data)


async def test_gateway_identify_heartbeat_and_resume(emu: DiscordEmulator) -> None:
    async with aiohttp.ClientSession() as session:
        socket = await session.ws_connect(f"{emu.gateway_url}?v=10&encoding=json")
        hello = await receive(socket)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await socket.send_json({"op": 2, "d": {"token": emu.token, "intents": 513}})
        ready, guild = await receive(socket), await receive(socket)
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["application"]["id"] == str(emu.application_id)
        assert ready["d"]["user"]["id"] == str(emu.bot_user.id)
        assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
        assert {c["name"] for c in guild["d"]["channels"]} == {"games", "lounge"}
        await socket.send_json({"op": 1, "d": 2})
        assert (await receive(socket))["op"] == 11
        session_id = ready["d"]["session_id"]

        await emu.gateway.drop()
        await emu.wait_for(lambda: not emu.gateway.connected, 5)
        await emu.gateway.dispatch("CHANNEL_PINS_UPDATE", {"channel_id": str(emu.channel.id)})

        again = await session.ws_connect(ready["d"]["resume_gateway_url"])
        assert (await receive(again))["op"] == 10
        await again.send_json(
            {"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 2}}
        )
        missed, resumed = await receive(again), await receive(again)
        assert (missed["t"], missed["s"]) == ("CHANNEL_PINS_UPDATE", 3)
        assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
        await again.close()

        stranger = await session.ws_connect(emu.gateway_url)
        await receive(stranger)
        await stranger.send_json({"op": 6, "d": {"token": emu.token, "session_id": "nope"}})
        assert await receive(stranger) == {"op": 9, "d": False}
        await stranger.send_json({"op": 2, "d": {"token": "wrong"}})
        closed = await asyncio.wait_for(stranger.receive(), 5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4004
    assert (emu.gateway.identifies, emu.gateway.resumes) == (1, 1)


class HandBot:
    """A bot written by hand (raw HTTP and websocket), to drive the emulator exactly."""

    def __init__(self, emu: DiscordEmulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session
        self.socket: aiohttp.ClientWebSocketResponse | None = None

    async def connect(self, commands: list[dict[str, Any]]) -> None:
        async with self.call("PUT", f"/applications/{self.emu.application_id}/commands", commands):
            pass
        self.socket = await self.session.ws_connect(self.emu.gateway_url)
        await receive(self.socket)
        await self.socket.send_json({"op": 2, "d": {"token": self.emu.token}})
        await receive(self.socket), await receive(self.socket)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bot {self.emu.token}"}
        return self.session.request(method, self.emu.api_base + path, json=body, headers=headers)

    async def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        async with self.call(method, path, body) as answer:
            text = await answer.text()
            return answer.status, json.loads(text) if text else None

    async def next_interaction(self) -> dict[str, Any]:
        assert self.socket is not None
        event = await receive(self.socket)
        assert event["t"] == "INTERACTION_CREATE"
        return event["d"]

    @staticmethod
    def callback(interaction: dict[str, Any]) -> str:
        return f"/interactions/{interaction['id']}/{interaction['token']}/callback"

    def webhook(self, interaction: dict[str, Any], tail: str = "") -> str:
        return f"/webhooks/{self.emu.application_id}/{interaction['token']}{tail}"


async def test_an_interaction_acknowledged_too_late_is_unknown() -> None:
    async with DiscordEmulator(interaction_window=0.2) as emu, aiohttp.ClientSession() as session:
        bot = HandBot(emu, session)
        await bot.connect([{"name": "ping", "description": "Answer late", "type": 1}])
        ada = emu.add_user("Ada")

        async def answer_late() -> int:
            interaction = await bot.next_interaction()
            assert interaction["member"]["user"]["id"] == str(ada.id)
            assert interaction["data"]["name"] == "ping"
            await asyncio.sleep(0.4)  # deliberately past the emulator's 0.2 s window
            status, _ = await bot.send(
                "POST", bot.callback(interaction), {"type": 4, "data": {"content": "pong"}}
            )
            return status

        late = asyncio.create_task(answer_late())
        with pytest.raises(InteractionFailed):
            await emu.slash(ada, "ping")
        assert await late == 404
        assert emu.rejections[-1].body["code"] == 10062


async def test_deferred_replies_follow_ups_and_clicks_behave_as_on_discord() -> None:
    async with DiscordEmulator() as emu, aiohttp.ClientSession() as session:
        bot = HandBot(emu, session)
        command = {
            "name": "look",
            "description": "Look at something",
            "type": 1,
            "options": [
                {"name": "who", "description": "Someone", "type": 6, "required": True},
                {"name": "times", "description": "How often", "type": 4},
            ],
        }
        await bot.connect([command])
        ada, bo = emu.add_user("Ada"), emu.add_user("Bo")

        async def answer() -> None:
            interaction = await bot.next_interaction()
            options = {o["name"]: o["value"] for o in interaction["data"]["options"]}
            assert options == {"who": str(bo.id), "times": 2}
            assert interaction["data"]["resolved"]["users"][str(bo.id)]["global_name"] == "Bo"
            assert await bot.send("POST", bot.callback(interaction), {"type": 5}) == (204, None)
            again = await bot.send("POST", bot.callback(interaction), {"type": 4})
            assert (again[0], again[1]["code"]) == (400, 40060)
            # The first follow-up replaces the public "thinking" message: its flags are ignored.
            await bot.send("POST", bot.webhook(interaction), {"content": "first", "flags": 64})
            status, second = await bot.send(
                "POST",
                bot.webhook(interaction) + "?wait=true",
                {"content": "second", "flags": 64, "components": rows(1)},
            )
            assert status == 200
            await bot.send(
                "PATCH", bot.webhook(interaction, f"/messages/{second['id']}"), {"content": "2nd"}
            )
            _, original = await bot.send("GET", bot.webhook(interaction, "/messages/@original"))
            assert original["content"] == "first"

        answering = asyncio.create_task(answer())
        reply = await emu.slash(ada, "look", who=bo, times=2)
        await answering
        assert [(r.kind, r.visibility.kind, r.content) for r in reply] == [
            ("deferred", "public", ""),
            ("followup", "public", "first"),
            ("followup", "ephemeral", "second"),
            ("edit_followup", "ephemeral", "2nd"),
        ]
        assert [r.content for r in reply.messages] == ["first", "second", "2nd"]
        emu.rejections.clear()  # the second acknowledgement was refused on purpose

        hidden = reply[-1]
        with pytest.raises(EmulatorUsageError):
            await emu.click(bo, "b0-0", message=hidden)  # Bo cannot see Ada's ephemeral message

        async def update() -> None:
            interaction = await bot.next_interaction()
            assert interaction["type"] == 3
            assert interaction["data"] == {"custom_id": "b0-0", "component_type": 2}
            assert interaction["message"]["id"] == str(hidden.message_id)
            body = {"type": 7, "data": {"content": "pressed", "components": []}}
            assert (await bot.send("POST", bot.callback(interaction), body))[0] == 204

        updating = asyncio.create_task(update())
        reply = await emu.click(ada, "b0-0", message=hidden)
        await updating
        (record,) = reply
        assert (record.kind, record.content, record.components) == ("update", "pressed", ())
        assert emu.message(hidden.message_id or 0).content == "pressed"
        with pytest.raises(EmulatorUsageError):
            await emu.slash(ada, "look")  # a required option is missing
        assert not emu.rejections


# ---------------------------------------------------------------------- guilds and shards


def test_guilds_can_be_made_on_a_chosen_shard(emu: DiscordEmulator) -> None:
    """A sharding test needs guilds on known shards; Discord's rule decides, not the clock."""
    for count in (1, 2, 3, 16):
        for shard in range(count):
            guild = emu.add_guild(f"club {shard} of {count}", shard=(shard, count))
            assert shard_of(guild, count) == shard
            assert guild in emu.guilds_on_shard(shard, count)
    chosen = (4242 << 22) | 7
    assert emu.add_guild("Chosen", guild_id=chosen) == chosen
    with pytest.raises(EmulatorUsageError):
        emu.add_guild("Twice", guild_id=chosen)
    with pytest.raises(ValueError):
        emu.add_guild("Nowhere", shard=(2, 2))


def test_a_new_guild_has_its_own_channels_and_the_first_is_unchanged(
    emu: DiscordEmulator,
) -> None:
    other = emu.add_guild("Chess club")
    general = emu.default_channel(other)
    extra = emu.add_channel("tournament", guild_id=other)
    lounge2 = emu.add_channel("lounge 2")
    assert (general.guild_id, general.position) == (other, 0)
    assert (extra.guild_id, extra.position) == (other, 1)
    assert (lounge2.guild_id, lounge2.position) == (emu.guild_id, 2)
    assert emu.default_channel() == emu.channel
    payload = emu.guild_payload(other)
    assert (payload["id"], payload["name"]) == (str(other), "Chess club")
    assert [c["name"] for c in payload["channels"]] == ["general", "tournament"]
    assert {m["user"]["id"] for m in payload["members"]} == {str(u) for u in emu.users}
    first = emu.guild_payload()
    assert (first["id"], first["name"]) == (str(emu.guild_id), emu.guild_name)
    assert [c["name"] for c in first["channels"]] == ["games", "lounge", "lounge 2"]
    emu.set_guild_locale("de", other)
    assert (emu.guild_payload(other)["preferred_locale"], emu.guild_locale) == ("de", "en-US")


async def identify_raw(
    http: aiohttp.ClientSession, emu: DiscordEmulator, shard: list[int] | None = None
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any], list[dict[str, Any]]]:
    """Connect and IDENTIFY by hand; return the socket, READY's data and the GUILD_CREATEs."""
    socket = await http.ws_connect(emu.gateway_url)
    assert (await receive(socket))["op"] == 10
    data: dict[str, Any] = {"token": emu.token}
    if shard is not None:
        data["shard"] = shard
    await socket.send_json({"op": 2, "d": data})
    ready = await receive(socket)
    assert ready.get("t") == "READY", ready
    creates = [await receive(socket) for _ in ready["d"]["guilds"]]
    assert {c["t"] for c in creates} <= {"GUILD_CREATE"}
    return socket, ready["d"], creates


async def test_each_shard_gets_its_guilds_and_their_events_and_resumes_alone(
    emu: DiscordEmulator,
) -> None:
    on_one = emu.add_guild("Chess club", shard=(1, 2))
    on_zero = emu.add_guild("Go club", shard=(0, 2))
    expected = {shard: set(emu.guilds_on_shard(shard, 2)) for shard in (0, 1)}
    assert on_zero in expected[0] and on_one in expected[1]
    assert expected[0] | expected[1] == set(emu.guilds)
    dm = emu.dm_channel(emu.add_user("Ada").id)
    emu.gateway.max_concurrency = 2  # so both shards may identify at once
    async with aiohttp.ClientSession() as http:
        zero, ready0, creates0 = await identify_raw(http, emu, [0, 2])
        one, ready1, creates1 = await identify_raw(http, emu, [1, 2])
        for shard, ready, creates in ((0, ready0, creates0), (1, ready1, creates1)):
            assert ready["shard"] == [shard, 2]
            assert {int(g["id"]) for g in ready["guilds"]} == expected[shard]
            assert {int(c["d"]["id"]) for c in creates} == expected[shard]
        assert emu.gateway.connected_shards == {0, 1}

        # A guild's event goes to its shard only; one without a guild goes to shard 0.
        pins_in = {"guild_id": str(on_one), "channel_id": str(emu.default_channel(on_one).id)}
        await emu.gateway.dispatch("CHANNEL_PINS_UPDATE", pins_in)
        await emu.gateway.dispatch("CHANNEL_PINS_UPDATE", {"channel_id": str(dm.id)})
        guild_event, dm_event = await receive(one), await receive(zero)
        assert guild_event["d"] == pins_in
        assert dm_event["d"] == {"channel_id": str(dm.id)}, "shard 0 got shard 1's event"

        # Shard 1 goes away: its events wait for its resume, shard 0 stays connected.
        await emu.gateway.drop(shard_id=1)
        await emu.wait_for(lambda: emu.gateway.connected_shards == {0}, 5)
        await emu.gateway.dispatch("CHANNEL_PINS_UPDATE", pins_in)
        again = await http.ws_connect(ready1["resume_gateway_url"])
        assert (await receive(again))["op"] == 10
        resume = {"token": emu.token, "session_id": ready1["session_id"], "seq": guild_event["s"]}
        await again.send_json({"op": 6, "d": resume})
        missed, resumed = await receive(again), await receive(again)
        assert (missed["d"], missed["s"]) == (pins_in, guild_event["s"] + 1)
        assert (resumed["t"], resumed["s"]) == ("RESUMED", guild_event["s"] + 2)
        assert emu.gateway.connected_shards == {0, 1}
        assert emu.gateway.shards[(1, 2)].id == ready1["session_id"]

        # Shard 0 saw none of it: its next frame is the next event without a guild.
        await emu.gateway.dispatch("CHANNEL_PINS_UPDATE", {"channel_id": str(dm.id)})
        following = await receive(zero)
        assert (following["d"], following["s"]) == ({"channel_id": str(dm.id)}, dm_event["s"] + 1)
        for socket in (zero, one, again):
            await socket.close()
    assert (emu.gateway.identifies, emu.gateway.resumes) == (2, 1)


async def test_identifies_are_limited_per_bucket_as_gateway_bot_says() -> None:
    """Discord admits one IDENTIFY per bucket (shard_id % max_concurrency) per interval and
    answers one too early with Invalid Session; an impossible shard closes with 4010."""
    async with (
        DiscordEmulator(recommended_shards=2, identify_interval=60) as emu,
        aiohttp.ClientSession() as http,
    ):
        headers = {"Authorization": f"Bot {emu.token}"}

        async def gateway_bot() -> dict[str, Any]:
            async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as answer:
                assert answer.status == 200
                found: dict[str, Any] = await answer.json()
                return found

        first = await gateway_bot()
        assert (first["url"], first["shards"]) == (emu.gateway_url, 2)
        limit = first["session_start_limit"]
        assert (limit["total"], limit["remaining"], limit["max_concurrency"]) == (1000, 1000, 1)
        assert limit["reset_after"] > 0

        zero, _, _ = await identify_raw(http, emu, [0, 2])
        hasty = await http.ws_connect(emu.gateway_url)
        await receive(hasty)
        await hasty.send_json({"op": 2, "d": {"token": emu.token, "shard": [1, 2]}})
        assert await receive(hasty) == {"op": 9, "d": False}
        assert [(a.shard_id, a.accepted) for a in emu.gateway.identify_log] == [
            (0, True),
            (1, False),
        ]
        assert emu.gateway.identify_times(1) == [] and emu.gateway.connected_shards == {0}

        # With two buckets shard 1 has one of its own; shard 3 of 4 shares it.
        emu.gateway.max_concurrency = 2
        one, ready, _ = await identify_raw(http, emu, [1, 2])
        assert ready["shard"] == [1, 2] and emu.gateway.connected_shards == {0, 1}
        late = await http.ws_connect(emu.gateway_url)
        await receive(late)
        await late.send_json({"op": 2, "d": {"token": emu.token, "shard": [3, 4]}})
        assert await receive(late) == {"op": 9, "d": False}
        limit = (await gateway_bot())["session_start_limit"]
        assert (limit["remaining"], limit["max_concurrency"]) == (998, 2)

        for bad in ([2, 2], [0, 0], [-1, 2], [0]):
            wrong = await http.ws_connect(emu.gateway_url)
            await receive(wrong)
            await wrong.send_json({"op": 2, "d": {"token": emu.token, "shard": bad}})
            closed = await asyncio.wait_for(wrong.receive(), 5)
            assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, 4010), bad
        assert emu.gateway.identifies == 2
        for socket in (zero, one, hasty, late):
            await socket.close()


# ---------------------------------------------------------------------- sharded discord.py

SHARD_FRAME_LOG = "For Shard ID %s: WebSocket Event: %s"


class ShardFrames(logging.Handler):
    """The gateway frames discord.py received, with the shard whose websocket each came in
    on: discord.py's gateway logs every frame so, at DEBUG. That is the bot's own account of
    where an event arrived, independent of the emulator's routing."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.frames: list[tuple[int, dict[str, Any]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == SHARD_FRAME_LOG and isinstance(record.args, tuple):
            shard, frame = record.args
            self.frames.append((int(shard), dict(frame)))

    def events(self, shard: int, event: str) -> list[dict[str, Any]]:
        return [f["d"] for s, f in self.frames if s == shard and f.get("t") == event]

    def shards_of_interaction(self, interaction_id: int | None) -> list[int]:
        return [
            s
            for s, f in self.frames
            if f.get("t") == "INTERACTION_CREATE" and f["d"]["id"] == str(interaction_id)
        ]

    @classmethod
    @contextlib.contextmanager
    def watching(cls) -> Iterator[ShardFrames]:
        logger = logging.getLogger("discord.gateway")
        handler, level = cls(), logger.level
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
        try:
            yield handler
        finally:
            logger.removeHandler(handler)
            logger.setLevel(level)


IDENTIFY_MARGIN = 0.05  # seconds a paced bot adds, since Discord times IDENTIFYs on arrival


class ShardedBot(discord.AutoShardedClient):
    """A bot process running some shards of a sharded bot. /where answers with its name.

    Like a real sharded bot it spaces its IDENTIFYs the way GET /gateway/bot asks: one per
    identify interval in each bucket `shard_id % max_concurrency` (Discord's interval is five
    seconds; the emulator's is the one it is told). With `pace=False` it identifies each
    shard at once, as a bot that ignores the limit would.
    """

    def __init__(
        self,
        name: str,
        interval: float,
        *,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        pace: bool = True,
    ) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            shard_ids=shard_ids,
            shard_count=shard_count,
            guild_ready_timeout=0.05,
        )
        ready_when_guilds_arrive(self)  # each shard ready once its guilds have arrived
        self.name = name
        self.interval = interval
        self.pace = pace
        self.max_concurrency = 1
        self.bucket_opens: dict[int, float] = {}
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="where", description="Say which process answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(self.name)

    async def setup_hook(self) -> None:
        self.max_concurrency = (await self.fetch_session_start_limits()).max_concurrency
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not self.pace:
            return
        loop = asyncio.get_running_loop()
        bucket = (shard_id or 0) % self.max_concurrency
        wait = self.bucket_opens.get(bucket, 0.0) - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)  # the bot's own pacing, as discord.py's default does
        self.bucket_opens[bucket] = loop.time() + self.interval + IDENTIFY_MARGIN


@contextlib.asynccontextmanager
async def running(*bots: ShardedBot, token: str) -> AsyncIterator[None]:
    """Start the bots together (each logs in, syncs /where and connects its shards), wait
    until each has all its shards ready, and close them afterwards."""
    tasks: list[asyncio.Task[None]] = []
    try:
        for bot in bots:
            await bot.login(token)
            tasks.append(asyncio.create_task(bot.connect(reconnect=True)))
        await asyncio.wait_for(asyncio.gather(*(b.wait_until_ready() for b in bots)), 15)
        yield
    finally:
        for bot in bots:
            await bot.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)


async def test_a_sharded_bot_gets_each_guilds_events_on_that_guilds_shard(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    for shard in (0, 1, 1):
        emu.add_guild(f"club on {shard}", shard=(shard, 2))
    on_shard = {shard: emu.guilds_on_shard(shard, 2) for shard in (0, 1)}
    ada = emu.add_user("Ada")
    bot = ShardedBot("both shards", emu.gateway.identify_interval, shard_ids=[0, 1], shard_count=2)
    with ShardFrames.watching() as seen:
        async with running(bot, token=emu.token):
            assert emu.gateway.connected_shards == {0, 1}
            assert {g.id: g.shard_id for g in bot.guilds} == {g: shard_of(g, 2) for g in emu.guilds}
            for shard in (0, 1):
                (ready,) = seen.events(shard, "READY")
                assert ready["shard"] == [shard, 2]
                assert {int(g["id"]) for g in ready["guilds"]} == set(on_shard[shard])
                created = {int(g["id"]) for g in seen.events(shard, "GUILD_CREATE")}
                assert created == set(on_shard[shard])

            places = [
                (emu.default_channel(on_shard[1][-1]), 1),
                (emu.default_channel(on_shard[0][-1]), 0),
                (emu.dm_channel(ada.id), 0),
            ]
            for channel, shard in places:
                reply = await emu.slash(ada, "where", channel=channel)
                assert reply.texts == ["both shards"]
                assert seen.shards_of_interaction(reply[0].interaction_id) == [shard], channel


async def test_two_processes_with_a_shard_each_see_only_their_own_guilds(
    emulator: DiscordEmulator,
) -> None:
    """Two bot processes, as a sharded deployment runs them, sharing one emulated Discord.
    With max_concurrency 2 the shards are in different buckets and may identify together."""
    emu = emulator
    emu.gateway.max_concurrency = 2
    for shard in (0, 1, 1):
        emu.add_guild(f"club on {shard}", shard=(shard, 2))
    ada = emu.add_user("Ada")
    interval = emu.gateway.identify_interval
    first = ShardedBot("first", interval, shard_ids=[0], shard_count=2)
    second = ShardedBot("second", interval, shard_ids=[1], shard_count=2)
    async with running(first, second, token=emu.token):
        assert {g.id for g in first.guilds} == set(emu.guilds_on_shard(0, 2))
        assert {g.id for g in second.guilds} == set(emu.guilds_on_shard(1, 2))
        assert all(attempt.accepted for attempt in emu.gateway.identify_log)
        in_one = emu.default_channel(emu.guilds_on_shard(1, 2)[0])
        in_zero = emu.default_channel(emu.guilds_on_shard(0, 2)[0])
        for channel, answerer in (
            (in_one, "second"),
            (in_zero, "first"),
            (emu.dm_channel(ada.id), "first"),
        ):
            assert (await emu.slash(ada, "where", channel=channel)).texts == [answerer]

        # The second process loses its connection: it resumes its own session, the first
        # process is not disturbed, and shard 1's guilds are served again.
        session = emu.gateway.shards[(1, 2)].id
        await emu.gateway.drop(shard_id=1)
        await emu.wait_for(lambda: emu.gateway.resumes == 1, 10, message="shard 1 resumed")
        await emu.wait_for(lambda: emu.gateway.connected_shards == {0, 1}, 5)
        assert emu.gateway.shards[(1, 2)].id == session and emu.gateway.identifies == 2
        assert (await emu.slash(ada, "where", channel=in_one)).texts == ["second"]


@pytest.mark.parametrize("max_concurrency", [1, 2])
async def test_a_bot_spaces_identifies_within_a_bucket_only(
    emulator: DiscordEmulator, max_concurrency: int
) -> None:
    """Shards 0 and 1 share a bucket when max_concurrency is 1 and must identify an interval
    apart; with 2 they need not wait for each other. No IDENTIFY is refused either way."""
    emu = emulator
    emu.gateway.max_concurrency = max_concurrency
    emu.gateway.identify_interval = interval = 0.5
    bot = ShardedBot("paced", interval, shard_ids=[0, 1], shard_count=2)
    async with running(bot, token=emu.token):
        assert emu.gateway.connected_shards == {0, 1}
    assert all(attempt.accepted for attempt in emu.gateway.identify_log)
    (zero,), (one,) = emu.gateway.identify_times(0), emu.gateway.identify_times(1)
    if max_concurrency == 1:
        assert one >= zero + interval  # as the emulator admits it: `b - a` may round below
    else:
        assert one - zero < interval


async def test_an_identify_too_early_is_refused_and_the_bot_identifies_again(
    emulator: DiscordEmulator,
) -> None:
    """A bot that ignores max_concurrency gets Invalid Session for its hasty shard, and
    discord.py identifies that shard again until its bucket opens."""
    emu = emulator
    emu.gateway.identify_interval = interval = 0.3
    bot = ShardedBot("hasty", interval, shard_ids=[0, 1], shard_count=2, pace=False)
    async with running(bot, token=emu.token):
        assert emu.gateway.connected_shards == {0, 1}
    refused = [a for a in emu.gateway.identify_log if not a.accepted]
    assert refused and {a.shard_id for a in refused} == {1}
    (zero,), (one,) = emu.gateway.identify_times(0), emu.gateway.identify_times(1)
    assert one >= zero + interval  # as the emulator admits it: `b - a` may round below


async def test_a_bot_runs_as_many_shards_as_gateway_bot_recommends(
    emulator: DiscordEmulator,
) -> None:
    emu = emulator
    emu.gateway.recommended_shards = 3
    bot = ShardedBot("auto", emu.gateway.identify_interval)
    async with running(bot, token=emu.token):
        assert bot.shard_count == 3
        assert emu.gateway.connected_shards == {0, 1, 2}
        assert sorted(emu.gateway.shards) == [(0, 3), (1, 3), (2, 3)]


# ---------------------------------------------------------------------- hooks for clients


async def test_the_change_feed_tells_what_people_would_notice(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """Posts, edits, deletes, threads, command syncs, a person's language and chat: each one
    reaches a watcher at once, in order, with the message as it is (or was, once deleted)."""
    ada = emu.add_user("Ada")
    emu.allow_threads()
    messages = f"/api/v10/channels/{emu.channel.id}/messages"
    with emu.watch() as changes:
        _, sent = await post_message(http, emu, {"content": "first"})
        async with http.patch(f"{messages}/{sent['id']}", json={"content": "edited"}) as answer:
            assert answer.status == 200
        async with http.post(f"{messages}/{sent['id']}/threads", json={"name": "talk"}) as answer:
            assert answer.status == 201
        async with http.delete(f"{messages}/{sent['id']}") as answer:
            assert answer.status == 204
        commands = [{"name": "ping", "description": "Answer", "type": 1}]
        path = f"/api/v10/applications/{emu.application_id}/commands"
        async with http.put(path, json=commands) as answer:
            assert answer.status == 200
        emu.set_locale(ada, "fr")
        said = emu.say(ada, "hello all")
        seen = [changes.get_nowait() for _ in range(changes.qsize())]
    ident = int(sent["id"])
    assert [(c.kind, c.message.id if c.message else None) for c in seen] == [
        ("message", ident),
        ("message", ident),
        ("channel", None),
        ("delete", ident),
        ("commands", None),
        ("user", None),
        ("message", said.id),
    ]
    assert seen[2].channel_id == ident  # a thread started from a message takes its id
    assert seen[3].message is not None and seen[3].message.content == "edited"
    assert seen[5].user_id == ada.id
    assert (said.author, said.visibility.kind, said.channel_id) == (ada, "public", emu.channel.id)
    assert emu.message(said.id).content == "hello all"
    assert not emu.watchers  # leaving `watch` stops the feed
    with pytest.raises(EmulatorUsageError):
        emu.say(ada, "")
    with pytest.raises(EmulatorUsageError):
        emu.say(ada, "psst", channel=emu.dm_channel(emu.add_user("Bo").id))


async def test_installed_routes_are_served_on_the_chosen_port_apart_from_discords_routes() -> None:
    """A page installed next to the emulated Discord answers on the same port; its requests,
    even one that stays open, are not requests of the bot's that `settle` waits for."""
    async with DiscordEmulator() as first:
        port = first.port
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        entered.set()
        await release.wait()
        return web.Response(text="done")

    emu = DiscordEmulator()
    emu.route_installers.append(lambda app: app.router.add_get("/slow", slow))
    await emu.start(port=port)
    try:
        assert emu.port == port
        async with aiohttp.ClientSession() as session:
            pending = asyncio.create_task(session.get(f"{emu.base_url}/slow"))
            await entered.wait()
            assert emu.in_flight == 0
            await emu.settle(timeout=1)
            release.set()
            async with await pending as answer:
                assert (answer.status, await answer.text()) == (200, "done")
        assert not emu.unhandled
    finally:
        await emu.close()


async def test_an_interaction_remembers_the_command_it_ran() -> None:
    """What a client shows above a reply ("Ada used /look"): the command, for slash
    commands only."""
    async with DiscordEmulator() as emu, aiohttp.ClientSession() as session:
        bot = HandBot(emu, session)
        await bot.connect([{"name": "look", "description": "Look", "type": 1}])
        ada = emu.add_user("Ada")

        async def answer() -> None:
            interaction = await bot.next_interaction()
            body = {"type": 4, "data": {"content": "seen", "components": rows(1)}}
            await bot.send("POST", bot.callback(interaction), body)

        answering = asyncio.create_task(answer())
        (reply,) = await emu.slash(ada, "/look ")
        await answering
        assert emu.interactions[reply.interaction_id or 0].command == "look"
        answering = asyncio.create_task(answer())
        (clicked,) = await emu.click(ada, "b0-0", message=reply)
        await answering
        assert emu.interactions[clicked.interaction_id or 0].command is None


async def test_only_this_machines_bot_and_page_reach_discords_routes_and_files(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """A web site open in the same browser (a foreign Origin), a name rebound to 127.0.0.1 (a
    foreign Host), a guessed file address, and a token from another run are all refused, and
    nothing is sent meanwhile."""
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "secret", "attachments": [{"id": 0, "filename": "secret.png"}]}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png(), filename="secret.png")
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        url = (await answer.json())["attachments"][0]["url"]
    sent = len(emu.messages())

    rebound = {"Host": f"evil.example:{emu.port}"}
    foreign = {"Origin": "http://evil.example"}
    for headers in (rebound, foreign):
        body = {"content": "Ada's company is RED"}
        path = f"/api/v10/channels/{emu.channel.id}/messages"
        async with http.post(path, json=body, headers=headers) as answer:
            assert answer.status == 403, headers
        async with http.get(url, headers=headers) as answer:
            assert answer.status == 403, headers
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{emu.gateway_url}?v=10&encoding=json", headers=headers)
        assert refused.value.status == 403
    # A file's address is signed: its id alone, a wrong signature or another channel give
    # nothing, as if there were no such file.
    bare = url.split("?")[0]
    other = bare.replace(f"/attachments/{emu.channel.id}/", f"/attachments/{emu.channel.id + 1}/")
    for guessed in (bare, f"{bare}?hm=guess", f"{other}?{url.split('?')[1]}"):
        async with http.get(guessed) as answer:
            assert answer.status == 404, guessed
    async with http.get(url) as answer:
        assert answer.status == 200 and await answer.read() == png()
    # Each run has its own token: another run's, or the well-known one of old, opens nothing.
    async with DiscordEmulator() as second:
        assert second.token != emu.token and emu.token != "emulated.bot.token"
        for token in (second.token, "emulated.bot.token"):
            headers = {"Authorization": f"Bot {token}"}
            async with http.get("/api/v10/gateway/bot", headers=headers) as answer:
                assert answer.status == 401
    assert len(emu.messages()) == sent


async def test_members_roles_are_given_and_taken_as_discord_does(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    ada = emu.add_user("Ada")
    best = await emu.add_role("Best")
    path = f"/api/v10/guilds/{emu.guild_id}/members/{ada.id}/roles/{best.id}"
    async with http.put(path) as answer:  # without Manage Roles: refused, nothing given
        assert answer.status == 403 and (await answer.json())["code"] == 50013
    assert emu.roles_of(ada) == set()
    emu.allow_manage_roles()
    for _ in range(2):  # given twice: held once
        async with http.put(path) as answer:
            assert answer.status == 204 and await answer.read() == b""
    assert emu.roles_of(ada) == {best.id}
    assert emu.member_payload(ada)["roles"] == [str(best.id)], "seen in their interactions"
    async with http.delete(path) as answer:
        assert answer.status == 204
    assert emu.roles_of(ada) == set()
    unknown = {
        f"/api/v10/guilds/{emu.guild_id}/members/{ada.id}/roles/999": 10011,
        f"/api/v10/guilds/{emu.guild_id}/members/999/roles/{best.id}": 10007,
        f"/api/v10/guilds/999/members/{ada.id}/roles/{best.id}": 10004,
    }
    for wrong, code in unknown.items():
        async with http.put(wrong) as answer:
            assert answer.status == 404 and (await answer.json())["code"] == code
    emu.rejections.clear()  # refused on purpose here


async def test_thread_members_are_added_and_removed_as_discord_does(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """Add and Remove Thread Member answer 204 and change the thread's members (twice changes
    nothing); Discord's refusals: a channel that is no thread, an unknown user, an unknown
    channel, and a bot that may not send messages in threads."""
    ada = emu.add_user("Ada")
    emu.allow_threads()
    _, sent = await post_message(http, emu, {"content": "lobby"})
    messages = f"/api/v10/channels/{emu.channel.id}/messages"
    async with http.post(f"{messages}/{sent['id']}/threads", json={"name": "game"}) as answer:
        thread_id = int((await answer.json())["id"])
    member = f"/api/v10/channels/{thread_id}/thread-members/{ada.id}"
    for _ in range(2):
        async with http.put(member) as answer:
            assert answer.status == 204
    assert emu.channels[thread_id].members == {ada.id}
    assert [r.kind for r in emu.records if r.kind.startswith("thread_member")] == [
        "thread_member_add",
        "thread_member_add",
    ]
    async with http.delete(member) as answer:
        assert answer.status == 204
    assert emu.channels[thread_id].members == set()

    refusals = [
        (f"/api/v10/channels/{emu.channel.id}/thread-members/{ada.id}", 400, 50024),
        (f"/api/v10/channels/{thread_id}/thread-members/12345", 404, 10013),
        (f"/api/v10/channels/12345/thread-members/{ada.id}", 404, 10003),
    ]
    for path, status, code in refusals:
        async with http.put(path) as answer:
            assert (answer.status, (await answer.json())["code"]) == (status, code)
    emu.allow_threads(False)
    async with http.put(member) as answer:
        assert (answer.status, (await answer.json())["code"]) == (403, 50013)
    assert emu.channels[thread_id].members == set()
