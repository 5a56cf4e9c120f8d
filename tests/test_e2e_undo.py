"""Taking a move back through Discord: /game undo asks the other people with buttons, and the
board goes back once they accept; a draw cannot be taken back."""

from __future__ import annotations

from discord_emulator import DiscordEmulator
from e2e_harness import BotHarness, board_posts

from engine import find_game


async def test_a_rotation_is_taken_back_once_the_other_player_accepts(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    before = find_game(game.game).state_from_dict(game.state)
    mover = emu.users[game.seats[before.current_seat()].user_id]
    other = bo if mover is ada else ada
    move = next(a.text() for a in before.legal_actions() if a.text().startswith("rotate"))
    _, cell, rotation = move.split()
    await emu.slash(mover, "hv rotate", cell=cell, rotation=int(rotation[1:]))
    assert (await hv.actions()) != []

    refused = await emu.slash(other, "game undo")
    assert [r.visibility.kind for r in refused.where(kind="response")] == ["ephemeral"]
    assert "Only the player who made the last move" in refused[0].content

    reply = await emu.slash(mover, "game undo")
    (ask,) = reply.where(kind="response", visibility="public")
    assert f"<@{other.id}>" in ask.content and move in ask.content
    accept = next(i for i in ask.custom_ids if i.endswith(":yes"))

    # The request survives a restart; its buttons still work.
    await hv.restart()
    boards = len(board_posts(emu))
    await emu.click(other, accept, message=ask.message_id)
    assert not emu.message(ask.message_id).buttons, "the request is settled"
    await emu.wait_for(lambda: len(board_posts(emu)) > boards)
    assert "took back" in board_posts(emu)[-1].content
    game = await hv.game()
    assert await hv.actions(game) == []
    assert find_game(game.game).state_from_dict(game.state) == before


async def test_a_draw_cannot_be_taken_back(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    state = find_game(game.game).state_from_dict(game.state)
    mover = emu.users[game.seats[state.current_seat()].user_id]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await emu.slash(mover, "hv draw", cell=cell, place="here", rotation=0)
    reply = await emu.slash(mover, "game undo")
    (answer,) = reply.where(kind="response")
    assert answer.visibility.kind == "ephemeral" and "showed something hidden" in answer.content
    assert len(await hv.actions()) == 1
