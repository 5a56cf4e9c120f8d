"""/me games: a person's open games in this server, privately, those waiting for them first,
each with a link to the channel or thread it is played in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness, board_posts
from moved_clock import MovedClock

from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_my_games_in_two_channels_and_a_thread_those_waiting_for_me_first(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    second, third = emu.add_channel("second"), emu.add_channel("third")
    # Cy's game, in the first channel, waits for Cy (who opened it) to choose.
    await emu.slash(cy, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game join")
    await emu.slash(cy, "game start")
    # Bo's lobby in the second channel, Ada seated.
    await emu.slash(bo, "game new", game="high-voltage", channel=second, thread=False)
    await emu.slash(ada, "game join", channel=second)
    # Ada's own game, played in a thread of the third channel, waits for her.
    emu.allow_threads()
    await emu.slash(ada, "game new", game="pylons", channel=third, clock=1440)
    await emu.slash(ada, "game addai", channel=third)
    await emu.slash(ada, "game start", channel=third)

    async def started_in_its_thread() -> GameRow | None:
        game = await hv.latest_game(third.id)
        return game if game and game.thread_id and game.status == "active" else None

    mine = await emu.wait_for(started_in_its_thread, message="Ada's game started")
    assert mine.thread_id is not None

    reply = await emu.slash(ada, "me games")
    (answer,) = reply.where(kind="response")
    assert answer.visibility == Visibility.ephemeral_to(ada)
    lines = answer.content.splitlines()
    assert lines[0] == "Your 3 open games here, those waiting for you first:"
    assert lines[1].startswith(f"- **Pylons** in <#{mine.thread_id}>: your turn; your time")
    assert "<t:" in lines[1]
    rest = sorted(lines[2:])
    assert rest[0] == f"- **High Voltage** in <#{second.id}>: in its lobby, 2 seated."
    assert rest[1] == f"- **Pylons** in <#{emu.channel.id}>: Cy to move."

    nobody = await emu.slash(emu.add_user("Di"), "me games")
    assert "no open game in this server" in nobody[0].content


async def test_my_reminders_come_by_dm_as_i_chose_and_in_the_channel_when_dms_are_closed(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime(2026, 6, 1, 9, 0, tzinfo=UTC))
    hv.bot.service.clock = clock
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    for person in (ada, bo):
        (shown,) = (await emu.slash(person, "me notify", where="dm")).where(kind="response")
        assert shown.visibility == Visibility.ephemeral_to(person)
        assert "- Where: by direct message" in shown.content
        assert "- Quiet hours: none" in shown.content
    (both,) = (await emu.slash(bo, "me notify", where="both")).where(kind="response")
    assert "- Where: in the game's channel and by direct message" in both.content, both.content
    await emu.slash(bo, "me notify", where="dm")
    refused = await emu.slash(ada, "me notify", zone="Mars/Olympus")
    assert "is not a time zone" in refused[0].content and not refused.public
    offered = await emu.autocomplete(ada, "me notify", "zone", "rome")
    assert [c["value"] for c in offered] == ["Europe/Rome"]

    await emu.slash(ada, "game new", game="pylons", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    game = await hv.game()
    seat = hv.bot.service.games.peek_state(game).current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]

    clock.advance(minutes=10)
    (dm,) = await emu.wait_for(
        lambda: [m for m in emu.messages(visibility=Visibility.dm_to(mover)) if "⏰" in m.content],
        message="the reminder by DM",
    )
    assert f"It is your turn in **Pylons** (<#{emu.channel.id}>)" in dm.content
    assert not [m for m in emu.messages(visibility="public") if "it is your turn" in m.content]

    # DMs closed: the next reminder comes in the channel, mentioning them.
    emu.faults.close_dms(mover.id)
    clock.advance(hours=1)
    (public,) = await emu.wait_for(
        lambda: [m for m in emu.messages(visibility="public") if "⏰" in m.content],
        message="the reminder in the channel",
    )
    assert public.content.startswith(f"<@{mover.id}> ⏰ It is your turn")


async def test_me_help_explains_my_commands_privately_in_my_language(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    (shown,) = (await emu.slash(ada, "me help")).where(kind="response")
    assert shown.visibility == Visibility.ephemeral_to(ada)
    # Commands are mentions a click away.
    for command in ("</me games:", "</me away:", "</me back:", "</me notify:", "</game new:"):
        assert command in shown.content
    assert "days:<1-14>" in shown.content and "30 days in any 90" in shown.content
    gino = emu.add_user("Gino", locale="it")
    (aiuto,) = (await emu.slash(gino, "me help")).where(kind="response")
    assert aiuto.content.startswith("**Le tue partite, ovunque giochi**")
