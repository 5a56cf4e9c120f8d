"""How quickly the bot acknowledges interactions while many games run at once, how much
memory each game costs it, and how many actions it stores per second for its CPU, against the
product's quality bars: one bot process on SQLite, or several sharing PostgreSQL.

    python bench/load.py [--games 200] [--seconds 30] [--ai-seats 1] [--ai-pause 0.2]
                         [--think 0] [--drawing-processes 1] [--warm-up 20]
                         [--warm-up-boards 1500] [--bot-log FILE]
                         [--database sqlite|postgresql|both] [--processes 1] [--scaling]
                         [--clocked 0]

The bot runs in child processes (`bench/load_bot.py`: the real client, drawing in its worker
processes as deployed); this process runs the Discord emulator on 127.0.0.1, with one text
channel per game, and the scripted players. With `--database sqlite` (the default) one bot
process stores the games in a fresh SQLite file in a temporary folder. With `postgresql` this
script starts a throwaway PostgreSQL server as the tests do
(`tests/support/postgres_server.py`), and `--processes` bot processes share a fresh database
on it, each running one shard of as many (SHARD_COUNT, SHARD_IDS); the games are dealt out in
turn over one Discord server per shard, so each process serves its share, as Discord would
route them. `both` measures SQLite, then PostgreSQL, each in full with the same arguments
(SQLite with one process: a SQLite file is served by one), and prints them side by side;
`--scaling`, with several processes, measures PostgreSQL with one process too, so the run
reports what N processes store over one.

Each game has two people and `--ai-seats` AI seats (whose pause before moving is `--ai-pause`,
short but not zero, so AI moves add to the load as they do in real use). Each game is opened
as people open one: /game new, Join, Add AI, Start.

The people then play legal moves, chosen with the engine from the game as the bot stored it
(read from its database: SQLite through a read-only connection, PostgreSQL through a few pooled
connections), as fast as the bot answers: the next move is sent once everything the previous
one caused has been posted (the board picture, and the private prompt when the next move is a
button), or after `--think` seconds more to see a human pace. Moves are slash commands (/hv
draw, rotate, move, swap) and the buttons of the private prompts (placing a drawn card,
declaring lines); a finished game is followed at once by a new one in its channel, so `--games`
games stay active. A game that gets no answer for a while (the bot stored a move but could not
post it) is asked for /game board, as a person would.

With `--clocked N`, N of the games (spread over them, so over the processes too) are opened
with a turn clock of an hour a move (`/game new clock:60`: when the person to move runs out, an
AI plays that move for them), and every game without reminders (`reminder:0`, as the bots'
clock jumps an hour at a time and a reminder would fall due in every game at every jump). The
bot processes tell the games' time by a clock this script moves forward (`load_bot.py
--moved-clock`: the real time plus an offset written on their stdin), so no hour is waited;
the leases of their duties keep the real time (see there why). During the timed
play, one clocked game's person after another goes silent at their turn (nothing more is sent
in their channel until the AI has played their move), and the clock is moved past their
warning's instant (a quarter of their hour left), then past their deadline, both read from
the bots' database; one jump passes the deadline of the one before and the warning of the next.
Measured: from each jump to the warning DM, to the "ran out of time" post in the channel and
to the AI's move posted there; the timeouts acted and the warnings sent; and that no duty was
done twice: per game and deadline one "ran out" post and one AI move (its board posts reaching
the channel once each, told by their nonce), at most one warning a turn. Every warning and
"ran out" post seen counts, also in the other clocked games, whose person to move may be late
when a jump passes their clock. With several processes on PostgreSQL any of them may claim a
clock: it must still act once. The bots look for what falls due every few seconds
(`hvbot.cogs.periodic.CHECK_S`), which sets the order of those delays. The run also counts the
second copies of posts Discord refused by their nonce, and the posts the bots withdrew as
another claim had taken them over (both 0 unless a duty was claimed twice).

Measured over the `--seconds` of play once every game plays:
- acknowledgement latency: from the emulator sending INTERACTION_CREATE to the bot's
  interaction callback reaching it (p50, p95, p99, max) over every interaction sent; one never
  acknowledged within Discord's 3 seconds counts as 3 seconds;
- game actions stored per second (the people's and the AI seats'), from the database;
- the bot's resident memory (VmRSS, its processes and their worker processes together) per
  active game: (RSS with the games - RSS at rest) / games,
  where "at rest" is after start-up and a warm-up (ten games played as fast as answered for
  `--warm-up` seconds, and on until one of them has finished and `--warm-up-boards` boards
  have been drawn, then abandoned, and the replays of those finished posted), so what a
  process pays once it has served games for a while is not charged to the games: above all
  the drawing worker's caches of picture pieces and labels, which fill over the first thousand
  or so pictures and then stay, and what the first replays cost the background worker. RSS at
  most while the games play is the figure, and RSS once they are all started (before anyone
  moves) is shown beside it. Half the games play for `--seconds`/2 before the rest join, so
  the run also prints what each game that joins the play adds: the cost of one more game,
  without what a process pays once when play begins (pools, the allocator's reserve). The rest
  join all in the same instant, a burst no server sees from its players: the timing starts
  once each of them has moved and play has run on for a moment (what the burst's answers took
  is printed apart);
- CPU use of the bot processes (with their workers) and of this one, and how late this
  process's event loop ran (on a small machine they share the cores: the emulator's delays
  are part of the latencies); the bots' CPU milliseconds per action stored (PostgreSQL's server
  is processes of its own: its CPU is shown apart, where SQLite's work is the bot's own); how
  busy the machine's cores were with all of it (when all are busy, the machine sets the pace);
- with several processes, each one's figures beside the total: the acknowledgements of its
  games' interactions, the actions stored in its games, its CPU. On a 2-core machine the
  emulator and the scripted players share the machine with the bots, so the speed-up several
  processes show is a lower bound;
- the machine's own speed: the CPU time a fixed piece of Python takes, before the run and every
  few seconds of play. A shared virtual machine can run several times slower for minutes at a
  time when its host is busy, and every other figure then moves with it; the run says so when
  its speed changed, so runs are compared only when their machines ran alike.

The bars: p99 under 250 ms at 200 games in one process (on PostgreSQL as on SQLite); under
100 kB per active game; two processes on PostgreSQL together store at least 1.5x the actions
per second of one. Prints a table for people, then as its last line one JSON object of the
figures (with `both`, PostgreSQL's, SQLite's under `sqlite`; `scaling` is N processes' actions
per second over one's, null unless both were measured; `clocks`, the turn clocks' figures,
null without `--clocked`). It reports figures only: it never
fails because a machine is slow.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and files here named like
# the project's packages (bench/engine.py, bench/render.py) would hide them. The emulator and the
# end-to-end helpers live with the tests.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path[:0] = [str(_HERE.parent), str(_HERE.parent / "tests" / "support")]

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import gc  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Awaitable, Iterable, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import UTC, datetime, timedelta  # noqa: E402
from typing import IO, Any  # noqa: E402

import aiohttp  # noqa: E402
import asyncpg  # noqa: E402
from e2e_harness import BOARD, DANGER, command_for, is_peek  # noqa: E402
from postgres_server import PostgresServer, PostgresUnavailable, postgres_server  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from engine import State  # noqa: E402
from games import find_game, register_all  # noqa: E402
from hvbot.cogs.periodic import CHECK_S  # noqa: E402
from hvbot.database.postgres import numbered  # noqa: E402
from hvbot.infra.workers import WATCH_S  # noqa: E402
from hvbot.messages.replays import FILENAME as REPLAY  # noqa: E402
from hvbot.store.sql import stamp  # noqa: E402
from sandbox.emulator import Channel, EmulatorUsageError, Record, User  # noqa: E402
from sandbox.emulator.interactions import INTERACTION_WINDOW, InteractionState  # noqa: E402
from sandbox.emulator.load import LoadEmulator  # noqa: E402
from sandbox.emulator.models import shard_of  # noqa: E402

register_all()  # the games this benchmark plays, as `bot.py` registers them

RULES = find_game("high-voltage")
P99_TARGET_MS = 250.0
P99_BAR_GAMES = 200  # the p99 bar is set for this many games in one process
# Two processes together store at least this many times the actions per second of one.
SCALING_TARGET = 1.5
MEMORY_TARGET_KB = 100.0
# The players' connections to PostgreSQL: many channels read at the same moment, and a
# connection runs one query at a time.
READER_CONNECTIONS = 4
SETUP_AT_ONCE = 10  # games being opened at the same moment during set-up
# Before memory is measured at rest, a few games are played at once for `--warm-up` seconds and
# abandoned: what a process pays once it has served games for a while (its workers started,
# the picture pieces and labels every board shares cached) is not charged to the games.
WARM_UP_GAMES = 10
# ...and on, for at most this long, until one of them has finished: the first replays a process
# draws cost its background worker about 20 MB once, which a warm-up that happened to finish no
# game charged to the timed play (with no game finishing in the play itself)...
WARM_UP_FINISH_S = 30.0
# ...and until this many boards have been drawn: the drawing worker's cache of picture pieces
# fills with the boards it draws, not with the seconds, and a warm-up the host slowed down drew
# a few hundred, leaving up to 10 MB of filling to be charged to the games.
WARM_UP_BOARDS = 1500
# ...then the replays of the games it finished are waited for, at most this long.
REPLAYS_S = 60.0
# After the warm-up, long enough for every worker to have given back what its work left free
# (it does every WATCH_S): at rest means at rest.
REST_SECONDS = WATCH_S + 1.0
MOVE_TIMEOUT = 10.0  # an acknowledged move that changes nothing by then counts as refused
STALL_SECONDS = 15.0  # a game waiting this long for the bot is reported as stuck
# When the second half of the games joins the play, all their people move in the same instant,
# a burst no server sees: the timing starts once each of them has moved (or this long), and
# the play has then run on for a moment.
JOIN_SECONDS = 15.0
PROBE_LOOPS = 50_000  # the machine-speed probe: a few milliseconds of Python on a normal core
PROBE_EVERY = 2.0  # seconds between probes during the timed play
# Two probes in a row this many times slower than the fastest: the machine's speed changed
# during the run. One slow probe alone is the run's own processes crowding the two cores (up to
# about 1.8x); the host's slowdowns last minutes...
SLOWED = 1.5
# ...or a single probe this many times slower, which crowding never explains: a few seconds of
# it are enough to queue pictures and lift the memory figure.
SPIKED = 5.0
SETTLE_SECONDS = 2.0
ANNOUNCING_KINDS = frozenset({"response", "followup", "channel_message"})
KINDS = (
    ("command", "slash commands (moves)"),
    ("button", "buttons (place, declare)"),
    ("lobby", "lobby (new, join, add AI, start)"),
    ("board", "/game board after a lost answer"),
)
FINISHED = "finished"
# Turn clocks (--clocked): the clock those games are opened with, in minutes (1 hour a move)...
CLOCK_MINUTES = 60
# ...how far past a warning's or a deadline's instant the bots' clock is moved...
PAST = timedelta(milliseconds=1)
# ...how long a person made silent is waited for to reach their turn, and how long the bots are
# given to warn them, or to tell the channel they ran out and play their move (the bots look
# every CHECK_S seconds)...
HOLD_S = 10.0
ACT_S = 2 * CHECK_S + 10.0
# A person is made silent only at a turn whose warning is at least this far ahead of the bots'
# clock: a nearer one would fall due by itself as the real time runs on after the last jump.
CLEAR = timedelta(minutes=5)
# ...and after the last one, how long duties done twice are looked for: every process's check
# runs again in that time.
AFTER_S = CHECK_S + 2.0
WARNED = "left for your move"  # the words of a clock's warning (bot.clock.warning)...
RAN_OUT = "ran out of time"  # ...and of its running out (bot.clock.ai_move)
MENTION = re.compile(r"<@(\d+)>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")


# ---------------------------------------------------------------------- figures


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def _stat_fields(pid: int) -> list[str]:
    """/proc/<pid>/stat after the process name (which, in parentheses, may hold spaces)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants (the bot's workers, and the process that starts
    them): the bot's memory and CPU are theirs together."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                children.setdefault(int(_stat_fields(int(entry.name))[1]), []).append(
                    int(entry.name)
                )
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def rss_kb(*pids: int, descendants: bool = True) -> int:
    """Resident memory of processes (the bot's) and (unless told otherwise) their
    descendants, together, from the kernel's own count."""
    total = 0
    members = [m for pid in pids for m in (process_tree(pid) if descendants else [pid])]
    for member in members:
        with contextlib.suppress(OSError):  # a worker that ended meanwhile
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its descendants (every thread), in seconds
    (a descendant's time counts while it runs; one that ended is no longer counted)."""
    total = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            fields = _stat_fields(member)
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


@dataclass
class Sent:
    """One interaction a scripted player sent, and in which part of the run."""

    kind: str
    phase: str
    state: InteractionState


# ---------------------------------------------------------------------- the bot's database


@dataclass(frozen=True)
class ClockRow:
    """A game's running turn clock as stored: the claim keys the bots compare and set."""

    version: int
    deadline: str  # when the person to move runs out (a stamp: ISO text to the millisecond)
    warn_at: str | None  # when they are warned; None once they were
    actions: int  # actions stored so far: the next one is number `actions`


@dataclass(frozen=True)
class MovePost:
    """A move's board post owed in the outbox: its seat, its first action, and the nonce it
    is sent to the channel with (so a second copy reaching the channel can be told)."""

    id: int
    game_id: int
    version: int
    seat: int
    first: int
    nonce: str


class GameReader:
    """What the players read of the bot's games: the bot's writes are the truth they choose
    from. SQLite and PostgreSQL answer the same queries behind these few methods.

    They are coroutines so that a read of PostgreSQL, a round trip over a socket, lets the
    emulator's event loop answer the bots meanwhile; SQLite's reads are made at once inside
    them, without giving the loop a turn, just as before there was a choice."""

    # Queries made: on PostgreSQL the players' reads are work for the server too, and the
    # report says how many there were beside the server's CPU.
    reads = 0

    async def rows(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        """The rows of one query (`?` placeholders)."""
        self.reads += 1
        return await self.fetch(sql, *args)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def game(self, game_id: int) -> tuple[str, int, str | None, int | None]:
        """Status, version, state, and the seat an AI is playing a move for (its person's
        clock ran out), if any."""
        rows = await self.rows(
            "SELECT status, version, state, stand_in_seat FROM games WHERE id = ?", game_id
        )
        return rows[0][0], rows[0][1], rows[0][2], rows[0][3]

    async def version(self, game_id: int) -> tuple[str, int]:
        """Status and version only: the players look on every message the bot sends, and the
        whole state is read only when it changed."""
        rows = await self.rows("SELECT status, version FROM games WHERE id = ?", game_id)
        return rows[0][0], rows[0][1]

    async def seat_users(self, game_id: int) -> list[int | None]:
        rows = await self.rows("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [r[0] for r in rows]

    async def clocks(self) -> dict[int, ClockRow]:
        """The running turn clocks of the games in play, by game."""
        rows = await self.rows(
            "SELECT g.id, g.version, g.clock_deadline, g.clock_warn_at,"
            " (SELECT COUNT(*) FROM actions AS a WHERE a.game_id = g.id) FROM games AS g"
            " WHERE g.status = 'active' AND g.clock_deadline IS NOT NULL"
            " AND g.clock_paused_at IS NULL"
        )
        return {r[0]: ClockRow(r[1], r[2], r[3], int(r[4])) for r in rows}

    async def move_posts(self, game_ids: Sequence[int]) -> list[MovePost]:
        """The board posts owed for the moves of these games (the outbox's `move` rows)."""
        found = []
        for game_id in game_ids:
            rows = await self.rows(
                "SELECT id, version, body, nonce FROM announcements"
                " WHERE game_id = ? AND kind = 'move'",
                game_id,
            )
            for r in rows:
                body = json.loads(r[2])
                found.append(
                    MovePost(
                        r[0], game_id, r[1], body["seat"], body["first"], r[3] or f"owed-{r[0]}"
                    )
                )
        return found

    async def action_counts(self) -> dict[int | None, tuple[int, int]]:
        """Actions stored so far by the server (guild) of their game, which says which shard,
        so which bot process, served it: all of them, and those of people's seats (not AI
        seats)."""
        rows = await self.rows(
            "SELECT g.guild_id, COUNT(*), COUNT(s.user_id) FROM actions AS a"
            " JOIN seats AS s ON s.game_id = a.game_id AND s.seat = a.seat"
            " JOIN games AS g ON g.id = a.game_id GROUP BY g.guild_id"
        )
        return {r[0]: (int(r[1]), int(r[2])) for r in rows}


class SqliteReader(GameReader):
    """The bot's SQLite file, read-only (it is in WAL mode, so reading never blocks the bot)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return self.conn.execute(sql, args).fetchall()

    async def close(self) -> None:
        self.conn.close()


class PostgresReader(GameReader):
    """The bots' PostgreSQL database, through a few pooled asyncpg connections: the players
    of many channels read at the same moment, and one connection runs one query at a time.
    There is no synchronous PostgreSQL driver among the project's packages."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresReader:
        return cls(await asyncpg.create_pool(url, min_size=1, max_size=READER_CONNECTIONS))

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.pool.fetch(numbered(sql), *args))

    async def close(self) -> None:
        await self.pool.close()


def totals(counts: dict[int | None, tuple[int, int]]) -> tuple[int, int]:
    """All actions and people's moves in `action_counts`, whatever their server."""
    return sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())


def on_shard(
    counts: dict[int | None, tuple[int, int]], shard: int, shard_count: int
) -> tuple[int, int]:
    """The part of `action_counts` whose games are in servers on shard `shard`."""
    mine = [c for guild, c in counts.items() if shard_of(guild, shard_count) == shard]
    return sum(c[0] for c in mine), sum(c[1] for c in mine)


# ---------------------------------------------------------------------- choosing moves


def choose(state: State, rng: random.Random) -> str:
    """A legal action, like a keen player's: draws are frequent (many are laid at once, which
    is a public board post; some are looked at first, which is a private card and then a button)
    and an action that closes a line is preferred, so lines get declared with buttons too."""
    view = state.view(None)
    phase = view["phase"]
    if phase == "declaring":
        lines = [a.text() for a in state.legal_actions()]
        lines = [t for t in lines if t != "declare none"]
        return rng.choice(lines) if lines and rng.random() < 0.85 else "declare none"
    if phase == "placing":
        return state.sample_action(rng).text()
    candidates = [_candidate(state, view, rng) for _ in range(4)]
    closing = [a for a in candidates if not is_peek(a) and _closes_line(state, a)]
    return rng.choice(closing or candidates)


def _candidate(state: State, view: dict[str, Any], rng: random.Random) -> str:
    down = [c["cell"] for c in view["cells"] if c["state"] == "down"]
    if down and rng.random() < 0.6:
        cell = rng.choice(down)
        if rng.random() < 0.3:
            return f"draw {cell}"
        return f"draw {cell} {rng.choice(('here', 'empty'))} r{rng.choice((0, 90, 180, 270))}"
    return state.sample_action(rng).text()


def _closes_line(state: State, action: str) -> bool:
    # `copy`, not `clone`: the players' choices run in the emulator's process, and must not
    # delay its answers to the bot.
    trial = state.copy()
    try:
        trial.apply(action)
    except Exception:
        return False
    return bool(trial.closable_lines())


def boards_due(data: dict[str, Any]) -> int:
    """Board pictures the bot posts for a stored game: one after the deal and one after every
    action but a look at a drawn card (which only its player sees)."""
    return 1 + sum(not is_peek(text) for text in data["history"])


# ---------------------------------------------------------------------- one channel, one game


@dataclass
class Turn:
    """A person is to move, and everything the bot had to post before that is posted."""

    user_id: int
    phase: str
    version: int
    state: State
    prompt_id: int | None


@dataclass
class Slot:
    """One channel with its two people, who play one game after another in it."""

    channel: Channel
    people: list[User]
    rng: random.Random
    game_id: int | None = None
    seat_users: list[int | None] = field(default_factory=list)
    boards: int = 0  # public board pictures posted for the current game
    pictures: int = 0  # ...and for all its games so far
    replays: int = 0  # replays of its finished games posted
    prompts: dict[int, tuple[int, int]] = field(default_factory=dict)  # user -> (message, ver)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # version, state dict, boards due, the seat an AI plays a move for (a clock ran out)
    parsed: tuple[int, dict[str, Any], int, int | None] | None = None
    state: tuple[int, State] | None = None
    moved_from: int | None = None  # the version a move was sent at, until the game moves on
    moved_by: float = 0.0  # when to stop waiting for that (a refusal that came another way)
    finished: int = 0
    stalls: int = 0
    refused: int = 0
    moves: int = 0  # moves its people sent
    # With a turn clock (--clocked): what its people sent and what the bots told them of it.
    clocked: bool = False
    silence: Silence | None = None  # its person to move is made to go silent
    sent_at: dict[int, set[int]] = field(default_factory=dict)  # game -> action numbers sent
    seats_of: dict[int, list[int | None]] = field(default_factory=dict)  # game -> seat users
    last_game: int | None = None  # the game being played, or the one before while none is
    ran_outs: list[Said] = field(default_factory=list)  # "ran out of time" posts
    warnings: list[Said] = field(default_factory=list)  # clock warnings by DM
    posted: Counter[str] = field(default_factory=Counter)  # nonces of channel messages seen

    def shard(self, shard_count: int) -> int:
        """The shard of this channel's server: which of the bot processes serves it."""
        return shard_of(self.channel.guild_id, shard_count)

    def by_id(self, user_id: int) -> User:
        return next(p for p in self.people if p.id == user_id)

    def saw(self, record: Record) -> None:
        """Called by the emulator for every record in this channel: count board pictures and
        keep each person's latest private prompt, then wake the player waiting for the bot."""
        if record.kind in ANNOUNCING_KINDS and record.is_public and record.has_attachment(BOARD):
            self.boards += 1
            self.pictures += 1
        if record.kind in ANNOUNCING_KINDS and record.is_public and record.has_attachment(REPLAY):
            self.replays += 1
        if record.visibility.kind == "ephemeral" and record.message_id is not None:
            ids = [c for c in record.custom_ids if c.startswith("act:")]
            if ids and record.visibility.user_id is not None:
                version = int(ids[0].split(":")[2])
                self.prompts[record.visibility.user_id] = (record.message_id, version)
        if self.clocked:
            self.saw_clock(record)
        self.changed.set()

    def saw_clock(self, record: Record) -> None:
        """What a game with a turn clock shows of it in the channel: the posts that say a
        person ran out of time, the first board after one (the AI's move for them), and the
        nonce of every message (a post made twice would show it twice)."""
        nonce = record.payload.get("nonce") if record.kind == "channel_message" else None
        if nonce is not None:
            self.posted[str(nonce)] += 1
        if not record.is_public or record.kind not in ANNOUNCING_KINDS:
            return
        silence = self.silence
        if RAN_OUT in record.content and (found := MENTION.search(record.content)):
            user_id = int(found.group(1))
            self.ran_outs.append(Said(record.at, self.last_game, user_id))
            if (
                silence is not None
                and silence.user_id == user_id
                and silence.due_moved_at is not None
            ):
                silence.ran_out_at = silence.ran_out_at or record.at
        elif (
            record.has_attachment(BOARD)
            and silence is not None
            and silence.ran_out_at is not None
            and silence.ai_posted_at is None
        ):
            silence.ai_posted_at = record.at
            silence.acted.set()

    def saw_warning(self, record: Record) -> None:
        """A clock's warning by DM to one of this channel's people."""
        user_id = record.visibility.user_id
        if user_id is None:
            return
        self.warnings.append(Said(record.at, self.last_game, user_id))
        silence = self.silence
        if silence is not None and silence.user_id == user_id and silence.warn_moved_at is not None:
            silence.warned_at = silence.warned_at or record.at
            silence.warned.set()


# ---------------------------------------------------------------------- turn clocks


@dataclass(frozen=True)
class Said:
    """A clock's post seen by the emulator: when (the event loop's clock), in which game (the
    channel's game then), to or about whom."""

    at: float
    game_id: int | None
    user_id: int


@dataclass
class Silence:
    """One person made to go silent on their turn in a game with a clock, until the bots have
    warned them, told the channel they ran out of time and had an AI play their move."""

    slot: Slot
    held: asyncio.Event = field(default_factory=asyncio.Event)  # at their turn, not moving
    warned: asyncio.Event = field(default_factory=asyncio.Event)
    acted: asyncio.Event = field(default_factory=asyncio.Event)  # the AI's move is posted
    lifted: asyncio.Event = field(default_factory=asyncio.Event)  # they may move again
    turn: Turn | None = None
    game_id: int | None = None
    user_id: int | None = None
    clock: ClockRow | None = None
    # The event loop's clock: when the bots' clock was moved past the warning's instant and
    # past the deadline, and when the warning, the words and the AI's move reached Discord.
    warn_moved_at: float | None = None
    due_moved_at: float | None = None
    warned_at: float | None = None
    ran_out_at: float | None = None
    ai_posted_at: float | None = None


@dataclass(frozen=True)
class Jump:
    """The bots' clock moved forward: when (the event loop's clock), to what instant, and the
    clocks of the games in play just before (whose warnings and deadlines it passed)."""

    at: float
    to: str
    clocks: dict[int, ClockRow]

    def instant(self, at: float) -> str:
        """The bots' clock at `at` (the event loop's clock, after the jump): it runs on at the
        real pace, and what falls due in the seconds after the jump falls due too."""
        return stamp(datetime.fromisoformat(self.to) + timedelta(seconds=max(0.0, at - self.at)))

    def warns(self, game_id: int | None, at: float | None = None) -> ClockRow | None:
        """The game's clock if its warning was due by `at` (by default: at the jump)."""
        row = self.clocks.get(game_id or 0)
        until = self.to if at is None else self.instant(at)
        return row if row is not None and row.warn_at is not None and row.warn_at <= until else None

    def runs_out(self, game_id: int | None, at: float | None = None) -> ClockRow | None:
        """The game's clock if it had run out by `at` (by default: at the jump)."""
        row = self.clocks.get(game_id or 0)
        until = self.to if at is None else self.instant(at)
        return row if row is not None and row.deadline <= until else None


class ClockDriver:
    """Moves the bots' clock (written to each bot process's stdin, see `bench/load_bot.py`)
    and makes one clocked game's person after another go silent at their turn: the clock is
    moved past their warning's instant, then past their deadline, and the bots' answers are
    timed from the moment it was moved.

    One jump does both for two people in a row: it passes the deadline of the one silent
    before and the warning of the next one (whose turn began after the jump before, so a
    quarter of an hour of the bots' time after that deadline). The next one is chosen and
    waited for at their turn while the bots answer the jump before. Each jump comes at a
    random moment of the bots' rounds of looking for what is due (CHECK_S), as a deadline
    does, not right after their last look (when the warning before it was just sent).

    The clock is one for every game: a jump also passes the warnings and deadlines of the
    other clocked games whose person has been to move since before the jump before, as an
    hour going by would. Each jump keeps those games' clocks as they were just before it
    (`Jump`), so every warning and every "ran out" post seen is put down to the turn (game
    and deadline) it is for."""

    def __init__(
        self,
        bench: LoadRun,
        processes: list[asyncio.subprocess.Process],
        slots: list[Slot],
    ) -> None:
        self.bench = bench
        self.processes = processes
        self.slots = slots
        self.offset = 0.0  # seconds the bots' clock is ahead of the real time
        self.jumps: list[Jump] = []
        self.silences: list[Silence] = []
        self.closing = asyncio.Event()  # no person is made silent any more
        self._turns = itertools.cycle(slots)
        self._lifting: list[asyncio.Task[None]] = []
        self.rng = random.Random(bench.args.seed)

    async def move_past(self, instant: str, silent: Sequence[Silence]) -> None:
        """Move the bots' clock PAST beyond `instant` (a stamp), never backwards, telling every
        bot process; note the moment in the `silent` whose warning or deadline it passes."""
        clocks = await self.bench.reader.clocks()
        target = datetime.fromisoformat(instant) + PAST
        self.offset = max(self.offset, (target - datetime.now(UTC)).total_seconds())
        line = f"{self.offset!r}\n".encode()
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write(line)
        await asyncio.gather(*(p.stdin.drain() for p in self.processes if p.stdin))
        at = asyncio.get_running_loop().time()
        jump = Jump(at, stamp(target), clocks)
        self.jumps.append(jump)
        for silence in silent:
            assert silence.clock is not None
            if silence.warn_moved_at is None and jump.warns(silence.game_id):
                silence.warn_moved_at = at
            if silence.due_moved_at is None and silence.clock.deadline <= jump.to:
                silence.due_moved_at = at

    def now(self) -> datetime:
        """The bots' clock now."""
        return datetime.now(UTC) + timedelta(seconds=self.offset)

    async def run(self) -> None:
        """Silent people one after another until closing; then the last one is seen through.
        While the bots answer a jump, the next person is waited for at their turn."""
        before: Silence | None = None
        after = await self.next_silent()
        try:
            while after is not None:
                assert after.clock is not None
                # The bots look for what is due every CHECK_S seconds: the jump comes at any
                # moment of that round, as a deadline does (not right after their last look).
                await asyncio.sleep(self.rng.uniform(0.0, CHECK_S))
                await self.move_past(
                    max(after.clock.warn_at or after.clock.deadline, before_deadline(before)),
                    [s for s in (before, after) if s is not None],
                )
                if before is not None:
                    self._lifting.append(asyncio.create_task(self.lift(before)))
                # Its warning (or its timeout, if it was warned already this turn) is done
                # before the next jump passes its deadline.
                told = after.warned if after.clock.warn_at else after.acted
                _, following = await asyncio.gather(within(told.wait(), ACT_S), self.next_silent())
                before, after = after, following
                if after is None:
                    # Closing, or nobody else could be made silent (one clocked game, say):
                    # the one before runs out alone.
                    await self.run_out(before)
                    before = None
                    after = await self.next_silent()
        finally:
            await asyncio.gather(*self._lifting, return_exceptions=True)

    async def run_out(self, silence: Silence) -> None:
        """Move the clock past one silent person's deadline alone, and see it through."""
        assert silence.clock is not None
        await asyncio.sleep(self.rng.uniform(0.0, CHECK_S))
        await self.move_past(silence.clock.deadline, [silence])
        await self.lift(silence)

    async def next_silent(self) -> Silence | None:
        """The next clocked game's person to move, made silent once at their turn, with their
        clock as stored then; None once closing, or if none could be, each game tried once."""
        for _ in range(len(self.slots)):
            if self.closing.is_set():
                return None
            slot = next(self._turns)
            if slot.game_id is None or slot.silence is not None:
                await asyncio.sleep(0.05)
                continue
            silence = Silence(slot)
            slot.silence = silence
            await first_of(silence.held, self.closing, seconds=HOLD_S)
            turn = silence.turn
            row = (await self.bench.reader.clocks()).get(slot.game_id or 0) if turn else None
            # A game that moved on meanwhile, or whose turn began before the last jump (which
            # may have passed its warning), is left be: the next.
            if (
                turn is None
                or row is None
                or row.version != turn.version
                or (row.warn_at or row.deadline) <= stamp(self.now() + CLEAR)
            ):
                slot.silence = None
                silence.lifted.set()
                continue
            silence.game_id, silence.user_id, silence.clock = slot.game_id, turn.user_id, row
            self.silences.append(silence)
            return silence
        return None

    async def lift(self, silence: Silence) -> None:
        """Once the AI has played the silent person's whole move (a drawn card placed, lines
        declared: at once, they would race it), they may move again."""
        reader = self.bench.reader
        assert silence.clock is not None
        try:
            if await within(silence.acted.wait(), ACT_S):
                until = asyncio.get_running_loop().time() + ACT_S
                while asyncio.get_running_loop().time() < until:
                    status, version, _, stand_in = await reader.game(silence.game_id or 0)
                    if status != "active" or (
                        version > silence.clock.version + 1 and stand_in is None
                    ):
                        break
                    await asyncio.sleep(0.05)
        finally:
            silence.slot.silence = None
            silence.lifted.set()


def before_deadline(silence: Silence | None) -> str:
    """The deadline of the person silent before (the empty stamp if none)."""
    return silence.clock.deadline if silence is not None and silence.clock is not None else ""


async def within(waiting: Awaitable[Any], seconds: float) -> bool:
    """Whether `waiting` was done within `seconds`."""
    try:
        await asyncio.wait_for(waiting, seconds)
    except TimeoutError:
        return False
    return True


async def first_of(*events: asyncio.Event, seconds: float | None) -> None:
    """Wait until one of `events` is set, or `seconds` have gone by."""
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


@dataclass
class Duty:
    """What the bots did for one turn whose clock a jump made due (a game and its deadline):
    the warnings and "ran out" posts seen for it, and the AI's moves for its person."""

    game_id: int
    deadline: str | None  # None: no jump explains it (it is counted all the same)
    clock: ClockRow | None = None
    user_id: int | None = None  # the person to move
    silenced: Silence | None = None
    warnings: int = 0
    texts: int = 0
    ai_turns: int = 0  # moves an AI made for the person after the timeout, stored
    ai_posted: int = 0  # ...of which the board post reached the channel
    posted_twice: int = 0  # the AI's board posts that reached the channel twice

    @property
    def label(self) -> str:
        when = self.deadline[11:23] if self.deadline else "no jump made it due"
        return f"game {self.game_id} (deadline {when})"


def said_for(said: Said, jumps: list[Jump], due: str) -> ClockRow | None:
    """The clock of `said`'s game as it was at the last jump before it that made its warning
    (`due` "warns") or its deadline ("runs_out") due by the time it was said; None if none
    did."""
    for jump in reversed(jumps):
        if jump.at <= said.at and (row := getattr(jump, due)(said.game_id, said.at)) is not None:
            return row
    return None


async def clock_duties(driver: ClockDriver, reader: GameReader) -> tuple[list[Duty], list[str]]:
    """Every turn the jumps made due, with what was done for it, and what was done for no
    turn (an AI's move for a person whose time had not run out, say).

    The warnings and "ran out" posts are the emulator's records, each put down to the turn
    its game was at when the last jump before it made it due. The AI's moves are the
    outbox's move posts of the games (`MovePost`): one at a person's seat that the person did
    not send is an AI's, and the AI's in a row at one seat are one move (a drawn card placed,
    lines declared), put down to the timeout before it; its posts are looked for in the
    channel by their nonce."""
    duties: dict[tuple[int, str | None], Duty] = {}

    def duty(game_id: int, row: ClockRow | None, user_id: int | None) -> Duty:
        key = (game_id, row.deadline if row else None)
        if key not in duties:
            duties[key] = Duty(game_id, key[1], row, user_id)
        return duties[key]

    for silence in driver.silences:
        assert silence.game_id is not None
        duty(silence.game_id, silence.clock, silence.user_id).silenced = silence
    slot_of: dict[int, Slot] = {}
    for slot in driver.slots:
        for said in slot.warnings:
            row = said_for(said, driver.jumps, "warns")
            duty(said.game_id or 0, row, said.user_id).warnings += 1
        for said in slot.ran_outs:
            row = said_for(said, driver.jumps, "runs_out")
            duty(said.game_id or 0, row, said.user_id).texts += 1
        slot_of.update((game_id, slot) for game_id in slot.seats_of)
    timed_out = sorted({d.game_id for d in duties.values() if d.texts or d.silenced})
    unexplained = []
    posts = await reader.move_posts(timed_out)
    for game_id in timed_out:
        slot = slot_of[game_id]
        seats = slot.seats_of[game_id]
        sent = slot.sent_at.get(game_id, set())
        # The timeouts of this game, by the action each AI move would be from on.
        outs = sorted(
            (d.clock.actions, d)
            for d in duties.values()
            if d.game_id == game_id and d.clock is not None and (d.texts or d.silenced)
        )
        turns: list[list[MovePost]] = []
        for post in sorted((p for p in posts if p.game_id == game_id), key=lambda p: p.version):
            if seats[post.seat] is None or post.first in sent:
                turns.append([])  # an AI seat's, or a person's own: the AI's run is over
            elif turns and turns[-1] and turns[-1][-1].seat == post.seat:
                turns[-1].append(post)
            else:
                turns.append([post])
        for turn in (t for t in turns if t):
            user_id = seats[turn[0].seat]
            before = [d for n, d in outs if n <= turn[0].first and d.user_id == user_id]
            if not before:
                unexplained.append(
                    f"game {game_id}: an AI moved for a person at action "
                    f"{turn[0].first}, with no timeout before"
                )
                continue
            owner = before[-1]
            owner.ai_turns += 1
            seen = [slot.posted[p.nonce] for p in turn]
            owner.ai_posted += any(seen)
            owner.posted_twice += sum(1 for n in seen if n > 1)
    return sorted(duties.values(), key=lambda d: (d.game_id, d.deadline or "")), unexplained


# ---------------------------------------------------------------------- the run


class LoadRun:
    """The scripted people of every channel, and what they sent: one emulator, one bot."""

    def __init__(self, emu: LoadEmulator, reader: GameReader, args: argparse.Namespace) -> None:
        self.emu = emu
        self.reader = reader
        self.args = args
        self.phase = "warm-up"
        self.stop = asyncio.Event()
        self.sent: list[Sent] = []
        self.lags: list[float] = []
        self.refusals: list[str] = []
        self.slots: dict[int, Slot] = {}
        emu.on_record(self._route)

    def _route(self, record: Record) -> None:
        slot = self.slots.get(record.channel_id or 0)
        if slot is not None:
            slot.saw(record)
        elif (
            self.args.clocked
            and record.kind == "dm"
            and WARNED in record.content
            and (found := CHANNEL_MENTION.search(record.content))
        ):
            # A warning names the game's channel: it is that channel's people's.
            slot = self.slots.get(int(found.group(1)))
            if slot is not None:
                slot.saw_warning(record)

    def add_slot(self, channel: Channel, index: int) -> Slot:
        people = [self.emu.add_user(f"Ada {index}"), self.emu.add_user(f"Bo {index}")]
        slot = Slot(channel, people, random.Random(self.args.seed * 1_000_003 + index))
        self.slots[channel.id] = slot
        return slot

    async def send(
        self, kind: str, sending: Awaitable[InteractionState]
    ) -> InteractionState | None:
        """Send one interaction and wait for its acknowledgement; None if it never came."""
        phase = self.phase
        state = await sending
        self.sent.append(Sent(kind, phase, state))
        return state if await self.emu.acknowledged(state) else None

    async def abandon(self, user: User, channel: Channel) -> None:
        """/game abandon and the red button of the question it asks first."""
        state = await self.send("lobby", self.emu.send_slash(user, "game abandon", channel=channel))
        question = self.emu.messages_by_id.get(state.original_message_id or 0) if state else None
        sure = [b.custom_id for b in (question.buttons if question else ()) if b.style == DANGER]
        if question is not None and sure and sure[0] is not None:
            await self.send("lobby", self.emu.send_click(user, sure[0], message_id=question.id))

    # ------------------------------------------------------------------ lobby

    async def open_game(self, slot: Slot) -> bool:
        """/game new, Join, Add AI (per AI seat), Start: the buttons of the lobby message."""
        ada, bo = slot.people
        slot.game_id, slot.boards, slot.parsed, slot.state = None, 0, None, None
        slot.moved_from = None
        slot.prompts.clear()
        emu = self.emu
        options: dict[str, Any] = {"game": "high-voltage"}
        if self.args.clocked:
            # The bots' clock jumps an hour at a time: a reminder after 10 minutes (the
            # default) would be due in every game at every jump, which no server sees.
            options["reminder"] = 0
        if slot.clocked:
            options["clock"] = CLOCK_MINUTES
        state = await self.send(
            "lobby", emu.send_slash(ada, "game new", channel=slot.channel, **options)
        )
        if state is None:
            return False
        lobby = emu.messages_by_id.get(state.original_message_id or 0)
        buttons = lobby.buttons if lobby is not None else ()
        joins = [b.custom_id for b in buttons if (b.custom_id or "").endswith(":join")]
        if lobby is None or state.callback_type != 4 or not joins:
            # The channel still holds a game (one that did not end): abandon it, start afresh.
            await self.abandon(ada, slot.channel)
            return False
        game_id = int(str(joins[0]).split(":")[1])
        steps = [(bo, "join")] + [(ada, "addai")] * self.args.ai_seats + [(ada, "start")]
        for user, what in steps:
            custom_id = f"lobby:{game_id}:{what}"
            state = await self.send("lobby", emu.send_click(user, custom_id, message_id=lobby.id))
            if state is None or state.callback_type != 7:
                return False
        slot.game_id = slot.last_game = game_id
        slot.seat_users = await self.reader.seat_users(game_id)
        if slot.clocked:
            slot.seats_of[game_id] = slot.seat_users
        return True

    # ------------------------------------------------------------------ play

    async def turn(self, slot: Slot) -> Turn | str | None:
        """The next person's turn once the bot has posted everything due, FINISHED once the
        game's last picture is posted, or None while the bot (or an AI seat) is still busy."""
        if slot.game_id is None:
            return None
        status, version = await self.reader.version(slot.game_id)
        if slot.parsed is None or slot.parsed[0] != version:
            status, version, raw, stand_in = await self.reader.game(slot.game_id)
            if raw is None:
                return None
            data = json.loads(raw)
            slot.parsed = (version, data, boards_due(data), stand_in)
        _, data, due, stand_in = slot.parsed
        if slot.boards < due:
            return None
        if slot.moved_from is not None:
            # A move is answered when the game has moved on; the bot may store it before or
            # after acknowledging, so the acknowledgement alone does not say it is done.
            if version <= slot.moved_from:
                if time.monotonic() < slot.moved_by:
                    return None
                slot.refused += 1  # acknowledged, yet nothing changed: refused some other way
            slot.moved_from = None
        if status != "active":
            return FINISHED
        if slot.state is None or slot.state[0] != version:
            slot.state = (version, RULES.state_from_dict(data))
        state = slot.state[1]
        seat = state.current_seat()
        user_id = slot.seat_users[seat] if seat is not None else None
        if user_id is None or seat == stand_in:
            return None  # an AI seat is to move, or an AI plays this one's move (out of time)
        phase = data.get("phase") or state.view(None)["phase"]
        prompt = slot.prompts.get(user_id)
        if phase in ("placing", "declaring"):
            if prompt is None or prompt[1] != version:
                return None
            return Turn(user_id, phase, version, state, prompt[0])
        return Turn(user_id, phase, version, state, None)

    def going(self, until: float | None) -> bool:
        """Whether players go on: until the run stops, or until `until` (the loop's clock).

        A deadline rather than a timeout around `play`: on Python 3.11, `asyncio.wait_for`
        swallows a cancellation that arrives as the awaited future completes, and the 1 s
        waits inside `play` make that likely; a warm-up player so cancelled played forever."""
        return not self.stop.is_set() and (
            until is None or asyncio.get_running_loop().time() < until
        )

    async def next_turn(self, slot: Slot, until: float | None = None) -> Turn | str | None:
        """Wait (woken by the bot's messages in the channel) for `turn`; None once stopped."""
        loop = asyncio.get_running_loop()
        since = loop.time()
        while self.going(until):
            slot.changed.clear()
            found = await self.turn(slot)
            if found is not None:
                return found
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(slot.changed.wait(), 1.0)
            if loop.time() - since > STALL_SECONDS:
                slot.stalls += 1
                await self.ask_for_board(slot)
                since = loop.time()
        return None

    async def ask_for_board(self, slot: Slot) -> None:
        """What a person does when a move of theirs got no answer ('The application did not
        respond': the bot may have stored it but could not post it): /game board, which shows
        the board again, and their private prompt if they have one. Then count what was due
        as posted, since the bot will not post it any more."""
        if slot.game_id is None:
            return
        raw = (await self.reader.game(slot.game_id))[2]
        asking = slot.people[0]
        if raw is not None:
            state = RULES.state_from_dict(json.loads(raw))
            seat = None if state.is_terminal() else state.current_seat()
            user_id = slot.seat_users[seat] if seat is not None else None
            asking = slot.by_id(user_id) if user_id is not None else asking
        sending = self.emu.send_slash(asking, "game board", channel=slot.channel)
        answer = await self.send("board", sending)
        deadline = time.monotonic() + 5.0
        while answer is not None and answer.placeholder_pending and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        slot.parsed, slot.moved_from = None, None
        if raw is not None:
            slot.boards = boards_due(json.loads(raw))

    async def take_turn(self, slot: Slot, turn: Turn) -> None:
        action = choose(turn.state, slot.rng)
        user = slot.by_id(turn.user_id)
        emu = self.emu
        # With a clock, the number the move gets if it is stored: any other action stored at a
        # person's seat is an AI's, playing for them.
        sent = slot.sent_at.setdefault(slot.game_id or 0, set()) if slot.clocked else set()
        number = len(turn.state.history)
        sent.add(number)
        try:
            if turn.prompt_id is not None:
                custom_id = f"act:{slot.game_id}:{turn.version}:{action.replace(' ', '_')}"
                sending = emu.send_click(user, custom_id, message_id=turn.prompt_id)
                state = await self.send("button", sending)
            else:
                command, options = command_for(action)
                sending = emu.send_slash(user, command, channel=slot.channel, **options)
                state = await self.send("command", sending)
        except EmulatorUsageError as exc:
            self.refusals.append(f"not sendable: {exc}")
            sent.discard(number)
            slot.refused += 1
            await asyncio.sleep(0.2)
            return
        if state is not None and state.callback_type == 4:
            # A move is answered by deferring; a message instead is the bot refusing it.
            slot.refused += 1
            sent.discard(number)
            message = emu.messages_by_id.get(state.original_message_id or 0)
            self.refusals.append(f"{action!r}: {message.content if message else '?'}")
            await asyncio.sleep(0.2)
        else:
            slot.moves += 1
            # Also when the acknowledgement never came: the bot may still store the move late,
            # so sending another one at once would be a second move at the same position.
            slot.moved_from, slot.moved_by = turn.version, time.monotonic() + MOVE_TIMEOUT

    async def play(self, slot: Slot, *, until: float | None = None, think: bool = False) -> None:
        """Move whenever it is one of this channel's people's turn, until stopped (or `until`,
        see `going`), after thinking if `think` (see `thought`); a finished game is followed by
        a new one."""
        while self.going(until):
            if slot.game_id is None:
                if not await self.open_game(slot):
                    await asyncio.sleep(0.5)
                continue
            found = await self.next_turn(slot, until)
            if found is None:
                return
            if isinstance(found, Turn):
                if slot.silence is not None:
                    await self.keep_silent(slot, slot.silence, found)
                    continue
                if think and await self.thought(slot):
                    return
                await self.take_turn(slot, found)
            else:
                slot.finished += 1
                slot.game_id = None

    async def keep_silent(self, slot: Slot, silence: Silence, turn: Turn) -> None:
        """The person to move says nothing until the silence is lifted (or the run stops); the
        turn they were at is the silence's."""
        if silence.turn is None:
            silence.turn = turn
            silence.held.set()
        await first_of(silence.lifted, self.stop, seconds=None)

    async def thought(self, slot: Slot) -> bool:
        """Wait a person's thinking time (`--think`, give or take half); True if stopped."""
        pause = self.args.think * slot.rng.uniform(0.5, 1.5)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), pause)
        return self.stop.is_set()

    async def watch_loop_lag(self) -> None:
        """How late this process's event loop wakes: the emulator's own delay."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.02)
            if self.phase == "timed":
                self.lags.append(loop.time() - start - 0.02)


# ---------------------------------------------------------------------- the bot process


@dataclass(frozen=True)
class Plan:
    """One measurement: where the bot stores its games, and how many processes serve them."""

    database: str  # "sqlite" or "postgresql"
    processes: int

    @property
    def label(self) -> str:
        name = "SQLite" if self.database == "sqlite" else "PostgreSQL"
        return f"{name}, {self.processes} process{'' if self.processes == 1 else 'es'}"


async def start_bot(
    emu: LoadEmulator,
    database: str,
    log: IO[bytes],
    args: argparse.Namespace,
    *,
    guild_id: int | None,
    shard: tuple[int, int] | None,
    metrics_port: int,
) -> asyncio.subprocess.Process:
    """The bot in its own process (its own session, so a Ctrl-C here reaches only us and we
    stop it cleanly); it prints `ready` once connected. `database` is a SQLite file or a
    PostgreSQL URL; `shard` is (k, n) for shard k of n, None for the bot's own choice;
    without `guild_id` the commands are registered for every server."""
    command = [
        sys.executable,
        str(_HERE / "load_bot.py"),
        f"--api-base={emu.api_base}",
        f"--gateway={emu.gateway_url}",
        f"--database={database}",
        f"--token={emu.token}",
        f"--ai-pause={args.ai_pause}",
        f"--log-level={args.bot_log_level}",
        f"--drawing-processes={args.drawing_processes}",
        f"--metrics-port={metrics_port}",
    ]
    if args.clocked:
        command.append("--moved-clock")
    if guild_id is not None:
        command.append(f"--guild-id={guild_id}")
    if shard is not None:
        command += [f"--shard-count={shard[1]}", f"--shard-ids={shard[0]}"]
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=log,
        start_new_session=True,
    )
    assert process.stdout is not None
    line = b""
    with contextlib.suppress(TimeoutError):
        line = await asyncio.wait_for(process.stdout.readline(), 60)
    if line.strip() != b"ready":
        await stop_bot(process)
        raise RuntimeError("the bot process did not start; its log says:\n" + tail(log.name))
    _METRICS_PORTS[process.pid] = metrics_port
    return process


async def stop_bot(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), 15)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
    if process.stdin is not None:
        process.stdin.close()


async def start_bots(
    emu: LoadEmulator,
    database: str,
    logs: list[IO[bytes]],
    args: argparse.Namespace,
    plan: Plan,
) -> list[asyncio.subprocess.Process]:
    """The plan's bot processes, started together as a deployment starts them. One process
    registers its commands in the one server, as before there could be several; several
    processes each run one shard (SHARD_COUNT and SHARD_IDS) and register them for every
    server, since the games are spread over one server per shard."""
    n = plan.processes
    guild_id = emu.guild_id if n == 1 else None
    shards: list[tuple[int, int] | None] = (
        [None] if plan.database == "sqlite" else [(k, n) for k in range(n)]
    )
    started = await asyncio.gather(
        *(
            start_bot(emu, database, log, args, guild_id=guild_id, shard=shard, metrics_port=port)
            for log, shard, port in zip(logs, shards, metrics_ports(len(shards)), strict=True)
        ),
        return_exceptions=True,
    )
    processes = [p for p in started if isinstance(p, asyncio.subprocess.Process)]
    failed = [p for p in started if isinstance(p, BaseException)]
    if failed:
        await asyncio.gather(*(stop_bot(p) for p in processes))
        raise failed[0]
    return processes


# Each bot process serves its metrics (METRICS_PORT) on a port of its own, which the benchmark
# reads its database round trips from (`round_trips`).
_METRICS_PORTS: dict[int, int] = {}  # bot process id -> its metrics port


def metrics_ports(count: int) -> list[int]:
    """Ports free on loopback now, one for each bot process to serve its metrics on."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for each in sockets:
            each.bind(("127.0.0.1", 0))
        return [each.getsockname()[1] for each in sockets]
    finally:
        for each in sockets:
            each.close()


async def round_trips(processes: Sequence[asyncio.subprocess.Process]) -> float:
    """The requests the bot processes have sent to PostgreSQL so far and waited for (each a
    round trip: a statement, or a BEGIN or COMMIT), as their metrics count them; 0 on SQLite,
    which runs inside the bot's own process."""
    total = 0.0
    async with aiohttp.ClientSession() as session:
        for process in processes:
            url = f"http://127.0.0.1:{_METRICS_PORTS[process.pid]}/metrics"
            async with session.get(url) as answer:
                text = await answer.text()
            for family in text_string_to_metric_families(text):
                if family.name == "hvbot_database_round_trips":
                    total += sum(s.value for s in family.samples if s.name.endswith("_total"))
    return total


def lay_out(
    args: argparse.Namespace, plan: Plan
) -> tuple[LoadEmulator, list[Channel], list[Channel]]:
    """The emulator, and the channels of the warm-up games and of the games, one each.

    One process: one server holds them all, as before there could be several processes.
    Several: one server per shard, and the channels dealt out among them in turn, so each
    process serves its share of the games (and of the warm-up, so each is warm)."""
    warm_names = [f"warm-up-{i + 1}" for i in range(min(WARM_UP_GAMES, args.games))]
    game_names = [f"game-{i + 1}" for i in range(args.games)]
    spec = True if args.validate else None
    n = plan.processes
    if n == 1:
        emu = LoadEmulator(spec_path=spec, channel_names=[*warm_names, *game_names])
        channels = list(emu.channels.values())
        return emu, channels[: len(warm_names)], channels[len(warm_names) :]
    # Discord lets a bot this size identify as many shards at once as it runs.
    emu = LoadEmulator(spec_path=spec, channel_names=["general"], max_concurrency=n)
    guilds = [emu.add_guild(f"Board game club {k + 1}", shard=(k, n)) for k in range(n)]

    def deal(names: list[str]) -> list[Channel]:
        return [emu.add_channel(name, guilds[i % n]) for i, name in enumerate(names)]

    return emu, deal(warm_names), deal(game_names)


def bot_log_path(args: argparse.Namespace, plan: Plan, k: int, folder: Path, several: bool) -> Path:
    """Where process `k` of the plan logs: `--bot-log` itself for the one process of a run
    that measures once, a name made from it otherwise, so no run's log overwrites another's."""
    if args.bot_log is None:
        return folder / ("bot.log" if plan.processes == 1 else f"bot-{k}.log")
    if plan.processes == 1 and not several:
        return args.bot_log
    stem, suffix = args.bot_log.stem, args.bot_log.suffix
    return args.bot_log.with_name(f"{stem}-{plan.database}-{plan.processes}p-{k}{suffix}")


def tail(path: str, lines: int = 20) -> str:
    return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])


def logged(path: str, words: str) -> int:
    """How many lines of the bot's log hold `words`."""
    return sum(words in line for line in Path(path).read_text(errors="replace").splitlines())


def logged_errors(path: str) -> list[str]:
    """The bot's ERROR and CRITICAL log lines (each with its logger and message)."""
    text = Path(path).read_text(errors="replace")
    return [line for line in text.splitlines() if " ERROR " in line or " CRITICAL " in line]


# ---------------------------------------------------------------------- main


async def run(
    args: argparse.Namespace,
    plan: Plan,
    postgres_url: str | None,
    *,
    database_pid: int | None = None,
    several: bool = False,
) -> dict[str, Any]:
    """One measurement: the plan's bot processes on a fresh database (the SQLite file in a
    temporary folder, or the empty PostgreSQL database `postgres_url`, whose server's main
    process is `database_pid`)."""
    # Ctrl-C cancels this task (asyncio.run sees to that); make a plain `kill` do the same, so
    # the bot processes, the emulator and the temporary folder are cleaned up either way.
    main_task = asyncio.current_task()
    assert main_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    before = min(probe_ms() for _ in range(5))
    with tempfile.TemporaryDirectory(prefix="hvbot-load-") as folder:
        sqlite_file = Path(folder) / "games.sqlite3"
        database = postgres_url or str(sqlite_file)
        emu, warm_channels, game_channels = lay_out(args, plan)
        await emu.start()
        paths = [bot_log_path(args, plan, k, Path(folder), several) for k in range(plan.processes)]
        with contextlib.ExitStack() as logs:
            handles = [logs.enter_context(open(path, "wb")) for path in paths]
            processes: list[asyncio.subprocess.Process] = []
            reader: GameReader | None = None
            try:
                processes = await start_bots(emu, database, handles, args, plan)
                reader = (
                    await PostgresReader.open(postgres_url)
                    if postgres_url
                    else SqliteReader(sqlite_file)
                )
                found = await measure(
                    emu,
                    reader,
                    processes,
                    paths,
                    args,
                    plan,
                    warm_channels,
                    game_channels,
                    database_pid=database_pid,
                )
                return {**found, "probe_before": before}
            finally:
                if reader is not None:
                    await reader.close()
                await asyncio.gather(*(stop_bot(p) for p in processes))
                await emu.close()
                # What this measurement kept frozen (see `measure`) is not the next one's.
                gc.unfreeze()


async def measure(
    emu: LoadEmulator,
    reader: GameReader,
    processes: list[asyncio.subprocess.Process],
    log_paths: list[Path],
    args: argparse.Namespace,
    plan: Plan,
    warm_channels: list[Channel],
    game_channels: list[Channel],
    *,
    database_pid: int | None = None,
) -> dict[str, Any]:
    pids = [process.pid for process in processes]
    n = plan.processes
    loop = asyncio.get_running_loop()
    bench = LoadRun(emu, reader, args)
    lag_watch = asyncio.create_task(bench.watch_loop_lag())
    players: list[asyncio.Task[None]] = []
    driving: asyncio.Task[None] | None = None
    try:
        rss_started = rss_kb(*pids)

        warm_slots = [bench.add_slot(ch, -i - 1) for i, ch in enumerate(warm_channels)]
        warm_until = loop.time() + args.warm_up
        last_call = warm_until + (WARM_UP_FINISH_S if args.warm_up > 0 else 0.0)

        def warm() -> bool:
            """Every process has finished a game and drawn its boards: each pays once."""
            return all(
                any(s.finished for s in mine)
                and sum(s.pictures for s in mine) >= args.warm_up_boards
                for k in range(n)
                if (mine := [s for s in warm_slots if s.shard(n) == k])
            )

        async def warm_up(slot: Slot) -> None:
            await bench.play(slot, until=warm_until)
            while not warm() and loop.time() < last_call:
                await bench.play(slot, until=min(loop.time() + 1.0, last_call))
            await bench.abandon(slot.people[0], slot.channel)

        await asyncio.gather(*(warm_up(slot) for slot in warm_slots))
        warm_up_finished = sum(s.finished for s in warm_slots)
        # A finished game's replay is drawn after it, in the worker that also thinks for the AI
        # seats: at rest is once the last of them is posted.
        replays_due = loop.time() + REPLAYS_S
        while sum(s.replays for s in warm_slots) < warm_up_finished and loop.time() < replays_due:
            await asyncio.sleep(0.2)
        warm_up_boards = sum(s.pictures for s in warm_slots)
        await asyncio.sleep(REST_SECONDS)
        rss_rest, own_rest = rss_kb(*pids), rss_kb(*pids, descendants=False)

        bench.phase = "set-up"
        slots = [bench.add_slot(ch, i + 1) for i, ch in enumerate(game_channels)]
        # The games with a turn clock, spread over the games (and so over the processes).
        for i in range(args.clocked):
            slots[i * args.games // args.clocked].clocked = True
        at_once = asyncio.Semaphore(SETUP_AT_ONCE)

        setup_start = loop.time()
        setup_deadline = setup_start + max(60.0, 1.0 * args.games)

        async def set_up(slot: Slot) -> bool:
            async with at_once:
                while loop.time() < setup_deadline:
                    if await bench.open_game(slot):
                        return True
                    await asyncio.sleep(0.5)
                return False

        opened = await asyncio.gather(*(set_up(s) for s in slots))
        setup_seconds = loop.time() - setup_start
        playing = [s for s, ok in zip(slots, opened, strict=True) if ok]
        rss_setup = rss_kb(*pids)
        # This process holds every record of the run; left to the collector, a full pass over
        # them stalls the emulator for a few hundred ms, which would be counted as the bot's.
        gc.collect()
        gc.freeze()

        # Half the games play first, then all: what the second half adds to the most memory
        # in use is what a playing game costs on its own, without what a process pays once
        # play begins at all (caches of picture pieces and labels, pools, the allocator's
        # reserve). Latencies are only counted once all the games play.
        think = args.think > 0
        bench.phase = "ramp"
        first, second = playing[: len(playing) // 2], playing[len(playing) // 2 :]
        players = [asyncio.create_task(bench.play(s, think=think)) for s in first]
        rss_half = await sample_rss(pids, loop, args.seconds / 2)

        bench.phase = "joining"
        join_start = loop.time()
        players += [asyncio.create_task(bench.play(s, think=think)) for s in second]
        while loop.time() - join_start < JOIN_SECONDS and not all(s.moves for s in second):
            await asyncio.sleep(0.1)
        joined_seconds = loop.time() - join_start
        await asyncio.sleep(SETTLE_SECONDS)

        bench.phase = "timed"
        counts_before = await reader.action_counts()
        reads_before = reader.reads
        trips_before = await round_trips(processes)
        cpu_before, cpu_self = [cpu_seconds(pid) for pid in pids], time.process_time()
        cpu_database = cpu_seconds(database_pid) if database_pid else 0.0
        start = loop.time()
        driver = ClockDriver(bench, processes, [s for s in playing if s.clocked])
        if driver.slots:
            driving = asyncio.create_task(driver.run())
        rss_samples, own_samples = [], []
        probes: list[float] = []
        probed = start
        while loop.time() - start < args.seconds:
            await asyncio.sleep(min(0.5, max(0.0, args.seconds - (loop.time() - start))))
            rss_samples.append(rss_kb(*pids))
            own_samples.append(rss_kb(*pids, descendants=False))
            if loop.time() - probed >= PROBE_EVERY:
                probes.append(probe_ms())
                probed = loop.time()
        elapsed = loop.time() - start
        bench.phase = "stopping"
        counts = await reader.action_counts()
        reads = reader.reads - reads_before
        trips = await round_trips(processes) - trips_before
        cpu_bots = [cpu_seconds(pid) - was for pid, was in zip(pids, cpu_before, strict=True)]
        cpu_self = time.process_time() - cpu_self
        if database_pid:
            cpu_database = cpu_seconds(database_pid) - cpu_database
        (actions, people_moves), (actions_was, people_was) = totals(counts), totals(counts_before)
        actions, people_moves = actions - actions_was, people_moves - people_was
        # Each process's share: the actions of the games in the servers on its shard (an AI
        # seat's move may be thought out by whichever process claimed it; it is the game's).
        per_process = []
        for k, (pid, cpu) in enumerate(zip(pids, cpu_bots, strict=True)):
            mine, mine_before = on_shard(counts, k, n), on_shard(counts_before, k, n)
            per_process.append(
                {
                    "shard": k,
                    "pid": pid,
                    "cpu": cpu,
                    "actions": mine[0] - mine_before[0],
                    "people_moves": mine[1] - mine_before[1],
                }
            )
        driver.closing.set()
        if driving is not None:
            # The person silent when the timed play ended is seen through while the others
            # play on (stopped, they would all be late at its jump).
            await asyncio.wait([driving], timeout=HOLD_S + 3 * ACT_S)
        bench.stop.set()
        if players:
            await asyncio.wait(players, timeout=INTERACTION_WINDOW + 5)
        if driving is not None:
            await asyncio.sleep(AFTER_S)  # every process's check runs again: a duty done twice
        duties, unexplained = await clock_duties(driver, reader)
    finally:
        bench.stop.set()
        tasks = [*players, lag_watch, *([driving] if driving else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    timed = [s for s in bench.sent if s.phase == "timed"]
    setup = [s for s in bench.sent if s.phase == "set-up"]
    joining = [s for s in bench.sent if s.phase == "joining"]
    rss_active = max(rss_samples) if rss_samples else rss_kb(*pids)
    own_active = max(own_samples) if own_samples else rss_kb(*pids, descendants=False)
    return {
        "args": args,
        "plan": plan,
        "pids": pids,
        "per_process": per_process,
        "timed": timed,
        "setup": setup,
        "setup_seconds": setup_seconds,
        "joining": joining,
        "joined_seconds": joined_seconds,
        "playing": playing,
        "elapsed": elapsed,
        "actions": actions,
        "people_moves": people_moves,
        "cpu_bot": sum(cpu_bots),
        "cpu_self": cpu_self,
        "cpu_database": cpu_database if database_pid else None,
        "reads": reads,
        "round_trips": trips,
        "rss_started": rss_started,
        "rss_rest": rss_rest,
        "warm_up_finished": warm_up_finished,
        "warm_up_boards": warm_up_boards,
        "own_rest": own_rest,
        "own_active": own_active,
        "rss_setup": rss_setup,
        "rss_active": rss_active,
        "rss_half": max(rss_half, default=rss_active),
        "half_games": len(first),
        "lags": bench.lags,
        "probes": probes,
        "refusals": bench.refusals,
        "errors": [line for path in log_paths for line in logged_errors(path)],
        "clocked": len(driver.slots),
        "duties": duties,
        "unexplained": unexplained,
        "jumps": len(driver.jumps),
        "clock_moved_s": driver.offset,
        "nonce_refused": emu.duplicates_refused,
        "withdrawn": sum(logged(path, "withdrawn") for path in log_paths),
    }


def slowdown(before: float, probes: Sequence[float]) -> float:
    """How many times slower than its fastest the machine was at its slowest, if the host
    slowed it during the run (see SLOWED and SPIKED); 0.0 if it held its speed.

    Against the fastest probe, before the run or during it: the machine may have been slow
    already when the run began."""
    timed = [before, *probes]
    fastest = min(timed)
    if not fastest > 0:  # no probe, or none that could be read
        return 0.0
    held = max(min(pair) for pair in itertools.pairwise(timed)) / fastest
    spiked = max(timed) / fastest
    if held >= SLOWED or spiked >= SPIKED:
        return max(held, spiked)
    return 0.0


def probe_ms() -> float:
    """This thread's CPU time for a fixed piece of pure Python, in ms. CPU time rather than
    wall time, so other processes running meanwhile do not count; a host that slows the
    machine's cores down does."""
    start = time.thread_time()
    total = 0
    for i in range(PROBE_LOOPS):
        total += i * i
    return (time.thread_time() - start) * 1000


async def sample_rss(pids: list[int], loop: asyncio.AbstractEventLoop, seconds: float) -> list[int]:
    """The bots' resident memory every half second for `seconds`."""
    samples = []
    end = loop.time() + seconds
    while loop.time() < end:
        await asyncio.sleep(min(0.5, max(0.0, end - loop.time())))
        samples.append(rss_kb(*pids))
    return samples


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
    for line in found["unexplained"]:
        print(red(f"  UNEXPLAINED {line}"))
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


def report(found: dict[str, Any]) -> dict[str, Any]:
    """Print the table for people; return the figures for the JSON line."""
    args = found["args"]
    timed: list[Sent] = found["timed"]
    playing: list[Slot] = found["playing"]
    elapsed = found["elapsed"]
    every = latencies_ms(timed)
    p50, p95, p99 = (percentile(every, q) for q in (0.50, 0.95, 0.99))
    worst = max(every, default=float("nan"))
    missed = sum(1 for s in timed if s.state.ack_latency is None)
    refused = sum(s.refused for s in playing)
    stalls = sum(s.stalls for s in playing)
    per_game_kb = (found["rss_active"] - found["rss_rest"]) / args.games
    added_kb = added_game_kb(found, args.games, len(playing) - found["half_games"])
    held_kb = (found["rss_setup"] - found["rss_rest"]) / args.games
    # The bot's own process apart from its workers: what play adds to the workers is mostly
    # their caches of picture pieces and labels, bounded in size, filling over the first few
    # thousand boards a process draws, however many games those come from.
    own_kb = (found["own_active"] - found["own_rest"]) / args.games
    lag_ms = [x * 1000 for x in found["lags"]]
    setup_ms = latencies_ms(found["setup"])
    ai = f"{args.ai_seats} AI seat{'s' if args.ai_seats != 1 else ''}"
    pace = f"after thinking {args.think:g} s (give or take half)" if args.think else "at once"

    plan: Plan = found["plan"]
    pids = found["pids"]
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
        f" bot has answered; {elapsed:.1f} s of play"
    )
    print(
        f"set-up: {len(playing)} of {args.games} games opened and started in "
        f"{found['setup_seconds']:.1f} s ({len(setup_ms)} interactions, "
        f"p99 {percentile(setup_ms, 0.99):.0f} ms)"
    )
    joining_ms = latencies_ms(found["joining"])
    print(
        f"the second half joining the play at once: every one of them moved within "
        f"{found['joined_seconds']:.1f} s ({len(joining_ms)} interactions, p99 "
        f"{percentile(joining_ms, 0.99):.0f} ms; not counted below)"
    )
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
        f" above): {missed}; moves refused: {refused}; games stuck {STALL_SECONDS:g} s "
        f"(then /game board): {stalls}"
    )
    for text in found["refusals"][:3]:
        print(f"  refused: {text}")
    print(
        f"game actions stored: {found['actions']} ({found['actions'] / elapsed:.1f}/s, of which"
        f" people's moves {found['people_moves'] / elapsed:.1f}/s); games finished and "
        f"reopened: {sum(s.finished for s in playing)}"
    )
    mb = 1 / 1024
    print(
        f"bot memory (VmRSS): {found['rss_started'] * mb:.1f} MB started, "
        f"{found['rss_rest'] * mb:.1f} MB at rest after warm-up "
        f"({found['warm_up_boards']} boards drawn and {found['warm_up_finished']} game(s) "
        "finished in the warm-up), "
        f"{found['rss_setup'] * mb:.1f} MB with the games started ({held_kb:.1f} kB a game), "
        f"{found['rss_active'] * mb:.1f} MB at most while they play "
        f"({per_game_kb:.1f} kB a game)"
    )
    adds = (
        "what each game that joins adds is not measurable in this run"
        if math.isnan(added_kb)
        else f"each game that joins the play adds {added_kb:.1f} kB (its share once started "
        "included), without what play costs a process once"
    )
    print(f"  with half of them playing first: {found['rss_half'] * mb:.1f} MB at most; {adds}")
    print(
        f"  the bot's own process: {found['own_rest'] * mb:.1f} MB at rest, "
        f"{found['own_active'] * mb:.1f} MB at most while they play ({own_kb:.1f} kB a game); "
        f"the rest is its workers' (pictures, AI seats, replays)"
    )
    print(
        f"CPU: bot {100 * found['cpu_bot'] / elapsed:.0f}% of one core; emulator and players "
        f"{100 * found['cpu_self'] / elapsed:.0f}% (their event loop late by p99 "
        f"{percentile(lag_ms, 0.99):.1f} ms, at most {max(lag_ms, default=0):.1f} ms: "
        f"included in the latencies)"
    )
    cpu_ms = per_action_ms(found["cpu_bot"], found["actions"])
    print(
        f"bot CPU per stored action: {cpu_ms:.2f} ms (the CPU of the bot processes and their "
        "workers over the timed play, divided by the actions stored in it)"
    )
    cpu_database = found["cpu_database"]
    if cpu_database is not None:
        # SQLite works inside the bot's own process, so its CPU is in the figure above;
        # PostgreSQL's server is processes of its own, shown apart to be compared fairly.
        print(
            f"PostgreSQL server CPU: {100 * cpu_database / elapsed:.0f}% of one core, "
            f"{per_action_ms(cpu_database, found['actions']):.2f} ms per stored action (not in "
            "the bot's figure; SQLite's work is inside the bot's), the players' own reads "
            f"included: {found['reads'] / elapsed:.0f} queries a second"
        )
        print(
            f"round trips to PostgreSQL per stored action: "
            f"{per_action(found['round_trips'], found['actions']):.2f} (every request the bots "
            "sent and waited for over the timed play, as their metrics count them: the moves' "
            "own changes, the posts taken and marked made, AI claims, checks, reads of games "
            "not in memory; divided by the actions stored in it)"
        )
    # When the whole machine is busy, its cores and not the bots set the pace: a second
    # process can then add no throughput, whatever it could do on cores of its own.
    busy = found["cpu_bot"] + found["cpu_self"] + (cpu_database or 0.0)
    busy_percent = 100 * busy / elapsed / (os.cpu_count() or 1)
    print(
        f"the machine's {os.cpu_count()} cores: {busy_percent:.0f}% busy with the bots, the "
        f"database, the emulator and the players together"
    )
    processes = process_figures(found)
    if plan.processes > 1:
        all_acks = {
            "games": len(playing),
            "interactions": len(timed),
            "ack_p50_ms": rounded(p50),
            "ack_p99_ms": rounded(p99),
            "actions_per_s": round(found["actions"] / elapsed, 1),
            "bot_cpu_percent": round(100 * found["cpu_bot"] / elapsed),
            "cpu_ms_per_action": rounded(cpu_ms, 2),
        }
        print_processes(processes, all_acks)
    before, probes = found["probe_before"], found["probes"] or [float("nan")]
    varied = slowdown(before, probes)
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
    clocks = report_clocks(found)
    errors = found["errors"]
    print(f"bot log: {len(errors)} error line(s)")
    for line in errors[:3]:
        print(f"  {line[:160]}")
    p99_verdict = "within" if p99 < P99_TARGET_MS else "OVER"
    kb_verdict = "within" if per_game_kb < MEMORY_TARGET_KB else "OVER"
    bar_run = args.games == P99_BAR_GAMES and plan.processes == 1
    print(
        f"ack p99 {p99:.1f} ms: {p99_verdict} the {P99_TARGET_MS:g} ms bar"
        + ("" if bar_run else f" (set for {P99_BAR_GAMES} games in one process)")
    )
    print(f"{per_game_kb:.1f} kB per game: {kb_verdict} the {MEMORY_TARGET_KB:g} kB bar")
    if math.isnan(added_kb):
        print("per added game: not measurable in this run")
    else:
        added_verdict = "within" if added_kb < MEMORY_TARGET_KB else "OVER"
        print(f"{added_kb:.1f} kB per added game: {added_verdict} the {MEMORY_TARGET_KB:g} kB bar")
    return {
        "games": args.games,
        "games_playing": len(playing),
        "seconds": round(elapsed, 1),
        "interactions": len(timed),
        "ack_p50_ms": rounded(p50),
        "ack_p95_ms": rounded(p95),
        "ack_p99_ms": rounded(p99),
        "ack_max_ms": rounded(worst),
        "not_acknowledged": missed,
        "refused": refused,
        "stalled": stalls,
        "actions_per_s": round(found["actions"] / elapsed, 1),
        "people_moves_per_s": round(found["people_moves"] / elapsed, 1),
        "interactions_per_s": round(len(timed) / elapsed, 1),
        "rss_kb_per_game": round(per_game_kb, 1),
        "rss_kb_per_started_game": round(held_kb, 1),
        "rss_kb_per_added_game": rounded(added_kb),
        "rss_kb_per_game_bot_process": round(own_kb, 1),
        "rss_kb_at_rest": found["rss_rest"],
        "warm_up_games_finished": found["warm_up_finished"],
        "warm_up_boards": found["warm_up_boards"],
        "rss_kb_with_games": found["rss_active"],
        "bot_cpu_percent": round(100 * found["cpu_bot"] / elapsed),
        "emulator_cpu_percent": round(100 * found["cpu_self"] / elapsed),
        "emulator_lag_p99_ms": rounded(percentile(lag_ms, 0.99)),
        "bot_error_lines": len(errors),
        "probe_ms_before": round(before, 2),
        "probe_ms_max": rounded(max(probes)),
        "machine_slowed": bool(varied),
        "ai_seats": args.ai_seats,
        "ai_pause_s": args.ai_pause,
        "think_s": args.think,
        "bot_in_own_process": True,
        "database": plan.database,
        "processes": plan.processes,
        "cpu_ms_per_action": rounded(cpu_ms, 2),
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
        "per_process": processes,
        "machine_busy_percent": round(busy_percent),
        "clocks": clocks,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0:
        parser.error("--games and --seconds must be positive")
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


def compare(results: list[tuple[Plan, dict[str, Any]]], args: argparse.Namespace) -> dict[str, Any]:
    """Print the measurements side by side and the scaling against its bar; return the JSON
    figures: the last measurement's (PostgreSQL's when it was measured), with SQLite's under
    `sqlite` and one PostgreSQL process's under `one_process` when they were measured too."""
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
    many = found.get(("postgresql", args.processes)) if args.processes > 1 else None
    scaling = None
    if one is not None and many is not None and one["actions_per_s"] > 0:
        scaling = round(many["actions_per_s"] / one["actions_per_s"], 2)
    if scaling is not None:
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
        figures["sqlite"] = found.get(("sqlite", 1))
    if args.scaling:
        figures["one_process"] = one
    figures["scaling"] = scaling
    return figures


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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plans = measurements(args)
    several = len(plans) > 1
    results: list[tuple[Plan, dict[str, Any]]] = []
    try:
        _interrupt_on_sigterm()
        with contextlib.ExitStack() as stack:
            server: PostgresServer | None = None
            if any(plan.database == "postgresql" for plan in plans):
                server = stack.enter_context(postgres_server())
            for index, plan in enumerate(plans, 1):
                url = None
                if server is not None and plan.database == "postgresql":
                    url = server.create_database(f"load_{index}")
                if several:
                    print(f"\n== {plan.label} ({index} of {len(plans)}) ==")
                pid = postmaster_pid(server) if url and server is not None else None
                found = asyncio.run(run(args, plan, url, database_pid=pid, several=several))
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


if __name__ == "__main__":
    sys.exit(main())
