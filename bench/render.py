"""How fast and how large the High Voltage board picture is, against the product's bars.

    python bench/render.py [--runs N]

Renders an early, a middle and a late position of seeded random 4-player games (board and
panel, PNG encoding included: exactly what the bot posts) `--runs` times each, after one
untimed render that fills the per-process caches (the first board a process draws builds the
palette and the sprites; that cold cost is printed separately). The bars: median under 10 ms,
PNG under 150 kB, at 900-1100 pixels wide.

Prints a table for people, then as its last line one JSON object for scripts and CI history.
It reports figures only: it never fails because a machine is slow.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide the `render` package; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from PIL import Image  # noqa: E402

from games import find_game  # noqa: E402
from games.high_voltage.pictures import hv_board_png  # noqa: E402
from games.high_voltage.rules import Declare  # noqa: E402

MEDIAN_TARGET_MS = 10.0
SIZE_TARGET_KB = 150.0
# (label, seed, actions played): the late position has energy tokens of both sides on it.
POSITIONS = (("early", 7, 8), ("middle", 7, 60), ("late", 4, 150))


def position(seed: int, steps: int) -> dict[str, Any]:
    """The public view after `steps` random actions (every closable line declared)."""
    state = find_game("high-voltage").new_state(4, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        declare = [a for a in state.legal_actions() if isinstance(a, Declare)]
        state.apply(declare[0] if declare else state.sample_action(rng))
    return state.view(None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="timed renders per position")
    args = parser.parse_args(argv)

    views = [(label, position(seed, steps)) for label, seed, steps in POSITIONS]
    start = time.perf_counter()
    hv_board_png(views[0][1])
    cold_ms = (time.perf_counter() - start) * 1000

    every: list[float] = []
    rows = []
    width = height = 0
    for label, view in views:
        hv_board_png(view)  # this position's sprites, once
        times = []
        png = b""
        for _ in range(args.runs):
            t0 = time.perf_counter()
            png = hv_board_png(view)
            times.append((time.perf_counter() - t0) * 1000)
        every += times
        width, height = Image.open(io.BytesIO(png)).size
        tokens = sum(1 for c in view["cells"] if c.get("energy") in ("high_voltage", "danger"))
        rows.append(
            (
                label,
                statistics.median(times),
                percentile(times, 0.95),
                len(png) / 1024,
                view["face_down"],
                tokens,
            )
        )

    print(f"board picture {width}x{height}, {args.runs} renders per position")
    print(f"first render in this process (builds palette and sprites): {cold_ms:.0f} ms")
    header = ("median ms", 11), ("p95 ms", 9), ("PNG kB", 9), ("face down", 11), ("tokens", 8)
    print(f"{'position':<9}" + "".join(f"{name:>{w}}" for name, w in header))
    for label, median, p95, kb, down, tokens in rows:
        print(f"{label:<9}{median:>11.2f}{p95:>9.2f}{kb:>9.1f}{down:>11}{tokens:>8}")
    median_all = statistics.median(every)
    p95_all = percentile(every, 0.95)
    kb_max = max(r[3] for r in rows)
    time_verdict = "within" if median_all < MEDIAN_TARGET_MS else "OVER"
    size_verdict = "within" if kb_max < SIZE_TARGET_KB else "OVER"
    print(f"median {median_all:.2f} ms: {time_verdict} the {MEDIAN_TARGET_MS:g} ms bar")
    print(f"largest PNG {kb_max:.1f} kB: {size_verdict} the {SIZE_TARGET_KB:g} kB bar")
    summary = {
        "render_ms_median": round(median_all, 3),
        "render_ms_p95": round(p95_all, 3),
        "render_ms_cold": round(cold_ms, 1),
        "png_kb_max": round(kb_max, 1),
        "width": width,
        "height": height,
        "runs_per_position": args.runs,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
