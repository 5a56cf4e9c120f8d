"""The Discord emulator on its own, spoken to over real HTTP and a real websocket: it must
refuse what Discord refuses, or the end-to-end tests could pass with a bot Discord rejects."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from discord_emulator import (
    DiscordEmulator,
    EmulatorUsageError,
    InteractionFailed,
    Visibility,
    locate_spec,
    rules,
    shard_of,
)
from discord_emulator.openapi import ENV_VAR
from PIL import Image

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


async def test_a_message_with_a_picture_is_recorded_with_the_decoded_image(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "the board", "attachments": [{"id": 0, "filename": "board.png"}]}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png((12, 7)), filename="board.png")
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        assert answer.status == 200
        message = await answer.json()
    assert message["attachments"][0]["filename"] == "board.png"
    assert (message["attachments"][0]["width"], message["attachments"][0]["height"]) == (12, 7)
    (record,) = emu.messages()
    assert record.kind == "channel_message" and record.visibility == Visibility.public()
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

    commands = [{"name": "x" * 33, "description": "too long a name", "type": 1}]
    async with http.put(f"/api/v10/applications/{emu.application_id}/commands", json=commands) as a:
        assert a.status == 400
        assert "name" in (await a.json())["errors"]["0"]


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
