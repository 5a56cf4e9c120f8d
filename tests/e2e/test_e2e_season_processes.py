"""A season's end with two real bot processes sharing a real PostgreSQL: both see the month
end at their first check, one records it and posts its leaderboard, and is killed with the
post on its way; the other takes the post over once its lease runs out. The season channel
reads the leaderboard exactly once."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bot_processes import bot_processes
from conftest import new_postgres_database
from played_games import finished_pylons
from postgres_server import PostgresServer

from hvbot.services import GameService
from hvbot.services.seasons import season_at
from hvbot.store import GameStore
from hvbot.store.sql import statement
from sandbox.emulator import DiscordEmulator

pytestmark = [pytest.mark.e2e, pytest.mark.processes]

LEASE_S = 4.0
CHANNEL_POSTS = "POST /channels/{channel_id}/messages"
ENDED = re.compile(r"INFO hvbot\.services\.season_ends: server \d+: season (\S+) ended")


async def test_a_season_ends_with_its_leaderboard_posted_once_with_two_processes(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    url = await new_postgres_database(postgres)
    seasons = emu.add_channel("seasons")
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    # Last month: seasons on since long before, and a game finished in it.
    last = season_at("month", datetime.now(UTC))
    assert last is not None
    last = last.before()
    store = await GameStore.open(url)
    try:
        # The game is played on a clock two days into last month: it ended then.
        service = GameService(store, clock=lambda: last.starts + timedelta(days=2))
        await finished_pylons(
            service,
            channel_id=emu.channel.id,
            guild_id=emu.guild_id,
            players=[(ada.id, "Ada"), (bo.id, "Bo")],
        )
        await store.db.transact(statement("UPDATE announcements SET sent_at = created_at"))
        settings = await store.server_settings.of(emu.guild_id)
        await store.server_settings.set(
            emu.guild_id,
            replace(
                settings,
                season_length="month",
                season_since="2000-01-01T00:00:00.000+00:00",
                season_channel=seasons.id,
            ),
        )
    finally:
        await store.close()

    on_its_way = emu.faults.hold(CHANNEL_POSTS, says=f"Season {last.label} is over.")
    async with bot_processes(emu, tmp_path, url, 2, lease_s=LEASE_S) as processes:
        await emu.wait_for(lambda: on_its_way.held == 1, 30, message="the post on its way")
        (teller,) = [p for p in processes if ENDED.search(p.logged())]
        said = ENDED.search(teller.logged())
        assert said is not None and said[1] == last.label
        teller.kill()
        await teller.process.wait()
        on_its_way.release()  # the connection it came on is gone: Discord never sees it

        (post,) = await emu.wait_for(
            lambda: emu.messages(channel=seasons), 30, message="the other process posts it"
        )
        assert "Pylons" in post.text and "Ada" in post.text and post.layout
        (picture,) = post.attachments
        assert picture.image is not None
        reader = await GameStore.open(url)
        try:

            async def all_sent() -> bool:
                owed = await reader.db.fetchval(
                    "SELECT COUNT(*) FROM announcements WHERE kind = 'season' AND sent_at IS NULL"
                )
                return owed == 0

            await emu.wait_for(all_sent, 30, message="the post marked made")
            ended = await reader.seasons.ended(emu.guild_id)
        finally:
            await reader.close()
        assert [one.label for one in ended] == [last.label]
        assert len(emu.messages(channel=seasons)) == 1
        emu.faults.clear()
