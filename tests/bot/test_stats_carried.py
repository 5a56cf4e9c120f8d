"""A server's /stats summary carried forward by the games it finished since, on both
databases: the same as summing up its whole history again, never changing a summary a reader
holds, and summed up afresh when the start-up backfill fills in a game before the last."""

from __future__ import annotations

import copy
import random

import pytest

from hvbot.services.stats import Stats, summarise_all
from hvbot.store import GameRow, GameStore, SeatResult, SeatRow, changes

GUILD = 1
GAME = "pylons"
PEOPLE = (100, 200, 300, 400, 500)


@pytest.fixture
async def repo(database_url: str):
    repository = await GameStore.open(database_url)
    yield repository
    await repository.close()


async def _started(repo: GameStore, rng: random.Random, channel: int) -> GameRow:
    """A game of two or three seats, one of them an AI's one time in three."""
    people = rng.sample(PEOPLE, rng.choice((2, 3)))
    seats = [SeatRow(i, user, None, f"P{user}") for i, user in enumerate(people)]
    if rng.random() < 0.34:
        seats[-1] = SeatRow(len(seats) - 1, None, rng.choice(("easy", "hard")), "AI")
    game = await repo.create(
        changes.create_lobby(
            game=GAME,
            guild_id=GUILD,
            channel_id=channel,
            creator_id=PEOPLE[0],
            creator_name="P",
            options={},
            at=repo.clock(),
        )
    )
    await repo.write(
        changes.start(
            game.id, game.version, seed=1, state={"x": 0}, seats=tuple(seats), at=repo.clock()
        )
    )
    started = await repo.game(game_id=game.id)
    assert started is not None
    return started


def _results(rng: random.Random, game: GameRow) -> list[SeatResult]:
    scores = [rng.randint(0, 3) for _ in game.seats]
    return [
        SeatResult(seat.seat, score, score == max(scores), rng.random() < 0.1)
        for seat, score in zip(game.seats, scores, strict=True)
    ]


async def _finish(
    repo: GameStore, rng: random.Random, channel: int, *, with_results: bool = True
) -> tuple[GameRow, list[SeatResult]]:
    """A game finished now (with no results stored, as before results were kept, unless
    `with_results`): the game and the results it ended with."""
    game = await _started(repo, rng, channel)
    results = _results(rng, game)
    await repo.write(
        changes.record_actions(
            game.id,
            game.version,
            state={"x": 1},
            actions=[(0, "a")],
            status="finished",
            results=results if with_results else None,
            at=repo.clock(),
        )
    )
    return game, results


async def _afresh(repo: GameStore) -> tuple:
    return tuple(summarise_all(GAME, await repo.results.of_kind(guild_id=GUILD, game=GAME)))


async def test_one_more_game_carries_the_summary_forward_as_a_full_recompute_makes_it(
    repo: GameStore,
) -> None:
    rng = random.Random(5)
    stats = Stats(repo)
    for channel in range(12):
        await _finish(repo, rng, channel)
    (before,) = await stats.of_game(guild_id=GUILD, game=GAME)
    assert (before,) == await _afresh(repo)
    as_read = copy.deepcopy(before)

    played, _ = await _finish(repo, rng, 99)
    (after,) = await stats.of_game(guild_id=GUILD, game=GAME)

    assert (after,) == await _afresh(repo)
    assert after.finished == before.finished + 1
    assert before == as_read, "the summary a reader holds never changes"
    at_table = {seat.user_id for seat in played.seats}
    for user, line in after.players.items():
        if user in at_table:
            assert line is not before.players.get(user)
        else:  # carried forward, not summed up again: their record is the one kept
            assert line is before.players[user]
    # Nothing finished since: the same summary, not made again.
    assert (await stats.of_game(guild_id=GUILD, game=GAME))[0] is after


async def test_a_full_recompute_reads_a_page_at_a_time_and_keeps_each_game_whole(
    repo: GameStore,
) -> None:
    rng = random.Random(8)
    for channel in range(9):
        await _finish(repo, rng, channel)
    # Pages of five seats cut games of two and three seats in the middle.
    (paged,) = await Stats(repo, page_seats=5).of_game(guild_id=GUILD, game=GAME)
    assert (paged,) == await _afresh(repo)
    assert paged.finished == 9


async def test_a_game_backfilled_before_the_last_is_summed_up_afresh(repo: GameStore) -> None:
    rng = random.Random(13)
    stats = Stats(repo)
    early, results = await _finish(repo, rng, 0, with_results=False)
    for channel in range(1, 6):
        await _finish(repo, rng, channel)
    (before,) = await stats.of_game(guild_id=GUILD, game=GAME)
    assert before.finished == 5

    # The start-up backfill stores the results of a game that finished before the others,
    # dated by its end: before the last game the kept summary summed up.
    await repo.results.fill(game_id=early.id, results=results)
    (after,) = await stats.of_game(guild_id=GUILD, game=GAME)

    assert after.finished == 6
    assert (after,) == await _afresh(repo)
    assert before.finished == 5, "the summary a reader holds never changes"
