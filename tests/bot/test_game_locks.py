"""A game's lock is the bot's for as long as someone holds it or waits for it, and no longer:
one change at a time to a game still, and nothing kept for the games nobody is changing (kept
for every game ever played, each lock cost the bot about a kB a game for good).

The locks live in the process alone, so a SQLite store stands for both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from conftest import migrated_sqlite_file

from hvbot.store import GameStore


@pytest.fixture
async def store(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[GameStore]:
    path = await migrated_sqlite_file(tmp_path / "games.sqlite3", tmp_path_factory)
    opened = await GameStore.open(f"sqlite:///{path}")
    yield opened
    await opened.close()


def kept(store: GameStore) -> set[int]:
    return set(store._locks)


async def test_a_games_lock_is_let_go_once_nobody_holds_it(store: GameStore) -> None:
    for game_id in range(1, 101):
        async with store.lock(game_id):
            assert kept(store) == {game_id}
    assert kept(store) == set(), "no lock kept for a game nobody is changing"


async def test_one_change_at_a_time_and_the_lock_kept_while_anyone_waits(
    store: GameStore,
) -> None:
    order: list[str] = []
    first_in, let_go = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with store.lock(7):
            order.append("first in")
            first_in.set()
            await let_go.wait()
            order.append("first out")

    async def second() -> None:
        async with store.lock(7):
            order.append("second in")

    holding = asyncio.create_task(first())
    await first_in.wait()
    waiting = asyncio.create_task(second())
    given_up = asyncio.create_task(second())
    await asyncio.sleep(0)  # both queue for the lock
    given_up.cancel()
    await asyncio.gather(given_up, return_exceptions=True)
    assert kept(store) == {7}, "held, and waited for"
    let_go.set()
    await asyncio.gather(holding, waiting)
    assert order == ["first in", "first out", "second in"]
    assert kept(store) == set()


async def test_a_failed_change_lets_the_lock_go_too(store: GameStore) -> None:
    with pytest.raises(RuntimeError):
        async with store.lock(3):
            raise RuntimeError("refused")
    assert kept(store) == set()
    async with store.lock(3):  # and the next change takes it
        pass
