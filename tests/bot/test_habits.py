"""How a person plays, read from the stored games on SQLite and PostgreSQL: the median time
they take to move (from the action log's stamps) and the games of theirs abandoned once
started (which have no results rows); in all time, or in one season alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from moved_clock import MovedClock

from hvbot.services.seasons import season_named
from hvbot.services.stats import Habits, Stats, median_moves
from hvbot.store import GameRow, GameStore, SeatRow, changes
from hvbot.store.sql import stamp

GUILD, OTHER_GUILD = 1, 2
ADA, BO = 100, 200
SEATS = (SeatRow(0, ADA, None, "Ada"), SeatRow(1, BO, None, "Bo"))


@pytest.fixture
async def repo(database_url: str):
    repository = await GameStore.open(database_url)
    yield repository
    await repository.close()


async def _started(
    repo: GameStore, *, game: str = "pylons", channel: int, guild: int = GUILD
) -> GameRow:
    lobby = await repo.create(
        changes.create_lobby(
            game=game,
            guild_id=guild,
            channel_id=channel,
            creator_id=ADA,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )
    await repo.write(
        changes.start(lobby.id, lobby.version, seed=1, state={"x": 0}, seats=SEATS, at=repo.clock())
    )
    started = await repo.game(game_id=lobby.id)
    assert started is not None
    return started


async def _moves(repo: GameStore, game: GameRow, moves: list[tuple[int, str]]) -> None:
    """The game's action log as (seat, stamp), one action each: the stamps are chosen here,
    as a game played over hours would have them."""
    await repo.db.transact(
        lambda tx: tx.executemany(
            "INSERT INTO actions (game_id, n, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game.id, n, seat, "m", at) for n, (seat, at) in enumerate(moves)],
        )
    )


def _at(minutes: float) -> str:
    moment = datetime(2026, 3, 1, 10, tzinfo=UTC) + timedelta(minutes=minutes)
    return stamp(moment)


async def _end(repo: GameStore, game: GameRow, status: str) -> None:
    current = await repo.game(game_id=game.id)
    assert current is not None
    await repo.write(changes.set_status(game.id, current.version, status, at=repo.clock()))


async def test_median_time_to_move_and_abandoned_games_per_person_and_game(repo: GameStore) -> None:
    first = await _started(repo, channel=10)
    # Bo opens; Ada answers after 1, 3 and 10 minutes; a second action of the same change (the
    # same stamp) took no thought and is not counted.
    await _moves(
        repo,
        first,
        [
            (1, _at(0)),
            (0, _at(1)),
            (1, _at(2)),
            (0, _at(5)),
            (0, _at(5)),
            (1, _at(6)),
            (0, _at(16)),
        ],
    )
    await _end(repo, first, "finished")
    second = await _started(repo, channel=11)
    await _moves(repo, second, [(1, _at(0)), (0, _at(2))])  # Ada took 2 minutes
    await _end(repo, second, "abandoned")
    playing = await _started(repo, channel=12)  # still being played: not counted yet
    await _moves(repo, playing, [(1, _at(0)), (0, _at(50))])
    elsewhere = await _started(repo, channel=13, guild=OTHER_GUILD)
    await _moves(repo, elsewhere, [(1, _at(0)), (0, _at(40))])
    await _end(repo, elsewhere, "abandoned")
    closed = await repo.create(  # a lobby closed before it started: never a game
        changes.create_lobby(
            game="sector6",
            guild_id=GUILD,
            channel_id=14,
            creator_id=ADA,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )
    await repo.write(changes.set_status(closed.id, closed.version, "abandoned", at=repo.clock()))

    stamps = await repo.habits.move_stamps(guild_id=GUILD, user_id=ADA)
    assert sorted(stamps) == sorted(
        [
            ("pylons", _at(0), _at(1)),
            ("pylons", _at(2), _at(5)),
            ("pylons", _at(6), _at(16)),
            ("pylons", _at(0), _at(2)),
        ]
    )
    assert await repo.habits.abandoned(guild_id=GUILD, user_id=ADA) == {"pylons": 1}
    assert await repo.habits.abandoned(guild_id=OTHER_GUILD, user_id=ADA) == {"pylons": 1}

    habits = await Stats(repo).habits(guild_id=GUILD, user_id=ADA)
    # 1, 2, 3 and 10 minutes: the median is 2.5 minutes, whatever the 10.
    assert habits == {"pylons": Habits(median_move_s=150.0, abandoned=1)}
    bo = await Stats(repo).habits(guild_id=GUILD, user_id=BO)
    assert bo == {"pylons": Habits(median_move_s=60.0, abandoned=1)}  # 1, 1 and 1 minute
    assert await Stats(repo).habits(guild_id=GUILD, user_id=999) == {}


def test_the_median_is_per_game_and_reads_stamps_of_either_precision() -> None:
    stamps = [
        ("pylons", "2026-03-01T10:00:00+00:00", "2026-03-01T10:00:30.500+00:00"),
        ("pylons", "2026-03-01T10:01:00.000+00:00", "2026-03-01T10:01:10.000+00:00"),
        ("pylons", "2026-03-01T10:02:00.000+00:00", "2026-03-01T11:02:00.000+00:00"),
        ("sector6", "2026-03-01T23:59:00.000+00:00", "2026-03-02T00:01:00.000+00:00"),
    ]
    assert median_moves(stamps) == {"pylons": 30.5, "sector6": 120.0}


async def test_a_season_counts_only_its_own_moves_and_abandoned_games(repo: GameStore) -> None:
    clock = MovedClock(datetime(2026, 2, 27, 10, tzinfo=UTC))
    repo.clock = clock
    february = await _started(repo, channel=10)
    late_february = stamp(clock())
    await _moves(repo, february, [(1, late_february), (0, stamp(clock() + timedelta(minutes=4)))])
    await _end(repo, february, "abandoned")  # dated by the clock: in February
    clock.now = datetime(2026, 3, 1, 10, tzinfo=UTC)
    march = await _started(repo, channel=11)
    await _moves(repo, march, [(1, _at(0)), (0, _at(2))])
    await _end(repo, march, "abandoned")

    stats = Stats(repo)

    async def in_season(label: str) -> dict[str, Habits]:
        return await stats.habits(guild_id=GUILD, user_id=ADA, season=season_named(label))

    assert await in_season("2026-02") == {"pylons": Habits(median_move_s=240.0, abandoned=1)}
    assert await in_season("2026-03") == {"pylons": Habits(median_move_s=120.0, abandoned=1)}
    both = {"pylons": Habits(median_move_s=180.0, abandoned=2)}
    assert await in_season("2026-Q1") == both
    assert await stats.habits(guild_id=GUILD, user_id=ADA) == both
    assert await in_season("2026-04") == {}
