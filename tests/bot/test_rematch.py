"""Rematches on both databases: a finished game's players ask for the same table again, the
seats rotated by one, AI seats at their levels; it starts once every person has accepted;
one rematch per game even when two processes are asked at once; the lobby's hours end it;
a decline makes it an ordinary lobby, the asker's withdraws it. Refusals change nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest
from conftest import services_sharing
from moved_clock import MovedClock
from played_games import finished_pylons

from hvbot.services import BotError, GameService
from hvbot.services.rematch import people_of
from hvbot.services.server_settings import Change
from hvbot.store import GameRow, GameStore

GUILD = 5
CHANNEL = 40
ADA, BO, CY, DI, EVE = 801, 802, 803, 804, 805
NAMES = {ADA: "Ada", BO: "Bo", CY: "Cy", DI: "Di"}


async def finished_game(
    service: GameService, people: Sequence[int], ai: Sequence[str], game_name: str
) -> GameRow:
    """A game of `people` and AI seats at the levels `ai` (in that order), ended by every
    person resigning: the last resignation finishes it as that person's loss."""
    lobby = service.lobby
    creator, *others = people
    await lobby.new_lobby(
        channel_id=CHANNEL,
        guild_id=GUILD,
        user_id=creator,
        name=NAMES[creator],
        game_name=game_name,
        remind_minutes=90,
    )
    for user in others:
        await lobby.join(channel_id=CHANNEL, user_id=user, name=NAMES[user], language="fr")
    for level in ai:
        await lobby.add_ai(channel_id=CHANNEL, user_id=creator, level=level)
    started = await lobby.start(channel_id=CHANNEL, user_id=creator, can_manage=False)
    for user in people:
        await service.play.resign(channel_id=CHANNEL, user_id=user)
    game = await service.games.find(started.game.id, fresh=True)
    assert game is not None and game.status == "finished"
    return game


async def refused(key: str, work: object) -> None:
    with pytest.raises(BotError) as caught:
        await work  # type: ignore[misc]  # each call site hands a coroutine
    assert caught.value.key == key, caught.value


async def rematch_rows(store: GameStore) -> int:
    return int(await store.db.fetchval("SELECT COUNT(*) FROM rematches"))


@pytest.mark.parametrize(
    ("game_name", "people", "ai"),
    [
        ("pylons", (ADA, BO), ()),
        ("high-voltage", (ADA, BO), ("hard",)),
        ("high-voltage", (ADA, BO, CY), ("normal",)),
        ("sector6", (ADA, BO, CY, DI), ()),
    ],
)
async def test_a_rematch_rotates_the_seats_and_starts_once_everyone_accepted(
    database_url: str, game_name: str, people: Sequence[int], ai: Sequence[str]
) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(3), clock=MovedClock()
    )
    try:
        before = await finished_game(service, people, ai, game_name)
        asker = people[1]
        change = await service.rematch.offer(
            game_id=before.id, user_id=asker, name="Bo again", language="de"
        )
        lobby = change.game
        assert change.what == "asked" and lobby.status == "lobby" and lobby.id != before.id
        assert lobby.creator_id == asker and lobby.channel_id == before.channel_id
        assert (lobby.game_name, lobby.options) == (before.game_name, before.options)
        assert lobby.remind_minutes == 90 and lobby.wants_thread == before.wants_thread
        # Seat k of the game before is seat k-1; seat 0 goes last. People sit again as
        # themselves (not as the AI that took over their resigned seat), AI seats keep their
        # level.
        old = [(s.user_id or s.resigned_user_id, s.ai_level) for s in before.seats]
        old = [(user, None if user else level) for user, level in old]
        assert [(s.user_id, s.ai_level) for s in lobby.seats] == old[1:] + old[:1]
        assert [s.seat for s in lobby.seats] == list(range(len(before.seats)))
        names = {s.user_id: s.display_name for s in lobby.seats if s.user_id}
        assert names[asker] == "Bo again"
        assert names[ADA] == "Ada", "the name inside 'Ada (resigned, AI plays)'"
        # The lobby message is owed, to be posted (not edited): it names the game before.
        assert [(o.kind, o.body) for o in change.owed] == [("lobby", {"rematch_of": before.id})]
        standing = await service.rematch.standing(lobby.id)
        assert standing is not None and standing.of == before.id
        assert standing.accepted == (asker,)
        assert set(standing.waiting) == set(people) - {asker}

        # Until everyone accepted, the lobby is theirs alone.
        await refused(
            "bot.rematch.waiting_lobby",
            service.lobby.join(channel_id=CHANNEL, user_id=EVE, name="Eve"),
        )
        await refused(
            "bot.rematch.waiting_lobby",
            service.lobby.start(channel_id=CHANNEL, user_id=asker, can_manage=True),
        )
        await refused(
            "bot.rematch.waiting_lobby",
            service.lobby.add_ai(channel_id=CHANNEL, user_id=asker, level="easy"),
        )
        await refused(
            "bot.rematch.not_invited",
            service.rematch.answer(lobby_id=lobby.id, user_id=EVE, accept_it=True),
        )
        await refused(
            "bot.rematch.accepted_already",
            service.rematch.answer(lobby_id=lobby.id, user_id=asker, accept_it=True),
        )

        waiting = [p for p in people if p != asker]
        for user in waiting[:-1]:
            accepted = await service.rematch.answer(lobby_id=lobby.id, user_id=user, accept_it=True)
            assert accepted.what == "accepted" and accepted.game.status == "lobby"
            assert [o.kind for o in accepted.owed] == ["lobby"], "the lobby message edited"
            await refused(
                "bot.rematch.accepted_already",
                service.rematch.answer(lobby_id=lobby.id, user_id=user, accept_it=True),
            )
        last = await service.rematch.answer(lobby_id=lobby.id, user_id=waiting[-1], accept_it=True)
        assert last.what == "started" and last.state is not None
        game = last.game
        assert game.status == "active" and game.id == lobby.id
        assert [(s.user_id, s.ai_level) for s in game.seats] == old[1:] + old[:1]
        kinds = [o.kind for o in last.owed]
        assert kinds[:2] == ["lobby", "start"]
        secrets = {o.body["user"]: o.body["seat"] for o in last.owed if o.kind == "secret"}
        assert secrets == {s.user_id: s.seat for s in game.seats if s.user_id is not None}
        assert await service.rematch.standing(lobby.id) is None
        await refused(
            "bot.rematch.started_already",
            service.rematch.answer(lobby_id=lobby.id, user_id=waiting[0], accept_it=False),
        )
        await refused(
            "bot.rematch.had",
            service.rematch.offer(game_id=before.id, user_id=people[0], name="Ada"),
        )
    finally:
        await service.close()


async def test_one_rematch_per_game_even_asked_in_two_processes_at_once(
    database_url: str,
) -> None:
    async with services_sharing(database_url, 2) as (first, second):
        before = await finished_pylons(
            first, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
        )
        await refused(
            "bot.rematch.not_played",
            second.rematch.offer(game_id=before.id, user_id=CY, name="Cy"),
        )
        assert await rematch_rows(first.repo) == 0
        opened = 0
        for _ in range(3):
            asked = await asyncio.gather(
                first.rematch.offer(game_id=before.id, user_id=ADA, name="Ada"),
                second.rematch.offer(game_id=before.id, user_id=BO, name="Bo"),
                first.rematch.offer(game_id=before.id, user_id=BO, name="Bo"),
                return_exceptions=True,
            )
            made = [a for a in asked if not isinstance(a, BaseException)]
            keys = [a.key for a in asked if isinstance(a, BotError)]
            assert len(made) <= 1 and len(made) + len(keys) == 3, asked
            assert set(keys) == {"bot.rematch.asked_already"}
            opened += len(made)
        assert opened == 1, "of every click, at once or after, one opened it"
        assert await rematch_rows(first.repo) == 1
        (lobby,) = await first.repo.open_games()
        assert lobby.status == "lobby" and len(lobby.seats) == 2
        # Nothing else changed: one lobby, its one message owed, its people invited.
        owed = await first.repo.db.fetchval(
            "SELECT COUNT(*) FROM announcements WHERE game_id = ?", lobby.id
        )
        assert owed == 1
        standing = await first.rematch.standing(lobby.id)
        assert standing is not None and {*standing.accepted, *standing.waiting} == {ADA, BO}


async def test_a_rematch_expires_with_the_lobbys_hours(database_url: str) -> None:
    clock = MovedClock()
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(1), clock=clock
    )
    try:
        await service.server_settings.change(GUILD, Change(lobby_hours=6))
        before = await finished_game(service, (ADA, BO), (), "pylons")
        lobby = (await service.rematch.offer(game_id=before.id, user_id=ADA, name="Ada")).game
        clock.advance(hours=5, minutes=59)
        assert await service.lobby.close_expired() == []
        clock.advance(minutes=1)
        (closed,) = await service.lobby.close_expired()
        assert closed.game.id == lobby.id and closed.game.status == "abandoned"
        # A click after it ended changes nothing and says so.
        await refused(
            "bot.rematch.over",
            service.rematch.answer(lobby_id=lobby.id, user_id=BO, accept_it=True),
        )
        await refused(
            "bot.rematch.had", service.rematch.offer(game_id=before.id, user_id=BO, name="Bo")
        )
        assert (await service.games.find(lobby.id, fresh=True)).status == "abandoned"  # type: ignore[union-attr]  # it exists
        assert await rematch_rows(service.repo) == 1
    finally:
        await service.close()


async def test_a_rematch_against_ai_seats_alone_starts_at_once(database_url: str) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(6), clock=MovedClock()
    )
    try:
        before = await finished_game(service, (ADA,), ("hard", "easy"), "high-voltage")
        change = await service.rematch.offer(game_id=before.id, user_id=ADA, name="Ada")
        assert change.what == "started" and change.game.status == "active"
        assert [(s.user_id, s.ai_level) for s in change.game.seats] == [
            (None, "hard"),
            (None, "easy"),
            (ADA, None),
        ]
        kinds = [o.kind for o in change.owed]
        assert kinds[0] == "lobby" and change.owed[0].body == {"rematch_of": before.id}
        assert "start" in kinds and [o.body["user"] for o in change.owed if o.kind == "secret"] == [
            ADA
        ]
    finally:
        await service.close()


async def test_a_decline_makes_an_ordinary_lobby_and_the_askers_withdraws_it(
    database_url: str,
) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(2), clock=MovedClock()
    )
    try:
        before = await finished_game(service, (ADA, BO, CY), ("hard",), "high-voltage")
        assert people_of(before) == [ADA, BO, CY]
        lobby = (await service.rematch.offer(game_id=before.id, user_id=CY, name="Cy")).game
        await service.rematch.answer(lobby_id=lobby.id, user_id=ADA, accept_it=True)
        # Bo declines by leaving: those who accepted keep their seats, the AI too, in order.
        left = await service.rematch.leave(channel_id=CHANNEL, user_id=BO)
        assert left.what == "ordinary"
        seats = [(s.seat, s.user_id, s.ai_level) for s in left.game.seats]
        assert seats == [(0, CY, None), (1, None, "hard"), (2, ADA, None)]
        told = [o.body["content"] for o in left.owed if o.kind == "text"]
        assert told == [
            f"<@{BO}> declined the rematch, so this is an ordinary lobby now: those who"
            " accepted keep their seats, anyone can Join, and its creator starts it."
        ]
        assert await service.rematch.standing(lobby.id) is None
        await refused(
            "bot.rematch.ordinary_now",
            service.rematch.answer(lobby_id=lobby.id, user_id=ADA, accept_it=True),
        )
        # An ordinary lobby: anyone joins, and its creator starts it.
        await service.lobby.join(channel_id=CHANNEL, user_id=EVE, name="Eve")
        started = await service.lobby.start(channel_id=CHANNEL, user_id=CY, can_manage=False)
        assert [s.user_id for s in started.game.seats] == [CY, None, ADA, EVE]

        # Another game's rematch, withdrawn by the one who asked for it.
        for user in (CY, ADA, EVE):
            await service.play.resign(channel_id=CHANNEL, user_id=user)
        second = await service.rematch.offer(game_id=lobby.id, user_id=EVE, name="Eve")
        withdrawn = await service.rematch.answer(
            lobby_id=second.game.id, user_id=EVE, accept_it=False
        )
        assert withdrawn.what == "withdrawn" and withdrawn.game.status == "abandoned"
        await refused(
            "bot.rematch.over",
            service.rematch.answer(lobby_id=second.game.id, user_id=ADA, accept_it=True),
        )
    finally:
        await service.close()


async def test_a_rematch_keeps_to_the_servers_limits(database_url: str) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(4), clock=MovedClock()
    )
    try:
        before = await finished_game(service, (ADA, BO), (), "pylons")
        # The channel has a lobby again: the rematch has no room, and nothing is kept of it.
        await service.lobby.new_lobby(
            channel_id=CHANNEL, guild_id=GUILD, user_id=CY, name="Cy", game_name="pylons"
        )
        await refused(
            "bot.error.busy", service.rematch.offer(game_id=before.id, user_id=BO, name="Bo")
        )
        await service.abandon.abandon(channel_id=CHANNEL, user_id=CY, can_manage=False)
        # As many open games of their own as a member may have.
        for channel in (1, 2, 3):
            await service.lobby.new_lobby(
                channel_id=channel, guild_id=GUILD, user_id=BO, name="Bo", game_name="pylons"
            )
        await refused(
            "bot.error.too_many_open",
            service.rematch.offer(game_id=before.id, user_id=BO, name="Bo"),
        )
        assert await rematch_rows(service.repo) == 0
        # Ada has room: her rematch opens, and Bo is invited to it all the same.
        made = await service.rematch.offer(game_id=before.id, user_id=ADA, name="Ada")
        assert made.game.creator_id == ADA
    finally:
        await service.close()


async def test_a_seat_a_moderator_removed_is_an_ordinary_ai_seat_in_the_rematch(
    database_url: str,
) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(5), clock=MovedClock()
    )
    try:
        lobby = service.lobby
        await lobby.new_lobby(
            channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="high-voltage"
        )
        await lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
        await lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="hard")
        await lobby.join(channel_id=CHANNEL, user_id=CY, name="Cy")
        await lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
        # A moderator takes Cy's seat (the fourth): an AI plays it for nobody to the end.
        kicked = await service.moderation.kick(
            channel_id=CHANNEL, seat_number=4, moderator="<@9>", user_id=9
        )
        assert kicked.what == "ai"
        removed = kicked.game.seats[3]
        assert removed.display_name == "Cy (removed, AI plays)" and removed.user_id is None
        for user in (ADA, BO):
            await service.play.resign(channel_id=CHANNEL, user_id=user)
        before = await service.games.find(kicked.game.id, fresh=True)
        assert before is not None and before.status == "finished"
        assert people_of(before) == [ADA, BO], "nobody is recorded at the removed seat"

        change = await service.rematch.offer(game_id=before.id, user_id=ADA, name="Ada")
        # Rotated by one: Bo, the hard AI, the removed seat, Ada. The removed seat is an AI
        # seat like any other now, at the level that played it, named as a new AI seat is:
        # after the table's other AI seat.
        seats = [(s.user_id, s.ai_level, s.display_name) for s in change.game.seats]
        assert seats == [
            (BO, None, "Bo"),
            (None, "hard", "AI 1 (hard)"),
            (None, removed.ai_level, f"AI 2 ({removed.ai_level})"),
            (ADA, None, "Ada"),
        ]
        standing = await service.rematch.standing(change.game.id)
        assert standing is not None and standing.waiting == (BO,), "Cy is not invited"
        started = await service.rematch.answer(lobby_id=change.game.id, user_id=BO, accept_it=True)
        assert started.what == "started"
        assert [s.display_name for s in started.game.seats][2] == f"AI 2 ({removed.ai_level})"
    finally:
        await service.close()


@pytest.mark.parametrize("bo_accepted", [False, True])
async def test_a_moderator_taking_an_invitees_seat_settles_it_as_their_decline(
    database_url: str, bo_accepted: bool
) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(7), clock=MovedClock()
    )
    try:
        before = await finished_game(service, (ADA, BO, CY), ("hard",), "high-voltage")
        lobby = (await service.rematch.offer(game_id=before.id, user_id=CY, name="Cy")).game
        # One of Ada and Bo accepts; the other is still to.
        accepting = BO if bo_accepted else ADA
        await service.rematch.answer(lobby_id=lobby.id, user_id=accepting, accept_it=True)
        # Seats: Bo, Cy (who asked), the AI, Ada.
        assert [s.user_id for s in lobby.seats] == [BO, CY, None, ADA]
        # The asker's seat is not a moderator's to take: /game end closes the lobby.
        await refused(
            "bot.error.kick_creator",
            service.moderation.kick(channel_id=CHANNEL, seat_number=2, moderator="<@9>"),
        )
        kicked = await service.moderation.kick(
            channel_id=CHANNEL, seat_number=1, moderator="<@9>", user_id=9
        )
        # Bo's invitation is settled as his decline, whether he had accepted or not: the
        # lobby is an ordinary one, so it does not wait for an answer that can no longer
        # come. Those who accepted, and the AI, keep their seats, as after any decline.
        assert kicked.what == "freed" and kicked.game.status == "lobby"
        kept = [(0, CY, None), (1, None, "hard")] + ([] if bo_accepted else [(2, ADA, None)])
        assert [(s.seat, s.user_id, s.ai_level) for s in kicked.game.seats] == kept
        assert sorted(o.kind for o in kicked.owed) == ["lobby", "text"]
        told = [o.body["content"] for o in kicked.owed if o.kind == "text"]
        assert told == [
            f"🛡️ <@9> removed <@{BO}> from the rematch, which counts as declining it: this"
            " is an ordinary lobby now, those who accepted keep their seats, anyone can Join,"
            " and its creator starts it."
        ]
        assert await service.rematch.standing(lobby.id) is None
        await refused(
            "bot.rematch.ordinary_now",
            service.rematch.answer(lobby_id=lobby.id, user_id=ADA, accept_it=True),
        )
        # Its creator starts it, as any lobby.
        started = await service.lobby.start(channel_id=CHANNEL, user_id=CY, can_manage=False)
        assert [s.user_id for s in started.game.seats] == [s[1] for s in kept]
    finally:
        await service.close()
