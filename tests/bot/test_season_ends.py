"""Seasons' ends, on both databases: found when the clock passes a season's end, recorded
once however many stores look at once, with their announcement and rank roles owed in the
outbox as a server's posts; past seasons read back as they were."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from moved_clock import MovedClock
from played_games import finished_pylons

from hvbot.services import GameService
from hvbot.services.seasons import season_named
from hvbot.services.server_settings import Change
from hvbot.store import GameStore
from hvbot.store.duties import LEASE

GUILD, LATE_GUILD = 5, 6
CHANNEL, SEASONS_CHANNEL, RANKS = 51, 52, 60
ADA, BO = 701, 702


async def test_a_season_ends_once_across_stores_and_stays_readable(database_url: str) -> None:
    clock = MovedClock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    stores = [await GameStore.open(database_url) for _ in range(2)]
    services = [GameService(store, clock=clock) for store in stores]
    try:
        one, two = services
        await one.server_settings.change(
            GUILD, Change(season="month", season_channel=SEASONS_CHANNEL, rank_role=RANKS)
        )
        game = await finished_pylons(
            one, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
        )
        assert game.status == "finished"

        clock.now = datetime(2026, 12, 1, tzinfo=UTC) - timedelta(seconds=1)
        assert await one.seasons.due() == [], "November's last second is still November"

        clock.now = datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC)
        # Seasons turned on in December: November was never theirs to announce.
        await two.server_settings.change(LATE_GUILD, Change(season="month"))
        found = await asyncio.gather(one.seasons.due(), two.seasons.due())
        ended = [change for changes in found for change in changes]
        assert len(ended) == 1, ended
        (end,) = ended
        assert end.guild_id == GUILD and end.season == season_named("2026-11")
        post, ranks = end.owed
        assert (post.kind, post.game_id, post.guild_id) == ("season", None, GUILD)
        assert post.body == {"label": "2026-11", "channel": SEASONS_CHANNEL, "language": None}
        assert (ranks.kind, ranks.body["role"], ranks.body["taken"]) == ("ranks", RANKS, [])
        assert sorted(ranks.body["given"]) == [ADA, BO]
        assert await one.seasons.due() == [] and await two.seasons.due() == []

        # Past seasons stay readable: its board, from the results finished inside it.
        (board,) = await two.seasons.boards(GUILD, end.season)
        assert board.game == "pylons" and board.summary.finished == 1
        assert set(board.summary.players) == {ADA, BO} and board.before is None
        assert await two.seasons.ended(GUILD) == ["2026-11"]
        december = season_named("2026-12")
        assert december is not None and await two.seasons.boards(GUILD, december) == []

        # What it owes is any process's to send once its lease runs out: a server's post.
        clock.advance(seconds=LEASE.total_seconds() + 1)
        claimed = []
        while batch := await stores[1].duties.claim_owed():  # the game's own posts come first
            claimed += [o for o in batch if o.game_id is None]
        assert [(o.kind, o.guild_id, o.game_id) for o in claimed] == [
            ("season", GUILD, None),
            ("ranks", GUILD, None),
        ]
        for owed in claimed:
            taken = await stores[1].duties.take(owed)
            assert taken is not None and await stores[1].duties.made(taken, fenced=True)

        # A season with no game: nobody earned the role, and November's holders lose it.
        clock.now = datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC)
        quiet, late = await one.seasons.due()  # by server; the late one's first season too
        assert quiet.season == december
        _, ranks = quiet.owed
        assert ranks.body["given"] == [] and sorted(ranks.body["taken"]) == [ADA, BO]
        assert await one.seasons.ended(GUILD) == ["2026-12", "2026-11"]
        assert late.guild_id == LATE_GUILD and late.owed == (), "no channel, no role: nothing owed"
    finally:
        for store in stores:
            await store.close()


async def test_turning_seasons_off_or_changing_their_length_starts_afresh(
    database_url: str,
) -> None:
    clock = MovedClock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    store = await GameStore.open(database_url)
    try:
        service = GameService(store, clock=clock)
        monthly = await service.server_settings.change(GUILD, Change(season="month"))
        assert monthly.season_length == "month" and monthly.season_since is not None
        clock.advance(days=20)  # into December: November ended
        quarterly = await service.server_settings.change(GUILD, Change(season="quarter"))
        assert quarterly.season_since != monthly.season_since, "a new length starts afresh"
        assert await service.seasons.due() == [], "Q3 ended before the quarters began"
        off = await service.server_settings.change(GUILD, Change(season="off"))
        assert (off.season_length, off.season_since) == (None, None)
        again = await service.server_settings.change(GUILD, Change(season="off"))
        assert again == off
    finally:
        await store.close()
