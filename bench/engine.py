"""How fast the High Voltage rules are, against the product's quality bars.

    python bench/engine.py [--games N]

Measures, with `time.perf_counter`:
- complete random games for 2 and 4 players (deal included): the engine's share of every AI
  seat, playout and simulation; the bar is a 4-player game in under 20 ms;
- finding the closable lines after an action: what every action pays before the bot can
  answer; the bar is 0.2 ms at the median. Positions are taken from random games right after
  each action that changed the board, and the work timed is exactly the closable-line search
  the state runs (lines through the changed cells, then the validity check of each);
- the end-of-game test `no_line_possible()` on the same positions, and on finished boards with
  every token spent, where it has to search the orientations (its slow branch).

Prints a table for people, then as its last line one JSON object for scripts and CI history.
It reports figures only: it never fails because a machine is slow.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide the `engine` package; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

from games.cli import seat_rng  # noqa: E402
from games.high_voltage.rules import (  # noqa: E402
    GAME,
    Declare,
    DeclareNone,
    Draw,
    HighVoltageState,
)

GAME_TARGET_MS = 20.0
LINES_TARGET_MS = 0.2
REPEAT = 5  # each sampled position is timed this many times and averaged, to beat timer noise


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def random_game(players: int, seed: int) -> HighVoltageState:
    """A complete random game, exactly as `python -m games simulate` plays it."""
    state = GAME.new_state(players, seed)
    rng = seat_rng(seed)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    return state


def time_games(players: int, games: int, first_seed: int = 0) -> list[float]:
    """Milliseconds per complete random game, one figure per game."""
    random_game(players, first_seed)  # warm the data caches before timing
    timings = []
    for i in range(games):
        started = time.perf_counter()
        random_game(players, first_seed + i)
        timings.append(1000 * (time.perf_counter() - started))
    return timings


def closable_after(state: HighVoltageState, cells: list[int]) -> list[Any]:
    """The state's own closable-line search, for the cells one action changed."""
    board = state._board
    setup = state.setup
    return [
        line
        for line in board.lines_through(cells)
        if board.problem(line, setup.min_line_cards, setup.max_high_voltage_on_line) is None
    ]


def time_call(call: Callable[[], object]) -> float:
    """Milliseconds per call of `call`, averaged over REPEAT calls."""
    started = time.perf_counter()
    for _ in range(REPEAT):
        call()
    return 1000 * (time.perf_counter() - started) / REPEAT


def changed_the_board(action: object) -> bool:
    """Whether an action put, turned or moved a card (a bare draw or a declaration does not)."""
    if isinstance(action, Declare | DeclareNone):
        return False
    return not (isinstance(action, Draw) and action.place is None)


def time_positions(players: int, games: int) -> tuple[list[float], list[float], int]:
    """(closable-line ms, no_line_possible ms, lines found) over positions after actions."""
    lines_ms: list[float] = []
    no_line_ms: list[float] = []
    found = 0
    for seed in range(games):
        state = GAME.new_state(players, seed)
        rng = seat_rng(seed)
        while not state.is_terminal():
            action = state.sample_action(rng)
            state.apply(action)
            if not changed_the_board(action):
                continue
            cells = list(state.last["cells"])
            lines_ms.append(time_call(partial(closable_after, state, cells)))
            no_line_ms.append(time_call(state.no_line_possible))
            found += len(closable_after(state, cells))
    return lines_ms, no_line_ms, found


def time_rotation_search(players: int, games: int) -> list[float]:
    """`no_line_possible()` on finished boards with every token spent: the orientation search."""
    timings = []
    for seed in range(games):
        state = random_game(players, seed)
        if state.face_down:
            continue
        state.action_tokens = [0] * state.seats
        state.special_tokens = [0] * state.seats
        timings.append(time_call(state.no_line_possible))
    return timings


def row(name: str, values: Sequence[float]) -> str:
    if not values:
        return f"{name:<44}{'no samples':>10}"
    return (
        f"{name:<44}{statistics.fmean(values):>10.4f}{statistics.median(values):>10.4f}"
        f"{percentile(values, 0.95):>10.4f}{max(values):>10.4f}{len(values):>9}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="random games per measurement")
    args = parser.parse_args(argv)
    games = max(1, args.games)

    game_2p = time_games(2, games)
    game_4p = time_games(4, games)
    lines_ms, no_line_ms, found = time_positions(4, max(1, games // 2))
    rotations_ms = time_rotation_search(4, max(1, games // 4))

    mean_2p, mean_4p = statistics.fmean(game_2p), statistics.fmean(game_4p)
    lines_median, lines_p95 = statistics.median(lines_ms), percentile(lines_ms, 0.95)
    print(f"High Voltage engine, {games} random games per table size (times in ms)")
    print(f"{'measure':<44}{'mean':>10}{'median':>10}{'p95':>10}{'max':>10}{'samples':>9}")
    print(row("complete random game, 2 players", game_2p))
    print(row("complete random game, 4 players", game_4p))
    print(row("closable lines after an action", lines_ms))
    print(row("no_line_possible() after an action", no_line_ms))
    print(row("no_line_possible(), rotations only", rotations_ms))
    print(f"games per second: {1000 / mean_2p:.0f} (2 players), {1000 / mean_4p:.0f} (4 players)")
    print(f"closable lines found at the sampled positions: {found}")
    verdict = "within" if mean_4p < GAME_TARGET_MS else "OVER"
    print(f"4-player game: {mean_4p:.3f} ms, {verdict} the {GAME_TARGET_MS:g} ms bar")
    verdict = "within" if lines_median < LINES_TARGET_MS else "OVER"
    print(f"closable lines: median {lines_median:.4f} ms, {verdict} the {LINES_TARGET_MS:g} ms bar")
    summary = {
        "games": games,
        "hv_game_ms_4p": round(mean_4p, 4),
        "hv_game_ms_2p": round(mean_2p, 4),
        "hv_games_per_s_4p": round(1000 / mean_4p, 1),
        "hv_games_per_s_2p": round(1000 / mean_2p, 1),
        "hv_lines_ms_median": round(lines_median, 5),
        "hv_lines_ms_p95": round(lines_p95, 5),
        "hv_lines_samples": len(lines_ms),
        "hv_no_line_ms_median": round(statistics.median(no_line_ms), 5),
        "hv_no_line_ms_p95": round(percentile(no_line_ms, 0.95), 5),
        "hv_no_line_rotations_ms_median": round(statistics.median(rotations_ms), 5)
        if rotations_ms
        else None,
        "hv_no_line_rotations_ms_p95": round(percentile(rotations_ms, 0.95), 5)
        if rotations_ms
        else None,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
