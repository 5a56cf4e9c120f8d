"""A whole Pylons game through Discord: the opening choice on public buttons, pylons placed
with /pylons place against an AI seat, a board after every move, and the result."""

from __future__ import annotations

import random

from e2e_harness import BotHarness, board_posts, racing_cell, replay

from games import find_game
from sandbox.emulator import DiscordEmulator, Visibility


async def test_a_pylons_game_from_lobby_to_result(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.game_name == "pylons" and game.seats[0].user_id == ada.id

    # Ada is told her side privately; Pylons has no secret, but every game starts this way.
    await emu.wait_for(lambda: board_posts(emu) and emu.messages(visibility=Visibility.dm_to(ada)))
    (dm,) = emu.messages(visibility=Visibility.dm_to(ada))
    assert dm.embeds[0]["title"] == "You play BLUE"

    # The opening choice hides nothing: its buttons are on the public board post.
    (opening,) = board_posts(emu)
    keep = f"act:{game.id}:{game.version}:keep"
    assert keep in opening.custom_ids
    await emu.click(ada, keep, message=opening.message_id)
    # A click is acknowledged before its move is stored; the buttons go once it is.
    await emu.wait_for(lambda: not emu.message(opening.message_id).buttons)
    assert (await hv.actions())[0] == (0, "keep"), "the choice is made once"

    rng = random.Random(5)
    for _ in range(250):
        game = await hv.game()
        state = find_game(game.game_name).state_from_dict(game.state)
        if state.is_terminal():
            break
        if state.current_seat() != 0:
            # The AI seat moves by itself; wait for its board.
            seen = len(board_posts(emu))
            await emu.wait_for(lambda seen=seen: len(board_posts(emu)) > seen)
            continue
        reply = await emu.slash(ada, "pylons place", cell=racing_cell(state, rng))
        assert reply.public, emu.describe(reply)
    else:
        raise AssertionError("the game did not end")

    await emu.settle()
    game = await hv.game()
    assert game.status == "finished"
    actions = await hv.actions(game)
    states = replay(game, actions)
    assert states[-1] == state
    assert {seat for seat, _ in actions} == {0, 1}, "both Ada and the AI moved"
    posts = board_posts(emu)
    assert len(posts) == 1 + len(actions), "a board after the start and after every move"
    assert "Game over" in posts[-1].content
    # The lobby message no longer wishes good luck: it says the game is over.
    assert emu.message(lobby.message_id or 0).content.endswith("This game is finished.")
    refusal = await emu.slash(ada, "pylons place", cell="K12")
    assert refusal[0].visibility == Visibility.ephemeral_to(ada)
