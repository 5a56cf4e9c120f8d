"""The live board with two real bot processes sharing a real PostgreSQL: the game's server is
on one process's shard, which stores every move; a page served by the other process follows
those moves all the same, told by the change notification every process listens to. The link
one process posts works on the other: both sign with the secret kept in the database."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
from bot_processes import start_bot_process, unexpected
from conftest import new_postgres_database
from e2e_harness import BotHarness, Table, board_posts
from postgres_server import PostgresServer

from sandbox.emulator import DiscordEmulator, shard_of

pytestmark = [pytest.mark.e2e, pytest.mark.processes]

MOVES = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def next_board(response: aiohttp.ClientResponse, timeout: float = 15.0) -> dict[str, Any]:
    while True:
        line = await asyncio.wait_for(response.content.readline(), timeout)
        assert line, "the events ended"
        if line.startswith(b"data: "):
            board: dict[str, Any] = json.loads(line.removeprefix(b"data: "))["board"]
            return board


async def test_a_page_served_by_one_process_follows_the_moves_the_other_stores(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    url = await new_postgres_database(postgres)
    reader = BotHarness(emu, url)  # reads the games from PostgreSQL; runs no bot itself
    ports = [free_port(), free_port()]
    emu.gateway.max_concurrency = 2  # each shard identifies in a bucket of its own
    processes = await asyncio.gather(
        *(
            start_bot_process(
                emu,
                tmp_path,
                database_url=url,
                shard_ids=(k,),
                shard_count=2,
                settings={"WEB_PORT": str(ports[k])},
            )
            for k in range(2)
        )
    )
    here = shard_of(emu.guild_id, 2)  # the process that gets the server's commands
    other = 1 - here
    try:
        ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
        await emu.slash(ada, "game new", game="high-voltage", settle=False)
        await emu.slash(bo, "game join", settle=False)
        await emu.slash(ada, "game start", settle=False)
        table = Table(emu, reader, [ada, bo], seed=9)
        game, state = await table.wait_for_turn()
        (link,) = [b.url for b in board_posts(emu)[0].components if b.url]
        assert urlsplit(link).port == ports[here], "posted by the process that stored the start"
        path = urlsplit(link).path
        served_by_other = f"http://127.0.0.1:{ports[other]}{path}"
        async with aiohttp.ClientSession() as session:
            async with session.get(served_by_other) as page:
                assert page.status == 200, "the link one process made works on the other"
                assert f"game #{game.id}" in await page.text()
            wrong = served_by_other[:-4] + ("0000" if not path.endswith("0000") else "1111")
            async with session.get(wrong) as page:
                assert page.status == 404
            async with session.get(served_by_other + "/events") as events:
                assert (await next_board(events))["version"] == game.version
                for _ in range(MOVES):
                    before = game.version
                    await table.play(game, state, settle=False)
                    board = await next_board(events)
                    assert board["version"] > before
                    game, state = await table.wait_for_turn()
                    while board["version"] < game.version:
                        board = await next_board(events)
                    assert board["version"] == game.version
                    assert len(board["moves"]) == len(await reader.actions(game))
    finally:
        for process in processes:
            await process.stop()
        await reader.close()
    for process in processes:
        bad = unexpected(process.logged())
        assert not bad, f"shards {process.shard_ids} logged:\n{process.logged()[-4000:]}"
