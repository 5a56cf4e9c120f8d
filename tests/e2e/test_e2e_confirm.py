"""Resigning and abandoning ask first: a private question with a red button that does it and a
grey one that does nothing, for the person who asked alone, which gives up after a while
saying nothing changed."""

from __future__ import annotations

import pytest
from e2e_harness import DANGER, BotHarness, confirm_button, open_three_seat_game

from hvbot.handlers import confirm
from sandbox.emulator import DiscordEmulator, Reply, StoredMessage, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

GREY = 2  # Discord's secondary style


async def press_anyway(
    emu: DiscordEmulator, user: User, message: StoredMessage, custom_id: str
) -> Reply:
    """`user` presses a button of a message they cannot see: Discord shows a private answer
    to its person alone, but a stale or forged client may still send the click, and the bot
    must refuse it itself."""
    state = emu._new_interaction(3, user, message.channel_id, source=message)
    data = {"custom_id": custom_id, "component_type": 2}
    payload = emu._interaction_payload(state, data, message)
    return await emu._deliver(state, payload, settle=True, timeout=10.0)


async def test_resigning_asks_first_and_only_the_red_button_of_its_person_resigns(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, _, table = await open_three_seat_game(emu, hv)
    await table.wait_for_turn()
    before = await hv.game()

    asked = await emu.slash(bo, "game resign")
    found = confirm_button(asked)
    assert found is not None, emu.describe(asked)
    question, yes = found
    assert question.visibility == Visibility.ephemeral_to(bo)
    assert question.content.startswith("Resign from this game?"), question.content
    assert [b.style for b in question.components] == [DANGER, GREY]
    assert [b.label for b in question.components] == ["Resign", "No, keep it"]
    no = next(b.custom_id for b in question.components if b.style == GREY)
    assert no is not None
    assert (await hv.game()).version == before.version, "asking changes nothing"

    # The grey button: nothing changes, and the question says so.
    await emu.click(bo, no, message=question)
    settled = emu.message(question.message_id or 0)
    assert settled.content == "All right: nothing changed." and not settled.buttons
    assert (await hv.game()).seats == before.seats

    # Asked again; Ada cannot answer for Bo.
    question, yes = confirm_button(await emu.slash(bo, "game resign")) or (question, "")
    stored = emu.message(question.message_id or 0)
    refused = await press_anyway(emu, ada, stored, yes)
    (refusal,) = refused.where(kind="response")
    assert refusal.visibility == Visibility.ephemeral_to(ada)
    assert refusal.content == "Only the person who asked can press these buttons."
    assert emu.message(stored.id).buttons, "the question still waits for Bo"
    assert (await hv.game()).seats == before.seats

    # Bo's red button resigns: said in public, the seat an AI's, the question settled.
    reply = await emu.click(bo, yes, message=stored)
    (notice,) = reply.where(kind="response")
    assert notice.is_public and "an AI plays their seat" in notice.content
    game = await hv.game()
    assert game.seat_of(bo.id) is None and game.status == "active"
    settled = emu.message(stored.id)
    assert settled.content == "Confirmed." and not settled.buttons


async def test_an_unanswered_question_to_abandon_gives_up_and_changes_nothing(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    monkeypatch.setattr(confirm, "CONFIRM_TIMEOUT_S", 0.3)
    ada, _, _, table = await open_three_seat_game(emu, hv)
    await table.wait_for_turn()
    found = confirm_button(await emu.slash(ada, "game abandon"))
    assert found is not None
    question, _ = found
    assert question.content.startswith("Abandon this game?"), question.content
    assert [b.label for b in question.components] == ["Abandon the game", "No, keep it"]

    def gave_up() -> bool:
        message = emu.message(question.message_id or 0)
        return message.content == "No answer in time, so nothing changed." and not message.buttons

    await emu.wait_for(gave_up, 10, message="the question given up")
    assert (await hv.game()).status == "active"


async def test_the_question_is_asked_in_the_askers_language(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bo = emu.add_user("Bo", locale="de")
    await emu.slash(bo, "game new", game="pylons", thread=False)
    await emu.slash(bo, "game addai")
    await emu.slash(bo, "game start")
    found = confirm_button(await emu.slash(bo, "game resign"))
    assert found is not None
    question, _ = found
    assert question.content.startswith("Wirklich aufgeben?"), question.content
    assert [b.label for b in question.components] == ["Aufgeben", "Nein, doch nicht"]
