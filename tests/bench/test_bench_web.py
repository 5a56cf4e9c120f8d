"""The live boards' benchmark runs end to end at a tiny size and ends with its one JSON line:
both shapes measured, one drawing per version however many watch, every watcher updated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "games",
    "watchers",
    "rss_mb_one_each",
    "rss_mb_all",
    "kb_per_watcher",
    "cpu_ms_to_connect_per_watcher",
    "moves",
    "drawn",
    "cpu_ms_per_move_one_watcher",
    "cpu_ms_per_move",
    "cpu_us_per_watcher_update",
    "delay_ms_p50",
    "delay_ms_p95",
    "delay_ms_max",
}


@pytest.mark.slow  # a benchmark run, if a short one
def test_a_short_run_prints_its_figures_as_one_json_line_last(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    done = subprocess.run(
        [
            *(sys.executable, "bench/web.py"),
            *("--moves", "3", "--one", "20", "--games", "2", "--each", "5"),
        ],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(temporary)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures) == {"one_game", "many_games"}
    one, many = figures["one_game"], figures["many_games"]
    assert set(one) == set(many) == KEYS
    assert (one["watchers"], many["watchers"]) == (20, 10)
    # One drawing per game at the start, then one per move: never one per watcher.
    assert one["drawn"] == 1 + 2 * 3 and many["drawn"] == 2 + 2 * 3
    assert one["delay_ms_max"] > 0
    # The serving processes' games went with them.
    assert not list(temporary.iterdir())
