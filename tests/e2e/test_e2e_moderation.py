"""Moderators through Discord: /game end and /game kick are theirs alone; an end is said in
public with who ended it, and a kicked player's seat goes to an AI that plays on at once."""

from __future__ import annotations

import logging

import pytest
from e2e_harness import BotHarness, board_posts

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_moderator_kicks_a_player_and_ends_the_game(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    mod = emu.add_user("Mo", manage_channels=True)
    await emu.slash(ada, "game new", game="high-voltage", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(cy, "game join")
    seats = await emu.autocomplete(mod, "game kick", "seat", "")
    assert [c["name"] for c in seats] == ["1. Ada", "2. Bo", "3. Cy"]

    refused = await emu.slash(bo, "game kick", seat=3)
    assert "Only moderators" in refused[0].content and not refused.public
    freed = await emu.slash(mod, "game kick", seat=3)
    (note,) = freed.where(kind="response")
    assert note.content == "The seat is free again." and not note.is_public
    lobby = emu.message((await hv.game()).lobby_message_id or 0)
    assert "Cy" not in lobby.content, "the lobby says so"
    await emu.slash(cy, "game join")
    refused = await emu.slash(emu.add_user("Di"), "game addai")
    assert "Join first" in refused[0].content, "someone not seated adds no AI"
    await emu.slash(mod, "game addai")  # a moderator may
    assert (await hv.game()).seats[-1].is_ai
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))

    game = await hv.game()
    seat = game.seat_of(bo.id)
    assert seat is not None
    kicked = await emu.slash(mod, "game kick", seat=seat + 1)
    (note,) = kicked.where(kind="response")
    assert note.content == "Done." and not note.is_public, "the moderator is told privately"
    (told,) = kicked.where(kind="channel_message", visibility="public")[:1]
    assert told.content.startswith(f"🛡️ <@{mod.id}> removed <@{bo.id}> from the game")
    game = await hv.game()
    assert game.seat_of(bo.id) is None and game.seats[seat].is_ai

    refused = await emu.slash(ada, "game end")
    assert "Only moderators" in refused[0].content
    ended = await emu.slash(mod, "game end")
    (told,) = ended.where(kind="channel_message", visibility="public")
    assert f"<@{mod.id}> ended this game" in told.content
    assert (await hv.latest_game()).status == "abandoned"


async def test_a_moderator_who_plays_is_pointed_to_resign(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Their own seat, or the end of a game they play, would void their result: both are
    refused privately, naming /game resign, and the game goes on unchanged."""
    emu = emulator
    ada, mod = emu.add_user("Ada"), emu.add_user("Mo", manage_channels=True)
    await emu.slash(mod, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game join")
    await emu.slash(mod, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    game = await hv.game()
    seat = game.seat_of(mod.id)
    assert seat is not None

    refused = await emu.slash(mod, "game kick", seat=seat + 1)
    (note,) = refused.where(kind="response")
    assert note.content.startswith("That is your own seat") and not note.is_public
    assert "/game resign" in note.content
    refused = await emu.slash(mod, "game end")
    (note,) = refused.where(kind="response")
    assert note.content.startswith("You play in this game") and not note.is_public
    assert "/game resign" in note.content
    assert not refused.where(kind="channel_message", visibility="public")
    after = await hv.game()
    assert (after.status, after.version) == ("active", game.version)


async def test_kick_suggests_no_seat_for_a_game_number_no_game_can_have(
    emulator: DiscordEmulator, hv: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """The game option of /game kick as typed, a number past what the databases store: no
    seats, answered at once, and nothing the bot logs (it ran at every keystroke)."""
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    mod = emu.add_user("Mo", manage_channels=True)
    await emu.slash(ada, "game new", game="high-voltage", thread=False)
    await emu.slash(bo, "game join")
    game = await hv.game()
    caplog.set_level(logging.WARNING)
    for typed in (12345678901234567890123, 2**63, -(10**23)):
        assert await emu.autocomplete(mod, "game kick", "seat", "", game=typed) == [], typed
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    seats = await emu.autocomplete(mod, "game kick", "seat", "", game=game.id)
    assert [c["name"] for c in seats] == ["1. Ada", "2. Bo"], "a real number still works"
