"""Abandoning a game on both databases: at once before the first move or with nobody else to
ask; once under way only with everyone's consent, and a refusal makes the creator's leaving a
resignation (a loss for them, the game going on); a moderator who does not play ends it at
once; an answer after the game moved on is refused."""

from __future__ import annotations

import random

import pytest
from moved_clock import MovedClock
from played_games import started_game

from hvbot.services import BotError, GameService, UndoOutcome
from hvbot.store import GameRow, GameStore, TurnClock, UndoRequest

CHANNEL, GUILD = 950, 1
ADA, BO, CY, MOD = 501, 502, 503, 504


@pytest.fixture
async def service(database_url: str):
    store = await GameStore.open(database_url)
    yield GameService(store, seed_source=random.Random(9), clock=MovedClock())
    await store.close()


async def started(service: GameService, people: tuple[int, ...] = (ADA, BO)) -> GameRow:
    """A Pylons game (or Sector 6 for three) opened by Ada with a one-hour clock."""
    return await started_game(
        service,
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(person, f"P{person}") for person in people],
        game_name="pylons" if len(people) == 2 else "sector6",
        clock=TurnClock(60, "ai_move"),
    )


async def first_move(service: GameService, game: GameRow) -> GameRow:
    state = service.games.peek_state(game)
    seat = state.current_seat()
    assert seat is not None
    await service.play.act(
        game_id=game.id,
        user_id=game.seats[seat].user_id or 0,
        action=state.legal_actions()[0].text(),
        expected_version=game.version,
    )
    return await service.games.reload(game.id)


async def abandon(
    service: GameService, user_id: int = ADA, *, can_manage: bool = False
) -> tuple[GameRow, UndoRequest | None]:
    """The game, and the request that asks the others (None: it ended at once)."""
    change = await service.abandon.abandon(
        channel_id=CHANNEL, user_id=user_id, can_manage=can_manage
    )
    asked = change.request if isinstance(change, UndoOutcome) else None
    return change.game, asked


async def test_before_the_first_move_the_creator_abandons_at_once(service) -> None:
    await started(service)
    with pytest.raises(BotError) as refused:
        await abandon(service, BO)
    assert refused.value.key == "bot.error.only_creator_abandons"
    game, asked = await abandon(service)
    assert asked is None and game.status == "abandoned"


async def test_under_way_it_ends_without_a_result_only_if_everyone_agrees(service) -> None:
    game = await first_move(service, await started(service, (ADA, BO, CY)))
    game, asked = await abandon(service)
    assert asked is not None and game.status == "active"
    assert asked.kind == "abandon" and set(asked.asked) == {BO, CY}
    paused = await service.games.reload(game.id)
    assert paused.clock_paused_at is not None, "nobody's time runs out meanwhile"
    with pytest.raises(BotError) as refused:
        await service.undo.answer_undo(request_id=asked.id, user_id=ADA, accept=True)
    assert refused.value.key == "bot.error.others_answer"

    waiting = await service.undo.answer_undo(request_id=asked.id, user_id=BO, accept=True)
    assert waiting.status == "waiting" and waiting.request.waiting_for == (CY,)
    done = await service.undo.answer_undo(request_id=asked.id, user_id=CY, accept=True)
    assert done.status == "done" and done.game.status == "abandoned"
    assert [o.body["content"] for o in done.owed if o.kind == "text"] == [
        "Everyone agreed: the game ends here without a result. The channel is free for /game new."
    ]
    assert await service.repo.results.of_kind(guild_id=GUILD, game="sector6") == []
    assert await service.repo.open_game_in_channel(channel_id=CHANNEL) is None


async def test_a_refusal_makes_the_creators_leaving_a_resignation(service) -> None:
    game = await first_move(service, await started(service))
    _, asked = await abandon(service)
    assert asked is not None
    refused = await service.undo.answer_undo(request_id=asked.id, user_id=BO, accept=False)
    assert refused.status == "refused"
    game = refused.game
    assert game.status == "active" and game.seat_of(ADA) is None
    (gone,) = [s for s in game.seats if s.resigned_user_id == ADA]
    assert gone.is_ai, "an AI plays Ada's seat, and the game counts as her loss"
    assert game.clock_paused_at is None
    with pytest.raises(BotError) as settled:
        await service.undo.answer_undo(request_id=asked.id, user_id=BO, accept=True)
    assert settled.value.key == "bot.error.request_settled"


async def test_a_moderator_who_does_not_play_ends_it_at_once(service) -> None:
    await first_move(service, await started(service))
    game, asked = await abandon(service, MOD, can_manage=True)
    assert asked is None and game.status == "abandoned"


async def test_an_answer_after_the_game_moved_on_is_refused(service) -> None:
    game = await first_move(service, await started(service))
    _, asked = await abandon(service)
    assert asked is not None
    await first_move(service, game)
    with pytest.raises(BotError) as late:
        await service.undo.answer_undo(request_id=asked.id, user_id=BO, accept=True)
    assert late.value.key == "bot.error.abandon_late"
    assert (await service.games.reload(game.id)).status == "active"


async def test_a_request_nobody_answers_gives_way_after_half_an_hour(service) -> None:
    """One request waits at a time, but not for ever: a table whose voter is gone too may ask
    again, and the old request is void."""
    clock = service.clock
    await first_move(service, await started(service, (ADA, BO, CY)))
    _, first = await abandon(service)
    assert first is not None
    clock.advance(minutes=29, seconds=59)
    with pytest.raises(BotError) as waiting:
        await abandon(service)
    assert waiting.value.key == "bot.error.request_waiting"
    clock.advance(seconds=1)
    _, second = await abandon(service)
    assert second is not None and second.id != first.id
    with pytest.raises(BotError) as void:
        await service.undo.answer_undo(request_id=first.id, user_id=BO, accept=True)
    assert void.value.key == "bot.error.request_settled"
