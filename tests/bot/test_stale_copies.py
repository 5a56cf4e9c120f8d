"""A process's copy of a game in memory, when another process changed the game (PostgreSQL,
several processes): a move is judged on the stored game, and what checking that costs. Each
"process" is a repository with connections of its own."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from conftest import new_postgres_database

from hvbot.runtime.metrics import DATABASE_ROUND_TRIPS
from hvbot.services import GameService
from hvbot.store import GameStore

GUILD, ADA, BO = 1, 101, 102


@pytest.fixture
async def processes(postgres) -> AsyncIterator[list[GameService]]:
    url = await new_postgres_database(postgres)
    repos = [await GameStore.open(url) for _ in range(2)]
    try:
        yield [GameService(repo, seed_source=random.Random(i)) for i, repo in enumerate(repos)]
    finally:
        for repo in repos:
            await repo.close()


async def _started(service: GameService, channel: int):
    await service.lobby.new_lobby(
        channel_id=channel, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await service.lobby.join(channel_id=channel, user_id=BO, name="Bo")
    started = await service.lobby.start(channel_id=channel, user_id=ADA, can_manage=False)
    return started.game, started.state


def _face_down(result_state) -> list[str]:
    return [c["cell"] for c in result_state.view(None)["cells"] if c["state"] == "down"]


async def _actions(service: GameService, game_id: int) -> list[str]:
    return [text for _, text in await service.repo.actions(game_id=game_id)]


async def test_a_turn_a_stale_copy_would_refuse_is_played_from_the_stored_game(processes):
    first, second = processes
    game, state = await _started(first, 100)
    await second.games.open_game(100)  # the second process keeps the game as it started
    mover = game.seats[state.current_seat()].user_id
    other = BO if mover == ADA else ADA
    down = _face_down(state)
    await first.play.act(channel_id=100, user_id=mover, action=f"draw {down[0]} here r0")
    # The second process's copy still has the first player to move: it would say "not your
    # turn". The stored version says it is stale, and the move is played from the stored game.
    played = await second.play.act(channel_id=100, user_id=other, action=f"draw {down[1]} here r0")
    assert played.game.version == game.version + 2
    assert await _actions(first, game.id) == [f"draw {down[0]} here r0", f"draw {down[1]} here r0"]


async def _round_trips() -> float:
    await asyncio.sleep(0)  # asyncpg counts each request in a callback it schedules
    return DATABASE_ROUND_TRIPS.labels(backend="postgresql")._value.get()


async def test_a_move_checks_the_stored_version_once_then_is_one_statement(processes):
    """Before a move is acknowledged, its game is checked against the stored version (one
    small read: another process may have moved it); then the change is one statement."""
    first, _ = processes
    game, state = await _started(first, 300)
    costs = []
    for cell in _face_down(state)[:3]:
        game = await first.games.open_game(300)
        mover = game.seats[first.games.peek_state(game).current_seat()].user_id
        before = await _round_trips()
        await first.play.act(game_id=game.id, user_id=mover, action=f"draw {cell} here r0")
        costs.append(await _round_trips() - before)
    assert costs[-1] == 2, costs
