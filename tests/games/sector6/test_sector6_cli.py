"""Sector 6 from the command line: `simulate --mode ...` and a game in the terminal."""

from __future__ import annotations

import io
import json
import random

from games.cli import main
from games.sector6.rules import GAME
from games.sector6.rules.textboard import board_lines, prompt_lines, text_board


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), inp=io.StringIO(stdin), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_simulate_takes_a_mode():
    code, out, err = run(
        "simulate", "--game", "sector6", "--players", "3", "--mode", "novice", "--games", "2"
    )
    assert code == 0, err
    *games, summary = [json.loads(line) for line in out.splitlines()]
    assert summary["game"] == "sector6" and summary["players"] == 3
    assert summary["failures"] == 0 and len(games) == 2
    assert all(len(g["scores"]) == 3 for g in games)


def test_mode_is_short_for_the_option_and_checked_by_the_game():
    code, _, err = run("simulate", "--game", "sector6", "--mode", "hard", "--games", "1")
    assert code == 2 and "must be one of full, veteran, novice" in err
    code, _, err = run("simulate", "--game", "hv", "--mode", "full", "--games", "1")
    assert code == 2 and "Unknown option 'mode'" in err


def test_a_person_can_build_in_the_terminal():
    code, out, _ = run(
        "play",
        "--game",
        "sector6",
        "--players",
        "2",
        "--seed",
        "3",
        "--seat",
        "0",
        stdin="draw\nplace J10 r60\nquit\n",
    )
    assert code == 0
    assert "Your drawn tile: value" in out
    assert "You left the game." in out


def test_the_text_board_shows_labels_markers_prisoners_and_walls():
    state = GAME.new_state(2, 6)
    rng = random.Random(6)
    while state.phase == "build":
        state.apply(state.sample_action(rng))
    view = state.view(0)
    text = text_board(view)
    for tile in view["tiles"]:
        assert tile["cell"] in text
    assert "ox4" in text and "P1" in text and "P2" in text
    assert any(ch in text for ch in "_/\\")
    assert prompt_lines(view)[0].startswith("Type")
    empty = GAME.new_state(2, 6).view(None)
    assert board_lines(empty) == [
        "(the table is empty: the first tile goes anywhere, e.g. place J10 r0)"
    ]
