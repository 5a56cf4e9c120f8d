"""How long the ratings of a server's 100,000 finished games take to recompute.

    python bench/ratings.py [--games N] [--people N] [--runs N]

One server's results are made up, seeded: tables of 2, 3 and 4 seats (half, a third, a sixth),
each seat a person (drawn from `--people`, with a hidden strength that decides the order) or,
at one table in four, an AI seat of a random level; one person in fifty resigns (ranking last).
They are summed up as `/stats` does it (`hvbot.services.stats.carried`, which `Stats`
runs: every rating replayed game by game, the AI levels' too, a page of results at a time in
a thread beside the event loop; the pages are read here from memory rather than a
database), while the loop keeps ticking: the longest the loop waited shows that it never
stalls. Then one more game is finished on top of them and the summary carried forward by it
alone, as `Stats` does after each game.

Prints a table for people, then as its last line one JSON object for scripts and CI history.
It reports figures only: it never fails because a machine is slow.
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
import asyncio  # noqa: E402
import bisect  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Awaitable  # noqa: E402
from datetime import UTC, datetime, timedelta  # noqa: E402
from typing import TypeVar  # noqa: E402

from hvbot.services.stats import PageReader, ResultKey, Tally, carried  # noqa: E402
from hvbot.store import ResultRow  # noqa: E402

GAME = "high-voltage"
LEVELS = ["random", "easy", "normal", "hard"]
TICK = 0.005  # how often the event loop's ticker wakes (seconds)
T = TypeVar("T")


def results(games: int, people: int, seed: int = 1) -> list[ResultRow]:
    """`games` finished games of one server, in finishing order, one row per seat."""
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(people)]
    level_strength = {level: -1.5 + i for i, level in enumerate(LEVELS)}
    start = datetime(2025, 1, 1, tzinfo=UTC)
    rows: list[ResultRow] = []
    for game_id in range(1, games + 1):
        size = rng.choices((2, 3, 4), weights=(3, 2, 1))[0]
        finished = (start + timedelta(minutes=game_id)).isoformat()
        seated = rng.sample(range(people), size)
        seats: list[tuple[int | None, str | None, float]] = [
            (p, None, strength[p] + rng.gauss(0, 1)) for p in seated
        ]
        if rng.random() < 0.25:  # one seat an AI's
            drawn = rng.choice(LEVELS)
            seats[-1] = (None, drawn, level_strength[drawn] + rng.gauss(0, 1))
        best = max(s for _, _, s in seats)
        for seat, (person, level, played) in enumerate(seats):
            left = person is not None and rng.random() < 0.02
            rows.append(
                ResultRow(
                    game_id=game_id,
                    seat=seat,
                    game_name=GAME,
                    guild_id=1,
                    user_id=person,
                    display_name=f"P{person}" if person is not None else f"AI ({level})",
                    score=round(played * 10),
                    won=played == best and not left,
                    finished_at=finished,
                    left_early=left,
                    ai_level=level,
                )
            )
    return rows


def reader(rows: list[ResultRow]) -> PageReader:
    """Pages of `rows` as `Results.after` reads them from the store: kept as plain tuples
    (a database's rows are not objects of the bot's heap, for its garbage collector to walk
    through), each page's made into `ResultRow`s as it is read."""
    stored = [dataclasses.astuple(r) for r in rows]
    keys = [(r.finished_at, r.game_id) for r in rows]

    async def read(last: ResultKey | None, limit: int) -> list[ResultRow]:
        start = 0 if last is None else bisect.bisect_right(keys, last)
        return [ResultRow(*r) for r in stored[start : start + limit]]

    return read


async def ticking(work: Awaitable[T]) -> tuple[float, float, T]:
    """(seconds `work` took, the longest the event loop waited meanwhile, its result), with a
    ticker on the loop."""
    longest = 0.0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal longest
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            longest = max(longest, time.perf_counter() - before - TICK)

    ticks = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    began = time.perf_counter()
    made = await work
    took = time.perf_counter() - began
    done.set()
    await ticks
    return took, longest, made


async def recompute(read: PageReader) -> tuple[float, float, Tally]:
    """The full recompute: (seconds, longest loop wait, the tally)."""
    return await ticking(carried(Tally.new(GAME, LEVELS), read))


async def one_more(tally: Tally, read: PageReader) -> tuple[float, float, Tally]:
    """The tally carried forward by the one game finished after it."""
    return await ticking(carried(tally, read))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    made = time.perf_counter()
    rows = results(args.games, args.people)
    seats = len(rows)
    made = time.perf_counter() - made
    history = [row for row in rows if row.game_id < args.games]  # all but the last game
    read_history, read_all = reader(history), reader(rows)
    del history, rows
    timings: list[float] = []
    waits: list[float] = []
    tally = None
    for _ in range(args.runs):
        took, waited, tally = asyncio.run(recompute(read_history))
        timings.append(took)
        waits.append(waited)
    assert tally is not None
    more_s, more_wait, more = asyncio.run(one_more(tally, read_all))
    assert more.summaries[0].finished == args.games
    summary = more.summaries[0]
    rated = sum(p.rating is not None for p in summary.players.values())
    median = statistics.median(timings)
    print(f"{args.games:,} finished games, {seats:,} seats, {rated:,} people rated")
    print(f"results made up in {made:.2f} s (not part of the figures)")
    print(f"full recompute of {args.games - 1:,} games, a page at a time in a thread:")
    print(f"{'run':>4} {'recompute (s)':>14} {'games/s':>10} {'longest loop wait (ms)':>24}")
    for i, (took, waited) in enumerate(zip(timings, waits, strict=True), start=1):
        print(f"{i:>4} {took:>14.2f} {args.games / took:>10,.0f} {waited * 1000:>24.1f}")
    print(f"median {median:.2f} s: {1e6 * median / args.games:.1f} µs a game")
    print(
        f"one more game on top (carried forward): {more_s * 1000:.2f} ms,"
        f" longest loop wait {more_wait * 1000:.1f} ms"
    )
    for ai in summary.ai_lines():
        assert ai.rating is not None
        print(f"  AI ({ai.level}): {ai.rating.text()} over {ai.played:,} games")
    print(
        json.dumps(
            {
                "bench": "ratings",
                "games": args.games,
                "seats": seats,
                "people_rated": rated,
                "recompute_s": timings,
                "median_s": median,
                "longest_loop_wait_ms": [w * 1000 for w in waits],
                "one_more_game_ms": more_s * 1000,
                "one_more_game_loop_wait_ms": more_wait * 1000,
            }
        )
    )


if __name__ == "__main__":
    main()
