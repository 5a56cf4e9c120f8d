"""The record of a game as the file /game export sends (`engine.records`): who sat where in
the reader's words, the stored moves, and only what the reader may know.

A finished game's record is the public one, the same for everyone; a player's record of
their own game under way adds what is theirs alone to know (their company, the card or tile
in their hand), and nobody else's. A game the bot ended before its rules did (a forfeit) is
recorded as the table saw it, without a result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from data.texts import Texts
from engine.core import State
from engine.records import make_record, record_json
from hvbot.infra.kept import Kept
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


class KeptRecords(Kept[Hashable, tuple[str, ...], RecordFile]):
    """The last few records made, so that asking again for the same one costs nothing.

    A record is the game dealt again and its whole history walked; people ask for the same
    one more than once (a player after each game, several spectators after a good one). A
    record is kept by the game, its version, its status, the reader and the reader's
    language, which together decide every byte of it; and stamped with the moves it was made
    from, compared before it is used again, so that a game row read a moment before a move
    (or an undo) can never be answered with the record of another position. Each is a few kB
    to a few tens of kB."""

    def __init__(self, most: int = 32) -> None:
        super().__init__(most)


async def exported_file(
    kept: KeptRecords,
    game: GameRow,
    state: State,
    moves: Sequence[tuple[int, str]],
    reader: int | None,
    texts: Texts,
) -> RecordFile:
    """`record_file`, made in a thread so that the event loop (every shard's heartbeats and
    answers) never waits while a long game is dealt again and walked, or as it was made
    before and `kept`. Raises ValueError as `record_file` does."""
    texts_of_moves = tuple(text for _, text in moves)
    key = (game.id, game.version, game.status, reader, texts.language)
    made = kept.get(key, texts_of_moves)
    if made is None:
        made = await asyncio.to_thread(record_file, game, state, moves, reader, texts)
        kept.keep(key, texts_of_moves, made)
    return made


__all__ = ["KeptRecords", "RecordFile", "exported_file", "record_file"]
