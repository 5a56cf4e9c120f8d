"""Redraw the Sector 6 example picture in this folder from one recorded game.

    python docs/make_sector6_pictures.py [--out FOLDER]

Writes sector6-board.png: a three-player game in full mode, in the competition phase, just
after a rotation that turned two more tiles through their gears. The game is stored here as
its actions, played once by the bot's own `normal` (players 1 and 3) and `hard` (player 2)
levels on the tiles dealt from seed 24; keeping the actions rather than replaying the players
means a change to the players never changes the picture, while the same engine and renderer
always give the same file.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402

from engine import find_game  # noqa: E402
from render import sector6_board_png  # noqa: E402

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


def position(actions: int) -> dict:
    """The public view after the first `actions` recorded actions."""
    state = find_game("sector6").new_state(PLAYERS, SEED, {"mode": "full"})
    for text in ACTIONS[:actions]:
        state.apply(text)
    return state.view(None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=_HERE, help="folder to write into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    view = position(IN_PROGRESS)
    assert view["last"]["geared"], "the picture is meant to show gears at work"
    (args.out / "sector6-board.png").write_bytes(sector6_board_png(view, names=NAMES))
    end = position(len(ACTIONS))
    assert end["outcome"] and end["outcome"]["reason"] == "all_oxygen_held"
    return 0


if __name__ == "__main__":
    sys.exit(main())
