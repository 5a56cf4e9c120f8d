"""How long a Sector 6 AI decision takes early and late in the race for oxygen: with the
position rebuilt from the whole history at every decision, and carried on from the one kept
since the AI's last decision (`games.sector6.ai.Kept`, what the bot does).

    python bench/sector6_decisions.py [--seats 4] [--seed 5] [--at 10,100,300] [--level normal]

A random game is played into the race; at each move number of `--at` (counted from the
maze's completion, or the game's last move if it ends sooner) the AI to move decides, once
rebuilding and once carrying on from its position a few moves before. Prints the milliseconds
of each and their ratio to the earliest.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and files here named like
# the project's packages (bench/engine.py, bench/render.py) would hide them.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import games.sector6.ai as ai  # noqa: E402
from engine.ai import choose  # noqa: E402
from games import register_all  # noqa: E402
from games.sector6.rules import GAME  # noqa: E402
from games.sector6.rules.state import BUILD  # noqa: E402

register_all()  # the games this benchmark plays, as `bot.py` registers them

EARLIER = 4  # the kept position is from this many moves before (the AI's previous turn)
REPEATS = 5


def race(seats: int, seed: int, longest: int) -> list:
    """The game's states from the maze's completion on, `longest` moves at most."""
    rng = random.Random(seed)
    state = GAME.new_state(seats, seed, {"mode": "full"})
    while state.phase == BUILD:
        state.apply(state.sample_action(rng))
    states = [state.copy()]
    while len(states) <= longest and not state.is_terminal():
        state.apply(state.sample_action(rng))
        if not state.is_terminal():
            states.append(state.copy())
    return states


def rebuilt_ms(view: dict[str, Any], level: str) -> float:
    """A decision from a position rebuilt from the whole history (nothing kept)."""
    times = []
    for _ in range(REPEATS):
        ai.KEPT = ai.Kept()
        began = time.perf_counter()
        choose(view, level=level, seed=1)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def kept_ms(earlier: dict[str, Any], view: dict[str, Any], level: str) -> float:
    """A decision carried on from the position kept at the AI's decision `earlier`."""
    times = []
    for _ in range(REPEATS):
        ai.KEPT = ai.Kept()
        ai.KEPT.rebuilt(earlier, random.Random(0))
        began = time.perf_counter()
        choose(view, level=level, seed=1)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--at", default="10,100,300")
    parser.add_argument("--level", default="normal")
    args = parser.parse_args()
    wanted = [int(n) for n in args.at.split(",")]
    states = race(args.seats, args.seed, max(wanted))
    print(
        f"{args.seats} players, seed {args.seed}: {len(states[0].history)} actions to build, "
        f"race of {len(states) - 1}+ moves; median of {REPEATS}, {args.level}"
    )
    print(f"{'race move':>9} {'history':>8} {'rebuilt ms':>11} {'kept ms':>9} {'ratio':>6}")
    first: float | None = None
    for at in wanted:
        at = min(at, len(states) - 1)
        state = states[at]
        view = state.view(state.current_seat())
        earlier = states[max(0, at - EARLIER)]
        cold = rebuilt_ms(view, args.level)
        warm = kept_ms(earlier.view(earlier.current_seat()), view, args.level)
        first = first or warm
        print(f"{at:>9} {len(state.history):>8} {cold:>11.1f} {warm:>9.1f} {warm / first:>6.2f}")


if __name__ == "__main__":
    main()
