"""The command line of the load benchmark: its options, the measurements they ask for, and
the PostgreSQL server some of them run on; one JSON line of figures last."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from postgres_server import PostgresServer, PostgresUnavailable, postgres_server, replica_of

from . import __doc__ as PACKAGE_DOC
from .bots import Plan
from .config import (
    BOTS_DATABASE_SETTINGS,
    CLOCK_MINUTES,
    PRIMARY_SETTINGS,
    SETUP_AT_ONCE,
    WARM_UP_BOARDS,
)
from .cores import keep_to, split
from .measure import run
from .report import compare, report


def options() -> argparse.ArgumentParser:
    """The command line's options, with their defaults and help."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=(PACKAGE_DOC or "").splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they play")
    parser.add_argument("--ai-seats", type=int, default=1, choices=(0, 1, 2))
    parser.add_argument("--ai-pause", type=float, default=0.2, help="seconds before an AI move")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a person waits after the bot's answer before moving, give or take half "
        "(default 0: as fast as answered, the load the bar is set for)",
    )
    parser.add_argument(
        "--think-spread",
        type=float,
        default=0.5,
        help="how far a thinking time strays from --think, as a part of it (default 0.5: "
        "give or take half; 0.2 with --think 150 is a move every 2 to 3 minutes)",
    )
    parser.add_argument(
        "--setup-at-once",
        type=int,
        default=SETUP_AT_ONCE,
        help=f"games being opened at the same moment during set-up (default {SETUP_AT_ONCE})",
    )
    parser.add_argument(
        "--late-starts",
        type=int,
        default=0,
        help="the first N Start clicks of the set-up reach the bot as if Discord's window had "
        "gone by on the way, so their answers come too late, as on a bot far behind: the run "
        "plays those games as they started (default 0)",
    )
    parser.add_argument(
        "--late-joins",
        type=int,
        default=0,
        help="...and the first N Join clicks: the run fills and starts those lobbies as they "
        "are (default 0)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=20.0,
        help="seconds a few games play before the bot counts as at rest (default 20)",
    )
    parser.add_argument(
        "--warm-up-boards",
        type=int,
        default=WARM_UP_BOARDS,
        help=f"...and boards they draw at least, if they can (default {WARM_UP_BOARDS})",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql", "both"),
        default="sqlite",
        help="where the bot stores its games: a SQLite file (default), a PostgreSQL server "
        "this script starts, or both one after the other, each a full measurement",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes sharing the games on PostgreSQL, one shard each (default 1; "
        "SQLite is served by one process, so with --database both it runs one)",
    )
    parser.add_argument(
        "--scaling",
        action="store_true",
        help="with --processes N > 1, also measure PostgreSQL with one process first, so the "
        "run reports what N processes store per second over one",
    )
    parser.add_argument(
        "--clocked",
        type=int,
        default=0,
        help=f"of the games, this many have a turn clock of {CLOCK_MINUTES} minutes, and one "
        "person after another goes silent in them while the bots' clock is moved past their "
        "warning and their deadline (default 0)",
    )
    parser.add_argument(
        "--bot-cores",
        type=int,
        default=0,
        help="the bots and their workers keep to this many cores, and this process (the "
        "emulator and the players) with the PostgreSQL servers it starts to the others, as a "
        "bot on PostgreSQL has its database on a machine of its own (default 0: every process "
        "on every core)",
    )
    parser.add_argument("--seed", type=int, default=1, help="for the players' choices")
    parser.add_argument(
        "--drawing-processes",
        type=int,
        default=1,
        help="the bot's DRAWING_PROCESSES (default 1, as the bot's own default)",
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check every request against Discord's OpenAPI schema (costs emulator time)",
    )
    parser.add_argument(
        "--bot-log-level", default="INFO", help="the bot's LOG_LEVEL (INFO, as by default)"
    )
    parser.add_argument(
        "--bot-log", type=Path, help="keep the bot's log in this file (else it is discarded)"
    )
    return parser


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The options given, refused with a one-line reason where they do not go together."""
    parser = options()
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0:
        parser.error("--games and --seconds must be positive")
    if not 0 <= args.think_spread < 1:
        parser.error("--think-spread is a part of --think: from 0 up to (not) 1")
    if args.setup_at_once < 1:
        parser.error("--setup-at-once must be 1 or more")
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    if args.database == "sqlite" and args.processes > 1:
        parser.error(
            "a SQLite file is served by one bot process: several need --database postgresql "
            "(or both)"
        )
    if not 0 <= args.clocked <= args.games:
        parser.error("--clocked gives how many of the --games have a clock: 0 to --games")
    if args.scaling and args.processes == 1:
        parser.error("--scaling compares several processes with one: give --processes 2 or more")
    args.cores = None
    if args.bot_cores:
        try:
            args.cores = split(args.bot_cores, os.sched_getaffinity(0))
        except ValueError as exc:
            parser.error(str(exc))
    return args


def measurements(args: argparse.Namespace) -> list[Plan]:
    """What the run measures, in order: SQLite, then PostgreSQL with one process (for
    --scaling), then PostgreSQL with --processes."""
    plans = []
    if args.database in ("sqlite", "both"):
        plans.append(Plan("sqlite", 1))
    if args.database in ("postgresql", "both"):
        if args.scaling:
            plans.append(Plan("postgresql", 1))
        plans.append(Plan("postgresql", args.processes))
    return plans


def bots_database(server: PostgresServer, name: str) -> str:
    """A new database for the bots on `server`, whose commits return once the players'
    replica has applied them (see `BOTS_DATABASE_SETTINGS`); its URL."""
    url = server.create_database(name)
    for setting in BOTS_DATABASE_SETTINGS:
        server.execute(f'ALTER DATABASE "{name}" SET {setting}')
    return url


def postmaster_pid(server: PostgresServer) -> int | None:
    """The PostgreSQL server's main process, whose children do the work (the first line of
    its data folder's postmaster.pid); None if it cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    return None


def _interrupt_on_sigterm() -> None:
    """A plain `kill` outside a measurement's event loop (while PostgreSQL starts, or between
    two measurements) ends the run as Ctrl-C does, so the server and its folder are removed
    too. Each measurement's event loop sets its own handler, and resets this one as it ends."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


# This process is the emulator and every player: its CPU is taken from the bots it measures on
# the same cores. Each request and event makes and drops thousands of small objects; young
# passes of the garbage collector 50,000 of them apart rather than 700 (as a test process's,
# `tests/conftest.py`) took five points of a core off it over a set-up of 3,000 games.
HARNESS_GC_THRESHOLD = (50_000, 20, 100)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    gc.set_threshold(*HARNESS_GC_THRESHOLD)
    plans = measurements(args)
    if args.cores is not None:  # before the PostgreSQL servers start: they keep to them too
        keep_to(args.cores.others)
    several = len(plans) > 1
    results: list[tuple[Plan, dict[str, Any]]] = []
    try:
        _interrupt_on_sigterm()
        with contextlib.ExitStack() as stack:
            server: PostgresServer | None = None
            replica: PostgresServer | None = None
            if any(plan.database == "postgresql" for plan in plans):
                server = stack.enter_context(postgres_server(PRIMARY_SETTINGS))
                # The players read the games from a replica of their own, so their reads
                # are no work for the server the bots use.
                replica = stack.enter_context(replica_of(server))
            for index, plan in enumerate(plans, 1):
                url = replica_url = None
                if server is not None and replica is not None and plan.database == "postgresql":
                    url = bots_database(server, f"load_{index}")
                    replica_url = replica.database_url(f"load_{index}")
                if several:
                    print(f"\n== {plan.label} ({index} of {len(plans)}) ==")
                pid = postmaster_pid(server) if url and server is not None else None
                replica_pid = postmaster_pid(replica) if url and replica is not None else None
                found = asyncio.run(
                    run(
                        args,
                        plan,
                        url,
                        database_pid=pid,
                        several=several,
                        replica_url=replica_url,
                        replica_pid=replica_pid,
                    )
                )
                _interrupt_on_sigterm()
                results.append((plan, report(found)))
    except PostgresUnavailable as exc:
        print(f"PostgreSQL could not be started: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: the bot processes and the temporary files are cleaned up")
        return 130
    print(json.dumps(compare(results, args)))
    return 0
