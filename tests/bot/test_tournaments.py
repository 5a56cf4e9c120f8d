"""Tournaments on both databases, through the service alone (no Discord): sign-up, the start
pairing round 1 with its games started, each round paired once when its last game ends (even
when two processes see it end), withdrawals and removals, pause, resume and cancel, a no-show
settled by the turn clock, and the periodic check pairing a round a process left unpaired."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from datetime import timedelta

import pytest
from conftest import services_sharing
from moved_clock import MovedClock

from hvbot.services import BotError, GameService
from hvbot.services.outcomes import TournamentChange
from hvbot.store import GameRow, GameStore

GUILD = 7
CHANNEL = 70
OWNER = 900
PEOPLE = tuple(range(901, 913))
DAY = timedelta(days=1)


async def opened(
    service: GameService,
    *,
    game: str = "pylons",
    format: str = "swiss",
    rounds: int | None = 2,
    table: str = "2",
    people: Sequence[int] = PEOPLE[:4],
    timeout: str = "end",
) -> TournamentChange:
    """A tournament with `people` signed up, not started."""
    made = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=OWNER,
        may_open=True,
        game=game,
        options={},
        format=format,
        rounds=rounds,
        table=table,
        turn_clock=DAY,
        timeout=timeout,
        starts_at=None,
        most=None,
        name="Autumn cup",
    )
    for user in people:
        made = await service.tournaments.join(made.tournament.id, user, name=f"P{user}")
    return made


async def refused(key: str, work: object) -> None:
    with pytest.raises(BotError) as caught:
        await work  # type: ignore[misc]  # each call site hands a coroutine
    assert caught.value.key == f"bot.tournament.error.{key}", caught.value


async def lose(service: GameService, game_id: int, user_id: int) -> GameRow:
    """The game ends as a loss for `user_id` (as their clock running out ends it)."""
    games = service.games
    async with games.store.lock(game_id):
        game = await games.reload(game_id)
        seat = game.seat_of(user_id)
        assert seat is not None
        await games.forfeit(game, seat, told=None)
    found = await games.find(game_id, fresh=True)
    assert found is not None and found.status == "finished"
    return found


async def play_round(
    service: GameService, change: TournamentChange, losers: Sequence[int] = ()
) -> list[TournamentChange | None]:
    """End every game `change` opened, each as a loss for its last seat (or for the one of
    `losers` sitting there); what each end led to."""
    after = []
    for opened_game in change.games:
        game = opened_game.game
        loser = next((s.user_id for s in game.seats if s.user_id in losers), game.seats[-1].user_id)
        assert loser is not None
        ended = await lose(service, game.id, loser)
        after.append(await service.tournaments.game_ended(ended))
    return after


async def count(store: GameStore, sql: str) -> int:
    return int(await store.db.fetchval(sql))


async def test_the_start_pairs_round_one_and_each_round_follows_its_last_game(
    database_url: str,
) -> None:
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(1), clock=MovedClock()
    )
    try:
        made = await opened(service)
        assert made.what == "joined"
        assert [o.kind for o in made.owed] == ["signup"]
        started = await service.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        assert started.what == "started"
        assert started.tournament.status == "running"
        assert started.tournament.round == 1 and started.tournament.rounds == 2
        assert [o.kind for o in started.owed] == ["round", "signup"]
        assert len(started.games) == 2
        seated = sorted(u for g in started.games for u in (s.user_id for s in g.game.seats))
        assert seated == sorted(PEOPLE[:4])
        for table in started.games:
            game = table.game
            assert game.status == "active" and game.tournament_id == started.tournament.id
            assert game.clock is not None and game.clock.timeout == "end"
            kinds = [o.kind for o in table.owed]
            assert kinds[0] == "lobby" and "start" in kinds and kinds.count("secret") == 2
            assert table.owed[0].body["tournament"] == started.tournament.id
        # Round 1 is seeded by rating: the fold puts the first seed against the third.
        first = await play_round(service, started)
        assert first[0] is None  # the round's other game is still being played
        paired = first[1]
        assert paired is not None and paired.what == "paired"
        assert paired.tournament.round == 2
        assert [o.kind for o in paired.owed] == ["standings", "round", "signup"]
        assert paired.owed[0].body["round"] == 1
        # The winners of round 1 meet in round 2.
        winners = {g.game.seats[0].user_id for g in started.games}
        assert any({s.user_id for s in g.game.seats} == winners for g in paired.games)
        # Seeing the same end again pairs nothing more.
        again = await service.games.find(started.games[1].game.id, fresh=True)
        assert again is not None
        assert await service.tournaments.game_ended(again) is None
        last = await play_round(service, paired)
        finished = last[-1]
        assert finished is not None and finished.what == "finished"
        assert finished.tournament.status == "finished"
        assert [o.kind for o in finished.owed] == ["podium", "signup"]
        standing = await service.tournaments.standing(finished.tournament.id)
        assert standing.standings[0].points == 12  # two wins
        assert await count(service.repo, "SELECT COUNT(*) FROM tournament_rounds") == 2
    finally:
        await service.close()


async def test_two_processes_seeing_the_last_game_end_pair_the_next_round_once(
    database_url: str,
) -> None:
    async with services_sharing(database_url, 2) as (one, two):
        clock = MovedClock()
        one.clock = two.clock = clock
        made = await opened(one)
        started = await one.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        for table in started.games[:-1]:
            await lose(one, table.game.id, table.game.seats[-1].user_id)
        last = started.games[-1].game
        ended = await lose(one, last.id, last.seats[-1].user_id)
        both = await asyncio.gather(
            one.tournaments.game_ended(ended), two.tournaments.game_ended(ended)
        )
        paired = [c for c in both if c is not None]
        assert len(paired) == 1 and paired[0].tournament.round == 2
        assert await count(one.repo, "SELECT COUNT(*) FROM tournament_rounds") == 2
        assert await count(one.repo, "SELECT COUNT(*) FROM tournament_games") == 4
        # The periodic check of either finds nothing left to pair.
        assert await one.tournaments.due() == [] and await two.tournaments.due() == []
