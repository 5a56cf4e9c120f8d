"""Do Sector 6 games between AI players end by the rules, and how long do they last?

    python bench/sector6_endings.py                         # 100 games per table
    python bench/sector6_endings.py --games 1000 --seats random --seats normal --seats mixed
    python bench/sector6_endings.py --seats hard --games 5 --iterations 8

A table is one mode (full, veteran, novice), one player count (2, 3, 4) and the AI levels in the
seats: one level in every seat, or `mixed` (a level drawn per seat, from `random` and `normal`,
by the game's seed). Every game is played to its end through `engine.ai.choose` on the seat's
own view, as the bot plays AI seats: each decision carries on from the race's position kept at
the seat's last one (`games.sector6.ai.Kept`), as in the bot's worker, so a 4-player game of
`normal` seats costs under a second; `sample` seats instead take the engine's own random action
(`sample_action`, what the `random` level plays) on the game itself. A game that ends by the
per- player turn limit reached the backstop: the rules (every marker collected, held or out of
reach, or the oxygen clock) should have ended it first. The table gives the backstop count, the
median length in actions and in competition rounds over all games and over the games the rules
ended, and the median number of rounds played after the last collection (the idling the end
rules exist to cut short).

Works on any version of the engine that has `play_turns` and an outcome reason, so the same
file measures the code before and after a rules change. Prints a table for people, then as its
last line one JSON object for scripts. It reports figures only: it never fails a run.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide the project's packages; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from engine.ai import choose  # noqa: E402
from games import register_all  # noqa: E402
from games.sector6.rules import GAME  # noqa: E402

register_all()  # the AI levels `choose` plays, as `bot.py` registers them

MODES = ("full", "veteran", "novice")
BACKSTOP = "turn_limit"
SEARCHING = frozenset({"hard"})  # levels that take an `iterations` bound
SAMPLE = "sample"  # the engine's random action on the game itself, without a view
MIXED_FROM = ("random", "normal")
MAX_ACTIONS = 20_000  # far past any backstop: a guard against an engine that never ends


def play_to_end(
    mode: str, players: int, levels: list[str], seed: int, iterations: int | None = None
) -> dict[str, Any]:
    """One game with the AI level `levels[s]` in seat `s`, dealt from `seed`, to its end.

    Returns the number of actions, the competition rounds (turns divided by the players,
    rounded up), the end reason, whether it was the backstop, the scores, and the rounds played
    after the last collection. `iterations` bounds the searching levels only."""
    if len(levels) != players:
        raise ValueError(f"{players} players need {players} levels, found {len(levels)}")
    state = GAME.new_state(players, seed, {"mode": mode})
    dice = random.Random(f"sample:{seed}")
    actions = 0
    last_collect_turns = 0  # competition turns completed when the last marker was collected
    while not state.is_terminal() and actions < MAX_ACTIONS:
        seat = state.current_seat()
        assert seat is not None
        level = levels[seat]
        bound = iterations if level in SEARCHING else None
        if level == SAMPLE:
            text = state.sample_action(dice).text()
        else:
            seat_seed = seed * 10_007 + actions
            text = choose(state.view(seat), level=level, seed=seat_seed, iterations=bound)
        state.apply(text)
        actions += 1
        if text == "collect":
            last_collect_turns = state.play_turns
    outcome = state.outcome()
    reason = outcome.reason if outcome is not None else "unfinished"
    turns = state.play_turns
    return {
        "mode": mode,
        "players": players,
        "levels": list(levels),
        "seed": seed,
        "actions": actions,
        "rounds": math.ceil(turns / players),
        "reason": reason,
        "backstop": reason == BACKSTOP,
        "scores": list(outcome.scores) if outcome is not None else state.scores(),
        "idle_rounds": math.ceil((turns - last_collect_turns) / players),
    }


def seat_levels(seats: str, players: int, seed: int) -> list[str]:
    """The level in every seat for a table's `seats` (a level name, or `mixed`)."""
    if seats != "mixed":
        return [seats] * players
    rng = random.Random(f"seats:{seed}")
    return [rng.choice(MIXED_FROM) for _ in range(players)]


def _job(job: tuple[str, int, str, int, int | None]) -> dict[str, Any]:
    mode, players, seats, seed, iterations = job
    result = play_to_end(mode, players, seat_levels(seats, players, seed), seed, iterations)
    result["seats"] = seats
    return result


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def summarise(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one table's games."""
    ruled = [r for r in results if not r["backstop"]]
    return {
        "games": len(results),
        "backstop": len(results) - len(ruled),
        "median_actions": _median([r["actions"] for r in results]),
        "median_rounds": _median([r["rounds"] for r in results]),
        "median_actions_by_rules": _median([r["actions"] for r in ruled]),
        "median_rounds_by_rules": _median([r["rounds"] for r in ruled]),
        "median_idle_rounds": _median([r["idle_rounds"] for r in results]),
        "reasons": dict(sorted(Counter(r["reason"] for r in results).items())),
    }


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per table (100)")
    parser.add_argument("--mode", action="append", choices=MODES, help="only this mode")
    parser.add_argument("--players", action="append", type=int, help="only this player count")
    parser.add_argument(
        "--seats",
        action="append",
        help="levels in the seats: random, normal, hard, sample or mixed (repeatable; "
        "default random, normal and mixed)",
    )
    parser.add_argument("--iterations", type=int, default=8, help="hard's search bound (8)")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    args = parser.parse_args(argv)
    modes = args.mode or list(MODES)
    counts = args.players or [2, 3, 4]
    seat_kinds = args.seats or ["random", "normal", "mixed"]
    tables = [(m, p, s) for m in modes for p in counts for s in seat_kinds]
    jobs = [
        (m, p, s, args.seed + k, args.iterations) for m, p, s in tables for k in range(args.games)
    ]
    random.Random(0).shuffle(jobs)  # mix slow and fast games across the workers
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(_job, jobs, chunksize=4))
    else:
        results = [_job(job) for job in jobs]
    figures: dict[str, Any] = {}
    print(
        f"{'table':24} {'games':>5} {'backstop':>8} {'actions':>8} {'rounds':>6} "
        f"{'actions*':>8} {'rounds*':>7} {'idle':>5}  reasons"
    )
    for mode, players, seats in tables:
        rows = [
            r for r in results if (r["mode"], r["players"], r["seats"]) == (mode, players, seats)
        ]
        name = f"{mode}_{players}p:{seats}"
        f = summarise(rows)
        figures[name] = f
        reasons = ", ".join(f"{k} {v}" for k, v in f["reasons"].items())
        print(
            f"{name:24} {f['games']:5d} {f['backstop']:8d} {_fmt(f['median_actions']):>8} "
            f"{_fmt(f['median_rounds']):>6} {_fmt(f['median_actions_by_rules']):>8} "
            f"{_fmt(f['median_rounds_by_rules']):>7} {_fmt(f['median_idle_rounds']):>5}  {reasons}"
        )
    print("(medians; * over the games the rules ended; idle: rounds after the last collection)")
    figures["backstop_total"] = sum(f["backstop"] for f in figures.values())
    figures["games_total"] = len(results)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
