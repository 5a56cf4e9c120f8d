"""A thread per game: when the bot may create threads, the game is played in a thread started
from its lobby message (boards, AI moves, the result, the replay), the lobby links to it, and a
move typed in the channel still works; with thread:false or without the permission everything
stays in the channel."""

from __future__ import annotations

import random

import pytest
from e2e_harness import BotHarness, board_posts, racing_cell

from games import find_game
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

REPLAY = "replay.gif"


async def ada_to_move(hv: BotHarness, timeout: float = 30.0) -> tuple[GameRow, object]:
    """The game once it is Ada's turn (or over), after the AI seat's moves and their posts."""

    async def found() -> tuple[GameRow, object] | None:
        game = await hv.game()
        state = find_game(game.game_name).state_from_dict(game.state)
        return (game, state) if state.is_terminal() or state.current_seat() == 0 else None

    found_now = await hv.emu.wait_for(found, timeout, message="the AI's move")
    await hv.emu.settle()
    return found_now


async def test_a_game_in_a_thread_from_start_to_replay(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu, channel=emu.threads()[0]) if emu.threads() else [])

    # The thread hangs off the lobby message, is named after the game, and is stored.
    (thread,) = emu.threads(emu.channel)
    game = await hv.game()
    assert thread.id == lobby.message_id and thread.parent_id == emu.channel.id
    assert thread.name == f"Pylons #{game.id}"
    assert game.thread_id == thread.id
    assert await hv.game(thread.id) == game, "the thread finds the game too"
    assert f"<#{thread.id}>" in emu.message(lobby.message_id).text, "the lobby links to it"
    assert not board_posts(emu), "no board in the channel"
    (secret,) = emu.messages(visibility=Visibility.dm_to(ada))
    assert f"<#{thread.id}>" in secret.text, "the DM names where the game is played"

    # The opening choice, on the public board in the thread.
    (opening,) = board_posts(emu, channel=thread)
    keep = f"act:{game.id}:{game.version}:keep"
    await emu.click(ada, keep, message=opening.message_id)

    rng = random.Random(3)
    moves = 0
    restarted = False
    while True:
        game, state = await ada_to_move(hv)
        if state.is_terminal():
            break
        cell = racing_cell(state, rng)
        seen = len(board_posts(emu, channel=thread))
        if moves == 1:
            # Typed in the channel: the board goes to the thread, Ada gets a private pointer.
            reply = await emu.slash(ada, "pylons place", cell=cell)
            assert all(r.channel_id == thread.id for r in reply.public), emu.describe(reply)
            assert any(f"<#{thread.id}>" in r.text for r in reply.ephemeral), emu.describe(reply)
        else:
            reply = await emu.slash(ada, "pylons place", cell=cell, channel=thread)
            # Everything is posted in the thread; only the lobby above it says, at the end,
            # that the game is finished.
            posted = [r for r in reply.public if r.message_id != lobby.message_id]
            assert posted and all(r.channel_id == thread.id for r in posted), emu.describe(reply)
        assert len(board_posts(emu, channel=thread)) > seen
        moves += 1
        if moves == 2 and not restarted:
            # State in the database: after a restart a move typed in the thread still works.
            await hv.restart()
            restarted = True

    # A whole game's replay is a second or two of drawing, ten times that on a slowed machine.
    await emu.wait_for(
        lambda: [
            r for r in emu.messages(visibility="public", channel=thread) if r.has_attachment(REPLAY)
        ],
        timeout=60,
    )
    assert restarted and moves > 2
    game = await hv.game()
    assert game.status == "finished"
    posts = board_posts(emu, channel=thread)
    assert "Game over" in posts[-1].text, "the result is in the thread"
    assert len(posts) == 1 + len(await hv.actions(game)), "a board after every move, all there"
    assert not board_posts(emu), "still nothing in the channel"
    in_channel = emu.messages(visibility="public", channel=emu.channel)
    assert all(r.message_id == lobby.message_id for r in in_channel), emu.describe(in_channel)


async def test_thread_false_keeps_the_game_in_the_channel(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons", thread=False)).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    await assert_played_in_channel(emu, hv, lobby.message_id)


async def test_without_the_permission_there_is_no_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator  # a plain member's permissions: no threads
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    await assert_played_in_channel(emu, hv, lobby.message_id)


async def assert_played_in_channel(
    emu: DiscordEmulator, hv: BotHarness, lobby_id: int | None
) -> None:
    assert not emu.threads()
    assert not emu.requests_to("POST", "/threads")
    game = await hv.game()
    assert game.thread_id is None
    assert "<#" not in emu.message(lobby_id or 0).text
    (opening,) = board_posts(emu)
    ada = next(u for u in emu.users.values() if u.name == "Ada")
    await emu.click(ada, f"act:{game.id}:{game.version}:keep", message=opening.message_id)
    game, state = await ada_to_move(hv)
    cell = state.legal_actions()[0].text().split()[1]
    reply = await emu.slash(ada, "pylons place", cell=cell)
    assert reply.public and all(r.channel_id == emu.channel.id for r in reply.public)
    assert not any("<#" in r.text for r in reply if r.visibility == Visibility.ephemeral_to(ada))
