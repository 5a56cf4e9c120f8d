"""The record of a game as the file /game export sends (`engine.records`): who sat where in
the reader's words, the stored moves, and only what the reader may know.

A finished game's record is the public one, the same for everyone; a player's record of
their own game under way adds what is theirs alone to know (their company, the card or tile
in their hand), and nobody else's. A game the bot ended before its rules did (a forfeit) is
recorded as the table saw it, without a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from data.texts import Texts
from engine.core import State
from engine.records import make_record, record_json
from hvbot.services.seat_names import said
from hvbot.store import GameRow


@dataclass(frozen=True)
class RecordFile:
    """A record ready to attach: its file name, its bytes, and how many moves it holds."""

    filename: str
    data: bytes
    moves: int


def record_file(
    game: GameRow,
    state: State,
    moves: Sequence[tuple[int, str]],
    reader: int | None,
    texts: Texts,
) -> RecordFile:
    """The record of `game` for `reader` (their seat in a game under way, else None: the
    public record), the players named in `texts`' language as the bot names them; `moves`
    are the stored actions, which must be the moves of the stored `state`."""
    players = [
        {"seat": seat.seat, "name": said(seat, texts), "ai": seat.ai_level if seat.is_ai else None}
        for seat in game.seats
    ]
    finished = game.status == "finished"
    record = make_record(
        state,
        players=players,
        moves=[text for _, text in moves],
        known_to=None if finished else reader,
        stopped=finished and not state.is_terminal(),
    )
    return RecordFile(
        filename=f"{game.game_name}-{game.id}.json",
        data=record_json(record).encode(),
        moves=len(record["moves"]),
    )


__all__ = ["RecordFile", "record_file"]
