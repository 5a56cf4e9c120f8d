"""A rematch through Discord: a finished High Voltage game's result offers Rematch; a
player's click opens the new lobby with the seats rotated and the AI seat at its level, the
other player accepts with one click, and the game starts with each person's secret by DM.
Clicks by someone who did not play, and a second Rematch, are answered privately and change
nothing."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from e2e_harness import BotHarness, board_posts, confirmed

from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def buttons_now(emu: DiscordEmulator, record: Record) -> list[str | None]:
    """The custom ids of a message's buttons as they are now, after any edits."""
    assert record.message_id is not None
    return [b.custom_id for b in emu.message(record.message_id).buttons]


def with_button(emu: DiscordEmulator, custom_id: str) -> list[Record]:
    """The posts (as they are now) that carry the button `custom_id`, one record each."""
    found: dict[int, Record] = {}
    for r in emu.messages(visibility="public"):
        fresh = r.message_id is not None and r.message_id not in found
        if fresh and custom_id in buttons_now(emu, r):
            found[r.message_id] = r  # type: ignore[index]  # fresh: it has an id
    return list(found.values())


async def game_of_id(hv: BotHarness, game_id: int) -> GameRow | None:
    return await (await hv.reader()).game(game_id=game_id, fresh=True)


async def test_a_rematch_starts_with_rotated_seats(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    await emu.slash(ada, "game new", game="high-voltage", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game addai", level="normal")
    await emu.slash(ada, "game start")
    before = await hv.game()
    # Both people resign: the AI plays on for Ada, and Bo's resignation ends the game.
    await confirmed(emu, ada, "game resign")
    await confirmed(emu, bo, "game resign")

    async def finished() -> GameRow | None:
        game = await game_of_id(hv, before.id)
        return game if game is not None and game.status == "finished" else None

    before = await emu.wait_for(finished, 30, message="the game finished")
    ask = f"rematch:{before.id}:ask"
    (result,) = await emu.wait_for(lambda: with_button(emu, ask), 60, message="Rematch")
    assert "rematch:" not in "".join(
        c for r in emu.messages(visibility="public") if r.seq < result.seq for c in r.custom_ids
    ), "only the result offers it"

    # Someone who did not play: a private answer, and nothing opened.
    refusal = await emu.click(cy, ask, message=result)
    (answer,) = refusal.messages
    assert answer.visibility == Visibility.ephemeral_to(cy)
    assert "Only the players of this game" in answer.text
    assert (await hv.latest_game()).id == before.id  # type: ignore[union-attr]  # one exists

    # Bo asks: the lobby opens in the channel, inviting Ada; Bo accepted by asking.
    asked = await emu.click(bo, ask, message=result)
    assert asked[0].visibility == Visibility.ephemeral_to(bo)
    assert "Rematch requested" in asked[0].text
    lobby = await hv.game()
    assert lobby.id != before.id and lobby.status == "lobby"
    yes = f"rematch:{lobby.id}:yes"
    (invitation,) = await emu.wait_for(lambda: with_button(emu, yes), message="the invitation")
    assert invitation.channel_id == emu.channel.id
    assert f"<@{ada.id}>" in invitation.text and f"game #{before.id}" in invitation.text

    # Seat k of the game before is seat k-1, the first seat goes last; the AI keeps its level.
    old = [(s.user_id or s.resigned_user_id, s.ai_level) for s in before.seats]
    assert old == [(ada.id, "easy"), (bo.id, None), (None, "normal")]
    rotated = [(bo.id, None), (None, "normal"), (ada.id, None)]
    assert [(s.user_id, s.ai_level) for s in lobby.seats] == rotated

    # A second Rematch, and Bo's own Accept: private answers, nothing changed.
    again = await emu.click(bo, ask, message=result)
    assert again[0].visibility == Visibility.ephemeral_to(bo)
    assert "rematch is open already" in again[0].text
    mine = await emu.click(bo, yes, message=invitation)
    assert mine[0].visibility == Visibility.ephemeral_to(bo)
    assert "accepted already" in mine[0].text
    assert (await hv.game()).version == lobby.version

    # Ada accepts with one click: the game starts, and each person gets their secret by DM.
    accepted = await emu.click(ada, yes, message=invitation)
    assert accepted[0].visibility == Visibility.ephemeral_to(ada)
    assert "Everyone accepted" in accepted[0].text

    async def started() -> GameRow | None:
        game = await game_of_id(hv, lobby.id)
        return game if game is not None and game.status == "active" else None

    game = await emu.wait_for(started, message="the rematch started")
    assert [(s.user_id, s.ai_level) for s in game.seats] == rotated
    for person in (ada, bo):
        await emu.wait_for(
            lambda person=person: [
                r
                for r in emu.messages(visibility=Visibility.dm_to(person.id))
                if r.seq > invitation.seq
            ],
            message=f"{person.name}'s secret",
        )
    # The lobby message says the game started, its Accept gone.
    await emu.wait_for(
        lambda: yes not in buttons_now(emu, invitation), message="the invitation closed"
    )


async def finished_between(emu: DiscordEmulator, hv: BotHarness, *people: User) -> GameRow:
    """A High Voltage game between `people`, in the channel, ended by each resigning in turn; the
    game once its result (with Rematch) is posted."""
    first, *others = people
    await emu.slash(first, "game new", game="high-voltage", thread=False)
    for person in others:
        await emu.slash(person, "game join")
    await emu.slash(first, "game start")
    before = await hv.game()
    for person in people:
        await confirmed(emu, person, "game resign")

    async def finished() -> GameRow | None:
        game = await game_of_id(hv, before.id)
        return game if game is not None and game.status == "finished" else None

    return await emu.wait_for(finished, 30, message="the game finished")


async def test_a_rematch_lobby_posted_by_a_process_that_died_is_found_after_a_restart(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process posting the rematch's lobby message dies once Discord has made it, before
    it has kept the message's id: the post is still owed, so the bot that carries on posts it
    again with its nonce, Discord answers with the message it made, and that message is the
    lobby's from then on, brought up to date with an acceptance made meanwhile; the last
    acceptance edits it too."""
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    before = await finished_between(emu, hv, ada, bo, cy)
    ask = f"rematch:{before.id}:ask"
    (result,) = await emu.wait_for(lambda: with_button(emu, ask), 60, message="Rematch")
    await hv.caught_up()

    # The one step between Discord making the message and the process keeping its id fails
    # as when the connection goes with the process; the process is stopped soon after.
    async def dies(game_id: int, message_id: int) -> None:
        raise ConnectionAbortedError("the process died before keeping the lobby message's id")

    assert hv.bot is not None
    monkeypatch.setattr(hv.bot.service.games, "set_lobby_message", dies)
    asked = await emu.click(bo, ask, message=result)
    assert "Rematch requested" in asked[0].text
    lobby = await hv.game()
    yes = f"rematch:{lobby.id}:yes"
    (invitation,) = await emu.wait_for(lambda: with_button(emu, yes), message="the invitation")
    assert invitation.message_id is not None
    assert (await hv.game()).lobby_message_id is None
    # Cy accepts on it meanwhile: the lobby has no message of its own to edit yet.
    accepted = await emu.click(cy, yes, message=invitation)
    assert "You accepted the rematch" in accepted[0].text
    waiting = f"Accepted: <@{bo.id}>, <@{cy.id}>. Waiting for <@{ada.id}>"
    assert waiting not in emu.message(invitation.message_id).text
    await hv.stop()

    # The bot that carries on, once the dead one's lease has run out.
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await hv.sql("UPDATE announcements SET claimed_until = ? WHERE sent_at IS NULL", past)
    refused_before = emu.duplicates_refused
    await hv.start()

    async def kept() -> int | None:
        return (await hv.game()).lobby_message_id

    assert await emu.wait_for(kept, 10, message="the lobby message kept") == invitation.message_id
    assert emu.duplicates_refused == refused_before + 1, "Discord answered with the one made"
    assert with_button(emu, yes) == [invitation], "one lobby message"
    await emu.wait_for(
        lambda: waiting in emu.message(invitation.message_id or 0).text,
        10,
        message="the lobby message brought up to date",
    )
    reader = await hv.reader()
    owed = "SELECT id FROM announcements WHERE kind = 'lobby' AND sent_at IS NULL"
    await emu.wait_for(lambda: _none(reader.db.fetch(owed)), 10, message="marked made")

    # Ada accepts: the game starts, and the lobby message says so.
    accepted = await emu.click(ada, yes, message=invitation)
    assert "Everyone accepted" in accepted[0].text
    await emu.wait_for(
        lambda: yes not in buttons_now(emu, invitation), message="the invitation closed"
    )
    assert "Started" in emu.message(invitation.message_id).text


async def _none(rows: Awaitable[list[Any]]) -> bool:
    return not await rows


async def test_a_rematch_of_a_game_in_a_thread_opens_in_the_channel_and_plays_in_a_new_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A game played in a thread offers its Rematch there; the rematch's lobby is in the
    channel, as /game new's is, and its game is played in a thread of its own started from
    that lobby message, the old thread left as it was."""
    emu = emulator
    emu.allow_threads()
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    first_lobby = (await emu.slash(ada, "game new", game="high-voltage")).public[0]
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game addai", level="normal")
    await emu.slash(ada, "game start")
    before = await hv.game()
    (old_thread,) = await emu.wait_for(lambda: emu.threads(emu.channel), message="the thread")
    assert old_thread.id == first_lobby.message_id
    for person in (ada, bo):
        await confirmed(emu, person, "game resign", channel=old_thread)

    async def finished() -> GameRow | None:
        game = await game_of_id(hv, before.id)
        return game if game is not None and game.status == "finished" else None

    before = await emu.wait_for(finished, 30, message="the game finished")
    ask = f"rematch:{before.id}:ask"
    (result,) = await emu.wait_for(lambda: with_button(emu, ask), 60, message="Rematch")
    assert result.channel_id == old_thread.id, "the result is in the game's thread"
    old_posts = len(emu.messages(visibility="public", channel=old_thread))

    # Bo asks in the thread: the answer is his alone, and points to the channel.
    asked = await emu.click(bo, ask, message=result)
    assert asked[0].visibility == Visibility.ephemeral_to(bo)
    assert f"<#{emu.channel.id}>" in asked[0].text
    lobby = await game_of_id(hv, (await hv.latest_game()).id)  # type: ignore[union-attr]  # one exists
    assert lobby is not None and lobby.status == "lobby" and lobby.wants_thread
    assert lobby.channel_id == emu.channel.id and lobby.thread_id is None
    yes = f"rematch:{lobby.id}:yes"
    (invitation,) = await emu.wait_for(lambda: with_button(emu, yes), message="the invitation")
    assert invitation.channel_id == emu.channel.id, "the lobby is in the channel"
    # A second Rematch in the thread says where the lobby is.
    again = await emu.click(ada, ask, message=result)
    assert f"<#{emu.channel.id}>" in again[0].text

    # Ada accepts: the game starts in a new thread, started from the rematch's lobby message.
    await emu.click(ada, yes, message=invitation)

    async def started() -> GameRow | None:
        game = await game_of_id(hv, lobby.id)
        return game if game is not None and game.thread_id is not None else None

    game = await emu.wait_for(started, message="the rematch's thread")
    threads = emu.threads(emu.channel)
    assert [t.id for t in threads] == [old_thread.id, invitation.message_id]
    new_thread = threads[1]
    assert game.thread_id == new_thread.id and new_thread.name == f"High Voltage #{game.id}"
    await emu.wait_for(
        lambda: board_posts(emu, channel=new_thread), 30, message="the first board in it"
    )
    assert not board_posts(emu), "no board in the channel"
    await emu.wait_for(
        lambda: f"<#{new_thread.id}>" in emu.message(invitation.message_id or 0).text,
        message="the lobby links to the new thread",
    )
    await hv.caught_up()
    assert len(emu.messages(visibility="public", channel=old_thread)) == old_posts, (
        "nothing more in the old thread"
    )


async def test_a_rematch_against_ai_seats_alone_of_a_game_in_a_thread_plays_in_a_new_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A game against AI seats alone, played in a thread: its Rematch, clicked in the thread,
    starts at once, with its lobby message in the channel and its game in a new thread from
    it, as /game new and Start would."""
    emu = emulator
    emu.allow_threads()
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    before = await hv.game()
    (old_thread,) = await emu.wait_for(lambda: emu.threads(emu.channel), message="the thread")
    await confirmed(emu, ada, "game resign", channel=old_thread)
    ask = f"rematch:{before.id}:ask"
    (result,) = await emu.wait_for(lambda: with_button(emu, ask), 60, message="Rematch")
    assert result.channel_id == old_thread.id

    asked = await emu.click(ada, ask, message=result)
    assert asked[0].visibility == Visibility.ephemeral_to(ada)
    rematch = await hv.latest_game()
    assert rematch is not None and rematch.id != before.id

    async def in_thread() -> GameRow | None:
        game = await game_of_id(hv, rematch.id)
        return game if game is not None and game.thread_id is not None else None

    game = await emu.wait_for(in_thread, message="the rematch's thread")
    assert game.status == "active" and game.lobby_message_id is not None
    # The lobby message is in the channel, and the new thread hangs off it.
    lobby_message = emu.message(game.lobby_message_id)
    assert lobby_message.channel_id == emu.channel.id
    assert [t.id for t in emu.threads(emu.channel)] == [old_thread.id, game.lobby_message_id]
    new_thread = emu.threads(emu.channel)[1]
    assert game.thread_id == new_thread.id and new_thread.name == f"Pylons #{game.id}"
    await emu.wait_for(
        lambda: board_posts(emu, channel=new_thread), 30, message="the first board in it"
    )
    assert not board_posts(emu), "no board in the channel"
    await emu.wait_for(
        lambda: f"<#{new_thread.id}>" in emu.message(game.lobby_message_id or 0).text,
        message="the lobby links to the new thread",
    )


async def test_a_moderator_taking_an_invitees_seat_makes_the_rematch_an_ordinary_lobby(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """/game kick on the seat of someone invited to a rematch counts as their decline: the
    channel is told, the lobby message offers the ordinary buttons, and its creator starts
    it with those who accepted, instead of it waiting until it expires."""
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    before = await finished_between(emu, hv, ada, bo, cy)
    ask = f"rematch:{before.id}:ask"
    (result,) = await emu.wait_for(lambda: with_button(emu, ask), 60, message="Rematch")
    await emu.click(bo, ask, message=result)
    lobby = await hv.game()
    yes = f"rematch:{lobby.id}:yes"
    (invitation,) = await emu.wait_for(lambda: with_button(emu, yes), message="the invitation")
    await emu.click(cy, yes, message=invitation)
    # Seats: Bo, Cy, Ada. A moderator takes Ada's, the third.
    assert [s.user_id for s in lobby.seats] == [bo.id, cy.id, ada.id]
    mod = emu.add_user("Mod", manage_channels=True)
    kicked = await emu.slash(mod, "game kick", seat=3)
    assert [r.text for r in kicked.ephemeral] == ["The seat is free again."]
    told = f"removed <@{ada.id}> from the rematch, which counts as declining it"
    await emu.wait_for(
        lambda: [r for r in emu.messages(visibility="public") if told in r.text],
        message="the channel told",
    )
    join = f"lobby:{lobby.id}:join"
    await emu.wait_for(
        lambda: join in buttons_now(emu, invitation) and yes not in buttons_now(emu, invitation),
        message="the lobby message offers the ordinary buttons",
    )
    assert [s.user_id for s in (await hv.game()).seats] == [bo.id, cy.id]
    await emu.slash(bo, "game start")
    assert (await hv.game()).status == "active"
