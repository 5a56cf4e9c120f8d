"""How fast the Pylons rules are next to OpenSpiel's TwixT, and how strong the `hard` player is.

    python bench/pylons.py [--seconds S] [--games N] [--budget SECONDS]

1. Random playouts, side by side in one run, in alternating rounds so both engines see the
   same machine load. Ours runs with swamps off (the classic open board, no keep-or-mirror
   choice); OpenSpiel's `twixt` (board size 24) has no swamps either, but a swap rule and no
   200-pylon limit. Both are driven from Python, the way the bot and the AI drive ours.
   a. The same work on both: games of at most 200 moves (ours can be no longer), each started
      from a copy of a start state made once (ours `copy()`, OpenSpiel's `state.clone()`:
      a fresh OpenSpiel state costs milliseconds), the full legal list built every move and a
      random entry of it applied. `openspiel_ratio_same_work` is ours / OpenSpiel in moves a
      second; the target is 1.0.
   b. Each engine's cheapest way to play random games: ours draws a move with
      `sample_action` (one pick from the free list it keeps) and its games end at 200 pylons;
      OpenSpiel's has no cheaper way from Python than its legal list, and its random games
      run on until the board is full (~540 moves). Reported per move
      (`openspiel_move_ratio`) and per game (`openspiel_ratio`), the latter comparing games of
      different lengths.
   OpenSpiel is an optional, benchmark-only dependency (`pip install .[bench]`); without it
   the comparison is skipped with a note and its figures are null.
2. The board picture (`games.pylons.pictures.pylons_board_png`) of an early, a middle and a
   full random position, against the bars every board picture has: median under 10 ms (PNG encoding
   included; the first render of a process, which builds the palette and pieces, is left
   out), PNG under 150 kB.
3. The `hard` player against `normal` over `--games` games with swamps on, seats alternating
   and each deal played from both seats; `hard` thinks up to `--budget` seconds a move.
4. `normal` against the racing reference player (`games.pylons.ai.reference.runner`) over
   `--runner-games` games, each deal from both seats, swamps on and off, with a 95% Wilson
   interval (bench/ai.py plays the same pairings at tournament size).

Prints a table for people, then as its last line one JSON object for scripts and CI history
(`openspiel_ratio_same_work`, `hard_vs_normal` and the figures behind them). It reports
figures only: it never fails because a machine is slow.
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
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from engine.ai import choose  # noqa: E402
from games import register_all  # noqa: E402
from games.cli import seat_rng  # noqa: E402
from games.pylons.ai.reference import race  # noqa: E402
from games.pylons.pictures import pylons_board_png  # noqa: E402
from games.pylons.rules import GAME  # noqa: E402

register_all()  # the AI levels `choose` plays, as `bot.py` registers them

RATIO_TARGET = 1.0  # ours / OpenSpiel, moves a second on the same work
SAME_WORK_MOVES = 200  # the longest a game of ours can be
RENDER_TARGET_MS = 10.0
PNG_TARGET_KB = 150.0
RENDER_POSITIONS = (("early", 10), ("middle", 60), ("full", 10_000))  # random pylons placed
ROUNDS = 4


def _spiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def openspiel_game() -> Any | None:
    """OpenSpiel's TwixT on a 24x24 board, or None when `open_spiel` is not installed."""
    pyspiel = _spiel()
    if pyspiel is None:
        return None
    return pyspiel.load_game("twixt", {"board_size": 24, "ansi_color_output": False})


class Tally:
    """Games, moves and seconds of one way of playing, summed over the rounds."""

    def __init__(self) -> None:
        self.games = 0
        self.moves = 0
        self.seconds = 0.0

    def add(self, games: int, moves: int, seconds: float) -> None:
        self.games += games
        self.moves += moves
        self.seconds += seconds

    def per_s(self) -> tuple[float, float]:
        """(games, moves) a second."""
        return self.games / self.seconds, self.moves / self.seconds


def same_work(
    start: Any,
    fresh: Callable[[Any], Any],
    apply: Callable[[Any, Any], None],
    seconds: float,
    rng: random.Random,
) -> tuple[int, int, float]:
    """(games, moves, elapsed) of games of at most SAME_WORK_MOVES moves from clones of
    `start`, each move a random entry of the full legal list: one loop for both engines, so
    they do exactly the same work; `fresh(start)` (a copy) and `apply(state, action)` are the
    calls that differ."""
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = fresh(start)
        n = 0
        while n < SAME_WORK_MOVES and not state.is_terminal():
            legal = state.legal_actions()
            apply(state, legal[int(rng.random() * len(legal))])
            n += 1
        moves += n
        games += 1
    return games, moves, time.perf_counter() - started


def ours_cheapest(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Whole games (at most 200 pylons by the rules) from a cloned start, each move drawn by
    `sample_action`: one pick from the kept free list, no legal list built."""
    start = GAME.new_state(2, 1, {"swamps": "off"})
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = start.copy()
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - started


def openspiel_cheapest(spiel: Any, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Whole games (until the board is full or connected: no pylon limit) from a cloned start.

    From Python this is OpenSpiel's cheapest way: it has no sampler, `legal_actions_mask`
    with rejection measured slower than the legal list as the board fills, and its random
    rollouts in C++ are not exposed to Python one move at a time."""
    start = spiel.new_initial_state()
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = start.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - started


def _ratio(ours: float, theirs: float | None) -> float | None:
    return round(ours / theirs, 2) if theirs else None


def playouts(seconds: float) -> dict[str, Any]:
    """Both engines, both ways, in alternating rounds of `seconds / (2 * ROUNDS)` each."""
    spiel = openspiel_game()
    share = seconds / (2 * ROUNDS)
    tallies = {key: Tally() for key in ("ours_same", "theirs_same", "ours_cheap", "theirs_cheap")}
    rng = random.Random(1)
    ours_start = GAME.new_state(2, 1, {"swamps": "off"})
    spiel_start = spiel.new_initial_state() if spiel is not None else None

    def ours_apply(state: Any, action: Any) -> None:
        state.apply(action)

    def spiel_apply(state: Any, action: Any) -> None:
        state.apply_action(action)

    for _ in range(ROUNDS):
        tallies["ours_same"].add(*same_work(ours_start, lambda s: s.copy(), ours_apply, share, rng))
        if spiel is not None:
            tallies["theirs_same"].add(
                *same_work(spiel_start, lambda s: s.clone(), spiel_apply, share, rng)
            )
        tallies["ours_cheap"].add(*ours_cheapest(share, rng))
        if spiel is not None:
            tallies["theirs_cheap"].add(*openspiel_cheapest(spiel, share, rng))
    out: dict[str, Any] = {}
    for key, tally in tallies.items():
        games, moves = tally.per_s() if tally.games else (None, None)
        out[f"{key}_moves_per_s"] = round(moves) if moves else None
        out[f"{key}_games_per_s"] = round(games, 1) if games else None
        out[f"{key}_moves_per_game"] = round(tally.moves / tally.games, 1) if tally.games else None
    out["openspiel_ratio_same_work"] = _ratio(
        out["ours_same_moves_per_s"], out["theirs_same_moves_per_s"]
    )
    out["openspiel_move_ratio"] = _ratio(
        out["ours_cheap_moves_per_s"], out["theirs_cheap_moves_per_s"]
    )
    out["openspiel_ratio"] = _ratio(out["ours_cheap_games_per_s"], out["theirs_cheap_games_per_s"])
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


def wilson(rate: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate over `games`: stays inside [0, 1] near the ends."""
    if not games:
        return 0.0, 1.0
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return round(centre - half, 3), round(centre + half, 3)


def normal_against_runner(games: int) -> dict[str, Any]:
    """`normal` against the racing reference player (`games.pylons.ai.reference.runner`):
    each deal from both seats, with swamps and without, in turn."""
    points = 0.0
    for k in range(games):
        seed, normal_seat = 2000 + k // 4, k % 2
        winners = race("normal", seed, "on" if k % 4 < 2 else "off", normal_seat)
        points += 0.5 if len(winners) == 2 else winners[0] == normal_seat
    rate = points / games if games else None
    low, high = wilson(rate or 0.0, games)
    return {
        "normal_vs_runner": round(rate, 3) if rate is not None else None,
        "runner_games": games,
        "normal_vs_runner_low": low if games else None,
        "normal_vs_runner_high": high if games else None,
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


def print_speed(speed: dict[str, Any]) -> None:
    rows = (
        ("same work", "ours_same", "theirs_same"),
        ("cheapest", "ours_cheap", "theirs_cheap"),
    )
    for title, ours, theirs in rows:
        for who, key in (("ours", ours), ("OpenSpiel", theirs)):
            if speed[f"{key}_moves_per_s"] is None:
                continue
            print(
                f"  {title:<10} {who:<10} {speed[f'{key}_moves_per_s']:>9} moves/s "
                f"{speed[f'{key}_games_per_s']:>8} games/s "
                f"({speed[f'{key}_moves_per_game']} moves a game)"
            )
    if speed["openspiel_ratio_same_work"] is None:
        print(
            "  OpenSpiel: not installed, comparison skipped "
            "(pip install open_spiel, or the project's [bench] extra)"
        )
        return
    verdict = "meets" if speed["openspiel_ratio_same_work"] >= RATIO_TARGET else "misses"
    print(
        f"  ratio ours/OpenSpiel: {speed['openspiel_ratio_same_work']} on the same work "
        f"({verdict} the {RATIO_TARGET:g} target); cheapest ways: "
        f"{speed['openspiel_move_ratio']} per move, {speed['openspiel_ratio']} per game "
        "(games of different lengths)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="playout time per engine")
    parser.add_argument("--runs", type=int, default=30, help="timed renders per position")
    parser.add_argument("--games", type=int, default=8, help="hard-against-normal games")
    parser.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move")
    parser.add_argument("--runner-games", type=int, default=8, help="normal-against-runner games")
    args = parser.parse_args(argv)

    print(
        f"Random playouts, {args.seconds:g} s per engine, both ways, in {ROUNDS} alternating "
        "rounds (ours with swamps off)"
    )
    speed = playouts(args.seconds)
    print_speed(speed)
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
    if ai["ai_games"]:
        print(
            f"  hard scored {ai['hard_vs_normal']} "
            f"({ai['hard_wins']} wins, {ai['normal_wins']} losses, {ai['draws']} draws)"
        )
    print(f"normal against the runner, {args.runner_games} games, swamps on and off")
    race = normal_against_runner(args.runner_games)
    if race["runner_games"]:
        print(
            f"  normal scored {race['normal_vs_runner']} (95% interval "
            f"{race['normal_vs_runner_low']}-{race['normal_vs_runner_high']})"
        )
    print(json.dumps({"bench": "pylons", **speed, **picture, **ai, **race}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
