"""Posts taken and marked made while others are under way go to the database together, one
statement a group (`hvbot.store.gathered`), and each still gets its own answer, on SQLite and
on a real PostgreSQL: a post another process took over is not taken, a stale mark is refused,
and the same post twice in a group is taken once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from conftest import services_sharing

from hvbot.infra.metrics import DATABASE_ROUND_TRIPS
from hvbot.services import GameService
from hvbot.store.duties import Owed
from hvbot.store.gathered import Gathered

ADA, BO = 101, 102


@pytest.fixture
async def processes(database_url: str) -> AsyncIterator[list[GameService]]:
    async with services_sharing(database_url, 2) as services:
        yield services


async def _owed(service: GameService, games: int) -> list[Owed]:
    """The posts the starts of `games` games owe (the first board, each seat's secret)."""
    owed: list[Owed] = []
    for channel in range(500, 500 + games):
        await service.lobby.new_lobby(
            channel_id=channel, guild_id=channel, user_id=ADA, name="Ada", game_name="Pylons"
        )
        await service.lobby.join(channel_id=channel, user_id=BO, name="Bo")
        started = await service.lobby.start(channel_id=channel, user_id=ADA, can_manage=False)
        owed.extend(started.owed)
    return owed


async def _round_trips(service: GameService) -> float:
    await asyncio.sleep(0)  # asyncpg counts each request in a callback it schedules
    return DATABASE_ROUND_TRIPS.labels(backend=service.repo.db.backend)._value.get()


async def _unsent(service: GameService, owed: list[Owed]) -> set[int]:
    rows = await service.repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")
    return {row["id"] for row in rows} & {o.id for o in owed}


async def test_posts_taken_and_marked_together_each_get_their_own_answer(processes) -> None:
    first, second = processes
    owed = await _owed(first, 6)
    assert len(owed) >= 12
    # The second process took one post over (its lease ran out): its token moved on.
    stolen = owed[3]
    await second.repo.db.transact(
        lambda tx: tx.execute(
            "UPDATE announcements SET token = token + 1, claimed_until = NULL WHERE id = ?",
            stolen.id,
        )
    )
    # (The first statement of a connection asks the server about its types too.)
    assert await first.duties.take(owed.pop()) is not None
    before = await _round_trips(first)
    taken = await asyncio.gather(*(first.duties.take(o) for o in owed))
    takes_cost = await _round_trips(first) - before
    assert [t is None for t in taken] == [o.id == stolen.id for o in owed]
    assert all(t.token == o.token + 1 for t, o in zip(taken, owed, strict=True) if t)
    mine = [t for t in taken if t is not None]

    # Marked made, fenced, with one mark carrying a stale token (taken over since).
    stale = mine[5]
    await second.repo.db.transact(
        lambda tx: tx.execute("UPDATE announcements SET token = token + 1 WHERE id = ?", stale.id)
    )
    before = await _round_trips(first)
    marked = await asyncio.gather(*(first.duties.made(t, fenced=True) for t in mine))
    marks_cost = await _round_trips(first) - before
    assert marked == [t.id != stale.id for t in mine]
    assert await _unsent(first, owed) == {stolen.id, stale.id}
    # Unfenced, the stale one too is marked; the stolen one was never taken.
    assert await first.duties.made(stale) is True
    assert await _unsent(first, owed) == {stolen.id}

    if first.repo.db.backend == "postgresql":
        # Asked together, they go together: one statement for the takes, one for the marks.
        assert (takes_cost, marks_cost) == (1, 1)


async def test_the_same_post_twice_in_a_group_is_taken_once(processes) -> None:
    first, _ = processes
    owed = await _owed(first, 2)
    # Asked in one turn of the event loop: one group, with the same post twice.
    taken = await asyncio.gather(
        first.duties.take(owed[0]),
        first.duties.take(owed[1]),
        first.duties.take(owed[1]),
        first.duties.take(owed[2]),
    )
    assert [t is not None for t in taken] == [True, True, False, True]
    marked = await asyncio.gather(
        first.duties.made(owed[0]),
        first.duties.made(taken[1], fenced=True),
        first.duties.made(taken[1], fenced=True),
    )
    assert marked == [True, True, False]


async def test_a_group_that_fails_fails_each_of_its_requests_and_the_next_goes_on() -> None:
    sent: list[list[int]] = []
    release = asyncio.Event()

    async def send(group):
        sent.append(list(group))
        if len(sent) == 1:
            await release.wait()
            return [n * 10 for n in group]
        if len(sent) == 2:
            raise ConnectionError("away")
        return [n * 10 for n in group]

    gathered: Gathered[int, int] = Gathered(send)
    alone = asyncio.ensure_future(gathered(1))
    await asyncio.sleep(0)
    group = [asyncio.ensure_future(gathered(n)) for n in (2, 3)]
    await asyncio.sleep(0)
    release.set()
    assert await alone == 10
    for failed in group:
        with pytest.raises(ConnectionError):
            await failed
    assert await gathered(4) == 40  # a new request after a failed group goes by itself
    assert sent == [[1], [2, 3], [4]]


async def test_takes_and_marks_asked_together_are_one_statement(processes) -> None:
    first, _ = processes
    owed = await _owed(first, 3)
    # (The first statement of a connection asks the server about its types too.)
    earlier = [await first.duties.take(o) for o in owed[:3]]
    assert all(earlier)
    before = await _round_trips(first)
    answers = await asyncio.gather(
        *(first.duties.made(t, fenced=True) for t in earlier if t),  # sent: marked made
        *(first.duties.take(o) for o in owed[3:6]),  # about to be sent: taken
    )
    cost = await _round_trips(first) - before
    assert answers[:3] == [True] * 3
    assert [t.token for t in answers[3:]] == [o.token + 1 for o in owed[3:6]]
    assert await _unsent(first, owed[:6]) == {o.id for o in owed[3:6]}
    if first.repo.db.backend == "postgresql":
        assert cost == 1
