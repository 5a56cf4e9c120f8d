"""What the people running the bot see of a real bot process: `/metrics` in Prometheus' text
format moved by what was played, `/health` following its gateway connection, and log lines as
JSON objects a log system can read, naming the game they are about."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import aiohttp
import pytest
from bot_processes import BotProcess, start_bot_process
from conftest import new_postgres_database
from e2e_harness import BotHarness, Table, board_posts, lobby_button
from postgres_server import PostgresServer
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_startup import launch, one_line_refusal

from sandbox.emulator import DiscordEmulator

# A real bot process scraped over HTTP, its shard dropped and resumed: the process tier.
pytestmark = [pytest.mark.e2e, pytest.mark.processes]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, by name and labels, as prometheus_client's parser reads it."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.content_type == "text/plain"
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: dict, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


async def health(port: int) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/health") as response,
    ):
        return response.status, await response.text()


def json_lines(bot: BotProcess) -> list[dict]:
    """The process's log, each line a JSON object (json.loads fails the test otherwise)."""
    return [json.loads(line) for line in bot.logged().splitlines() if line.strip()]


async def test_metrics_health_and_json_logs_of_a_real_process(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    emu = emulator
    port = free_port()
    path = tmp_path / "games.sqlite3"
    bot = await start_bot_process(
        emu,
        tmp_path,
        database_url=f"sqlite:///{path}",
        shard_ids=(0,),
        shard_count=1,
        settings={"METRICS_PORT": str(port), "LOG_FORMAT": "json"},
    )
    reader = BotHarness(emu, path)  # reads the games the process stores

    async def health_is(status: int) -> str | None:
        answer, text = await health(port)
        return text if answer == status else None

    try:
        # Healthy once the process is ready to serve (its shards connected, its guilds read).
        await emu.wait_for(lambda: health_is(200), 30, message="/health says 200")
        # A short game: a lobby, a second person and an AI seat, two moves of the people.
        ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
        lobby = (await emu.slash(ada, "game new", game="high-voltage", settle=False))[0]
        for who, what in ((bo, "join"), (ada, "addai"), (ada, "start")):
            await emu.click(who, lobby_button(lobby, what), message=lobby, settle=False)
        table = Table(emu, reader, [ada, bo])
        game, _ = await table.play_moves(2)
        ai = next(n for n, seat in enumerate(game.seats) if seat.is_ai)
        for _ in range(20):  # on, till the AI seat has played
            actions = await reader.actions(game)
            if any(seat == ai for seat, _ in actions):
                break
            game, _ = await table.play_moves(1)

        # The open game is counted once the periodic check has read it.
        async def game_counted() -> dict | None:
            samples = await scrape(port)
            labels = {"game": "high-voltage", "status": "active", "shard": "0"}
            return samples if total(samples, "hvbot_open_games", **labels) == 1 else None

        samples = await emu.wait_for(game_counted, 10, message="the open game in /metrics")
        stored = total(samples, "hvbot_actions_stored_total", game="high-voltage")
        assert stored == len(actions) > 2, "every action stored, the AI seat's too"
        acknowledged = total(samples, "hvbot_interaction_ack_seconds_count")
        assert acknowledged == len(emu.interactions), "every interaction acknowledged, timed"
        assert total(samples, "hvbot_interaction_ack_seconds_count", command="/game new") == 1
        assert total(samples, "hvbot_interaction_ack_seconds_count", command="button:lobby") == 3
        assert total(samples, "hvbot_interaction_ack_refused_total") == 0
        boards = total(samples, "hvbot_board_drawing_seconds_count", game="high-voltage")
        assert boards == len(board_posts(emu)), "each board posted was drawn, and timed"
        assert total(samples, "hvbot_ai_decision_seconds_count", game="high-voltage") >= 1
        assert total(samples, "hvbot_shard_connected", shard="0") == 1
        assert total(samples, "hvbot_database_errors_total") == 0
        assert ("hvbot_event_loop_lag_last_seconds", ()) in samples
        assert total(samples, "hvbot_event_loop_lag_seconds_count") >= 1, "the loop's lag measured"
        assert ("hvbot_owed_posts", ()) in samples
        # What start-up built is frozen: the garbage collector's passes no longer walk it.
        assert total(samples, "hvbot_gc_frozen_objects") > 10_000
        assert total(samples, "hvbot_gc_collections_total", generation="0") >= 1
        # A SQLite file has one process: no other process's changes to listen for.
        assert not [key for key in samples if key[0] == "hvbot_database_watch_listening"]

        # The shard's connection drops, and Discord keeps it waiting: unhealthy until it is
        # back, then healthy again.
        emu.gateway.hold()
        await emu.gateway.drop(shard_id=0)
        said = await emu.wait_for(lambda: health_is(503), 10, message="/health says 503")
        assert "shard 0: disconnected" in said
        emu.gateway.release()
        await emu.wait_for(lambda: health_is(200), 30, message="/health says 200 again")
        samples = await scrape(port)
        assert total(samples, "hvbot_shard_connected", shard="0") == 1
    finally:
        await reader.close()
        assert await bot.stop() == 0
    # One JSON object a line, with a game's lines naming it; nothing went wrong.
    lines = json_lines(bot)
    assert not [line for line in lines if line["level"] == "ERROR" or "exception" in line]
    # It ran on uvloop's event loop, as `python bot.py` does where uvloop is installed.
    (ready,) = [line for line in lines if line["message"].startswith("ready to serve games")]
    assert ready["message"].endswith("on uvloop's event loop"), ready
    moves = [line for line in lines if line["logger"] == "hvbot.services.play"]
    assert moves and all(line["game_id"] == game.id for line in moves), lines
    first = moves[0]
    assert first["level"] == "INFO" and " did " in first["message"]
    assert first["shard"] == "0" and first["time"].endswith("+00:00")


async def test_a_metrics_port_already_taken_prints_one_line_and_exits_2(
    emulator: DiscordEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("METRICS_PORT", str(taken.getsockname()[1]))
        line = await one_line_refusal(await launch(emulator, tmp_path, emulator.token))
    assert "METRICS_PORT" in line and "cannot be served" in line


async def test_a_process_on_postgresql_says_whether_it_hears_the_others_changes(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    """With PostgreSQL each process listens for the other processes' changes to games; the
    gauge says it does, and falls to 0 while its listening connection is lost (see the
    watch's own tests): a process that cannot listen reads a version before each move."""
    port = free_port()
    bot = await start_bot_process(
        emulator,
        tmp_path,
        database_url=await new_postgres_database(postgres),
        shard_ids=(0,),
        shard_count=1,
        settings={"METRICS_PORT": str(port)},
    )
    try:

        async def listening() -> bool:
            samples = await scrape(port)
            return total(samples, "hvbot_database_watch_listening") == 1

        await emulator.wait_for(listening, 30, message="the watch's gauge at 1")
    finally:
        assert await bot.stop() == 0
