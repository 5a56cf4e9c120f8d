"""How strong the AI levels of every game are, against each other and against outside opponents.

    python bench/ai.py                                  # every game's default pairings
    python bench/ai.py --game pylons --games 100        # one game
    python bench/ai.py --only pylons:hard_vs_mcts1000_2p_classic --games 20
    python bench/ai.py --endings --games 1000           # do AI games always end by the rules?
    python bench/ai.py --list                           # the pairings there are

**Tournament.** Every pairing plays `--games` games with the seats rotated: in 2-player games
each deal is played twice with the seats swapped; in 4-player games the two sides alternate
round the table (A B A B) and each deal is played from all four rotations. A side's result in
one game is its share of the winners (1 for a win, 1/2 for a shared win in 2 players; in 4
players the fraction of winning seats that are its own), so 0.5 means "as good as the other".
Rates come with 95% Wilson score intervals, which stay inside [0, 1] near 0 and 1, where the
targets are.

Outside opponents are players that are not the project's AI levels, so a level cannot look
strong only against its own family:
- `runner` (Pylons): builds its shortest own chain and never blocks.
- `reference` (High Voltage): a fixed greedy player kept for regressions.
- `mcts1000`, `mcts10000` (Pylons, classic board): OpenSpiel's C++ MCTS bot with random
  rollouts, 1,000 or 10,000 simulations a move (any `mctsN` works). A move takes about one
  second per 1,000 simulations, so these are not in the default run (ask for them with --only)
  and need `pip install .[bench]`.

**Each level against the one below.** After the table, every game's levels are listed weakest
first as registered (random, easy, normal, hard) with each one's result against the level
below it, taken from the pairings played. A level beats the one below only when the whole
95% interval lies above 0.5: a rate above one half that could still be chance is not a win.
One that does not is printed as FAILS, in red when the output is a terminal or FORCE_COLOR is
set. A level that is the same player as the one below (easy is the random player in Pylons
and Sector 6) is said to be so, not failed.

**Endings** (`--endings`). Games with AI players in every seat, at every level and in mixed
seats, for every player count (and every Sector 6 mode), counting those that end by the
rules; a game that reaches a backstop (Sector 6's turn limit, or `MAX_ACTIONS` here) is a
stall. Searching levels think with a small `--endings-iterations` bound so a thousand games
stay affordable; stalls come from how a level values positions, not from how long it thinks.

Searching levels (`hard`) are bounded per game with `--hard GAME=SPEC`, SPEC being seconds
(`1.5s`) or a count of the level's own search units (`200i`, deterministic). Targets (2
players) are printed beside the figures, which are reported, never asserted: a slow machine
does not fail a run. The last line is one JSON object of the figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide packages of the same name; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

from engine.ai import agent, choose, levels  # noqa: E402
from engine.core import State  # noqa: E402
from games import find_game, register_all  # noqa: E402

register_all()  # the games this benchmark plays, as `bot.py` registers them

MAX_ACTIONS = 3000  # a game still running after this many actions has stalled
BACKSTOPS = {"sector6": frozenset({"turn_limit"})}  # end reasons that are not the rules'
SEARCHING = frozenset({"hard"})
SHORT = {"high-voltage": "hv", "pylons": "pylons", "sector6": "s6"}
Z95 = 1.959964

# A player decides for `seat` of a live state; it is built fresh inside the process that
# plays the game (players hold caches and C++ objects that cannot be pickled).
Player = Callable[[State, int, int], str]  # (state, seat, seed of this decision) -> action text


@dataclass(frozen=True)
class Pairing:
    game: str
    first: str
    second: str
    players: int = 2
    options: Mapping[str, str] = field(default_factory=dict)
    suffix: str = ""  # names the options: "_classic", "_novice"
    target: float | None = None  # the first side's share asked for

    @property
    def name(self) -> str:
        return f"{SHORT[self.game]}:{self.first}_vs_{self.second}_{self.players}p{self.suffix}"


CLASSIC = {"swamps": "off"}
PAIRINGS = (
    Pairing("high-voltage", "hard", "normal", target=0.80),
    Pairing("high-voltage", "normal", "random", target=0.80),
    Pairing("high-voltage", "normal", "easy"),
    Pairing("high-voltage", "easy", "random"),
    Pairing("high-voltage", "normal", "reference"),
    Pairing("high-voltage", "hard", "reference"),
    Pairing("high-voltage", "hard", "normal", 4),
    Pairing("pylons", "normal", "runner", target=0.95),
    Pairing("pylons", "normal", "runner", options=CLASSIC, suffix="_classic", target=0.95),
    Pairing("pylons", "hard", "runner"),
    Pairing("pylons", "hard", "normal", target=0.70),
    Pairing("pylons", "normal", "random"),
    Pairing("sector6", "hard", "normal", target=0.70),
    Pairing("sector6", "normal", "random", target=0.90),
)
EXTRA = (
    Pairing("pylons", "hard", "mcts1000", options=CLASSIC, suffix="_classic", target=0.90),
    Pairing("pylons", "normal", "mcts1000", options=CLASSIC, suffix="_classic"),
    Pairing("pylons", "hard", "mcts10000", options=CLASSIC, suffix="_classic", target=0.90),
    Pairing("high-voltage", "normal", "random", 4),
    Pairing("sector6", "hard", "normal", options={"mode": "veteran"}, suffix="_veteran"),
    Pairing("sector6", "hard", "normal", options={"mode": "novice"}, suffix="_novice"),
)


def outside_player(game: str, name: str, seed: int) -> Player:
    """An opponent from outside the project's levels (imported only when a pairing needs it)."""
    if (game, name) == ("pylons", "runner"):
        from games.pylons.ai.reference import runner

        return lambda state, seat, s: runner(state.view(seat), random.Random(s))
    if (game, name) == ("high-voltage", "reference"):
        from games.high_voltage.ai.reference import decide

        return lambda state, seat, s: decide(state.view(seat), random.Random(s))
    simulations = re.fullmatch(r"mcts(\d+)", name)
    if game == "pylons" and simulations:
        from bench.openspiel_pylons import OpenSpielMCTS

        mcts = OpenSpielMCTS(simulations=int(simulations[1]), seed=seed)
        return lambda state, seat, s: mcts(state, seat)
    raise ValueError(f"No player {name!r} for {game}: levels {levels(game)} or an outside one.")


def make_player(game: str, name: str, bound: Mapping[str, Any], seed: int) -> Player:
    if name not in levels(game):
        return outside_player(game, name, seed)
    kwargs = dict(bound) if name in SEARCHING else {}
    return lambda state, seat, s: choose(state.view(seat), level=name, seed=s, **kwargs)


def seats_for(first: str, second: str, players: int, game: int) -> list[str]:
    """Seat names for the `game`-th game of a pairing: rotated so each side sits everywhere."""
    pattern = [first, second] * (players // 2) + [first] * (players % 2)
    shift = game % players
    return pattern[shift:] + pattern[:shift]


def play_game(
    game_name: str,
    names: Sequence[str],
    seed: int,
    options: Mapping[str, str],
    bound: Mapping[str, Any],
) -> dict[str, Any]:
    """One game with the named player in each seat: how it ended and each decision's time."""
    game = find_game(game_name)
    state = game.new_state(len(names), seed, dict(options))
    players = {name: make_player(game_name, name, bound, seed) for name in set(names)}
    times: dict[str, list[float]] = {}
    actions = 0
    while not state.is_terminal() and actions < MAX_ACTIONS:
        seat = state.current_seat()
        assert seat is not None
        name = names[seat]
        started = time.perf_counter()
        text = players[name](state, seat, seed * 10_007 + actions)
        times.setdefault(name, []).append(time.perf_counter() - started)
        state.apply(text)
        actions += 1
    outcome = state.outcome()
    reason = outcome.reason if outcome else "cap"
    return {
        "actions": actions,
        "reason": reason,
        "by_rules": outcome is not None and reason not in BACKSTOPS.get(game_name, ()),
        "winners": list(outcome.winners) if outcome else [],
        "times": times,
    }


def tournament_game(job: tuple[Pairing, int, int, dict[str, Any]]) -> dict[str, Any]:
    pairing, index, first_seed, bound = job
    seed = first_seed + index // pairing.players  # each deal is played from every rotation
    names = seats_for(pairing.first, pairing.second, pairing.players, index)
    result = play_game(pairing.game, names, seed, pairing.options, bound)
    winners = result["winners"]
    mine = sum(1 for s in winners if names[s] == pairing.first)
    result["share"] = mine / len(winners) if winners else 0.5
    result["pairing"] = pairing.name
    return result


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate: honest near 0 and 1, unlike mean ± 1.96 sd."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_bound(spec: str) -> dict[str, Any]:
    """`1.5s` -> a time budget; `200i` -> an iteration count."""
    if spec.endswith("s"):
        return {"budget_s": float(spec[:-1])}
    if spec.endswith("i"):
        return {"iterations": int(spec[:-1])}
    raise ValueError(f"A search bound is seconds or iterations, like 1.5s or 200i, not {spec!r}.")


def run(jobs: list[Any], worker: Callable[[Any], dict[str, Any]], workers: int) -> list[dict]:
    random.Random(0).shuffle(jobs)  # mix slow and fast games across the workers
    if workers <= 1:
        return [worker(job) for job in jobs]
    with multiprocessing.Pool(workers) as pool:
        return list(pool.imap_unordered(worker, jobs, chunksize=1))


def report_tournament(pairings: Sequence[Pairing], results: list[dict]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    times: dict[str, list[float]] = {}
    print(f"{'pairing':36} {'games':>5} {'rate':>6} {'95% interval':>15} {'target':>6} {'ends':>5}")
    for pairing in pairings:
        rows = [r for r in results if r["pairing"] == pairing.name]
        shares = sum(r["share"] for r in rows)
        rate = shares / len(rows)
        low, high = wilson(shares, len(rows))
        target = f"{pairing.target:.2f}" if pairing.target is not None else ""
        by_rules = sum(r["by_rules"] for r in rows)
        short = pairing.target is not None and rate < pairing.target
        print(
            f"{pairing.name:36} {len(rows):5d} {rate:6.3f} [{low:5.3f}, {high:5.3f}] "
            f"{target:>6} {by_rules:5d}"
            + (f"  short by {pairing.target - rate:.3f}" if short else "")
        )
        figures[pairing.name] = {
            "rate": round(rate, 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "games": len(rows),
            "ended_by_rules": by_rules,
            "target": pairing.target,
        }
        for r in rows:
            for name, ts in r["times"].items():
                times.setdefault(f"{SHORT[pairing.game]}:{name}", []).extend(ts)
    print(f"{'player':18} {'decisions':>9} {'mean s':>9} {'max s':>8}")
    for key in sorted(times):
        ts = times[key]
        mean_t, max_t = sum(ts) / len(ts), max(ts)
        print(f"{key:18} {len(ts):9d} {mean_t:9.4f} {max_t:8.4f}")
        figures[f"{key}_decision_s"] = {"mean": round(mean_t, 5), "max": round(max_t, 5)}
    return figures


def colour_on() -> bool:
    """Colour only for a terminal, or when FORCE_COLOR asks for it (CI logs that show it)."""
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != "0"
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def red(text: str) -> str:
    return f"\033[31m{text}\033[0m" if colour_on() else text


def same_player(game: str, level: str, other: str) -> bool:
    """Whether two level names of a game are one and the same player."""
    return other in levels(game) and agent(game, level).decide is agent(game, other).decide


def rung_pairing(played: Sequence[Pairing], game: str, level: str, below: str) -> Pairing | None:
    """The 2-player pairing on the default board that measured `level` against `below`, or
    against the same player under another name (Pylons' easy is its random player)."""
    for pairing in played:
        if (
            (pairing.game, pairing.first, pairing.players) == (game, level, 2)
            and not pairing.options
            and (pairing.second == below or same_player(game, below, pairing.second))
        ):
            return pairing
    return None


def report_ladder(played: Sequence[Pairing], figures: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each level against the one below it, for every game played; a level beats the one
    below when its whole 95% interval lies above one half (see the module's docstring)."""
    rows: list[dict[str, Any]] = []
    print("each level against the one below (beats: the 95% interval lies above 0.5)")
    for game in dict.fromkeys(p.game for p in played):
        ranked = levels(game)
        for below, level in itertools.pairwise(ranked):
            label = f"{SHORT[game]}: {level} vs {below}"
            if same_player(game, level, below):
                print(f"  {label:28} {level} is the {below} player itself")
                rows.append({"game": game, "level": level, "below": below, "same_player": True})
                continue
            pairing = rung_pairing(played, game, level, below)
            if pairing is None:
                continue  # not played in this run (--only)
            row = figures[pairing.name]
            low, high = row["wilson95"]
            beats = low > 0.5
            verdict = "beats" if beats else red("FAILS")
            target = f"target {pairing.target:.2f}" if pairing.target is not None else ""
            alias = f"(as {pairing.second})" if pairing.second != below else ""
            print(
                f"  {label:28} {row['games']:5d} {row['rate']:6.3f} [{low:5.3f}, {high:5.3f}] "
                f"{verdict:5} {target} {alias}".rstrip()
            )
            rows.append(
                {
                    "game": game,
                    "level": level,
                    "below": below,
                    "pairing": pairing.name,
                    "beats": beats,
                }
            )
    return rows


@dataclass(frozen=True)
class Table:
    """A kind of AI-only game for the endings check: one game, player count, options, seats."""

    game: str
    players: int
    options: Mapping[str, str]
    seats: str  # a level name for every seat, or "mixed": a random level in each seat

    @property
    def name(self) -> str:
        mode = "".join(f"_{v}" for v in self.options.values())
        return f"{SHORT[self.game]}_{self.players}p{mode}:{self.seats}"


def endings_tables(games: Sequence[str]) -> list[Table]:
    tables = []
    for game_name in games:
        game = find_game(game_name)
        option_sets: list[dict[str, str]] = [{}]
        if game_name == "sector6":
            option_sets = [{"mode": m} for m in ("full", "veteran", "novice")]
        for players in range(game.min_seats, game.max_seats + 1):
            for options in option_sets:
                for seats in [*levels(game_name), "mixed"]:
                    tables.append(Table(game_name, players, options, seats))
    return tables


def endings_game(job: tuple[Table, int, dict[str, Any]]) -> dict[str, Any]:
    table, seed, bound = job
    choices = levels(table.game)
    rng = random.Random(f"seats:{seed}")
    names = [
        rng.choice(choices) if table.seats == "mixed" else table.seats for _ in range(table.players)
    ]
    result = play_game(table.game, names, seed, table.options, bound)
    result["table"] = table.name
    return result


def report_endings(tables: Sequence[Table], results: list[dict]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    print(f"{'table':32} {'games':>5} {'by rules':>8} {'stalled':>7} {'median actions':>14}")
    for table in tables:
        rows = [r for r in results if r["table"] == table.name]
        ended = sum(r["by_rules"] for r in rows)
        median = statistics.median(r["actions"] for r in rows)
        print(f"{table.name:32} {len(rows):5d} {ended:8d} {len(rows) - ended:7d} {median:14.0f}")
        figures[table.name] = {
            "games": len(rows),
            "ended_by_rules": ended,
            "median_actions": median,
        }
    figures["stalled_total"] = sum(f["games"] - f["ended_by_rules"] for f in figures.values())
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing or table")
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--only", action="append", default=[], help="only this pairing")
    parser.add_argument(
        "--hard",
        action="append",
        default=[],
        metavar="GAME=SPEC",
        help="hard's bound in one game: seconds (1s) or iterations (200i)",
    )
    parser.add_argument("--endings", action="store_true", help="count games that end by rules")
    parser.add_argument(
        "--endings-iterations", type=int, default=8, help="searching levels' bound in --endings"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (1)")
    parser.add_argument("--list", action="store_true", help="list the pairings and stop")
    args = parser.parse_args(argv)
    games = [find_game(g).name for g in args.game] or list(SHORT)
    if args.list:
        for pairing in PAIRINGS + EXTRA:
            print(pairing.name, "" if pairing in PAIRINGS else "(only on request)")
        return 0
    started = time.perf_counter()
    if args.endings:
        bound = {"iterations": args.endings_iterations}
        tables = endings_tables(games)
        jobs = [(t, args.seed + g, bound) for t in tables for g in range(args.games)]
        print(
            f"AI endings: {args.games} games per table, hard thinks {args.endings_iterations} "
            f"iterations, {args.workers} workers"
        )
        figures = report_endings(tables, run(jobs, endings_game, args.workers))
    else:
        chosen = PAIRINGS + EXTRA if args.only else PAIRINGS
        pairings = [
            p
            for p in chosen
            if (not args.only or p.name in args.only) and (args.only or p.game in games)
        ]
        if not pairings:
            names = ", ".join(p.name for p in PAIRINGS + EXTRA)
            parser.error(f"no pairing matches {args.only}; pairings: {names}")
        bounds = {find_game(k).name: parse_bound(v) for k, v in (h.split("=") for h in args.hard)}
        matches = [
            (p, g, args.seed, bounds.get(p.game, {})) for p in pairings for g in range(args.games)
        ]
        told = ", ".join(f"{SHORT[g]} {b}" for g, b in bounds.items()) or "its default budget"
        print(
            f"AI tournament: {args.games} games per pairing, hard thinks with {told}, "
            f"{args.workers} workers"
        )
        figures = report_tournament(pairings, run(matches, tournament_game, args.workers))
        figures["ladder"] = report_ladder(pairings, figures)
        figures["hard_bounds"] = {g: b for g, b in bounds.items()}
    elapsed = time.perf_counter() - started
    figures["games_per_row"] = args.games
    figures["elapsed_s"] = round(elapsed, 1)
    print(f"elapsed {elapsed:.0f} s")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
