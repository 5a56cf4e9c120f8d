"""Game records end to end without Discord: a game of each kind played to its end through the
engine, exported by the code /game export runs, and checked by the command line as a real
process (`python -m games replay`), which must reach the same result and draw the final
board; and what a record may never hold (the seed, another player's secret)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from data.texts import ENGLISH
from engine.core import State
from engine.records import replay_record
from games import find_game
from games.cli import seat_rng
from games.high_voltage.pictures import hv_board_image
from games.pylons.pictures import pylons_board_image
from games.sector6.pictures import sector6_board_image
from hvbot.messages.records import record_file
from hvbot.store import GameRow, SeatRow

ROOT = Path(__file__).resolve().parents[2]
# Seeds whose random games end with every seat on a different, not all zero, score, so a
# replay that mixed up seats or scores could not pass.
GAMES = [("high-voltage", 3, 4), ("pylons", 2, 0), ("sector6", 3, 0)]
BOARDS = {
    "high-voltage": hv_board_image,
    "pylons": pylons_board_image,
    "sector6": sector6_board_image,
}
SEED = 918_273_645_501  # long enough that finding its digits in a file is no accident


def played(name: str, seats: int, seed: int, moves: int | None = None) -> State:
    """A game dealt from `seed`, its seats playing random legal moves (as `simulate` does)
    to the end, or for `moves` moves."""
    state = find_game(name).new_state(seats, seed)
    rng = seat_rng(seed)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply(state.sample_action(rng))
    return state


def row_for(state: State, status: str) -> GameRow:
    """The stored game a bot would hold for `state`: Ada, an AI at seat 1, Bo and Cy after."""
    people = ["Ada", None, "Bo", "Cy"]
    seats = tuple(
        SeatRow(seat, None, "hard", f"AI {seat} (hard)")
        if people[seat] is None
        else SeatRow(seat, 100 + seat, None, str(people[seat]))
        for seat in range(state.seats)
    )
    return GameRow(
        id=42,
        game_name=state.game.name,
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status=status,
        seed=state.seed,
        options=dict(state.options),
        state_json=json.dumps(state.to_dict()),
        version=1,
        lobby_message_id=None,
        seats=seats,
    )


def exported(state: State, reader: int | None = None, status: str = "finished") -> bytes:
    """The file /game export sends for `state`, from its stored moves."""
    moves = [(0, text) for text in state.history]
    return record_file(row_for(state, status), state, moves, reader, ENGLISH).data


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(("name", "seats", "seed"), GAMES)
def test_a_finished_game_s_record_replays_to_its_result_and_draws_its_board(
    name: str, seats: int, seed: int, tmp_path: Path
) -> None:
    state = played(name, seats, seed)
    outcome = state.outcome()
    assert outcome is not None
    path = tmp_path / "record.json"
    path.write_bytes(exported(state))
    record = json.loads(path.read_text())
    assert record["format"] == "game-record" and record["version"] == 1
    assert record["game"] == name and record["status"] == "over"
    assert record["moves"] == state.history
    assert [p["name"] for p in record["players"]] == ["Ada", "AI 1 (hard)", "Bo"][:seats]
    assert [p["ai"] for p in record["players"]] == [None, "hard", None][:seats]

    done = replay(str(path), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == name and summary["moves"] == len(state.history)
    assert summary["result"] == json.loads(json.dumps(outcome.to_dict()))
    assert summary["result"]["scores"] == list(outcome.scores)

    picture = tmp_path / "final.png"
    done = replay(str(path), "--picture", str(picture))
    assert done.returncode == 0, done.stderr
    assert "the recorded result holds" in done.stdout
    for seat, score in enumerate(outcome.scores):
        assert f"{record['players'][seat]['name']}" in done.stdout
        assert f": {score} points" in done.stdout
    names = [p["name"] for p in record["players"]]
    expected = BOARDS[name](state.view(None), names=names).size
    with Image.open(picture) as image:
        assert image.format == "PNG"
        image.load()
        assert image.size == expected


def test_a_record_whose_moves_do_not_hold_is_refused_with_the_move(tmp_path: Path) -> None:
    state = played("pylons", 2, 0)
    record = json.loads(exported(state))
    record["moves"][5] = record["moves"][3]  # a cell taken already
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    done = replay(str(path))
    assert done.returncode == 1
    assert "Move 6" in done.stderr and "not legal" in done.stderr

    record = json.loads(exported(state))
    record["result"]["scores"] = list(reversed(record["result"]["scores"]))
    path.write_text(json.dumps(record))
    done = replay(str(path))
    assert done.returncode == 1 and "not with the recorded result" in done.stderr

    record["version"] = 2
    path.write_text(json.dumps(record))
    done = replay(str(path))
    assert done.returncode == 1 and "version 2 is not supported" in done.stderr


def _text(data: bytes) -> str:
    return data.decode()


def test_a_finished_record_holds_no_seed(tmp_path: Path) -> None:
    for name, seats, _ in GAMES:
        state = played(name, seats, SEED)
        text = _text(exported(state))
        assert "seed" not in text and str(SEED) not in text


def test_a_players_high_voltage_record_holds_their_secrets_and_nobody_else_s() -> None:
    state = played("high-voltage", 3, SEED, moves=1)
    while state.prompt() != "place":  # a card drawn, still in its drawer's hand
        state.apply(state.sample_action(seat_rng(len(state.history))))
    drawer = state.current_seat()
    assert drawer is not None
    draws = sum(text.startswith("draw") for text in state.history)
    colours = [state.setup.colours[c] for c in state.seat_colour]  # type: ignore[attr-defined]
    for seat in range(3):
        text = _text(exported(state, seat, status="active"))
        record: dict[str, Any] = json.loads(text)
        assert "seed" not in text and str(SEED) not in text
        assert record["status"] == "playing" and record["known_to"] == seat
        assert record["result"] is None
        assert record["deal"]["colours"] == [
            c if s == seat else None for s, c in enumerate(colours)
        ]
        # The card in the drawer's hand is theirs alone; every other draw was placed face up.
        shown = draws if seat == drawer else draws - 1
        assert len(record["deal"]["draws"]) == shown
        # Each seat's record replays to the position as that seat sees it, hidden parts apart.
        done = subprocess_free_replay(record)
        assert done.view(seat) == state.view(seat)


def test_a_players_sector6_record_holds_their_drawn_tile_and_nobody_else_s() -> None:
    state = played("sector6", 3, SEED, moves=7)
    while state.prompt() != "place":
        state.apply(state.sample_action(seat_rng(len(state.history))))
    drawer = state.current_seat()
    for seat in range(3):
        text = _text(exported(state, seat, status="active"))
        record = json.loads(text)
        assert "seed" not in text and str(SEED) not in text
        held = [d for d in record["deal"]["draws"] if d["move"] == len(state.history) - 1]
        assert bool(held) == (seat == drawer)
        assert subprocess_free_replay(record).view(seat) == state.view(seat)


def test_a_stopped_game_s_record_is_the_public_one_without_a_result() -> None:
    state = played("high-voltage", 2, SEED, moves=20)
    record = json.loads(exported(state, 0, status="finished"))
    assert record["status"] == "stopped" and record["known_to"] is None
    assert record["result"] is None and record["deal"]["colours"] == [None, None]
    assert subprocess_free_replay(record).view(None) == state.view(None)


def subprocess_free_replay(record: dict[str, Any]) -> State:
    """The record played back in this process (the checks the command line makes)."""
    return replay_record(record).state
