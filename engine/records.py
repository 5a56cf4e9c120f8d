"""Game records: a game as a JSON file anyone may keep, check and replay, with nothing in it
its reader may not know.

A record holds the game, its options and seats, who sat where (names and AI levels, as the
caller gives them), what of the deal became public (`Game.record_deal`), every move in its
engine text, and the result once the rules ended the game. It never holds the seed: a
deal the seed rebuilds would show every face-down card. Instead `Game.deal_from_record`
rebuilds a deal consistent with everything public, filling in what nobody ever saw, and
`replay_record` plays the moves on it: each must be legal, and a game over must end with
the recorded result. `docs/records.md` describes the format, with an example.

Who may read what: the record of a game over is the public one (what the table saw by the
end, `known_to` null); a player may have the record of their own unfinished game, which adds
what is theirs alone to know (their company, the card or tile they hold), `known_to` their
seat. A game the bot stopped before the rules ended it (a forfeit) is recorded as the public
saw it, without a result: its final count was never made, and a partial one could tell what
is still hidden.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Game, Outcome, State
from engine.errors import GameError
from engine.registry import find_game

RECORD_FORMAT = "game-record"
RECORD_VERSION = 1

# How the game stands in a record: ended by its rules, stopped by the bot before that (a
# forfeit: no result), or still being played.
OVER, STOPPED, PLAYING = "over", "stopped", "playing"
STATUSES = (OVER, STOPPED, PLAYING)


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says what is wrong, and where."""


@dataclass(frozen=True)
class Replayed:
    """A record played back: the position its moves reach, and the record it came from."""

    record: Mapping[str, Any]
    state: State

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    def view(self) -> dict[str, Any]:
        """The final position as the record's reader knows it (`known_to`'s view, else the
        public one): what a picture of the record may show."""
        return self.state.view(self.record.get("known_to"))


def make_record(
    state: State,
    *,
    players: Sequence[Mapping[str, Any]],
    moves: Sequence[str] | None = None,
    known_to: int | None = None,
    stopped: bool = False,
) -> dict[str, Any]:
    """The record of the game `state` (the whole truth, as stored) for a reader who knows
    what the public knows plus, with `known_to`, what that seat alone knows (only for a game
    still being played: once over, everyone gets the same record). `players`: one entry per
    seat ({"seat", "name", "ai"}). `moves`: the stored action texts, which must be the
    state's own history (checked: a record must replay to what was played). `stopped`: the
    game ended without its rules ending it (a forfeit)."""
    game = state.game
    history = state.history
    if moves is not None and list(moves) != history:
        raise ValueError("The stored moves are not the moves of the stored position.")
    if len(players) != state.seats:
        raise ValueError(f"{state.seats} seats need {state.seats} players, not {len(players)}.")
    over = state.is_terminal()
    status = OVER if over else STOPPED if stopped else PLAYING
    reader = known_to if status == PLAYING else None
    if reader is not None and not 0 <= reader < state.seats:
        raise ValueError(f"No seat {reader}: seats are 0-{state.seats - 1}.")
    outcome = state.outcome()
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game.name,
        "title": game.title,
        "options": dict(state.options),
        "seats": state.seats,
        "players": [
            {"seat": int(p["seat"]), "name": str(p["name"]), "ai": p.get("ai")} for p in players
        ],
        "status": status,
        "known_to": reader,
        "deal": _plain(game.record_deal(state, reader)),
        "moves": history,
        "result": _plain(outcome.to_dict()) if outcome is not None else None,
    }


def record_json(record: Mapping[str, Any]) -> str:
    """The record as the file people download: the record's parts and the deal's one a line,
    each player, draw and move on a line of its own, everything deeper on that line."""
    return _layout(record, 0) + "\n"


def _layout(value: Any, depth: int) -> str:
    """JSON with a line per entry of the top two levels and per item of their lists of
    records or moves; compact below that (a move, a player, a revealed card)."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, Mapping) and value and depth < 2:
        body = ",\n".join(
            f"{inner}{json.dumps(k)}: {_layout(v, depth + 1)}" for k, v in value.items()
        )
        return "{\n" + body + "\n" + pad + "}"
    if isinstance(value, list) and value and (depth == 1 or (depth == 2 and _nested(value))):
        body = ",\n".join(inner + json.dumps(v, ensure_ascii=False) for v in value)
        return "[\n" + body + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def _nested(values: list[Any]) -> bool:
    return any(isinstance(v, Mapping | list) for v in values)


def read_record(text: str | bytes) -> dict[str, Any]:
    """A record from its file's text; RecordError if it is not JSON or not a record."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"Not a JSON file: {exc}.") from exc
    if not isinstance(data, dict):
        raise RecordError("Not a game record: the file holds no JSON object.")
    return data


def check_header(record: Mapping[str, Any]) -> Game:
    """The game a record is of, after checking its format and version (refusing another
    format or a version this code cannot read before anything else is trusted)."""
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"Not a game record (format {record.get('format')!r}).")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(
            f"Record version {record.get('version')!r} is not supported "
            f"(this version reads version {RECORD_VERSION})."
        )
    try:
        return find_game(str(record.get("game")))
    except KeyError as exc:
        raise RecordError(exc.args[0]) from exc


def replay_record(record: Mapping[str, Any]) -> Replayed:
    """Check a record and play it back: the format and version, its table, a deal rebuilt
    from what it says was public, every move legal in turn and in engine form, and for a
    game over the same result. RecordError saying what is wrong (and at which move)."""
    game = check_header(record)
    try:
        seats = int(record["seats"])
        options = dict(record.get("options") or {})
        status = record["status"]
        moves = [str(m) for m in record["moves"]]
        players = list(record["players"])
        known_to = record.get("known_to")
        deal = record.get("deal") or {}
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"The record is incomplete or malformed: {exc!r}.") from exc
    if status not in STATUSES:
        raise RecordError(f"Unknown status {status!r}: one of {', '.join(STATUSES)}.")
    if len(players) != seats:
        raise RecordError(f"{seats} seats but {len(players)} players.")
    if known_to is not None and (status != PLAYING or not 0 <= int(known_to) < seats):
        raise RecordError(f"known_to {known_to!r} does not fit a {status} game of {seats}.")
    try:
        state = game.deal_from_record(seats, options, deal)
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"The deal cannot be rebuilt: {exc}") from exc
    for number, text in enumerate(moves, start=1):
        try:
            state.apply(text)
        except GameError as exc:
            raise RecordError(f"Move {number} ({text!r}) is not legal here: {exc}") from exc
    if state.history != moves:
        raise RecordError("The moves are not written in the game's own form.")
    _check_result(state, status, record.get("result"))
    return Replayed(record, state)


def _check_result(state: State, status: str, result: Any) -> None:
    """A game over must end by the moves with its recorded result; any other must not end."""
    outcome = state.outcome()
    if status != OVER:
        if outcome is not None:
            raise RecordError(f"The moves end the game, but the record says it is {status}.")
        if result is not None:
            raise RecordError(f"A {status} game has no result.")
        return
    if outcome is None:
        raise RecordError("The record says the game is over, but its moves do not end it.")
    if _plain(outcome.to_dict()) != result:
        raise RecordError(
            f"The moves end the game with {json.dumps(_plain(outcome.to_dict()))}, "
            f"not with the recorded result {json.dumps(result)}."
        )


def _plain(value: Any) -> Any:
    """JSON-shaped data (tuples as lists), as a record holds it once written."""
    return json.loads(json.dumps(value))


__all__ = [
    "OVER",
    "PLAYING",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "STOPPED",
    "RecordError",
    "Replayed",
    "check_header",
    "make_record",
    "read_record",
    "record_json",
    "replay_record",
]
