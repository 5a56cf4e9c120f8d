"""How fast the Pylons rules are next to OpenSpiel's TwixT, and how strong the `hard` player is.

    python bench/pylons.py [--seconds S] [--games N] [--budget SECONDS]

1. Random playouts, side by side in one run: our engine and OpenSpiel's `twixt` (board size
   24) each play complete games of uniformly random legal moves, in alternating rounds so both
   see the same machine load. Like with like as far as the rules allow: ours runs with swamps
   off (the classic open board, no keep-or-mirror choice); OpenSpiel's TwixT has no swamps
   either, but has a swap rule (the second player may take over the first pylon) and no
   200-pylon limit, so its random games run until the board is full (~540 moves) where ours
   stop at 200 pylons. Both throughputs are printed per game and per move; the ratio asked
   of the engine (at least 0.25 of OpenSpiel) is per game, the per-move ratio is the fairer
   view of raw speed. Both loops drive the engine from Python, the way the bot and the AI
   do: ours by `state.apply(state.sample_action(rng))`, OpenSpiel's by `apply_action` of a
   random entry of `legal_actions()`.
   OpenSpiel is an optional, benchmark-only dependency (`pip install .[bench]`); without it
   the comparison is skipped with a note and its figures are null.
2. The board picture (`render.pylons_board_png`) of an early, a middle and a full random
   position, against the bars every board picture has: median under 10 ms (PNG encoding
   included; the first render of a process, which builds the palette and pieces, is left
   out), PNG under 150 kB.
3. The `hard` player against `normal` over `--games` games with swamps on, seats alternating
   and each deal played from both seats; `hard` thinks up to `--budget` seconds a move.

Prints a table for people, then as its last line one JSON object for scripts and CI history
(`openspiel_ratio`, `hard_vs_normal` and the figures behind them). It reports figures only:
it never fails because a machine is slow.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path; look up packages from
# the project folder instead (see bench/engine.py).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from engine import find_game  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.cli import seat_rng  # noqa: E402
from render import pylons_board_png  # noqa: E402

GAME = find_game("pylons")
RATIO_TARGET = 0.25
RENDER_TARGET_MS = 10.0
PNG_TARGET_KB = 150.0
RENDER_POSITIONS = (("early", 10), ("middle", 60), ("full", 10_000))  # random pylons placed
ROUNDS = 4


def our_playouts(seconds: float, first_seed: int) -> tuple[int, int, float, int]:
    """(games, moves, elapsed, next seed) of random games on the open board for `seconds`."""
    games = moves = 0
    seed = first_seed
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = GAME.new_state(2, seed, {"swamps": "off"})
        rng = seat_rng(seed)
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
            moves += 1
        games += 1
        seed += 1
    return games, moves, time.perf_counter() - started, seed


def openspiel_game() -> Any | None:
    """OpenSpiel's TwixT on a 24x24 board, or None when `open_spiel` is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel.load_game("twixt", {"board_size": 24, "ansi_color_output": False})


def openspiel_playouts(game: Any, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """(games, moves, elapsed) of OpenSpiel random games for `seconds`."""
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - started


def playouts(seconds: float) -> dict[str, Any]:
    """Both engines in alternating rounds of `seconds / ROUNDS` each."""
    spiel = openspiel_game()
    ours = [0, 0, 0.0]
    theirs = [0, 0, 0.0]
    seed = 1
    rng = random.Random(1)
    for _ in range(ROUNDS):
        g, m, t, seed = our_playouts(seconds / ROUNDS, seed)
        ours = [ours[0] + g, ours[1] + m, ours[2] + t]
        if spiel is not None:
            g, m, t = openspiel_playouts(spiel, seconds / ROUNDS, rng)
            theirs = [theirs[0] + g, theirs[1] + m, theirs[2] + t]
    out: dict[str, Any] = {
        "ours_games_per_s": round(ours[0] / ours[2], 1),
        "ours_moves_per_s": round(ours[1] / ours[2]),
        "ours_moves_per_game": round(ours[1] / max(1, ours[0]), 1),
        "openspiel_games_per_s": None,
        "openspiel_moves_per_s": None,
        "openspiel_moves_per_game": None,
        "openspiel_ratio": None,
        "openspiel_move_ratio": None,
    }
    if spiel is not None and theirs[0]:
        out["openspiel_games_per_s"] = round(theirs[0] / theirs[2], 1)
        out["openspiel_moves_per_s"] = round(theirs[1] / theirs[2])
        out["openspiel_moves_per_game"] = round(theirs[1] / theirs[0], 1)
        out["openspiel_ratio"] = round((ours[0] / ours[2]) / (theirs[0] / theirs[2]), 2)
        out["openspiel_move_ratio"] = round((ours[1] / ours[2]) / (theirs[1] / theirs[2]), 2)
    return out


def pictures(runs: int) -> dict[str, Any]:
    """Median render time and largest PNG over the three positions, `runs` renders each."""
    views = []
    for _, pylons in RENDER_POSITIONS:
        state = GAME.new_state(2, 5)
        rng = seat_rng(5)
        while not state.is_terminal() and state.turns_played < pylons:
            state.apply(state.sample_action(rng))
        views.append(state.view(None))
    names = ["Ada", "Bruno"]
    started = time.perf_counter()
    pylons_board_png(views[0], names=names)
    cold_ms = (time.perf_counter() - started) * 1000
    times, largest = [], 0
    for view in views:
        pylons_board_png(view, names=names)
        for _ in range(runs):
            started = time.perf_counter()
            png = pylons_board_png(view, names=names)
            times.append((time.perf_counter() - started) * 1000)
        largest = max(largest, len(png))
    return {
        "render_median_ms": round(statistics.median(times), 2),
        "render_p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))], 2),
        "render_cold_ms": round(cold_ms, 1),
        "png_max_kb": round(largest / 1024, 1),
    }


def hard_against_normal(games: int, budget: float) -> dict[str, Any]:
    """Play `games` games, `hard` taking seat 0 in even games and seat 1 in odd ones."""
    points = 0.0
    results = []
    hard_times: list[float] = []
    for k in range(games):
        seed = 1000 + k // 2
        hard_seat = k % 2
        state = GAME.new_state(2, seed)
        while not state.is_terminal():
            seat = state.current_seat()
            level = "hard" if seat == hard_seat else "normal"
            started = time.perf_counter()
            action = choose(state.view(seat), level=level, seed=seed, budget_s=budget)
            if level == "hard":
                hard_times.append(time.perf_counter() - started)
            state.apply(action)
        outcome = state.outcome()
        assert outcome is not None
        if len(outcome.winners) == 2:
            points += 0.5
            result = "draw"
        else:
            won = outcome.winners[0] == hard_seat
            points += won
            result = "hard" if won else "normal"
        results.append(result)
        print(
            f"  game {k + 1}: seed {seed}, hard is player {hard_seat + 1}: {result} "
            f"({outcome.reason}, scores {outcome.scores[0]}-{outcome.scores[1]}, "
            f"{state.turns_played} pylons)",
            flush=True,
        )
    return {
        "hard_vs_normal": round(points / games, 3) if games else None,
        "ai_games": games,
        "hard_wins": results.count("hard"),
        "normal_wins": results.count("normal"),
        "draws": results.count("draw"),
        "hard_budget_s": budget,
        "hard_max_move_s": round(max(hard_times), 3) if hard_times else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="playout time per engine")
    parser.add_argument("--runs", type=int, default=30, help="timed renders per position")
    parser.add_argument("--games", type=int, default=8, help="hard-against-normal games")
    parser.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move")
    args = parser.parse_args(argv)

    print(f"Random playouts, {args.seconds:g} s per engine in {ROUNDS} alternating rounds")
    speed = playouts(args.seconds)
    print(
        f"  ours (swamps off):   {speed['ours_games_per_s']:>8} games/s "
        f"{speed['ours_moves_per_s']:>9} moves/s ({speed['ours_moves_per_game']} moves a game)"
    )
    if speed["openspiel_ratio"] is None:
        print(
            "  OpenSpiel: not installed, comparison skipped "
            "(pip install open_spiel, or the project's [bench] extra)"
        )
    else:
        print(
            f"  OpenSpiel twixt 24:  {speed['openspiel_games_per_s']:>8} games/s "
            f"{speed['openspiel_moves_per_s']:>9} moves/s "
            f"({speed['openspiel_moves_per_game']} moves a game)"
        )
        verdict = "meets" if speed["openspiel_ratio"] >= RATIO_TARGET else "misses"
        print(
            f"  ratio: {speed['openspiel_ratio']} per game ({verdict} the {RATIO_TARGET} target), "
            f"{speed['openspiel_move_ratio']} per move"
        )
    print(f"Board picture, {args.runs} renders of each of {len(RENDER_POSITIONS)} positions")
    picture = pictures(args.runs)
    print(
        f"  median {picture['render_median_ms']} ms (bar {RENDER_TARGET_MS:g}), "
        f"90th percentile {picture['render_p90_ms']} ms, first render "
        f"{picture['render_cold_ms']} ms; largest PNG {picture['png_max_kb']} kB "
        f"(bar {PNG_TARGET_KB:g})"
    )
    print(f"hard against normal, {args.games} games, hard thinking {args.budget:g} s a move")
    ai = hard_against_normal(args.games, args.budget)
    print(
        f"  hard scored {ai['hard_vs_normal']} "
        f"({ai['hard_wins']} wins, {ai['normal_wins']} losses, {ai['draws']} draws)"
    )
    print(json.dumps({"bench": "pylons", **speed, **picture, **ai}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
