"""Seasons through Discord: a server's owners choose monthly seasons, a channel and a rank
role; a game is finished; when the bot's clock passes the month's end, the channel gets the
final leaderboard once, as a card (a picture with its text twin), and the best players get
the role."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BotHarness, check_card
from moved_clock import MovedClock
from played_games import finished_pylons

from hvbot.services.seasons import season_at
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_season_ends_with_its_leaderboard_posted_once_and_its_roles_given(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    # Results are dated by the bot's clock as their game ends: the season is its month.
    clock = MovedClock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    month = season_at("month", clock())
    assert month is not None
    hv.bot.service.clock = clock
    seasons = emu.add_channel("seasons")
    champions = await emu.add_role("Champions")
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")

    (shown,) = await emu.slash(emu.owner, "server settings")
    assert shown.content.endswith("\nSeasons: off."), "no rank role without seasons"
    (saved,) = await emu.slash(
        emu.owner, "server settings", season="month", season_channel=seasons, rank_role=champions
    )
    assert saved.visibility == Visibility.ephemeral_to(emu.owner)
    assert f"Seasons: each calendar month (UTC); the current one is {month.label}." in saved.content
    assert f"announced in <#{seasons.id}>" in saved.content
    assert f"Rank role: <@&{champions.id}>, given at each season's end" in saved.content
    assert "I do not have the Manage Roles permission" in saved.content, "the bot lacks it"
    emu.allow_manage_roles()
    (again,) = await emu.slash(emu.owner, "server settings")
    assert "Manage Roles" not in again.content

    await finished_pylons(
        hv.bot.service,
        channel_id=emu.channel.id,
        guild_id=emu.guild_id,
        players=[(ada.id, "Ada"), (bo.id, "Bo")],
    )
    await emu.settle()
    clock.now = month.ends - timedelta(seconds=1)
    await hv.caught_up()
    assert emu.messages(channel=seasons) == [], "not before the month's end"

    clock.now = month.ends + timedelta(seconds=1)
    (post,) = await emu.wait_for(
        lambda: emu.messages(channel=seasons), 20, message="the season's end announced"
    )
    check_card(emu, post, pictures=1)
    assert post.text.startswith(f"🏆 **Season {month.label} is over.**"), post.text
    assert f"Pylons: season {month.label}" in post.text and "Ada" in post.text
    (picture,) = post.attachments
    assert picture.image is not None and picture.image.width > 100, "a decodable picture"
    assert picture.description and "Bo" in picture.description, "its alt text is the board"
    await emu.wait_for(
        lambda: champions.id in emu.roles_of(ada) and champions.id in emu.roles_of(bo),
        10,
        message="the rank role given",
    )

    await hv.caught_up(timeout=60)
    clock.advance(seconds=30)  # more checks pass, past the post's lease: nothing more is said
    await hv.caught_up(timeout=60)
    assert len(emu.messages(channel=seasons)) == 1
