"""The AI tournament runs end to end at a tiny size, and its intervals are the Wilson intervals.

The strength figures depend on many games and are for people and CI history to read, never a
pass/fail line here; what is checked is that the tournament counts what it says it counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bench_modules import bench_module

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ai.py"


def _bench():
    return bench_module("ai")


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # the Wilson interval of no success is not the empty [0, 0]
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (95, 100, 0.8882, 0.9785),
    ],
)
def test_the_wilson_interval_matches_published_values(
    successes: int, n: int, low: float, high: float
) -> None:
    got = _bench().wilson(successes, n)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_seats_rotate_so_each_side_sits_in_every_seat() -> None:
    bench = _bench()
    two = [bench.seats_for("a", "b", 2, g) for g in range(2)]
    assert two == [["a", "b"], ["b", "a"]]
    four = [bench.seats_for("a", "b", 4, g) for g in range(4)]
    for seat in range(4):
        assert {rotation[seat] for rotation in four} == {"a", "b"}
    three = [bench.seats_for("a", "b", 3, g) for g in range(3)]
    assert all(sorted(r) == ["a", "a", "b"] for r in three)


def test_a_short_tournament_prints_its_figures_as_one_json_line_last() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--games",
            "2",
            "--workers",
            "1",
            "--only",
            "hv:normal_vs_random_2p",
            "--only",
            "pylons:normal_vs_random_2p",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for name in ("hv:normal_vs_random_2p", "pylons:normal_vs_random_2p"):
        row = figures[name]
        assert row["games"] == 2
        assert 0.0 <= row["wilson95"][0] <= row["rate"] <= row["wilson95"][1] <= 1.0
        assert row["ended_by_rules"] == 2  # neither game has a backstop to reach in two games
    assert figures["hv:normal_decision_s"]["mean"] > 0


def test_an_unknown_pairing_is_refused_with_the_list_of_pairings() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--only", "hv:nobody_vs_random_2p"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "hv:hard_vs_normal_2p" in done.stderr


def _ladder_figures(bench, hard_interval):
    """Figures of Pylons' three rungs: normal clearly above random (its easy), hard as given."""
    hard = bench.Pairing("pylons", "hard", "normal", target=0.70)
    normal = bench.Pairing("pylons", "normal", "random")
    figures = {
        hard.name: {"rate": sum(hard_interval) / 2, "wilson95": list(hard_interval), "games": 80},
        normal.name: {"rate": 1.0, "wilson95": [0.95, 1.0], "games": 80},
    }
    return [hard, normal], figures


def test_a_level_whose_interval_reaches_one_half_fails_in_red_on_request(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _bench()
    played, figures = _ladder_figures(bench, (0.49, 0.70))
    monkeypatch.setenv("FORCE_COLOR", "1")
    rows = bench.report_ladder(played, figures)
    out = capsys.readouterr().out
    assert "\033[31mFAILS\033[0m" in out
    verdicts = {(r["level"], r["below"]): r.get("beats") for r in rows}
    # easy is Pylons' random player: said so, not played, not failed
    assert verdicts == {
        ("easy", "random"): None,
        ("normal", "easy"): True,
        ("hard", "normal"): False,
    }
    assert "easy is the random player itself" in out


def test_without_a_terminal_the_verdicts_are_plain_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _bench()
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    played, figures = _ladder_figures(bench, (0.49, 0.70))
    bench.report_ladder(played, figures)
    failing = capsys.readouterr().out
    played, figures = _ladder_figures(bench, (0.62, 0.80))
    rows = bench.report_ladder(played, figures)
    passing = capsys.readouterr().out
    assert "\033[" not in failing + passing  # captured output is no terminal
    assert "pylons: hard vs normal" in failing and "FAILS" in failing
    assert "FAILS" not in passing and all(r.get("beats") is not False for r in rows)
