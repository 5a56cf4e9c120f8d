"""What a measurement comes to: the table printed for people, and the figures of the JSON
line; and, with several measurements, those side by side."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sandbox.emulator.interactions import INTERACTION_WINDOW
from sandbox.emulator.models import shard_of

from .bots import Plan
from .clocks import Duty
from .config import (
    ACT_S,
    CLOCK_MINUTES,
    DATABASES_TARGET,
    HUMAN_PACE_BAR_GAMES,
    KINDS,
    MEMORY_TARGET_KB,
    P99_BAR_GAMES,
    P99_TARGET_MS,
    SCALING_TARGET,
    SETUP_BAR_S,
    STALL_SECONDS,
)
from .machine import slowdown
from .players import Sent, Slot
from .server_work import ServerWork

# ---------------------------------------------------------------------- figures of a measurement


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def latencies_ms(sent: list[Sent]) -> list[float]:
    """Acknowledgement times; one never acknowledged counts as the whole window (3000 ms), so
    percentiles are over every interaction sent, not only the answered ones."""
    return [
        INTERACTION_WINDOW * 1000 if s.state.ack_latency is None else s.state.ack_latency * 1000
        for s in sent
    ]


def rounded(value: float, digits: int = 1) -> float | None:
    """For the JSON line: NaN (no sample at all) is not JSON, so it becomes null."""
    return None if math.isnan(value) else round(value, digits)


def per_action(count: float, actions: int) -> float:
    """`count` per action the bots stored; NaN if they stored none."""
    return count / actions if actions else float("nan")


def per_action_ms(cpu_seconds: float, actions: int) -> float:
    """CPU milliseconds the bots spent per action they stored; NaN if they stored none."""
    return 1000 * cpu_seconds / actions if actions else float("nan")


def process_figures(found: dict[str, Any]) -> list[dict[str, Any]]:
    """Each bot process's figures: its games (those in the servers on its shard), the
    acknowledgements of their interactions, the actions stored in them, and its CPU."""
    n, elapsed = found["plan"].processes, found["elapsed"]
    rows = []
    for each in found["per_process"]:
        k = each["shard"]
        acks = latencies_ms([s for s in found["timed"] if shard_of(s.state.guild_id, n) == k])
        rows.append(
            {
                "shard": k,
                "pid": each["pid"],
                "games": sum(1 for s in found["playing"] if s.shard(n) == k),
                "interactions": len(acks),
                "ack_p50_ms": rounded(percentile(acks, 0.50)),
                "ack_p99_ms": rounded(percentile(acks, 0.99)),
                "actions": each["actions"],
                "actions_per_s": round(each["actions"] / elapsed, 1),
                "people_moves_per_s": round(each["people_moves"] / elapsed, 1),
                "bot_cpu_percent": round(100 * each["cpu"] / elapsed),
                "cpu_ms_per_action": rounded(per_action_ms(each["cpu"], each["actions"]), 2),
            }
        )
    return rows


def print_processes(rows: list[dict[str, Any]], total: dict[str, Any]) -> None:
    """The figures of each process and of all of them, one line each."""
    head = (
        ("games", 7),
        ("acks", 7),
        ("p50 ms", 9),
        ("p99 ms", 9),
        ("actions/s", 11),
        ("CPU %", 7),
        ("CPU ms/action", 15),
    )
    print(f"{'each bot process':<34}" + "".join(f"{name:>{w}}" for name, w in head))
    for row in rows:
        print_process_row(f"shard {row['shard']} (pid {row['pid']})", row, head)
    print_process_row("all processes", total, head)
    print(
        f"  on a 2-core machine (this one has {os.cpu_count()}) the emulator and the scripted "
        f"players share the machine with the bots, so the speed-up of {len(rows)} processes "
        "shown here is a lower bound"
    )


def print_process_row(label: str, row: dict[str, Any], head: Sequence[tuple[str, int]]) -> None:
    keys = (
        ("games", "d"),
        ("interactions", "d"),
        ("ack_p50_ms", ".1f"),
        ("ack_p99_ms", ".1f"),
        ("actions_per_s", ".1f"),
        ("bot_cpu_percent", "d"),
        ("cpu_ms_per_action", ".2f"),
    )
    cells = [
        cell(row[key], spec, width) for (key, spec), (_, width) in zip(keys, head, strict=True)
    ]
    print(f"{label:<34}" + "".join(cells))


def cell(value: float | None, spec: str, width: int) -> str:
    """One figure of a table, right-aligned; a dash for one that could not be measured."""
    return f"{'-':>{width}}" if value is None else f"{value:>{width}{spec}}"


def added_game_kb(found: dict[str, Any], games: int, added: int) -> float:
    """What each of the `added` games that joined the play last added to the most memory in
    use, with its share of what starting the `games` cost; NaN when not measurable: when
    memory was highest while the first half played (a backlog from a slow set-up, say), what
    the rest added is hidden under that peak, and the difference would come out below zero."""
    if not added or found["rss_active"] < found["rss_half"]:
        return float("nan")
    joined = (found["rss_active"] - found["rss_half"]) / added
    return joined + (found["rss_setup"] - found["rss_rest"]) / games


def red(text: str) -> str:
    """`text` in red on a terminal (unless NO_COLOR is set), as it is elsewhere."""
    if sys.stdout.isatty() and not os.environ.get("NO_COLOR"):
        return f"\033[31m{text}\033[0m"
    return text


def gaps(pairs: Iterable[tuple[float | None, float | None]]) -> list[float]:
    """end - start of each pair that has both."""
    return [end - start for start, end in pairs if start is not None and end is not None]


def spread_ms(seconds: Sequence[float]) -> tuple[str, dict[str, float | None]]:
    """p50, p95 and max of some delays, in words and for the JSON line."""
    values = [1000 * x for x in seconds]
    figures = {
        "p50_ms": rounded(percentile(values, 0.50), 0),
        "p95_ms": rounded(percentile(values, 0.95), 0),
        "max_ms": rounded(max(values, default=float("nan")), 0),
    }
    words = "/".join("-" if v is None else f"{v:.0f}" for v in figures.values())
    return f"p50/p95/max {words} ms", figures


def report_clocks(found: dict[str, Any]) -> dict[str, Any] | None:
    """Print what the turn clocks came to (--clocked); their figures for the JSON line."""
    if not found["clocked"]:
        return None
    duties: list[Duty] = found["duties"]
    silenced = [d for d in duties if d.silenced is not None]
    others = [d for d in duties if d.silenced is None and d.deadline is not None]
    acted = [d for d in silenced if d.texts and d.ai_posted]
    times = [d.silenced for d in acted if d.silenced is not None]
    told, told_json = spread_ms(gaps((t.due_moved_at, t.ran_out_at) for t in times))
    moved, moved_json = spread_ms(gaps((t.due_moved_at, t.ai_posted_at) for t in times))
    warned_times = [d.silenced for d in silenced if d.silenced is not None]
    warned, warned_json = spread_ms(gaps((t.warn_moved_at, t.warned_at) for t in warned_times))
    warnings = sum(d.warnings for d in duties)
    late = [d for d in others if d.texts]
    print(
        f"turn clocks: {found['clocked']} games with {CLOCK_MINUTES} minutes a move; the bots' "
        f"clock was moved {found['jumps']} times, {found['clock_moved_s'] / 3600:.1f} hours in all"
    )
    print(
        f"  persons made silent: {len(silenced)}; timeouts acted: {len(acted)} (the channel told "
        f"and the AI's move posted, within {ACT_S:g} s)"
    )
    print(f"  clock past the deadline -> 'ran out' post in the channel: {told}")
    print(f"  clock past the deadline -> the AI's move posted: {moved}")
    print(
        f"  warnings sent: {warnings} ({sum(d.warnings for d in silenced)} to the silent, the "
        f"rest to people late at a jump); clock past the warning -> its DM: {warned}"
    )
    print(
        f"  other games whose person to move was late at a jump: {len(late)} timed out "
        f"({sum(1 for d in late if d.ai_turns)} played by the AI, "
        f"{sum(1 for d in late if not d.ai_turns)} moved by their person first)"
    )
    doubled, missed, stray = print_wrong_duties(duties, silenced, found["unexplained"])
    print(
        f"  second copies refused by Discord's nonce: {found['nonce_refused']}; posts withdrawn "
        f"as another claim had taken them over: {found['withdrawn']}"
    )
    return {
        "clocked_games": found["clocked"],
        "jumps": found["jumps"],
        "silenced": len(silenced),
        "timeouts_acted": len(acted),
        "ran_out_post": told_json,
        "ai_move_post": moved_json,
        "warnings": warnings,
        "warning_dm": warned_json,
        "late_games_timed_out": len(late),
        "duplicates": [d.label for d in doubled],
        "not_acted": [d.label for d in missed],
        "unexplained": len(stray) + len(found["unexplained"]),
        "nonce_refused": found["nonce_refused"],
        "withdrawn": found["withdrawn"],
    }


def print_wrong_duties(
    duties: list[Duty], silenced: list[Duty], unexplained: list[str]
) -> tuple[list[Duty], list[Duty], list[Duty]]:
    """Print, in red, each clock duty done twice, not done, or done for no turn; return those
    done twice, those not done and those for no turn."""
    doubled = [
        d for d in duties if d.texts > 1 or d.ai_turns > 1 or d.posted_twice or d.warnings > 1
    ]
    missed = [d for d in silenced if not (d.texts and d.ai_posted)]
    stray = [d for d in duties if d.deadline is None]
    if doubled:
        for d in doubled:
            print(
                red(
                    f"  DUPLICATE {d.label}: {d.texts} 'ran out' posts, {d.ai_turns} AI moves "
                    f"({d.posted_twice} posted twice), {d.warnings} warnings"
                )
            )
    else:
        print(
            "  duplicates: 0 (per game and deadline: 1 'ran out' post and 1 AI move, posted "
            "once; at most 1 warning a turn)"
        )
    for d in missed:
        print(
            red(
                f"  NOT ACTED {d.label}: {d.texts} 'ran out' posts, {d.ai_turns} AI moves "
                f"({d.ai_posted} posted)"
            )
        )
    for d in stray:
        print(red(f"  UNEXPLAINED in game {d.game_id}: {d.texts} 'ran out', {d.warnings} warnings"))
    for line in unexplained:
        print(red(f"  UNEXPLAINED {line}"))
    return doubled, missed, stray


@dataclass(frozen=True)
class Summary:
    """The figures of one measurement that both the table for people and the JSON line give,
    worked out once from what it found."""

    args: argparse.Namespace
    plan: Plan
    timed: list[Sent]
    playing: list[Slot]
    elapsed: float
    setup_s: float  # opening and starting every game
    p50: float
    p95: float
    p99: float
    worst: float
    missed: int  # interactions never acknowledged
    refused: int
    stalls: int
    stalled_on: Counter[str]  # what the stuck games waited for, and how often
    per_game_kb: float
    added_kb: float
    held_kb: float
    own_kb: float
    lag_ms: list[float]
    cpu_ms: float  # the bots' CPU per stored action
    cpu_database: float | None
    cpu_run: float  # seconds: the bots, their database, its replica, the emulator and players
    before: float  # the machine-speed probe before the run...
    probes: list[float]  # ...and during the play
    varied: float  # how much slower the host made the machine (0.0: not)

    @property
    def busy_percent(self) -> float:
        """How busy the machine's cores were with everything the run measured."""
        return 100 * self.cpu_run / self.elapsed / (os.cpu_count() or 1)


def hot_percent(work: ServerWork) -> float:
    """The share of the games' updates that were heap-only, in percent (0 with none)."""
    return 100 * work.hot_game_updates / work.game_updates if work.game_updates else 0.0


def server_figures(found: dict[str, Any]) -> dict[str, Any]:
    """The WAL, full page images and checkpoints of the bots' server over the timed play,
    and the share of heap-only updates of the games; None each on SQLite."""
    work: ServerWork | None = found.get("server_work")
    if work is None:
        return dict.fromkeys(SERVER_KEYS)
    return {
        "wal_kb_per_action": rounded(per_action(work.wal_bytes, found["actions"]) / 1024, 2),
        "full_pages_per_action": rounded(per_action(work.full_pages, found["actions"]), 3),
        "checkpoints_in_play": work.checkpoints,
        "games_hot_update_percent": round(hot_percent(work)),
    }


SERVER_KEYS = (
    "wal_kb_per_action",
    "full_pages_per_action",
    "checkpoints_in_play",
    "games_hot_update_percent",
)


def _per_action_or_none(cpu: float | None, found: dict[str, Any]) -> float | None:
    """CPU seconds as ms per stored action, rounded; None if not measured."""
    return None if cpu is None else rounded(per_action_ms(cpu, found["actions"]), 2)


def summarize(found: dict[str, Any]) -> Summary:
    """The figures `report` prints and returns, from what `measure` found."""
    args = found["args"]
    timed: list[Sent] = found["timed"]
    playing: list[Slot] = found["playing"]
    elapsed = found["elapsed"]
    every = latencies_ms(timed)
    p50, p95, p99 = (percentile(every, q) for q in (0.50, 0.95, 0.99))
    cpu_database = found["cpu_database"]
    # When the whole machine is busy, its cores and not the bots set the pace: a second
    # process can then add no throughput, whatever it could do on cores of its own.
    busy = (
        found["cpu_bot"]
        + found["cpu_self"]
        + (cpu_database or 0.0)
        + (found.get("cpu_replica") or 0.0)
    )
    before, probes = found["probe_before"], found["probes"] or [float("nan")]
    return Summary(
        args=args,
        plan=found["plan"],
        timed=timed,
        playing=playing,
        elapsed=elapsed,
        setup_s=found["setup_seconds"],
        p50=p50,
        p95=p95,
        p99=p99,
        worst=max(every, default=float("nan")),
        missed=sum(1 for s in timed if s.state.ack_latency is None),
        refused=sum(s.refused for s in playing),
        stalls=sum(s.stalls for s in playing),
        stalled_on=sum((s.stalled_on for s in playing), Counter()),
        per_game_kb=(found["rss_active"] - found["rss_rest"]) / args.games,
        added_kb=added_game_kb(found, args.games, len(playing) - found["half_games"]),
        held_kb=(found["rss_setup"] - found["rss_rest"]) / args.games,
        # The bot's own process apart from its workers: what play adds to the workers is
        # mostly their caches of picture pieces and labels, bounded in size, filling over the
        # first few thousand boards a process draws, however many games those come from.
        own_kb=(found["own_active"] - found["own_rest"]) / args.games,
        lag_ms=[x * 1000 for x in found["lags"]],
        cpu_ms=per_action_ms(found["cpu_bot"], found["actions"]),
        cpu_database=cpu_database,
        cpu_run=busy,
        before=before,
        probes=probes,
        varied=slowdown(before, probes),
    )


def report(found: dict[str, Any]) -> dict[str, Any]:
    """Print the table for people; return the figures for the JSON line."""
    summary = summarize(found)
    print_run(found, summary)
    print_acknowledgements(found, summary)
    print_memory(found, summary)
    print_cpu(found, summary)
    processes = process_figures(found)
    if summary.plan.processes > 1:
        print_processes(processes, all_processes(found, summary))
    print_machine_speed(summary)
    clocks = report_clocks(found)
    errors = found["errors"]
    print(f"bot log: {len(errors)} error line(s)")
    for line in errors[:3]:
        print(f"  {line[:160]}")
    print_bars(summary)
    return figures_of(found, summary, processes, clocks)


def loop_busy_percent(found: dict[str, Any], processes: int) -> float:
    """How busy the bots' event loops' threads were over the set-up, on average, in percent
    of one core each."""
    return 100 * found["cpu_setup_loop"] / max(found["setup_seconds"] * processes, 1e-9)


def print_run(found: dict[str, Any], summary: Summary) -> None:
    """What was run, and how the games were set up and joined the play."""
    args, plan, pids = summary.args, summary.plan, found["pids"]
    ai = f"{args.ai_seats} AI seat{'s' if args.ai_seats != 1 else ''}"
    pace = (
        f"after thinking {args.think:g} s (give or take {args.think_spread:.0%}; a game's first "
        "pause a random part of one)"
        if args.think
        else "at once"
    )
    where = (
        f"one bot process (pid {pids[0]})"
        if plan.processes == 1
        else f"{plan.processes} bot processes (pids {', '.join(map(str, pids))}), one shard "
        "each, the games spread over one server per shard"
    )
    stored = "SQLite" if plan.database == "sqlite" else "PostgreSQL"
    print(
        f"High Voltage load: {args.games} games at once in {where}, stored in {stored},"
        f" each 2 people + {ai} (AI pause {args.ai_pause:g} s); people move {pace} once the"
        f" bot has answered; {summary.elapsed:.1f} s of play"
    )
    setup_ms = latencies_ms(found["setup"])
    print(
        f"set-up: {len(summary.playing)} of {args.games} games opened and started in "
        f"{found['setup_seconds']:.1f} s ({len(setup_ms)} interactions, "
        f"p99 {percentile(setup_ms, 0.99):.0f} ms); {found['setup_taken_over']} started though "
        f"answered too late, played as they were; {found['setup_resumed']} lobbies answered "
        f"too late, filled and started; {found['setup_deferred']} lobbies shown after "
        f'"thinking…" while the bot caught up; {found["setup_abandoned"]} abandoned to '
        f"open afresh, {found['setup_retried']} attempts retried; load average then "
        f"{'/'.join(f'{x:.1f}' for x in found['load_setup'])} (1/5/15 min)"
    )
    opened = max(len(summary.playing), 1)
    print(
        f"  bot CPU per game set up: {1000 * found['cpu_setup'] / opened:.1f} ms "
        f"({1000 * found['cpu_setup_own'] / opened:.1f} ms in the bot's own process, the rest "
        f"its workers'), {found['cpu_setup']:.1f} s over the set-up"
    )
    loops = found["cpu_setup_loop"]
    print(
        f"  the bot's event loop: {1000 * loops / opened:.1f} ms of its thread's CPU a game, "
        f"busy {loop_busy_percent(found, plan.processes):.0f}% of the set-up (all of it when "
        "the loop's CPU is what the set-up waits for; less when it waits on the bot's other "
        "threads, its database's among them, its workers or Discord's answers)"
    )
    print(
        f"  every game a person's to play (its start's board posted, its AI seats' first "
        f"moves shown) {found['playable_seconds']:.1f} s after the set-up began; "
        f"{found['unplayable']} not by then; {found['settle_stalls']} waits of "
        f"{STALL_SECONDS:g} s meanwhile; bot CPU per game until then "
        f"{1000 * found['cpu_playable'] / max(len(summary.playing), 1):.1f} ms "
        f"({1000 * found['cpu_playable_own'] / max(len(summary.playing), 1):.1f} ms its own)"
    )
    joining = len(summary.playing) - found["half_games"]
    print(
        joining_sentence(
            found["joined_moved"], joining, found["joined_seconds"], latencies_ms(found["joining"])
        )
    )


def joining_sentence(moved: int, joining: int, seconds: float, latencies: Sequence[float]) -> str:
    """How the second half of the games joined the play. The timing waits until each of them
    has moved, or JOIN_SECONDS: without --think they all move at once; with it, a game's first
    pause is a random part of a whole one, so most of them move later, in the timed play, and
    saying that every one had moved by then would be wrong."""
    counted = (
        f"({len(latencies)} interactions, p99 {percentile(latencies, 0.99):.0f} ms; "
        "not counted below)"
    )
    if moved >= joining:
        return (
            f"the second half joining the play at once: every one of them moved within "
            f"{seconds:.1f} s {counted}"
        )
    return (
        f"the second half joining the play at once: {moved} of {joining} had moved when the "
        f"timing began, {seconds:.1f} s later; the others were thinking still (a game's first "
        f"pause is a random part of one) {counted}"
    )


def print_acknowledgements(found: dict[str, Any], summary: Summary) -> None:
    """How quickly each kind of interaction was acknowledged, what was refused, and the
    actions stored."""
    timed, elapsed = summary.timed, summary.elapsed
    head = ("count", 7), ("p50 ms", 9), ("p95 ms", 9), ("p99 ms", 9), ("max ms", 9)
    print(f"{'acknowledged in':<34}" + "".join(f"{name:>{w}}" for name, w in head))
    rows = [(label, [s for s in timed if s.kind == kind]) for kind, label in KINDS]
    for label, group in [*rows, ("all interactions", timed)]:
        if not group:
            continue
        values = latencies_ms(group)
        figures = [percentile(values, q) for q in (0.5, 0.95, 0.99)] + [max(values)]
        print(f"{label:<34}{len(group):>7}" + "".join(f"{v:>9.1f}" for v in figures))
    print(
        f"not acknowledged within {INTERACTION_WINDOW:g} s (counted as {INTERACTION_WINDOW:g} s"
        f" above): {summary.missed}; moves refused: {summary.refused}; games stuck "
        f"{STALL_SECONDS:g} s (then /game board): {summary.stalls}"
    )
    if summary.stalled_on:
        waited = ", ".join(f"{what} {n}" for what, n in summary.stalled_on.most_common())
        print(f"  what the stuck games waited for: {waited}")
    for text in found["refusals"][:3]:
        print(f"  refused: {text}")
    print(
        f"game actions stored: {found['actions']} ({found['actions'] / elapsed:.1f}/s, of which"
        f" people's moves {found['people_moves'] / elapsed:.1f}/s); games finished and "
        f"reopened: {sum(s.finished for s in summary.playing)}"
    )


def print_memory(found: dict[str, Any], summary: Summary) -> None:
    """The bots' memory at each step of the run, and what a game costs."""
    mb = 1 / 1024
    print(
        f"bot memory (VmRSS): {found['rss_started'] * mb:.1f} MB started, "
        f"{found['rss_rest'] * mb:.1f} MB at rest after warm-up "
        f"({found['warm_up_boards']} boards drawn and {found['warm_up_finished']} game(s) "
        "finished in the warm-up), "
        f"{found['rss_setup'] * mb:.1f} MB with the games started "
        f"({summary.held_kb:.1f} kB a game), "
        f"{found['rss_active'] * mb:.1f} MB at most while they play "
        f"({summary.per_game_kb:.1f} kB a game)"
    )
    adds = (
        "what each game that joins adds is not measurable in this run"
        if math.isnan(summary.added_kb)
        else f"each game that joins the play adds {summary.added_kb:.1f} kB (its share once "
        "started included), without what play costs a process once"
    )
    print(f"  with half of them playing first: {found['rss_half'] * mb:.1f} MB at most; {adds}")
    print(
        f"  the bot's own process: {found['own_rest'] * mb:.1f} MB at rest, "
        f"{found['own_active'] * mb:.1f} MB at most while they play "
        f"({summary.own_kb:.1f} kB a game); "
        f"the rest is its workers' (pictures, AI seats, replays)"
    )


def print_cpu(found: dict[str, Any], summary: Summary) -> None:
    """The CPU of the bots, of this process and of PostgreSQL's server, per stored action
    too, and how busy the machine's cores were."""
    elapsed, lag_ms = summary.elapsed, summary.lag_ms
    print(
        f"CPU: bot {100 * found['cpu_bot'] / elapsed:.0f}% of one core; emulator and players "
        f"{100 * found['cpu_self'] / elapsed:.0f}% (their event loop late by p99 "
        f"{percentile(lag_ms, 0.99):.1f} ms, at most {max(lag_ms, default=0):.1f} ms: "
        f"included in the latencies)"
    )
    wake_ms = [x * 1000 for x in found.get("wakes", [])]
    if wake_ms:
        print(
            f"  a player woken by the bot's post: p50 {percentile(wake_ms, 0.5):.1f} ms, p99 "
            f"{percentile(wake_ms, 0.99):.1f} ms after the emulator took it (the harness's own "
            "delay, not in the latencies: the next move waits for it)"
        )
    print(
        f"bot CPU per stored action: {summary.cpu_ms:.2f} ms (the CPU of the bot processes and "
        "their workers over the timed play, divided by the actions stored in it; "
        f"{per_action_ms(found['cpu_bot_own'], found['actions']):.2f} ms in the bots' own "
        "processes, the rest their workers' drawing and thinking)"
    )
    cpu_database = summary.cpu_database
    if cpu_database is not None:
        # SQLite works inside the bot's own process, so its CPU is in the figure above;
        # PostgreSQL's server is processes of its own, shown apart to be compared fairly.
        print(
            f"PostgreSQL server CPU: {100 * cpu_database / elapsed:.0f}% of one core, "
            f"{per_action_ms(cpu_database, found['actions']):.2f} ms per stored action (not in "
            "the bot's figure; SQLite's work is inside the bot's), "
            + (
                "the players reading from a replica of their own: their "
                f"{found['reads'] / elapsed:.0f} queries a second are not in it, but its "
                "sending the bots' changes to that replica is: "
                f"{per_action_ms(found['cpu_sending'] or 0.0, found['actions']):.2f} ms of it"
                if found.get("replica")
                else f"the players' own reads included: {found['reads'] / elapsed:.0f} "
                "queries a second"
            )
        )
        print(
            f"round trips to PostgreSQL per stored action: "
            f"{per_action(found['round_trips'], found['actions']):.2f} (every request the bots "
            "sent and waited for over the timed play, as their metrics count them: the moves' "
            "own changes, the posts taken and marked made, AI claims, checks, reads of games "
            "not in memory; divided by the actions stored in it)"
        )
    work = found.get("server_work")
    if work is not None:
        print(
            f"the bots' server wrote {per_action(work.wal_bytes, found['actions']) / 1024:.2f} "
            "kB of WAL per stored action (synced at each commit, and applied by the players' "
            f"replica), {per_action(work.full_pages, found['actions']):.2f} full page images; "
            f"{work.checkpoints} checkpoint(s) in the timed play (one is made as the play "
            f"begins); {hot_percent(work):.0f}% of the {work.game_updates} updates of the "
            "games' rows heap-only (no index written)"
        )
    cpu_replica, cpu_applying = found.get("cpu_replica"), found.get("cpu_applying")
    if cpu_replica is not None and cpu_applying is not None:
        # Not the bots' server's work, and not in its figure above, but on the same cores.
        print(
            f"the players' replica CPU: {100 * cpu_replica / elapsed:.0f}% of one core, "
            f"{per_action_ms(cpu_replica, found['actions']):.2f} ms per stored action: "
            f"{per_action_ms(cpu_applying, found['actions']):.2f} ms applying the bots' changes, "
            f"the rest answering the players' reads (not in the server's figure above; the "
            "bots' server spends its own sending them, in its figure and told apart there)"
        )
    print(
        f"the machine's {os.cpu_count()} cores: {summary.busy_percent:.0f}% busy with the bots, "
        f"the database, the emulator and the players together"
    )
    print(cores_sentence(found["cores"]))


def cores_sentence(cores: dict[str, list[int] | None]) -> str:
    """Which cores each part of the run could use over the timed play, as the kernel had it."""
    every = set(cores["bots"] or ()) | set(cores["players"] or ())
    if all(set(found) == every for found in cores.values() if found is not None):
        return f"cores: every process on every core ({_listed(sorted(every))})"
    parts = [("the bots and their workers", cores["bots"])]
    parts.append(("the emulator and the players", cores["players"]))
    parts.append(("the bots' PostgreSQL server", cores["server"]))
    parts.append(("the players' replica", cores["replica"]))
    told = "; ".join(f"{who} on {_listed(found)}" for who, found in parts if found is not None)
    return f"cores apart (--bot-cores): {told}"


def _listed(cores: list[int] | None) -> str:
    return ", ".join(str(core) for core in cores or ())


def all_processes(found: dict[str, Any], summary: Summary) -> dict[str, Any]:
    """The last line of the table of processes: all of them together."""
    elapsed = summary.elapsed
    return {
        "games": len(summary.playing),
        "interactions": len(summary.timed),
        "ack_p50_ms": rounded(summary.p50),
        "ack_p99_ms": rounded(summary.p99),
        "actions_per_s": round(found["actions"] / elapsed, 1),
        "bot_cpu_percent": round(100 * found["cpu_bot"] / elapsed),
        "cpu_ms_per_action": rounded(summary.cpu_ms, 2),
    }


def print_machine_speed(summary: Summary) -> None:
    """The machine's speed before the run and during it, and whether its host slowed it."""
    before, probes, varied = summary.before, summary.probes, summary.varied
    print(
        f"machine speed (CPU ms of a fixed piece of Python): {before:.1f} before the run; "
        f"during play p50 {statistics.median(probes):.1f}, at most {max(probes):.1f}"
        + (
            f": its host made it {varied:.1f}x slower for a while, so these figures are not "
            "comparable with a run on a steady machine"
            if varied
            else ""
        )
    )


def setup_sentence(games: int, seconds: float) -> str:
    """The set-up against its bar. The bar is a rate, 10,000 games in two minutes (83 games a
    second), so that a smaller run says how it would fare."""
    rate, bar_rate = games / max(seconds, 1e-9), HUMAN_PACE_BAR_GAMES / SETUP_BAR_S
    return (
        f"set-up {seconds:.1f} s, {rate:.0f} games a second: "
        f"{'within' if rate >= bar_rate else 'OVER'} the bar of {HUMAN_PACE_BAR_GAMES:,} "
        f"games in {SETUP_BAR_S:g} s"
    )


def print_bars(summary: Summary) -> None:
    """The set-up, the acknowledgements' p99 and the memory a game against the product's bars."""
    p99, per_game_kb, added_kb = summary.p99, summary.per_game_kb, summary.added_kb
    games = summary.args.games
    p99_verdict = "within" if p99 < P99_TARGET_MS else "OVER"
    bar_run = (games == P99_BAR_GAMES and summary.plan.processes == 1) or (
        games == HUMAN_PACE_BAR_GAMES
    )
    print(
        f"ack p99 {p99:.1f} ms: {p99_verdict} the {P99_TARGET_MS:g} ms bar"
        + (
            ""
            if bar_run
            else f" (set for {P99_BAR_GAMES} games in one process as fast as answered, and for"
            f" {HUMAN_PACE_BAR_GAMES:,} at a human pace)"
        )
    )
    if not summary.args.think:
        # Played as fast as answered, a game's memory is mostly what its play holds for the
        # moment (boards queued to draw and post), and its set-up is paced by --setup-at-once.
        print(
            f"set-up and memory a game: their bars are set for {HUMAN_PACE_BAR_GAMES:,} open "
            "games at a human pace (--think)"
        )
        return
    print(setup_sentence(games, summary.setup_s))
    kb_verdict = "within" if per_game_kb < MEMORY_TARGET_KB else "OVER"
    print(f"{per_game_kb:.1f} kB per game: {kb_verdict} the {MEMORY_TARGET_KB:g} kB bar")
    if math.isnan(added_kb):
        print("per added game: not measurable in this run")
    else:
        added_verdict = "within" if added_kb < MEMORY_TARGET_KB else "OVER"
        print(f"{added_kb:.1f} kB per added game: {added_verdict} the {MEMORY_TARGET_KB:g} kB bar")


def figures_of(
    found: dict[str, Any],
    summary: Summary,
    processes: list[dict[str, Any]],
    clocks: dict[str, Any] | None,
) -> dict[str, Any]:
    """The JSON line's figures of one measurement."""
    args, elapsed, cpu_database = summary.args, summary.elapsed, summary.cpu_database
    return {
        "games": args.games,
        "games_playing": len(summary.playing),
        "setup_seconds": round(found["setup_seconds"], 1),
        "setup_taken_over": found["setup_taken_over"],
        "setup_deferred": found["setup_deferred"],
        "setup_resumed": found["setup_resumed"],
        "setup_abandoned": found["setup_abandoned"],
        "setup_retried": found["setup_retried"],
        "playable_seconds": round(found["playable_seconds"], 1),
        "unplayable": found["unplayable"],
        "load_average_setup": [round(x, 2) for x in found["load_setup"]],
        "cpu_ms_per_game_set_up": rounded(
            1000 * found["cpu_setup"] / max(len(summary.playing), 1), 1
        ),
        "cpu_ms_per_game_set_up_own": rounded(
            1000 * found["cpu_setup_own"] / max(len(summary.playing), 1), 1
        ),
        "cpu_ms_per_game_set_up_loop": rounded(
            1000 * found["cpu_setup_loop"] / max(len(summary.playing), 1), 1
        ),
        "loop_busy_percent_set_up": rounded(loop_busy_percent(found, summary.plan.processes), 0),
        "seconds": round(elapsed, 1),
        "interactions": len(summary.timed),
        "ack_p50_ms": rounded(summary.p50),
        "ack_p95_ms": rounded(summary.p95),
        "ack_p99_ms": rounded(summary.p99),
        "ack_max_ms": rounded(summary.worst),
        "not_acknowledged": summary.missed,
        "refused": summary.refused,
        "stalled": summary.stalls,
        "actions_per_s": round(found["actions"] / elapsed, 1),
        "people_moves_per_s": round(found["people_moves"] / elapsed, 1),
        "interactions_per_s": round(len(summary.timed) / elapsed, 1),
        "rss_kb_per_game": round(summary.per_game_kb, 1),
        "rss_kb_per_started_game": round(summary.held_kb, 1),
        "rss_kb_per_added_game": rounded(summary.added_kb),
        "rss_kb_per_game_bot_process": round(summary.own_kb, 1),
        "rss_kb_at_rest": found["rss_rest"],
        "warm_up_games_finished": found["warm_up_finished"],
        "warm_up_boards": found["warm_up_boards"],
        "rss_kb_with_games": found["rss_active"],
        "bot_cpu_percent": round(100 * found["cpu_bot"] / elapsed),
        "emulator_cpu_percent": round(100 * found["cpu_self"] / elapsed),
        "emulator_lag_p99_ms": rounded(percentile(summary.lag_ms, 0.99)),
        "emulator_lag_p50_ms": rounded(percentile(summary.lag_ms, 0.5)),
        "player_wake_p99_ms": rounded(percentile([x * 1000 for x in found.get("wakes", [])], 0.99)),
        "bot_error_lines": len(found["errors"]),
        "probe_ms_before": round(summary.before, 2),
        "probe_ms_max": rounded(max(summary.probes)),
        "machine_slowed": bool(summary.varied),
        "ai_seats": args.ai_seats,
        "ai_pause_s": args.ai_pause,
        "think_s": args.think,
        "bot_in_own_process": True,
        "database": summary.plan.database,
        "processes": summary.plan.processes,
        "cpu_ms_per_action": rounded(summary.cpu_ms, 2),
        "database_cpu_ms_per_action": (
            None
            if cpu_database is None
            else rounded(per_action_ms(cpu_database, found["actions"]), 2)
        ),
        "round_trips_per_action": (
            None
            if cpu_database is None
            else rounded(per_action(found["round_trips"], found["actions"]), 2)
        ),
        # The players' replica (PostgreSQL), all of it and its applying of the bots' changes.
        "replica_cpu_ms_per_action": _per_action_or_none(found.get("cpu_replica"), found),
        "replica_apply_cpu_ms_per_action": _per_action_or_none(found.get("cpu_applying"), found),
        # ...and the bots' server's sending of its changes to it, in its CPU above.
        "server_sending_cpu_ms_per_action": _per_action_or_none(found.get("cpu_sending"), found),
        # The emulator and the scripted players (this process): the harness's own part...
        "harness_cpu_ms_per_action": _per_action_or_none(found["cpu_self"], found),
        # ...of everything the run measured (the bots, their server and the players' replica,
        # the harness): on a machine whose cores are all busy, what sets the actions a second.
        "run_cpu_ms_per_action": _per_action_or_none(summary.cpu_run, found),
        # What the bots' PostgreSQL server wrote over the timed play (see `server_work`).
        **server_figures(found),
        "per_process": processes,
        "machine_busy_percent": round(summary.busy_percent),
        "cores": found["cores"],
        "clocks": clocks,
    }


def _machine_share(figures: dict[str, Any]) -> str:
    """What the run measured a stored action, all of it and by whom (ms)."""
    parts = [("the bot", figures["cpu_ms_per_action"])]
    if figures["database_cpu_ms_per_action"] is not None:
        parts.append(("its server", figures["database_cpu_ms_per_action"]))
    if figures["replica_cpu_ms_per_action"] is not None:
        parts.append(("the players' replica", figures["replica_cpu_ms_per_action"]))
    parts.append(("the emulator and players", figures["harness_cpu_ms_per_action"]))
    told = ", ".join(f"{who} {cell(ms, '.1f', 0)}" for who, ms in parts)
    return f"{cell(figures['run_cpu_ms_per_action'], '.1f', 0)} ms ({told})"


def print_databases(sqlite: dict[str, Any], postgresql: dict[str, Any]) -> float | None:
    """PostgreSQL's actions a second over SQLite's against the bar, and where each run's CPU
    went a stored action: with the machine's cores all busy, the CPU of everything on them
    sets the pace, the harness's and the players' replica's included. None if SQLite stored
    nothing."""
    if not sqlite["actions_per_s"]:
        return None
    ratio = round(postgresql["actions_per_s"] / sqlite["actions_per_s"], 2)
    verdict = "within" if ratio >= DATABASES_TARGET else "UNDER"
    print(
        f"PostgreSQL stores {ratio:.2f}x the actions per second of SQLite: {verdict} the "
        f"{DATABASES_TARGET:g}x bar"
    )
    print(
        f"  the CPU a stored action of everything measured, the cores "
        f"{sqlite['machine_busy_percent']}% and {postgresql['machine_busy_percent']}% busy: "
        f"SQLite {_machine_share(sqlite)}; PostgreSQL {_machine_share(postgresql)}"
    )
    print("  " + _shared_or_apart(postgresql["cores"]))
    return ratio


def _shared_or_apart(cores: dict[str, list[int] | None]) -> str:
    """How the two runs shared the machine: it decides what the ratio says."""
    if set(cores["bots"] or ()) & set(cores["players"] or ()):
        return (
            "the bots shared their cores with PostgreSQL's server, the players' replica and the "
            "players: with the cores all busy, every one of them sets the pace, as on one "
            "machine that is the database's too (--bot-cores N gives the bots cores of their own)"
        )
    return (
        f"the bots on core(s) {_listed(cores['bots'])} of their own, PostgreSQL's server, the "
        f"players' replica and the players on {_listed(cores['players'])}: what the bots store "
        "a second as on a machine of their own, with SQLite's work in their process and "
        "PostgreSQL's on the database's machine"
    )


def compare(results: list[tuple[Plan, dict[str, Any]]], args: argparse.Namespace) -> dict[str, Any]:
    """Print the measurements side by side, PostgreSQL against SQLite and the scaling against
    their bars; return the JSON figures: the last measurement's (PostgreSQL's when it was
    measured), with SQLite's under `sqlite` and one PostgreSQL process's under `one_process`
    when they were measured too."""
    found = {(plan.database, plan.processes): figures for plan, figures in results}
    if len(results) > 1:
        print()
        head = (("ack p50 ms", 12), ("ack p99 ms", 12), ("actions/s", 11), ("CPU ms/action", 15))
        print(f"{'side by side':<34}" + "".join(f"{name:>{w}}" for name, w in head))
        keys = (
            ("ack_p50_ms", ".1f"),
            ("ack_p99_ms", ".1f"),
            ("actions_per_s", ".1f"),
            ("cpu_ms_per_action", ".2f"),
        )
        for plan, figures in results:
            cells = [
                cell(figures[key], spec, w) for (key, spec), (_, w) in zip(keys, head, strict=True)
            ]
            print(f"{plan.label:<34}" + "".join(cells))
    one = found.get(("postgresql", 1))
    sqlite = found.get(("sqlite", 1))
    over_sqlite = None
    if sqlite is not None and one is not None:
        over_sqlite = print_databases(sqlite, one)
    many = found.get(("postgresql", args.processes)) if args.processes > 1 else None
    scaling = None
    if one is not None and many is not None and one["actions_per_s"] > 0:
        scaling = round(many["actions_per_s"] / one["actions_per_s"], 2)
    if scaling is not None and one is not None and many is not None:
        verdict = "within" if scaling >= SCALING_TARGET else "UNDER"
        bar = f"{SCALING_TARGET:g}x bar" + ("" if args.processes == 2 else ", set for two")
        print(
            f"{args.processes} processes together store {scaling:.2f}x the actions per second "
            f"of one: {verdict} the {bar} (a lower bound on a machine the emulator and the "
            f"players share with the bots: its cores were {one['machine_busy_percent']}% busy "
            f"with one process, {many['machine_busy_percent']}% with {args.processes})"
        )
    elif args.processes > 1:
        print(
            f"the {SCALING_TARGET:g}x bar for two processes over one: not measured in this run "
            "(--scaling measures one process too)"
        )
    figures = dict(results[-1][1])
    if args.database == "both":
        figures["sqlite"] = sqlite
    figures["postgresql_over_sqlite"] = over_sqlite
    if args.scaling:
        figures["one_process"] = one
    figures["scaling"] = scaling
    return figures
