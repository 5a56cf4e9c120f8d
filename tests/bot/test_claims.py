"""Several bot processes on one database (SQLite and PostgreSQL): reminders sent once, AI seats
thought for by one process at a time and taken over when its lease runs out, conflicting moves
stored once, a move's post owed in the outbox until it is made. Each "process" here is a
repository with connections of its own, as a bot process has."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from conftest import heard_so_far, services_sharing

from hvbot.services import BotError, GameService
from hvbot.store.duties import owe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

GUILD, ADA, BO = 1, 101, 102


@pytest.fixture
async def processes(database_url: str) -> AsyncIterator[list[GameService]]:
    async with services_sharing(database_url, 3) as services:
        yield services


async def _started(service: GameService, channel: int, *, ai: bool = False):
    await service.lobby.new_lobby(
        channel_id=channel,
        guild_id=GUILD + channel,
        user_id=ADA,
        name="Ada",
        game_name="High Voltage",
    )
    if ai:
        await service.lobby.add_ai(channel_id=channel, user_id=ADA, level="easy")
    else:
        await service.lobby.join(channel_id=channel, user_id=BO, name="Bo")
    started = await service.lobby.start(channel_id=channel, user_id=ADA, can_manage=False)
    for owed in started.owed:  # the start's posts, as the bot sends them
        await service.duties.made(owed)
    await service.duties.lobby_shown(started.game.id)
    return started.game, started.state


async def test_reminders_due_in_the_same_second_are_each_sent_once(
    processes: list[GameService],
) -> None:
    first = processes[0]
    games = [(await _started(first, channel))[0] for channel in range(1000, 1200)]
    now = datetime.now(UTC) + timedelta(hours=1)  # every reminder is due
    for service in processes:
        service.clock = lambda: now
    found = await asyncio.gather(
        *(s.reminders.due_reminders(lambda r: f"<@{r.user_id}>, your turn") for s in processes)
    )
    reminded = sorted(r.game.id for batch in found for r in batch)
    assert reminded == sorted(g.id for g in games), "each game reminded, and only once"
    # Each is owed once in the outbox, held by the process that claimed it.
    texts = await first.repo.db.fetch("SELECT game_id FROM announcements WHERE kind = 'text'")
    assert sorted(r["game_id"] for r in texts) == reminded
    # Nobody else may claim them while their leases run (the start's posts, owed an hour ago
    # by this clock, may be: nobody sent them in this test).
    assert [o for o in await first.duties.claim_owed() if o.kind == "text"] == []


async def test_a_reminder_is_sent_once_when_its_process_outlives_its_claim(
    processes: list[GameService],
) -> None:
    """The first process claims the reminders due and is held up posting the first of them
    (Discord is slow, the machine paused) until its claims' leases have run out; meanwhile the
    second takes over what it owed, as its periodic duties do (`Aftermath.do_duties`). The
    first then sends none of those: each is taken with its fencing token right before it is
    sent, and the second moved the tokens on. The one it was sending when held up, both send,
    with the one nonce, which Discord refuses the second time."""
    first, second = processes[:2]
    games = [(await _started(first, channel))[0] for channel in range(1300, 1304)]
    now = datetime.now(UTC) + timedelta(hours=1)  # every reminder is due
    for service in processes:
        service.clock = lambda: now
    posted: list[tuple[str, int, str]] = []  # who, which game, with which nonce
    held, go_on = asyncio.Event(), asyncio.Event()

    async def first_sends() -> None:
        """As `Aftermath.remind` does, with a Discord that is slow to answer the first post."""
        for reminder in await first.reminders.due_reminders(lambda r: f"<@{r.user_id}>, go"):
            (owed,) = reminder.owed
            taken = await first.duties.take(owed)
            if taken is None:
                continue
            posted.append(("first", reminder.game.id, taken.discord_nonce))
            if not held.is_set():
                held.set()
                await go_on.wait()
            await first.duties.made(taken)

    sending = asyncio.create_task(first_sends())
    await asyncio.wait_for(held.wait(), 10)
    # The leases of the first process's claims run out while it is held up.
    now += timedelta(minutes=1)
    for owed in await second.duties.claim_owed():
        if owed.kind != "text":
            continue  # the start's posts, unsent in this test: not what it looks at
        taken = await second.duties.take(owed)
        if taken is not None:
            posted.append(("second", owed.game_id, taken.discord_nonce))
            await second.duties.made(taken)
    go_on.set()
    await asyncio.wait_for(sending, 10)
    assert {who for who, _, _ in posted} == {"first", "second"}, "the second took them over"
    nonces = {game_id: nonce for _, game_id, nonce in posted}
    assert sorted(nonces) == sorted(g.id for g in games), posted
    assert len({(g, n) for _, g, n in posted}) == len(games), "one nonce a reminder"
    assert len(posted) == len(games) + 1, "only the one held up in sending went twice"
    unsent = await first.repo.db.fetch(
        "SELECT id FROM announcements WHERE sent_at IS NULL AND kind = 'text'"
    )
    assert unsent == [], "every reminder is marked as posted"


async def test_conflicting_moves_from_two_processes_store_exactly_one(
    processes: list[GameService],
) -> None:
    first, second = processes[:2]
    game, state = await _started(first, 2000)
    await second.games.open_game(2000)  # both have the game in memory
    user = game.seats[state.current_seat()].user_id
    down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
    outcomes = await asyncio.gather(
        first.play.act(channel_id=2000, user_id=user, action=f"draw {down[0]} here r0"),
        second.play.act(channel_id=2000, user_id=user, action=f"draw {down[1]} here r90"),
        return_exceptions=True,
    )
    stored = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BotError)]
    assert len(stored) == 1 and len(refused) == 1, outcomes
    actions = await first.repo.actions(game_id=game.id)
    assert tuple(text for _, text in actions) == stored[0].applied
    owed = await first.repo.db.fetch("SELECT version FROM announcements WHERE kind = 'move'")
    assert [r["version"] for r in owed] == [stored[0].game.version], "one post owed, not two"


async def test_an_ai_turn_is_claimed_by_one_process_and_taken_over_after_its_lease(
    processes: list[GameService],
) -> None:
    first = processes[0]
    games = []
    for channel in range(3000, 3010):
        game, state = await _started(first, channel, ai=True)
        if state.current_seat() != 0:  # the AI seat begins
            games.append(game.id)
    # Nobody holds them yet: three processes looking at once share them out, each game once.
    owners = ["first", "second", "third"]
    found = await asyncio.gather(
        *(s.duties.claim_ai_turns(o) for s, o in zip(processes, owners, strict=True))
    )
    claimed = sorted(g for batch in found for g in batch)
    assert claimed == sorted(games)
    # While the leases run, nobody takes them again, nor can claim one of them.
    assert await processes[1].duties.claim_ai_turns("second") == []
    for game_id in games:
        holder = next(o for o, batch in zip(owners, found, strict=True) if game_id in batch)
        other = next(o for o in owners if o != holder)
        assert not await processes[2].duties.claim_ai(game_id, other)
        assert await processes[2].duties.claim_ai(game_id, holder), "renewed"
    # The process holding them dies; once its leases run out, another takes them over.
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await first.repo.db.transact(lambda tx: tx.execute("UPDATE games SET ai_until = ?", past))
    assert sorted(await processes[2].duties.claim_ai_turns("third")) == sorted(games)
    # Let go (a person is to move): anyone may claim the next turn at once.
    if games:
        await processes[2].duties.release_ai(games[0], "third")
        assert await processes[1].duties.claim_ai(games[0], "second")


async def test_an_ai_seat_is_not_claimed_while_a_change_before_it_is_still_to_be_told(
    processes: list[GameService],
) -> None:
    """The AI waits for the board of the move before its own (the channel reads the game in
    order): the claim that finds such a post owed takes nothing, and lets go of a claim the
    same process held, so whoever delivers the post may start the AI at once."""
    first, second = processes[:2]
    game, _ = await _started(first, 3500, ai=True)
    db = first.repo.db
    claimants = ("ai_until", "ai_by")

    async def holder() -> tuple[str | None, str | None]:
        row = await db.fetchrow("SELECT ai_until, ai_by FROM games WHERE id = ?", game.id)
        return tuple(row[c] for c in claimants)

    kinds = ("move", "start", "undo")
    assert await first.duties.claim_ai(game.id, "first", unless_owed=kinds)
    assert (await holder())[1] == "first"
    owed = await db.transact(
        lambda tx: owe(tx, game_id=game.id, version=game.version, kind="move", body={}, now=NOW)
    )
    assert not await second.duties.claim_ai(game.id, "second", unless_owed=kinds)
    assert (await holder())[1] == "first", "another process's claim is not touched"
    assert not await first.duties.claim_ai(game.id, "first", unless_owed=kinds)
    assert await holder() == (None, None), "its own claim is let go of"
    # A post of another kind does not hold the AI back; once the board is made, it plays.
    assert await second.duties.claim_ai(game.id, "second", unless_owed=("undo",))
    await first.duties.release_ai(game.id, "second")
    await first.duties.made(owed)
    assert await first.duties.claim_ai(game.id, "first", unless_owed=kinds)


async def test_the_periodic_claim_leaves_an_ai_turn_whose_post_is_still_owed(
    processes: list[GameService],
) -> None:
    """Between a move that hands the turn to an AI and its post made, the process that made
    the move goes on to the AI itself: the periodic claim of AI turns nobody holds passes such
    a game by, rather than claim it only to let it go again, and takes it once nothing is owed
    (that process died after its post, say)."""
    first, second = processes[:2]
    game, _ = await _started(first, 3600, ai=True)
    db = first.repo.db
    await db.transact(lambda tx: tx.execute("UPDATE games SET ai_turn = 1 WHERE id = ?", game.id))
    owed = await db.transact(
        lambda tx: owe(tx, game_id=game.id, version=game.version, kind="move", body={}, now=NOW)
    )
    kinds = ("move", "start", "undo")
    assert game.id not in await second.duties.claim_ai_turns("second", unless_owed=kinds)
    await first.duties.made(owed)
    assert game.id in await second.duties.claim_ai_turns("second", unless_owed=kinds)


async def test_a_move_s_post_is_owed_until_made_and_taken_over_after_the_lease(
    processes: list[GameService],
) -> None:
    first, second = processes[:2]
    game, state = await _started(first, 4000)
    user = game.seats[state.current_seat()].user_id
    down = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    result = await first.play.act(channel_id=4000, user_id=user, action=f"draw {down} here r0")
    # The storing process holds it: nobody else posts it meanwhile.
    assert await second.duties.claim_owed() == []
    # It died before posting; the lease runs out, and one other process claims the post.
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await first.repo.db.transact(
        lambda tx: tx.execute("UPDATE announcements SET claimed_until = ?", past)
    )
    found = await asyncio.gather(*(s.duties.claim_owed() for s in processes[1:]))
    (owed,) = [a for batch in found for a in batch]
    assert (owed.kind, owed.version) == ("move", result.game.version)
    assert owed.body == {"seat": result.seat, "first": 0, "count": len(result.applied)}
    # The first process, paused past its lease and woken now, can no longer take it: the claim
    # moved its fencing token on. The one that claimed it can, once.
    (mine,) = result.owed
    assert await first.duties.take(mine) is None
    taken = await second.duties.take(owed)
    assert taken is not None and taken.token > owed.token > mine.token
    assert await second.duties.take(owed) is None, "a token is good for one take"
    assert taken.discord_nonce == mine.discord_nonce, "whoever sends it, Discord sees one nonce"
    await second.duties.made(taken)
    # Made: after any lease, nobody owes it any more.
    await first.repo.db.transact(
        lambda tx: tx.execute("UPDATE announcements SET claimed_until = ?", past)
    )
    assert await processes[2].duties.claim_owed() == []
    # A move posted by its own process is marked made by its version.
    again = first.games.load_state(await first.games.open_game(4000))
    user = game.seats[again.current_seat()].user_id
    down = next(c["cell"] for c in again.view(None)["cells"] if c["state"] == "down")
    moved = await first.play.act(channel_id=4000, user_id=user, action=f"draw {down} here r0")
    for owed in moved.owed:  # its own process posted it
        await first.duties.made(owed)
    unsent = await first.repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")
    assert unsent == []


async def test_a_click_handled_by_a_process_that_missed_the_last_move_is_accepted(
    processes: list[GameService],
) -> None:
    """A prompt's button carries the version it was made for: a process whose copy is older
    (another process made the move that showed the prompt) reads the game again instead of
    refusing the click as out of date."""
    first, second = processes[:2]
    game, state = await _started(first, 5000)
    await second.games.open_game(5000)  # kept in memory at the start
    user = game.seats[state.current_seat()].user_id
    down = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    drawn = await first.play.act(channel_id=5000, user_id=user, action=f"draw {down}")
    assert drawn.state.view(None)["phase"] == "placing", "the drawer's prompt is open"
    placed = await second.play.act(
        game_id=game.id,
        user_id=user,
        action="place here r0",
        expected_version=drawn.game.version,
    )
    assert placed.game.version == drawn.game.version + 1
    texts = [text for _, text in await first.repo.actions(game_id=game.id)]
    assert texts == [f"draw {down}", "place here r0"]


async def test_posts_made_long_ago_leave_the_outbox_and_owed_ones_stay(
    processes: list[GameService],
) -> None:
    first = processes[0]
    game, state = await _started(first, 6000)
    user = game.seats[state.current_seat()].user_id
    down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
    made = await first.play.act(channel_id=6000, user_id=user, action=f"draw {down[0]} here r0")
    for owed in made.owed:
        await first.duties.made(owed)
    user = game.seats[made.state.current_seat()].user_id
    owed = await first.play.act(channel_id=6000, user_id=user, action=f"draw {down[1]} here r0")
    assert await first.duties.forget_made() == 0, "made just now: kept a while"
    old = (datetime.now(UTC) - timedelta(days=2)).isoformat(timespec="milliseconds")
    await first.repo.db.transact(
        lambda tx: tx.execute(
            "UPDATE announcements SET created_at = ?, sent_at = ? WHERE sent_at IS NOT NULL",
            old,
            old,
        )
    )
    made_ones = await first.repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NOT NULL")
    assert len(made_ones) >= 2, "the start's posts and the first move"
    assert await first.duties.forget_made() == len(made_ones)
    left = await first.repo.db.fetch(
        "SELECT version, sent_at FROM announcements WHERE kind = 'move'"
    )
    assert [(r["version"], r["sent_at"]) for r in left] == [(owed.game.version, None)]


# Only PostgreSQL: a SQLite file belongs to one bot process, whose memory is never stale.
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_reminder_names_whoever_is_to_move_now_in_the_shared_database(
    processes: list[GameService],
) -> None:
    """A process that kept a game in memory, while another process made the moves that passed
    the turn, reminds the person whose turn it is now, not the one of its old copy."""
    first, second = processes[:2]
    assert second.repo.shared
    game, state = await _started(first, 6000)
    await second.games.open_game(6000)  # kept in memory at the start
    mover = game.seats[state.current_seat()].user_id
    down = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await first.play.act(channel_id=6000, user_id=mover, action=f"draw {down}")
    placed = await first.play.act(channel_id=6000, user_id=mover, action="place here r0")
    now_to_move = placed.game.seats[placed.state.current_seat()].user_id
    assert now_to_move != mover, "placing the card passed the turn"
    await heard_so_far(second.repo, first.repo)  # (its copy is trusted until the news comes)
    later = datetime.now(UTC) + timedelta(hours=1)
    second.clock = lambda: later
    reminded = await second.reminders.due_reminders(lambda r: f"<@{r.user_id}>, your turn")
    assert [r.user_id for r in reminded] == [now_to_move]


async def test_open_games_are_counted_by_shard_and_posts_owed_by_age(
    processes: list[GameService],
) -> None:
    """What the operators' metrics read of the database (`hvbot.infra.metrics`)."""
    service = processes[0]
    game, _ = await _started(service, 3000)  # a server on shard 0 of 2; its posts made
    assert await service.duties.owed_now() == (0, None)
    await service.lobby.new_lobby(
        channel_id=3001, guild_id=5 << 22, user_id=BO, name="Bo", game_name="High Voltage"
    )
    await service.lobby.add_ai(channel_id=3001, user_id=BO, level="easy")
    before = datetime.now(UTC)
    started = await service.lobby.start(channel_id=3001, user_id=BO, can_manage=False)
    counts = await service.repo.open_counts(2)
    assert counts == {(game.game_name, "active", 0): 1, (game.game_name, "active", 1): 1}
    await service.lobby.new_lobby(
        channel_id=3002, guild_id=7 << 22, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    assert (await service.repo.open_counts(2))[(game.game_name, "lobby", 1)] == 1
    owed, oldest = await service.duties.owed_now()
    assert owed >= len(started.owed) > 0
    assert oldest is not None and oldest <= datetime.now(UTC)
    assert oldest >= before - timedelta(seconds=1)
