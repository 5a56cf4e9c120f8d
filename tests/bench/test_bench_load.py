"""The load benchmark runs end to end at a tiny size and ends with its one JSON line.

Only its shape is checked: the figures themselves depend on the machine and are for people and
CI history to read, never a pass/fail line here.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from started_games import start_pylons

from bench.load.cli import parse_args
from bench.load.clocks import Jump, Said, Silence, clock_duties
from bench.load.config import SILENT_READ_S
from bench.load.cores import split
from bench.load.machine import slowdown
from bench.load.players import BOARD, LoadRun, Slot
from bench.load.reader import ClockRow, MovePost, SqliteReader
from bench.load.report import (
    added_game_kb,
    cores_sentence,
    joining_sentence,
    print_databases,
    report_clocks,
    setup_sentence,
)
from hvbot.store import GameStore
from sandbox.emulator.models import Attachment, Button, Record, Visibility

ROOT = Path(__file__).resolve().parents[2]
# The benchmark as people run it: `python -m bench.load` from the project's folder.
BENCH = ("-m", "bench.load")


def run_bench(*options: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python -m bench.load` with `options`, from the repository's root, as a person runs it:
    its output kept to read the figures it ends with."""
    return subprocess.run(
        [sys.executable, *BENCH, *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_on_postgresql(
    *options: str, timeout: float
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """A short run with a PostgreSQL server (skipped where none can start), and its figures.
    Each game plays 3 s after a warm-up of two games."""
    done = run_bench(
        *options, *("--seconds", "3", "--warm-up", "2", "--warm-up-boards", "50"), timeout=timeout
    )
    if done.returncode == 2 and "PostgreSQL could not be started" in done.stderr:
        pytest.skip(done.stderr.strip().splitlines()[-1])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done, json.loads(done.stdout.strip().splitlines()[-1])


KEYS = {
    "games",
    "seconds",
    "interactions",
    "ack_p50_ms",
    "ack_p95_ms",
    "ack_p99_ms",
    "actions_per_s",
    "rss_kb_per_game",
    "rss_kb_per_game_bot_process",
    "probe_ms_before",
    "warm_up_games_finished",
    "warm_up_boards",
    "machine_slowed",
}


NEW_KEYS = {
    "cores",
    "database",
    "playable_seconds",
    "unplayable",
    "processes",
    "cpu_ms_per_action",
    "scaling",
    "per_process",
    "round_trips_per_action",
    "cpu_ms_per_game_set_up",
    "cpu_ms_per_game_set_up_own",
    "cpu_ms_per_game_set_up_loop",
    "loop_busy_percent_set_up",
    "replica_cpu_ms_per_action",
    "replica_apply_cpu_ms_per_action",
    "server_sending_cpu_ms_per_action",
    "wal_kb_per_action",
    "full_pages_per_action",
    "checkpoints_in_play",
    "games_hot_update_percent",
    "harness_cpu_ms_per_action",
    "run_cpu_ms_per_action",
    "postgresql_over_sqlite",
}


@pytest.mark.slow  # tens of seconds: a benchmark run, if a short one
def test_a_short_run_prints_its_figures_as_one_json_line_last() -> None:
    done = run_bench("--games", "3", "--seconds", "3", "--warm-up", "2", "--warm-up-boards", "50")
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) > 1, "a table for people comes before the JSON line"
    figures = json.loads(lines[-1])
    assert figures.keys() >= KEYS | NEW_KEYS, sorted(KEYS | NEW_KEYS - figures.keys())
    assert figures["database"] == "sqlite" and figures["processes"] == 1
    assert figures["scaling"] is None, "one process only: nothing to scale against"
    # Half the games played first (what each game that joined then added may not be readable
    # in so short a run: see test_what_an_added_game_costs_...).
    assert "with half of them playing first" in done.stdout
    assert "rss_kb_per_added_game" in figures
    assert figures["games"] == 3
    assert figures["games_playing"] == 3, done.stdout
    # Played on only once every game was a person's to play (see `measure.settle`).
    assert figures["unplayable"] == 0, done.stdout
    assert figures["playable_seconds"] >= figures["setup_seconds"], done.stdout
    assert figures["interactions"] > 0, "the people moved"
    assert figures["bot_in_own_process"] is True
    assert figures["probe_ms_before"] > 0, "the machine's speed was measured before the run"
    assert figures["cpu_ms_per_game_set_up"] >= figures["cpu_ms_per_game_set_up_own"] > 0, (
        "opening a game costs the bot's process CPU, its workers' included in the total"
    )
    # The event loop's thread is one of the bot's own process's threads, busy at most all along.
    assert figures["cpu_ms_per_game_set_up_own"] >= figures["cpu_ms_per_game_set_up_loop"] > 0
    # (CPU time is counted in clock ticks: a short set-up may read a few percent over.)
    assert 0 < figures["loop_busy_percent_set_up"] <= 110, "one thread: one core at most"
    assert figures["replica_cpu_ms_per_action"] is None, "SQLite's players read no replica"
    assert figures["server_sending_cpu_ms_per_action"] is None, "...nor is one sent to"
    assert figures["wal_kb_per_action"] is None, "SQLite has no server to read its WAL from"
    assert figures["postgresql_over_sqlite"] is None, "one database measured: no ratio"
    # Everything measured a stored action holds the bot's and the harness's parts.
    run, harness = figures["run_cpu_ms_per_action"], figures["harness_cpu_ms_per_action"]
    assert harness > 0 and run == pytest.approx(figures["cpu_ms_per_action"] + harness, abs=0.02)


@pytest.mark.slow  # tens of seconds: a benchmark run, if a short one
def test_two_processes_on_postgresql_each_store_their_share() -> None:
    """A PostgreSQL server started by the benchmark, two bot processes with a shard each, and
    the games spread over a server per shard: both processes serve games. (About 30 s: the
    server, two bots and their warm-up.)"""
    done, figures = run_on_postgresql(
        *("--database", "postgresql", "--processes", "2", "--games", "4"), timeout=120
    )
    assert figures.keys() >= KEYS | NEW_KEYS, sorted(KEYS | NEW_KEYS - figures.keys())
    assert figures["database"] == "postgresql" and figures["processes"] == 2
    assert figures["games_playing"] == 4, done.stdout
    assert figures["scaling"] is None, "one process was not measured in this run"
    each = figures["per_process"]
    assert [p["shard"] for p in each] == [0, 1]
    assert all(p["games"] == 2 for p in each), each
    assert all(p["actions"] > 0 for p in each), f"both processes store actions: {each}"
    assert sum(p["actions_per_s"] for p in each) == pytest.approx(figures["actions_per_s"], abs=0.2)
    assert "lower bound" in done.stdout, "the speed-up of two processes is said to be a floor"
    # Without --bot-cores, the bots, the players and both servers may run on every core.
    cores = figures["cores"]
    assert cores["bots"] == cores["players"] == cores["server"] == cores["replica"], cores
    assert "cores: every process on every core" in done.stdout
    # Read from the bots' own metrics: each stored action costs at least its change.
    assert figures["round_trips_per_action"] >= 1, figures["round_trips_per_action"]
    # The players' replica applied the bots' changes and answered the players' reads, on the
    # same cores: its CPU is told apart from the bots' server's.
    replica, applying = (
        figures["replica_cpu_ms_per_action"],
        figures["replica_apply_cpu_ms_per_action"],
    )
    assert 0 <= applying <= replica and replica > 0, (applying, replica)
    assert "the players' replica CPU" in done.stdout
    # ...and what sending it the bots' changes costs the bots' server, a part of its CPU.
    sending = figures["server_sending_cpu_ms_per_action"]
    assert 0 <= sending <= figures["database_cpu_ms_per_action"], sending
    assert "sending the bots' changes to that replica is" in done.stdout
    # What the bots' server wrote: every stored action is WAL synced and sent to the replica,
    # and the checkpoint made as the play begins leaves none of the server's own in it.
    assert figures["wal_kb_per_action"] > 0, figures["wal_kb_per_action"]
    assert figures["full_pages_per_action"] >= 0
    assert figures["checkpoints_in_play"] == 0, "a checkpoint fell within the timed play"
    assert 0 <= figures["games_hot_update_percent"] <= 100
    assert "kB of WAL per stored action" in done.stdout
    # Everything measured a stored action: the bots, their server, the replica, the harness.
    parts = ("cpu_ms_per_action", "database_cpu_ms_per_action", "replica_cpu_ms_per_action")
    parts_ms = sum(figures[key] for key in parts) + figures["harness_cpu_ms_per_action"]
    assert figures["run_cpu_ms_per_action"] == pytest.approx(parts_ms, abs=0.05), figures


SHARED = {"bots": [0, 1], "players": [0, 1], "server": [0, 1], "replica": [0, 1]}


def measured(
    actions_per_s: float,
    busy: int,
    cores: dict[str, list[int] | None] = SHARED,
    **per_action_ms: float | None,
) -> dict[str, object]:
    """A side-by-side half's figures: its actions a second, how busy the cores were, where
    each part ran, and the CPU a stored action (ms) of the bot, its server, the players'
    replica and the harness."""
    shares = {"database": None, "replica": None, **per_action_ms}
    run = sum(ms for ms in shares.values() if ms is not None)
    return {
        "actions_per_s": actions_per_s,
        "machine_busy_percent": busy,
        "cpu_ms_per_action": shares["bot"],
        "database_cpu_ms_per_action": shares["database"],
        "replica_cpu_ms_per_action": shares["replica"],
        "harness_cpu_ms_per_action": shares["harness"],
        "run_cpu_ms_per_action": run,
        "cores": cores,
    }


@pytest.mark.parametrize(
    ("postgresql_per_s", "ratio", "verdict"), [(64.4, 0.70, "UNDER"), (92.2, 1.0, "within")]
)
def test_side_by_side_the_databases_are_held_to_their_bar_with_where_the_cpu_went(
    capsys: pytest.CaptureFixture[str], postgresql_per_s: float, ratio: float, verdict: str
) -> None:
    sqlite = measured(92.2, 94, bot=14.88, harness=5.64)
    postgresql = measured(postgresql_per_s, 93, bot=16.8, database=2.94, replica=1.34, harness=8.1)
    assert print_databases(sqlite, postgresql) == ratio
    said = capsys.readouterr().out
    assert f"PostgreSQL stores {ratio:.2f}x the actions per second of SQLite: {verdict}" in said
    assert "the cores 94% and 93% busy" in said
    assert "SQLite 20.5 ms (the bot 14.9, the emulator and players 5.6);" in said
    assert (
        "PostgreSQL 29.2 ms (the bot 16.8, its server 2.9, the players' replica 1.3, "
        "the emulator and players 8.1)"
    ) in said
    assert "the bots shared their cores with PostgreSQL's server" in said


def test_side_by_side_with_the_bots_on_cores_of_their_own_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    apart = {"bots": [0], "players": [1], "server": [1], "replica": [1]}
    sqlite = measured(165.9, 66, {**apart, "server": None, "replica": None}, bot=6.0, harness=1.9)
    postgresql = measured(179.2, 84, apart, bot=5.6, database=1.2, replica=0.3, harness=2.3)
    assert print_databases(sqlite, postgresql) == 1.08
    said = capsys.readouterr().out
    assert "1.08x the actions per second of SQLite: within the 1x bar" in said
    assert (
        "the bots on core(s) 0 of their own, PostgreSQL's server, the players' replica and " in said
    )
    assert "the players on 1:" in said


def test_the_cores_each_part_ran_on_are_told_shared_or_apart() -> None:
    assert cores_sentence(SHARED) == "cores: every process on every core (0, 1)"
    sqlite = {"bots": [0, 1], "players": [0, 1], "server": None, "replica": None}
    assert cores_sentence(sqlite) == "cores: every process on every core (0, 1)"
    apart = {"bots": [0], "players": [1, 2, 3], "server": [1, 2, 3], "replica": [1, 2, 3]}
    assert cores_sentence(apart) == (
        "cores apart (--bot-cores): the bots and their workers on 0; the emulator and the "
        "players on 1, 2, 3; the bots' PostgreSQL server on 1, 2, 3; the players' replica on "
        "1, 2, 3"
    )


def test_the_bots_cores_leave_the_others_at_least_one() -> None:
    assert split(1, {0, 1}) == split(1, [1, 0])
    assert split(1, {0, 1}).bots == {0} and split(1, {0, 1}).others == {1}
    assert split(2, {0, 1, 2, 5}).bots_arg == "0,1" and split(2, {0, 1, 2, 5}).others == {2, 5}
    for count in (0, 2, -1):
        with pytest.raises(ValueError, match=r"1 to 1 on this machine's 2 usable core\(s\)"):
            split(count, {0, 1})


def test_bot_cores_the_machine_has_not_are_refused_with_what_would_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as refused:
        parse_args(["--bot-cores", "999"])
    assert refused.value.code == 2
    assert "--bot-cores gives the bots cores of their own" in capsys.readouterr().err
    assert parse_args([]).cores is None, "by default every process may run on every core"


@pytest.mark.slow  # tens of seconds: two benchmark runs, if short ones
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="cores apart need two cores")
def test_with_bot_cores_the_bots_and_the_rest_keep_to_cores_apart() -> None:
    """SQLite, then PostgreSQL, the bots (and their workers) on the first core, the players and
    both PostgreSQL servers on the others, as the kernel has it while they play. (About 40 s.)"""
    done, figures = run_on_postgresql(
        *("--database", "both", "--bot-cores", "1", "--games", "4"), timeout=180
    )
    first, rest = min(os.sched_getaffinity(0)), sorted(os.sched_getaffinity(0))[1:]
    assert figures["cores"] == {"bots": [first], "players": rest, "server": rest, "replica": rest}
    assert figures["sqlite"]["cores"] == {
        "bots": [first],
        "players": rest,
        "server": None,
        "replica": None,
    }
    assert figures["actions_per_s"] > 0 and figures["sqlite"]["actions_per_s"] > 0
    assert done.stdout.count("cores apart (--bot-cores): the bots and their workers on") == 2
    assert f"the bots on core(s) {first} of their own" in done.stdout


def test_a_sqlite_run_that_stored_nothing_has_no_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    sqlite = measured(0.0, 10, bot=0.0, harness=0.0)
    postgresql = measured(50.0, 90, bot=16.8, database=2.94, replica=1.34, harness=8.1)
    assert print_databases(sqlite, postgresql) is None
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("before", "probes", "slowed"),
    [
        ([2.2], [2.3, 2.4, 3.4, 2.3, 2.2], False),  # one probe crowded by the run itself
        ([2.1], [2.2, 3.5, 3.6, 2.2], True),  # two in a row 1.6x slower
        ([21.4], [2.2, 2.3, 23.3, 2.2], True),  # slow at the start, then a spike
        ([2.2], [2.4, 25.3, 2.5], True),  # one spike of 10x alone
        ([2.2], [19.3, 21.6, 20.8], True),  # slowed through the play
    ],
)
def test_the_machine_counts_as_slowed_by_its_probes(before, probes, slowed) -> None:
    factor = slowdown(before[0], probes)
    assert bool(factor) is slowed
    if slowed:
        assert factor >= 1.5


def test_what_an_added_game_costs_is_not_made_up_when_half_the_games_peaked_higher() -> None:
    found = {"rss_rest": 100_000, "rss_setup": 110_000, "rss_half": 115_000, "rss_active": 125_000}
    # 10 000 kB more once the second 100 games joined, and 10 000 kB to start all 200.
    assert added_game_kb(found, games=200, added=100) == pytest.approx(150.0)
    # A backlog from a slow set-up left the most memory in use while half of them played:
    # what the others added cannot be read, and is not a figure below zero.
    peaked = {**found, "rss_half": 140_000}
    assert math.isnan(added_game_kb(peaked, games=200, added=100))
    assert math.isnan(added_game_kb(found, games=200, added=0))


def test_the_second_half_is_said_to_have_moved_only_when_every_game_of_it_did() -> None:
    # Without --think every game of the second half moves at once.
    all_of_them = joining_sentence(500, 500, 2.4, [10.0, 30.0])
    assert "every one of them moved within 2.4 s" in all_of_them
    assert "2 interactions, p99 30 ms" in all_of_them
    # With it, a game's first pause is a random part of one: the wait ends at its cap with
    # most of them thinking still, which the report says instead of "every one moved".
    capped = joining_sentence(41, 5000, 15.1, [12.0])
    assert "every one" not in capped
    assert "41 of 5000 had moved when the timing began, 15.1 s later" in capped


def test_the_set_up_is_weighed_as_a_rate_of_ten_thousand_games_in_two_minutes() -> None:
    assert setup_sentence(10_000, 108.1).startswith("set-up 108.1 s, 93 games a second: within")
    assert ": OVER the bar of 10,000 games in 120 s" in setup_sentence(10_000, 130.0)
    # A smaller run is weighed at the same rate: 2,000 games need to be up within 24 s.
    assert ": within" in setup_sentence(2_000, 23.0)
    assert ": OVER" in setup_sentence(2_000, 70.9)


@pytest.mark.slow  # tens of seconds: a benchmark run, if a short one
def test_with_clocks_a_silent_person_runs_out_and_an_ai_moves_for_them_once() -> None:
    """Two of four games with a turn clock: the bot's clock is moved past a silent person's
    warning and deadline, and the run says what came of it. (About 40 s: the bots look for
    what is due every 5 s.)"""
    done = run_bench(
        *("--games", "4", "--clocked", "2", "--seconds", "8"),
        *("--warm-up", "2", "--warm-up-boards", "50"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    clocks = json.loads(done.stdout.strip().splitlines()[-1])["clocks"]
    assert clocks["clocked_games"] == 2
    assert clocks["timeouts_acted"] >= 1, done.stdout
    assert clocks["timeouts_acted"] == clocks["silenced"], done.stdout
    assert clocks["warnings"] >= clocks["silenced"], done.stdout
    assert clocks["ran_out_post"]["p50_ms"] is not None
    assert clocks["duplicates"] == [] and clocks["not_acted"] == [], done.stdout
    assert clocks["unexplained"] == 0, done.stdout
    assert "duplicates: 0" in done.stdout


def _silent_turn(scenario: str):
    """What the run kept of one person made silent in game 7 (seats: Ada 100, Bo 200, an AI):
    their clock moved past its warning, then its deadline, with `scenario` gone wrong."""
    slot = Slot(channel=None, people=[], rng=None, clocked=True)
    slot.seats_of[7] = [100, 200, None]
    slot.sent_at[7] = {0, 1, 3, 8}  # what Ada and Bo sent themselves
    clock = ClockRow(5, "2026-01-01T13:00:00.000+00:00", "2026-01-01T12:45:00.000+00:00", 4)
    silence = Silence(slot, game_id=7, user_id=100, clock=clock)
    silence.warn_moved_at, silence.warned_at = 10.0, 11.0
    silence.due_moved_at, silence.ran_out_at, silence.ai_posted_at = 20.0, 22.0, 23.0
    jumps = [
        Jump(10.0, "2026-01-01T12:45:00.001+00:00", {7: clock}),
        Jump(20.0, "2026-01-01T13:00:00.001+00:00", {7: replace(clock, warn_at=None)}),
    ]
    slot.warnings = [Said(11.0, 7, 100)] * (2 if scenario == "warned twice" else 1)
    slot.ran_outs = [Said(22.0, 7, 100)] * (2 if scenario == "told twice" else 1)
    # (seat, first action) of each move's post: Ada, Ada, the AI seat, Bo, then the AI for
    # Ada (a drawn card, then placed), the AI seat, and Ada herself again.
    moves = [(0, 0), (0, 1), (2, 2), (1, 3), (0, 4), (0, 5), (2, 6), (0, 8)]
    if scenario == "the AI moved for her again":
        moves[-1] = (0, 7)  # not sent by Ada: an AI's, with no timeout before
    posts = [MovePost(i, 7, i, seat, first, f"n{i}") for i, (seat, first) in enumerate(moves)]
    slot.posted.update({"n5": 2 if scenario == "posted twice" else 1})
    if scenario == "not acted":
        slot.ran_outs, slot.posted = [], Counter()
        posts = posts[:4]

    class Reader:
        async def move_posts(self, game_ids):
            return [p for p in posts if p.game_id in game_ids]

    driver = SimpleNamespace(silences=[silence], slots=[slot], jumps=jumps)
    duties, unexplained = asyncio.run(clock_duties(driver, Reader()))
    found = {
        "clocked": 1,
        "duties": duties,
        "unexplained": unexplained,
        "jumps": 2,
        "clock_moved_s": 3600.0,
        "nonce_refused": 0,
        "withdrawn": 0,
    }
    return report_clocks(found)


@pytest.mark.parametrize(
    ("scenario", "doubled", "missed"),
    [
        ("as it should", False, False),
        ("warned twice", True, False),
        ("told twice", True, False),
        ("posted twice", True, False),
        ("not acted", False, True),
    ],
)
def test_a_duty_done_twice_or_not_at_all_is_told(scenario, doubled, missed) -> None:
    clocks = _silent_turn(scenario)
    assert clocks["silenced"] == 1
    assert bool(clocks["duplicates"]) is doubled, clocks
    assert bool(clocks["not_acted"]) is missed, clocks
    assert clocks["timeouts_acted"] == (0 if missed else 1)
    assert clocks["warnings"] == (2 if scenario == "warned twice" else 1)


def test_an_ai_move_for_a_person_without_a_timeout_is_told() -> None:
    clocks = _silent_turn("the AI moved for her again")
    # Ada's turn after the one she ran out of: one more AI move, put down to that timeout.
    assert clocks["duplicates"], clocks


def test_at_a_human_pace_the_first_moves_come_evenly_then_every_two_to_three_minutes() -> None:
    """--think 150 --think-spread 0.2: each game's first pause is a random part of one, so the
    games' first moves spread over the first three minutes rather than coming together after
    two; every pause after it is between 120 and 180 s."""
    from bench.load.players import LoadRun

    emulator = SimpleNamespace(on_record=lambda listener: None)
    args = SimpleNamespace(think=150.0, think_spread=0.2, seed=1)
    bench = LoadRun(emulator, reader=None, args=args)  # type: ignore[arg-type]  # pause only
    slots = [
        Slot(channel=None, people=[], rng=random.Random(i))  # type: ignore[arg-type]  # unused
        for i in range(2000)
    ]
    first = [bench.pause(slot) for slot in slots]
    later = [bench.pause(slot) for slot in slots for _ in range(3)]
    assert 0 <= min(first) < 5 and 170 < max(first) <= 180, (min(first), max(first))
    by_minute = Counter(int(p // 60) for p in first)
    assert by_minute[0] > 500 and by_minute[1] > 500, by_minute
    assert min(later) >= 120 and max(later) <= 180


@pytest.mark.slow  # tens of seconds: a benchmark run, if a short one
def test_a_game_whose_lobby_was_answered_too_late_is_played_as_it_stands() -> None:
    """The bot stores a change before it answers it: a Start answered after Discord's window
    has started its game all the same, a Join has seated its player. The run plays such games
    as they are, and fills and starts such lobbies; abandoning them to open afresh costs a
    busy bot another round of answers that come late in turn (a set-up that never ended)."""
    done = run_bench(
        *("--games", "3", "--late-starts", "1", "--late-joins", "1"),
        *("--setup-at-once", "1", "--seconds", "3", "--warm-up", "0", "--warm-up-boards", "0"),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games_playing"] == 3, done.stdout
    # Played on only once every game was a person's to play (see `measure.settle`).
    assert figures["unplayable"] == 0, done.stdout
    assert figures["playable_seconds"] >= figures["setup_seconds"], done.stdout
    assert figures["setup_taken_over"] == 1 and figures["setup_resumed"] == 1, done.stdout
    assert figures["setup_abandoned"] == 0 and figures["setup_retried"] == 0, done.stdout
    assert figures["interactions"] > 0, "the people of the games taken over moved too"


@pytest.mark.slow  # tens of seconds: the bot started, and a set-up under way
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_the_set_up_stops_the_run_with_what_it_came_to(signum) -> None:
    """Ctrl-C or a plain `kill` while many games are being opened: the run ends within
    moments (the bot stopped, its folder removed) and says how far the set-up got."""
    process = subprocess.Popen(
        [
            *(sys.executable, *BENCH, "--games", "400", "--setup-at-once", "100"),
            *("--warm-up", "0", "--warm-up-boards", "0"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:  # blocks on the run's own output, no sleeping
            lines.append(line)
            if line.startswith("setting up"):
                break
        else:
            pytest.fail("".join(lines) + process.stderr.read()[-3000:])  # type: ignore[union-attr]  # piped
        # A hundred games being opened, their answers awaited, as the signal comes.
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, out[-3000:] + err[-3000:]
    assert "interrupted in the set-up" in out, out[-3000:] + err[-3000:]
    assert "channels had a game started" in out


def said(kind: str, seen_by: Visibility, *, board: bool = False, made_for: int = -1) -> Record:
    """A message of the bot's in the players' channel as the emulator records it: a board
    picture attached if `board`, a private prompt's buttons for version `made_for` if given."""
    files = (Attachment(1, BOARD, b"", "image/png"),) if board else ()
    buttons = (Button(f"act:1:{made_for}:place_A1", "A1", 1, 0),) if made_for >= 0 else ()
    at = datetime(2026, 3, 1, tzinfo=UTC)
    return Record(1, kind, "POST", "/", seen_by, 10, 1, None, "", (), buttons, files, {}, 0.0, at)


PUBLIC = Visibility.public()
PRIVATE = Visibility.ephemeral_to(100)


async def test_a_player_reads_its_game_again_only_when_the_bot_may_have_moved_it(
    tmp_path: Path,
) -> None:
    """A player waits for what its game owes (its board pictures, its person's prompt) and
    for its person's move to be stored, woken by each of the bot's messages in its channel:
    a picture the game it read still owed, the private answers to its own clicks, and a
    prompt made for the version it read, say nothing new, so the game is not read again for
    them; a picture more than it owed is the game moving on, and is."""
    bench, reader, slot = await _player_of_a_started_game(tmp_path)
    try:
        assert await bench.turn(slot) is None and slot.awaiting == "a board picture"
        assert reader.reads == 1
        assert slot.parsed is not None
        version, due = slot.parsed[0], slot.parsed[2]
        for _ in range(due - 1):
            slot.saw(said("followup", PUBLIC, board=True))
            assert await bench.turn(slot) is None and slot.awaiting == "a board picture"
        # The person moved at the version read: the bot's answers to the click come first.
        slot.moved_from, slot.moved_by = version, time.monotonic() + 3600
        slot.saw(said("followup", PUBLIC, board=True))  # the last picture the game owed
        slot.saw(said("deferred", PRIVATE))
        slot.saw(said("followup", PRIVATE, made_for=version))
        assert await bench.turn(slot) is None and slot.awaiting == "a move sent to be stored"
        assert reader.reads == 1, "nothing said the game moved on"
        slot.saw(said("channel_message", PUBLIC, board=True))  # the move's own picture
        await bench.turn(slot)
        assert reader.reads == 2
    finally:
        await reader.close()


@pytest.mark.parametrize(
    "news",
    [
        said("channel_message", PUBLIC),  # e.g. the game ended without a move
        said("followup", PRIVATE, made_for=99),  # a look at a drawn card: the prompt to place it
    ],
    ids=["a public message", "a prompt for a later version"],
)
async def test_a_player_reads_its_game_again_on_news_without_a_picture(
    tmp_path: Path, news: Record
) -> None:
    """What moves a game on without a board picture is read as soon as it is said."""
    bench, reader, slot = await _player_waiting_for_its_move(tmp_path)
    try:
        slot.saw(news)
        await bench.turn(slot)
        assert reader.reads == 2
    finally:
        await reader.close()


async def test_a_player_reads_its_game_again_after_a_long_silence(tmp_path: Path) -> None:
    """A message lost on its way says nothing: a player that heard nothing for a while reads
    its game again all the same, but not after every second of a bot behind."""
    bench, reader, slot = await _player_waiting_for_its_move(tmp_path)
    try:
        slot.heard_nothing(slot.read_at + SILENT_READ_S / 2)
        assert await bench.turn(slot) is None and reader.reads == 1
        slot.heard_nothing(slot.read_at + SILENT_READ_S)
        await bench.turn(slot)
        assert reader.reads == 2
    finally:
        await reader.close()


async def _player_waiting_for_its_move(tmp_path: Path) -> tuple[LoadRun, SqliteReader, Slot]:
    """`_player_of_a_started_game` once it read the game, saw every picture it owes, and sent
    its person's move at its version: waiting for it to be stored, without reading again."""
    bench, reader, slot = await _player_of_a_started_game(tmp_path)
    await bench.turn(slot)
    assert slot.parsed is not None
    slot.moved_from, slot.moved_by = slot.parsed[0], time.monotonic() + 3600
    slot.boards = slot.parsed[2]
    assert await bench.turn(slot) is None and reader.reads == 1
    return bench, reader, slot


async def _player_of_a_started_game(tmp_path: Path) -> tuple[LoadRun, SqliteReader, Slot]:
    """The players' side of a game started with two moves stored (three boards due, the
    deal's among them), read from the bot's SQLite file, none of its pictures seen yet."""
    at = datetime(2026, 3, 1, tzinfo=UTC)
    store = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        state = {"history": ["place K12", "place M13"]}
        game, _ = await start_pylons(store, state=state, at=at)
    finally:
        await store.close()
    reader = SqliteReader(tmp_path / "games.sqlite3")
    emulator = SimpleNamespace(on_record=lambda listener: None)
    bench = LoadRun(emulator, reader=reader, args=SimpleNamespace())  # type: ignore[arg-type]
    slot = Slot(channel=None, people=[], rng=None, game_id=game.id)  # type: ignore[arg-type]
    return bench, reader, slot
