"""Redraw the example pictures in this folder from seeded games.

    python docs/make_pictures.py

Writes board-early.png, board-late.png, card-draw.png and end.png next to this file. The
games are played by a simple seeded player that closes a line whenever one action can, so
the late board shows traced lines and energy tokens of both sides; the same engine and the
same renderer always give the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

import random  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from games import find_game, register_all  # noqa: E402
from games.high_voltage.pictures import hv_card_png, hv_end_png  # noqa: E402
from games.high_voltage.rules import Declare, Draw, HighVoltageState, Place, Rotate  # noqa: E402
from hvbot.messages.presenters import presenter_for  # noqa: E402

register_all()  # the games these pictures show, as `bot.py` registers them

NAMES = ["Ada", "Bruno", "Chen", "Dara"]
GAME = find_game("high-voltage")
# The board as the bot posts it: its last line says the moves in words, as the presenter does.
PRESENTER = presenter_for("high-voltage")


def line_seeker(state: HighVoltageState, rng: random.Random) -> Any:
    """Declare what can be declared; else, often, an action that closes a line; else random.
    Plain random play closes almost no lines, which would make a dull late board."""
    legal = state.legal_actions()
    declare = [a for a in legal if isinstance(a, Declare)]
    if declare:
        return declare[0]
    if state.phase in ("placing", "action") and len(legal) < 400 and rng.random() < 0.7:
        closing = []
        for action in legal:
            trial = state.copy()
            trial.apply(action)
            if trial.phase == "declaring":
                closing.append(action)
        if closing:
            return rng.choice(closing)
    return state.sample_action(rng)


def play(seed: int, keep: Callable[[dict[str, Any]], bool]) -> tuple[HighVoltageState, list]:
    """A whole seeded game, with the public views after every action for which `keep` holds."""
    state = GAME.new_state(4, seed)
    rng = random.Random(seed)
    kept = []
    while not state.is_terminal():
        state.apply(line_seeker(state, rng))
        view = state.view(None)
        if keep(view):
            kept.append(view)
    return state, kept


def lively(view: dict[str, Any]) -> bool:
    """A line was just scored and tokens of both sides lie on the board."""
    energy = {c.get("energy") for c in view["cells"]}
    return bool(view["last"]["lines"]) and {"high_voltage", "danger"} <= energy


def opening(seed: int, actions: int) -> HighVoltageState:
    """The first actions of a game as players tend to open: drawing cards and turning them,
    keeping their action and special tokens for later."""
    state = GAME.new_state(4, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        cheap = [
            a
            for a in state.legal_actions()
            if isinstance(a, Draw | Place | Rotate) and getattr(a, "special", None) is None
        ]
        state.apply(rng.choice(cheap) if cheap else state.sample_action(rng))
    return state


def drawn_face(seed: int) -> dict[str, Any]:
    """The first drawn card of a seeded game that has two paths, as its drawer sees it."""
    state = GAME.new_state(3, seed)
    rng = random.Random(seed)
    while True:
        draw = next(a for a in state.legal_actions() if isinstance(a, Draw))
        state.apply(draw)
        face = state.view(state.current_seat())["drawn"]
        if len(face.get("paths", [])) == 2:
            return face
        state.apply(state.sample_action(rng))


def main() -> int:
    early = opening(7, 14).view(None)
    (_HERE / "board-early.png").write_bytes(PRESENTER.board_png(early, NAMES))

    for seed in range(4, 40):
        final, kept = play(seed, lively)
        if kept:
            break
    else:
        raise SystemExit("no seeded game scored a line with both token sides on the board")
    late = kept[-1]
    (_HERE / "board-late.png").write_bytes(PRESENTER.board_png(late, NAMES))
    (_HERE / "end.png").write_bytes(hv_end_png(final.view(None), names=NAMES))
    (_HERE / "card-draw.png").write_bytes(hv_card_png(drawn_face(5)))
    line = late["last"]["lines"][0]["line"]
    print(f"late board: game seed {seed}, turn {late['turn']}, line {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
