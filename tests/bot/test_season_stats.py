"""/stats beside the seasons, on both databases: the seasons a server's games finished in,
offered latest first; a season named by its label read alone, counting only its own games as
its end does; names that are not seasons, seasons with no games and seasons turned off
refused with what would be legal."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from moved_clock import MovedClock
from played_games import finished_pylons

from hvbot.services import BotError, GameService
from hvbot.services.seasons import season_named
from hvbot.services.server_settings import Change
from hvbot.store import GameStore, SeatResult, SeatRow, changes

GUILD, QUIET_GUILD = 8, 9
CHANNEL = 81
ADA, BO, CY = 801, 802, 803


@pytest.fixture
async def service(database_url: str):
    store = await GameStore.open(database_url)
    yield GameService(store, clock=MovedClock(datetime(2026, 10, 15, 12, 0, tzinfo=UTC)))
    await store.close()


def _refusal(error: pytest.ExceptionInfo[BotError]) -> tuple[str | None, dict[str, object]]:
    return error.value.key, error.value.fields


async def test_seasons_with_games_are_offered_latest_first_and_each_is_read_alone(
    service: GameService,
) -> None:
    clock = service.clock
    assert isinstance(clock, MovedClock)
    seasons = service.season_stats
    await service.server_settings.change(GUILD, Change(season="month"))
    assert await seasons.played(GUILD) == []
    with pytest.raises(BotError) as nothing_yet:
        await seasons.named(GUILD, "2026-10")
    assert _refusal(nothing_yet) == (
        "bot.season_stats.empty_none",
        {"season": "2026-10", "seasons": ""},
    )

    await finished_pylons(
        service, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
    )
    clock.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    await finished_pylons(
        service, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (CY, "Cy")], seed=2
    )

    assert [s.label for s in await seasons.played(GUILD)] == ["2026-11", "2026-10"]
    assert await seasons.current(GUILD) == season_named("2026-11")
    october = await seasons.named(GUILD, " 2026-10 ")
    assert october == season_named("2026-10")
    (board,) = await seasons.boards(GUILD, october)
    assert board.summary.finished == 1 and set(board.summary.players) == {ADA, BO}
    assert board == (await service.seasons.boards(GUILD, october))[0], "as its end counts it"
    (november,) = await seasons.boards(GUILD, await seasons.named(GUILD, "2026-11"))
    assert set(november.summary.players) == {ADA, CY}, "October's game is not November's"
    assert november.before is not None and set(november.before.players) == {ADA, BO}
    assert await seasons.boards(GUILD, october, user_id=CY) == []
    assert await seasons.boards(GUILD, october, game="sector6") == []
    assert len(await seasons.boards(GUILD, october, user_id=BO, game="pylons")) == 1

    with pytest.raises(BotError) as empty:
        await seasons.named(GUILD, "2026-09")
    assert _refusal(empty) == (
        "bot.season_stats.empty",
        {"season": "2026-09", "seasons": "2026-11, 2026-10"},
    )
    for typed in ("2026-13", "2026-Q5", "autumn", "2026-1", ""):
        with pytest.raises(BotError) as unknown:
            await seasons.named(GUILD, typed)
        assert _refusal(unknown) == (
            "bot.season_stats.unknown",
            {"typed": typed, "example": "2026-11", "seasons": "2026-11, 2026-10"},
        ), typed

    # Quarters: both games are the fourth quarter's; a month of them still reads alone.
    await service.server_settings.change(GUILD, Change(season="quarter"))
    assert [s.label for s in await seasons.played(GUILD)] == ["2026-Q4"]
    (quarter,) = await seasons.boards(GUILD, await seasons.named(GUILD, "2026-q4"))
    assert quarter.summary.finished == 2 and set(quarter.summary.players) == {ADA, BO, CY}
    assert await seasons.named(GUILD, "2026-10") == october

    # Seasons off: nothing offered, and a season asked for says how to turn them on.
    await service.server_settings.change(GUILD, Change(season="off"))
    assert await seasons.played(GUILD) == [] and await seasons.current(GUILD) is None
    with pytest.raises(BotError) as off:
        await seasons.named(GUILD, "2026-10")
    assert off.value.key == "bot.season_stats.off"

    # Another server's games are not this one's.
    await service.server_settings.change(QUIET_GUILD, Change(season="month"))
    assert await seasons.played(QUIET_GUILD) == []
    with pytest.raises(BotError) as quiet:
        await seasons.named(QUIET_GUILD, "2026-11")
    assert quiet.value.key == "bot.season_stats.empty_none"


async def test_a_season_recorded_as_ended_stays_offered_after_the_length_changes(
    service: GameService,
) -> None:
    clock = service.clock
    assert isinstance(clock, MovedClock)
    clock.now = datetime(2026, 7, 2, tzinfo=UTC)  # the third quarter
    await service.server_settings.change(GUILD, Change(season="quarter"))
    await finished_pylons(
        service, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
    )
    clock.now = datetime(2026, 10, 1, 0, 0, 1, tzinfo=UTC)
    (end,) = await service.seasons.due()
    assert end.season.label == "2026-Q3"
    await service.server_settings.change(GUILD, Change(season="month"))
    labels = [s.label for s in await service.season_stats.played(GUILD)]
    assert labels == ["2026-Q3", "2026-07"], "the quarter that ended there, and its month"


async def test_a_seasons_boards_read_who_left_early_and_which_ai_held_a_seat(
    service: GameService,
) -> None:
    """The rows a season is read from are the rows all time is read from: a resigner ranks
    last and an AI level is rated in a season's board as in the all-time one."""
    store = service.repo
    await service.server_settings.change(GUILD, Change(season="month"))
    lobby = await store.create(
        changes.create_lobby(
            game="pylons",
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator_id=ADA,
            creator_name="Ada",
            options={},
            at=store.clock(),
        )
    )
    seats = (
        SeatRow(0, None, "easy", "Ada (resigned, AI plays)", resigned_user_id=ADA),
        SeatRow(1, BO, None, "Bo"),
        SeatRow(2, None, "hard", "AI 1"),
    )
    await store.write(
        changes.start(
            lobby.id, lobby.version, seed=1, state={"x": 0}, seats=seats, at=store.clock()
        )
    )
    await store.write(
        changes.record_actions(
            lobby.id,
            lobby.version + 1,
            state={"x": 1},
            actions=[(1, "a")],
            status="finished",
            results=[SeatResult(0, 9, True), SeatResult(1, 5, False), SeatResult(2, 7, False)],
            at=store.clock(),
        )
    )
    all_time = await store.results.of_kind(guild_id=GUILD, game="pylons")
    october = season_named("2026-10")
    assert october is not None
    (board,) = await service.season_stats.boards(GUILD, october)
    assert [(r.left_early, r.ai_level) for r in all_time] == [
        (True, "easy"),
        (False, None),
        (False, "hard"),
    ]
    (summary,) = await service.stats.of_game(guild_id=GUILD, game="pylons")
    assert list(board.summary.ais) == list(summary.ais) == ["hard"]
    assert [p.user_id for p in board.summary.top(2)] == [p.user_id for p in summary.top(2)]
    assert board.summary.players[ADA].rating == summary.players[ADA].rating
