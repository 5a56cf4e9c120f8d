"""Time away on both databases: /me away stops the clock and reminders of a person's turn (the
time they had left is what they find when back), a turn that comes to them while away waits
for their return, /me back lets it run again, the others cannot vote them out meanwhile, and
nobody is away more than 30 days in any 90."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from moved_clock import MovedClock
from played_games import started_game

from hvbot.messages import game_posts
from hvbot.services import BotError, GameService
from hvbot.store import GameRow, GameStore, TurnClock

CHANNEL, GUILD, OTHER_GUILD = 800, 1, 2
ADA, BO = 301, 302


@pytest.fixture
async def clock() -> MovedClock:
    return MovedClock()


@pytest.fixture
async def service(database_url: str, clock: MovedClock):
    store = await GameStore.open(database_url)
    yield GameService(store, seed_source=random.Random(5), clock=clock)
    await store.close()


async def clocked_game(service: GameService) -> tuple[GameRow, int, int]:
    """Ada and Bo in a Pylons game with a one-hour clock; (game, the person to move, the
    other)."""
    game = await started_game(
        service,
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(ADA, "Ada"), (BO, "Bo")],
        clock=TurnClock(60, "ai_move"),
        remind_minutes=10,
        absent_hours=1,
    )
    seat = service.games.peek_state(game).current_seat()
    assert seat is not None
    mover = game.seats[seat].user_id
    assert mover is not None
    return game, mover, BO if mover == ADA else ADA


def at(stamp: str | None) -> datetime:
    assert stamp is not None
    return datetime.fromisoformat(stamp)


async def remind_at(service: GameService, game: GameRow) -> datetime:
    row = await service.repo.db.fetchrow("SELECT remind_at FROM games WHERE id = ?", game.id)
    assert row is not None
    return at(row["remind_at"])


async def test_away_stops_the_clock_of_my_turn_and_back_gives_me_the_time_i_had(
    service: GameService, clock: MovedClock
) -> None:
    game, mover, _ = await clocked_game(service)
    deadline, reminder = at(game.clock_deadline), await remind_at(service, game)
    clock.advance(minutes=20)

    away = await service.time_away.go_away(guild_id=GUILD, user_id=mover, days=2)
    assert away.until == clock() + timedelta(days=2) and away.games == (game.id,)
    game = await service.games.reload(game.id)
    assert at(game.clock_deadline) == deadline + timedelta(days=2)
    assert await remind_at(service, game) == reminder + timedelta(days=2)
    clock.advance(hours=30)
    assert await service.clocks.due(lambda *a: "warn", lambda *a: "out") == []
    assert await service.reminders.due_reminders() == [], "no reminder while away"

    back = await service.time_away.come_back(guild_id=GUILD, user_id=mover)
    assert back.until is None and back.games == (game.id,) and back.lobbies == ()
    game = await service.games.reload(game.id)
    assert at(game.clock_deadline) == clock() + timedelta(minutes=40), "40 minutes were left"
    assert game.seats[game.seat_of(mover) or 0].away_until is None
    with pytest.raises(BotError) as refused:
        await service.time_away.come_back(guild_id=GUILD, user_id=mover)
    assert refused.value.key == "bot.error.not_away_here"


async def test_a_turn_that_comes_while_i_am_away_waits_for_my_return(
    service: GameService, clock: MovedClock
) -> None:
    game, mover, other = await clocked_game(service)
    away = await service.time_away.go_away(guild_id=GUILD, user_id=other, days=3)
    assert away.until is not None
    game = await service.games.reload(game.id)
    assert at(game.clock_deadline) - clock() == timedelta(hours=1), "the mover is not away"
    lobby = game_posts.lobby_text(game, clock())
    assert lobby.count("(away until <t:") == 1

    # The mover plays until the turn passes to the other, who is away.
    while service.games.peek_state(game).current_seat() == game.seat_of(mover):
        action = service.games.peek_state(game).legal_actions()[0]
        await service.play.act(
            game_id=game.id, user_id=mover, action=action.text(), expected_version=game.version
        )
        game = await service.games.reload(game.id)
    assert at(game.clock_deadline) == away.until + timedelta(hours=1)
    assert await remind_at(service, game) == away.until + timedelta(minutes=10)
    with pytest.raises(BotError) as refused:
        await service.absence.request_takeover(channel_id=CHANNEL, user_id=mover)
    assert refused.value.key == "bot.error.away_no_vote"

    # Back a day early: their hour starts now.
    clock.advance(days=2)
    await service.time_away.come_back(guild_id=GUILD, user_id=other)
    game = await service.games.reload(game.id)
    assert at(game.clock_deadline) == clock() + timedelta(hours=1)
    assert game_posts.lobby_text(game, clock()).count("(away until") == 0


async def test_time_away_is_per_server_and_ends_by_itself(
    service: GameService, clock: MovedClock
) -> None:
    game, mover, _ = await clocked_game(service)
    deadline = at(game.clock_deadline)
    await service.time_away.go_away(guild_id=OTHER_GUILD, user_id=mover, days=5)
    game = await service.games.reload(game.id)
    assert at(game.clock_deadline) == deadline, "away elsewhere: this clock runs"
    assert game.seats[game.seat_of(mover) or 0].away_until is None

    await service.time_away.go_away(guild_id=GUILD, user_id=mover, days=1)
    clock.advance(days=1, seconds=1)
    game = await service.games.reload(game.id)
    seat = game.seats[game.seat_of(mover) or 0]
    assert seat.away_until is not None and seat.away_at(clock().isoformat()) is None
    assert "(away until" not in game_posts.lobby_text(game, clock())
    clock.advance(hours=1)
    (out,) = await service.clocks.due(lambda *a: "warn", lambda *a: "out")
    assert out.ran_out, "once back, the hour they had left runs out"


async def test_nobody_is_away_more_than_30_days_in_any_90(
    service: GameService, clock: MovedClock
) -> None:
    away = service.time_away
    await away.go_away(guild_id=GUILD, user_id=ADA, days=14)
    clock.advance(days=20)
    await away.go_away(guild_id=GUILD, user_id=ADA, days=14)
    clock.advance(days=10)
    # Asked again while away, the time away is counted once, from its start to its new end:
    # 14 days, then 10 so far and 7 more would make 31.
    with pytest.raises(BotError) as refused:
        await away.go_away(guild_id=GUILD, user_id=ADA, days=7)
    assert refused.value.key == "bot.error.away_limit"
    assert refused.value.fields["left"] == 6 and refused.value.fields["used"] == 31
    assert "at most 30 days in any 90" in str(refused.value)
    until = (await away.go_away(guild_id=GUILD, user_id=ADA, days=6)).until
    assert until == clock() + timedelta(days=6)
    periods = await service.repo.time_away.periods(
        guild_id=GUILD, user_id=ADA, since=clock() - timedelta(days=90)
    )
    assert len(periods) == 2 and periods[1][1] == until
    # Ninety days after the first, it no longer counts.
    clock.advance(days=90)
    await away.go_away(guild_id=GUILD, user_id=ADA, days=14)
    with pytest.raises(BotError):
        await away.go_away(guild_id=GUILD, user_id=ADA, days=0)
