"""A drawn Sector 6 tile is placed with a click: its drawer's private prompt carries a button
for each place and turn it fits (as many as a message holds), a click applies exactly that
placement, and a click on a button of an older version is refused and changes nothing."""

from __future__ import annotations

import pytest
from e2e_harness import BOARD, BotHarness, board_posts

from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_drawn_tile_is_placed_by_clicking_one_of_its_buttons(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="sector6", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu), message="the first board")
    game, state = await hv.game(), await hv.state()
    mover = emu.users[game.seats[state.current_seat() or 0].user_id or 0]

    reply = await emu.slash(mover, "s6 draw")
    (prompt,) = [r for r in reply if r.has_attachment("tile.png")]
    assert prompt.visibility == Visibility.ephemeral_to(mover)
    drawn = await hv.game()
    prefix = f"act:{drawn.id}:{drawn.version}:place_"
    ids = prompt.custom_ids
    assert 0 < len(ids) <= 25 and all(i.startswith(prefix) for i in ids), ids
    # The first tile fits anywhere: more ways than buttons, and the prompt says how to reach
    # the others.
    assert "/s6 place" in prompt.text and "more than buttons can hold" in prompt.text
    legal = {a.text() for a in (await hv.state()).legal_actions()}
    offered = [i.removeprefix(f"act:{drawn.id}:{drawn.version}:").replace("_", " ") for i in ids]
    assert set(offered) <= legal

    # Asked again, the tile comes again with the same buttons: a copy left behind.
    again = await emu.slash(mover, "s6 draw")
    (copy,) = [r for r in again if r.has_attachment("tile.png")]
    assert copy.custom_ids == ids

    chosen = offered[-1]
    _, cell, turn = chosen.split()
    posts = len(board_posts(emu))
    await emu.click(mover, ids[-1], message=prompt.message_id)
    await emu.wait_for(lambda: len(board_posts(emu)) > posts, message="the placement's board")
    placed = await hv.game()
    actions = await hv.actions(placed)
    assert actions[-1][1] == chosen, "exactly the placement clicked"
    assert placed.version == drawn.version + 1
    (post,) = board_posts(emu)[posts:]
    assert post.has_attachment(BOARD) and f"placed it on {cell}" in post.text
    tile = next(t for t in (await hv.state()).view(None)["tiles"] if t["cell"] == cell)
    assert tile["rotation"] == int(turn[1:])
    # The prompt's buttons are gone: it says what was done.
    assert not emu.message(prompt.message_id or 0).buttons

    # A click on the copy, made for the version before, is refused privately; nothing changes.
    since = emu.last_seq
    await emu.click(mover, ids[0], message=copy.message_id)
    refusals = [r for r in emu.messages(kind="response", since=since) if "out of date" in r.text]
    assert [r.visibility for r in refusals] == [Visibility.ephemeral_to(mover)]
    assert (await hv.game()).version == placed.version
    assert len(board_posts(emu)) == posts + 1
