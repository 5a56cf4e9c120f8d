"""`python -m games`: simulations that prove games end by a rule, and play in a terminal.

A few tests start the command itself (`run`): its exit status, its output and its input
through a real process. The others call the same `main` in this process (`run_here`), as the
command does, with the same arguments, input and checks: a process of its own for each would
only import the games again.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games import find_game
from games.cli import main
from games.high_voltage.rules.state import END_DECK, END_ENERGY, END_NO_LINES, END_STUCK

ROOT = Path(__file__).resolve().parents[2]
RULE_ENDINGS = {END_ENERGY, END_DECK, END_NO_LINES, END_STUCK}
GAME_KEYS = {"seed", "turns", "lines", "scores", "end_reason"}
CELLS = [f"{column}{row}" for row in range(1, 8) for column in "ABCDEFG"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "games", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """What `run` gives for the same command, from `main` in this process: its status (that
    of an exit on bad arguments too) and everything written to its output and error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args), inp=io.StringIO(stdin), out=out, err=err)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
    return subprocess.CompletedProcess(["games", *args], status, out.getvalue(), err.getvalue())


def simulate(*extra: str, here: bool = True) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    done = (run_here if here else run)("simulate", "--game", "high-voltage", *extra)
    return done, [json.loads(line) for line in done.stdout.splitlines()]


# ---------------------------------------------------------------------- simulate


def test_simulate_prints_a_line_per_game_and_a_matching_summary() -> None:
    done, records = simulate("--players", "4", "--games", "6", "--seed", "7", here=False)
    assert done.returncode == 0, done.stderr
    games, summary = records[:-1], records[-1]
    assert [g["seed"] for g in games] == list(range(7, 13))
    for game in games:
        assert game.keys() >= GAME_KEYS
        assert game["end_reason"] in RULE_ENDINGS
        assert len(game["scores"]) == 4
        assert game["turns"] > 0 and game["lines"] >= 0
    assert summary["summary"] is True
    assert summary["games"] == 6 and summary["failures"] == 0
    assert sum(summary["end_reasons"].values()) == 6
    assert set(summary["end_reasons"]) <= RULE_ENDINGS
    assert summary["mean_turns"] == pytest.approx(sum(g["turns"] for g in games) / 6, abs=0.01)
    assert summary["mean_lines"] == pytest.approx(sum(g["lines"] for g in games) / 6, abs=0.001)
    assert summary["ms_per_game"] > 0


def test_simulate_is_reproducible_from_the_seed() -> None:
    first = simulate("--players", "3", "--games", "4", "--seed", "21")[1]
    second = simulate("--players", "3", "--games", "4", "--seed", "21")[1]
    for record in (first[-1], second[-1]):
        record.pop("ms_per_game")
    assert first == second
    other = simulate("--players", "3", "--games", "4", "--seed", "22")[1]
    assert other[0] != first[0]


def test_simulate_matches_the_engine_played_directly() -> None:
    from games.cli import play_random_game

    run_ = play_random_game(find_game("hv"), 2, 5)
    record = simulate("--players", "2", "--games", "1", "--seed", "5")[1][0]
    assert record == {**run_.to_json()}


def test_games_are_found_by_alias() -> None:
    assert (
        run_here("simulate", "--game", "High Voltage", "--players", "2", "--games", "1").returncode
        == 0
    )
    assert run_here("simulate", "--game", "HV", "--players", "2", "--games", "1").returncode == 0


def test_an_unknown_game_exits_2_with_a_one_line_message() -> None:
    done = run("simulate", "--game", "chess", "--games", "1")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "chess" in done.stderr and "high-voltage" in done.stderr


def test_the_game_judges_the_player_count() -> None:
    done = run_here("simulate", "--players", "5", "--games", "1")
    assert done.returncode == 2
    assert "2-4 players" in done.stderr


def test_a_game_that_does_not_end_fails_the_run() -> None:
    done, records = simulate("--players", "2", "--games", "2", "--max-actions", "10")
    assert done.returncode == 1
    assert all("error" in record for record in records[:-1])
    assert records[-1]["failures"] == 2
    assert "seed 0" in done.stderr and "10 actions" in done.stderr


# ---------------------------------------------------------------------- play


def seed_where_seat_moves_first(seat: int, players: int = 2) -> int:
    game = find_game("high-voltage")
    return next(s for s in range(100) if game.new_state(players, s).current_seat() == seat)


def play(stdin: str, *args: str, here: bool = True) -> subprocess.CompletedProcess[str]:
    return (run_here if here else run)("play", "--game", "high-voltage", *args, stdin=stdin)


def test_a_bad_action_gets_a_message_and_the_game_goes_on() -> None:
    seed = seed_where_seat_moves_first(0)
    done = play("dance\ndraw D4\ndraw A1\nplace here r90\nquit\n", "--seed", str(seed), here=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "I can't read 'dance'" in out
    assert "D4 is the empty cell" in out
    assert "You drew the card at A1" in out
    assert "\nSeat 1: " in out  # the placement ended the turn and the random seat answered
    assert out.rstrip().endswith("You left the game.")


def test_the_drawn_card_is_shown_before_placing() -> None:
    seed = seed_where_seat_moves_first(1)
    state = find_game("high-voltage").new_state(2, seed)
    state.apply("draw G7")
    kind = state.view(1)["drawn"]["kind"].replace("_", " ")
    done = play("draw G7\n", "--seed", str(seed), "--seat", "1")
    assert f"You drew the card at G7 ({kind}):" in done.stdout
    assert "place here r90" in done.stdout
    assert done.returncode == 0


def test_end_of_input_leaves_cleanly() -> None:
    done = play("", "--seed", "3")
    assert done.returncode == 0
    assert "End of input" in done.stdout
    assert done.stderr == ""


def test_help_lists_the_forms_and_legal_actions() -> None:
    seed = seed_where_seat_moves_first(0)
    done = play("help\n", "--seed", str(seed))
    assert "swap B2 F6 r0 r270" in done.stdout
    assert re.search(r"Legal now, for example: draw [A-G]\d", done.stdout)


def test_bad_play_arguments_exit_2() -> None:
    assert play("", "--players", "1").returncode == 2
    done = play("", "--players", "2", "--seat", "2")
    assert done.returncode == 2 and "--seat" in done.stderr


def test_a_whole_game_never_shows_another_seats_colour_before_the_end() -> None:
    seed, seat = 5, 1
    game = find_game("high-voltage")
    dealt = game.new_state(3, seed)
    colours = [dealt.view(s)["players"][s]["colour"] for s in range(3)]
    turn = "".join(f"draw {cell}\nplace here r0\ndeclare none\n" for cell in CELLS)
    done = play(turn * 30, "--players", "3", "--seed", str(seed), "--seat", str(seat))
    assert done.returncode == 0, done.stderr
    during, _, after = done.stdout.partition("The game is over.")
    assert after, "the game should reach its end"
    told = set(re.findall(r"your company colour is (\w+)", during))
    assert told == {colours[seat]}
    table_rows = re.findall(r"^\s+(\d)\s+\d+\s+\d+\s+\d+\s+(\w+)", during, flags=re.M)
    assert table_rows
    for row_seat, colour in table_rows:
        assert colour == (colours[seat] if int(row_seat) == seat else "secret")
    for other in (0, 2):
        assert f"seat {other}, {colours[other]}:" in after
    assert f"seat {seat} (you), {colours[seat]}:" in after
    assert "Game over:" in after


def test_the_parser_is_built_once_a_process_and_refusals_leave_it_as_it_was() -> None:
    from games.cli import build_parser

    assert build_parser() is build_parser()
    assert run_here("play", "--players", "1").returncode == 2
    assert run_here("simulate", "--games", "nine").returncode == 2
    done, records = simulate("--players", "2", "--games", "1", "--seed", "5")
    assert done.returncode == 0 and records[-1]["games"] == 1
    assert build_parser().parse_args(["play"]).seat == 0
