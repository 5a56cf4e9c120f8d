"""Finishing games quickly for the tests of results and statistics: Pylons between two people,
random legal moves through the service, so every move is stored as a real one would be."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from engine import State
from games import find_game
from hvbot.database import base
from hvbot.services import GameService
from hvbot.store import GameRow, GameStore, changes

MAX_MOVES = 2000


async def play_to_the_end(service: GameService, game_id: int, rng: random.Random) -> GameRow:
    """Let whoever is to move make random legal moves until the game is over."""
    for _ in range(MAX_MOVES):
        game = await service.repo.game(game_id=game_id)
        assert game is not None
        if game.status != "active":
            return game
        state = service.games.load_state(game)
        seat = state.current_seat()
        assert seat is not None
        user = game.seats[seat].user_id
        assert user is not None, "only games between people are played out here"
        await service.play.act(game_id=game_id, user_id=user, action=state.sample_action(rng))
    raise AssertionError("the game did not end")


async def started_game(
    service: GameService,
    *,
    channel_id: int,
    guild_id: int,
    players: Sequence[tuple[int, str]],
    game_name: str = "pylons",
    **options: Any,
) -> GameRow:
    """A game the first of `players` (user id, name) opened with `options` (a clock, a
    reminder), the others joined, and started."""
    (creator, name), *others = players
    await service.lobby.new_lobby(
        channel_id=channel_id,
        guild_id=guild_id,
        user_id=creator,
        name=name,
        game_name=game_name,
        **options,
    )
    for user_id, other_name in others:
        await service.lobby.join(channel_id=channel_id, user_id=user_id, name=other_name)
    started = await service.lobby.start(channel_id=channel_id, user_id=creator, can_manage=False)
    return started.game


async def finished_pylons(
    service: GameService,
    *,
    channel_id: int,
    guild_id: int,
    players: list[tuple[int, str]],
    seed: int = 1,
) -> GameRow:
    """A Pylons game between `players` (user id, name), from lobby to the end."""
    game = await started_game(service, channel_id=channel_id, guild_id=guild_id, players=players)
    return await play_to_the_end(service, game.id, random.Random(seed))


RESULTS_MIGRATION = 3  # the migration that began keeping results
RATED_RESULTS_MIGRATION = 23  # the columns it added later, for ratings: no table, no columns


@contextlib.contextmanager
def schema_before_results(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Open repositories as the bot did before results were kept: without that migration, nor
    the one that added to its table (the others, older or newer, as the code of today needs
    them)."""

    every_migration = base.migrations

    def without_results(backend: str) -> list[tuple[int, str]]:
        left_out = (RESULTS_MIGRATION, RATED_RESULTS_MIGRATION)
        return [m for m in every_migration(backend) if m[0] not in left_out]

    with monkeypatch.context() as patched:
        patched.setattr(base, "migrations", without_results)
        yield


def played_out(seed: int) -> State:
    """A whole two-player Pylons game played by the engine alone, dealt from `seed`."""
    state = find_game("pylons").new_state(2, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    return state


async def finish_as_before_results(repo: GameStore, game: GameRow, seed: int) -> State:
    """Store a started two-player Pylons game, dealt from `seed`, as finished the way the bot
    did before results were kept: the finishing move and nothing more."""
    final = played_out(seed)
    await repo.write(
        changes.record_actions(
            game.id,
            game.version,
            state=final.to_dict(),
            actions=[(0, text) for text in final.history],
            status="finished",
            at=repo.clock(),
        )
    )
    return final
