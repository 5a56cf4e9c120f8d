"""Pictures: decoded back with Pillow and checked pixel by pixel where the layout is known.

Known-pixel tests start from a real view and replace a few cells with hand-written ones, the
same JSON shape the engine produces, so each test says exactly what should be on the card.
"""

from __future__ import annotations

import copy
import io
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from same_pictures import same_picture

from games import find_game
from games.high_voltage.pictures import THEME, hv_board_png, hv_card_png, hv_end_png, hv_secret_png
from games.high_voltage.pictures.board import traced
from games.high_voltage.pictures.card import SECRET_DISC, SECRET_SIZE, card_slot, rotate_paths
from games.high_voltage.pictures.layout import board_side, cell_box, frame_box, token_centre
from games.high_voltage.pictures.sprites import reduce_supersampled
from games.high_voltage.rules import Declare, Draw
from games.high_voltage.rules.state import HighVoltageState

GAME = find_game("high-voltage")
ROOT = Path(__file__).resolve().parents[3]
RGB = tuple[int, int, int]


# ----------------------------------------------------------------------------- helpers


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def rgb(png: bytes) -> Image.Image:
    return decode(png).convert("RGB")


def near(a: RGB, b: RGB, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def count_near(img: Image.Image, box: tuple[int, int, int, int], colour: RGB, tol: int = 12) -> int:
    x0, y0, x1, y1 = box
    return sum(
        1 for y in range(y0, y1) for x in range(x0, x1) if near(img.getpixel((x, y)), colour, tol)
    )


def new_view(seats: int = 4, seed: int = 3) -> dict[str, Any]:
    return GAME.new_state(seats, seed).view(None)


def put(view: dict[str, Any], name: str, **cell: Any) -> dict[str, Any]:
    """A copy of `view` with cell `name` replaced (state up unless given)."""
    out = copy.deepcopy(view)
    entry = {"cell": name, "state": "up", "energy": "none", **cell}
    for i, c in enumerate(out["cells"]):
        if c["cell"] == name:
            out["cells"][i] = entry
    return out


def straight(colour: str, edges: tuple[str, str]) -> dict[str, Any]:
    rotation = 0 if set(edges) == {"N", "S"} else 90
    return {
        "kind": "straight",
        "rotation": rotation,
        "paths": [{"edges": list(edges), "colour": colour}],
    }


def play(seed: int, steps: int, seats: int = 4) -> HighVoltageState:
    """A random game after `steps` actions (declaring every closable line it meets)."""
    state = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        declare = [a for a in state.legal_actions() if isinstance(a, Declare)]
        state.apply(declare[0] if declare else state.sample_action(rng))
    return state


def finish(seed: int, seats: int = 4) -> HighVoltageState:
    return play(seed, 10_000, seats)


RED = THEME.company("red").fill
BLUE = THEME.company("blue").fill


# ----------------------------------------------------------------------------- board


def test_board_size_and_mode() -> None:
    img = decode(hv_board_png(new_view()))
    side = board_side(THEME)
    assert img.format == "PNG"
    assert img.mode == "P"  # an indexed PNG: small and quick to encode
    assert img.size == (side, side + THEME.panel_height)
    assert 900 <= img.width <= 1100
    assert img.height <= 1300  # the panel holds four players and two lines of the last turn


def test_red_path_runs_through_its_card_in_its_orientation() -> None:
    view = put(new_view(), "B2", **straight("red", ("N", "S")))
    img = rgb(hv_board_png(view))
    x0, y0, x1, y1 = cell_box("B2", THEME)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    assert near(img.getpixel((cx, y0 + 20)), RED)  # along the N-S path, away from tokens
    assert near(img.getpixel((cx, y1 - 12)), RED)
    assert near(img.getpixel((x0 + 20, cy)), THEME.card_face)  # west half is bare card

    turned = put(new_view(), "B2", **straight("red", ("E", "W")))
    img = rgb(hv_board_png(turned))
    assert near(img.getpixel((x1 - 12, cy)), RED)
    assert near(img.getpixel((cx, y1 - 12)), THEME.card_face)


def test_paths_join_across_the_gutter_between_two_cards() -> None:
    view = put(new_view(), "B2", **straight("red", ("E", "W")))
    view = put(view, "C2", **straight("red", ("E", "W")))
    img = rgb(hv_board_png(view))
    _, y0, x1, y1 = cell_box("B2", THEME)
    cy = (y0 + y1) // 2
    for x in range(x1 - 4, x1 + 4):  # the dark gap between the two card bodies
        assert near(img.getpixel((x, cy)), RED), x
    # with the neighbour face down, the gutter stays dark past the path's end
    alone = rgb(hv_board_png(put(new_view(), "B2", **straight("red", ("E", "W")))))
    assert not near(alone.getpixel((x1 + 2, cy)), RED)


def test_empty_cell_has_the_empty_colour() -> None:
    view = new_view()
    assert view["empty_cell"] == "D4"
    img = rgb(hv_board_png(view))
    x0, y0, x1, y1 = cell_box("D4", THEME)
    assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == THEME.empty_cell


def _token_box(name: str) -> tuple[int, int, int, int]:
    cx, cy = token_centre(name, THEME)
    r = round(THEME.token_radius * THEME.cell)
    return cx - r, cy - r, cx + r, cy + r


def test_energy_tokens_show_on_their_cards_with_distinct_colours() -> None:
    card = straight("blue", ("N", "S"))
    base = put(new_view(), "B2", **card)
    danger = rgb(hv_board_png(put(base, "B2", **{**card, "energy": "danger"})))
    high = rgb(hv_board_png(put(base, "B2", **{**card, "energy": "high_voltage"})))
    bare = rgb(hv_board_png(base))
    box = _token_box("B2")
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert count_near(danger, box, THEME.danger_token) > area // 6
    assert count_near(high, box, THEME.danger_token) == 0
    assert count_near(high, box, THEME.hv_token) > area // 6
    assert count_near(bare, box, THEME.danger_token) == 0
    assert count_near(bare, box, THEME.hv_token) == 0


def test_danger_card_looks_unlike_a_line_card() -> None:
    view = put(new_view(), "B2", kind="danger", rotation=0, paths=[])
    img = rgb(hv_board_png(view))
    box = cell_box("B2", THEME)
    assert count_near(img, box, THEME.danger_stripe) > 500
    assert count_near(img, box, THEME.card_face) == 0


def test_cells_changed_by_the_last_action_are_outlined() -> None:
    view = new_view()
    view["last"] = {"seat": 0, "actions": ["rotate D3 r90"], "cells": ["D3"], "lines": []}
    img = rgb(hv_board_png(view))
    x0, y0, x1, _ = cell_box("D3", THEME)
    top_middle = ((x0 + x1) // 2, y0 + 1)
    assert near(img.getpixel(top_middle), THEME.changed_outline, 30)
    x0, y0, x1, _ = cell_box("C4", THEME)  # face up too, but unchanged
    assert not near(img.getpixel(((x0 + x1) // 2, y0 + 1)), THEME.changed_outline, 30)


def test_scored_line_is_traced_with_its_stations() -> None:
    view = put(new_view(), "A1", **straight("red", ("E", "W")))
    view = put(view, "B1", **straight("blue", ("E", "W")))
    plain = rgb(hv_board_png(view))
    view["last"] = {
        "seat": 1,
        "actions": ["rotate B1 r90"],
        "cells": ["B1"],
        "lines": [{"line": "S31-S9", "cells": ["A1", "B1"], "entries": ["W", "W"]}],
    }
    cells, stations = traced(view)
    assert cells == {"A1": frozenset({("E", "W")}), "B1": frozenset({("E", "W")})}
    assert stations == {31}  # B1's east edge faces C1, not a station
    lit = rgb(hv_board_png(view))
    for name in ("A1", "B1"):
        assert count_near(lit, cell_box(name, THEME), THEME.trace_glow, 40) > 50
        assert count_near(plain, cell_box(name, THEME), THEME.trace_glow, 40) == 0
    assert count_near(lit, frame_box(31, THEME), THEME.trace_glow, 40) > 20


def test_company_markers_stand_on_their_score_card() -> None:
    view = new_view()
    view["company_scores"] = {"red": 0, "yellow": 0, "green": 0, "blue": 42}  # 42 mod 32 = 10
    img = rgb(hv_board_png(view))
    assert count_near(img, frame_box(10, THEME), BLUE, 10) > 100  # station 10 itself is red
    before = rgb(hv_board_png(new_view()))
    assert count_near(before, frame_box(10, THEME), BLUE, 10) == 0


def test_names_appear_in_the_panel() -> None:
    view = new_view()
    plain = hv_board_png(view)
    named = hv_board_png(view, names=["Ada", "Bo", "Cy", "Di"])
    assert plain != named


def test_same_view_gives_the_same_picture() -> None:
    view = play(11, 80).view(None)
    assert same_picture(hv_board_png(view), hv_board_png(copy.deepcopy(view)))


def test_bytes_are_identical_in_a_fresh_process() -> None:
    """Caches and the palette are rebuilt per process; the bytes must not depend on them."""
    script = (
        "import hashlib, random\n"
        "from games import find_game, register_all\n"
        "from games.high_voltage.rules import Declare\n"
        "from games.high_voltage.pictures import hv_board_png\n"
        "register_all()\n"
        "s = find_game('high-voltage').new_state(4, 11); rng = random.Random(11)\n"
        "for _ in range(80):\n"
        "    if s.is_terminal(): break\n"
        "    d = [a for a in s.legal_actions() if isinstance(a, Declare)]\n"
        "    s.apply(d[0] if d else s.sample_action(rng))\n"
        "print(hashlib.sha256(hv_board_png(s.view(None))).hexdigest())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    import hashlib

    here = hashlib.sha256(hv_board_png(play(11, 80).view(None))).hexdigest()
    assert out.stdout.strip() == here


def _hidden_twin(state: HighVoltageState) -> HighVoltageState:
    """The same public position with two face-down cards swapped and the colours permuted."""
    data = copy.deepcopy(state.to_dict())
    grid, up = data["grid"], data["card_up"]
    down = [i for i, card in enumerate(grid) if card >= 0 and not up[card]]
    faces = data["cards"]
    first = down[0]
    # pick a second face-down card with a different face, so the swap really changes the deal
    second = next(i for i in down[1:] if faces[grid[i]] != faces[grid[first]])
    grid[first], grid[second] = grid[second], grid[first]
    colours = data["seat_colour"]
    data["seat_colour"] = colours[1:] + colours[:1]
    return HighVoltageState.from_dict(data)


@pytest.mark.parametrize("steps", [0, 25, 60])
def test_public_board_does_not_depend_on_hidden_information(steps: int) -> None:
    a = play(5, steps)
    assert not a.is_terminal()
    b = _hidden_twin(a)
    assert a.to_dict() != b.to_dict()
    assert hv_board_png(a.view(None)) == hv_board_png(b.view(None))


def test_drawn_face_never_reaches_the_board() -> None:
    state = GAME.new_state(3, 2)
    draw = next(a for a in state.legal_actions() if isinstance(a, Draw))
    state.apply(draw)
    assert state.phase == "placing"
    seat = state.current_seat()
    own = state.view(seat)
    assert "paths" in own["drawn"]  # the drawer's view holds the face...
    own["players"][seat]["colour"] = None  # (their own colour is theirs to see)
    public = hv_board_png(state.view(None))
    assert hv_board_png(own) == public  # ...but the board does not show it


# ----------------------------------------------------------------------------- end picture


def test_end_picture_shows_the_outcome() -> None:
    a = finish(21)
    png = hv_end_png(a.view(None), names=["Ada", "Bo", "Cy", "Di"])
    img = decode(png)
    assert img.mode == "P" and img.width == 900 and img.height > 300
    assert hv_end_png(a.view(None), names=["Ada", "Bo", "Cy", "Di"]) == png


def test_end_picture_changes_with_the_result() -> None:
    a = finish(21)
    b = finish(22)
    assert a.outcome() != b.outcome()
    assert hv_end_png(a.view(None)) != hv_end_png(b.view(None))
    # the same scores with the companies dealt differently: the revealed colours differ
    view = a.view(None)
    swapped = copy.deepcopy(view)
    colours = swapped["outcome"]["details"]["colours"]
    swapped["outcome"]["details"]["colours"] = colours[1:] + colours[:1]
    assert hv_end_png(view) != hv_end_png(swapped)


def test_end_picture_names_colours_held_by_no_one() -> None:
    view = finish(3, seats=2).view(None)
    assert len(view["outcome"]["details"]["unowned"]) == 2
    two = decode(hv_end_png(view))
    four = decode(hv_end_png(finish(3, seats=4).view(None)))
    assert two.height > four.height - 2 * 58  # two 'no one's' rows in place of two seats


def test_end_picture_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        hv_end_png(new_view())


# ----------------------------------------------------------------------------- card, secret


def test_a_sprite_is_reduced_by_averaging_its_supersampled_pixels() -> None:
    """Every pixel of a sprite is the mean of the square of pixels it was drawn as, alpha
    weighted: a square half covered by an opaque colour is half that colour, whatever the
    uncovered half's colour channels hold, and a size that is not the drawing's size divided
    by a whole factor is refused rather than stretched."""
    k = THEME.supersample
    drawn = Image.new("RGBA", (2 * k, k), (0, 255, 0, 0))
    drawn.paste((200, 100, 40, 255), (0, 0, k, k // 2))
    reduced = reduce_supersampled(drawn, (2, 1))
    assert reduced.size == (2, 1)
    # Pillow divides the premultiplied sums back by alpha: a unit may round away.
    half = reduced.getpixel((0, 0))
    assert isinstance(half, tuple)
    assert all(abs(a - b) <= 1 for a, b in zip(half, (200, 100, 40, 128), strict=True))
    assert reduced.getpixel((1, 0))[3] == 0
    with pytest.raises(ValueError, match="whole factor"):
        reduce_supersampled(drawn, (3, 1))


def test_rotate_paths_turns_clockwise() -> None:
    assert rotate_paths((("N", "E", "red"),), 90) == (("E", "S", "red"),)
    assert rotate_paths((("N", "E", "red"),), 270) == (("N", "W", "red"),)
    assert rotate_paths((("N", "S", "red"),), 180) == (("N", "S", "red"),)


def test_card_picture_shows_four_orientations() -> None:
    face = {
        "cell": "C3",
        "kind": "curve",
        "rotation": 0,
        "paths": [{"edges": ["N", "E"], "colour": "red"}],
    }
    img = rgb(hv_card_png(face))
    assert img.width >= 4 * 190
    # r0 joins N-E, r90 E-S, r180 S-W, r270 W-N: look at each edge midpoint
    ends = {0: "NE", 1: "ES", 2: "SW", 3: "WN"}
    for i, edges in ends.items():
        x0, y0, x1, y1 = card_slot(i)
        mid = {
            "N": ((x0 + x1) // 2, y0 + 6),
            "E": (x1 - 6, (y0 + y1) // 2),
            "S": ((x0 + x1) // 2, y1 - 6),
            "W": (x0 + 6, (y0 + y1) // 2),
        }
        for edge, xy in mid.items():
            assert near(img.getpixel(xy), RED, 20) == (edge in edges), (i, edge)


def test_danger_card_picture_renders() -> None:
    img = decode(hv_card_png({"kind": "danger", "rotation": 0, "paths": []}))
    assert img.width >= 4 * 190


@pytest.mark.parametrize("colour", ["red", "yellow", "green", "blue"])
def test_secret_picture_shows_the_colour(colour: str) -> None:
    img = rgb(hv_secret_png(colour))
    assert img.size == SECRET_SIZE
    cx, cy, r = SECRET_DISC
    assert near(img.getpixel((cx - r // 2, cy)), THEME.company(colour).fill)


def test_secret_pictures_differ_by_colour() -> None:
    pictures = {hv_secret_png(c) for c in ("red", "yellow", "green", "blue")}
    assert len(pictures) == 4


# ----------------------------------------------------------------------------- random views


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 200),
    seats=st.integers(2, 4),
    viewer=st.integers(-1, 3),
)
def test_random_positions_render(seed: int, steps: int, seats: int, viewer: int) -> None:
    state = play(seed, steps, seats)
    seat = viewer if 0 <= viewer < seats else None
    view = state.view(seat)
    img = decode(hv_board_png(view))
    assert img.size == (board_side(THEME), board_side(THEME) + THEME.panel_height)
    if state.is_terminal():
        assert decode(hv_end_png(view)).width == 900
    if view["drawn"] and "paths" in view["drawn"]:
        assert decode(hv_card_png(view["drawn"])).width >= 4 * 190


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_finished_games_render(seed: int) -> None:
    view = finish(seed).view(None)
    assert view["phase"] == "over"
    assert decode(hv_board_png(view)).mode == "P"
    assert decode(hv_end_png(view)).mode == "P"
