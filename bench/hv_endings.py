"""Do High Voltage games between AI seats always end by the rules?

    python bench/hv_endings.py                                  # 1,000 games per row
    python bench/hv_endings.py --games 200 --level hard --iterations 2
    python bench/hv_endings.py --players 2 --level normal --first-seed 220 --games 1

Rotations are free, so two AI seats could turn cards back and forth for ever; the rules set no
limit. A row is a player count and a level (every seat the same level); each game is played
from a deal seeded `first_seed + i`, each decision seeded `seed * 10_007 + actions` as in
`bench/ai.py`, until the rules end it or `MAX_ACTIONS` have been played (a stall). `hard`
thinks with an `--iterations` bound (deterministic, and affordable for hundreds of games).

Per row: games, games ended by the rules, median and longest game in actions, and the longest
run of actions without a draw. The last line is one JSON object of the figures.
`play_to_end` is the one-game function, for other benchmarks and tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path; look up packages from
# the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from engine.ai import choose  # noqa: E402
from games import register_all  # noqa: E402
from games.high_voltage.rules import GAME  # noqa: E402

register_all()  # the AI levels `choose` plays, as `bot.py` registers them

MAX_ACTIONS = 3000  # a game still running after this many actions has stalled
LEVELS = ("random", "easy", "normal", "hard")
SEARCHING = ("hard",)
REFERENCE = "reference"  # the fixed greedy line closer of games.high_voltage.ai.reference


def play_to_end(
    players: int,
    levels: Sequence[str],
    seed: int,
    iterations: int | None = None,
    budget_s: float | None = None,
) -> dict[str, Any]:
    """One game with `levels[seat]` in each seat (a level, or "reference": the fixed greedy
    line closer), dealt from `seed`. `iterations` or `budget_s` bound the hard level.

    Returns {"actions", "ended_by_rules", "scores", "reason", "longest_without_draw",
    "times"}; `scores` are the final scores (also when the game was stopped at
    `MAX_ACTIONS`), `times` each level's decision times in seconds.
    """
    if len(levels) != players:
        raise ValueError(f"{players} players need {players} levels, not {len(levels)}")
    state = GAME.new_state(players, seed)
    actions = 0
    since_draw = longest = 0
    times: dict[str, list[float]] = {}
    bound: dict[str, Any] = {"iterations": iterations, "budget_s": budget_s}
    while not state.is_terminal() and actions < MAX_ACTIONS:
        seat = state.current_seat()
        assert seat is not None  # the game is not over
        level = levels[seat]
        view = state.view(seat)
        decision = seed * 10_007 + actions
        started = time.perf_counter()
        if level == REFERENCE:
            from games.high_voltage.ai.reference import decide

            text = decide(view, random.Random(decision))
        else:
            extra = bound if level in SEARCHING else {}
            text = choose(view, level=level, seed=decision, **extra)
        times.setdefault(level, []).append(time.perf_counter() - started)
        state.apply(text)
        actions += 1
        if text.startswith("draw"):
            since_draw = 0
        elif not text.startswith(("place", "declare")):
            since_draw += 1
            longest = max(longest, since_draw)
    outcome = state.outcome()
    return {
        "actions": actions,
        "ended_by_rules": outcome is not None,
        "scores": state.final_scores(),
        "reason": outcome.reason if outcome else "stopped",
        "longest_without_draw": longest,
        "times": times,
    }


def _job(job: tuple[int, str, int, int | None]) -> dict[str, Any]:
    players, level, seed, iterations = job
    result = play_to_end(players, [level] * players, seed, iterations)
    return {**result, "players": players, "level": level, "seed": seed}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per row (1000)")
    parser.add_argument("--players", type=int, action="append", help="player counts (2, 3, 4)")
    parser.add_argument("--level", action="append", help=f"levels ({', '.join(LEVELS)})")
    parser.add_argument("--iterations", type=int, default=2, help="hard's bound (2)")
    parser.add_argument("--first-seed", type=int, default=1, help="first deal's seed (1)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--log", type=Path, help="also write each game as a JSON line here")
    args = parser.parse_args(argv)
    counts = args.players or [2, 3, 4]
    levels = args.level or list(LEVELS)
    jobs = [  # deal by deal, so that a run stopped early has every row's first deals
        (p, level, args.first_seed + g, args.iterations)
        for g in range(args.games)
        for p in counts
        for level in levels
    ]
    started = time.perf_counter()
    results = []
    log = args.log.open("a") if args.log else None
    with multiprocessing.Pool(args.workers) as pool:
        for result in pool.imap_unordered(_job, jobs, chunksize=4):
            results.append(result)
            if log is not None:  # a long run can be read while it lasts
                print(json.dumps({k: v for k, v in result.items() if k != "times"}), file=log)
                log.flush()
    if log is not None:
        log.close()
    elapsed = time.perf_counter() - started
    print(
        f"High Voltage endings: {args.games} games per row from seed {args.first_seed}, "
        f"hard thinks {args.iterations} iterations"
    )
    head = ("players", "level", "games", "by rules", "median", "max", "no draw")
    print("{:>7} {:>7} {:>6} {:>8} {:>7} {:>5} {:>7}".format(*head))
    figures: dict[str, Any] = {}
    for p in counts:
        for level in levels:
            rows = [r for r in results if r["players"] == p and r["level"] == level]
            ended = sum(r["ended_by_rules"] for r in rows)
            lengths = [r["actions"] for r in rows]
            quiet = max(r["longest_without_draw"] for r in rows)
            median = statistics.median(lengths)
            print(
                f"{p:7d} {level:>7} {len(rows):6d} {ended:8d} {median:7.0f} "
                f"{max(lengths):5d} {quiet:7d}"
            )
            stalled = sorted(r["seed"] for r in rows if not r["ended_by_rules"])
            if stalled:
                print(f"        stalled seeds: {stalled[:20]}")
            figures[f"{p}p_{level}"] = {
                "games": len(rows),
                "ended_by_rules": ended,
                "median_actions": median,
                "max_actions": max(lengths),
                "longest_without_draw": quiet,
            }
    figures["hard_iterations"] = args.iterations
    figures["elapsed_s"] = round(elapsed, 1)
    print(f"elapsed {elapsed:.0f} s")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
