"""The drawing workers' benchmark runs end to end at a tiny size and ends with its one JSON
line: both ways of handing a board to a worker timed, each in the calling process's CPU and in
wall time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a benchmark run, if a short one
def test_a_short_run_prints_its_figures_as_one_json_line_last() -> None:
    done = subprocess.run(
        [sys.executable, "bench/workers.py", "--calls", "60", "--runs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    assert (figures["calls"], figures["runs"]) == (60, 2)
    for way in ("sockets", "executor"):
        assert set(figures[way]) == {"cpu_ms", "wall_ms"}
        assert figures[way]["cpu_ms"] > 0 and figures[way]["wall_ms"] > 0
    # Each run of each way has its line in the table.
    assert sum(line.split()[:1] in (["sockets"], ["executor"]) for line in lines) == 4
