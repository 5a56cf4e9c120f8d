"""Redraw the Pylons example pictures in this folder from one recorded game.

    python docs/make_pylons_pictures.py [--out FOLDER]

Writes pylons-board.png (the game in progress, player 1 to move) and pylons-end.png (player 1
has just linked west and east). The game is stored here as its moves, played once by the
bot's own `normal` (player 1) and `hard` (player 2) levels on the swamps dealt from seed 24;
keeping the moves rather than replaying the players means a change to the players never
changes these pictures, while the same engine and renderer always give the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402

from games import find_game, register_all  # noqa: E402
from hvbot.messages.presenters import presenter_for  # noqa: E402

register_all()  # the games these pictures show, as `bot.py` registers them

SEED = 24
# fmt: off
MOVES = (
    "keep", "N13", "K14", "J13", "J11", "G12", "I13", "E11", "H14", "R11", "J20", "K9", "K7",
    "C10", "K10", "M10", "H10", "T10", "G8", "H6", "K3", "J7", "F6", "L12", "E4", "V9", "L24",
    "X10", "C3", "G4", "K22", "C2", "B2", "E3", "L16", "A3", "P12", "P14", "Q13", "R13", "N15",
    "T12",
)
# fmt: on
IN_PROGRESS = 33  # actions into the game for the picture of a game in progress
NAMES = ["Ada", "Bruno"]


def pylons_board_png(view: dict, names: list[str]) -> bytes:
    """The board as the bot posts it, its last move in words as the presenter says it."""
    return presenter_for("pylons").board_png(view, names)


def position(actions: int) -> dict:
    """The public view after the first `actions` recorded actions."""
    state = find_game("pylons").new_state(2, SEED)
    for move in MOVES[:actions]:
        state.apply(move if move in ("keep", "mirror") else f"place {move}")
    return state.view(None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=_HERE, help="folder to write into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "pylons-board.png").write_bytes(pylons_board_png(position(IN_PROGRESS), NAMES))
    end = position(len(MOVES))
    assert end["outcome"] and end["outcome"]["reason"] == "connected"
    (args.out / "pylons-end.png").write_bytes(pylons_board_png(end, NAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
