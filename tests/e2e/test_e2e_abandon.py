"""Abandoning a game through Discord: before the first move it ends at once; once under way
the others are asked with buttons; everyone agreeing ends it without a result, and a refusal
makes the creator's leaving a resignation, so the game goes on and counts as their loss."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, confirmed, rotated

from sandbox.emulator import DiscordEmulator, User

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def under_way(emu: DiscordEmulator, hv: BotHarness) -> tuple[User, User]:
    """Ada's High Voltage game with Bo, after its first move (a card turned)."""
    table = await rotated(emu, hv)
    game = await hv.game()
    ada = emu.users[game.creator_id]
    return ada, (table.other if table.mover is ada else table.mover)


async def test_under_way_the_game_ends_without_a_result_once_the_others_agree(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = await under_way(emu, hv)
    reply = await confirmed(emu, ada, "game abandon")
    (ask,) = reply.where(kind="response", visibility="public")
    assert ask.content.startswith(f"<@{ada.id}> asks to end this game without a result.")
    assert f"<@{bo.id}>" in ask.content
    assert (await hv.game()).status == "active"

    agree = next(i for i in ask.custom_ids if i.endswith(":yes"))
    await hv.restart()  # the question survives a restart; its buttons still work
    since = emu.last_seq
    await emu.click(bo, agree, message=ask.message_id)
    settled = emu.message(ask.message_id)
    assert not settled.buttons and settled.content == ask.content, "the question, settled"
    # The end is said in the channel, once, as a post of its own.
    told = [
        r
        for r in emu.messages(kind="channel_message", visibility="public", since=since)
        if r.content.startswith("Everyone agreed")
    ]
    assert len(told) == 1
    game = await hv.game()
    assert game.status == "abandoned"
    reader = await hv.reader()
    assert await reader.results.kinds_played(guild_id=game.guild_id or 0) == []


async def test_a_refusal_lets_the_game_go_on_without_the_creator_as_their_loss(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = await under_way(emu, hv)
    (ask,) = (await confirmed(emu, ada, "game abandon")).where(kind="response", visibility="public")
    refuse = next(i for i in ask.custom_ids if i.endswith(":no"))
    await emu.click(bo, refuse, message=ask.message_id)
    said = emu.message(ask.message_id).content
    assert said.startswith(f"<@{bo.id}> refused to end the game") and f"<@{ada.id}>" in said
    await hv.caught_up()
    game = await hv.game()
    assert game.status == "active" and game.seat_of(ada.id) is None
    assert [s.resigned_user_id for s in game.seats if s.is_ai] == [ada.id]


async def test_before_the_first_move_it_ends_at_once(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="pylons")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    reply = await confirmed(emu, ada, "game abandon")
    assert "was abandoned by" in reply[0].content and reply.public
    assert (await hv.game()).status == "abandoned"


async def test_the_question_says_exactly_when_it_ends_at_once_as_after_a_move_taken_back(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The game's only move taken back by agreement: no move stands on the board, and the
    question to abandon said beforehand that such a game ends at once, as it does."""
    emu = emulator
    table = await rotated(emu, hv)
    (ask,) = (await emu.slash(table.mover, "game undo")).where(kind="response", visibility="public")
    accept = next(i for i in ask.custom_ids if i.endswith(":yes"))
    await emu.click(table.other, accept, message=ask.message_id)
    await hv.caught_up()
    assert await hv.actions() == [], "the only move taken back"
    ada = emu.users[(await hv.game()).creator_id]
    question = (await emu.slash(ada, "game abandon")).where(kind="response")[0]
    assert (
        "While no move stands on the board (none made yet, or every one taken back), it ends "
        "at once; once a move stands, the others at the table are asked first."
    ) in question.content
    reply = await confirmed(emu, ada, "game abandon")
    assert "was abandoned by" in reply[0].content and reply.public
    assert (await hv.game()).status == "abandoned"
