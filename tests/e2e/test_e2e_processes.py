"""Several real bot processes sharing PostgreSQL, each running its shards of the gateway.

A server's interactions reach the process running its shard, direct messages shard 0; any
process answers for any game, because the database is the truth. A process killed outright
(SIGKILL) loses nothing: its stored but unannounced move is posted by another, once; the AI
seat it was to play for is played by another, once; due reminders are sent once; the game
goes on once the shard's process is back. (A game that ends in a process that died gets its
last board and its replay once: `test_e2e_outbox`.)
"""

from __future__ import annotations

import asyncio
import itertools
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bot_processes import bot_processes, start_bot_process, unexpected
from conftest import new_postgres_database
from e2e_harness import (
    BotHarness,
    Table,
    board_posts,
    is_peek,
    lobby_button,
    move_with_post_held,
)
from postgres_server import PostgresServer

from hvbot.services import GameService
from hvbot.store import GameStore
from sandbox.emulator import DiscordEmulator, shard_of

# Real processes sharing the shards, one killed: their own tier.
pytestmark = [pytest.mark.e2e, pytest.mark.processes]

# Games whose reminders fall due at once: several batches (hvbot.services.reminders) a process.
TABLES = 60


def _posts_of(emu: DiscordEmulator, since: int, name: str, channel=None) -> list:
    return [p for p in board_posts(emu, since=since, channel=channel) if p.text.startswith(name)]


async def test_two_processes_share_the_shards_and_one_killed_loses_nothing(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    url = await new_postgres_database(postgres)
    here = shard_of(emu.guild_id, 2)  # the first server's shard: its game's process dies
    other_guild = emu.add_guild("Second server", shard=(1 - here, 2))
    other = emu.default_channel(other_guild)
    reader = BotHarness(emu, url)  # reads the games from PostgreSQL; runs no bot itself
    try:
        async with bot_processes(emu, tmp_path, url, 2) as processes:
            ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
            # A game in each server, each answered by the process running its shard.
            lobby = (await emu.slash(ada, "game new", game="high-voltage", settle=False))[0]
            await emu.click(bo, lobby_button(lobby, "join"), message=lobby, settle=False)
            await emu.click(ada, lobby_button(lobby, "addai"), message=lobby, settle=False)
            await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
            table = Table(emu, reader, [ada, bo])
            await table.wait_for_turn()
            opened = await emu.slash(cy, "game new", game="pylons", channel=other, settle=False)
            assert opened.public, "the second server's process answered"
            # A direct message reaches shard 0's process, wherever the person plays.
            private = await emu.slash(cy, "stats me", channel=emu.dm_channel(cy.id), settle=False)
            assert private, "answered in the direct message"

            # A move whose board post Discord holds back (a long rate limit)...
            held = await move_with_post_held(emu, reader, 600.0, table)
            game = await reader.game()
            assert game.version >= 1
            # ...and the process running this server's shard dies.
            dying = processes[here]
            dying.kill()
            await dying.process.wait()
            await emu.wait_for(lambda: here not in emu.gateway.connected_shards, 10)

            # The other process posts the held move from the outbox, once, and plays the AI.
            (post,) = await emu.wait_for(
                lambda: _posts_of(emu, held.since, held.mover.display_name),
                30,
                message="the killed process's move posted by the other",
            )
            assert held.cell in post.text
            # The mover's own client still shows the killed process's "thinking…": Discord
            # gives up on such an answer after 15 minutes. Those minutes pass here.
            for interaction in emu.interactions.values():
                interaction.expired = interaction.expired or interaction.placeholder_pending
            game, state = await emu.wait_for(
                table.settled, 60, message="the AI's move made by the other process"
            )
            ai_moves = _posts_of(emu, held.since, "AI 1")
            assert len(ai_moves) == len({p.text for p in ai_moves}), "no AI move twice"
            assert all(p.seq > post.seq for p in ai_moves), "the AI moved after, in order"

            # A reminder falls due while the shard's process is away: sent once.
            await reader.sql(
                "UPDATE games SET remind_at = ? WHERE id = ?",
                (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds"),
                game.id,
            )
            mover = game.seats[state.current_seat() or 0].user_id

            def reminders() -> list:
                return [
                    r
                    for r in emu.messages(visibility="public", kind="channel_message")
                    if f"<@{mover}>, it is your turn" in r.text
                ]

            await emu.wait_for(reminders, 30, message="the reminder")

            # The shard's process comes back and answers this server again; play goes on,
            # the AI's turns taken by either process.
            back = await start_bot_process(
                emu, tmp_path, database_url=url, shard_ids=(here,), shard_count=2
            )
            processes[here] = back
            before = len(emu.interactions)
            game, state = await table.play_moves(12)
            assert len(emu.interactions) > before
            assert len(reminders()) == 1
            # Every stored action that shows something was announced exactly once, and
            # nothing is owed any more.
            actions = await reader.actions(game)
            shown = [text for _, text in actions if not is_peek(text)]
            assert len(board_posts(emu)) == 1 + len(shown), "each move posted once, the deal too"
            repo = await reader.reader()

            async def nothing_owed() -> bool:
                return not await repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")

            await emu.wait_for(nothing_owed, 30, message="every post marked as made")
    finally:
        await reader.close()


async def test_reminders_due_at_once_are_sent_once_by_three_processes(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    url = await new_postgres_database(postgres)
    channels = [emu.add_channel(f"table-{n}") for n in range(TABLES)]
    repo = await GameStore.open(url)
    service = GameService(repo, seed_source=random.Random(5))
    try:
        for n, channel in enumerate(channels):
            await service.lobby.new_lobby(
                channel_id=channel.id,
                guild_id=emu.guild_id,
                user_id=1000 + n,
                name=f"P{n}",
                game_name="high-voltage",
            )
            await service.lobby.join(channel_id=channel.id, user_id=5000 + n, name=f"Q{n}")
            await service.lobby.start(channel_id=channel.id, user_id=1000 + n, can_manage=False)
        # Their starts were told (these tables were set by hand), and all their reminders fall
        # due in the same second.
        await repo.db.transact(
            lambda tx: tx.execute("UPDATE announcements SET sent_at = created_at")
        )
        await repo.db.transact(
            lambda tx: tx.execute(
                "UPDATE games SET remind_at = ?",
                (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="seconds"),
            )
        )
    finally:
        await repo.close()

    def reminded() -> dict[int, int]:
        sent: dict[int, int] = {}
        for r in emu.messages(visibility="public", kind="channel_message"):
            if "it is your turn" in r.text:
                sent[r.channel_id] = sent.get(r.channel_id, 0) + 1
        return sent

    reader = await GameStore.open(url)

    async def nothing_owed() -> bool:
        return not await reader.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")

    try:
        async with bot_processes(emu, tmp_path, url, 3):
            await emu.wait_for(lambda: len(reminded()) == TABLES, 60, message=f"{TABLES} reminders")
            # Every reminder is marked as sent and the next is an hour away: no process has
            # one left to send. Leaving stops them, so what came by then is all that comes.
            await emu.wait_for(nothing_owed, 30, message="every reminder marked as sent")
    finally:
        await reader.close()
    assert sorted(reminded().values()) == [1] * TABLES
    assert set(reminded()) == {c.id for c in channels}


async def test_four_processes_started_together_all_connect_without_an_invalid_session(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    """Discord admits one IDENTIFY per bucket per interval for the whole bot. Four processes
    started at once, their shards all in one bucket, take turns from the database: each is
    admitted at its first IDENTIFY, an interval after the one before."""
    emu = emulator
    emu.gateway.max_concurrency = 1  # one bucket: every shard waits for the one before
    emu.gateway.identify_interval = interval = 0.3
    url = await new_postgres_database(postgres)
    started = await asyncio.gather(
        *(
            start_bot_process(
                emu,
                tmp_path,
                database_url=url,
                shard_ids=(k,),
                shard_count=4,
                settings={"IDENTIFY_INTERVAL": str(2 * interval)},
            )
            for k in range(4)
        )
    )
    try:
        assert emu.gateway.connected_shards == {0, 1, 2, 3}
        log = emu.gateway.identify_log
        assert [a for a in log if not a.accepted] == [], "an IDENTIFY was refused"
        assert sorted(a.shard_id for a in log) == [0, 1, 2, 3], "each identified once"
        times = sorted(a.at for a in log)
        assert all(b - a >= interval for a, b in itertools.pairwise(times)), times
    finally:
        for bot in started:
            await bot.stop()
    for bot in started:
        assert not unexpected(bot.logged()), bot.logged()[-4000:]
