"""A server's owners in control, through Discord: /server settings is offered only to those who
manage the server, and what it sets decides where games are opened and by whom, who
moderates them, the language of the server's posts, what new games start with, and the
limits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness, confirmed
from moved_clock import MovedClock

from sandbox.emulator import CommandNotShown, DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def status_in(hv: BotHarness, channel_id: int) -> str | None:
    """The status of the latest game opened in the channel, if any."""
    game = await hv.latest_game(channel_id)
    return game.status if game is not None else None


async def test_only_those_who_manage_the_server_are_offered_the_settings(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    with pytest.raises(CommandNotShown):
        await emu.slash(emu.add_user("Ada"), "server settings")
    with pytest.raises(CommandNotShown):  # moderating games is not managing the server
        await emu.slash(emu.add_user("Mo", manage_messages=True), "server settings")
    admin = emu.add_user("Sam", manage_guild=True)
    (shown,) = await emu.slash(admin, "server settings")
    assert shown.visibility == Visibility.ephemeral_to(admin)
    assert "This server's game settings" in shown.text
    assert "Games may be opened in any channel where I can post." in shown.text
    assert "Anyone may open a game." in shown.text
    assert "Each member may have 3 open games" in shown.text
    assert "closes after 24 hours" in shown.text


async def test_games_are_opened_only_where_the_settings_allow(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    games = emu.add_category("Games")
    tables = emu.add_channel("tables", category=games)
    quiet = emu.add_channel("announcements")
    (saved,) = await emu.slash(emu.owner, "server settings", allow=games)
    assert "Saved." in saved.text and f"<#{games.id}>" in saved.text
    ada = emu.add_user("Ada")

    (refused,) = await emu.slash(ada, "game new", game="pylons", channel=quiet)
    assert refused.visibility == Visibility.ephemeral_to(ada)
    assert refused.text == f"On this server, games are opened in <#{games.id}>."
    assert await hv.latest_game(quiet.id) is None

    # A channel of the category is allowed; so is a channel named on its own.
    await emu.slash(ada, "game new", game="pylons", channel=tables, thread=False)
    assert await status_in(hv, tables.id) == "lobby"
    await emu.slash(emu.owner, "server settings", allow=quiet)
    await emu.slash(ada, "game new", game="pylons", channel=quiet, thread=False)
    assert await status_in(hv, quiet.id) == "lobby"

    # Taken off the list, and the list forgotten: anywhere again.
    await emu.slash(emu.owner, "server settings", disallow=quiet)
    other = emu.add_channel("other")
    (refused,) = await emu.slash(ada, "game new", game="pylons", channel=other)
    assert "games are opened in" in refused.text
    await emu.slash(emu.owner, "server settings", forget="places")
    await emu.slash(ada, "game new", game="pylons", channel=other, thread=False)
    assert await status_in(hv, other.id) == "lobby"


async def test_an_opener_role_and_a_moderator_role(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    hosts = await emu.add_role("Game hosts")
    referees = await emu.add_role("Referees")
    await emu.slash(emu.owner, "server settings", opener_role=hosts, moderator_role=referees)
    ada, bo, ref = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Ref")
    emu.give_role(ada, hosts)
    emu.give_role(ref, referees)

    (refused,) = await emu.slash(bo, "game new", game="pylons")
    assert refused.text == (
        f"On this server, games are opened by members with the role <@&{hosts.id}>."
    )
    assert refused.pings == set(), "the refusal pings nobody"
    await emu.slash(ada, "game new", game="pylons", thread=False)
    game = await hv.game()
    assert game.status == "lobby"

    # The referee has no permission of their own, only the role: they free a seat of the
    # lobby, and end the game.
    await emu.slash(bo, "game join")
    (refused,) = await emu.slash(bo, "game kick", seat=2)
    assert "Only moderators" in refused.text
    await emu.slash(ref, "game kick", seat=2)
    assert [s.user_id for s in (await hv.game()).seats] == [ada.id]
    (refused,) = await emu.slash(bo, "game end")
    assert "Only moderators" in refused.text
    reply = await emu.slash(ref, "game end")
    assert (await hv.game()).status != "lobby"
    assert any(ref.mention in r.text for r in reply.public)

    # @everyone as the opener role: anyone may open again.
    everyone = emu.guild_id
    (saved,) = await emu.slash(emu.owner, "server settings", opener_role=everyone)
    assert "Anyone may open a game." in saved.text
    await emu.slash(bo, "game new", game="pylons", thread=False)
    assert (await hv.game()).creator_id == bo.id

    # @everyone cannot be the moderator role.
    (refused,) = await emu.slash(emu.owner, "server settings", moderator_role=everyone)
    assert "@everyone cannot be the moderator role" in refused.text


async def test_new_games_start_with_the_servers_language_and_defaults(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    (saved,) = await emu.slash(
        emu.owner, "server settings", language="de", reminder=30, absent=48, clock=1440
    )
    assert "Public game posts in German." in saved.text and "30 minutes" in saved.text
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="pylons", thread=False)
    (lobby,) = reply.public
    assert "**Pylons**: neue Partie" in lobby.text  # said in German
    game = await hv.game()
    assert game.language == "de"
    assert (game.remind_minutes, game.absent_hours) == (30, 48)
    assert game.clock is not None and (game.clock.minutes, game.clock.timeout) == (1440, "ai_move")

    # What the creator gives wins over the server's defaults, "no clock" included.
    await confirmed(emu, ada, "game abandon")
    await emu.slash(ada, "game new", game="pylons", thread=False, clock=0, reminder=5)
    game = await hv.game()
    assert game.clock is None and game.remind_minutes == 5 and game.absent_hours == 48


async def test_the_limits_the_settings_give(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    (refused,) = await emu.slash(emu.owner, "server settings", most_open=1, lobby_hours=400)
    assert refused.text == "A lobby may live 1 to 168 hours, not 400."
    (shown,) = await emu.slash(emu.owner, "server settings")
    assert "Each member may have 3 open games" in shown.text, "nothing of it was saved"

    await emu.slash(emu.owner, "server settings", most_open=1, lobby_hours=2)
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons", thread=False)
    (refused,) = await emu.slash(ada, "game new", game="pylons", channel=emu.add_channel("two"))
    assert "(at most 1)" in refused.text

    clock.advance(hours=2)
    (told,) = await emu.wait_for(
        lambda: [m for m in emu.messages(visibility="public") if "waited 2 hours" in m.text],
        message="the lobby closing after the server's two hours",
    )
    assert told.channel_id == emu.channel.id


async def test_a_channel_holds_many_games_each_in_its_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    for person in (ada, bo):
        await emu.slash(person, "game new", game="pylons")
        await emu.slash(person, "game addai")
        await emu.slash(person, "game start")
    first, second = emu.threads(emu.channel)
    assert (await hv.game(first.id)).creator_id == ada.id
    assert (await hv.game(second.id)).creator_id == bo.id

    # Typed in the channel, a command means the game of whoever typed it; from someone who
    # plays in neither, it could mean either: it says where each is played.
    (asked,) = await emu.slash(cy, "game status")
    assert asked.visibility == Visibility.ephemeral_to(cy)
    assert f"<#{first.id}>" in asked.text and f"<#{second.id}>" in asked.text
    for person, thread in ((ada, first), (bo, second)):
        here = await emu.slash(person, "game status", channel=thread)
        typed_in_channel = await emu.slash(person, "game status")
        assert here[0].text == typed_in_channel[0].text
        assert person.name in here[0].text

    # Or names which: the option suggests the channel's games, the asker's own first.
    ada_game, bo_game = await hv.game(first.id), await hv.game(second.id)
    offered = await emu.autocomplete(bo, "game status", "game", "")
    assert [c["value"] for c in offered] == [bo_game.id, ada_game.id]
    names = ", ".join(seat.display_name for seat in bo_game.seats)
    assert offered[0]["name"] == f"Pylons #{bo_game.id}: {names}"
    (shown,) = await emu.slash(cy, "game status", game=bo_game.id)
    assert "Bo" in shown.text
    # A moderator ends one of them from the channel; a game of another channel is refused.
    mod = emu.add_user("Mo", manage_messages=True)
    elsewhere = emu.add_channel("elsewhere")
    await emu.slash(cy, "game new", game="pylons", channel=elsewhere, thread=False)
    (refused,) = await emu.slash(mod, "game end", game=(await hv.game(elsewhere.id)).id)
    assert refused.text.startswith("That is not one of this channel's games")
    await emu.slash(mod, "game end", game=bo_game.id)
    reader = await hv.reader()
    assert (await reader.game(game_id=bo_game.id)).status == "abandoned"
    assert (await hv.game(first.id)).status == "active"
    await confirmed(emu, cy, "game abandon", channel=elsewhere)

    # Up to the number the server allows (the game ended no longer counts).
    await emu.slash(emu.owner, "server settings", games_per_channel=1)
    (refused,) = await emu.slash(cy, "game new", game="pylons")
    assert refused.text.startswith("This channel holds all the games it may at once (1)")
    # Without threads, one game in the channel itself, as ever.
    await emu.slash(emu.owner, "server settings", games_per_channel=5)
    await emu.slash(cy, "game new", game="pylons", thread=False)
    assert (await hv.game()).creator_id == cy.id
    # That lobby does not hide the game a player sits at in a thread.
    (mine,) = await emu.slash(ada, "game status")
    assert "Ada" in mine.text and "Cy" not in mine.text
    (busy,) = await emu.slash(ada, "game new", game="pylons", thread=False)
    assert busy.text.startswith("This channel already has a game")


async def test_in_a_channel_a_move_goes_to_the_game_under_way_not_to_a_lobby(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Ada plays in a thread and has joined the channel's next lobby: what she types in the
    channel to move, or to see the board, means her game under way; the moderator's /game end
    there, like its seat suggestions for /game kick, means the game the moderator plays."""
    emu = emulator
    emu.allow_threads()
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="pylons")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    (thread,) = emu.threads(emu.channel)
    playing = await hv.game(thread.id)
    await emu.slash(bo, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game join")
    lobby = await hv.game()
    assert lobby.status == "lobby" and lobby.seat_of(ada.id) is not None
    reply = await emu.slash(ada, "game undo")
    assert "has not started" not in reply[0].text, reply[0].text
    # A moderator who sits at the thread's game: the seats suggested and the seat freed are
    # of one and the same game.
    mod = emu.add_user("Mo", manage_messages=True)
    await emu.slash(mod, "game join")  # the lobby: /game join means the channel's lobby
    offered = await emu.autocomplete(mod, "game kick", "seat", "")
    assert [c["name"] for c in offered] == [
        f"{s.seat + 1}. {s.display_name}" for s in (await hv.game()).seats
    ]
    assert playing.id != lobby.id
