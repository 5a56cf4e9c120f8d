"""Finished games' replays as drawn, one per game and language (see `hvbot.messages.replays`):
a replay is a second or more of drawing, and the same GIF every time it is asked for."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hvbot.database import Database
from hvbot.store.sql import statement


@dataclass(frozen=True)
class KeptReplay:
    """A replay as drawn: the GIF, and what its caption says of it."""

    gif: bytes
    positions: int  # the deal and one per action
    shown: tuple[int, ...]  # the positions that have a frame


class Replays:
    """The `replays` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, *, game_id: int, language: str) -> KeptReplay | None:
        row = await self.db.fetchrow(
            "SELECT gif, positions, shown FROM replays WHERE game_id = ? AND language = ?",
            game_id,
            language,
        )
        if row is None:
            return None
        return KeptReplay(bytes(row["gif"]), row["positions"], tuple(json.loads(row["shown"])))

    async def keep(self, *, game_id: int, language: str, replay: KeptReplay) -> None:
        """Keep a replay just drawn (one drawn at the same time elsewhere is as good)."""
        await self.db.transact(
            statement(
                "INSERT INTO replays (game_id, language, gif, positions, shown)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                game_id,
                language,
                replay.gif,
                replay.positions,
                json.dumps(list(replay.shown)),
            )
        )
