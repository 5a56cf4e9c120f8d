"""A tournament with two real bot processes sharing a real PostgreSQL: a 5-player Pylons Swiss
of 3 rounds, opened, joined and started through Discord. Each round's games end by their turn
clocks (their deadlines moved into the past in the database, as the hours would have gone by),
so both processes see the round end at once. Between rounds 1 and 2 the process serving the
server is killed (SIGKILL) with round 2's post on its way, whichever process was making it;
the other takes over, and a new process comes up in the dead one's place for round 3. Every
round is paired once, and its posts, its tables' announcements and their threads, and the
standings are in the channel exactly once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bot_processes import bot_processes, start_bot_process
from conftest import new_postgres_database
from e2e_harness import BotHarness
from postgres_server import PostgresServer
from tournament_play import (
    TableGame,
    byes,
    game_over,
    open_tournament,
    pictures,
    rounds_paired,
    said_twice,
    sign_up,
    status,
    tables,
    wait_for_round,
)

from sandbox.emulator import DiscordEmulator, shard_of

pytestmark = [pytest.mark.e2e, pytest.mark.processes]

LEASE_S = 4.0
CHANNEL_POSTS = "POST /channels/{channel_id}/messages"
NAME = "Night Pylons"


async def run_out(reader: BotHarness, found: list[TableGame]) -> None:
    """Every game of `found` has its mover's hour gone by: due now, for whichever process
    looks first."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    for table in found:
        await reader.sql(
            "UPDATE games SET clock_deadline = ?, clock_warn_at = NULL WHERE id = ?",
            past,
            table.game.id,
        )


async def test_every_round_is_paired_and_posted_once_though_a_process_is_killed(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    emu.allow_threads()
    url = await new_postgres_database(postgres)
    here = shard_of(emu.guild_id, 2)
    reader = BotHarness(emu, url)  # reads the tournament from PostgreSQL; runs no bot itself
    try:
        async with bot_processes(emu, tmp_path, url, 2, lease_s=LEASE_S) as processes:
            mo = emu.add_user("Mo", manage_guild=True)
            people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di", "Ed")]
            tid, post = await open_tournament(
                emu, mo, emu.channel, game="pylons", clock=60, rounds=3, name=NAME
            )
            await sign_up(emu, people, post, tid)
            await emu.slash(mo, "tournament start")
            first = await wait_for_round(emu, reader, tid, 1)
            assert len(first) == 2 and len(await byes(reader, tid, 1)) == 1

            # Round 2's post is held on its way; the server's process dies meanwhile.
            on_its_way = emu.faults.hold(CHANNEL_POSTS, says=f"**{NAME}**: round 2 of 3")
            await run_out(reader, first)
            for table in first:
                await game_over(emu, reader, table)
            await emu.wait_for(lambda: on_its_way.held == 1, 60, message="round 2 on its way")
            dying = processes[here]
            dying.kill()
            await dying.process.wait()
            await emu.wait_for(lambda: here not in emu.gateway.connected_shards, 10)
            on_its_way.release()  # if the dead one sent it, its connection is gone
            second = await wait_for_round(emu, reader, tid, 2, timeout=90)
            assert len(second) == 2

            # A new process in the dead one's place; round 3 comes from either.
            processes[here] = await start_bot_process(
                emu,
                tmp_path,
                database_url=url,
                shard_ids=(here,),
                shard_count=2,
                lease_s=LEASE_S,
            )
            await run_out(reader, second)
            third = await wait_for_round(emu, reader, tid, 3, timeout=90)
            await run_out(reader, third)

            async def finished() -> bool:
                return await status(reader, tid) == "finished"

            await emu.wait_for(finished, 90, message="the tournament over")
            repo = await reader.reader()

            async def nothing_owed() -> bool:
                return not await repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")

            await emu.wait_for(nothing_owed, 60, message="every post marked as made")
            assert await rounds_paired(reader, tid) == 3
            for number in (1, 2, 3):
                said = [
                    r
                    for r in emu.messages(visibility="public", channel=emu.channel)
                    if r.text.startswith(f"**{NAME}**: round {number} of 3\n")
                ]
                assert len(said) == 1, f"round {number} posted {len(said)} times"
                assert len(await tables(reader, tid, number)) == 2
            assert len(emu.threads(emu.channel)) == 6, "a thread for each table, once"
            assert len(pictures(emu, emu.channel)) == 3, "standings after 1 and 2, then final"
            assert said_twice(emu, emu.channel) == []
            emu.faults.clear()
    finally:
        await reader.close()
