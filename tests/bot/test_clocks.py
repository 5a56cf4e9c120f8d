"""Turn clocks on both databases: each warning and each timeout is claimed once when two bot
processes (two stores on one database) look for them at the same moment; a timeout hands the
move to an AI, or the seat, in one change; a bad clock is refused at /game new."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta

import pytest
from moved_clock import MovedClock
from played_games import started_game

from data.texts import ENGLISH, texts_for
from hvbot.messages import time_words
from hvbot.services import BotError, GameService
from hvbot.store import GameRow, GameStore, SeatRow, TurnClock

CHANNEL, GUILD = 700, 1
ADA, BO = 201, 202


def warning(game: GameRow, seat: int, left: timedelta) -> str:
    return f"{left} left"


def ran_out(game: GameRow, seat: int) -> str:
    return "out of time"


def stand_in_name(game: GameRow, seat: SeatRow) -> str:
    return f"{seat.display_name} (AI)"


async def two_processes(url: str, clock: MovedClock, timeout: str) -> list[GameService]:
    """Two services on one database, one game started with a one-hour clock by the first."""
    services = [
        GameService(await GameStore.open(url), seed_source=random.Random(k), clock=clock)
        for k in range(2)
    ]
    await started_game(
        services[0],
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(ADA, "Ada"), (BO, "Bo")],
        clock=TurnClock(60, timeout),
    )
    return services


async def both_look(services: list[GameService]) -> list:
    found = await asyncio.gather(
        *(s.clocks.due(warning, ran_out, stand_in_name=stand_in_name) for s in services)
    )
    return [event for events in found for event in events]


@pytest.mark.parametrize("timeout", ["ai_move", "ai_seat", "end"])
async def test_a_warning_and_a_timeout_are_each_claimed_once(database_url, timeout):
    clock = MovedClock()
    services = await two_processes(database_url, clock, timeout)
    try:
        clock.advance(minutes=44, seconds=59)
        assert await both_look(services) == []
        clock.advance(seconds=1)
        (warned,) = await both_look(services)
        assert not warned.ran_out and warned.owed[0].body == {
            "content": "0:15:00 left",
            "user": warned.user_id,
        }
        assert await both_look(services) == [], "warned once"

        clock.advance(minutes=15)
        (out,) = await both_look(services)
        assert out.ran_out and out.user_id == warned.user_id
        assert [o.body.get("content") for o in out.owed if o.kind == "text"] == ["out of time"]
        assert await both_look(services) == [], "run out once"
        # As stored: on SQLite a process's games in memory hear nothing of another's changes
        # (one process serves a SQLite file), so the copy of the one that lost may be old.
        services[1].repo.cache.forget(out.game.id)
        game = await services[1].games.reload(out.game.id)
        assert game.clock_deadline is None and game.clock_warn_at is None
        if timeout == "end":
            assert game.status == "finished" and [o.kind for o in out.owed] == [
                "text",
                "replay",
                "lobby",
            ]
            results = await services[1].repo.results.of_kind(guild_id=GUILD, game="pylons")
            assert [(r.user_id, r.won) for r in results if r.user_id == out.user_id] == [
                (out.user_id, False)
            ]
            assert [r.won for r in results if r.user_id != out.user_id] == [True]
            assert await services[0].duties.claim_ai_turns("process-0") == []
            return
        if timeout == "ai_move":
            assert game.stand_in_seat == out.seat
            assert game.seats[out.seat].user_id == out.user_id, "the seat stays theirs"
        else:
            assert game.stand_in_seat is None
            seat = game.seats[out.seat]
            assert (seat.user_id, seat.away_user_id, seat.ai_level) == (None, out.user_id, "normal")
            assert seat.display_name == "Ada (AI)" or seat.display_name == "Bo (AI)"
        # An AI is to move now: whichever process claims its turn plays it, once.
        claims = await asyncio.gather(
            *(s.duties.claim_ai_turns(f"process-{k}") for k, s in enumerate(services))
        )
        assert sorted(len(c) for c in claims) == [0, 1]
    finally:
        for service in services:
            await service.close()


async def test_the_ai_plays_the_whole_move_of_a_person_out_of_time(database_url):
    clock = MovedClock()
    services = await two_processes(database_url, clock, "ai_move")
    service = services[0]
    try:
        clock.advance(minutes=61)
        (out,) = await both_look(services)
        # Either process may have claimed the timeout; on SQLite the other's copy in memory
        # hears nothing of it (one process serves a SQLite file): this one plays as stored.
        service.repo.cache.forget(out.game.id)
        # Pylons opens with keep or mirror; keeping, the same person places the first pylon.
        played = []
        while (result := await service.play.ai_step(game_id=out.game.id)) is not None:
            played.append(result)
        assert played and {r.seat for r in played} == {out.seat}
        last = played[-1]
        assert last.state.current_seat() != out.seat, "the turn passed to the next player"
        game = await service.games.reload(out.game.id)
        assert game.stand_in_seat is None
        assert game.clock_deadline is not None, "the next player's clock runs"
    finally:
        for one in services:
            await one.close()


async def test_a_clock_that_is_not_on_offer_is_refused(database_url):
    service = GameService(await GameStore.open(database_url))
    try:
        for clock in (TurnClock(61), TurnClock(60, "end_everything")):
            with pytest.raises(BotError, match="1 hour, 8 hours, 1 day, 3 days, 7 days") as no:
                await service.lobby.new_lobby(
                    channel_id=CHANNEL,
                    guild_id=GUILD,
                    user_id=ADA,
                    name="Ada",
                    game_name="pylons",
                    clock=clock,
                )
            # Each reader is offered the lengths as their own menu names them.
            for language, lengths in (
                ("it", "1 ora, 8 ore, 1 giorno, 3 giorni, 7 giorni"),
                ("de", "1 Stunde, 8 Stunden, 1 Tag, 3 Tage, 7 Tage"),
            ):
                assert f" {lengths} " in texts_for(language).explain(no.value), language
        assert await service.repo.open_game_in_channel(channel_id=CHANNEL) is None
    finally:
        await service.close()


async def test_the_clock_stands_still_while_an_undo_request_waits(database_url):
    clock = MovedClock()
    services = await two_processes(database_url, clock, "ai_move")
    service = services[0]
    try:
        game = await service.games.open_game(CHANNEL)
        state = service.games.peek_state(game)
        mover = game.seats[state.current_seat() or 0].user_id or 0
        # The opening choice, then the first pylon: the next person's hour starts.
        while (seat := state.current_seat()) is not None and game.seats[seat].user_id == mover:
            action = state.legal_actions()[0]
            result = await service.play.act(channel_id=CHANNEL, user_id=mover, action=action)
            game, state = result.game, result.state
        clock.advance(minutes=10)
        asked = await service.undo.request_undo(channel_id=CHANNEL, user_id=mover)
        assert asked.status == "asked"
        clock.advance(hours=2)
        assert await both_look([service]) == [], "no warning, no timeout while it waits"
        paused = await service.games.reload(game.id)
        assert paused.clock_paused_at is not None
        assert "stands still" in (time_words.clock_line(paused, ENGLISH) or "")
        (other,) = asked.request.asked
        refused = await service.undo.answer_undo(
            request_id=asked.request.id, user_id=other, accept=False
        )
        assert refused.status == "refused"
        # 50 of the hour's minutes are left, from now: the warning comes at 35.
        clock.advance(minutes=34, seconds=59)
        assert await both_look([service]) == []
        clock.advance(seconds=1)
        (warned,) = await both_look([service])
        assert warned.user_id == other and warned.owed[0].body["content"] == "0:15:00 left"
        clock.advance(minutes=15)
        (out,) = await both_look([service])
        assert out.ran_out and out.user_id == other
        assert (await service.games.reload(game.id)).clock_paused_at is None
    finally:
        for one in services:
            await one.close()


async def test_a_person_who_takes_their_seat_back_on_their_turn_gets_a_fresh_clock(database_url):
    clock = MovedClock()
    services = await two_processes(database_url, clock, "ai_seat")
    service = services[0]
    try:
        clock.advance(minutes=61)
        (out,) = await both_look(services)
        service.repo.cache.forget(out.game.id)  # either may have claimed it (see above)
        game = await service.games.reload(out.game.id)
        assert game.clock_deadline is None, "no clock runs while the AI is to move"
        clock.advance(minutes=5)
        back = (
            await service.absence.return_seat(channel_id=CHANNEL, user_id=out.user_id, name="Back")
        ).game
        assert back.seats[out.seat].user_id == out.user_id
        assert back.clock_deadline is not None
        assert datetime.fromisoformat(back.clock_deadline) == clock() + timedelta(hours=1)
        reminded = await service.repo.db.fetchval(
            "SELECT remind_at FROM games WHERE id = ?", back.id
        )
        assert datetime.fromisoformat(reminded) == clock() + timedelta(minutes=10), "reminded"
        # A change of seats elsewhere at the table leaves the clock of the person to move alone.
        other = next(s for s in back.seats if s.seat != out.seat)
        change = await service.play.resign(channel_id=CHANNEL, user_id=other.user_id)
        resigned = change.game
        assert resigned.clock_deadline == back.clock_deadline
    finally:
        for s in services:
            await s.close()
