"""The Pylons board picture, decoded and checked pixel by pixel where the layout is known."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from same_pictures import same_picture

from games import find_game
from games.pylons.pictures import PYLONS_THEME, pylons_board_png
from games.pylons.pictures.board import board_side, cell_centre, last_line, status_line
from games.pylons.rules import PylonsState

GAME = find_game("pylons")
ROOT = Path(__file__).resolve().parents[3]
T = PYLONS_THEME


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def near(a, b, tol: int = 10) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def position() -> PylonsState:
    """Blue on K12 and M13 (linked), red on L14 and D3; swamps kept as dealt from seed 31."""
    state = GAME.new_state(2, 31)
    state.apply("keep")
    for cell in ("K12", "L14", "M13", "D3"):
        state.apply(f"place {cell}")
    return state


@pytest.fixture(scope="module")
def picture() -> tuple[PylonsState, Image.Image, bytes]:
    state = position()
    png = pylons_board_png(state.view(None), names=["Ada", "Bruno"])
    return state, decode(png), png


def test_size_and_weight_suit_a_phone(picture):
    _, img, png = picture
    assert img.size == (board_side(), board_side() + T.panel_height)
    assert 900 <= img.width <= 1100 and 900 <= img.height <= 1150
    assert len(png) < 150 * 1024


def test_pylons_show_their_players_colour_and_shape(picture):
    _, img, _ = picture
    for cell, seat in (("K12", 0), ("M13", 0), ("L14", 1), ("D3", 1)):
        x, y = cell_centre(cell)
        assert near(img.getpixel((x + 5, y + 5)), T.seat_fill[seat]), cell
    # a disc leaves its bounding box's corners bare; a square fills them (north-west of both
    # pylons, where no link runs)
    x, y = cell_centre("K12")
    assert near(img.getpixel((x - 8, y - 8)), T.board)
    x, y = cell_centre("D3")
    assert not near(img.getpixel((x - 8, y - 8)), T.board)


def test_the_last_pylon_is_ringed(picture):
    _, img, _ = picture
    x, y = cell_centre("D3")
    assert near(img.getpixel((x + 14, y)), T.last_ring)
    x, y = cell_centre("M13")
    assert not near(img.getpixel((x + 14, y)), T.last_ring, 60)


def test_links_are_drawn_between_linked_pylons_only(picture):
    _, img, _ = picture
    (ax, ay), (bx, by) = cell_centre("K12"), cell_centre("M13")
    assert near(img.getpixel(((ax + bx) // 2, (ay + by) // 2)), T.seat_fill[0])
    (ax, ay), (bx, by) = cell_centre("L14"), cell_centre("K12")  # no knight move: no link
    assert not near(img.getpixel(((ax + bx) // 2, (ay + by) // 2)), T.seat_fill[1])


def test_empty_cells_swamps_corners_and_border_strips(picture):
    state, img, _ = picture
    x, y = cell_centre("T20")
    assert near(img.getpixel((x, y)), T.hole, 25)
    assert near(img.getpixel((x + 9, y)), T.board)
    swamp = state.view(None)["swamp_cells"][0]
    x, y = cell_centre(swamp)
    assert near(img.getpixel((x + 12, y - 1)), T.swamp, 20) or near(
        img.getpixel((x - 12, y + 2)), T.swamp, 20
    )
    for corner in ("A1", "X24"):
        assert near(img.getpixel(cell_centre(corner)), T.corner)
    x, y = cell_centre("A12")
    assert near(img.getpixel((x + 9, y)), T.seat_tint[0])
    x, y = cell_centre("L24")
    assert near(img.getpixel((x + 9, y)), T.seat_tint[1])


def test_the_same_view_gives_the_same_picture(picture):
    state, _, png = picture
    again = pylons_board_png(state.view(1), names=["Ada", "Bruno"])  # a seat's view: same
    assert same_picture(again, png)
    assert pylons_board_png(state.view(None)) != png  # names are drawn


def test_a_finished_game_and_an_empty_board_render():
    state = GAME.new_state(2, 3, {"swamps": "off"})
    empty = decode(pylons_board_png(state.view(None)))
    assert near(empty.getpixel(cell_centre("K12")), T.hole, 25)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    png = pylons_board_png(state.view(None))
    assert decode(png).size == empty.size and len(png) < 150 * 1024


def test_panel_texts_say_whose_turn_and_how_it_ended():
    state = position()
    view = state.view(None)
    assert status_line(view, ["Ada", "Bruno"]) == "Ada to play · move 5 · 196 pylons left"
    assert last_line(view, ["Ada", "Bruno"]) == "Bruno: D3, 0 links"
    choosing = GAME.new_state(2, 31).view(None)
    assert status_line(choosing, None) == "Player 1 chooses: keep the board, or mirror it"
    won = dict(view, outcome={"reason": "connected", "winners": [1], "scores": [5, 23]})
    assert status_line(won, ["Ada", "Bruno"]) == "Bruno links north and south and wins"
    draw = dict(view, outcome={"reason": "pylon_limit", "winners": [0, 1], "scores": [7, 7]})
    assert status_line(draw, None) == "Game over: a draw at 7 each"


def test_the_winning_network_glows():
    chain = ["A11", "C12", "E11", "G12", "I11", "K12", "M11", "O12", "Q11", "S12", "U11", "W12"]
    state = GAME.new_state(2, 1, {"swamps": "off"})
    for k, cell in enumerate([*chain, "X14"]):
        state.apply(f"place {cell}")
        if not state.is_terminal():
            state.apply(f"place {chr(66 + k)}20")
    assert state.outcome().reason == "connected"
    img = decode(pylons_board_png(state.view(None)))
    (ax, ay), (bx, by) = cell_centre("K12"), cell_centre("M11")
    mx, my = (ax + bx) // 2, (ay + by) // 2
    assert near(img.getpixel((mx, my)), T.seat_fill[0])
    assert any(near(img.getpixel((mx, my + dy)), T.win_glow, 40) for dy in range(3, 9))


def test_the_docs_example_is_redrawn_identically(tmp_path):
    """The committed example comes from a deterministic script."""
    script = ROOT / "docs" / "make_pylons_pictures.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "pylons-board.png").read_bytes() == (
        ROOT / "docs" / "pylons-board.png"
    ).read_bytes()


def test_each_player_is_shown_their_own_pylon_at_the_start():
    from games.pylons.pictures import pylons_seat_png

    pictures = [
        pylons_seat_png(seat, colour, "west to east") for seat, colour in ((0, "blue"), (1, "red"))
    ]
    assert pictures[0] != pictures[1]
    assert pylons_seat_png.__wrapped__(0, "blue", "west to east") == pictures[0], "deterministic"
    for seat, data in enumerate(pictures):
        img = decode(data).convert("RGB")
        colours = {c for _, c in img.getcolors(1 << 16)}
        fill = PYLONS_THEME.seat_fill[seat]
        near = [c for c in colours if max(abs(a - b) for a, b in zip(c, fill, strict=True)) <= 8]
        assert near, f"seat {seat}'s pylon colour is in its picture"
        other = PYLONS_THEME.seat_fill[1 - seat]
        assert not [c for c in colours if c == other], "not the other player's colour"
