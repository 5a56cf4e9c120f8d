"""A game's stamps come from the clock its changes are told, on SQLite and PostgreSQL: the
lobby's making, every seat change, start, move (both of PostgreSQL's forms of it), take-back,
forfeit, abandonment, a hand-over to an AI and a rematch each stamp the moment they are
given, never the real time. Seasons and ratings read a result's `finished_at`, dated by its
game's end, so a test that moves the clock past a month's end finds the game in the next
month's season only if this holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from hvbot.store import GameStore, SeatResult, SeatRow, changes, rematches
from hvbot.store.sql import stamp

START = datetime(2031, 1, 31, 23, 0, tzinfo=UTC)  # far from any real time
SEATS = (SeatRow(0, 100, None, "Ada"), SeatRow(1, 200, None, "Bo"))


@pytest.fixture
async def repo(database_url: str):
    repository = await GameStore.open(database_url)
    yield repository
    await repository.close()


async def _game_stamps(repo: GameStore, game_id: int) -> tuple[str, str, str | None]:
    row = await repo.db.fetchrow(
        "SELECT created_at, updated_at, ended_at FROM games WHERE id = ?", game_id
    )
    assert row is not None
    return row["created_at"], row["updated_at"], row["ended_at"]


async def _version(repo: GameStore, game_id: int) -> int:
    game = await repo.game(game_id=game_id)
    assert game is not None
    return game.version


async def _lobby(repo: GameStore, at: datetime, channel: int = 10) -> int:
    game = await repo.create(
        changes.create_lobby(
            game="pylons",
            guild_id=1,
            channel_id=channel,
            creator_id=100,
            creator_name="Ada",
            options={},
            at=at,
        )
    )
    return game.id


async def test_each_change_of_a_game_is_stamped_with_the_moment_it_is_given(
    repo: GameStore,
) -> None:
    at = [START + timedelta(hours=hours) for hours in range(6)]
    game_id = await _lobby(repo, at[0])
    assert await _game_stamps(repo, game_id) == (stamp(at[0]), stamp(at[0]), None)

    await repo.write(
        changes.set_seats(game_id, await _version(repo, game_id), SEATS, at=at[1], in_lobby=True)
    )
    assert await _game_stamps(repo, game_id) == (stamp(at[0]), stamp(at[1]), None)

    await repo.write(
        changes.start(
            game_id, await _version(repo, game_id), seed=1, state={"x": 0}, seats=SEATS, at=at[2]
        )
    )
    assert (await _game_stamps(repo, game_id))[1] == stamp(at[2])

    # A move that goes on (one statement on PostgreSQL), with a prompt it opens.
    await repo.write(
        changes.record_actions(
            game_id,
            await _version(repo, game_id),
            state={"x": 1},
            actions=[(0, "a")],
            prompt=("draw", 200),
            at=at[3],
        )
    )
    assert (await _game_stamps(repo, game_id))[1] == stamp(at[3])
    made = await repo.db.fetch("SELECT created_at FROM actions WHERE game_id = ?", game_id)
    assert [r["created_at"] for r in made] == [stamp(at[3])]
    prompts = await repo.db.fetch("SELECT created_at FROM prompts WHERE game_id = ?", game_id)
    assert [r["created_at"] for r in prompts] == [stamp(at[3])]

    await repo.write(
        changes.take_back(
            game_id, await _version(repo, game_id), n=0, state={"x": 0}, request_id=None, at=at[4]
        )
    )
    assert (await _game_stamps(repo, game_id))[1] == stamp(at[4])

    # The finishing move: the game's end, and so its results, dated by it.
    await repo.write(
        changes.record_actions(
            game_id,
            await _version(repo, game_id),
            state={"x": 2},
            actions=[(0, "b")],
            status="finished",
            results=[SeatResult(0, 3, True), SeatResult(1, 1, False)],
            at=at[5],
        )
    )
    assert await _game_stamps(repo, game_id) == (stamp(at[0]), stamp(at[5]), stamp(at[5]))
    rows = await repo.results.of_kind(guild_id=1, game="pylons")
    assert {r.finished_at for r in rows} == {stamp(at[5])}

    # Its rematch's lobby is made at the moment asked.
    finished = await repo.game(game_id=game_id)
    assert finished is not None
    later = START + timedelta(days=3)
    lobby, _ = await repo.create_rematch(
        rematches.open_rematch(
            of=finished,
            channel_id=10,
            creator_id=200,
            seats=SEATS,
            invited=[100],
            at=later,
            wants_thread=False,
        )
    )
    assert await _game_stamps(repo, lobby.id) == (stamp(later), stamp(later), None)


async def test_a_forfeit_an_abandonment_and_an_ai_standing_in_are_stamped_when_given(
    repo: GameStore,
) -> None:
    forfeited, abandoned = await _lobby(repo, START, 10), await _lobby(repo, START, 11)
    for game_id in (forfeited, abandoned):
        await repo.write(
            changes.start(
                game_id,
                await _version(repo, game_id),
                seed=1,
                state={"x": 0},
                seats=SEATS,
                at=START,
            )
        )

    handed = START + timedelta(minutes=5)
    assert await repo.clocks.hand_to_ai(
        game_id=forfeited,
        version=await _version(repo, forfeited),
        seat=0,
        now=handed,
        text="Ada's time ran out.",
    )
    assert (await _game_stamps(repo, forfeited))[1] == stamp(handed)

    ends = START + timedelta(hours=2)  # past the month's end
    await repo.write(
        changes.set_status(
            forfeited,
            await _version(repo, forfeited),
            "finished",
            results=[SeatResult(0, 0, False), SeatResult(1, 0, True)],
            at=ends,
        )
    )
    await repo.write(
        changes.set_status(abandoned, await _version(repo, abandoned), "abandoned", at=ends)
    )
    for game_id in (forfeited, abandoned):
        assert (await _game_stamps(repo, game_id))[1:] == (stamp(ends), stamp(ends))
    rows = await repo.results.of_kind(guild_id=1, game="pylons")
    assert {r.finished_at for r in rows} == {stamp(ends)}
