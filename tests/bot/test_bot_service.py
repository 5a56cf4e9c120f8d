"""The game service on a real SQLite file: a whole game from lobby to archive, turn order,
refusals that change nothing, two simultaneous actions, and a restart mid-game."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from conftest import heard_so_far
from moved_clock import MovedClock

from games import find_game
from hvbot.services import BotError, GameService, in_channel
from hvbot.store import GameStore

CHANNEL, GUILD = 500, 1
ADA, BO = 101, 102


@pytest.fixture
async def service(database_url):
    repo = await GameStore.open(database_url)
    yield GameService(repo, seed_source=random.Random(7))
    await repo.close()


async def _started(service: GameService, *, ai: bool = False):
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    if ai:
        await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")
    started = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    return started.game, started.state


def _user_of(game, seat):
    return game.seats[seat].user_id


async def test_lobby_rules(service):
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="hv"
    )
    with pytest.raises(BotError, match="already has a game"):
        await service.lobby.new_lobby(
            channel_id=CHANNEL, guild_id=GUILD, user_id=BO, name="Bo", game_name="hv"
        )
    with pytest.raises(BotError, match="at least 2 players"):
        await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    with pytest.raises(BotError, match="already"):
        await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    with pytest.raises(BotError, match="Only the game's creator"):
        await service.lobby.start(channel_id=CHANNEL, user_id=BO, can_manage=False)
    for user in (103, 104):
        await service.lobby.join(channel_id=CHANNEL, user_id=user, name=str(user))
    with pytest.raises(BotError, match="full"):
        await service.lobby.join(channel_id=CHANNEL, user_id=105, name="late")
    game = (await service.lobby.leave(channel_id=CHANNEL, user_id=103)).game
    assert [s.seat for s in game.seats] == [0, 1, 2]
    assert [s.display_name for s in game.seats] == ["Ada", "Bo", "104"]
    change = await service.lobby.start(channel_id=CHANNEL, user_id=BO, can_manage=True)
    game, state = change.game, change.state
    assert game.status == "active" and state.seats == 3


async def test_only_the_player_to_move_acts_and_refusals_change_nothing(service):
    game, state = await _started(service)
    mover = state.current_seat()
    other = 1 - mover
    before = (await service.repo.game(game_id=game.id)).version
    with pytest.raises(BotError, match="not your turn"):
        await service.play.act(channel_id=CHANNEL, user_id=_user_of(game, other), action="draw A1")
    with pytest.raises(BotError, match="not playing"):
        await service.play.act(channel_id=CHANNEL, user_id=999, action="draw A1")
    with pytest.raises(BotError, match="face down"):
        await service.play.act(
            channel_id=CHANNEL, user_id=_user_of(game, mover), action="rotate A1 r90"
        )
    with pytest.raises(BotError, match="I can't read"):
        await service.play.act(channel_id=CHANNEL, user_id=_user_of(game, mover), action="jump A1")
    after = await service.repo.game(game_id=game.id)
    assert after.version == before
    assert await service.repo.actions(game_id=game.id) == []


async def test_a_whole_game_with_an_ai_seat_is_stored_and_archived(service):
    game, state = await _started(service, ai=True)
    rng = random.Random(3)
    for _ in range(2000):
        game = await service.repo.game(game_id=game.id)
        if game.status != "active":
            break
        state = service.games.load_state(game)
        seat = state.current_seat()
        if game.seats[seat].is_ai:
            assert await service.play.ai_step(game_id=game.id) is not None
            continue
        result = await service.play.act(
            channel_id=CHANNEL, user_id=_user_of(game, seat), action=state.sample_action(rng)
        )
        assert result.applied
    game = await service.repo.game(game_id=game.id)
    assert game.status == "finished"
    final = service.games.load_state(game)
    assert final.is_terminal()
    logged = [text for _, text in await service.repo.actions(game_id=game.id)]
    assert logged == final.history
    # The stored seed and log replay to the stored state: the audit trail is complete.
    from games import find_game

    assert find_game(game.game_name).replay(final.seats, game.seed, logged) == final
    # The channel is free again.
    assert await service.repo.open_game_in_channel(channel_id=CHANNEL) is None


async def test_two_simultaneous_actions_are_applied_one_after_the_other(service):
    game, state = await _started(service)
    user = _user_of(game, state.current_seat())
    face_down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
    results = await asyncio.gather(
        service.play.act(channel_id=CHANNEL, user_id=user, action=f"draw {face_down[0]} here r0"),
        service.play.act(channel_id=CHANNEL, user_id=user, action=f"draw {face_down[1]} here r0"),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, BotError)]
    # The first is applied; the second sees the new state where it is no longer that
    # player's turn (unless lines wait to be declared) and is refused, not applied twice.
    assert len(ok) == 1 and len(refused) == 1
    stored = await service.repo.game(game_id=game.id)
    assert len(await service.repo.actions(game_id=game.id)) == 1
    assert stored.version == game.version + 1


async def test_a_stale_button_is_refused(service):
    game, state = await _started(service)
    user = _user_of(game, state.current_seat())
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    result = await service.play.act(channel_id=CHANNEL, user_id=user, action=f"draw {cell}")
    version = result.game.version
    await service.play.act(
        game_id=game.id, user_id=user, action="place here r90", expected_version=version
    )
    with pytest.raises(BotError, match="out of date"):
        await service.play.act(
            game_id=game.id, user_id=user, action="place here r0", expected_version=version
        )


async def test_restart_mid_draw_continues_identically(database_url):
    path = database_url
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(11))
    game, state = await _started(service)
    user = _user_of(game, state.current_seat())
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    result = await service.play.act(channel_id=CHANNEL, user_id=user, action=f"draw {cell}")
    prompt_version = result.game.version
    expected = service.games.load_state(result.game)
    expected.apply("place empty r270")
    await repo.close()

    repo = await GameStore.open(path)
    service = GameService(repo)
    [reloaded] = await repo.open_games()
    assert [p["kind"] for p in await repo.open_prompts(game_id=reloaded.id)] == ["place"]
    # The button of the prompt shown before the restart still works.
    done = await service.play.act(
        game_id=reloaded.id,
        user_id=user,
        action="place empty r270",
        expected_version=prompt_version,
    )
    assert done.state == expected
    await repo.close()


async def test_resign_hands_the_seat_to_an_ai_and_abandon_frees_the_channel(service):
    game, _ = await _started(service)
    with pytest.raises(BotError, match="Only the game's creator"):
        await service.abandon.abandon(channel_id=CHANNEL, user_id=BO, can_manage=False)
    change = await service.play.resign(channel_id=CHANNEL, user_id=BO)
    game, what = change.game, change.what
    assert what == "resigned"
    assert game.seats[1].is_ai and "resigned" in game.seats[1].display_name
    # Nobody else is left at the table to ask: it ends at once.
    change = await service.abandon.abandon(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    assert change.game.status == "abandoned" and change.what == "abandoned"
    assert await service.repo.open_game_in_channel(channel_id=CHANNEL) is None


async def test_ai_seats_play_at_their_level_from_their_own_view(database_url):
    repo = await GameStore.open(database_url)
    service = GameService(repo, seed_source=random.Random(3), ai_budget_s=0.2)
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
    )
    # Every game offers the same levels: Pylons' "easy" is its random player.
    game = (await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")).game
    assert (game.seats[1].ai_level, game.seats[1].display_name) == ("easy", "AI 1 (easy)")
    await service.abandon.abandon(channel_id=CHANNEL, user_id=ADA, can_manage=False)

    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="hv"
    )
    game = (await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="normal")).game
    assert game.seats[1].ai_level == "normal"
    change = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    game, state = change.game, change.state
    if state.current_seat() == 0:
        cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
        await service.play.act(channel_id=CHANNEL, user_id=ADA, action=f"draw {cell} here r0")
    result = await service.play.ai_step(game_id=game.id)
    assert result is not None and result.seat == 1 and result.applied
    # Whatever it chose was stored as a legal move of the AI's seat.
    assert (await repo.actions(game_id=game.id))[-len(result.applied) :] == [
        (1, text) for text in result.applied
    ]
    await repo.close()


async def test_a_legal_move_is_acknowledged_before_it_is_stored_and_a_refusal_never(service):
    game, state = await _started(service)
    user = _user_of(game, state.current_seat())
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    seen: list[tuple[tuple[str, ...], int]] = []

    async def acknowledge(pending):
        stored = await service.repo.actions(game_id=game.id)
        seen.append((pending.applied, len(stored)))

    with pytest.raises(BotError, match="face down"):
        await service.play.act(
            channel_id=CHANNEL, user_id=user, action=f"rotate {cell} r90", acknowledge=acknowledge
        )
    assert seen == [], "an illegal move is refused, not acknowledged"
    result = await service.play.act(
        channel_id=CHANNEL, user_id=user, action=f"draw {cell} here r0", acknowledge=acknowledge
    )
    assert seen == [((f"draw {cell} here r0",), 0)], "acknowledged while nothing was stored yet"
    assert await service.repo.actions(game_id=game.id) == [(result.seat, f"draw {cell} here r0")]


async def test_the_public_view_built_to_answer_a_move_is_the_one_announced(service):
    game, state = await _started(service)
    user = _user_of(game, state.current_seat())
    move = next(a.text() for a in state.legal_actions() if a.text().startswith("rotate"))
    built = []

    async def acknowledge(pending):
        built.append(pending.public_view())

    result = await service.play.act(
        channel_id=CHANNEL, user_id=user, action=move, acknowledge=acknowledge
    )
    assert result.public_view() is built[0], "built once for the answer and the announcement"
    assert built[0] == result.state.view(None), "and it is the view after the move"


async def test_a_game_changed_by_another_process_is_refused_once_then_read_afresh(database_url):
    """Two bot processes on one database: each keeps open games in memory, and the
    compare-and-set catches the stale copy instead of overwriting the other's move."""
    path = database_url
    first_repo, second_repo = await GameStore.open(path), await GameStore.open(path)
    try:
        first = GameService(first_repo, seed_source=random.Random(7))
        second = GameService(second_repo, seed_source=random.Random(8))
        game, state = await _started(first)
        await second.games.open_game(CHANNEL)  # the second process has the game in memory too
        user = _user_of(game, state.current_seat())
        down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
        await first.play.act(channel_id=CHANNEL, user_id=user, action=f"draw {down[0]} here r0")
        # (A move acted on before the news of this one arrives meets the compare-and-set.)
        await heard_so_far(second_repo, first_repo)
        next_user = _user_of(
            game, first.games.load_state(await first.games.open_game(CHANNEL)).current_seat()
        )
        # Shared by design (PostgreSQL), the second process heard of the move, so its copy is
        # checked before acting and found stale; a SQLite file is one process's, where the
        # compare-and-set is what catches it.
        expected = "not your turn" if second_repo.shared else "changed at the same moment"
        with pytest.raises(BotError, match=expected):
            await second.play.act(
                channel_id=CHANNEL, user_id=user, action=f"draw {down[1]} here r0"
            )
        # Refused once; then the second process reads the game as stored.
        await second.play.act(
            channel_id=CHANNEL, user_id=next_user, action=f"draw {down[1]} here r0"
        )
        actions = await first_repo.actions(game_id=game.id)
        assert [text for _, text in actions] == [
            f"draw {down[0]} here r0",
            f"draw {down[1]} here r0",
        ]
    finally:
        await first_repo.close()
        await second_repo.close()


async def test_the_person_to_move_is_reminded_after_the_wait_then_hourly_until_they_move(
    database_url,
):
    path = database_url
    clock = MovedClock()
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    game, state = await _started(service)
    mover = _user_of(game, state.current_seat())

    clock.advance(minutes=9, seconds=59)
    assert await service.reminders.due_reminders() == []
    clock.advance(seconds=1)
    (first,) = await service.reminders.due_reminders()
    assert (first.user_id, first.waited) == (mover, timedelta(minutes=10))
    assert await service.reminders.due_reminders() == [], "each reminder is sent once"
    clock.advance(minutes=59)
    assert await service.reminders.due_reminders() == [], "never more often than hourly"

    # The bot restarts: what is due is in the database, not in a timer.
    await repo.close()
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    clock.advance(minutes=1)
    (second,) = await service.reminders.due_reminders()
    assert (second.user_id, second.waited) == (mover, timedelta(minutes=70))

    # A move starts a new wait for the next person, with the game's ten minutes again.
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    result = await service.play.act(
        channel_id=CHANNEL, user_id=mover, action=f"draw {cell} here r0"
    )
    clock.advance(minutes=9)
    assert await service.reminders.due_reminders() == []
    clock.advance(minutes=1)
    (third,) = await service.reminders.due_reminders()
    assert third.user_id == _user_of(game, result.state.current_seat())
    assert third.waited == timedelta(minutes=10)
    await repo.close()


async def test_no_reminders_when_turned_off_or_when_an_ai_is_to_move(database_url):
    clock = MovedClock()
    repo = await GameStore.open(database_url)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    with pytest.raises(BotError, match="0 for never"):
        await service.lobby.new_lobby(
            channel_id=CHANNEL,
            guild_id=GUILD,
            user_id=ADA,
            name="Ada",
            game_name="hv",
            remind_minutes=-1,
        )
    await service.lobby.new_lobby(
        channel_id=CHANNEL,
        guild_id=GUILD,
        user_id=ADA,
        name="Ada",
        game_name="hv",
        remind_minutes=0,
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    clock.advance(days=3)
    assert await service.reminders.due_reminders() == []

    # With reminders on, a wait ends when the seat passes to an AI (a resignation, say).
    await service.lobby.new_lobby(
        channel_id=CHANNEL + 1, guild_id=GUILD, user_id=ADA, name="Ada", game_name="hv"
    )
    await service.lobby.join(channel_id=CHANNEL + 1, user_id=BO, name="Bo")
    change = await service.lobby.start(channel_id=CHANNEL + 1, user_id=ADA, can_manage=False)
    game, state = change.game, change.state
    await service.play.resign(channel_id=CHANNEL + 1, user_id=_user_of(game, state.current_seat()))
    clock.advance(minutes=10)
    assert await service.reminders.due_reminders() == []
    clock.advance(hours=2)
    assert await service.reminders.due_reminders() == [], "the AI's turn is not reminded again"
    await repo.close()


def _rotation(state) -> str:
    return next(a.text() for a in state.legal_actions() if a.text().startswith("rotate"))


async def test_a_move_is_taken_back_when_every_other_person_accepts_even_after_a_restart(
    database_url,
):
    path = database_url
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7))
    game, before = await _started(service)
    mover = _user_of(game, before.current_seat())
    other = BO if mover == ADA else ADA
    move = _rotation(before)
    await service.play.act(channel_id=CHANNEL, user_id=mover, action=move)

    with pytest.raises(BotError, match="Only the player who made the last move"):
        await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=mover)
    assert (asked.status, asked.request.asked, asked.request.action) == ("asked", (other,), move)
    with pytest.raises(BotError, match="Only the other players"):
        await service.undo.answer_undo(request_id=asked.request.id, user_id=mover, accept=True)

    # The request waits in the database across a restart.
    await repo.close()
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7))
    done = await service.undo.answer_undo(request_id=asked.request.id, user_id=other, accept=True)
    assert done.status == "done" and done.state == before
    assert await repo.actions(game_id=game.id) == []
    assert service.games.load_state(await service.games.open_game(CHANNEL)) == before
    with pytest.raises(BotError, match="settled already"):
        await service.undo.answer_undo(request_id=asked.request.id, user_id=other, accept=True)
    await repo.close()


async def test_a_draw_a_refusal_or_the_next_move_keeps_a_move(service):
    clock = MovedClock()
    service.clock = clock
    game, state = await _started(service)
    mover = _user_of(game, state.current_seat())
    other = BO if mover == ADA else ADA
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    result = await service.play.act(
        channel_id=CHANNEL, user_id=mover, action=f"draw {cell} here r0"
    )
    with pytest.raises(BotError, match="showed something hidden"):
        await service.undo.request_undo(channel_id=CHANNEL, user_id=mover)

    # Bo's rotation: refused by Ada, it stands.
    move = _rotation(result.state)
    result = await service.play.act(channel_id=CHANNEL, user_id=other, action=move)
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    with pytest.raises(BotError) as waiting:
        await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    assert waiting.value.key == "bot.error.request_waiting", "one request at a time"
    refused = await service.undo.answer_undo(
        request_id=asked.request.id, user_id=mover, accept=False
    )
    assert refused.status == "refused"
    assert [t for _, t in await service.repo.actions(game_id=game.id)][-1] == move

    # Asked again at once: not before two minutes, so nobody floods the table.
    with pytest.raises(BotError) as cooling:
        await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    assert cooling.value.key == "bot.error.request_cooldown"
    assert cooling.value.fields["count"] == 120
    clock.advance(minutes=1, seconds=59)
    with pytest.raises(BotError, match="try again in 1 second\\."):
        await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    clock.advance(seconds=1)
    # Asked again, but Ada moves on instead of answering: the request is void.
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=other)
    await service.play.act(channel_id=CHANNEL, user_id=mover, action=_rotation(result.state))
    with pytest.raises(BotError, match="Too late"):
        await service.undo.answer_undo(request_id=asked.request.id, user_id=mover, accept=True)
    assert len(await service.repo.actions(game_id=game.id)) == 3


CY = 103


async def test_the_others_may_let_an_ai_play_for_a_person_away_who_then_returns(database_url):
    path = database_url
    clock = MovedClock()
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="hv"
    )
    for user, name in ((BO, "Bo"), (CY, "Cy")):
        await service.lobby.join(channel_id=CHANNEL, user_id=user, name=name)
    change = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    game, state = change.game, change.state
    seat = state.current_seat()
    away = _user_of(game, seat)
    voters = [u for u in (ADA, BO, CY) if u != away]

    clock.advance(hours=23)
    with pytest.raises(BotError, match="allows 24 hours"):
        await service.absence.request_takeover(channel_id=CHANNEL, user_id=voters[0])
    clock.advance(hours=1)
    with pytest.raises(BotError, match="your own turn"):
        await service.absence.request_takeover(channel_id=CHANNEL, user_id=away)
    opened = await service.absence.request_takeover(channel_id=CHANNEL, user_id=voters[0])
    assert sorted(opened.vote.asked) == sorted(voters)
    first = await service.absence.cast_vote(vote_id=opened.vote.id, user_id=voters[0], choice="ai")
    assert first.status == "open", "one of two is not more than half"

    await repo.close()  # the vote waits in the database across a restart
    repo = await GameStore.open(path)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    decided = await service.absence.cast_vote(
        vote_id=opened.vote.id, user_id=voters[1], choice="ai"
    )
    stand_in = decided.game.seats[seat]
    assert decided.status == "ai" and stand_in.is_ai and stand_in.away_user_id == away
    # What the channel is told is owed with the change: if this process dies before telling
    # it, another one claims the words once the lease has run out, and posts them.
    (told,) = decided.owed
    assert told.kind == "text" and stand_in.display_name in told.body["content"]
    clock.advance(minutes=1)
    claimed = [o for o in await service.duties.claim_owed() if o.kind == "text"]
    assert [o.body for o in claimed] == [told.body]
    with pytest.raises(BotError, match="not playing"):
        await service.play.act(channel_id=CHANNEL, user_id=away, action=_rotation(state))

    back = (await service.absence.return_seat(channel_id=CHANNEL, user_id=away, name="Back")).game
    assert back.seats[seat].user_id == away and back.seats[seat].away_user_id is None
    with pytest.raises(BotError, match="No AI is playing"):
        await service.absence.return_seat(channel_id=CHANNEL, user_id=away, name="Back")
    await repo.close()


async def test_a_vote_can_end_the_game_and_a_move_cancels_it(database_url):
    clock = MovedClock()
    repo = await GameStore.open(database_url)
    service = GameService(repo, seed_source=random.Random(7), clock=clock)
    game, state = await _started(service)
    away = _user_of(game, state.current_seat())
    other = BO if away == ADA else ADA
    clock.advance(hours=25)
    opened = await service.absence.request_takeover(channel_id=CHANNEL, user_id=other)
    await service.play.act(channel_id=CHANNEL, user_id=away, action=_rotation(state))
    with pytest.raises(BotError, match="Too late"):
        await service.absence.cast_vote(vote_id=opened.vote.id, user_id=other, choice="end")

    game = await service.games.open_game(CHANNEL)
    state = service.games.load_state(game)
    now_away = _user_of(game, state.current_seat())
    clock.advance(hours=25)
    opened = await service.absence.request_takeover(
        channel_id=CHANNEL, user_id=BO if now_away == ADA else ADA
    )
    ended = await service.absence.cast_vote(
        vote_id=opened.vote.id, user_id=BO if now_away == ADA else ADA, choice="end"
    )
    assert ended.status == "end" and ended.game.status == "abandoned"
    told, lobby = ended.owed
    assert lobby.kind == "lobby", "the lobby message says the game has ended"
    assert told.kind == "text" and "the game ends here" in told.body["content"]
    await repo.close()


async def test_a_state_read_for_autocomplete_is_kept_until_the_game_moves(service):
    game, state = await _started(service)
    peeked = service.games.peek_state(game)
    assert peeked == state
    assert service.games.peek_state(await service.games.open_game(CHANNEL)) is peeked, (
        "kept, not rebuilt"
    )
    mover = _user_of(game, state.current_seat())
    result = await service.play.act(channel_id=CHANNEL, user_id=mover, action=_rotation(state))
    moved = service.games.peek_state(await service.games.open_game(CHANNEL))
    assert moved is not peeked and moved is result.state, "the move's own state is kept"
    assert service.games.load_state(result.game) is not moved, "a state to change is always fresh"


async def test_a_move_reuses_the_kept_state_and_hands_out_copies(service):
    """The state a move leaves is kept (by game, latest version) and the next move starts
    from a copy of it: nothing a caller does to its copy reaches the kept state, and the kept
    state is the saved game exactly."""
    game, state = await _started(service)
    result = await service.play.act(
        channel_id=CHANNEL,
        user_id=_user_of(game, state.current_seat()),
        action=state.sample_action(random.Random(1)),
    )
    game = result.game
    kept = service.games.peek_state(game)
    assert service.games.peek_state(game) is kept
    assert kept == find_game(game.game_name).state_from_dict(game.state)
    mine = service.games.load_state(game)
    assert mine is not kept and mine == kept
    mine.apply(mine.sample_action(random.Random(2)))
    assert service.games.peek_state(game) == find_game(game.game_name).state_from_dict(game.state)


def _quiet_rotation(state) -> str:
    """A rotation that closes no line, so the turn passes on at once."""
    for action in state.legal_actions():
        if action.text().startswith("rotate"):
            trial = state.copy()
            trial.apply(action)
            if not trial.closable_lines():
                return action.text()
    raise AssertionError("no quiet rotation")


async def test_ai_moves_never_hold_up_an_undo_the_people_agree_to(service):
    """Bo asks to take back a move; the AI seat after Bo plays while Ada decides: her yes
    takes back Bo's move and the AI's together, as if neither was played."""
    clock = MovedClock()
    service.clock = clock
    game, state = await _started(service, ai=True)
    while state.current_seat() != 1:  # Bo's turn, the AI seat's next
        if game.seats[state.current_seat()].is_ai:
            await service.play.ai_step(game_id=game.id)
        else:
            user = _user_of(game, state.current_seat())
            await service.play.act(channel_id=CHANNEL, user_id=user, action=_rotation(state))
        game = await service.games.reload(game.id)
        state = service.games.load_state(game)
    before, done = state, await service.repo.actions(game_id=game.id)
    await service.play.act(channel_id=CHANNEL, user_id=BO, action=_quiet_rotation(state))
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=BO)
    assert asked.status == "asked" and asked.request.asked == (ADA,)

    moved = await service.play.ai_step(game_id=game.id)
    assert moved is not None and moved.seat == 2, "the AI seat plays while Ada decides"
    while moved is not None:
        moved = await service.play.ai_step(game_id=game.id)
    done_too = await service.undo.answer_undo(request_id=asked.request.id, user_id=ADA, accept=True)
    assert done_too.status == "done" and done_too.state == before
    assert await service.repo.actions(game_id=game.id) == done
    (owed,) = done_too.owed
    assert owed.body["ai"] >= 1, "the AI's moves are said to be taken back with Bo's"

    # Once Ada has moved, Bo's move is hers to keep: too late.
    await service.play.act(channel_id=CHANNEL, user_id=BO, action=_quiet_rotation(before))
    clock.advance(minutes=2)  # Bo may ask the table again
    asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=BO)
    while await service.play.ai_step(game_id=game.id) is not None:
        pass
    game = await service.games.reload(game.id)
    state = service.games.load_state(game)
    await service.play.act(channel_id=CHANNEL, user_id=ADA, action=_rotation(state))
    with pytest.raises(BotError, match="Too late"):
        await service.undo.answer_undo(request_id=asked.request.id, user_id=ADA, accept=True)


def test_a_command_without_a_channel_is_told_there_is_no_game_there():
    """Discord's types allow an interaction without a channel: what acts on a channel's game
    refuses it as a channel without a game, and passes any channel on as it is."""
    with pytest.raises(BotError) as refused:
        in_channel(None)
    assert refused.value.key == "bot.error.no_game"
    assert in_channel(0) == 0
    assert in_channel(123) == 123


async def _ada_to_move(service: GameService, game_id: int):
    """The AI seats play until Ada is to move: the game and its state then."""
    while await service.play.ai_step(game_id=game_id) is not None:
        pass
    game = await service.games.reload(game_id)
    return game, service.games.load_state(game)


async def test_alone_with_an_ai_a_draw_is_not_taken_back_but_a_rotation_is(service):
    """Taken back, a draw that showed Ada a face-down card would let her draw elsewhere
    knowing it, in a game that counts for /stats: refused, saying what she may take back,
    and nothing changes. A move that showed nothing is still taken back at once."""
    service.clock = MovedClock()
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")
    started = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    game, state = await _ada_to_move(service, started.game.id)
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await service.play.act(channel_id=CHANNEL, user_id=ADA, action=f"draw {cell} here r0")
    game, state = await _ada_to_move(service, game.id)
    done = await service.repo.actions(game_id=game.id)
    with pytest.raises(BotError) as refused:
        await service.undo.request_undo(channel_id=CHANNEL, user_id=ADA)
    assert refused.value.key == "bot.error.undo_hidden_alone"
    assert "/stats" in str(refused.value) and "taken back at once" in str(refused.value)
    still = await service.games.reload(game.id)
    assert still.version == game.version
    assert await service.repo.actions(game_id=game.id) == done

    await service.play.act(channel_id=CHANNEL, user_id=ADA, action=_quiet_rotation(state))
    await _ada_to_move(service, game.id)
    taken = await service.undo.request_undo(channel_id=CHANNEL, user_id=ADA)
    assert taken.status == "done" and taken.state == state
    assert await service.repo.actions(game_id=game.id) == done
