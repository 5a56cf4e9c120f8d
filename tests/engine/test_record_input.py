"""A game record is a file from anyone: `python -m games replay` reads it as untrusted input.

Whatever the file holds, the command either replays it or says what is wrong in one line on
stderr and exits 1: never a traceback, never a terminal's control characters printed raw,
never memory or time out of proportion to a record. The crafted records below are the ones
that once ended in a traceback or ran away; the fuzz tests then mutate real records field by
field, and throw bytes at the reader, through the command line's own `main`.
"""

from __future__ import annotations

import io
import json
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import State
from engine.records import (
    MAX_MOVES,
    MAX_NAME_CHARS,
    MAX_RECORD_BYTES,
    RecordError,
    make_record,
    read_record,
    record_json,
    replay_record,
)
from games import find_game, register_all
from games.cli import main, seat_rng, terminal_text

register_all()

ESCAPES = "\x1b]0;owned\x07\x1b[2J"  # set the terminal's title, then clear its screen


def played(name: str, seats: int, seed: int, moves: int | None = None) -> State:
    state = find_game(name).new_state(seats, seed)
    rng = seat_rng(seed)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply(state.sample_action(rng))
    return state


def record_of(
    state: State, names: list[str] | None = None, known_to: int | None = None
) -> dict[str, Any]:
    names = names or [f"P{seat}" for seat in range(state.seats)]
    players = [{"seat": seat, "name": name, "ai": None} for seat, name in enumerate(names)]
    return json.loads(record_json(make_record(state, players=players, known_to=known_to)))


def good_record() -> dict[str, Any]:
    """Ada's High Voltage game under way, her card in hand: the record the cases spoil."""
    state = played("high-voltage", 2, 3, moves=9)
    return record_of(state, ["Ada", "Bo"], known_to=state.current_seat())


def replay_file(path: Path, *extra: str) -> tuple[int, str, str]:
    """`python -m games replay PATH`, in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["replay", str(path), *extra], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def assert_refused(path: Path, saying: str = "") -> str:
    """The record at `path` is refused in one line on stderr, exit 1; that line."""
    status, out, err = replay_file(path)
    assert status == 1, (status, out, err[:500])
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err[:500]
    assert err.startswith(f"{path}: not a valid game record: "), err[:500]
    assert "\x1b" not in err
    assert saying in err, err[:500]
    return err


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    return tmp_path / "record.json"


def write(path: Path, record: Any) -> Path:
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return path


# ---------------------------------------------------------------------- crafted records


def test_the_unspoilt_record_replays(record_path: Path) -> None:
    status, out, err = replay_file(write(record_path, good_record()))
    assert (status, err) == (0, "")
    assert "Still being played" in out


def test_json_nested_past_the_stack_is_refused(record_path: Path) -> None:
    assert_refused(write(record_path, "[" * 100_000 + "]" * 100_000), "nests deeper")
    deep: Any = []
    for _ in range(200):  # within what the JSON reader takes, deeper than a record
        deep = [deep]
    assert_refused(write(record_path, {**good_record(), "deal": deep}), "nests deeper")


@pytest.mark.parametrize("key", ["seats", "known_to"])
@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_infinity_and_nan_are_refused(record_path: Path, key: str, constant: str) -> None:
    text = json.dumps({**good_record(), key: 12345}).replace("12345", constant)
    assert_refused(write(record_path, text), constant)


@pytest.mark.parametrize("known_to", ["1", [1], 1.0, True, {"seat": 1}])
def test_known_to_of_another_kind_is_refused(record_path: Path, known_to: Any) -> None:
    assert_refused(write(record_path, {**good_record(), "known_to": known_to}), "known_to")


@pytest.mark.parametrize("players", [[1, 2], ["Ada", "Bo"], [None, None], [[], []], "Ada, Bo"])
def test_players_that_are_not_objects_are_refused(record_path: Path, players: Any) -> None:
    assert_refused(write(record_path, {**good_record(), "players": players}), "layer")


def test_a_number_of_thousands_of_digits_is_refused(record_path: Path) -> None:
    text = json.dumps({**good_record(), "seats": 12345}).replace("12345", "7" * 5_000)
    assert_refused(write(record_path, text), "5000 digits")


@pytest.mark.parametrize("seats", [2.5, "2", True, -1, 0, 99])
def test_seats_must_be_a_seat_count_of_the_game(record_path: Path, seats: Any) -> None:
    record = {**good_record(), "seats": seats}
    assert_refused(write(record_path, record), "seats" if seats in (2.5, "2", True) else "2-4")


def test_a_name_past_the_limit_is_refused(record_path: Path) -> None:
    record = good_record()
    record["players"][1]["name"] = "B" * MAX_NAME_CHARS
    assert replay_file(write(record_path, record))[0] == 0
    record["players"][1]["name"] = "B" * (MAX_NAME_CHARS + 1)
    assert_refused(write(record_path, record), f"at most {MAX_NAME_CHARS} characters")
    record["players"][1]["name"] = {"first": "Bo"}
    assert_refused(write(record_path, record), "name")


def test_a_huge_file_is_refused_before_it_is_parsed(record_path: Path) -> None:
    """15 MB of five million empty moves: once 755 MB and 13 s, now refused unread."""
    moves = ",".join(["[]"] * 5_000_000)
    text = json.dumps({**good_record(), "moves": "MOVES"}).replace('"MOVES"', f"[{moves}]")
    record_path.write_text(text)
    del moves, text
    tracemalloc.start()
    started = time.process_time()
    try:
        assert_refused(record_path, "larger than a record may be")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_RECORD_BYTES, f"{peak} bytes held to refuse it"
    assert time.process_time() - started < 2


def test_too_many_moves_are_refused_before_any_is_played(record_path: Path) -> None:
    record = {**good_record(), "moves": [[]] * (MAX_MOVES + 1)}
    assert_refused(write(record_path, record), f"at most {MAX_MOVES}")


def test_the_first_bad_move_ends_the_replay(record_path: Path) -> None:
    record = good_record()
    moves = [*record["moves"][:2], [], *([{"move": "x" * 50}] * 10_000)]
    err = assert_refused(write(record_path, {**record, "moves": moves}), "Move 3 ([])")
    assert "xxx" not in err
    record["moves"][4] = "draw " + "A1" * 5_000
    err = assert_refused(write(record_path, record), "Move 5 ('draw A1A1")
    assert len(err) < 400, "a long move is quoted in part"


@pytest.mark.parametrize(
    "deal",
    [
        [],
        "deal",
        {"face_up": 7},
        {"face_up": [[]]},
        {"face_up": [{"cell": "A1"}]},
        {"face_up": [], "draws": [], "colours": [], "first_seat": 0},
    ],
)
def test_a_deal_the_game_cannot_take_is_refused(record_path: Path, deal: Any) -> None:
    assert_refused(write(record_path, {**good_record(), "deal": deal}), "deal")


def test_a_sector6_deal_of_another_kind_is_refused(record_path: Path) -> None:
    state = played("sector6", 2, 0, moves=6)
    record = record_of(state)
    for draws in ([1], [{"tile": 3}], [{"seat": "x", "tile": {"layout": "a", "value": 1}}]):
        assert_refused(write(record_path, {**record, "deal": {**record["deal"], "draws": draws}}))
    assert_refused(write(record_path, {**record, "deal": {**record["deal"], "first_seat": 9}}))


def test_a_pylons_deal_of_another_kind_is_refused(record_path: Path) -> None:
    record = record_of(played("pylons", 2, 0, moves=4))
    for swamps in (3, [3], [{"cell": 3}], [{"cell": "ZZ99", "size": 3}]):
        assert_refused(write(record_path, {**record, "deal": {"swamps": swamps}}), "deal")


# ---------------------------------------------------------------------- what is printed


def test_names_reach_the_terminal_with_their_control_characters_escaped(
    record_path: Path,
) -> None:
    """A `playing` record's name to move, and a finished one's score lines."""
    state = played("high-voltage", 2, 3, moves=9)
    to_move = state.current_seat()
    assert to_move is not None
    names = ["Ada", "Bo"]
    names[to_move] = f"Mallory{ESCAPES}\u202eevil"
    status, out, err = replay_file(write(record_path, record_of(state, names)))
    assert (status, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "Mallory\\x1b]0;owned\\x07\\x1b[2J\\u202eevil to move" in out

    finished = played("pylons", 2, 0)
    status, out, err = replay_file(
        write(record_path, record_of(finished, [f"Ada{ESCAPES}", "Bo\nWinner: Ada"]))
    )
    assert (status, err) == (0, "")
    assert "\x1b" not in out and "Bo\\nWinner: Ada" in out
    assert len(out.splitlines()) == 2 + finished.seats


def test_an_error_line_quoting_the_record_is_escaped_too(record_path: Path) -> None:
    err = assert_refused(write(record_path, {**good_record(), "game": f"chess{ESCAPES}"}))
    assert "\\x1b]0;owned" in err and "\x07" not in err


def test_terminal_text_leaves_what_shows_as_it_is() -> None:
    shown = "Zo\u00eb \u03a9\u03bc\u03ad\u03b3\u03b1 \u674e \U0001f3b2\U0001f469\u200d\U0001f467"
    assert terminal_text(shown) == shown  # the joiner of an emoji's family stays
    assert terminal_text("a\tb\x9bc\u2028d\ud800\u202e") == "a\\tb\\x9bc\\u2028d\\ud800\\u202e"


# ---------------------------------------------------------------------- fuzzing

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["A1", "C6", "draw C6", "place here r90", "red", "over", "playing"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def sample_records() -> list[dict[str, Any]]:
    """Small real records of each game, finished and under way: what the mutations spoil."""
    hv_mid = played("high-voltage", 3, 5, moves=12)
    return [
        good_record(),
        record_of(hv_mid, known_to=hv_mid.current_seat()),
        record_of(played("pylons", 2, 1, moves=6)),
        record_of(played("sector6", 2, 2, moves=10), known_to=0),
        record_of(played("pylons", 2, 0)),
    ]


SAMPLES = sample_records()


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a record a value sits, the record itself excluded."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        yield (*at, key)
        yield from paths(child, (*at, key))


def spoiled(record: dict[str, Any], path: tuple[Any, ...], new: Any, drop: bool) -> Any:
    copy = json.loads(json.dumps(record))
    *parents, last = path
    holder = copy
    for key in parents:
        holder = holder[key]
    if drop:
        del holder[last]
    else:
        holder[last] = new
    return copy


@st.composite
def spoiled_records(draw: st.DrawFn) -> str:
    """A real record with one to three of its values replaced by any JSON, or taken out."""
    record = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 3))):
        where = list(paths(record))
        path = draw(st.sampled_from(where))
        record = spoiled(record, path, draw(JSON_VALUES), draw(st.booleans()))
    return json.dumps(record)


def replays_or_says_why(text: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        status, out, err = replay_file(path)
    if status == 0:
        assert err == "" and out
    else:
        assert status == 1 and out == "", (status, out, err)
        assert err.count("\n") == 1 and err.startswith(f"{path}: not a valid game record: ")
    assert "\x1b" not in out + err


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spoiled_records())
def test_a_spoiled_record_replays_or_is_refused_in_one_line(text: str) -> None:
    replays_or_says_why(text)


@settings(max_examples=100, deadline=None)
@given(
    st.binary(max_size=200)
    | st.builds(json.dumps, JSON_VALUES)
    | st.builds(
        lambda record, extra: json.dumps({**record, **extra}),
        st.sampled_from(SAMPLES),
        st.dictionaries(
            st.sampled_from(
                [
                    "format",
                    "version",
                    "game",
                    "seats",
                    "status",
                    "moves",
                    "players",
                    "known_to",
                    "deal",
                    "options",
                    "result",
                ]
            ),
            JSON_VALUES,
            max_size=3,
        ),
    )
)
def test_any_bytes_replay_or_are_refused_in_one_line(text: str | bytes) -> None:
    replays_or_says_why(text)


def test_the_records_api_raises_only_record_errors_for_what_the_cli_refused() -> None:
    """`read_record` and `replay_record` themselves (what the bot's code may call)."""
    for text in ("[" * 50_000, '{"seats": Infinity}', "1" * 5_000, "{}"):
        with pytest.raises(RecordError):
            replay_record(read_record(text))
