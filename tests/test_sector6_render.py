"""The Sector 6 board picture, decoded and checked pixel by pixel where the layout is known."""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from sector6_positions import position

from engine.sector6 import GAME, Sector6State
from render import sector6_board_png
from render.sector6_board import (
    SECTOR6_THEME,
    cell_centre,
    free_cells,
    last_line,
    layout,
    marker_centre,
    prisoner_centre,
    status_line,
)

ROOT = Path(__file__).resolve().parent.parent
T = SECTOR6_THEME


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def near(a, b, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def scene() -> Sector6State:
    """Player 1 (orange circles) on C2 and D6, player 2 (purple squares) on A2 and E6; player
    1 has just moved C2 -> C5, leaving C2's marker for the picture to show."""
    tiles = {f"C{row}": ("single", 1) for row in range(2, 8)}
    tiles |= {"D5": ("row", 0), "D6": ("entry", 0), "E6": ("entry", 1), "A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C2", "D6"], 1: ["A2", "E6"]})
    state.apply("move C2 C5")
    return state


@pytest.fixture(scope="module")
def picture() -> tuple[Sector6State, Image.Image, bytes]:
    state = scene()
    png = sector6_board_png(state.view(None), names=["Ada", "Bruno"])
    return state, decode(png), png


def test_size_and_weight_suit_a_phone(picture):
    _, img, png = picture
    assert img.size == (T.width, T.board_height + T.panel_height)
    assert 900 <= img.width <= 1100 and 900 <= img.height <= 1100
    assert len(png) < 150 * 1024


def test_prisoners_stand_in_their_players_colours(picture):
    state, img, _ = picture
    view = state.view(None)
    radius = layout(view).radius
    size = max(8, round(radius * 0.3))
    for cell, seat in (("C5", 0), ("D6", 0), ("A2", 1), ("E6", 1)):
        x, y = prisoner_centre(view, cell)
        spot = (x - round(size * 0.6), y)  # beside the seat number, inside the shape
        assert near(img.getpixel(spot), T.seat_fill[seat]), cell
    # a circle leaves the corner of its box bare; a square fills it
    x, y = prisoner_centre(view, "C5")
    corner = (x - round(size * 0.8), y - round(size * 0.8))
    assert near(img.getpixel(corner), T.floors[1])
    x, y = prisoner_centre(view, "A2")
    corner = (x - round(size * 0.6), y - round(size * 0.6))
    assert near(img.getpixel(corner), T.seat_fill[1])


def test_markers_show_their_values_colour(picture):
    state, img, _ = picture
    view = state.view(None)
    size = max(8, round(layout(view).radius * 0.3))
    for cell, value in (("C2", 1), ("C3", 1), ("D5", 3)):
        x, y = marker_centre(view, cell)
        assert near(img.getpixel((x, y + round(size * 0.72))), T.markers[value]), cell
    x, y = marker_centre(view, "C5")  # a marker beside a prisoner
    assert near(img.getpixel((x, y + round(size * 0.72))), T.markers[1])


def test_tiles_are_tinted_by_value_and_entries_grey(picture):
    state, img, _ = picture
    view = state.view(None)
    radius = layout(view).radius
    for cell, floor in (("C4", T.floors[1]), ("D5", T.floors[3]), ("E6", T.floors[0])):
        x, y = cell_centre(view, cell)
        assert near(img.getpixel((x - round(radius * 0.5), y)), floor), cell


def test_the_last_move_is_ringed(picture):
    state, img, _ = picture
    view = state.view(None)
    radius = layout(view).radius
    inset = (radius - T.grout / 2) * math.cos(math.radians(30)) - radius * 0.03
    dx, dy = round(-inset * math.sqrt(3) / 2), round(inset / 2)  # the SW side's middle
    for cell in ("C2", "C5"):
        x, y = cell_centre(view, cell)
        assert near(img.getpixel((x + dx, y + dy)), T.move_ring, 30), cell
    x, y = cell_centre(view, "C3")
    assert not near(img.getpixel((x + dx, y + dy)), T.move_ring, 30)
    x, y = cell_centre(view, "C3")  # the arrow from C2 to C5 crosses C3, above its marker
    assert near(img.getpixel((x, y - round(radius * 0.2))), T.move_ring, 30)


def test_the_same_view_gives_the_same_bytes(picture):
    state, _, png = picture
    assert sector6_board_png(state.view(1), names=["Ada", "Bruno"]) == png  # no secrets here
    assert sector6_board_png(state.view(None)) != png  # names are drawn


def test_a_drawn_tile_never_shows_in_the_picture():
    state = GAME.new_state(3, 21)
    for text in ("draw", "place J10 r0", "draw"):
        state.apply(text)
    drawer = state.current_seat()
    assert "walls" in state.view(drawer)["drawn"]
    assert sector6_board_png(state.view(drawer)) == sector6_board_png(state.view(None))


def test_while_building_free_cells_next_to_the_maze_are_offered():
    state = GAME.new_state(2, 21)
    empty = state.view(None)
    assert "J10" in free_cells(empty) and len(free_cells(empty)) == 35
    for text in ("draw", "place J10 r0"):
        state.apply(text)
    view = state.view(None)
    assert set(free_cells(view)) == {"J9", "K10", "K11", "J11", "I11", "I10"}
    img = decode(sector6_board_png(view))
    x, y = cell_centre(view, "J10")
    value = view["tiles"][0]["value"]
    assert near(img.getpixel((x - layout(view).radius // 2, y)), T.floors[value])
    x, y = cell_centre(view, "K11")  # a free cell: dark inside its dashed outline
    assert near(img.getpixel((x - layout(view).radius // 2, y)), T.background)


def test_a_whole_game_renders_at_every_stage():
    state = GAME.new_state(4, 5)
    rng = random.Random(5)
    sizes = set()
    n = 0
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        n += 1
        if n % 40 == 0 or state.is_terminal():
            png = sector6_board_png(state.view(None))
            assert len(png) < 150 * 1024
            sizes.add(decode(png).size)
    assert sizes == {(T.width, T.board_height + T.panel_height)}


def test_panel_texts_say_whose_turn_and_how_it_ended():
    state = scene()
    view = state.view(None)
    assert status_line(view, ["Ada", "Bruno"]) == "Ada: collect, rotate or done on C2"
    assert last_line(view, ["Ada", "Bruno"]) == "Ada: move C2 C5"
    state.apply("rotate right")
    view = state.view(None)
    assert status_line(view, None) == "Player 2 is blocked: 2 rotations to make"
    assert last_line(view, None) == "Player 1: move C2 C5, rotate C2 right"
    state.apply("rotate E6 left")
    assert status_line(state.view(None), None) == "Player 2 is blocked: 1 rotation to make"
    state.apply("rotate E6 left")
    assert status_line(state.view(None), None) == "Player 1 to move"
    over = dict(view, outcome={"reason": "all_oxygen_held", "winners": [0, 1], "scores": [5, 5]})
    assert status_line(over, ["Ada", "Bruno"]) == (
        "Game over (all oxygen held): Ada & Bruno share the win"
    )


def test_the_docs_example_is_redrawn_identically(tmp_path):
    """The committed example comes from a deterministic script."""
    script = ROOT / "docs" / "make_sector6_pictures.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "sector6-board.png").read_bytes() == (
        ROOT / "docs" / "sector6-board.png"
    ).read_bytes()
