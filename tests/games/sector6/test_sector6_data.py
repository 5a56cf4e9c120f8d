"""The Sector 6 data files: what ships is complete and consistent, and a broken edit is refused
with a message that names the file."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from data import DataError
from games.sector6.rules.board import sides_of
from games.sector6.rules.rules_data import (
    ENTRIES_FILE,
    MARKERS_FILE,
    SETUP_FILE,
    SUPPLIES_FILE,
    TILES_FILE,
    build_rules,
    default_rules,
)

FILES = (TILES_FILE, SUPPLIES_FILE, MARKERS_FILE, ENTRIES_FILE, SETUP_FILE)


def documents() -> list[dict]:
    return [
        json.loads(resources.files("games.sector6").joinpath(path).read_text(encoding="utf-8"))
        for path in (path.rpartition("/")[2] for path in FILES)
    ]


def test_the_box_as_shipped():
    rules = default_rules()
    maze = rules.tiles[: rules.maze_tiles]
    assert len(maze) == 32 and len(rules.tiles) == 40  # 4 x 8 maze tiles and 8 entry points
    for value in (1, 2, 3, 4):
        tiles = [t for t in maze if t.value == value]
        assert len(tiles) == 8 and all(len(sides_of(t.walls)) == value for t in tiles)
        assert rules.markers[value] == 8
    assert dict(rules.colours) == {1: "red", 2: "yellow", 3: "green", 4: "blue"}
    assert rules.supplies[2] == {1: 4, 2: 4, 3: 3, 4: 3}
    assert rules.supplies[3] == rules.supplies[4] == {1: 2, 2: 2, 3: 2, 4: 2}
    assert rules.tie_break == (4, 3, 2)
    assert [t.owner for t in rules.tiles[32:]] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_wall_layouts_are_the_reconstruction_of_the_design():
    """Half of each value's tiles per layout: 2 walls side by side or facing, 3 in a row or
    alternating, 4 with the open sides side by side or facing."""
    layouts = default_rules().layouts
    walls = {name: set(sides_of(mask)) for name, (_, mask, _) in layouts.items()}
    assert walls["corner"] == {"N", "NE"} and walls["facing"] == {"N", "S"}
    assert walls["row"] == {"N", "NE", "SE"} and walls["alternating"] == {"N", "SE", "SW"}
    open_sides = {
        name: {"N", "NE", "SE", "S", "SW", "NW"} - walls[name] for name in ("bend", "straight")
    }
    assert open_sides == {"bend": {"SW", "NW"}, "straight": {"SE", "NW"}}


def broken(index: int, change) -> str:
    docs = documents()
    changed = copy.deepcopy(docs)
    change(changed[index])
    with pytest.raises(DataError) as caught:
        build_rules(*changed)
    return str(caught.value)


@pytest.mark.parametrize(
    ("index", "change", "file", "problem"),
    [
        (0, lambda d: d["tiles"][1].update(walls=["N"]), TILES_FILE, "needs 2 walls"),
        (0, lambda d: d["tiles"][0].update(walls=["UP"]), TILES_FILE, "unknown side 'UP'"),
        (0, lambda d: d.update(sides=["N", "S"]), TILES_FILE, "'sides' must be"),
        (1, lambda d: d["players"]["4"].update({"1": 3}), SUPPLIES_FILE, "more than the 8"),
        (1, lambda d: d["players"].pop("3"), SUPPLIES_FILE, "no supply for 3 players"),
        (2, lambda d: d["markers"][3].update(count=7), MARKERS_FILE, "need as many markers"),
        (3, lambda d: d["seats"][1].update(shape="star"), ENTRIES_FILE, "not one of"),
        (3, lambda d: d["seats"].pop(), ENTRIES_FILE, "4 players need 4 seats"),
        (4, lambda d: d.update(max_rounds=0), SETUP_FILE, "at least 1"),
        (4, lambda d: d.update(tie_break=[4, 4]), SETUP_FILE, "distinct values"),
        (4, lambda d: d.pop("oxygen_clock_rounds"), SETUP_FILE, "'oxygen_clock_rounds' must"),
        (4, lambda d: d.update(oxygen_clock_rounds=0), SETUP_FILE, "at least 1"),
        (4, lambda d: d.update(max_rounds=395), SETUP_FILE, "must be at least 396"),
        (4, lambda d: d.update(oxygen_clock_rounds=13), SETUP_FILE, "must be at least 429"),
        (4, lambda d: d.update(oxygen_clock_shown_from=13), SETUP_FILE, "1 to oxygen_clock"),
        (4, lambda d: d.update(columns=40), SETUP_FILE, "cannot be labelled"),
    ],
)
def test_a_broken_file_is_named(index, change, file, problem):
    message = broken(index, change)
    assert message.startswith(f"{file}:") and problem in message


def test_files_declare_their_format():
    for path, doc in zip(FILES, documents(), strict=True):
        assert doc["format"].startswith("sector6-") and doc["version"] == 1, path
