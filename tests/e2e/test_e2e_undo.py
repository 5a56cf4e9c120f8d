"""Taking a move back through Discord: /game undo asks the other people with buttons, and the
board goes back once they accept; a draw cannot be taken back."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, board_posts, late_answers, rotated

from games import find_game
from hvbot.messages.presenters import presenter_for
from sandbox.emulator import DiscordEmulator, InteractionFailed


def in_words(move: str) -> str:
    """A High Voltage move as the bot's texts say it (the engine's typed form never shows)."""
    words = presenter_for("high-voltage").move_words(move)
    assert move not in words
    return words


async def test_a_rotation_is_taken_back_once_the_other_player_accepts(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    table = await rotated(emu, hv)
    mover, other = table.mover, table.other

    refused = await emu.slash(other, "game undo")
    assert [r.visibility.kind for r in refused.where(kind="response")] == ["ephemeral"]
    assert "Only the player who made the last move" in refused[0].content

    reply = await emu.slash(mover, "game undo")
    (ask,) = reply.where(kind="response", visibility="public")
    assert f"<@{other.id}>" in ask.content and in_words(table.move) in ask.content
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
    assert find_game(game.game_name).state_from_dict(game.state) == table.before


async def test_an_undo_answered_too_late_is_still_asked_taken_back_and_announced(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """In a very busy moment Discord's window can close before /game undo or its answer is
    answered: the question still reaches the channel, and the accepted undo still happens
    in plain sight."""
    emu = emulator
    table = await rotated(emu, hv)
    since = emu.last_seq
    with late_answers(emu):
        with pytest.raises(InteractionFailed):
            await emu.slash(table.mover, "game undo")
        ask = await emu.wait_for_message(lambda r: bool(r.custom_ids), since=since)
        assert ask.visibility.kind == "public" and in_words(table.move) in ask.content
        boards = len(board_posts(emu))
        accept = next(i for i in ask.custom_ids if i.endswith(":yes"))
        with pytest.raises(InteractionFailed):
            await emu.click(table.other, accept, message=ask.message_id)
    await emu.wait_for(lambda: len(board_posts(emu)) > boards, message="the undo announced")
    assert "took back" in board_posts(emu)[-1].content
    assert not emu.message(ask.message_id).buttons, "the request shows as settled"
    game = await hv.game()
    assert find_game(game.game_name).state_from_dict(game.state) == table.before


async def test_a_draw_cannot_be_taken_back(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    state = find_game(game.game_name).state_from_dict(game.state)
    mover = emu.users[game.seats[state.current_seat()].user_id]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await emu.slash(mover, "hv draw", cell=cell, place="here", rotation=0)
    reply = await emu.slash(mover, "game undo")
    (answer,) = reply.where(kind="response")
    assert answer.visibility.kind == "ephemeral" and "showed something hidden" in answer.content
    assert len(await hv.actions()) == 1
