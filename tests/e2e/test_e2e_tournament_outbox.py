"""A tournament's posts through the real bot and the emulated Discord, made by the service and
sent by the aftermath: the sign-up post (posted once, then edited as people join), each
round's tables announced with their seats mentioned and played in threads started from those
announcements (boards there, secrets by DM), the standings after a round as a picture with its
text twin, the next round paired as the last game of a round ends, and the final podium."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from e2e_harness import BotHarness, board_posts, check_card
from moved_clock import MovedClock

from hvbot.services import GameService
from hvbot.services.outcomes import Change
from hvbot.store import GameRow, GameStore
from sandbox.emulator import DiscordEmulator, Record, Visibility, layout
from sandbox.emulator.models import IS_COMPONENTS_V2

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def in_card(record: Record, kind: int) -> list[dict[str, Any]]:
    """The components of `kind` inside the one container `record` was sent as."""
    (box,) = record.layout
    assert box["type"] == layout.CONTAINER, box
    return [c for c, _ in layout.walk([box]) if c.get("type") == kind]


async def ended_by_loss(service: GameService, game_id: int, loser: int) -> Change:
    """The game ends as a loss for `loser` (as their clock running out ends it)."""
    games = service.games
    async with games.store.lock(game_id):
        game = await games.reload(game_id)
        seat = game.seat_of(loser)
        assert seat is not None
        owed = await games.forfeit(game, seat, told=None)
    return Change(game=await games.saved(game_id), owed=tuple(owed), what="ended")


async def test_a_swiss_is_posted_round_by_round_with_its_tables_in_threads(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    assert hv.bot is not None
    service, aftermath = hv.bot.service, hv.bot.aftermath
    service.clock = MovedClock()
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    made = await service.tournaments.create(
        guild_id=emu.guild_id,
        channel_id=emu.channel.id,
        user_id=emu.owner.id,
        may_open=True,
        game="pylons",
        options={},
        format="swiss",
        rounds=2,
        table="2",
        turn_clock=timedelta(days=1),
        timeout="end",
        starts_at=None,
        most=None,
        name="Autumn cup",
    )
    await aftermath.follow(made)
    tid = made.tournament.id
    (signup,) = emu.messages(channel=emu.channel)
    assert signup.text.startswith("🏆 **Autumn cup**: Pylons, Swiss, 2 rounds"), signup.text
    assert "Nobody has signed up yet" in signup.text
    assert [b.custom_id for b in signup.components] == [f"tour:{tid}:join", f"tour:{tid}:leave"]
    assert signup.content == "" and in_card(signup, layout.BUTTON), "a card, its buttons inside"
    for person in people:
        await aftermath.follow(await service.tournaments.join(tid, person.id, name=person.name))
    shown = emu.message(signup.message_id)
    assert "4 entrants (at most 64):" in shown.text
    assert all(f"<@{p.id}>" in shown.text for p in people)
    assert len(emu.messages(channel=emu.channel, kind="channel_message")) == 1, "edited, not posted"

    started = await service.tournaments.start(tid, emu.owner.id, can_manage=False)
    await aftermath.follow(started)
    await emu.settle()
    shown = emu.message(signup.message_id)
    assert "Under way: round 1 of 2." in shown.text and not shown.buttons
    assert shown.is_layout and shown.content == "", "edited as the same card"
    posts = emu.messages(channel=emu.channel, kind="channel_message")
    assert posts[1].text.startswith("**Autumn cup**: round 1 of 2\n2 tables"), posts[1].text
    assert posts[1].content == "" and in_card(posts[1], layout.TEXT_DISPLAY), "a card"
    tables = posts[2:]
    assert len(tables) == 2
    threads = emu.threads(emu.channel)
    assert sorted(t.id for t in threads) == sorted(t.message_id for t in tables)
    assert sorted(t.name for t in threads) == [
        "Autumn cup: round 1, table 1",
        "Autumn cup: round 1, table 2",
    ]
    for table, opened in zip(tables, started.games, strict=True):
        game = await hv.game(table.message_id)  # the thread finds its game
        assert game.id == opened.game.id and game.thread_id == table.message_id
        assert all(f"<@{s.user_id}>" in table.text for s in game.seats)
        check_card(emu, table)  # a card, whose text pings its players as content would
        assert table.pings == {str(s.user_id) for s in game.seats}
        assert emu.messages_by_id[table.message_id or 0].is_layout, "edited as the same card"
        assert f"<#{game.thread_id}>" in emu.message(table.message_id).text
        assert board_posts(emu, channel=game.thread_id), "the first board in the thread"
    assert not board_posts(emu, channel=emu.channel), "no board in the channel"
    for person in people:
        assert emu.messages(visibility=Visibility.dm_to(person)), "each secret by DM"

    # The second table's announcement as the bot posted it before its posts were cards:
    # plain text. Its game's end makes it a card, its text cleared as Discord requires.
    before = emu.messages_by_id[tables[1].message_id or 0]
    before.flags &= ~IS_COMPONENTS_V2
    before.content, before.components = emu.message(tables[1].message_id).text, []
    assert not before.is_layout

    # The last seat of each table loses: the round's last end pairs round 2 and posts it.
    for opened in started.games:
        loser = opened.game.seats[-1].user_id
        assert loser is not None
        await aftermath.follow(await ended_by_loss(service, opened.game.id, loser))
    standings = await emu.wait_for_message(
        lambda r: "standings after round 1" in r.text, channel=emu.channel, timeout=30
    )
    (picture,) = standings.attachments
    assert picture.image is not None and picture.description, "a picture with its text twin"
    (gallery,) = in_card(standings, layout.MEDIA_GALLERY)
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{picture.filename}", "in the card's gallery"
    assert item["description"] == picture.description, "its text twin as its alt text"
    await emu.wait_for(lambda: len(emu.threads(emu.channel)) == 4, 30, message="round 2")
    await emu.settle()
    assert before.is_layout and before.content == "" and "This game is finished." in before.text
    assert "Under way: round 2 of 2." in emu.message(signup.message_id).text

    second = await service.tournaments.standing(tid)
    for table in second.open_tables(2):
        await aftermath.follow(
            await ended_by_loss(service, table.table.game_id, table.table.players[-1])
        )
    podium = await emu.wait_for_message(
        lambda r: "final standings" in r.text, channel=emu.channel, timeout=30
    )
    assert podium.text.startswith("🏆 <@"), podium.text
    assert podium.content == "" and in_card(podium, layout.MEDIA_GALLERY), "a card"
    await hv.caught_up(timeout=60)
    assert "Finished" in emu.message(signup.message_id).text
    over = emu.message(tables[0].message_id).text
    assert over.startswith("**Autumn cup**: round 1, table 1\n"), over
    assert "This game is finished." in over, "its announcement says so, as a lobby would"
    rounds = [r for r in emu.messages(channel=emu.channel) if "round 2 of 2\n" in r.text]
    assert len(rounds) == 1, "each round posted once"


async def test_posts_of_a_process_that_died_are_sent_once_and_its_round_is_paired(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Another process (a service on the same database, never followed) opens, fills and
    starts a tournament, then dies; later its round's games end and it dies again before
    pairing. The bot sends what it left owed once its lease runs out, and pairs the round by
    its periodic check, once."""
    emu = emulator
    emu.allow_threads()
    assert hv.bot is not None
    clock = MovedClock()
    hv.bot.service.clock = clock
    other = GameService(await GameStore.open(hv.database), clock=clock)
    try:
        people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
        made = await other.tournaments.create(
            guild_id=emu.guild_id,
            channel_id=emu.channel.id,
            user_id=emu.owner.id,
            may_open=True,
            game="pylons",
            options={},
            format="swiss",
            rounds=2,
            table="2",
            turn_clock=timedelta(days=1),
            timeout="end",
            starts_at=None,
            most=None,
            name="Winter cup",
        )
        tid = made.tournament.id
        for person in people:
            await other.tournaments.join(tid, person.id, name=person.name)
        started = await other.tournaments.start(tid, emu.owner.id, can_manage=False)
        clock.advance(seconds=30)  # past the dead process's leases
        await emu.wait_for(lambda: len(emu.threads(emu.channel)) == 2, 30, message="tables")
        await hv.caught_up(timeout=60)
        posts = emu.messages(channel=emu.channel, kind="channel_message")
        signup, announced, *tables = posts
        assert "Under way: round 1 of 2." in emu.message(signup.message_id).text
        assert announced.text.startswith("**Winter cup**: round 1 of 2")
        assert len(tables) == 2
        for opened in started.games:
            game = await (await hv.reader()).game(game_id=opened.game.id, fresh=True)
            assert game is not None and game.thread_id is not None
            assert board_posts(emu, channel=game.thread_id), "its first board in its thread"

        for opened in started.games:  # ended, and the process dies before pairing
            loser = opened.game.seats[-1].user_id
            assert loser is not None
            await ended_by_loss(other, opened.game.id, loser)
        clock.advance(seconds=30)
        await emu.wait_for(lambda: len(emu.threads(emu.channel)) == 4, 30, message="round 2")
        await hv.caught_up(timeout=60)
        clock.advance(seconds=30)  # more checks, past every lease: nothing more is said
        await hv.caught_up(timeout=60)
        texts = [r.text for r in emu.messages(channel=emu.channel, kind="channel_message")]
        assert sum(t.startswith("**Winter cup**: round 2 of 2\n") for t in texts) == 1
        assert sum(t.startswith("Winter cup: standings after round 1") for t in texts) == 1
        assert len(await other.repo.db.fetch("SELECT * FROM tournament_rounds")) == 2
    finally:
        await other.close()


async def test_a_tables_first_board_waits_for_its_announcement_and_its_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Another process starts a tournament and is slow: it still holds the announcement of
    each table (its lease renewed) when the leases of everything else it owes run out. The
    bot takes the rest over, but not a table's first board: that waits for the announcement,
    from which the thread starts. Once the slow process's lease runs out too, the bot sends
    the announcement, starts the thread, and the board goes there; none to the channel."""
    emu = emulator
    emu.allow_threads()
    assert hv.bot is not None
    clock = MovedClock()
    hv.bot.service.clock = clock
    other = GameService(await GameStore.open(hv.database), clock=clock)
    try:
        people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
        made = await other.tournaments.create(
            guild_id=emu.guild_id,
            channel_id=emu.channel.id,
            user_id=emu.owner.id,
            may_open=True,
            game="pylons",
            options={},
            format="swiss",
            rounds=2,
            table="2",
            turn_clock=timedelta(days=1),
            timeout="end",
            starts_at=None,
            most=None,
            name="Spring cup",
        )
        tid = made.tournament.id
        for person in people:
            await other.tournaments.join(tid, person.id, name=person.name)
        started = await other.tournaments.start(tid, emu.owner.id, can_manage=False)
        # Half a minute on, past the leases of everything it owes, it takes each table's
        # announcement again, about to send it; the bot's time is moved there after, so its
        # checks (woken when its clock moves) cannot take the announcements first.
        later = clock.now + timedelta(seconds=30)
        other.clock = lambda: later
        for table in started.games:
            (announcement,) = [o for o in table.owed if o.kind == "lobby"]
            assert await other.duties.take(announcement) is not None
        other.clock = clock
        clock.advance(seconds=30)
        await emu.wait_for(
            lambda: all(emu.messages(visibility=Visibility.dm_to(p)) for p in people),
            30,
            message="the secrets, which wait for nothing",
        )
        await hv.caught_up(timeout=60)
        assert not emu.threads(emu.channel), "no announcement yet, so no thread"
        assert not board_posts(emu, channel=emu.channel), "no first board before its thread"

        clock.advance(seconds=30)  # the slow process's leases run out in turn
        await emu.wait_for(lambda: len(emu.threads(emu.channel)) == 2, 30, message="threads")

        def boards_in_threads() -> int:
            return sum(len(board_posts(emu, channel=t)) for t in emu.threads(emu.channel))

        await emu.wait_for(lambda: boards_in_threads() == 2, 30, message="the first boards")
        await hv.caught_up(timeout=60)
        assert not board_posts(emu, channel=emu.channel), "every first board in its thread"
        assert boards_in_threads() == 2, "one first board each"
        for table in started.games:
            game = await (await hv.reader()).game(game_id=table.game.id, fresh=True)
            assert game is not None and game.thread_id is not None
            assert len(board_posts(emu, channel=game.thread_id)) == 1
    finally:
        await other.close()


async def test_a_table_discord_gives_no_thread_is_played_in_the_channel_and_found_there(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Without the permission to start threads, each table is played in the tournament's
    channel: its announcement says so and names it by number, its first board is posted
    there, a player's commands typed in the channel find their own table, and anyone else is
    told which tables there are and names one."""
    emu = emulator  # a plain member's permissions: no threads
    assert hv.bot is not None
    service, aftermath = hv.bot.service, hv.bot.aftermath
    service.clock = MovedClock()
    people = [emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    made = await service.tournaments.create(
        guild_id=emu.guild_id,
        channel_id=emu.channel.id,
        user_id=emu.owner.id,
        may_open=True,
        game="pylons",
        options={},
        format="swiss",
        rounds=2,
        table="2",
        turn_clock=timedelta(days=1),
        timeout="end",
        starts_at=None,
        most=None,
        name="Summer cup",
    )
    tid = made.tournament.id
    for person in people:
        await service.tournaments.join(tid, person.id, name=person.name)
    started = await service.tournaments.start(tid, emu.owner.id, can_manage=False)
    await aftermath.follow(started)
    await hv.caught_up(timeout=60)
    assert not emu.threads(emu.channel)
    refusals = [(r.method, r.path.rsplit("/", 1)[-1], r.status) for r in emu.rejections]
    assert refusals == [("POST", "threads", 403)] * 2, emu.rejections
    emu.rejections.clear()  # Discord's refusals to start the threads: expected here
    reader = await hv.reader()
    tables = []
    for opened in started.games:
        game = await reader.game(game_id=opened.game.id, fresh=True)
        assert game is not None and game.thread_id is None and game.lobby_message_id
        announced = emu.message(game.lobby_message_id).text
        assert "so it is played here in the channel" in announced, announced
        assert f"game #{game.id} in </game board:" in announced, announced
        tables.append(game)
    assert len(board_posts(emu, channel=emu.channel)) == 2, "each first board in the channel"

    for game in tables:
        for seat in game.seats:
            person = next(p for p in people if p.id == seat.user_id)
            reply = await emu.slash(person, "game status")
            said = " ".join(r.text for r in reply)
            # Their own table, found by their seat: its players' names, and nobody else's.
            names = {s.display_name for s in game.seats}
            assert all(f"• {name}:" in said for name in names), said
            assert not any(f"• {p.name}:" in said for p in people if p.name not in names)
    eve = emu.add_user("Eve")
    refused = await emu.slash(eve, "game status")
    said = " ".join(r.text for r in refused)
    assert "Several games are played from this channel" in said, said
    assert all(f"#{game.id}" in said for game in tables), said
    picked = await emu.slash(eve, "game status", game=tables[1].id)
    said = " ".join(r.text for r in picked)
    assert all(f"• {s.display_name}:" in said for s in tables[1].seats), said

    # A move typed in the channel is made at the mover's own table, its board posted there.
    game = tables[0]
    (opening,) = [
        b
        for b in board_posts(emu, channel=emu.channel)
        if any(c.custom_id.startswith(f"act:{game.id}:") for c in b.components)
    ]
    first = next(p for p in people if p.id == game.seats[0].user_id)
    await emu.click(first, f"act:{game.id}:{game.version}:keep", message=opening.message_id)
    game = await emu.wait_for(lambda: _moved(reader, game), 30, message="the board chosen")
    state = await hv.state(game)
    mover = next(p for p in people if p.id == game.seats[state.current_seat()].user_id)
    cell = state.legal_actions()[0].text().split()[1]
    reply = await emu.slash(mover, "pylons place", cell=cell)
    assert reply.public and all(r.channel_id == emu.channel.id for r in reply.public)
    played = await reader.game(game_id=game.id, fresh=True)
    assert played is not None and played.version > game.version


async def _moved(reader: GameStore, before: GameRow) -> GameRow | None:
    now = await reader.game(game_id=before.id, fresh=True)
    return now if now is not None and now.version > before.version else None
