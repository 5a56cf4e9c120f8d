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
from same_pictures import same_picture
from sector6_positions import position

from games.sector6.pictures import sector6_board_png
from games.sector6.pictures.board import (
    SECTOR6_THEME,
    cell_centre,
    free_cells,
    last_line,
    layout,
    marker_centre,
    meshes,
    prisoner_centre,
    status_line,
)
from games.sector6.pictures.overlays import GEARS, PLAYER, TURN_RADIUS
from games.sector6.pictures.palette import sector6_palette
from games.sector6.pictures.panel_layout import COUNT_DISC, cards, counts_on_card
from games.sector6.pictures.sprites import marker_piece, prisoner_piece, turn_piece
from games.sector6.pictures.style import SMALL
from games.sector6.pictures.tokens import seat_letters
from games.sector6.rules import GAME, Sector6State
from hvbot.messages.presenters import presenter_for
from render.canvas import text_rgb, to_indexed

ROOT = Path(__file__).resolve().parents[3]
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
        spot = (x - round(size * 0.55), y + round(size * 0.85))  # the pawn's body, by its letter
        assert near(img.getpixel(spot), T.seat_fill[seat]), cell
    # the head has the seat's shape: a circle leaves the corner of its box bare, a square
    # covers it
    head = round(size * 0.74)
    x, y = prisoner_centre(view, "C5")
    corner = (x - round(size * 0.45), y - head - round(size * 0.45))
    assert near(img.getpixel(corner), T.floors[1])
    x, y = prisoner_centre(view, "A2")
    corner = (x - round(size * 0.45), y - head - round(size * 0.45))
    assert not near(img.getpixel(corner), T.floors[0], 40)


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


def test_the_same_view_gives_the_same_picture(picture):
    state, _, png = picture
    assert same_picture(sector6_board_png(state.view(1), names=["Ada", "Bruno"]), png)  # no secrets
    assert sector6_board_png(state.view(None)) != png  # names are drawn


def test_a_drawn_tile_never_shows_in_the_picture():
    state = GAME.new_state(3, 21)
    for text in ("draw", "place J10 r0", "draw"):
        state.apply(text)
    drawer = state.current_seat()
    assert "walls" in state.view(drawer)["drawn"]
    assert same_picture(sector6_board_png(state.view(drawer)), sector6_board_png(state.view(None)))


def played(players: int, seed: int, mode: str = "full", until=None) -> Sector6State:
    """A random game from `seed`, played until `until(state)` holds (default: the maze is
    complete)."""
    state, rng = GAME.new_state(players, seed, {"mode": mode}), random.Random(seed)
    until = until or (lambda s: s.phase != "build")
    while not until(state):
        state.apply(state.sample_action(rng))
    return state


def colours(img: Image.Image) -> set:
    return {c for _, c in img.getcolors(1 << 16)}


def label_pixels(text: str, size: int, bold: bool, fg, bg) -> Image.Image:
    """A label exactly as the board pastes it: drawn alone, mapped onto the board palette."""
    return to_indexed(text_rgb(text, size, bold, fg, bg), sector6_palette(T)).convert("RGB")


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
    novice = dict(view, rules=dict(view["rules"], rotations=False))
    assert status_line(novice, ["Ada", "Bruno"]) == "Ada: collect or done on C2"
    said = presenter_for("sector6").last_moves
    assert last_line(view, ["Ada", "Bruno"], moves=said(view)) == (
        "Ada: moved a prisoner from C2 to C5"
    )
    assert last_line(view, ["Ada", "Bruno"]) == "", "never the typed form"
    state.apply("rotate right")
    view = state.view(None)
    assert status_line(view, None) == "Player 2 is blocked: 2 rotations to make"
    assert last_line(view, None, moves=said(view)) == (
        "Player 1: moved a prisoner from C2 to C5; turned C2 right (clockwise)"
    )
    state.apply("rotate E6 left")
    assert status_line(state.view(None), None) == "Player 2 is blocked: 1 rotation to make"
    state.apply("rotate E6 left")
    assert status_line(state.view(None), None) == "Player 1 to move"
    over = dict(view, outcome={"reason": "all_oxygen_held", "winners": [0, 1], "scores": [5, 5]})
    assert status_line(over, ["Ada", "Bruno"]) == (
        "Game over (all oxygen held): Ada & Bruno share the win"
    )


def test_the_docs_example_is_redrawn_identically(tmp_path):
    """The committed examples come from a deterministic script."""
    script = ROOT / "docs" / "make_sector6_pictures.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [
        "sector6-after-building.png",
        "sector6-after-full-vs-veteran.png",
        "sector6-after-panel.png",
        "sector6-after-rotation.png",
        "sector6-after-still-maze.png",
        "sector6-board.png",
    ]
    for name in written:
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / name).read_bytes(), name


# ---------------------------------------------------------------------- the panel's counts


@pytest.mark.parametrize(
    ("players", "counts"),
    [(2, (3, 0, 8, 1)), (3, (0, 10, 2, 7)), (4, (0, 1, 2, 3)), (4, (10, 11, 12, 18))],
)
def test_collected_counts_are_never_overdrawn(players, counts):
    """Every count label on the panel is exactly the label drawn alone: no marker disc is
    pasted over it, with any number of players and two digits."""
    view = played(players, 3).view(None)
    for player in view["players"]:
        player["collected"] = {str(v): n for v, n in zip((1, 2, 3, 4), counts, strict=True)}
    img = decode(sector6_board_png(view))
    current = view["current_seat"]
    for player, card in zip(view["players"], cards(T, players), strict=True):
        bg = T.panel_row if player["seat"] == current else T.panel
        placed = counts_on_card(card, player["collected"])
        assert [c.text.lstrip("×") for c in placed] == [str(n) for n in counts]
        for count, after in zip(placed, [*placed[1:], None], strict=True):
            alone = label_pixels(count.text, count.size, False, T.text_dim, bg)
            x, y = count.at[0] - 1, count.at[1]
            shown = img.crop((x, y, x + alone.width, y + alone.height))
            assert shown.tobytes() == alone.tobytes(), (players, count)
            if after is not None:  # the next disc starts right of the label
                assert x + alone.width <= after.disc[0] - COUNT_DISC, (players, count)


# ---------------------------------------------------------------------- free cells


@pytest.mark.parametrize("mode", ["full", "veteran", "novice"])
def test_free_cells_are_the_engines_legal_cells(mode):
    """From the third piece on, a cell touching one piece is not offered: the cells marked
    free are those the engine accepts, and no other empty cell next to the maze shows."""
    for pieces in (3, 5, 9):
        state = played(3, 8, mode, lambda s, n=pieces: len(s.view(None)["tiles"]) >= n)
        view = state.view(None)
        legal = {a.cell for a in state.legal_actions() if hasattr(a, "cell")}
        if not legal:  # the seat to move can only draw: the drawn tile's cells then
            state.apply("draw")
            legal = {a.cell for a in state.legal_actions()}
            view = state.view(None)
        assert set(free_cells(view)) == legal
        img = decode(sector6_board_png(view))
        single = [state.name(c) for c in state.frontier() if state.name(c) not in legal]
        assert single or pieces == 3  # a picture that shows the difference
        radius = layout(view).radius
        for name in single:  # no dashed outline, no label: the dark ground only
            x, y = cell_centre(view, name)
            box = img.crop((x - radius // 2, y - radius // 3, x + radius // 2, y + radius // 3))
            assert colours(box) == {T.background}, name


# ---------------------------------------------------------------------- prisoners and markers


def test_a_prisoner_differs_from_a_marker_by_shape_alone():
    """A pawn is taller than wide and covers a different area from a disc of the same size,
    whatever the seat; its mark is a letter, never a digit."""
    for seat in range(4):
        _, pawn = prisoner_piece(T, 18, seat, "OPWB"[seat])
        left, top, right, bottom = pawn.getbbox()
        assert bottom - top > 1.15 * (right - left), seat
        pawn_on = pawn.convert("L").tobytes()
        for value in (1, 2, 3, 4):
            disc_on = marker_piece(T, 18, value)[1].convert("L").tobytes()
            both = sum(1 for a, b in zip(pawn_on, disc_on, strict=True) if a and b)
            either = sum(1 for a, b in zip(pawn_on, disc_on, strict=True) if a or b)
            assert both / either < 0.6, (seat, value)
    assert seat_letters(["orange", "purple", "white", "black"]) == ["O", "P", "W", "B"]
    assert not any(letter.isdigit() for letter in seat_letters(["orange", "purple"]))


# ---------------------------------------------------------------------- rotations and gears


def arc_point(view, name: str) -> tuple[int, int]:
    """A point in the middle of the band of a curved arrow on `name`, lower left."""
    x, y = cell_centre(view, name)
    r = layout(view).radius * (TURN_RADIUS - 0.035)
    angle = math.radians(150)
    return round(x + r * math.cos(angle)), round(y + r * math.sin(angle))


def test_rotations_show_their_way_on_the_turned_tile_and_the_gear_turned_ones():
    state = scene()
    state.apply("rotate right")  # C2, which the move left: ringed for the move as well
    view = state.view(None)
    img = decode(sector6_board_png(view))
    x, y = arc_point(view, "C2")  # the move's arrow leaves C2 downwards: look lower left
    assert near(img.getpixel((x, y)), T.turn_ring, 30)
    # clockwise and anticlockwise arrows are mirror images, not the same picture
    _, right = turn_piece(T, 60, PLAYER, frozenset({True}))
    _, left = turn_piece(T, 60, PLAYER, frozenset({False}))
    assert right.tobytes() != left.tobytes()
    mirrored = right.transpose(Image.Transpose.FLIP_LEFT_RIGHT).convert("L").tobytes()
    same = sum(a == b for a, b in zip(mirrored, left.convert("L").tobytes(), strict=True))
    assert same / len(mirrored) > 0.99


def test_gear_turned_tiles_carry_a_curved_arrow_too():
    state = played(3, 11, until=lambda s: bool(s.view(None)["last"]["geared"]))
    view = state.view(None)
    img = decode(sector6_board_png(view))
    for name in view["last"]["geared"]:
        assert near(img.getpixel(arc_point(view, name)), T.gear_ring, 30), name
    _, gear = turn_piece(T, 60, GEARS, frozenset({False}))
    assert gear.getbbox()


def test_gears_show_in_full_mode_only():
    """Full mode: gear teeth on the walls and a cog where two gears meet, in the gear colour;
    veteran and novice modes have no gears, so not one pixel of that colour."""
    for mode in ("full", "veteran", "novice"):
        view = played(4, 4, mode).view(None)
        img = decode(sector6_board_png(view))
        gear = dict((c, n) for n, c in img.getcolors(1 << 16)).get(T.gear, 0)
        if mode == "full":
            assert meshes(view) and gear > 500
            cell, side = meshes(view)[0]
            x, y = cell_centre(view, cell)
            angle = math.radians(270 + 60 * side)
            apothem = layout(view).radius * math.sqrt(3) / 2
            mx, my = x + apothem * math.cos(angle), y + apothem * math.sin(angle)
            size = round(layout(view).radius * 0.24)
            ring = [  # the cog's body, between its hole and its teeth
                img.getpixel(
                    (round(mx + size * 0.5 * math.cos(a)), round(my + size * 0.5 * math.sin(a)))
                )
                for a in (0.3, 1.9, 3.5, 5.1)
            ]
            assert all(near(p, T.gear, 30) for p in ring), ring
        else:
            assert not meshes(view) and gear == 0, mode


# ---------------------------------------------------------------------- arrows under labels


def test_the_move_arrow_runs_under_the_labels_it_crosses():
    state = scene()  # C2 -> C5: the arrow crosses C3 and C4 through their labels
    view = state.view(None)
    img = decode(sector6_board_png(view))
    radius = layout(view).radius
    size = max(SMALL, round(radius * 0.27))
    for name in ("C3", "C4", "C5"):
        alone = label_pixels(name, size, True, T.label_ink, T.floors[1])
        x, y = cell_centre(view, name)
        x, y = round(x - alone.width // 2), round(y - radius * 0.5 - alone.height // 2)
        shown = img.crop((x, y, x + alone.width, y + alone.height))
        assert shown.tobytes() == alone.tobytes(), name
