"""The live boards' cost: memory and CPU per watcher, and the delay from a move to every page.

    .venv/bin/python bench/web.py [--moves 10] [--one 1000] [--games 50] [--each 100]

A bot-side process (this script with `--serve`) holds the games in a SQLite store and serves
their pages as the bot does (`hvbot.web`: the hub and its web server, the pictures drawn in its
threads); the benchmark itself is the watchers, each one an open connection to a game's events
(server-sent events, as a browser's `EventSource` keeps), in this process. Moves are made in
the serving process through the game service, and the hub is told of each as the aftermath
tells it, so what is measured is what the bot spends on its watchers.

Two shapes are measured: `--one` watchers on one game, and `--each` watchers on each of
`--games` games. For each: the serving process's resident memory per watcher (what it grew by
from one watcher per game to all of them, divided by the watchers added), its CPU per move
with one watcher a game and with all of them (the drawing included: one per version however
many watch), and so per watcher and update (the difference, over the watchers added), and the
delay from a move's being stored to the last of its game's watchers having the update (p50,
p95, max; the watchers' own reading shares this machine's cores).

Prints a table, then one JSON object with the figures as its last line.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

import aiohttp  # noqa: E402

from games import register_all  # noqa: E402
from hvbot.infra.links import LiveLinks  # noqa: E402
from hvbot.services import GameService  # noqa: E402
from hvbot.store import GameStore  # noqa: E402
from hvbot.web import Hub, WebServer  # noqa: E402

GAME = "high-voltage"
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------- the bot's side


async def serve(games: int) -> None:
    """Open `games` games, serve their pages, and make the moves asked for on stdin
    (`move <game>`), telling the hub as the aftermath does; `stats` says this process's
    memory and CPU. Answers one line each on stdout."""
    register_all()
    # The games' file lasts as long as this process serves them, and goes with it.
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        await _serve(games, Path(folder) / "web.sqlite3")


async def _serve(games: int, path: Path) -> None:
    store = await GameStore.open(path)
    service = GameService(store, seed_source=random.Random(1))
    ids = []
    for n in range(games):
        players = [(1000 + 2 * n, f"Ada {n}"), (1001 + 2 * n, f"Bo {n}")]
        await service.lobby.new_lobby(
            channel_id=10 + n, guild_id=1, user_id=players[0][0], name=players[0][1], game_name=GAME
        )
        await service.lobby.join(channel_id=10 + n, user_id=players[1][0], name=players[1][1])
        started = await service.lobby.start(
            channel_id=10 + n, user_id=players[0][0], can_manage=False
        )
        ids.append(started.game.id)
    links = LiveLinks(secrets.token_urlsafe(32), "http://127.0.0.1")
    hub = Hub(service.games, lambda game_id, version: f"{links.path(game_id)}/{version}.png")
    web = WebServer(hub, links, "127.0.0.1", 0, lambda: service.clock())
    await web.start()
    address = f"http://127.0.0.1:{web.bound_port}"
    say("ready", json.dumps({str(i): address + links.path(i) for i in ids}))
    rng = random.Random(2)
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().split():
        if line[0] == "move":
            game_id = int(line[1])
            game = await service.games.find(game_id, fresh=True)
            assert game is not None
            state = service.games.load_state(game)
            user = game.seats[state.current_seat() or 0].user_id
            result = await service.play.act(
                game_id=game_id, user_id=user or 0, action=state.sample_action(rng).text()
            )
            stored = time.time()
            hub.changed(game_id)  # as `Aftermath.follow` tells it
            say("moved", str(game_id), str(result.game.version), repr(stored))
        elif line[0] == "stats":
            say("stats", json.dumps({**usage(), "drawn": hub.drawn}))
    await web.close()
    await store.close()


def say(*words: str) -> None:
    print(" ".join(words), flush=True)


def usage(pid: int | str = "self") -> dict[str, float]:
    """Resident memory (MB) and CPU time (s) of a process, from /proc."""
    with open(f"/proc/{pid}/statm") as statm:
        rss = int(statm.read().split()[1]) * PAGE_SIZE
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return {"rss_mb": rss / 2**20, "cpu_s": cpu}


# ---------------------------------------------------------------------- the watchers


@dataclass
class Watched:
    """One game's watchers: when each saw each version, and how many have had their first."""

    watchers: int = 0
    connected: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    seen: dict[int, list[float]] = field(default_factory=dict)
    complete: dict[int, asyncio.Event] = field(default_factory=dict)

    def arrived(self, version: int, first: bool) -> None:
        times = self.seen.setdefault(version, [])
        times.append(time.time())
        if len(times) >= self.watchers:
            self.event(version).set()
        if first:
            self.connected += 1
            if self.connected >= self.watchers:
                self.ready.set()

    def event(self, version: int) -> asyncio.Event:
        return self.complete.setdefault(version, asyncio.Event())


VERSION = re.compile(rb'"board":\{"version":(\d+)')


async def watch(session: aiohttp.ClientSession, url: str, watched: Watched) -> None:
    """One watcher: it reads each event's version only, so that the watchers' own work on
    this machine's cores stays small beside the bot's."""
    first = True
    async with session.get(url + "/events") as response:
        async for line in response.content:
            found = VERSION.search(line, 0, 80) if line.startswith(b"data: ") else None
            if found is not None:
                watched.arrived(int(found[1]), first)
                first = False


class Server:
    """The serving process, talked to over its stdin and stdout."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, games: int) -> tuple[Server, dict[int, str]]:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            str(games),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        server = cls(process)
        words = await server.answer()
        assert words[0] == "ready", words
        pages = {int(k): v for k, v in json.loads(words[1]).items()}
        return server, pages

    async def answer(self) -> list[str]:
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError("the serving process ended")
        text = line.decode().strip()
        return text.split(" ", 1) if text.startswith(("ready", "stats")) else text.split()

    async def ask(self, *words: str) -> list[str]:
        assert self.process.stdin is not None
        self.process.stdin.write((" ".join(words) + "\n").encode())
        await self.process.stdin.drain()
        return await self.answer()

    async def stats(self) -> dict[str, float]:
        words = await self.ask("stats")
        figures: dict[str, float] = json.loads(words[1])
        return figures

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


async def shape(games: int, each: int, moves: int) -> dict[str, Any]:
    """`each` watchers on each of `games` games; `moves` moves, spread over the games."""
    server, pages = await Server.start(games)
    connector = aiohttp.TCPConnector(limit=0)
    watched = {game_id: Watched() for game_id in pages}
    tasks: list[asyncio.Task[None]] = []
    try:
        async with aiohttp.ClientSession(connector=connector) as session:

            async def add(count: int) -> None:
                """`count` more watchers on each game, once each has had its first update."""
                for game_id, page in pages.items():
                    entry = watched[game_id]
                    entry.watchers += count
                    entry.ready.clear()
                    for _ in range(count):
                        tasks.append(asyncio.create_task(watch(session, page, entry)))
                for entry in watched.values():
                    await entry.ready.wait()

            order = list(pages)

            async def play(count: int) -> list[float]:
                """`count` moves spread over the games; each one's delay to all its watchers."""
                delays = []
                for n in range(count):
                    game_id = order[n % len(order)]
                    words = await server.ask("move", str(game_id))
                    version, stored = int(words[2]), float(words[3])
                    entry = watched[game_id]
                    await entry.event(version).wait()
                    delays.append(max(entry.seen[version]) - stored)
                return delays

            await add(1)  # one watcher a game: the frames are built, the pictures drawn
            one = await server.stats()
            await play(moves)  # what a move costs with one watcher: its drawing, mostly
            alone = await server.stats()
            await add(each - 1)
            full = await server.stats()
            delays = await play(moves)
            after = await server.stats()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await server.stop()
    watchers = games * each
    added = watchers - games
    cpu_moves = after["cpu_s"] - full["cpu_s"]
    cpu_alone = alone["cpu_s"] - one["cpu_s"]
    return {
        "games": games,
        "watchers": watchers,
        "rss_mb_one_each": round(alone["rss_mb"], 1),
        "rss_mb_all": round(full["rss_mb"], 1),
        "kb_per_watcher": round((full["rss_mb"] - alone["rss_mb"]) * 1024 / max(1, added), 2),
        "cpu_ms_to_connect_per_watcher": round(
            (full["cpu_s"] - alone["cpu_s"]) * 1000 / max(1, added), 3
        ),
        "moves": moves,
        "drawn": int(after["drawn"]),
        "cpu_ms_per_move_one_watcher": round(cpu_alone * 1000 / moves, 1),
        "cpu_ms_per_move": round(cpu_moves * 1000 / moves, 1),
        "cpu_us_per_watcher_update": round(
            max(0.0, cpu_moves - cpu_alone) * 1e6 / (moves * max(1, each - 1)), 1
        ),
        "delay_ms_p50": round(statistics.median(delays) * 1000, 1),
        "delay_ms_p95": round(percentile(delays, 0.95) * 1000, 1),
        "delay_ms_max": round(max(delays) * 1000, 1),
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def main(args: argparse.Namespace) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = max(args.one, args.games * args.each) + 256
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))
    results = {
        "one_game": await shape(1, args.one, args.moves),
        "many_games": await shape(args.games, args.each, args.moves),
    }
    print(
        f"{'shape':<11}{'watchers':>9}{'KB/watcher':>11}{'CPU ms/move':>12}{'(1 watcher)':>12}"
        f"{'µs/watcher·update':>18}{'drawn':>6}{'delay p50':>10}{'p95':>8}{'max':>8}"
    )
    for name, r in results.items():
        print(
            f"{name:<11}{r['watchers']:>9}{r['kb_per_watcher']:>11}{r['cpu_ms_per_move']:>12}"
            f"{r['cpu_ms_per_move_one_watcher']:>12}"
            f"{r['cpu_us_per_watcher_update']:>18}{r['drawn']:>6}{r['delay_ms_p50']:>10}"
            f"{r['delay_ms_p95']:>8}{r['delay_ms_max']:>8}"
        )
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--one", type=int, default=1000, help="watchers on the one game")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--each", type=int, default=100, help="watchers on each of the games")
    arguments = parser.parse_args()
    if arguments.serve is not None:
        asyncio.run(serve(arguments.serve))
    else:
        print(json.dumps(asyncio.run(main(arguments))))
