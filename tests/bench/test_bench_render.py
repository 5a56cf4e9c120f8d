"""The pictures' benchmark runs end to end at a tiny size and ends with its one JSON line: every
game's boards and every one-off picture measured, each a PNG of some size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ONE_OFF = {
    "High Voltage result",
    "High Voltage drawn card",
    "High Voltage secret",
    "standings, 64 lines",
}


@pytest.mark.slow  # a benchmark run, if a short one
def test_a_short_run_prints_its_figures_as_one_json_line_last() -> None:
    done = subprocess.run(
        [sys.executable, "bench/render.py", "--runs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures["games"]) == {"high-voltage", "pylons", "sector6"}
    for game in figures["games"].values():
        assert game["ms_median"] > 0 and 0 < game["png_kb_max"] < 150
    assert set(figures["one_off"]) == ONE_OFF
    for name, picture in figures["one_off"].items():
        assert picture["ms_median"] > 0 and picture["kb"] > 1, name
    assert "One-off pictures, each drawn from nothing, 2 times:" in done.stdout
