"""OpenSpiel's MCTS bot as a Pylons opponent, on the classic board (no swamps).

    from bench.openspiel_pylons import OpenSpielMCTS
    mcts = OpenSpielMCTS(simulations=1000, seed=3)
    state.apply(mcts(state, state.current_seat()))  # -> "place K12"

    python bench/openspiel_pylons.py [--games N] [--simulations N] [--budget SECONDS]

An outside yardstick for the project's players: OpenSpiel's C++ `MCTSBot` (UCT, c = 2, one
random rollout per leaf, `max_simulations` a move) searching OpenSpiel's own `twixt` with a
24x24 board, which has the rules of our open board (cross-checked move by move in
tests/games/pylons/test_pylons_openspiel.py). Run as a script it plays `hard` against it, seats
alternating, and prints each game and a JSON line; a random 24x24 rollout costs ~7 ms, so
1,000 simulations take seconds a move and a game minutes.

How the two games are matched:
- OpenSpiel's player 0 moves first and links the top and bottom rows; ours (seat 0) moves
  first and links the west and east columns. The board is therefore transposed: our cell
  (column i, row j) is OpenSpiel's column j, row i, which keeps knight moves and crossings,
  maps each seat's borders onto the same player's borders, and keeps who moves first.
  OpenSpiel numbers a cell as column * 24 + (23 - row) (its action 24 is `b24`).
- OpenSpiel has a swap rule: the second player's first move may be the first player's cell,
  taking it over. Our game has none, so it is never offered: the bot's choice is made from
  its search tree's root with that move left out (the rest of its final choice unchanged:
  a proven result first, then the most visited move, then the highest reward). Our own
  keep-or-mirror choice exists only with swamps, so the classic board never involves it.
- OpenSpiel has no 200-pylon limit; ours ends the game there. The bot searches its game as
  OpenSpiel defines it, so near the limit it does not know the game will end on scores.
OpenSpiel is an optional, benchmark-only dependency (`pip install .[bench]`).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: import packages from the project folder
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

import argparse
import json
import time
from typing import Any

from engine.core import State
from games.pylons.rules.board import COL, NAMES, ROW, SIZE
from games.pylons.rules.state import PylonsState

UCT_C = 2.0
MAX_MEMORY_MB = 1000
LAST = SIZE - 1


def to_spiel(cell: int) -> int:
    """OpenSpiel's action for our cell: the board transposed (see the module's docstring)."""
    return ROW[cell] * SIZE + (LAST - COL[cell])


def from_spiel(action: int) -> int:
    """Our cell for OpenSpiel's action."""
    j, i = divmod(action, SIZE)
    return j * SIZE + (LAST - i)


def load_pyspiel() -> Any:
    """The `pyspiel` module, or ImportError saying how to install it."""
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise ImportError(
            "OpenSpiel is not installed: pip install open_spiel (or the project's [bench] extra)"
        ) from exc
    return pyspiel


def spiel_game() -> Any:
    return load_pyspiel().load_game("twixt", {"board_size": SIZE, "ansi_color_output": False})


def pylons_history(state: PylonsState) -> list[int]:
    """The cells of our game's pylons in the order placed; refuses a board with swamps."""
    if state.swamps_on:
        raise ValueError("OpenSpiel's twixt has no swamps: play the classic board (swamps off).")
    return list(state.order)


def spiel_state(game: Any, start: Any, state: PylonsState) -> Any:
    """OpenSpiel's position for ours, by replaying our pylons on a clone of its start."""
    out = start.clone()
    for cell in pylons_history(state):
        out.apply_action(to_spiel(cell))
    return out


def _final_key(node: Any) -> tuple[float, int, float]:
    """How OpenSpiel's MCTS ranks its root's moves for the final choice."""
    proven = node.outcome[node.player] if node.outcome else 0.0
    return proven, node.explore_count, node.total_reward


class OpenSpielMCTS:
    """OpenSpiel's C++ MCTS bot with random rollouts, playing our classic-board Pylons games.

    Decides from the position alone (it keeps no tree between moves), so one instance may
    play any number of games, in either seat."""

    def __init__(self, simulations: int = 1000, seed: int = 0) -> None:
        pyspiel = load_pyspiel()
        self.game = spiel_game()
        self.start = self.game.new_initial_state()  # a fresh state costs milliseconds
        self.bot = pyspiel.MCTSBot(
            self.game,
            pyspiel.RandomRolloutEvaluator(1, seed),
            UCT_C,
            simulations,
            MAX_MEMORY_MB,
            True,  # solve: mark proven wins and losses, as OpenSpiel's examples do
            seed,
            False,  # verbose
        )

    def __call__(self, state: State, seat: int) -> str:
        """Our action text for `seat`, which must be the seat to move."""
        if not isinstance(state, PylonsState):
            raise TypeError(f"OpenSpiel's MCTS plays Pylons, not a {type(state).__name__}.")
        if state.current_seat() != seat:
            raise ValueError("OpenSpiel's MCTS decides only for the seat to move.")
        position = spiel_state(self.game, self.start, state)
        if position.current_player() != seat:  # pragma: no cover - a mapping error
            raise AssertionError("OpenSpiel and Pylons disagree on whose move it is")
        swap = to_spiel(state.order[0]) if len(state.order) == 1 else None
        root = self.bot.mcts_search(position)
        moves = [child for child in root.children if child.action != swap]
        best = max(moves, key=_final_key)
        return f"place {NAMES[from_spiel(best.action)]}"


def play(
    names: tuple[str, str], seed: int, players: dict[str, Any]
) -> tuple[PylonsState, list[float]]:
    """One classic-board game; `players` maps a name to a callable(state, seat) -> text."""
    from games.pylons.rules import GAME

    state = GAME.new_state(2, seed, {"swamps": "off"})
    times: list[float] = []
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        started = time.perf_counter()
        state.apply(players[names[seat]](state, seat))
        times.append(time.perf_counter() - started)
    return state, times


def main(argv: list[str] | None = None) -> int:
    from engine.ai import choose
    from games import register_all

    register_all()  # the AI levels `choose` plays, as `bot.py` registers them

    parser = argparse.ArgumentParser(description="hard against OpenSpiel's MCTS, classic board")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=1.5, help="hard's seconds a move")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    wins = 0.0
    results = []
    for k in range(args.games):
        seed = args.first_seed + k // 2
        hard_seat = k % 2
        mcts = OpenSpielMCTS(args.simulations, seed)
        players = {
            "hard": lambda state, seat, seed=seed: choose(
                state.view(seat), level="hard", seed=seed, budget_s=args.budget
            ),
            "mcts": mcts,
        }
        names = ("hard", "mcts") if hard_seat == 0 else ("mcts", "hard")
        state, _ = play(names, seed, players)
        outcome = state.outcome()
        assert outcome is not None
        points = 0.5 if len(outcome.winners) == 2 else float(outcome.winners[0] == hard_seat)
        wins += points
        results.append(points)
        print(
            f"  game {k + 1}: seed {seed}, hard is player {hard_seat + 1}: "
            f"{'hard' if points == 1 else 'mcts' if points == 0 else 'draw'} "
            f"({outcome.reason}, {state.turns_played} pylons)",
            flush=True,
        )
    print(
        json.dumps(
            {
                "bench": "pylons_hard_vs_mcts",
                "simulations": args.simulations,
                "hard_budget_s": args.budget,
                "games": args.games,
                "hard_score": round(wins / args.games, 3) if args.games else None,
                "results": results,
            }
        )
    )
    return 0


__all__ = ["OpenSpielMCTS", "from_spiel", "spiel_state", "to_spiel"]

if __name__ == "__main__":
    sys.exit(main())
