"""When Discord says no or goes away: closed DMs, rate limits, a dropped gateway connection, and
a message Discord would refuse. The real bot against the emulator's fault switches."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from e2e_harness import (
    BotHarness,
    Table,
    board_posts,
    colour_of,
    confirm_button,
    heading,
    late_answers,
    lobby_button,
    move_with_post_held,
    open_three_seat_game,
)

from data.texts import texts_for
from engine import State
from games.high_voltage import pictures as hv_pictures
from hvbot.store import GameRow, duties
from sandbox.emulator import DiscordEmulator, InteractionFailed, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_player_with_closed_dms_is_sent_to_mysecret_without_a_leak(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, _, table = await open_three_seat_game(emu, hv, closed_dms=("Bo",))
    game, state = await table.wait_for_turn()
    assert [r.status for r in emu.requests if r.method == "POST" and r.status == 403] == [403]

    notices = [r for r in emu.messages(visibility="public") if "/game mysecret" in r.text]
    assert len(notices) == 1
    notice = notices[0]
    assert bo.mention in notice.text and ada.mention not in notice.text
    assert not notice.attachments and not notice.embeds
    for colour in state.view(None)["colours"]:
        assert not re.search(rf"\b{colour}\b", notice.text, re.IGNORECASE)
    assert not emu.messages(visibility=Visibility.dm_to(bo))
    assert len(emu.messages(visibility=Visibility.dm_to(ada))) == 1

    seat = game.seat_of(bo.id)
    assert seat is not None
    colour = colour_of(state, seat)
    reply = await emu.slash(bo, "game mysecret")
    (answer,) = reply.messages
    assert answer.kind == "response" and answer.visibility == Visibility.ephemeral_to(bo)
    assert heading(answer) == f"Your company: {colour.upper()}"
    assert answer.attachment("secret.png").data == hv_pictures.hv_secret_png(colour)
    assert not reply.public


async def test_rate_limited_posts_are_sent_again_after_the_pause(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    pause = 0.2
    channel_fault = emu.faults.rate_limit("POST /channels/{channel_id}/messages", retry_after=pause)
    _, _, _, table = await open_three_seat_game(emu, hv)
    assert channel_fault.fired == 1
    route = f"/api/v10/channels/{emu.channel.id}/messages"
    first, second = emu.requests_to("POST", route)[:2]
    assert (first.status, second.status) == (429, 200)
    assert second.at - first.at >= pause * 0.9, "the bot waited as told before trying again"
    starts = [r for r in board_posts(emu) if "begins!" in r.text]
    assert len(starts) == 1, "the start was announced once, not lost and not doubled"

    move = await move_with_post_held(emu, hv, pause, table)
    moves = await move.announced(emu)
    assert len(moves) == 1 and moves[0].kind == "channel_message"
    assert f"drew {move.cell}" in moves[0].text


async def test_a_dropped_gateway_connection_is_resumed_without_losing_an_interaction(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    emu = emulator
    emu.gateway.heartbeat_interval = 100  # milliseconds: heartbeats flow during the test
    harness = BotHarness(emu, tmp_path / "games.sqlite3")
    await harness.start()
    try:
        ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
        await emu.slash(ada, "game new", game="high-voltage")
        beats = emu.gateway.heartbeats
        await emu.wait_for(lambda: emu.gateway.heartbeats >= beats + 2, 5, message="heartbeats")

        emu.gateway.hold()
        await emu.gateway.drop()
        await emu.wait_for(lambda: not emu.gateway.connected, 5, message="the drop")
        joining = asyncio.create_task(emu.slash(bo, "game join"))
        await emu.wait_for(lambda: emu.gateway.connections >= 2, 5, message="a reconnection")
        emu.gateway.release()
        reply = await joining

        assert (emu.gateway.identifies, emu.gateway.resumes) == (1, 1)
        assert emu.gateway.replayed >= 1, "the interaction sent while away was replayed"
        (answer,) = reply.where(kind="response")
        assert answer.visibility == Visibility.ephemeral_to(bo)
        assert "joined" in answer.text
        (lobby_edit,) = reply.where(kind="message_edit")
        assert "2. Bo" in lobby_edit.text
        game = await harness.game()
        assert [s.display_name for s in game.seats] == ["Ada", "Bo"]
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), harness.errors.summary()


async def test_a_message_discord_would_refuse_fails_with_discords_error(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    assert hv.bot is not None
    channel = hv.bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert (too_long.value.status, too_long.value.code) == (400, 50035)
    assert "content" in str(too_long.value)

    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="L" * 81, custom_id="too-long-a-label"))
    with pytest.raises(discord.HTTPException) as bad_label:
        await channel.send("pick one", view=view)
    assert bad_label.value.code == 50035
    assert "components.0.components.0.label" in str(bad_label.value)

    assert len(emulator.rejections) == 2
    assert not emulator.messages(), "nothing refused was shown"
    emulator.rejections.clear()  # expected here; any other rejection fails the test


async def test_an_action_answered_too_late_is_still_announced(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """If the bot acknowledges after Discord's window (a very busy moment), the stored move
    is still shown to the channel: the game never goes silent."""
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    before = len(board_posts(emu))
    with late_answers(emu), pytest.raises(InteractionFailed):
        await emu.slash(mover, "hv draw", cell=cell, place="here", rotation=0)
    told = f"drew {cell} and laid it where it was"

    def announced() -> list:
        return [r for r in board_posts(emu)[before:] if told in r.text]

    (post,) = await emu.wait_for(announced)
    assert post.kind == "channel_message"
    game = await hv.game()
    assert (await hv.actions(game))[0] == (seat, f"draw {cell} here r0")


async def test_a_move_that_loses_a_race_is_refused_privately_and_leaves_no_trace(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A legal move is acknowledged before it is stored; if the store then finds the game
    changed (another process got there first), the player alone is told (its "thinking…"
    was theirs alone), and the bot reads the game afresh for the next move."""
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    before = await hv.actions(game)
    # Hold the acknowledgement back for a moment and change the game meanwhile, as another
    # process would.
    ack_fault = emu.faults.rate_limit(
        "POST /interactions/{interaction_id}/{token}/callback", retry_after=0.4
    )
    move = asyncio.create_task(emu.slash(mover, "hv draw", cell=cell, place="here", rotation=0))
    await emu.wait_for(lambda: ack_fault.fired == 1)
    await hv.sql("UPDATE games SET version = version + 1 WHERE id = ?", game.id)
    reply = await move
    await emu.settle()

    refusals = [r for r in reply.ephemeral if "changed at the same moment" in r.text]
    assert refusals and all(r.visibility.user_id == mover.id for r in refusals), emu.describe(reply)
    assert not reply.public.messages, "nothing of the refused move is left in public"
    (thinking,) = reply.where(kind="deferred")
    assert thinking.visibility == Visibility.ephemeral_to(mover), "the placeholder was private"
    assert await hv.actions(game) == before, "nothing was stored"

    # The bot noticed the game had changed and plays the same move from the stored game.
    game, state = await table.wait_for_turn()
    again = await emu.slash(mover, "hv draw", cell=cell, place="here", rotation=0)
    assert again.public.messages, emu.describe(again)
    assert (await hv.actions(game))[len(before)] == (seat, f"draw {cell} here r0")


async def test_a_refusal_after_the_window_closed_is_not_an_error(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A move refused only after Discord's window closed (its game was busy) cannot be
    answered any more; the player's client already said so, and the bot does not count it as
    a failure of its own."""
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    bystander = next(u for u in emu.users.values() if u.id != game.seats[seat].user_id)
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    with late_answers(emu), pytest.raises(InteractionFailed):
        await emu.slash(bystander, "hv draw", cell=cell, place="here", rotation=0)
    await emu.settle()
    assert hv.unexpected_errors() == []
    assert await hv.actions(game) == []


async def test_a_board_asked_for_after_the_window_closed_is_not_an_error(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """/game board answered only after Discord's window closed (a very busy moment) changes
    nothing and is not counted as a failure of the bot's own."""
    emu = emulator
    ada, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, _ = await table.wait_for_turn()
    before = await hv.actions(game)
    with late_answers(emu), pytest.raises(InteractionFailed):
        await emu.slash(ada, "game board")
    await emu.settle()
    assert hv.unexpected_errors() == []
    assert await hv.actions(game) == before


async def test_a_bot_stopped_while_answering_a_move_finishes_the_answer_first(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    # The board's follow-up is held back for a moment, so the move is stored and acknowledged
    # but not yet announced when the bot is told to stop.
    move = await move_with_post_held(emulator, hv, pause=0.5)
    await hv.stop()

    reply = await move.moving
    posts = move.posts(emulator)
    assert len(posts) == 1 and posts[0].kind == "channel_message", reply
    assert f"drew {move.cell}" in posts[0].text
    # The fixture's teardown checks that the bot logged no error while closing.


async def test_a_lobby_answered_too_late_still_opens_seats_people_and_starts_the_game(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """In a very busy moment Discord's window can close before /game new or a lobby button
    is answered. The lobby, the joins and the start are stored all the same, so the lobby
    message is posted and kept up to date without the answers, and a started game is
    announced and its secrets sent: no game is left started in silence."""
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    since = emu.last_seq
    with late_answers(emu):
        with pytest.raises(InteractionFailed):
            await emu.slash(ada, "game new", game="high-voltage")
        lobby = await emu.wait_for_message(lambda r: bool(r.custom_ids), since=since)
        assert lobby.visibility.kind == "public" and lobby.message_id is not None
        for person, what in ((bo, "join"), (ada, "addai")):
            with pytest.raises(InteractionFailed):
                await emu.click(person, lobby_button(lobby, what), message=lobby)
            await emu.settle()
        assert "Bo" in emu.messages_by_id[lobby.message_id].text, "the lobby shows Bo seated"
        with pytest.raises(InteractionFailed):
            await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    table = Table(emu, hv, [ada, bo])
    game, state = await table.wait_for_turn()
    assert game.status == "active" and not state.is_terminal()
    assert table.secrets_delivered(game)
    assert any("begins" in r.text for r in board_posts(emu)), "the start was announced"
    # Every button of the message, wherever its card holds it.
    buttons = emu.messages_by_id[lobby.message_id].buttons
    assert [(b.custom_id or "").split(":")[0] for b in buttons] == ["follow"], (
        "the lobby of a started game has only Follow left"
    )


async def test_a_resignation_answered_too_late_is_still_announced_and_the_ai_plays_on(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    found = confirm_button(await emu.slash(mover, "game resign"))
    assert found is not None, "asked whether they are sure"
    question, yes = found
    since = emu.last_seq
    with late_answers(emu), pytest.raises(InteractionFailed):
        await emu.click(mover, yes, message=question)
    notice = await emu.wait_for_message(lambda r: "an AI plays their seat" in r.text, since=since)
    assert notice.visibility.kind == "public"

    async def ai_moved() -> bool:
        return any(s == seat for s, _ in await hv.actions(await hv.game()))

    await emu.wait_for(ai_moved, message="the AI's move in the resigned seat")


async def test_a_move_while_the_sqlite_file_is_locked_is_refused_privately_then_works(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Another program holds the SQLite file's write lock past the bot's busy timeout (a
    backup, say): the move, acknowledged publicly as its board is to follow, is taken back
    and its player told privately to try again in a moment, and nothing is stored; once the
    lock is let go, the same move works."""
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = next(p for p in table.people.values() if p.id == game.seats[seat].user_id)
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    action = f"draw {cell} here r90"
    assert hv.bot is not None
    await hv.bot.service.repo.db.conn.execute("PRAGMA busy_timeout = 100")  # type: ignore[attr-defined]
    other = sqlite3.connect(hv.database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        since = emu.last_seq
        await table.play(game, state, action, settle=False)
        words = texts_for(emu.locale_of(mover))("bot.error.store_unavailable")
        await emu.wait_for(
            lambda: [
                r
                for r in emu.messages(visibility=Visibility.ephemeral_to(mover), since=since)
                if r.text == words
            ],
            30,
            message="told privately that the store is unavailable",
        )
        await emu.settle()
        shown = [
            r
            for r in emu.messages(visibility="public", since=since)
            if r.message_id in emu.messages_by_id
        ]
        assert not shown, emu.describe(shown)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await hv.game()).version == game.version, "nothing stored"
    await table.play(game, state, action, settle=False)

    async def moved() -> tuple[GameRow, State] | None:
        settled = await table.settled()
        return settled if settled and settled[0].version > game.version else None

    await emu.wait_for(moved, 30, message="the move made")
    moves = [r for r in board_posts(emu, since=since) if f"drew {cell}" in r.text]
    assert len(moves) == 1, emu.describe(moves)


async def test_a_move_stored_just_before_the_store_goes_away_stands_and_its_board_follows(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt's button places a drawn card: the move is stored, then the SQLite file is
    locked before its board post can be taken. The player is told privately that the move
    stands and its board follows; once the lock is let go, the post is made (by the check
    that takes over posts whose claim ran out), once."""
    emu = emulator
    monkeypatch.setattr(duties, "LEASE", timedelta(seconds=1))
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await table.play(game, state, f"draw {cell}")
    game, state = await table.wait_for_turn()
    assert state.view(None)["phase"] == "placing"
    seat = state.current_seat()
    assert seat is not None
    mover = next(p for p in table.people.values() if p.id == game.seats[seat].user_id)
    place = next(a.text() for a in state.legal_actions())
    # The prompt's answer (its edit) held: by then the move is stored, its post not yet taken.
    edit = emu.faults.hold("PATCH /webhooks/{application_id}/{token}/messages/@original")
    since = emu.last_seq
    await table.play(game, state, place, settle=False)
    await emu.wait_for(lambda: edit.held == 1, 10, message="the prompt's answer on its way")
    assert (await hv.game()).version > game.version, "the move is stored"
    assert hv.bot is not None
    await hv.bot.service.repo.db.conn.execute("PRAGMA busy_timeout = 100")  # type: ignore[attr-defined]
    other = sqlite3.connect(hv.database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        edit.release()
        words = texts_for(emu.locale_of(mover))("bot.error.store_unavailable_after_move")
        await emu.wait_for(
            lambda: [
                r
                for r in emu.messages(visibility=Visibility.ephemeral_to(mover), since=since)
                if r.text == words
            ],
            30,
            message="told privately that the move stands and its board follows",
        )
        assert not board_posts(emu, since=since), "nothing posted while the store is away"
    finally:
        other.execute("ROLLBACK")
        other.close()
    await emu.wait_for(
        lambda: board_posts(emu, since=since), 30, message="the board posted once it is back"
    )
    await table.wait_for_turn()
    moves = [r for r in board_posts(emu, since=since) if r.text.startswith(mover.name)]
    assert len(moves) == 1, emu.describe(board_posts(emu, since=since))
