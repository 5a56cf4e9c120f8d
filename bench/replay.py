"""How long a whole game's replay GIF takes to make, and how large it is.

    python bench/replay.py [--runs N]

For each game the bot plays, one seeded random game is played to its end (High Voltage with
4 players declaring every line it can, so the scored lines are lit; Pylons and Sector 6 with
2), and its replay is made `--runs` times from the public views, with the game's own board
picture as the bot draws it (after one untimed board that fills the per-process caches). Drawing
the boards alone is timed too, so the cost of the GIF itself shows. The aim: a 150-move High
Voltage game in a few seconds, well under the 8 MiB budget at full size.

Then, for each game, a replay asked for twice as `/game replay` asks for it: drawn and kept
(one per game and language) the first time, read as kept the second.

Prints tables for people, then as its last line one JSON object for scripts and CI history.
It reports figures only: it never fails because a machine is slow.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide the project's packages; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Mapping  # noqa: E402
from typing import Any  # noqa: E402

from PIL import Image  # noqa: E402

from games import find_game, register_all  # noqa: E402
from games.high_voltage.rules import Declare  # noqa: E402
from hvbot.messages import replays  # noqa: E402
from hvbot.messages.presenters import presenter_for  # noqa: E402
from hvbot.services import GameService  # noqa: E402
from hvbot.store import GameStore  # noqa: E402
from render import REPLAY_BUDGET, replay_gif  # noqa: E402

register_all()  # the games this benchmark plays, as `bot.py` registers them

GAMES = (("high-voltage", 4, 4), ("pylons", 2, 7), ("sector6", 2, 7))  # (game, seats, seed)


def public_views(game: str, seats: int, seed: int) -> list[dict[str, Any]]:
    """The public view after the deal and after every action of a seeded random game."""
    state = find_game(game).new_state(seats, seed)
    rng = random.Random(seed)
    views = [state.view(None)]
    while not state.is_terminal():
        declare = [a for a in state.legal_actions() if isinstance(a, Declare)]
        state.apply(declare[0] if declare else state.sample_action(rng))
        views.append(state.view(None))
    return views


def measure(game: str, seats: int, seed: int, runs: int) -> dict[str, Any]:
    views = public_views(game, seats, seed)
    presenter = presenter_for(game)
    names = [f"Player {i + 1}" for i in range(seats)]

    def paint(view: Mapping[str, Any]) -> Image.Image:
        if not isinstance(view, dict):  # the views are public_views', all dicts
            raise TypeError(f"a view to paint is a dict, not a {type(view).__name__}")
        return presenter.board_image(view, names)

    paint(views[0])  # caches: palette and pieces
    t0 = time.perf_counter()
    for view in views:
        paint(view)
    boards_s = time.perf_counter() - t0
    times = []
    replay = None
    for _ in range(runs):
        t0 = time.perf_counter()
        replay = replay_gif(views, paint)
        times.append(time.perf_counter() - t0)
    assert replay is not None
    return {
        "game": game,
        "moves": len(views) - 1,
        "frames": len(replay.shown),
        "seconds": round(statistics.median(times), 3),
        "boards_seconds": round(boards_s, 3),
        "ms_per_frame": round(1000 * statistics.median(times) / len(replay.shown), 2),
        "kb": round(len(replay.data) / 1024, 1),
        "kb_per_frame": round(len(replay.data) / 1024 / len(replay.shown), 2),
        "budget_share": round(len(replay.data) / REPLAY_BUDGET, 3),
        "scale": replay.scale,
        "width": replay.size[0],
        "height": replay.size[1],
    }


async def requested(game: str, seed: int, folder: Path) -> tuple[float, float]:
    """Seconds to answer a replay asked for twice, as `/game replay` does: the first is drawn
    and kept, the second read as kept. A two-person game played to its end by random moves
    through the bot's own service, on a SQLite file."""
    store = await GameStore.open(folder / f"{game}.sqlite3")
    service = GameService(store)
    try:
        await service.lobby.new_lobby(
            channel_id=1, guild_id=1, user_id=10, name="Ada", game_name=game
        )
        await service.lobby.join(channel_id=1, user_id=11, name="Bo")
        state = (await service.lobby.start(channel_id=1, user_id=10, can_manage=False)).state
        assert state is not None  # a start hands over the game's first state
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_seat()
            assert seat is not None  # the game is not over
            action = state.sample_action(rng)
            result = await service.play.act(channel_id=1, user_id=10 + seat, action=action)
            state = result.state
        played = await store.game(game_id=result.game.id, fresh=True)
        assert played is not None
        actions = await store.actions(game_id=played.id)
        times = []
        for _ in range(2):
            began = time.perf_counter()
            await replays.replay_post(played, actions, heading="", kept=store.replays)
            times.append(time.perf_counter() - began)
        return times[0], times[1]
    finally:
        await store.close()


async def all_requested() -> list[tuple[str, float, float]]:
    with tempfile.TemporaryDirectory() as folder:
        return [(game, *await requested(game, seed, Path(folder))) for game, _, seed in GAMES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed replays per game")
    args = parser.parse_args(argv)
    rows = [measure(game, seats, seed, args.runs) for game, seats, seed in GAMES]
    print(f"replay GIF of one random game each, median of {args.runs} runs")
    header = (
        ("game", 14),
        ("moves", 7),
        ("seconds", 9),
        ("boards s", 10),
        ("ms/frame", 10),
        ("kB", 9),
        ("of budget", 11),
        ("size", 11),
    )
    print("".join(f"{name:>{w}}" if i else f"{name:<{w}}" for i, (name, w) in enumerate(header)))
    for r in rows:
        size = f"{r['width']}x{r['height']}"
        print(
            f"{r['game']:<14}{r['moves']:>7}{r['seconds']:>9.2f}{r['boards_seconds']:>10.2f}"
            f"{r['ms_per_frame']:>10.1f}{r['kb']:>9.0f}{r['budget_share']:>11.1%}{size:>11}"
        )
    asked = asyncio.run(all_requested())
    print("\n/game replay asked twice: drawn and kept the first time, read as kept the second")
    print(f"{'game':<14}{'first s':>9}{'again ms':>10}")
    for game, first, again in asked:
        print(f"{game:<14}{first:>9.2f}{again * 1000:>10.1f}")
    requests = {game: {"first_s": first, "again_s": again} for game, first, again in asked}
    print(json.dumps({"runs": args.runs, "games": rows, "requests": requests}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
