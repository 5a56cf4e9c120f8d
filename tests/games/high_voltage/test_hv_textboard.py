"""The terminal picture of High Voltage: cards where they belong, paths readable, no secrets."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games import find_game
from games.high_voltage.rules.textboard import (
    FACE_DOWN,
    board_lines,
    card_block,
    cell_origin,
    drawn_lines,
    prompt_lines,
    status_lines,
    text_board,
)

SIZE = 7


def index(name: str) -> int:
    return (int(name[1:]) - 1) * SIZE + ord(name[0]) - 65


def up(name: str, kind: str, paths: list[tuple[str, str, str]], energy: str = "none") -> dict:
    return {
        "cell": name,
        "state": "up",
        "kind": kind,
        "rotation": 0,
        "paths": [{"edges": [a, b], "colour": colour} for a, b, colour in paths],
        "energy": energy,
    }


@pytest.fixture
def view() -> dict[str, Any]:
    """A dealt position with a few cards replaced by known ones.

    D3: a red straight card N-S; E4: a yellow straight card E-W with a HIGH VOLTAGE token;
    F4: a blue curve W-N, so it meets E4; D4 is the empty cell; C4 carries DANGER.
    """
    state = find_game("high-voltage").new_state(2, 11)
    data = copy.deepcopy(state.view(0))
    cells = data["cells"]
    cells[index("D3")] = up("D3", "straight", [("N", "S", "red")])
    cells[index("E4")] = up("E4", "straight", [("E", "W", "yellow")], "high_voltage")
    cells[index("F4")] = up("F4", "curve", [("W", "N", "blue")])
    cells[index("C4")] = up("C4", "crossing", [("N", "S", "green"), ("E", "W", "red")], "danger")
    cells[index("D5")] = {"cell": "D5", "state": "down"}
    assert cells[index("D4")]["state"] == "empty"
    return data


def locate(lines: list[str], column: str, row: int) -> tuple[int, int]:
    """(line, character) of the centre of a cell, found from the printed coordinates."""
    x = lines[0].index(column)
    y = next(i for i, text in enumerate(lines) if text.startswith(f"{row:>2} "))
    return y, x


def block_at(lines: list[str], column: str, row: int) -> list[str]:
    y, x = locate(lines, column, row)
    return [lines[y + dy].ljust(x + 3)[x - 2 : x + 3] for dy in (-1, 0, 1)]


def test_a_straight_card_shows_its_colour_letter_down_its_cell(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    assert block_at(lines, "D", 3) == ["  R  ", "  R  ", "  R  "]


def test_a_horizontal_card_and_its_energy_token(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    assert block_at(lines, "E", 4) == ["^   ^", "YYYYY", "     "]


def test_paths_that_meet_are_joined_across_the_gap(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    y, x = locate(lines, "E", 4)
    assert lines[y][x + 2 : x + 5] == "Y-B"  # E4's yellow meets F4's blue curve
    assert block_at(lines, "F", 4) == [" BB  ", "BB   ", "     "]


def test_crossing_danger_face_down_and_empty_cells_look_different(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    crossing = block_at(lines, "C", 4)
    assert crossing == ["! G !", "RR+RR", "  G  "]
    assert block_at(lines, "D", 5) == list(FACE_DOWN)
    assert block_at(lines, "D", 4) == ["     "] * 3
    assert (
        len({tuple(crossing), tuple(block_at(lines, "D", 5)), tuple(block_at(lines, "D", 4))}) == 3
    )


def test_the_frame_shows_every_station_number_beside_its_cell(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    letters = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
    for station in view["stations"]:
        label = f"{station['station']}{letters[station['colour']]}"
        column, row = station["cell"][0], int(station["cell"][1:])
        y, x = locate(lines, column, row)
        if station["side"] == "north":
            assert label in lines[1][x - 2 : x + 3]
        elif station["side"] == "south":
            assert label in lines[y + 3][x - 2 : x + 3]
        elif station["side"] == "west":
            assert lines[y][:8].split()[-1] == label
        else:
            assert lines[y][x + 3 :].split()[0] == label
    assert "31B" in lines[locate(lines, "A", 1)[0]]
    assert "1R" in lines[1] and "7G" in lines[1]


def test_cell_origin_matches_the_coordinates(view: dict[str, Any]) -> None:
    lines = text_board(view).splitlines()
    y, x = locate(lines, "D", 3)
    assert cell_origin(view, index("D3")) == (y - 1, x - 2)


def test_double_curves_keep_their_two_colours_apart() -> None:
    block = card_block(
        {"paths": [{"edges": ["N", "E"], "colour": "red"}, {"edges": ["S", "W"], "colour": "blue"}]}
    )
    assert block == ["  RR ", "BB RR", " BB  "]
    assert card_block({"paths": []}) != card_block(None)


def test_status_shows_only_the_viewers_colour() -> None:
    state = find_game("high-voltage").new_state(3, 5)
    colours = [state.view(seat)["players"][seat]["colour"] for seat in range(3)]
    text = "\n".join(status_lines(state.view(1)))
    assert f"your company colour is {colours[1]}" in text
    rows = [line.split() for line in text.splitlines() if line[:4].strip() in ("0", "1", "2")]
    assert [r[4] for r in rows] == ["secret", colours[1], "secret"]
    spectator = "\n".join(status_lines(state.view(None)))
    assert "your company colour" not in spectator


def test_the_drawn_card_is_shown_to_its_drawer_alone() -> None:
    state = find_game("high-voltage").new_state(2, 4)
    seat = state.current_seat()
    state.apply("draw A1")
    mine = "\n".join(prompt_lines(state.view(seat)))
    assert "You drew the card at A1" in mine and "r270" in mine
    assert drawn_lines(state.view(1 - seat)) == []
    assert drawn_lines(state.view(None)) == []
    assert "/////" in block_at(text_board(state.view(seat)).splitlines(), "A", 1)[0]


def test_boards_of_random_positions_keep_their_shape() -> None:
    state = find_game("high-voltage").new_state(4, 2)
    rng = random.Random(2)
    widths = set()
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        view = state.view(0)
        lines = board_lines(view)
        widths.add(len(lines[0]))
        down = sum(cell["state"] == "down" for cell in view["cells"])
        assert sum(line.count("/////") for line in lines) == 3 * down == 3 * view["face_down"]
    assert len(widths) == 1
    assert "The game is over." in text_board(state.view(0))
