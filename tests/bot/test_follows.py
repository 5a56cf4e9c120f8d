"""Following a game one does not play, on both databases: who may follow, and the digests
by DM, each move told once whichever of two processes claims it, held through the follower's
quiet hours and told once they end, spaced out by their `every`, stopped by unfollowing, and
told one last time when the game ends."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
from moved_clock import MovedClock
from played_games import play_to_the_end, started_game

from hvbot.aftermath import owed_posts
from hvbot.services import BotError, GameService
from hvbot.services.follows import MOST_FOLLOWED
from hvbot.store import GameRow, GameStore, NotifySettings
from hvbot.store.duties import AI_WAITS_FOR, Owed

CHANNEL, GUILD = 910, 1
ADA, BO, CY = 501, 502, 503
PLAYERS = [(ADA, "Ada"), (BO, "Bo")]


@pytest.fixture
async def opened(database_url: str):
    stores: list[GameStore] = []

    async def open_service(clock: MovedClock) -> GameService:
        store = await GameStore.open(database_url, cache=False)
        stores.append(store)
        return GameService(store, seed_source=random.Random(7), clock=clock)

    yield open_service
    for store in stores:
        await store.close()


async def play(service: GameService, game: GameRow, moves: int, rng: random.Random) -> None:
    """`moves` random legal moves by whoever is to move."""
    for _ in range(moves):
        found = await service.repo.game(game_id=game.id, fresh=True)
        assert found is not None
        state = service.games.load_state(found)
        seat = state.current_seat()
        assert seat is not None
        user = found.seats[seat].user_id
        assert user is not None
        await service.play.act(game_id=game.id, user_id=user, action=state.sample_action(rng))


async def digests(service: GameService) -> list[dict]:
    """The digests due now, claimed, as their bodies."""
    return [owed.body for change in await service.follows.due_digests() for owed in change.owed]


async def test_only_someone_not_at_the_table_follows_an_open_game_they_can_see(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    game = await started_game(service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    follow = service.follows.follow

    with pytest.raises(BotError) as refused:
        await follow(game=game, user_id=ADA, channel_id=CHANNEL, language="en")
    assert refused.value.key == "bot.follow.playing"
    with pytest.raises(BotError) as refused:
        await follow(game=game, user_id=CY, channel_id=CHANNEL + 1, language="en")
    assert refused.value.key == "bot.error.not_a_game_here"

    first = await follow(game=game, user_id=CY, channel_id=CHANNEL, language="it")
    again = await follow(game=game, user_id=CY, channel_id=CHANNEL, language="it")
    assert (first.new, first.by_dm, again.new) == (True, True, False)
    assert [g.id for g in await service.follows.followed(CY)] == [game.id]
    assert await service.follows.followed(ADA) == []

    # At most MOST_FOLLOWED open games a person.
    for n in range(1, MOST_FOLLOWED):
        other = await started_game(
            service, channel_id=CHANNEL + 10 * n, guild_id=GUILD + n, players=PLAYERS
        )
        await follow(game=other, user_id=CY, channel_id=CHANNEL + 10 * n, language="en")
    extra = await started_game(
        service, channel_id=CHANNEL + 5, guild_id=GUILD + MOST_FOLLOWED, players=PLAYERS
    )
    with pytest.raises(BotError) as refused:
        await follow(game=extra, user_id=CY, channel_id=CHANNEL + 5, language="en")
    assert refused.value.key == "bot.follow.too_many"
    assert len(await service.follows.followed(CY)) == MOST_FOLLOWED

    # A game that is over is followed no more, and no longer counts.
    ended = await play_to_the_end(service, game.id, random.Random(3))
    with pytest.raises(BotError) as refused:
        await follow(game=ended, user_id=BO + 100, channel_id=CHANNEL, language="en")
    assert refused.value.key == "bot.follow.over"
    assert len(await service.follows.followed(CY)) == MOST_FOLLOWED - 1
    await follow(game=extra, user_id=CY, channel_id=CHANNEL + 5, language="en")


async def test_each_move_is_told_once_whichever_process_claims_it(opened) -> None:
    clock = MovedClock()
    one, two = await opened(clock), await opened(clock)
    game = await started_game(one, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    rng = random.Random(5)
    await play(one, game, 2, rng)  # before the follow: never told
    await one.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="fr")
    assert await digests(one) == [] and await digests(two) == []

    told: list[tuple[int, int]] = []
    for round_ in range(4):
        await play(one, game, 3, rng)
        claimed = [*await digests(one if round_ % 2 else two), *await digests(two)]
        claimed += await digests(one)
        assert len(claimed) == 1, "one digest, by one process"
        (body,) = claimed
        assert body["user"] == CY and body["language"] == "fr"
        told.append((body["first"], body["count"]))
    assert told == [(2, 3), (5, 3), (8, 3), (11, 3)]  # every move once, none twice

    # What is told is what the channel was told, from the stored moves.
    moved = await one.repo.game(game_id=game.id)
    assert moved is not None
    post = await owed_posts.digest_post(one.games, moved, await _owe_again(one, moved))
    assert post is not None and post.content.startswith(f"**Pylons** n° {game.id} dans <#")
    assert post.content.count("a placé un pylône") == 3  # the last three moves, in French
    assert post.view is not None  # its Unfollow button


async def _owe_again(service: GameService, game: GameRow):
    """A digest's outbox row, as the last claim owed it (to build its post again)."""
    row = await service.repo.db.fetchrow(
        "SELECT id, game_id, version, kind, body, token, nonce FROM announcements"
        " WHERE kind = 'digest' ORDER BY id DESC LIMIT 1"
    )
    return Owed(
        row["id"],
        row["game_id"],
        row["version"],
        row["kind"],
        json.loads(row["body"]),
        row["token"],
        row["nonce"],
    )


async def test_quiet_hours_hold_a_digest_until_they_end_then_it_comes_once(opened) -> None:
    clock = MovedClock(datetime(2026, 6, 10, 21, 0, tzinfo=UTC))  # 23:00 in Rome
    service = await opened(clock)
    game = await started_game(service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    await service.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    await service.notify.change(CY, quiet_from="22:00", quiet_to="07:00", zone="Europe/Rome")
    rng = random.Random(9)

    await play(service, game, 2, rng)
    assert await digests(service) == []  # held: nothing owed
    clock.advance(hours=2)
    await play(service, game, 2, rng)
    assert await digests(service) == []  # still quiet, and not looked at again before 07:00
    held = await service.repo.follows.of(user_id=CY, game_id=game.id)
    assert held is not None and held.due_at is not None
    assert datetime.fromisoformat(held.due_at) == datetime(2026, 6, 11, 5, 0, tzinfo=UTC)

    clock.now = datetime(2026, 6, 11, 5, 0, tzinfo=UTC)  # 07:00 in Rome
    (body,) = await digests(service)
    assert (body["first"], body["count"]) == (0, 4)  # all four, once
    assert await digests(service) == []


async def test_every_spaces_digests_out_and_unfollowing_stops_them(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    game = await started_game(service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    await service.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    await service.repo.notify.set(CY, NotifySettings(every_minutes=60))
    rng = random.Random(11)

    await play(service, game, 1, rng)
    assert len(await digests(service)) == 1
    await play(service, game, 2, rng)
    assert await digests(service) == []  # within the hour
    clock.advance(minutes=61)
    (body,) = await digests(service)
    assert (body["first"], body["count"]) == (1, 2)

    await service.follows.unfollow(game_id=game.id, user_id=CY)
    clock.advance(hours=2)
    await play(service, game, 2, rng)
    assert await digests(service) == []
    with pytest.raises(BotError) as refused:
        await service.follows.unfollow(game_id=game.id, user_id=CY)
    assert refused.value.key == "bot.follow.not_following"


async def test_the_end_is_told_once_and_the_follow_goes(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    game = await started_game(service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    await service.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    ended = await play_to_the_end(service, game.id, random.Random(4))
    (body,) = await digests(service)
    assert body["over"] is True
    assert await service.repo.follows.of(user_id=CY, game_id=game.id) is None
    assert await digests(service) == []
    owed = await _owe_again(service, ended)
    post = await owed_posts.digest_post(service.games, ended, owed)
    assert post is not None and post.view is None  # nothing left to unfollow


async def _last_mover(service: GameService, game: GameRow) -> int:
    """Who made the game's last stored move."""
    actions = await service.repo.actions(game_id=game.id)
    found = await service.repo.game(game_id=game.id, fresh=True)
    assert found is not None and actions
    user = found.seats[actions[-1][0]].user_id
    assert user is not None
    return user


async def _take_back(service: GameService, game: GameRow) -> None:
    """The last mover asks to take their move back, and the other person accepts."""
    mover = await _last_mover(service, game)
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=mover)
    other = BO if mover == ADA else ADA
    done = await service.undo.answer_undo(request_id=asked.request.id, user_id=other, accept=True)
    assert done.status == "done"


async def test_a_move_told_and_then_taken_back_is_said_once_in_the_next_digest(opened) -> None:
    clock = MovedClock()
    one, two = await opened(clock), await opened(clock)
    game = await started_game(one, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    await one.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    rng = random.Random(21)
    await play(one, game, 3, rng)
    (told,) = await digests(one)
    assert (told["first"], told["count"], told["taken_back"]) == (0, 3, [])
    taken = (await one.repo.actions(game_id=game.id))[-1][1]
    mover = await _last_mover(one, game)

    await _take_back(one, game)
    (body,) = [*await digests(two), *await digests(one)]  # once, whichever process
    assert body["taken_back"] == [{"player": mover, "action": taken, "ai": 0}]
    assert (body["first"], body["count"]) == (2, 0)  # the move told again, once replayed
    moved = await one.repo.game(game_id=game.id)
    assert moved is not None
    post = await owed_posts.digest_post(one.games, moved, await _owe_again(one, moved))
    name = "Ada" if mover == ADA else "Bo"
    assert post is not None
    # The words the channel was told, in the follower's language.
    assert f"{name} took back their last move (" in post.content
    assert post.content.count("took back") == 1
    assert await digests(one) == []

    # A move the follower was never told, taken back, is not theirs to hear of.
    await play(one, game, 1, rng)
    await one.repo.notify.set(CY, NotifySettings(every_minutes=60))
    (replayed,) = await digests(one)
    assert (replayed["first"], replayed["count"], replayed["taken_back"]) == (2, 1, [])
    await play(one, game, 1, rng)  # not told yet: the follower hears once an hour
    await _take_back(one, game)
    clock.advance(minutes=61)
    assert await digests(one) == []  # nothing they were told changed, nothing new to tell


async def test_a_digest_read_before_a_take_back_is_not_claimed_after_it(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    game = await started_game(service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS)
    await service.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    rng = random.Random(23)
    await play(service, game, 2, rng)
    assert len(await digests(service)) == 1
    await play(service, game, 1, rng)
    (read,) = await service.repo.follows.due(now=clock(), most=5)  # about to tell move 3
    await _take_back(service, game)  # ...which is taken back meanwhile, never told
    stale = await service.repo.follows.claim(read, now=clock(), next_at=None, body={"user": CY})
    assert stale is None  # the game changed under it: nothing claimed, nothing owed
    assert await digests(service) == []  # nothing the follower was told changed
    await play(service, game, 1, rng)
    (body,) = await digests(service)
    # The move played instead is told: it was not counted as told by the stale claim.
    assert (body["first"], body["count"], body["taken_back"]) == (2, 1, [])


async def test_a_digest_is_a_post_of_its_own_that_no_ai_seat_waits_for(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
    )
    await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")
    started = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    game = started.game
    await service.follows.follow(game=game, user_id=CY, channel_id=CHANNEL, language="en")
    # Played on until the AI seat is to move, after a move the follower is to be told.
    rng = random.Random(2)
    while True:
        while await service.play.ai_step(game_id=game.id) is not None:
            pass
        await play(service, game, 1, rng)
        found = await service.repo.game(game_id=game.id, fresh=True)
        assert found is not None
        if found.seats[service.games.load_state(found).current_seat() or 0].is_ai:
            break
    (change,) = await service.follows.due_digests()
    (owed,) = change.owed
    assert owed.kind == "digest" and owed.body["user"] == CY
    # Every other post made; the digest still owed (its DM cannot go, say).
    await service.repo.db.transact(
        lambda tx: tx.execute(
            "UPDATE announcements SET sent_at = created_at WHERE kind <> 'digest'"
        )
    )
    assert await service.duties.owes(game.id, ("digest",))
    assert not await service.duties.owes(game.id, AI_WAITS_FOR)
    assert await service.duties.claim_ai(game.id, "one", unless_owed=AI_WAITS_FOR)
    assert await service.duties.claim_ai_turns("two", unless_owed=AI_WAITS_FOR) == []
    await service.duties.release_ai(game.id, "one")
    assert await service.duties.claim_ai_turns("two", unless_owed=AI_WAITS_FOR) == [game.id]


async def test_a_lobby_s_follower_is_joined_to_the_thread_its_game_starts_in(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    lobby = await service.lobby.new_lobby(
        channel_id=CHANNEL,
        guild_id=GUILD,
        user_id=ADA,
        name="Ada",
        game_name="pylons",
        wants_thread=True,
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    followed = await service.follows.follow(
        game=lobby, user_id=CY, channel_id=CHANNEL, language="en"
    )
    assert followed.by_dm and followed.thread_later

    started = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    kinds = [owed.kind for owed in started.owed]
    assert kinds[:3] == ["lobby", "followers", "start"]  # joined before the first board
    (joining,) = [owed for owed in started.owed if owed.kind == "followers"]
    assert joining.body == {"users": [CY]}
    # No thread yet (or none at all: the game stays in its channel): the digests stay.
    assert await service.follows.to_thread(started.game, [CY]) == []
    game = await service.games.set_thread(started.game, 4242)
    assert await service.follows.to_thread(game, [CY]) == [CY]
    assert await service.follows.to_thread(game, [CY]) == [CY]  # done again: the same
    follow = await service.repo.follows.of(user_id=CY, game_id=game.id)
    assert follow is not None and not follow.by_dm
    await play(service, game, 3, random.Random(3))
    assert await digests(service) == []  # the thread tells them: no DM any more


async def test_a_lobby_without_a_thread_owes_no_joining(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    lobby = await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    followed = await service.follows.follow(
        game=lobby, user_id=CY, channel_id=CHANNEL, language="en"
    )
    assert followed.by_dm and not followed.thread_later
    started = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    assert "followers" not in [owed.kind for owed in started.owed]
    await play(service, started.game, 2, random.Random(3))
    assert len(await digests(service)) == 1
