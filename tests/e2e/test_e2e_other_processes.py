"""What a bot says of a game another process changed (PostgreSQL, several processes): the bot
runs here, on the tests' PostgreSQL server, and a change made beside it by another process is
heard by its version watch, so a click is judged on the game as stored, not on the copy the
bot kept."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import new_postgres_database, running
from e2e_harness import BotHarness, lobby_button
from postgres_server import PostgresServer

from data.texts import texts_for
from hvbot.services import GameService
from hvbot.store import GameStore
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


@pytest.fixture
async def on_postgres(emulator: DiscordEmulator, postgres: PostgresServer):
    async with running(BotHarness(emulator, await new_postgres_database(postgres))) as harness:
        yield harness


async def test_a_click_on_a_lobby_another_process_closed_says_it_is_closed(
    emulator: DiscordEmulator, on_postgres: BotHarness
) -> None:
    emu, harness = emulator, on_postgres
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    lobby = (await emu.slash(ada, "game new", game="high-voltage"))[0]
    game = await harness.game()
    assert harness.bot is not None
    watch = harness.bot.service.repo.db.watch
    assert watch is not None and watch.listening
    # Another process closes the lobby (its day passed there first, say); the bot hears it.
    heard = asyncio.ensure_future(watch.heard_of(game.id, game.version + 1))
    await harness.sql(
        "UPDATE games SET status = 'abandoned', version = version + 1 WHERE id = ?", game.id
    )
    await heard
    since = emu.last_seq
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    said = [r.content for r in emu.messages(visibility=Visibility.ephemeral_to(bo.id), since=since)]
    assert said == [texts_for("en")("bot.lobby.closed")], said


async def test_a_game_another_process_ended_is_exported_as_ended(
    emulator: DiscordEmulator, on_postgres: BotHarness
) -> None:
    """The game ends in another process (its last person resigns there): the bot's copy still
    has it under way, which is its players' alone; asked for by id, its record is the ended
    game's, anyone's."""
    emu, harness = emulator, on_postgres
    ada, cy = emu.add_user("Ada"), emu.add_user("Cy")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await harness.game()
    assert harness.bot is not None
    watch = harness.bot.service.repo.db.watch
    assert watch is not None
    other = GameService(await GameStore.open(str(harness.database)))
    try:
        heard = asyncio.ensure_future(watch.heard_of(game.id, game.version + 1))
        await other.play.resign(channel_id=game.channel_id, user_id=ada.id)
        await heard
    finally:
        await other.repo.close()
    reply = await emu.slash(cy, "game export", game=game.id)
    (answer,) = reply.messages
    assert f"The record of High Voltage game #{game.id}" in answer.content, answer.content
    assert json.loads(answer.attachment(f"high-voltage-{game.id}.json").data)["status"] == "stopped"
