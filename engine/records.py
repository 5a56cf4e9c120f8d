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

A record is a file anyone may hand over, so reading one trusts nothing in it: its size, its
number of moves, the length of its names and moves, how deep its JSON nests and how large its
numbers are all have limits, checked before the work they would cost, and every field must be
of its kind. Whatever is wrong ends in one `RecordError` saying what and where, never in
another exception.
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


# The limits of a record that is read (`read_record`, `replay_record`). A record of the bot's
# is far inside them: High Voltage writes about 64 bytes a move and its games take about 150
# moves, Sector 6's about 700; a long name of Discord's is 32 characters, a move's text 35.
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_MOVES = 20_000
MAX_NAME_CHARS = 100
MAX_MOVE_CHARS = 100
MAX_DEPTH = 16  # a record nests 6 deep (the record, its deal, the draws, a draw, its card)
MAX_DIGITS = 15  # a seat, a move's number, a score: JSON's exact integers have 15 digits
SHOWN_CHARS = 60  # how much of a bad value an error message quotes


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says what is wrong, and where."""


# What a game's own code may raise on a deal or a move it cannot make sense of: a record comes
# from anywhere, and each game checks what its rules need rather than every shape of JSON.
BAD_DATA = (
    ArithmeticError,
    AttributeError,
    LookupError,
    RecursionError,
    TypeError,
    ValueError,
)


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
    """A record from its file's text; RecordError if it is not JSON or not a record, or goes
    past a limit: larger than MAX_RECORD_BYTES (checked before parsing), nested deeper than
    MAX_DEPTH, a number of more than MAX_DIGITS digits, NaN or Infinity."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(
            f"The file is larger than a record may be ({MAX_RECORD_BYTES // 1024} KiB)."
        )
    try:
        data = json.loads(text, parse_int=_small_int, parse_constant=_no_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"Not a JSON file: {exc}.") from exc
    except RecursionError as exc:
        raise RecordError(f"The JSON nests deeper than a record ({MAX_DEPTH} levels).") from exc
    except ValueError as exc:  # what the JSON reader itself refuses, beyond its syntax
        raise RecordError(f"Not a JSON file a record can be: {_shown(exc)}.") from exc
    if not isinstance(data, dict):
        raise RecordError("Not a game record: the file holds no JSON object.")
    if _depth(data) > MAX_DEPTH:
        raise RecordError(f"The JSON nests deeper than a record ({MAX_DEPTH} levels).")
    return data


def _small_int(text: str) -> int:
    """A JSON integer, refused past MAX_DIGITS digits: no field of a record is larger, and
    Python's own limit (4,300 digits) would be an error of another kind."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"A number of {len(text)} digits: no record holds one.")
    return int(text)


def _no_constant(text: str) -> float:
    """NaN and Infinity are not JSON, though Python reads them: no record holds one."""
    raise RecordError(f"{text} is not a number a record holds.")


def _depth(value: Any) -> int:
    """How deep `value` nests (a number or text is 0), walked without recursion: the deepest
    JSON the reader accepts would otherwise exhaust the stack here."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def _shown(value: Any, most: int = SHOWN_CHARS) -> str:
    """`value` as an error message quotes it, cut to `most` characters: a value from the
    record as its repr (every control character escaped), an error by its message."""
    return _cut(str(value) if isinstance(value, BaseException) else repr(value), most)


def _cut(text: str, most: int = 200) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _problem(exc: BaseException) -> str:
    """What a game's code said about a deal or move it could not take: its message, or the
    kind of error when it has none (a KeyError's message is only the key)."""
    said = _shown(exc, 200)
    if isinstance(exc, KeyError):
        return f"{said} is missing"
    return said or type(exc).__name__


def check_header(record: Mapping[str, Any]) -> Game:
    """The game a record is of, after checking its format and version (refusing another
    format or a version this code cannot read before anything else is trusted)."""
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"Not a game record (format {_shown(record.get('format'))}).")
    version = record.get("version")
    if version != RECORD_VERSION or isinstance(version, bool):
        raise RecordError(
            f"Record version {_shown(version)} is not supported "
            f"(this version reads version {RECORD_VERSION})."
        )
    name = record.get("game")
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise RecordError(f"'game' must be a game's name, not {_shown(name)}.")
    try:
        return find_game(name)
    except KeyError as exc:
        raise RecordError(exc.args[0]) from exc


def replay_record(record: Mapping[str, Any]) -> Replayed:
    """Check a record and play it back: the format and version, its table, a deal rebuilt
    from what it says was public, every move legal in turn and in engine form, and for a
    game over the same result. RecordError saying what is wrong (and at which move), for
    whatever is wrong: a field of the wrong kind, a deal or a move the game cannot take."""
    game = check_header(record)
    for key in ("seats", "status", "moves", "players"):
        if key not in record:
            raise RecordError(f"The record is incomplete: it has no {key!r}.")
    seats = _integer(record["seats"], "seats")
    if not game.min_seats <= seats <= game.max_seats:
        raise RecordError(
            f"{game.title} is for {game.min_seats}-{game.max_seats} players, not {seats}."
        )
    status = record["status"]
    if status not in STATUSES:
        raise RecordError(f"Unknown status {_shown(status)}: one of {', '.join(STATUSES)}.")
    options = _object(record.get("options"), "options")
    deal = _object(record.get("deal"), "deal")
    _check_players(record["players"], seats)
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of moves.")
    if len(moves) > MAX_MOVES:
        raise RecordError(f"{len(moves)} moves: a record holds at most {MAX_MOVES}.")
    known_to = record.get("known_to")
    if known_to is not None:
        reader = _integer(known_to, "known_to")
        if status != PLAYING or not 0 <= reader < seats:
            raise RecordError(f"known_to {reader} does not fit a {status} game of {seats}.")
    try:
        state = game.deal_from_record(seats, options, deal)
    except BAD_DATA as exc:
        raise RecordError(f"The deal cannot be rebuilt: {_problem(exc)}") from exc
    for number, text in enumerate(moves, start=1):
        if not isinstance(text, str) or len(text) > MAX_MOVE_CHARS:
            raise RecordError(
                f"Move {number} ({_shown(text)}) is not a move: a text of at most "
                f"{MAX_MOVE_CHARS} characters."
            )
        try:
            state.apply(text)
        except GameError as exc:
            raise RecordError(
                f"Move {number} ({_shown(text)}) is not legal here: {_problem(exc)}"
            ) from exc
        except BAD_DATA as exc:
            raise RecordError(
                f"Move {number} ({_shown(text)}) cannot be played on this deal: {_problem(exc)}"
            ) from exc
    if state.history != moves:
        raise RecordError("The moves are not written in the game's own form.")
    try:
        _check_result(state, status, record.get("result"))
        # What is shown of the record: the position as its reader sees it, who is to move.
        state.view(known_to)
        state.current_seat()
    except RecordError:
        raise
    except BAD_DATA as exc:
        raise RecordError(f"The position the moves reach cannot be shown: {_problem(exc)}") from exc
    return Replayed(record, state)


def _integer(value: Any, key: str) -> int:
    """A field that must be a whole number (true and false are not, though Python counts
    them as such)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be a whole number, not {_shown(value)}.")
    return value


def _object(value: Any, key: str) -> dict[str, Any]:
    """A field that must be a JSON object, or null for an empty one."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"{key!r} must be an object, not {_shown(value)}.")
    return value


def _check_players(value: Any, seats: int) -> None:
    """The record's players, one object a seat, each name a text of at most MAX_NAME_CHARS
    characters (or null: the seat's number stands for it)."""
    if not isinstance(value, list):
        raise RecordError("'players' must be a list, one object a seat.")
    if len(value) != seats:
        raise RecordError(f"{seats} seats but {len(value)} players.")
    for seat, player in enumerate(value):
        if not isinstance(player, dict):
            raise RecordError(f"Player {seat} must be an object, not {_shown(player)}.")
        name = player.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME_CHARS):
            raise RecordError(
                f"Player {seat}'s name must be a text of at most {MAX_NAME_CHARS} "
                f"characters, not {_shown(name)}."
            )
        if "seat" in player:
            _integer(player["seat"], f"players[{seat}].seat")


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
            f"The moves end the game with {_cut(json.dumps(_plain(outcome.to_dict())))}, "
            f"not with the recorded result {_cut(json.dumps(result))}."
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
