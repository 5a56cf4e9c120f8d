"""How long a bot process takes to be ready, and how much memory it holds at rest, with many
games stored: a process should read the games it is asked about, not every game at start.

    python bench/startup.py [--games 10000] [--lobbies 0.1] [--database FILE]
                            [--settle 5] [--drawing-processes 1]

Seeds a SQLite file with `--games` games, dealt through the bot's own service as /game new,
Join and Start would (High Voltage, Pylons and Sector 6 in turn, two people each, a person to
move; `--lobbies` of them left as lobbies), unless `--database` names a file seeded before.
Then starts the real bot in its own process (`bench/load_bot.py`, as `bench/load.py` does)
against the Discord emulator, and prints:

- the seconds from starting the process to its shards connected and its commands synced (it
  prints `ready`), and to the first interaction it answers;
- the resident memory of the bot's process alone, and with its drawing workers, `--settle`
  seconds after it was ready (what start-up leaves behind, and what it keeps).

Run it on two commits to compare them: the seeded file can be reused (`--database`).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and files here named like
# the project's packages (bench/engine.py, bench/render.py) would hide them.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path[:0] = [str(_HERE.parent), str(_HERE.parent / "tests" / "support")]

import argparse  # noqa: E402
import asyncio  # noqa: E402
import importlib.util  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from hvbot.services import GameService  # noqa: E402
from hvbot.store import GameStore  # noqa: E402
from sandbox.emulator.load import LoadEmulator  # noqa: E402

GAMES = ("high-voltage", "pylons", "sector6")
GUILD = 1


def _load_bench() -> Any:
    """bench/load.py, for its bot process helpers (imported by path: see above), read by
    name: a module loaded from a path has no type for its helpers to be checked against."""
    spec = importlib.util.spec_from_file_location("bench_load", _HERE / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


async def seed(path: Path, games: int, lobbies: float) -> float:
    """Store `games` games in a new SQLite file; the seconds it took."""
    started = time.perf_counter()
    store = await GameStore.open(path)
    service = GameService(store)
    every = round(1 / lobbies) if lobbies > 0 else 0
    try:
        for k in range(games):
            channel, ada, bo = 10_000 + k, 100_000 + 2 * k, 100_001 + 2 * k
            await service.lobby.new_lobby(
                channel_id=channel,
                guild_id=GUILD,
                user_id=ada,
                name=f"Ada {k}",
                game_name=GAMES[k % len(GAMES)],
            )
            await service.lobby.join(channel_id=channel, user_id=bo, name=f"Bo {k}")
            if every and k % every == 0:
                continue
            await service.lobby.start(channel_id=channel, user_id=ada, can_manage=False)
            if (k + 1) % 1000 == 0:
                print(f"  seeded {k + 1} games", flush=True)
    finally:
        await store.close()
    return time.perf_counter() - started


async def measure(args: argparse.Namespace, database: Path) -> None:
    load = _load_bench()
    emu = LoadEmulator(channel_names=["general"])
    await emu.start()
    folder = Path(tempfile.mkdtemp(prefix="startup-"))
    log = (folder / "bot.log").open("wb")
    bot_args = argparse.Namespace(
        ai_pause=0.2,
        bot_log_level="INFO",
        drawing_processes=args.drawing_processes,
        clocked=0,
    )
    try:
        began = time.perf_counter()
        process = await load.start_bot(
            emu, str(database), log, bot_args, guild_id=emu.guild_id, shard=None
        )
        ready = time.perf_counter() - began
        ada = emu.add_user("Ada")
        asked = time.perf_counter()
        await emu.slash(ada, "stats me", settle=False)
        answered = time.perf_counter() - asked
        await asyncio.sleep(args.settle)  # memory at rest: what start-up left behind
        alone = load.rss_kb(process.pid, descendants=False)
        whole = load.rss_kb(process.pid)
        print(f"ready after            {ready:8.2f} s")
        print(f"first answer after     {answered * 1000:8.1f} ms more")
        print(f"memory at rest, bot    {alone / 1024:8.1f} MB")
        print(f"  with its workers     {whole / 1024:8.1f} MB")
        await load.stop_bot(process)
    finally:
        log.close()
        await emu.close()
    print(f"(bot log: {log.name})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--lobbies", type=float, default=0.1, help="share left as lobbies")
    parser.add_argument("--database", type=Path, help="a SQLite file seeded before")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before memory")
    parser.add_argument("--drawing-processes", type=int, default=1)
    args = parser.parse_args()
    database = args.database
    if database is None or not database.exists():
        database = database or Path(tempfile.mkdtemp(prefix="startup-db-")) / "games.sqlite3"
        print(f"seeding {args.games} games in {database} ...", flush=True)
        took = await seed(database, args.games, args.lobbies)
        print(f"seeded in {took:.1f} s")
    await measure(args, database)


if __name__ == "__main__":
    asyncio.run(main())
