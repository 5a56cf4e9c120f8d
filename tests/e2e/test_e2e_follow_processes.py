"""A follower's digest with two real bot processes sharing a real PostgreSQL: the game has
moved since the follower was last told, one process claims the digest and is killed with its
DM on its way; the other takes the digest over once its lease runs out. The follower reads it
exactly once."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from bot_processes import bot_processes
from conftest import new_postgres_database
from played_games import started_game
from postgres_server import PostgresServer

from hvbot.services import GameService
from hvbot.store import GameStore
from hvbot.store.sql import statement
from sandbox.emulator import DiscordEmulator

pytestmark = [pytest.mark.e2e, pytest.mark.processes]

LEASE_S = 4.0
MOVES = 3
CHANNEL_POSTS = "POST /channels/{channel_id}/messages"
CLAIMED = re.compile(r"INFO hvbot\.services\.follows: game (\d+): a digest claimed")


async def test_a_digest_whose_process_is_killed_before_it_sends_comes_once_from_another(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    emu = emulator
    url = await new_postgres_database(postgres)
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    # A game in the channel, Cy following it by DM, three moves since: a digest is due.
    store = await GameStore.open(url)
    try:
        service = GameService(store, seed_source=random.Random(3))
        game = await started_game(
            service,
            channel_id=emu.channel.id,
            guild_id=emu.guild_id,
            players=[(ada.id, "Ada"), (bo.id, "Bo")],
        )
        following = await service.follows.follow(
            game=game, user_id=cy.id, channel_id=emu.channel.id, language="en"
        )
        assert following.by_dm
        rng = random.Random(4)
        for _ in range(MOVES):
            found = await store.game(game_id=game.id, fresh=True)
            assert found is not None
            state = service.games.load_state(found)
            user = found.seats[state.current_seat() or 0].user_id
            assert user is not None
            await service.play.act(game_id=game.id, user_id=user, action=state.sample_action(rng))
        # The channel was told the moves already: only the digest is left to send.
        await store.db.transact(statement("UPDATE announcements SET sent_at = created_at"))
    finally:
        await store.close()

    on_its_way = emu.faults.hold(CHANNEL_POSTS, starts=f"**Pylons** #{game.id} in")
    async with bot_processes(emu, tmp_path, url, 2, lease_s=LEASE_S) as processes:
        await emu.wait_for(lambda: on_its_way.held == 1, 30, message="the digest on its way")
        (teller,) = [p for p in processes if CLAIMED.search(p.logged())]
        teller.kill()
        await teller.process.wait()
        on_its_way.release()  # the connection it came on is gone: Discord never sees it

        (digest,) = await emu.wait_for(
            lambda: emu.messages(visibility="dm", user=cy), 30, message="the other sends it"
        )
        assert digest.text.startswith(f"**Pylons** #{game.id} in <#{emu.channel.id}>")
        assert digest.custom_ids == [f"unfollow:{game.id}"]
        reader = await GameStore.open(url)
        try:

            async def all_sent() -> bool:
                owed = await reader.db.fetchval(
                    "SELECT COUNT(*) FROM announcements WHERE kind = 'digest' AND sent_at IS NULL"
                )
                return owed == 0

            await emu.wait_for(all_sent, 30, message="the digest marked made")
            kept = await reader.follows.of(user_id=cy.id, game_id=game.id)
            made = await reader.db.fetchval(
                "SELECT COUNT(*) FROM announcements WHERE kind = 'digest'"
            )
        finally:
            await reader.close()
        assert kept is not None and kept.seen_moves == MOVES  # told, and claimed once
        assert made == 1
        survivor = next(p for p in processes if p is not teller)
        assert not CLAIMED.search(survivor.logged()), "taken over, not claimed again"
        assert len(emu.messages(visibility="dm", user=cy)) == 1
        emu.faults.clear()
