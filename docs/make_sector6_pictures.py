"""Redraw the Sector 6 example pictures in this folder from three recorded games.

    python docs/make_sector6_pictures.py [--out FOLDER]

Writes sector6-board.png: a three-player game in full mode, in the competition phase, just
after a rotation that turned another tile through its gears. It was played once by the bot's
own `normal` (players 1 and 3) and `hard` (player 2) levels on the tiles dealt from seed 24.

Writes the sector6-after-*.png pictures too (see pictures.md), from that game and two more
played by the `normal` level on seed 1: four players in full mode and three in veteran mode.
  - after-panel: the panel of the four-player game, collected markers counted by value;
  - after-building: the four-player maze being built, the cells where a piece may go;
  - after-rotation: the four-player game just after a rotation that turned two tiles by gears;
  - after-full-vs-veteran: the three-player full game beside the veteran one, both at half
    size, as a chat's preview shows them;
  - after-still-maze: the four-player maze after four placements in a row, side by side.

The games are stored here as their actions: keeping the actions rather than replaying the
players means a change to the players never changes the pictures, while the same engine and
renderer always give the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import io  # noqa: E402

from PIL import Image  # noqa: E402

from games import find_game, register_all  # noqa: E402
from games.sector6.pictures.board import SECTOR6_THEME  # noqa: E402
from hvbot.messages.presenters import presenter_for  # noqa: E402

register_all()  # the games these pictures show, as `bot.py` registers them

SEED = 24
PLAYERS = 3
# fmt: off
ACTIONS = (
    "draw", "place J10 r240", "draw", "place K10 r300", "draw", "place K11 r300", "draw",
    "place L10 r120", "draw", "place J11 r120", "draw", "place K12 r180", "draw", "place L11 r120",
    "draw", "place J9 r60", "draw", "place I10 r0", "draw", "place I11 r60", "draw",
    "place K9 r300", "draw", "place L9 r0", "draw", "place J12 r300", "draw", "place I12 r0",
    "draw", "place M11 r0", "draw", "place M10 r60", "draw", "place I13 r240", "draw",
    "place K13 r120", "draw", "place L12 r60", "place entry J13", "place entry I14", "draw",
    "place M12 r0", "draw", "place J14 r60", "draw", "place H13 r0", "place entry H10", "draw",
    "place K14 r60", "draw", "place I15 r60", "place entry K15", "place entry L14",
    "place entry H14", "move H10 I10", "rotate H10 left", "move J13 J14", "rotate J13 left",
    "move I14 L12", "rotate I14 left", "move K15 K14", "rotate K15 right", "move J14 J13",
    "collect", "move L12 K13", "collect", "move I10 H10", "collect", "move J13 I13", "done",
    "move K13 J13", "collect", "move H10 I11", "rotate H10 right", "move I13 I15", "collect",
    "move J13 J11", "rotate J13 right", "move K14 J13", "collect", "move I15 I14", "collect",
    "move J11 K11", "collect", "move J13 J10", "rotate J13 left", "move I14 H13",
    "rotate I14 right", "move K11 K12", "collect", "move J10 K10", "collect", "move L14 J13",
    "rotate L14 right", "move K12 K11", "collect", "move K10 L10", "collect", "move J13 J12",
    "rotate J13 left", "move H14 I14", "done", "move L10 M10", "collect", "move J12 J13",
    "rotate J12 left", "move K11 J11", "done", "move I11 H10", "collect", "move J13 J12",
    "rotate J13 right", "move I14 L12", "rotate I14 right", "move M10 L10", "collect",
    "move J12 I12", "collect", "move J11 K11", "rotate J11 left", "move L10 K10",
    "rotate L10 right", "move I12 J12", "collect", "move K11 K12", "rotate K11 left",
    "move K10 J10", "rotate K10 right", "move H13 I14", "collect", "move L12 J13",
    "rotate L12 left", "move J10 J9", "done", "move J12 J10", "done", "move K12 L12", "done",
    "move H10 I11", "rotate H10 right", "move J10 K10", "rotate J10 left", "move L12 M12",
    "rotate L12 left", "move J9 J10", "collect", "move I14 I13", "rotate I14 left", "move M12 L11",
    "collect", "move J10 J9", "rotate J10 left", "move K10 J10", "rotate K10 right", "move L11 M12",
    "collect", "rotate J9 left", "rotate J9 left", "move J10 K10", "rotate J10 right",
    "move M12 L11", "rotate M12 right", "move J9 K9", "rotate J9 left", "move K10 J10",
    "rotate K10 right", "move L11 M12", "rotate L11 left", "move K9 K10", "collect", "move I13 I14",
    "done", "move J13 K14", "done", "move K10 L9", "rotate K10 right", "move I14 J13",
    "rotate I14 right", "move K14 K13", "done", "move L9 K10", "collect", "move J13 I13",
    "rotate J13 left", "move K13 H14", "rotate K13 left", "move K10 M11",
)
# fmt: on
IN_PROGRESS = 142  # actions into the game for the picture
NAMES = ["Ada", "Bruno", "Chiara"]

_FOUR = (
    "draw, place J10 r180, draw, place I10 r300, draw, place J9 r300, draw, place I11 r0, draw, "
    "place H10 r240, draw, place I9 r180, draw, place H9 r0, draw, place K10 r0, draw, "
    "place J8 r300, draw, place K9 r300, draw, place I8 r240, draw, place H8 r0, draw, "
    "place G9 r0, draw, place G10 r0, draw, place H11 r120, draw, place G11 r0, draw, "
    "place K8 r180, draw, place J7 r0, draw, place L8 r60, draw, place L9 r60, draw, "
    "place M9 r300, draw, place I7 r0, draw, place H7 r60, draw, place G8 r240, draw, "
    "place L10 r180, draw, place K11 r60, draw, place M10 r60, draw, place J11 r300, draw, "
    "place I12 r240, draw, place F9 r180, draw, place F8 r120, place entry E9, place entry F10, "
    "place entry M11, place entry J12, draw, place E10 r60, place entry E11, place entry H6, "
    "place entry E8, place entry D8, move F10 H9, done, move M11 K10, rotate M11 left, "
    "move J12 I12, rotate J12 left, move E9 E10, done, move E11 G10, rotate E11 right, "
    "move K10 L10, collect, move E8 E9, rotate E8 left, move E10 E11, collect, move G10 I11, "
    "collect, move H6 J7, rotate H6 right, move E9 F8, rotate E9 left, move D8 H10, done, "
    "move H9 F10, collect, move J7 I8, collect, move I12 J12, collect, move H10 I10, collect, "
    "move F10 G11, done, move I8 I9, collect, move J12 J11, rotate J12 right, move I10 H10, "
    "collect, move G11 H11, collect, move L10 M10, rotate L10 left, move F8 E9, collect, "
    "move H10 F9, rotate H10 left, move I11 H10, collect, move M10 K11, collect, "
    "move J11 J12, rotate J11 left"
)
FOUR = _FOUR.split(", ")
FOUR_BUILDING = 9  # four tiles placed, the fifth drawn
# The four-player maze just after its 7th to 10th tiles are placed (a draw and a place each).
FOUR_PLACED = (14, 16, 18, 20)
FOUR_NAMES = ["Ada", "Bruno", "Chiara", "Dario"]
_VETERAN = (
    "draw, place J10 r60, draw, place I10 r60, draw, place J9 r60, draw, place I9 r300, draw, "
    "place H9 r120, draw, place H10 r240, draw, place I11 r180, place entry G10, draw, "
    "place H11 r60, draw, place G11 r0, place entry F10, draw, place G12 r0, draw, "
    "place F11 r0, draw, place E11 r180, draw, place J8 r300, draw, place E12 r180, draw, "
    "place D11 r0, draw, place F12 r240, draw, place K9 r0, draw, place F9 r240, draw, "
    "place K10 r240, draw, place E10 r60, draw, place G9 r300, draw, place D10 r240, "
    "place entry E9, draw, place F8 r240, place entry E8, place entry G13, draw, place F7 r60, "
    "place entry E7, move G13 G12, done, move G10 H9, rotate G10 right, rotate E7 left, "
    "rotate E7 left, move G12 D10, collect, move H9 I9, collect, rotate E7 right, "
    "rotate E7 right, move D10 E11, collect, move I9 I10, collect, rotate E7 left, "
    "rotate E7 right, move E9 F9, rotate E9 right"
)
VETERAN = _VETERAN.split(", ")


def position(actions: int, recorded=ACTIONS, players=PLAYERS, seed=SEED, mode="full") -> dict:
    """The public view after the first `actions` of a recorded game."""
    state = find_game("sector6").new_state(players, seed, {"mode": mode})
    for text in recorded[:actions]:
        state.apply(text)
    return state.view(None)


def sector6_board_png(view: dict, names: list[str]) -> bytes:
    """The board as the bot posts it, its last turn in words as the presenter says it."""
    return presenter_for("sector6").board_png(view, names)


def picture(view: dict, names: list[str]) -> Image.Image:
    return Image.open(io.BytesIO(sector6_board_png(view, names))).convert("RGB")


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def after_pictures() -> dict[str, bytes]:
    """The pictures that show how the board reads (file name: PNG bytes)."""
    theme = SECTOR6_THEME
    four = picture(position(len(FOUR), FOUR, 4, 1), FOUR_NAMES)
    panel = four.crop((0, theme.board_height, theme.width, four.height))
    building = picture(position(FOUR_BUILDING, FOUR, 4, 1), FOUR_NAMES)
    half = (theme.width // 2, (theme.board_height + theme.panel_height) // 2)
    full = picture(position(IN_PROGRESS), NAMES).resize(half, Image.Resampling.LANCZOS)
    veteran = picture(position(len(VETERAN), VETERAN, 3, 1, "veteran"), NAMES)
    both = Image.new("RGB", (2 * half[0], half[1]), theme.background)
    both.paste(full, (0, 0))
    both.paste(veteran.resize(half, Image.Resampling.LANCZOS), (half[0], 0))
    return {
        "sector6-after-panel.png": png(panel),
        "sector6-after-building.png": png(building),
        "sector6-after-rotation.png": png(four),
        "sector6-after-full-vs-veteran.png": png(both),
        "sector6-after-still-maze.png": still_maze(),
    }


def still_maze() -> bytes:
    """The four-player maze after each of four placements, side by side at half size, the
    boards without their panels: a piece laid leaves the rest of the maze where it was."""
    theme = SECTOR6_THEME
    half = (theme.width // 2, theme.board_height // 2)
    strip = Image.new("RGB", (len(FOUR_PLACED) * half[0], half[1]), theme.background)
    for i, actions in enumerate(FOUR_PLACED):
        board = picture(position(actions, FOUR, 4, 1), FOUR_NAMES)
        board = board.crop((0, 0, theme.width, theme.board_height))
        strip.paste(board.resize(half, Image.Resampling.LANCZOS), (i * half[0], 0))
    return png(strip)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=_HERE, help="folder to write into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    view = position(IN_PROGRESS)
    assert view["last"]["geared"], "the picture is meant to show gears at work"
    (args.out / "sector6-board.png").write_bytes(sector6_board_png(view, NAMES))
    for name, data in after_pictures().items():
        (args.out / name).write_bytes(data)
    end = position(len(ACTIONS))
    assert end["outcome"] and end["outcome"]["reason"] == "all_oxygen_held"
    return 0


if __name__ == "__main__":
    sys.exit(main())
