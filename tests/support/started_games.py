"""A two-player Pylons game stored as the bot stores one: made as a lobby, then started.

Tests of the store and of the load benchmark's readers need a started game in the database
more than they need the bot around it; this is the shortest honest way there, through the
store's own changes (`hvbot.store.changes`), so what they read is what the bot writes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hvbot.store import GameRow, GameStore, SeatRow, changes
from hvbot.store.duties import Owed


async def start_pylons(
    store: GameStore, *, state: dict[str, Any], at: datetime
) -> tuple[GameRow, list[Owed]]:
    """Ada's lobby in channel 10, joined by Bo and started with `state`: the lobby as made
    (the started game is at its version + 1), and the posts the start owes."""
    lobby = await store.create(
        changes.create_lobby(
            game="pylons",
            guild_id=1,
            channel_id=10,
            creator_id=100,
            creator_name="Ada",
            options={},
            at=at,
        )
    )
    seats = [*lobby.seats, SeatRow(1, 200, None, "Bo")]
    owed = await store.write(
        changes.start(lobby.id, lobby.version, seed=5, state=state, seats=seats, at=at)
    )
    return lobby, owed
