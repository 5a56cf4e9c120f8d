"""Limits that protect a server's channels, on both databases: an unstarted lobby closes
itself after a day (once, whichever process finds it first), and one person may have at most
three open games of their own in a server."""

from __future__ import annotations

import asyncio
import random

import pytest
from moved_clock import MovedClock

from hvbot.services import BotError, GameService
from hvbot.store import GameStore
from hvbot.store.games import OPEN_CREATED_BY

GUILD = 1
NO_GAMES_CHANNEL = 999  # a channel no test here opens a game in
ADA, BO = 701, 702


async def two_services(url: str, clock: MovedClock) -> list[GameService]:
    return [
        GameService(await GameStore.open(url), seed_source=random.Random(k), clock=clock)
        for k in range(2)
    ]


async def test_an_unstarted_lobby_closes_after_a_day_once(database_url: str) -> None:
    clock = MovedClock()
    services = await two_services(database_url, clock)
    first = services[0]
    try:
        waiting = await first.lobby.new_lobby(
            channel_id=1, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
        )
        await first.lobby.new_lobby(
            channel_id=2, guild_id=GUILD, user_id=BO, name="Bo", game_name="pylons"
        )
        await first.lobby.add_ai(channel_id=2, user_id=BO, level="normal")
        await first.lobby.start(channel_id=2, user_id=BO, can_manage=False)
        clock.advance(hours=23, minutes=59)
        assert await first.lobby.close_expired() == []
        clock.advance(minutes=1)
        found = await asyncio.gather(*(s.lobby.close_expired() for s in services))
        (closed,) = [c for each in found for c in each]
        game, owed = closed.game, closed.owed
        assert game.id == waiting.id and game.status == "abandoned"
        assert [o.kind for o in owed if o.kind != "text"] == ["lobby"], "the lobby says so"
        assert [o.body["content"] for o in owed if o.kind == "text"] == [
            "⌛ This lobby waited 24 hours without starting, so it closed. /game new opens another."
        ]
        assert await first.lobby.close_expired() == []
        assert (await first.games.open_game(2)).status == "active", "a game in play stays"
    finally:
        for service in services:
            await service.close()


async def test_a_person_has_at_most_three_open_games_of_their_own(database_url: str) -> None:
    store = await GameStore.open(database_url)
    service = GameService(store, seed_source=random.Random(1), clock=MovedClock())
    try:
        for channel in (1, 2, 3):
            await service.lobby.new_lobby(
                channel_id=channel, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
            )
        with pytest.raises(BotError) as refused:
            await service.lobby.new_lobby(
                channel_id=4, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
            )
        assert refused.value.key == "bot.error.too_many_open"
        assert refused.value.fields == {"count": 3, "most": 3}
        # Another server, or another person, is not held back by them.
        await service.lobby.new_lobby(
            channel_id=5, guild_id=GUILD + 1, user_id=ADA, name="Ada", game_name="pylons"
        )
        await service.lobby.new_lobby(
            channel_id=4, guild_id=GUILD, user_id=BO, name="Bo", game_name="pylons"
        )
        await service.abandon.abandon(channel_id=1, user_id=ADA, can_manage=False)
        await service.lobby.new_lobby(
            channel_id=6, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
        )
    finally:
        await store.close()


async def test_a_burst_of_new_games_stops_at_the_limit(database_url: str) -> None:
    """Many /game new at once from one person, in different channels and through two
    services (as two processes would send them), leave exactly the limit open: the count is
    made where the lobby is made, in its transaction, not before it."""
    clock = MovedClock()
    services = await two_services(database_url, clock)
    try:
        tries = [
            services[channel % 2].lobby.new_lobby(
                channel_id=100 + channel,
                guild_id=GUILD,
                user_id=ADA,
                name="Ada",
                game_name="pylons",
            )
            for channel in range(10)
        ]
        outcomes = await asyncio.gather(*tries, return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        made = [o for o in outcomes if not isinstance(o, BaseException)]
        assert len(made) == 3, f"{len(made)} open games: {refused}"
        assert all(isinstance(r, BotError) for r in refused), refused
        assert {r.key for r in refused if isinstance(r, BotError)} == {"bot.error.too_many_open"}
        assert all(r.fields == {"count": 3, "most": 3} for r in refused if isinstance(r, BotError))
        count, _, _ = await services[0].games.store.room_for_lobby(
            guild_id=GUILD, user_id=ADA, channel_id=NO_GAMES_CHANNEL
        )
        assert count == 3
    finally:
        for service in services:
            await service.close()


async def test_counting_a_persons_open_games_reads_only_theirs(database_url: str) -> None:
    """/game new counts its creator's open games in the server through an index of their own
    (guild, creator, open games only): through the index of every open game, opening each of
    10,000 games read all the others, and opening them all cost n squared."""
    store = await GameStore.open(database_url)
    try:
        if store.db.backend == "sqlite":
            plan = await store.db.fetch(
                f"EXPLAIN QUERY PLAN {OPEN_CREATED_BY}",
                GUILD,
                ADA,
            )
            assert "games_open_by_creator" in " ".join(str(row[-1]) for row in plan), plan
        else:
            found = await store.db.fetch(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'games_open_by_creator'"
            )
            assert found, "the index is made on PostgreSQL too"
            assert "(guild_id, creator_id)" in found[0][0] and "status" in found[0][0]
    finally:
        await store.close()
