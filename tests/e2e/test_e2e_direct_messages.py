"""DMs reach people through channels the bot keeps by person: discord.py keeps only its latest
128 DM channels, and a bot with thousands of games DMs thousands of people."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness

from hvbot.aftermath import sending
from hvbot.messages.post import Post
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e


async def test_a_person_dmd_again_after_hundreds_of_others_is_sent_to_their_channel_at_once(
    hv: BotHarness, emulator: DiscordEmulator
) -> None:
    assert hv.bot is not None
    sender = hv.bot.aftermath.sender
    people = [emulator.add_user(f"Player {i}") for i in range(200)]
    for person in people:
        await sender.direct_message(person.id, Post(f"Your company, {person.name}"))
    opened = len(emulator.requests_to("POST", "/users/@me/channels"))
    assert opened == 200, "each person's DM channel is opened once"

    await sender.direct_message(people[0].id, Post("Your turn"))
    assert len(emulator.requests_to("POST", "/users/@me/channels")) == opened, (
        "the channel of the first person, 199 others DM'd since, is not asked for again"
    )
    dms = emulator.messages(visibility=Visibility.dm_to(people[0]))
    assert [dm.text for dm in dms] == ["Your company, Player 0", "Your turn"]


async def test_only_the_latest_people_dmd_have_their_channel_kept(
    hv: BotHarness, emulator: DiscordEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert hv.bot is not None
    sender = hv.bot.aftermath.sender
    monkeypatch.setattr(sending, "KEPT_DM_CHANNELS", 3)
    people = [emulator.add_user(f"Player {i}") for i in range(4)]
    for person in people:
        await sender.direct_message(person.id, Post("Hello"))
    assert list(sender.dm_channels) == [p.id for p in people[1:]], "the least lately DM'd goes"
