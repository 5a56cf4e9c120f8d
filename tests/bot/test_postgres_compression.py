"""How PostgreSQL compresses what the bot stores most and largest: each move rewrites its
game's state (JSON, some 4 kB for High Voltage), compressed with LZ4, which costs the server a
third of what its own compressor did; a replay, a GIF compressed already, is stored as it is,
without the server trying to compress it first. SQLite compresses nothing: PostgreSQL alone.

Read from what the server stored (`pg_column_compression`: the method a stored value was
compressed with, none if it was not), not from the schema alone, so the test sees what the
bot's own statements leave behind."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from conftest import new_postgres_database
from played_games import finished_pylons, started_game
from postgres_server import PostgresServer

from hvbot.services import GameService
from hvbot.store import GameStore
from hvbot.store.replays import KeptReplay

PLAYERS = [(11, "Ada"), (12, "Bo"), (13, "Cy")]


@pytest.fixture
async def store(postgres: PostgresServer) -> AsyncIterator[GameStore]:
    """The bot's store on a database of its own on the tests' PostgreSQL server, migrated."""
    opened = await GameStore.open(await new_postgres_database(postgres, migrated=True))
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_moved_game_state_is_compressed_with_lz4(store: GameStore) -> None:
    service = GameService(store, seed_source=random.Random(3))
    game = await started_game(
        service, channel_id=5, guild_id=1, players=PLAYERS, game_name="high-voltage"
    )
    state = service.games.load_state(game)
    seat = state.current_seat()
    assert seat is not None
    await service.play.act(
        game_id=game.id,
        user_id=game.seats[seat].user_id,
        action=state.sample_action(random.Random(1)),
    )
    row = await store.db.fetchrow(
        "SELECT version, octet_length(state) AS size, pg_column_compression(state) AS how"
        " FROM games WHERE id = ?",
        game.id,
    )
    assert row is not None
    assert row["version"] > game.version, "the move was stored"
    assert row["size"] > 2048, "a state large enough for the server to compress"
    assert row["how"] == "lz4"


async def test_a_replay_is_stored_without_compressing(store: GameStore) -> None:
    service = GameService(store, seed_source=random.Random(2))
    game = await finished_pylons(service, channel_id=5, guild_id=1, players=PLAYERS[:2])
    # Bytes the server's compressor would shrink well: it is never tried, as on a GIF.
    gif = bytes(range(256)) * 40
    await store.replays.keep(
        game_id=game.id, language="en", replay=KeptReplay(gif, 31, (0, 15, 30))
    )
    row = await store.db.fetchrow(
        "SELECT pg_column_compression(gif) AS how, pg_column_size(gif) AS stored"
        " FROM replays WHERE game_id = ?",
        game.id,
    )
    assert row is not None
    assert row["how"] is None
    assert row["stored"] >= len(gif)
    kept = await store.replays.get(game_id=game.id, language="en")
    assert kept is not None and kept.gif == gif
