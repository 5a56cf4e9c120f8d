"""One High Voltage pairing, measured the way `bench/ai.py` measures it, with a Wilson interval.

    python bench/hv_match.py hard normal --games 400 --iterations 4
    python bench/hv_match.py normal random --games 1000
    python bench/hv_match.py hard normal --games 10 --budget 1.0     # the real 1 s budget
    python bench/hv_match.py normal reference --games 400

Each deal (seeded `first_seed + i // players`) is played from every rotation of the seats: in 2
players once from each seat. A side's result in one game is its share of the winners (1 for a
win, 1/2 for a shared win in 2 players), so 0.5 means "as good as the other". Either side may
be a level or `reference`, the fixed greedy line closer. `hard` is bounded by `--iterations`
(deterministic) or `--budget` seconds per decision.

`--hard-determinizations` measures instead how many determinizations `hard` completes within
its 1 s budget per decision, over decisions of real games: run it when the machine is quiet.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from bench.hv_endings import play_to_end  # noqa: E402

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (stays inside [0, 1] near its ends)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def seats_for(first: str, second: str, players: int, game: int) -> list[str]:
    pattern = [first, second] * (players // 2) + [first] * (players % 2)
    shift = game % players
    return pattern[shift:] + pattern[:shift]


def _game(job: tuple[str, str, int, int, int, int | None, float | None]) -> dict[str, Any]:
    first, second, players, index, first_seed, iterations, budget = job
    seed = first_seed + index // players
    names = seats_for(first, second, players, index)
    result = play_to_end(players, names, seed, iterations, budget)
    scores = result["scores"]
    top = max(scores)
    winners = [s for s, v in enumerate(scores) if v == top]
    result["share"] = sum(1 for s in winners if names[s] == first) / len(winners)
    return result


def determinizations(decisions: int, seed: int) -> dict[str, Any]:
    """Determinizations `hard` completes in its 1 s budget, over `decisions` action steps of
    games between normal seats, with the search's early stops switched off (no candidate
    dropped, no obvious move, no cap).

    A busy machine gives the process less than the second, so the rate per second of the
    process's own CPU time is reported too: what a quiet machine completes in 1 s.
    """
    import os
    import random

    from engine.ai import choose
    from games import find_game, register_all
    from games.high_voltage.ai import agents

    register_all()  # a worker process may start fresh
    game = find_game("high-voltage")
    counts: list[int] = []
    rates: list[float] = []
    samples = [0]

    class Counting(agents.Determinizer):
        def sample(self, rng: random.Random, assignment: int | None = None) -> Any:
            samples[0] += 1
            return super().sample(rng, assignment)

    original = agents.HARD_Z, agents.HARD_OBVIOUS, agents.Determinizer
    # Never stop early (no candidate dropped, no obvious move): count what fits in 1 s.
    agents.HARD_Z, agents.HARD_OBVIOUS, agents.Determinizer = 1e9, 1e9, Counting  # type: ignore[misc]  # the class hard searches with, swapped for one that counts
    rng = random.Random(seed)
    try:
        while len(counts) < decisions:
            state = game.new_state(2, rng.randrange(10**6))
            stop = rng.randrange(20, 200)
            actions = 0
            while not state.is_terminal() and len(counts) < decisions:
                seat = state.current_seat()
                view = state.view(seat)
                if actions >= stop and state.phase == "action":
                    samples[0] = 0
                    cpu = time.process_time()
                    choose(view, level="hard", seed=actions, budget_s=1.0, iterations=10_000)
                    cpu = time.process_time() - cpu
                    if samples[0]:  # 0: a single candidate, decided without searching
                        # the last sample is the round the deadline cut short
                        counts.append(samples[0] - 1)
                        rates.append((samples[0] - 1) / max(cpu, 1e-6))
                    stop = actions + rng.randrange(10, 60)
                text = choose(view, level="normal", seed=actions)
                state.apply(text)
                actions += 1
    finally:
        agents.HARD_Z, agents.HARD_OBVIOUS, agents.Determinizer = original  # type: ignore[misc]  # the class put back
    return {
        "decisions": len(counts),
        "median": statistics.median(counts),
        "mean": round(sum(counts) / len(counts), 2),
        "min": min(counts),
        "max": max(counts),
        "per_cpu_second_median": round(statistics.median(rates), 1),
        "per_cpu_second_low_decile": round(sorted(rates)[len(rates) // 10], 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", nargs="?", default="hard")
    parser.add_argument("second", nargs="?", default="normal")
    parser.add_argument("--games", type=int, default=200, help="games (200)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None, help="hard's bound")
    parser.add_argument("--budget", type=float, default=None, help="hard's seconds")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hard-determinizations", type=int, default=0, metavar="DECISIONS")
    args = parser.parse_args(argv)
    if args.hard_determinizations:
        found = determinizations(args.hard_determinizations, args.first_seed)
        print(json.dumps({"hard_determinizations_per_1s": found}))
        return 0
    jobs = [
        (
            args.first,
            args.second,
            args.players,
            g,
            args.first_seed,
            args.iterations,
            args.budget,
        )
        for g in range(args.games)
    ]
    started = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(_game, jobs, chunksize=1))
    else:
        results = [_game(job) for job in jobs]
    elapsed = time.perf_counter() - started
    shares = sum(r["share"] for r in results)
    rate = shares / len(results)
    low, high = wilson(shares, len(results))
    ended = sum(r["ended_by_rules"] for r in results)
    bound = (
        f"{args.iterations} iterations"
        if args.iterations
        else f"{args.budget or 'default'} s budget"
    )
    name = f"{args.first}_vs_{args.second}_{args.players}p"
    print(
        f"{name}: {len(results)} games (hard: {bound}), share {rate:.3f} "
        f"[{low:.3f}, {high:.3f}], ended by rules {ended}, {elapsed:.0f} s"
    )
    times: dict[str, list[float]] = {}
    for r in results:
        for level, ts in r["times"].items():
            times.setdefault(level, []).extend(ts)
    figures: dict[str, Any] = {
        "pairing": name,
        "games": len(results),
        "rate": round(rate, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "ended_by_rules": ended,
        "hard_iterations": args.iterations,
        "hard_budget_s": args.budget,
        "elapsed_s": round(elapsed, 1),
    }
    for level, ts in sorted(times.items()):
        figures[f"{level}_decision_s"] = {
            "mean": round(sum(ts) / len(ts), 4),
            "max": round(max(ts), 4),
        }
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
