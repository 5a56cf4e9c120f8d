"""The lobby message follows its game to the end: once the game is won, resigned, abandoned or
ended by a moderator, the lobby message in the channel says it has ended (and, for a game
played in a thread, where), owed with the change that ended it so a crash does not lose it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BotHarness, board_posts, confirmed

from hvbot.services import GameService
from hvbot.store import GameStore
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def lobby_says(emu: DiscordEmulator, message_id: int, *words: str) -> bool:
    content = emu.message(message_id).text
    return "good luck" not in content and all(w in content for w in words)


async def test_the_lobby_message_says_a_resigned_game_in_a_thread_has_ended(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: emu.threads(emu.channel), message="the game's thread")
    (thread,) = emu.threads(emu.channel)
    assert "Started: good luck!" in emu.message(lobby.message_id or 0).text

    # Ada, the only person at the table, resigns in the thread: the game ends there.
    await confirmed(emu, ada, "game resign", channel=thread)
    assert (await hv.game()).status == "finished"
    await emu.wait_for(
        lambda: lobby_says(
            emu,
            lobby.message_id or 0,
            "This game is finished.",
            f"It was played in <#{thread.id}>: its moves and how it ended are there.",
        ),
        10,
        message="the lobby message says the game ended",
    )
    assert not emu.message(lobby.message_id or 0).buttons


async def test_the_lobby_message_says_a_game_a_moderator_ended_was_abandoned(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    lobby = (await emu.slash(ada, "game new", game="pylons", thread=False)).public[0]
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu), message="the first board")
    await emu.slash(emu.add_user("Mod", manage_channels=True), "game end")
    await emu.wait_for(
        lambda: lobby_says(emu, lobby.message_id or 0, "This game is abandoned."),
        10,
        message="the lobby message says the game was abandoned",
    )


async def test_a_game_ended_by_a_process_that_died_gets_its_lobby_message_updated(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The end and the lobby message's update are stored together: the bot that carries on
    edits the lobby message, and marks it done."""
    emu = emulator
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons", thread=False)).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu), message="the first board")
    await hv.caught_up()
    await hv.stop()

    # Another process stores Ada's resignation, which ends the game, and dies.
    dying = await GameStore.open(hv.database)
    service = GameService(dying, seed_source=random.Random(1))
    change = await service.play.resign(channel_id=emu.channel.id, user_id=ada.id)
    game, what = change.game, change.what
    await dying.close()
    assert what == "ended" and game.status == "finished"
    assert "good luck" in emu.message(lobby.message_id or 0).text

    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await hv.sql("UPDATE announcements SET claimed_until = ? WHERE sent_at IS NULL", past)
    await hv.start()
    await emu.wait_for(
        lambda: lobby_says(emu, lobby.message_id or 0, "This game is finished."),
        10,
        message="the lobby message updated by the bot that carried on",
    )
    reader = await hv.reader()

    async def made() -> bool:
        return not await reader.db.fetch(
            "SELECT id FROM announcements WHERE kind = 'lobby' AND sent_at IS NULL"
        )

    await emu.wait_for(made, 10, message="the lobby's update marked as made")
