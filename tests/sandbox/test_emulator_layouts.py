"""Components V2 in the emulated Discord: a message with the IS_COMPONENTS_V2 flag laid out with
containers, sections, text, galleries and separators, sent by the real discord.py
(`ui.LayoutView`) and, where discord.py refuses before sending, by hand over HTTP.

The emulator must refuse what Discord refuses (with Discord's error shape and codes), accept a
valid card, return it as Discord returns it, and let a button anywhere in the layout reach the
bot, or the bot's cards could pass here and fail on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from conftest import running_emulator
from e2e_harness import ready_when_guilds_arrive
from layout_cards import ALT, ORANGE, Card, board_file

from sandbox.emulator import DiscordEmulator, Record
from sandbox.emulator.models import IS_COMPONENTS_V2
from sandbox.web.views import message_json

pytestmark = pytest.mark.e2e  # the emulated Discord that the end-to-end tests stand on


class CardBot(discord.Client):
    """A bare discord.py bot, connected to the emulator's gateway."""

    def __init__(self) -> None:
        # Ready once READY's guild has arrived, as the harness's bots are: discord.py would
        # wait `guild_ready_timeout` after it for more, at every test's start.
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        ready_when_guilds_arrive(self)


@contextlib.asynccontextmanager
async def connected(emu: DiscordEmulator) -> AsyncIterator[CardBot]:
    bot = CardBot()
    await bot.login(emu.token)
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with running_emulator() as emulator:
        yield emulator


@pytest.fixture
async def bot(emu: DiscordEmulator) -> AsyncIterator[CardBot]:
    async with connected(emu) as client:
        yield client


@pytest.fixture
async def http(emu: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(base_url=emu.base_url, headers=headers) as session:
        yield session


async def channel_of(bot: CardBot, emu: DiscordEmulator) -> discord.TextChannel:
    channel = await bot.fetch_channel(emu.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def last_record(emu: DiscordEmulator) -> Record:
    return emu.records[-1]


def _error_codes(tree: dict[str, Any]) -> list[str]:
    found = [e["code"] for e in tree.get("_errors", [])]
    for key, value in tree.items():
        if key != "_errors" and isinstance(value, dict):
            found += _error_codes(value)
    return found


def field_errors(emu: DiscordEmulator) -> list[str]:
    """The field error codes of the emulator's last refusal, which it keeps."""
    return _error_codes(emu.rejections[-1].body.get("errors") or {})


# ---------------------------------------------------------------------- a valid card


async def test_a_card_is_accepted_and_read_back_as_discord_returns_it(
    emu: DiscordEmulator, bot: CardBot, http: aiohttp.ClientSession
) -> None:
    channel = await channel_of(bot, emu)
    sent = await channel.send(view=Card(), file=board_file())
    assert sent.flags.components_v2
    record = last_record(emu)
    assert record.kind == "channel_message" and record.content == ""
    assert "Ada to move" in record.text and "## Pylons" in record.text
    assert record.custom_ids == ["card:pass", "card:rotate"]

    # discord.py reads the card back as the layout it sent.
    fetched = await channel.fetch_message(sent.id)
    (container,) = fetched.components
    assert isinstance(container, discord.components.Container)
    assert container.accent_colour == discord.Colour(ORANGE)
    gallery = next(c for c in container.children if isinstance(c, discord.MediaGalleryComponent))
    (item,) = gallery.items
    assert item.description == ALT
    (attachment,) = fetched.attachments
    assert item.media.url == attachment.url
    assert (item.media.width, item.media.height) == (12, 8)

    # And the raw answer is Discord's: every component numbered, depth first, defaults filled.
    async with http.get(f"/api/v10/channels/{emu.channel.id}/messages/{sent.id}") as answer:
        data = await answer.json()
    assert data["flags"] & IS_COMPONENTS_V2
    top = data["components"][0]
    assert (top["type"], top["id"], top["spoiler"]) == (17, 1, False)
    assert [c["id"] for c in top["components"]] == [2, 3, 6, 7, 8]
    section = top["components"][1]
    assert section["accessory"]["custom_id"] == "card:pass" and section["accessory"]["id"] == 5
    media = top["components"][3]["items"][0]["media"]
    assert media["url"] == attachment.url and media["attachment_id"] == str(attachment.id)


async def test_the_page_is_given_a_card_with_its_pictures_at_their_addresses(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    sent = await channel.send(view=Card(), file=board_file())
    drawn = message_json(emu, emu.message(sent.id))
    assert drawn["layout"] is True and drawn["content"] == ""
    (item,) = drawn["components"][0]["components"][3]["items"]
    (picture,) = drawn["attachments"]
    assert item["media"]["url"] == picture["url"] and picture["url"].startswith("/attachments/")
    assert item["description"] == ALT
    plain = await channel.send("Ada to move")
    assert message_json(emu, emu.message(plain.id))["layout"] is False


async def test_buttons_inside_a_container_and_a_section_reach_the_bot(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    cards = [Card()]
    sent = await channel.send(view=cards[0], file=board_file())
    ada = emu.add_user("Ada")
    for custom_id in ("card:pass", "card:rotate"):

        async def answer(expected: str) -> None:
            # The card now on the message answers: each edit puts a new one in its place.
            pressed, interaction = await cards[-1].pressed.get()
            assert pressed == expected
            cards.append(Card(turn=f"{expected} pressed"))
            await interaction.response.edit_message(view=cards[-1])

        answering = asyncio.create_task(answer(custom_id))
        reply = await emu.click(ada, custom_id, message=sent.id)
        await answering
        (update,) = reply
        assert update.kind == "update" and f"{custom_id} pressed" in update.text
    # The edit kept the picture: the card still shows the file it was sent with.
    assert [a.filename for a in emu.message(sent.id).attachments] == ["board.png"]


async def test_a_card_with_a_new_picture_follows_a_deferral_once_its_thinking_is_settled(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    """The follow-up that replaces a deferral's "thinking…" edits it, and Discord's open bug
    (discord-api-docs #7529) refuses a new upload edited into a gallery: a card with a new
    picture is refused there, and is accepted as a follow-up of its own once the thinking
    is settled (edited into words)."""
    channel = await channel_of(bot, emu)
    sent = await channel.send(view=Card(), file=board_file())
    ada = emu.add_user("Ada")
    refused: list[discord.HTTPException] = []

    async def answer(card: Card) -> None:
        _, interaction = await card.pressed.get()
        await interaction.response.defer(ephemeral=True, thinking=True)
        new_card = Card(turn="Your card")
        try:
            await interaction.followup.send(view=new_card, file=board_file(), ephemeral=True)
        except discord.HTTPException as exc:
            refused.append(exc)
        words = discord.ui.LayoutView()
        words.add_item(discord.ui.Container(discord.ui.TextDisplay("Drawn")))
        await interaction.edit_original_response(view=words)
        await interaction.followup.send(
            view=Card(turn="Your card"), file=board_file(), ephemeral=True
        )

    card = Card()
    bot._connection.store_view(card, sent.id)  # the card answers for the message it was sent as
    answering = asyncio.create_task(answer(card))
    reply = await emu.click(ada, "card:pass", message=sent.id)
    await answering
    (error,) = refused
    assert (error.status, error.code) == (400, 50035)
    assert field_errors(emu) == ["UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND"]
    emu.rejections.clear()
    assert [r.kind for r in reply] == ["deferred", "edit_original", "followup"]
    assert "Drawn" in reply[1].text
    assert "Your card" in reply[-1].text and reply[-1].visibility.kind == "ephemeral"
    assert reply[-1].message_id != reply[0].message_id, "a message of its own"
    assert emu.message(reply[-1].message_id or 0).is_layout


async def test_a_new_picture_cannot_be_edited_into_a_card_but_its_own_can_stay(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    """Discord's open bug (discord-api-docs #7529): an edit whose gallery shows a file
    uploaded with it is refused, the attachment "not found"; an edit that shows the file the
    card already has is accepted."""
    channel = await channel_of(bot, emu)
    sent = await channel.send(view=Card(), file=board_file())
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(
            view=Card(turn="Bo to move", picture="attachment://next.png"),
            attachments=[board_file("next.png")],
        )
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field_errors(emu) == ["UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND"]
    emu.rejections.clear()
    await sent.edit(view=Card(turn="Bo to move"))
    assert "Bo to move" in emu.message(sent.id).text
    assert [a.filename for a in emu.message(sent.id).attachments] == ["board.png"]


async def test_a_hold_on_what_a_message_says_reads_a_cards_text(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    """A test that holds "the post that says X" finds X in a card's Text Displays, as it
    finds it in a plain message's content."""
    channel = await channel_of(bot, emu)
    hold = emu.faults.hold("POST /channels/{channel_id}/messages", says="Ada to move")
    sending = asyncio.create_task(channel.send(view=Card(), file=board_file()))
    await emu.wait_for(lambda: hold.held == 1, 10, message="the card held")
    assert not sending.done()
    hold.release()
    assert (await sending).flags.components_v2


async def test_a_mention_in_a_cards_text_pings_as_its_allowed_mentions_allow(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    """A Text Display's mentions notify as a message's content does, by its
    `allowed_mentions` (Component Reference > Text Display): a card naming a person pings
    them when users are allowed, and nobody when none are."""
    channel = await channel_of(bot, emu)
    ada = emu.add_user("Ada")

    def naming() -> discord.ui.LayoutView:
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.Container(discord.ui.TextDisplay(f"<@{ada.id}> to move")))
        return view

    users = discord.AllowedMentions(everyone=False, roles=False, users=True)
    await channel.send(view=naming(), allowed_mentions=users)
    assert last_record(emu).pings == {str(ada.id)}
    await channel.send(view=naming(), allowed_mentions=discord.AllowedMentions.none())
    assert last_record(emu).pings == frozenset()


# ---------------------------------------------------------------------- refused through discord.py


async def test_a_gallery_picture_that_is_not_among_the_files_is_refused(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=Card(picture="attachment://missing.png"), file=board_file())
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field_errors(emu) == ["UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND"]
    path = emu.rejections[-1].body["errors"]["components"]["0"]["components"]["3"]
    assert "items" in path
    emu.rejections.clear()


async def test_more_than_4000_characters_of_text_are_refused(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=Card(texts=("x" * 2000, "y" * 2000)), file=board_file())
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field_errors(emu) == ["BASE_TYPE_MAX_LENGTH"]
    emu.rejections.clear()
    # Exactly at the limit, counting every Text Display, it is a valid card.
    used = len("## Pylons") + len("Ada to move")
    await channel.send(view=Card(texts=("x" * 2000, "y" * (2000 - used))), file=board_file())


async def test_alt_text_longer_than_1024_characters_is_refused(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=Card(alt="a" * 1025), file=board_file())
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert set(field_errors(emu)) == {"BASE_TYPE_MAX_LENGTH"}
    emu.rejections.clear()
    await channel.send(view=Card(alt="a" * 1024), file=board_file())


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"content": "Ada to move"}, "content"),
        ({"embed": discord.Embed(title="Pylons")}, "embeds"),
    ],
)
async def test_a_card_cannot_carry_content_or_embeds(
    emu: DiscordEmulator, bot: CardBot, extra: dict[str, Any], field: str
) -> None:
    """discord.py sends these beside a layout; Discord refuses the whole message."""
    channel = await channel_of(bot, emu)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=Card(), file=board_file(), **extra)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    errors = emu.rejections[-1].body["errors"]
    assert [e["code"] for e in errors[field]["_errors"]] == [
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    ]
    emu.rejections.clear()
    assert not emu.messages_by_id


async def test_an_edit_cannot_give_a_card_content(emu: DiscordEmulator, bot: CardBot) -> None:
    channel = await channel_of(bot, emu)
    sent = await channel.send(view=Card(), file=board_file())
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(content="Ada to move")
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field_errors(emu) == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    emu.rejections.clear()
    assert emu.message(sent.id).content == ""


async def test_a_plain_message_becomes_a_card_only_once_its_text_is_cleared(
    emu: DiscordEmulator, bot: CardBot
) -> None:
    channel = await channel_of(bot, emu)
    sent = await channel.send("Ada to move", file=board_file())
    with pytest.raises(discord.HTTPException):
        await sent.edit(view=Card())
    assert field_errors(emu) == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    emu.rejections.clear()
    edited = await sent.edit(content=None, view=Card())
    assert edited.flags.components_v2 and emu.message(sent.id).is_layout


# ---------------------------------------------------------------------- refused over HTTP


def text(content: str = "Ada to move") -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str = "go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def gallery(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 12, "items": list(items)}


def picture(url: str = "https://example.com/board.png", **extra: Any) -> dict[str, Any]:
    return {"media": {"url": url}, **extra}


def container(*children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **extra}


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": IS_COMPONENTS_V2, "components": list(components), **extra}


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        (
            v2(text(), content="hi"),
            ("content",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            v2(text(), embeds=[{"title": "board"}]),
            ("embeds",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            v2(
                text(),
                poll={
                    "question": {"text": "Rematch?"},
                    "answers": [{"poll_media": {"text": "Yes"}}],
                },
            ),
            ("poll",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            # Two containers of 20 texts each: 42 components, though only 2 at the top.
            v2(*(container(*(text(f"line {n}") for n in range(20))) for _ in range(2))),
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
        ),
        (
            # 1 container + 13 sections of a text and a button each = 40: one more text is 41.
            v2(
                container(
                    *(
                        {"type": 9, "components": [text()], "accessory": button(f"b{n}")}
                        for n in range(13)
                    ),
                    text("one too many"),
                )
            ),
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
        ),
        (v2(gallery()), ("components", "0", "items"), "BASE_TYPE_BAD_LENGTH"),
        (
            v2(gallery(*(picture() for _ in range(11)))),
            ("components", "0", "items"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            v2(gallery(picture(description="d" * 1025))),
            ("components", "0", "items", "0", "description"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            v2(gallery(picture("board.png"))),
            ("components", "0", "items", "0", "media", "url"),
            "URL_TYPE_INVALID_URL",
        ),
        (
            v2({"type": 13, "file": {"url": "https://example.com/rules.pdf"}}),
            ("components", "0", "file", "url"),
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_REFERENCE_REQUIRED",
        ),
        (
            v2(container(container(text()))),
            ("components", "0", "components", "0", "type"),
            "BASE_TYPE_CHOICES",
        ),
        (
            v2({"type": 9, "components": [text(), text(), text(), text()], "accessory": button()}),
            ("components", "0", "components"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            v2({"type": 9, "components": [text()]}),
            ("components", "0", "accessory"),
            "BASE_TYPE_REQUIRED",
        ),
        (
            v2(container(text(), accent_color=0x1000000)),
            ("components", "0", "accent_color"),
            "NUMBER_TYPE_MAX",
        ),
        (
            v2(
                container({"type": 1, "components": [button("same")]}),
                {"type": 9, "components": [text()], "accessory": button("same")},
            ),
            ("components", "1", "accessory", "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            {"components": [container(text())]},
            ("components", "0", "type"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
    ],
)
async def test_layouts_discord_refuses_are_invalid_form_bodies(
    emu: DiscordEmulator,
    http: aiohttp.ClientSession,
    body: dict[str, Any],
    path: tuple[str, ...],
    code: str,
) -> None:
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", json=body) as answer:
        status, data = answer.status, await answer.json()
    assert (status, data["code"]) == (400, 50035), data
    node = data["errors"]
    for key in path:
        assert key in node, (path, data["errors"])
        node = node[key]
    assert code in [e["code"] for e in node["_errors"]], data["errors"]
    emu.rejections.clear()


async def test_a_valid_layout_of_every_kind_is_accepted_over_http(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    body = v2(
        container(
            text("## Sector 6"),
            {
                "type": 9,
                "components": [text("Bruno to move")],
                "accessory": {
                    "type": 11,
                    "media": {"url": "https://example.com/b.png"},
                    "description": "Bruno",
                },
            },
            {"type": 14, "divider": True, "spacing": 2},
            gallery(*(picture(description=f"view {n}") for n in range(10))),
            {"type": 13, "file": {"url": "attachment://rules.txt"}},
            {"type": 1, "components": [button("a"), button("b")]},
            accent_color=0x3498DB,
        ),
        {"type": 10, "content": "Below the card"},
        attachments=[{"id": 0, "filename": "rules.txt"}],
    )
    form = aiohttp.FormData()
    form.add_field("payload_json", __import__("json").dumps(body), content_type="application/json")
    form.add_field("files[0]", b"Rules", filename="rules.txt")
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", data=form) as answer:
        assert answer.status == 200, await answer.text()
        data = await answer.json()
    card = data["components"][0]["components"]
    assert card[4]["name"] == "rules.txt" and card[4]["size"] == 5
    assert card[2] == {"type": 14, "divider": True, "spacing": 2, "id": card[2]["id"]}
    assert emu.records[-1].custom_ids == ["a", "b"]


async def test_the_flag_cannot_be_removed_by_an_edit(
    emu: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    async with http.post(f"/api/v10/channels/{emu.channel.id}/messages", json=v2(text())) as sent:
        message = await sent.json()
    where = f"/api/v10/channels/{emu.channel.id}/messages/{message['id']}"
    async with http.patch(where, json={"flags": 0, "components": [text("plain")]}) as answer:
        data = await answer.json()
    assert (answer.status, data["code"]) == (400, 50035)
    assert (
        data["errors"]["flags"]["_errors"][0]["code"] == "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"
    )
    emu.rejections.clear()
    # An edit that does not name the flags keeps it: a layout edit stays a layout.
    async with http.patch(where, json={"components": [text("still a card")]}) as answer:
        assert answer.status == 200
        assert (await answer.json())["flags"] & IS_COMPONENTS_V2
