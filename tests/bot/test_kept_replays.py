"""Replays kept on both databases: the GIF's bytes come back as they went in, per game and
language, and a second copy drawn at the same time changes nothing."""

from __future__ import annotations

import random

from played_games import finished_pylons

from hvbot.services import GameService
from hvbot.store import GameStore
from hvbot.store.replays import KeptReplay


async def test_a_replay_is_kept_per_game_and_language(database_url: str) -> None:
    store = await GameStore.open(database_url)
    try:
        service = GameService(store, seed_source=random.Random(2))
        game = await finished_pylons(
            service, channel_id=5, guild_id=1, players=[(11, "Ada"), (12, "Bo")]
        )
        gif = bytes(range(256)) * 40  # every byte value, NUL included
        first = KeptReplay(gif, 31, (0, 15, 30))
        assert await store.replays.get(game_id=game.id, language="en") is None
        await store.replays.keep(game_id=game.id, language="en", replay=first)
        await store.replays.keep(
            game_id=game.id, language="en", replay=KeptReplay(b"later", 1, (0,))
        )
        assert await store.replays.get(game_id=game.id, language="en") == first
        assert await store.replays.get(game_id=game.id, language="it") is None
    finally:
        await store.close()
