"""A server's settings: the rules of a change (pure), kept on both databases and read back by
another store, and what they decide when a game is opened and when its lobby runs out."""

from __future__ import annotations

import random

import pytest
from moved_clock import MovedClock

from hvbot.services import BotError, GameService
from hvbot.services.server_settings import Change, apply, may_open, may_open_in
from hvbot.store import ChannelBusy, GameStore, ServerSettings, TurnClock, changes

GUILD = 5
CATEGORY, CHANNEL, OTHER = 50, 51, 52
HOSTS, REFEREES = 60, 61
ADA, BO = 701, 702


def test_places_are_added_and_taken_off_one_at_a_time() -> None:
    settings = apply(ServerSettings(), Change(allow=CATEGORY), guild_id=GUILD)
    settings = apply(settings, Change(allow=OTHER), guild_id=GUILD)
    assert settings.game_places == (CATEGORY, OTHER)
    assert apply(settings, Change(allow=OTHER), guild_id=GUILD) == settings, "listed once"
    assert apply(settings, Change(disallow=OTHER), guild_id=GUILD).game_places == (CATEGORY,)
    assert apply(settings, Change(forget="places"), guild_id=GUILD).game_places == ()
    # A channel in the category, and a thread of it, are inside; another channel is not.
    one = apply(ServerSettings(), Change(allow=CATEGORY), guild_id=GUILD)
    assert may_open_in(one, (CHANNEL, CATEGORY))
    assert may_open_in(one, (999, CHANNEL, CATEGORY))
    assert not may_open_in(one, (OTHER,))
    assert may_open_in(ServerSettings(), (OTHER,)), "no list: anywhere"


def test_roles_everyone_and_what_is_refused() -> None:
    settings = apply(
        ServerSettings(), Change(opener_role=HOSTS, moderator_role=REFEREES), guild_id=GUILD
    )
    assert may_open(settings, {HOSTS}, moderator=False)
    assert not may_open(settings, {REFEREES}, moderator=False)
    assert may_open(settings, set(), moderator=True), "moderators may always"
    # The server's own id is its @everyone role.
    assert apply(settings, Change(opener_role=GUILD), guild_id=GUILD).opener_role is None
    with pytest.raises(BotError) as refused:
        apply(settings, Change(moderator_role=GUILD), guild_id=GUILD)
    assert refused.value.key == "bot.error.settings_everyone_moderates"
    for change, key in (
        (Change(most_open=0), "bot.error.settings_most_open"),
        (Change(lobby_hours=169), "bot.error.settings_lobby_hours"),
        (Change(reminder=-1), "bot.error.remind_range"),
        (Change(absent=10_000), "bot.error.absent_range"),
    ):
        with pytest.raises(BotError) as refused:
            apply(settings, change, guild_id=GUILD)
        assert refused.value.key == key
    # A clock of no minutes is no clock.
    clocked = apply(settings, Change(clock=TurnClock(60, "end")), guild_id=GUILD)
    assert clocked.clock == TurnClock(60, "end")
    assert apply(clocked, Change(clock=TurnClock(0)), guild_id=GUILD).clock is None
    assert apply(clocked, Change(forget="clock"), guild_id=GUILD).clock is None


async def test_settings_are_kept_and_read_back_by_another_store(database_url: str) -> None:
    stores = [await GameStore.open(database_url) for _ in range(2)]
    try:
        assert await stores[0].server_settings.of(GUILD) == ServerSettings()
        service = GameService(stores[0], clock=MovedClock())
        change = Change(
            allow=CATEGORY,
            opener_role=HOSTS,
            moderator_role=REFEREES,
            language="it",
            reminder=0,
            absent=48,
            clock=TurnClock(480, "ai_seat"),
            most_open=5,
            lobby_hours=6,
        )
        saved = await service.server_settings.change(GUILD, change)
        assert (
            await stores[1].server_settings.of(GUILD)
            == saved
            == ServerSettings(
                game_places=(CATEGORY,),
                opener_role=HOSTS,
                moderator_role=REFEREES,
                language="it",
                remind_minutes=0,
                absent_hours=48,
                clock=TurnClock(480, "ai_seat"),
                most_open=5,
                lobby_hours=6,
            )
        )
        assert await stores[1].server_settings.of(GUILD + 1) == ServerSettings(), "per server"
        # A refused change stores nothing.
        with pytest.raises(BotError):
            await service.server_settings.change(GUILD, Change(language="de", most_open=99))
        fresh = await GameStore.open(database_url)
        try:
            assert (await fresh.server_settings.of(GUILD)).language == "it"
        finally:
            await fresh.close()
    finally:
        for store in stores:
            await store.close()


async def test_a_game_opened_under_the_settings(database_url: str) -> None:
    clock = MovedClock()
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(1), clock=clock
    )
    try:
        await service.server_settings.change(
            GUILD,
            Change(
                allow=CATEGORY,
                opener_role=HOSTS,
                language="fr",
                reminder=15,
                clock=TurnClock(60),
                lobby_hours=3,
            ),
        )

        def new(channel: int, user: int, **kw: object):  # type: ignore[no-untyped-def]
            return service.lobby.new_lobby(
                channel_id=channel,
                guild_id=GUILD,
                user_id=user,
                name="Ada",
                game_name="pylons",
                places=(channel, CATEGORY) if channel == CHANNEL else (channel,),
                **kw,
            )

        with pytest.raises(BotError) as refused:
            await new(OTHER, ADA, roles=frozenset({HOSTS}))
        assert refused.value.key == "bot.error.not_a_game_place"
        assert refused.value.fields["places"] == f"<#{CATEGORY}>"
        with pytest.raises(BotError) as refused:
            await new(CHANNEL, BO)
        assert refused.value.key == "bot.error.opener_role"
        game = await new(CHANNEL, ADA, roles=frozenset({HOSTS}))
        assert game.language == "fr" and game.remind_minutes == 15
        assert game.clock == TurnClock(60) and game.absent_hours == 24
        # The lobby lives the server's three hours, and says so as it closes.
        clock.advance(hours=2, minutes=59)
        assert await service.lobby.close_expired() == []
        clock.advance(minutes=1)
        (change,) = await service.lobby.close_expired()
        closed, owed = change.game, change.owed
        assert closed.id == game.id and closed.status == "abandoned"
        assert "3 heures" in owed[0].body["content"]
    finally:
        await service.close()


async def test_games_in_threads_leave_their_channel_free(database_url: str) -> None:
    """The database keeps one open game per channel outside threads; a game played in a
    thread is its thread's, and the channel may open another, up to the server's number."""
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(2), clock=MovedClock()
    )
    store = service.repo
    try:
        await service.server_settings.change(GUILD, Change(games_per_channel=2))

        def new(user: int):  # type: ignore[no-untyped-def]
            return service.lobby.new_lobby(
                channel_id=CHANNEL,
                guild_id=GUILD,
                user_id=user,
                name="Ada",
                game_name="pylons",
                wants_thread=True,
            )

        first = await new(ADA)
        with pytest.raises(BotError) as refused:
            await new(BO)
        assert refused.value.key == "bot.error.busy", "one lobby at a time"
        await store.set_thread(game_id=first.id, thread_id=9001)
        second = await new(BO)
        await store.set_thread(game_id=second.id, thread_id=9002)
        in_threads = await store.games_in_threads(channel_id=CHANNEL)
        assert [(g.id, g.thread_id) for g in in_threads] == [(first.id, 9001), (second.id, 9002)]
        with pytest.raises(BotError) as refused:
            await new(ADA + 5)
        assert refused.value.key == "bot.error.channel_full"
        # Each thread finds its own game; the channel, with two, finds neither.
        assert (await service.games.open_game(9001)).id == first.id
        assert (await service.games.open_game(9002)).id == second.id
        with pytest.raises(BotError) as refused:
            await service.games.open_game(CHANNEL)
        assert refused.value.key == "bot.error.games_in_threads"
        # Typed there by a player, it means the one game they sit at.
        assert (await service.games.open_game(CHANNEL, ADA)).id == first.id
        assert (await service.games.open_game(CHANNEL, BO)).id == second.id
        # The database itself refuses a second open game outside threads.
        third = await store.create(
            changes.create_lobby(
                game="pylons",
                guild_id=GUILD,
                channel_id=CHANNEL,
                creator_id=ADA + 6,
                creator_name="Di",
                options={},
                at=store.clock(),
            )
        )
        with pytest.raises(ChannelBusy):
            await store.create(
                changes.create_lobby(
                    game="pylons",
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    creator_id=ADA + 7,
                    creator_name="Ed",
                    options={},
                    at=store.clock(),
                )
            )
        assert (await service.games.open_game(CHANNEL)).id == third.id
        assert (await service.games.open_game(CHANNEL, ADA + 6)).id == third.id
        assert (await service.games.open_game(CHANNEL, ADA)).id == first.id, "theirs first"
    finally:
        await service.close()
