"""Taking a move back through Discord: /game undo asks the other people with buttons, and the
board goes back once they accept; a draw cannot be taken back. Alone with AI seats, a person
takes back at once, with the AI seats' moves after theirs, as from a chess program, anything
but what showed them something hidden."""

from __future__ import annotations

import random

import pytest
from e2e_harness import (
    BOARD,
    BotHarness,
    Table,
    board_posts,
    button_id,
    late_answers,
    names_of,
    racing_cell,
    rotated,
)
from same_pictures import same_picture

from engine import State
from games import find_game
from hvbot.messages.presenters import presenter_for
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, InteractionFailed, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


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
    assert "Only the player who made the last move" in refused[0].text
    # Someone not at the table is told just that.
    passer_by = emu.add_user("Pat")
    refused = await emu.slash(passer_by, "game undo")
    assert [r.visibility.kind for r in refused.where(kind="response")] == ["ephemeral"]
    assert refused[0].text.startswith("You are not playing in this game"), refused[0].text

    reply = await emu.slash(mover, "game undo")
    (ask,) = reply.where(kind="response", visibility="public")
    assert f"<@{other.id}>" in ask.text and in_words(table.move) in ask.text
    accept = next(i for i in ask.custom_ids if i.endswith(":yes"))

    # The request survives a restart; its buttons still work.
    await hv.restart()
    boards = len(board_posts(emu))
    await emu.click(other, accept, message=ask.message_id)
    assert not emu.message(ask.message_id).buttons, "the request is settled"
    await emu.wait_for(lambda: len(board_posts(emu)) > boards)
    assert "took back" in board_posts(emu)[-1].text
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
        assert ask.visibility.kind == "public" and in_words(table.move) in ask.text
        boards = len(board_posts(emu))
        accept = next(i for i in ask.custom_ids if i.endswith(":yes"))
        with pytest.raises(InteractionFailed):
            await emu.click(table.other, accept, message=ask.message_id)
    await emu.wait_for(lambda: len(board_posts(emu)) > boards, message="the undo announced")
    assert "took back" in board_posts(emu)[-1].text
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
    assert answer.visibility.kind == "ephemeral" and "showed something hidden" in answer.text
    assert len(await hv.actions()) == 1


# ---------------------------------------------------------------------- against AI seats


async def ai_replied(hv: BotHarness, table: Table, count: int) -> tuple[GameRow, State]:
    """The game once more than `count` actions are stored, the last of them an AI seat's,
    and the person is to move again with everything announced."""

    async def replied() -> tuple[GameRow, State] | None:
        settled = await table.settled()
        if settled is None:
            return None
        game, _ = settled
        actions = await hv.actions(game)
        if len(actions) <= count or not game.seats[actions[-1][0]].is_ai:
            return None
        return settled

    return await table.emu.wait_for(replied, 20, message="the AI seat's reply")


async def test_alone_with_an_ai_a_draw_stays_and_a_rotation_is_taken_back_at_once(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A draw showed Ada a face-down card: taken back, she could draw elsewhere knowing it,
    in a game that counts for /stats, so she is told privately why it stays, and nothing
    changes. A rotation and the AI's reply are taken back as from a chess program: nobody is
    asked, the AI cannot refuse, and the board before it is shown again in public."""
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="high-voltage", thread=False)
    await emu.slash(ada, "game addai", level="easy")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada])
    game, state = await table.wait_for_turn()
    done = await hv.actions(game)

    # A draw placed at once that closes no line: the AI seat replies by itself.
    draws = [f"draw {c['cell']} here r0" for c in state.view(None)["cells"] if c["state"] == "down"]
    draw = next(d for d in draws if not Table._closes_line(state, d))
    await table.play(game, state, draw)
    await ai_replied(hv, table, len(done) + 1)
    game, before = await table.wait_for_turn()
    done = await hv.actions(game)

    boards = len(board_posts(emu))
    refused = await emu.slash(ada, "game undo")
    (answer,) = refused.where(kind="response")
    assert answer.visibility == Visibility.ephemeral_to(ada), emu.describe(refused)
    assert "showed you something hidden" in answer.text, answer.text
    assert "/stats" in answer.text and "taken back at once" in answer.text
    assert not refused.where(kind="channel_message", visibility="public")
    assert (await hv.game()).version == game.version and await hv.actions(game) == done
    assert len(board_posts(emu)) == boards

    rotations = [a.text() for a in before.legal_actions() if a.text().startswith("rotate")]
    rotation = next(r for r in rotations if not Table._closes_line(before, r))
    await table.play(game, before, rotation)
    await ai_replied(hv, table, len(done) + 1)
    boards = len(board_posts(emu))
    reply = await emu.slash(ada, "game undo")
    assert not reply.where(kind="response", visibility=Visibility.ephemeral_to(ada)), emu.describe(
        reply
    )
    await emu.wait_for(lambda: len(board_posts(emu)) > boards, message="the board taken back")
    (post,) = board_posts(emu)[boards:]
    assert f"<@{ada.id}> took back their move (" in post.text, post.text
    assert "AI players' moves after it" in post.text, post.text
    game = await hv.game()
    assert await hv.actions(game) == done
    after = find_game(game.game_name).state_from_dict(game.state)
    assert after == before, "the position before Ada's rotation"
    expected = presenter_for(game.game_name, game.language).board_png(
        after.view(None), names_of(game)
    )
    assert same_picture(post.attachment(BOARD).data, expected)


async def test_alone_with_an_ai_in_pylons_undo_goes_back_before_the_move(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada])
    rng = random.Random(3)
    # Past the opening choice, to a turn of Ada's that follows one of the AI's.
    while True:
        game, state = await table.wait_for_turn()
        actions = await hv.actions(game)
        if len(actions) >= 2 and game.seats[actions[-1][0]].is_ai:
            break
        if "keep" in [a.text() for a in state.legal_actions()]:
            opening = board_posts(emu)[-1].message_id
            await emu.click(ada, button_id(game, "keep"), message=opening)
        else:
            await emu.slash(ada, "pylons place", cell=racing_cell(state, rng))
    before, done = state, actions
    await emu.slash(ada, "pylons place", cell=racing_cell(state, rng))
    await ai_replied(hv, table, len(done) + 1)

    boards = len(board_posts(emu))
    await emu.slash(ada, "game undo")
    await emu.wait_for(lambda: len(board_posts(emu)) > boards, message="the board taken back")
    assert "took back their move" in board_posts(emu)[-1].text
    game = await hv.game()
    assert await hv.actions(game) == done
    assert find_game(game.game_name).state_from_dict(game.state) == before

    game, state = await table.wait_for_turn()
    await emu.slash(ada, "pylons place", cell=racing_cell(state, rng))
    await ai_replied(hv, table, len(done) + 1)
