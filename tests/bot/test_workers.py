"""Pictures drawn and AI moves chosen in a worker process are those made here, and a worker
that dies is replaced without losing the work it was doing."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import json
import os
import pickle
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from played_games import play_to_the_end, started_game
from same_pictures import same_picture
from worker_calls import Parcel, drawn_after, held_until, registered, size_of

from engine.ai import choose
from engine.registry import find_game
from hvbot.infra import workers
from hvbot.infra.workers import Workers
from hvbot.messages import game_posts, replays
from hvbot.messages.presenters import playable_games, presenter_for, warm_up
from hvbot.plugins import in_a_worker, plugins, worker_modules
from hvbot.runtime.client import WORKER_MODULES
from hvbot.services import GameService
from hvbot.store import GameStore

ROOT = Path(__file__).resolve().parents[2]  # the project, for the scripts the tests run


@pytest.fixture(scope="module")
def worker() -> Iterator[Workers]:
    """One worker process for the module's tests: starting and warming up one takes seconds.
    A test that kills it leaves its replacement to the next. Started as the bot starts its
    drawing worker, with what it draws with preloaded (if this test process has started no
    pool before: the first pool's preload is every pool's, see `hvbot.infra.workers`)."""
    preload = (*WORKER_MODULES, *worker_modules())
    workers = Workers(1, prepare=in_a_worker(), warm_up=warm_up, preload=preload)
    yield workers
    workers.close()


def _board_args(game: str):
    rules = find_game(game)
    state = rules.new_state(rules.min_seats, 11)
    return state.view(None), [f"Player {i + 1}" for i in range(rules.min_seats)]


@pytest.mark.parametrize("game", playable_games())
async def test_a_board_drawn_in_a_worker_is_the_board_drawn_here(worker, game):
    view, names = _board_args(game)
    # A presenter travels as its game and language: the worker's own presenter draws.
    presenter = presenter_for(game, "de")
    png = await worker.run(presenter.board_png, view, names)
    assert same_picture(png, presenter.board_png(view, names))
    assert await worker.run(os.getpid) != os.getpid()


async def test_a_worker_knows_the_games_it_is_handed_and_no_other(worker):
    """The workers know nothing of games: a worker process starts with none registered, and
    knows those of the process that started it once handed them (`in_a_worker`)."""
    assert await worker.run(registered) == playable_games() != []
    bare = Workers(1)
    try:
        assert await bare.run(registered) == []
    finally:
        bare.close()


async def test_a_call_waiting_its_turn_holds_no_argument_of_its_own(worker, tmp_path):
    """Boards queue behind each other at a few hundred games: what waits is the pickled call,
    not the caller's objects (a view is tens of kB of dicts)."""
    await worker.run(os.getpid)  # started
    gate = tmp_path / "gate"
    busy = asyncio.create_task(worker.run(held_until, str(gate)))
    try:
        parcel = Parcel(7)
        watch = weakref.ref(parcel)
        waiting = asyncio.create_task(worker.run(size_of, parcel))
        await asyncio.sleep(0)  # the call is made and waits behind the busy one
        del parcel
        gc.collect()
        assert watch() is None, "the waiting call still holds its argument"
        assert not waiting.done()
    finally:
        gate.touch()
    assert await waiting == 7
    await busy


@pytest.mark.parametrize(
    ("leeway", "then", "replay_first"),
    [(10.0, 0.05, False), (0.05, 0.3, True)],
    ids=["thinking-within-the-leeway", "thinking-after-it"],
)
async def test_a_replay_lets_thinking_go_first_within_its_leeway_only(
    worker, tmp_path, leeway, then, replay_first
):
    """An AI seat's thinking goes before a replay asked for a moment earlier (a game waits for
    the one, nobody for the other), but not before one asked for longer ago than its leeway.
    `time.monotonic` tells when each call ran (the same clock in every process)."""
    gate = tmp_path / "gate"
    busy = asyncio.create_task(worker.run(held_until, str(gate)))
    try:
        await asyncio.sleep(0)  # the busy call has the worker's one turn
        replay = asyncio.create_task(worker.run_within(leeway, time.monotonic))
        await asyncio.sleep(then)  # how long before the thinking the replay asked: the point
        thinking = asyncio.create_task(worker.run(time.monotonic))
        await asyncio.sleep(0)  # both wait for their turn
        assert not replay.done() and not thinking.done()
    finally:
        gate.touch()
    assert (await replay < await thinking) == replay_first
    await busy


async def test_a_call_given_up_while_it_waits_holds_up_nobody(worker, tmp_path):
    gate = tmp_path / "gate"
    busy = asyncio.create_task(worker.run(held_until, str(gate)))
    try:
        given_up = asyncio.create_task(worker.run(os.getpid))
        await asyncio.sleep(0)  # the busy call has the turn, the other waits for it
        given_up.cancel()
        after = asyncio.create_task(worker.run(os.getpid))
        await asyncio.sleep(0)  # asked for, behind the busy one
        assert not after.done()
    finally:
        gate.touch()
    assert await asyncio.wait_for(after, 30) != os.getpid()
    assert given_up.cancelled()
    await busy
    assert await asyncio.wait_for(worker.run(os.getpid), 30) != os.getpid()


async def test_while_the_event_loop_is_held_up_only_a_few_results_wait_for_it(tmp_path):
    """A board picture is 75-115 kB: a bot held up for a moment must not find every picture
    the worker could draw meanwhile waiting for it in memory."""
    ahead = 2
    pictures = Workers(1, ahead=ahead)
    try:
        await pictures.run(os.getpid)  # started
        calls = [
            asyncio.create_task(pictures.run(drawn_after, 0.02, str(tmp_path))) for _ in range(30)
        ]
        await asyncio.sleep(0)  # all asked for
        held_from = time.monotonic()
        # The event loop is held up: until the worker has drawn one (however busy the machine
        # is), then long enough again for it to draw all 30 if nothing held them back.
        deadline = held_from + 60
        while not any(tmp_path.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.8)
        held_until = time.monotonic()
        drawn = await asyncio.gather(*calls)
    finally:
        pictures.close()
    assert sorted(drawn) == drawn, "calls due at once go in the order they came"
    meanwhile = [at for at in drawn if held_from <= at <= held_until]
    assert 1 <= len(meanwhile) <= 1 + ahead


async def test_a_worker_that_dies_is_replaced(worker):
    first = await worker.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    view, names = _board_args("high-voltage")
    presenter = presenter_for("high-voltage")
    png = await worker.run(presenter.board_png, view, names)
    assert same_picture(png, presenter.board_png(view, names))
    assert await worker.run(os.getpid) not in (first, os.getpid())


async def test_an_ai_move_chosen_in_a_worker_is_the_move_chosen_here(worker):
    rules = find_game("high-voltage")
    state = rules.new_state(3, 5)
    view = state.view(state.current_seat())
    here = choose(view, level="normal", seed=9, iterations=50)
    assert await worker.run(choose, view, level="normal", seed=9, iterations=50) == here


async def test_no_processes_works_in_a_thread_here():
    workers = Workers(0)
    assert await workers.run(os.getpid) == os.getpid()
    with pytest.raises(ValueError):
        Workers(-1)


KILLED_BOT = """
import asyncio, os, sys
from hvbot.infra.workers import Workers

async def main():
    workers = Workers(1, watch_s=3600)  # a worker's next look is an hour away
    print(await workers.run(os.getpid), flush=True)
    os._exit(0)  # killed: nothing is shut down

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="Linux tells when a process ends")
def test_a_worker_ends_as_soon_as_its_bot_was_killed(tmp_path):
    """Not at its next look after itself, an hour away here: when the system says the bot
    ended."""
    script = tmp_path / "killed_bot.py"
    script.write_text(KILLED_BOT)
    printed = tmp_path / "printed.txt"
    # The killed bot cannot remove its workers' server's folder: it is left beside the test's
    # (a short path, for the server's Unix socket), which pytest clears with its old runs.
    temp = tempfile.mkdtemp(prefix="t", dir=tmp_path.parent)
    with printed.open("w") as out:  # not a pipe: the workers would hold it open
        subprocess.run(
            [sys.executable, str(script)],
            stdout=out,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": temp},
            check=True,
        )
    assert ends_within(int(printed.read_text().strip()), 60), "the worker outlived its bot"


def ends_within(pid: int, bound: float) -> bool:
    """Whether process `pid` has ended or ends within `bound` seconds, as the system tells."""
    try:
        ending = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([ending], [], [], bound)[0])
    finally:
        os.close(ending)


# A worker's upkeep looking after a bot (a child of this script) that is then killed: the
# script ends only by the upkeep ending it, with status 0.
LOOKING_AFTER = """
import os, signal, sys, threading
from hvbot.infra import workers

told, watch_s = sys.argv[1] == "told", float(sys.argv[2])
bot = os.fork()
if bot == 0:
    signal.pause()  # the bot, until killed
ending = workers._ending_of(bot) if told else None
look = threading.Thread(target=workers._look_after, args=(bot, watch_s, ending), daemon=True)
look.start()
os.kill(bot, signal.SIGKILL)
os.waitpid(bot, 0)  # gone, as a bot that is not this process's child is once it ends
look.join(60)
sys.exit("the upkeep went on after its bot ended")
"""


@pytest.mark.parametrize(
    ("told", "watch_s"),
    [
        pytest.param("told", 3600.0, id="told-at-once"),
        pytest.param("not told", 0.05, id="seen-at-the-next-look"),
    ],
)
def test_a_workers_upkeep_ends_it_once_its_bot_is_gone(told: str, watch_s: float) -> None:
    """Where the system tells when the bot ends, at once (the next look is an hour away);
    where it cannot, at the next look."""
    if told == "told" and not hasattr(os, "pidfd_open"):
        pytest.skip("Linux tells when a process ends")
    done = subprocess.run(
        [sys.executable, "-c", LOOKING_AFTER, told, str(watch_s)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr


def test_a_bot_that_ended_before_its_worker_started_is_left_to_the_first_look() -> None:
    """A process that has ended has no pidfd: its worker finds out at its first look."""
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    assert workers._ending_of(child.pid) is None


class Recording(Workers):
    """Works in threads here, and keeps each call as a worker process would be sent it."""

    def __init__(self) -> None:
        super().__init__(0)
        self.sent: list[bytes] = []

    async def run(self, func, *args, **kwargs):
        self.sent.append(pickle.dumps((func, args, kwargs), protocol=5))
        return await super().run(func, *args, **kwargs)


async def test_a_secret_picture_is_sent_the_seat_and_channel_never_the_deal(tmp_path):
    repo = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        service = GameService(repo, seed_source=random.Random(3))
        await service.lobby.new_lobby(
            channel_id=5, guild_id=1, user_id=11, name="Ada", game_name="High Voltage"
        )
        await service.lobby.join(channel_id=5, user_id=12, name="Bo")
        change = await service.lobby.start(channel_id=5, user_id=11, can_manage=False)
        game, state = change.game, change.state
        recording = Recording()
        workers.use(recording, recording)
        try:
            post = await game_posts.secret_post(game, state, 0)
        finally:
            workers.use(Workers(0), Workers(0))
    finally:
        await repo.close()
    assert post.files and post.card
    (sent,) = recording.sent
    # The seed as pickle writes an integer (protocol 2 puts no frame around it): present in the
    # call if the game's row went along.
    seed = pickle.dumps(game.seed, protocol=2)[2:-1]
    assert game.seed is not None and seed not in sent, "the deal's seed went to the worker"


async def test_a_replay_is_sent_the_views_and_names_never_the_game(tmp_path):
    """The replay's worker draws from the spectators' views, the names and the presenter (its
    game and language) alone: never the game's row, with its deal's seed and its whole
    state, which the worker would also have to import the store to read."""
    repo = await GameStore.open(tmp_path / "games.sqlite3")
    try:
        service = GameService(repo, seed_source=random.Random(3))
        players = [(11, "Ada"), (12, "Bo")]
        started = await started_game(
            service, channel_id=5, guild_id=1, players=players, game_name="tic-tac-toe"
        )
        game = await play_to_the_end(service, started.id, random.Random(4))
        actions = await repo.actions(game_id=game.id)
        recording = Recording()
        workers.use(Workers(0), Workers(0), recording)
        try:
            post = await replays.replay_post(game, actions, heading="Replay")
        finally:
            workers.use(Workers(0), Workers(0))
    finally:
        await repo.close()
    assert [picture.name for picture in post.files] == [replays.FILENAME]
    (sent,) = recording.sent
    seed = pickle.dumps(game.seed, protocol=2)[2:-1]
    assert game.seed is not None and seed not in sent, "the deal's seed went to the worker"
    assert b"GameRow" not in sent and b"hvbot.store" not in sent


async def test_an_ai_seats_thinking_never_waits_behind_a_replay(worker, tmp_path):
    """Replays are drawn in a worker of their own: while one is drawn (held here as long as
    the test likes), an AI seat's thinking is done at once in the bot's thinking worker."""
    replays = Workers(1)
    workers.use(Workers(0), worker, replays)
    gate = tmp_path / "gate"
    try:
        replay = asyncio.create_task(workers.when_free(held_until, str(gate)))
        await asyncio.sleep(0)
        thinking = await asyncio.wait_for(workers.in_background(os.getpid), 30)
        assert not replay.done(), "the replay is still being drawn"
        assert thinking != os.getpid(), "the thinking was done in the bot's thinking worker"
    finally:
        gate.touch()
        await replay
        replays.close()
        workers.use(Workers(0), Workers(0))


PRELOADING_BOT = """
import asyncio, json, sys
from hvbot.infra.workers import Workers

AT_START: list[str] = []


def note() -> None:  # a worker's `prepare`: what it has imported before any work of its own
    AT_START.extend(sys.modules)


def noted() -> list[str]:
    return AT_START


async def main() -> None:
    workers = Workers(1, prepare=note, preload=["xml.dom.minidom"])
    first = await workers.run(noted)
    workers.close()
    again = Workers(1, prepare=note)  # started later, forked from the same server
    second = await again.run(noted)
    again.close()
    print(json.dumps([first, second, "xml.dom.minidom" in sys.modules]))


if __name__ == "__main__":
    asyncio.run(main())
"""


def test_workers_start_with_the_preloaded_modules_imported_once_for_all(tmp_path):
    """The server the workers fork from imports `preload` before its first fork: each worker,
    of any pool started after, has them before its own first import, and the process that
    started them never imported them."""
    script = tmp_path / "preloading_bot.py"
    script.write_text(PRELOADING_BOT)
    printed = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    ).stdout
    first, second, imported_here = json.loads(printed)
    for at_start in (first, second):
        assert "xml.dom.minidom" in at_start
        assert "xml.dom.pulldom" not in at_start  # what nobody imported
    assert not imported_here


def test_the_bots_workers_preload_every_registered_games_rules_ai_and_presenter():
    modules = worker_modules()
    for plugin in plugins():
        assert {plugin.rules, plugin.ai, plugin.presenter.partition(":")[0]} <= set(modules)
    for module in (*WORKER_MODULES, *modules):
        assert importlib.util.find_spec(module) is not None, module


DRAWING_WORKER = """
import importlib, json, random, sys
from multiprocessing import spawn
from games import register_all

# What the bot's workers are forked with: the bot's own script, as the server they are forked
# from imports it (multiprocessing preloads the main module), and the modules it preloads.
spawn.import_main_path(sys.argv[1])
for name in sys.argv[2:]:
    importlib.import_module(name)
register_all()  # as `in_a_worker` registers the games in each worker
from engine.registry import find_game
from hvbot.messages.presenters import playable_games, presenter_for, warm_up

warm_up()  # every game's board
for game in playable_games():
    rules = find_game(game)
    state = rules.new_state(rules.min_seats, 3)
    names = [f"Player {seat + 1}" for seat in range(rules.min_seats)]
    presenter = presenter_for(game, "fr")
    presenter.secret(1, state.view(0), 0)
    views = [state.view(None)]
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(state.sample_action(rng).text())
    views.append(state.view(None))
    presenter.board_png(views[-1], names, clock="42")
    presenter.end_png(views[-1], names)
    presenter.replay_gif(views, names)
print(json.dumps(sorted(name for name in ("discord", "aiohttp") if name in sys.modules)))
"""


def test_a_drawing_worker_never_imports_discord_py(tmp_path):
    """What the workers draw with (the presenters and the pictures) is plain drawing: a fresh
    interpreter that imports what the bot's workers are forked with (`bot.py`, as the server
    they are forked from imports it, and the modules it preloads) and draws each game's
    board, secret, result and replay has imported neither discord.py nor aiohttp, which
    would cost the workers' server a fifth of a second of CPU, and each worker about 20 MB."""
    script = tmp_path / "drawing_worker.py"
    script.write_text(DRAWING_WORKER)
    done = subprocess.run(
        [sys.executable, str(script), str(ROOT / "bot.py"), *WORKER_MODULES, *worker_modules()],
        capture_output=True,
        text=True,
        timeout=120,
        # The tests' own game (tic-tac-toe) is among the modules, as it is in their workers.
        env={**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "tests/support")))},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == []
