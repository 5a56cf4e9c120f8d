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
from played_games import started_game

from data.texts import texts_for
from hvbot.database import Statement
from hvbot.services import BotError, GameService
from hvbot.services.outcomes import TournamentChange
from hvbot.store import GameRow, GameStore

GUILD = 7
CHANNEL = 70
OWNER = 1_576_521_924_861_754_999
# Discord's ids need 64 bits: so do the tables' seats, the entrants and the resignations.
PEOPLE = tuple(1_576_521_924_861_755_000 + n for n in range(12))
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
    error = caught.value
    assert error.key == f"bot.tournament.error.{key}", error
    # The message in English is the text every language says it by.
    assert str(error) == texts_for("en")(error.key, **error.fields)


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


async def started_service(database_url: str) -> tuple[GameService, MovedClock]:
    clock = MovedClock()
    service = GameService(
        await GameStore.open(database_url), seed_source=random.Random(2), clock=clock
    )
    return service, clock


async def test_refusals_say_what_is_allowed_and_change_nothing(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        tournaments = service.tournaments
        await refused("table", opened(service, table="3"))
        await refused("timeout", opened(service, timeout="ai_move"))
        await refused("round_robin_table", opened(service, format="round_robin", table="4"))
        await refused("rounds", opened(service, rounds=13))
        assert await count(service.repo, "SELECT COUNT(*) FROM tournaments") == 0
        made = await opened(service, people=PEOPLE[:3])
        tid = made.tournament.id
        await refused("busy", opened(service))
        await refused("joined_already", tournaments.join(tid, PEOPLE[0]))
        await refused("only_creator", tournaments.start(tid, PEOPLE[0], can_manage=False))
        await refused("too_few", tournaments.start(tid, OWNER, can_manage=False))
        await refused("not_entrant", tournaments.leave(tid, PEOPLE[5]))
        await refused("not_running", tournaments.pause(tid, by=OWNER, can_manage=False))
        assert (await tournaments.standing(tid)).tournament.version == made.tournament.version
        await tournaments.join(tid, PEOPLE[3])
        await tournaments.start(tid, PEOPLE[0], can_manage=True)  # a moderator may
        await refused("not_signup", tournaments.join(tid, PEOPLE[4]))
        await refused("started_already", tournaments.start(tid, OWNER, can_manage=False))
    finally:
        await service.close()


async def test_tables_of_three_and_four_seat_everyone_in_started_games(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(
            service, game="high-voltage", table="3-4", rounds=None, people=PEOPLE[:11]
        )
        started = await service.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        sizes = sorted(len(g.game.seats) for g in started.games)
        assert sizes == [3, 4, 4]
        assert all(g.game.status == "active" for g in started.games)
        assert started.tournament.rounds == 4  # ceil(log2(11))
        # Everyone at a table, the round's row says nobody sits out.
        standing = await service.tournaments.standing(started.tournament.id)
        assert standing.rounds[0].byes == ()
    finally:
        await service.close()


async def test_who_leaves_is_not_paired_again_and_their_running_game_goes_on(
    database_url: str,
) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service, people=PEOPLE[:4], rounds=3)
        tid = made.tournament.id
        # Leaving before the start takes a person off the list.
        await service.tournaments.join(tid, PEOPLE[4])
        await service.tournaments.leave(tid, PEOPLE[4])
        assert len((await service.tournaments.standing(tid)).entrants) == 4
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        leaver = started.games[0].game.seats[0].user_id
        assert leaver is not None
        left = await service.tournaments.leave(tid, leaver)
        assert left.what == "left" and left.games == ()
        game = await service.games.find(started.games[0].game.id, fresh=True)
        assert game is not None and game.status == "active"  # their game goes on
        after = await play_round(service, started)
        paired = after[-1]
        assert paired is not None and paired.tournament.round == 2
        players = [u for g in paired.games for u in (s.user_id for s in g.game.seats)]
        assert leaver not in players and len(players) == 2
        standing = await service.tournaments.standing(tid)
        assert len(standing.rounds[1].byes) == 1  # three left: one sits out, scored a point
        mine = next(s for s in standing.standings if s.player == leaver)
        assert mine.withdrawn
    finally:
        await service.close()


async def test_a_round_robin_gives_a_bye_to_whoever_was_to_meet_one_who_left(
    database_url: str,
) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service, format="round_robin", rounds=None, people=PEOPLE[:4])
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        assert started.tournament.rounds == 3 and len(started.games) == 2
        leaver = PEOPLE[3]
        await service.tournaments.leave(tid, leaver)
        paired = (await play_round(service, started))[-1]
        assert paired is not None and len(paired.games) == 1
        standing = await service.tournaments.standing(tid)
        (bye,) = standing.rounds[1].byes
        assert bye != leaver
        assert leaver not in {s.user_id for s in paired.games[0].game.seats}
    finally:
        await service.close()


async def test_a_removal_resigns_the_running_seat(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        table = started.games[0].game
        removed = table.seats[1].user_id
        assert removed is not None
        change = await service.tournaments.remove(tid, removed, by=OWNER)
        assert change.what == "removed"
        (resigned,) = change.games
        assert resigned.game.id == table.id and resigned.what == "resigned"
        assert resigned.game.seats[1].resigned_user_id == removed
        assert [o.kind for o in resigned.owed] == ["text"]
        entrant = (await service.tournaments.standing(tid)).entrant(removed)
        assert entrant is not None and entrant.removed and not entrant.playing
        await refused("withdrawn_already", service.tournaments.leave(tid, removed))
    finally:
        await service.close()


async def refuse_changes_of_game(store: GameStore, game_id: int, *, refuse: bool) -> None:
    """The database refuses (or again accepts) every change to one game's row: a real fault
    of the database, met by the resignation after the withdrawal was stored."""
    db = store.db

    async def run(sql: str) -> None:
        await db.transact(Statement(sql, ()))

    if db.backend == "postgresql":
        if refuse:
            await run(
                "CREATE FUNCTION refuse_game() RETURNS trigger AS $$ BEGIN"
                " RAISE EXCEPTION 'the database refuses'; END $$ LANGUAGE plpgsql"
            )
            await run(
                "CREATE TRIGGER refuse_game BEFORE UPDATE ON games FOR EACH ROW"
                f" WHEN (OLD.id = {int(game_id)}) EXECUTE FUNCTION refuse_game()"
            )
        else:
            await run("DROP TRIGGER refuse_game ON games")
            await run("DROP FUNCTION refuse_game()")
    elif refuse:
        await run(
            f"CREATE TRIGGER refuse_game BEFORE UPDATE ON games WHEN OLD.id = {int(game_id)}"
            " BEGIN SELECT RAISE(ABORT, 'the database refuses'); END"
        )
    else:
        await run("DROP TRIGGER refuse_game")


async def test_a_removal_whose_resignation_failed_is_resigned_by_the_check_once(
    database_url: str,
) -> None:
    """The withdrawal is stored, then the database refuses the resignation (as a process
    dying between the two would leave it): the periodic check of either of two processes
    resigns the seat, once, and says so at the table."""
    async with services_sharing(database_url, 2) as (one, two):
        one.clock = two.clock = MovedClock()
        made = await opened(one)
        tid = made.tournament.id
        started = await one.tournaments.start(tid, OWNER, can_manage=False)
        table = started.games[0].game
        removed = table.seats[1].user_id
        assert removed is not None
        await refuse_changes_of_game(one.repo, table.id, refuse=True)
        with pytest.raises(Exception, match="the database refuses"):
            await one.tournaments.remove(tid, removed, by=OWNER)
        entrant = (await one.tournaments.standing(tid)).entrant(removed)
        assert entrant is not None and entrant.removed, "the withdrawal stands"
        still = await two.games.find(table.id, fresh=True)
        assert still is not None and still.seat_of(removed) == 1, "the seat is not resigned"
        with pytest.raises(Exception, match="the database refuses"):
            await two.tournaments.due()  # the check meets the fault too, and tries again later

        await refuse_changes_of_game(one.repo, table.id, refuse=False)
        both = await asyncio.gather(one.tournaments.due(), two.tournaments.due())
        done = [change for changes in both for change in changes]
        assert [c.what for c in done] == ["resigned"], done
        (resigned,) = done[0].games
        assert resigned.game.id == table.id and resigned.what == "resigned"
        assert resigned.game.seats[1].resigned_user_id == removed
        (told,) = resigned.owed
        assert told.kind == "text"
        assert told.body["content"] == texts_for("en")(
            "bot.tournament.table_notes.removed_told", player=f"<@{removed}>"
        )
        assert await one.tournaments.due() == [] and await two.tournaments.due() == []
        stored = await two.games.find(table.id, fresh=True)
        assert stored is not None and stored.seat_of(removed) is None
        assert stored.seats[1].resigned_user_id == removed


async def test_a_tables_first_board_waits_for_its_announcement(database_url: str) -> None:
    """The thread a table is played in starts from its announcement: while the announcement
    is owed, the table's first board is not taken, whoever holds it (another process took it
    over); its secrets, which go by DM, wait for nothing. Once the announcement is out, the
    board goes."""
    async with services_sharing(database_url, 2) as (one, two):
        clock = MovedClock()
        one.clock = two.clock = clock
        made = await opened(one)
        started = await one.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        clock.advance(seconds=30)  # the process that started it died: another takes over
        handed = {o.id: o for o in await two.duties.claim_owed()}
        table = started.games[0]
        announcement, board, *secrets = (handed[o.id] for o in table.owed)
        assert (announcement.kind, board.kind) == ("lobby", "start")
        assert await two.duties.take(board) is None, "the board waits for its announcement"
        for secret in secrets:
            assert await two.duties.take(secret) is not None
        taken = await two.duties.take(announcement)
        assert taken is not None
        assert await two.duties.take(board) is None, "taken, but not out yet"
        await two.duties.made(taken)
        assert await two.duties.take(board) is not None
        # The other table's board waits for its own announcement alone.
        other_board = handed[started.games[1].owed[1].id]
        assert other_board.kind == "start" and await two.duties.take(other_board) is None
        (other_announcement,) = [handed[o.id] for o in started.games[1].owed if o.kind == "lobby"]
        other_taken = await two.duties.take(other_announcement)
        assert other_taken is not None and await two.duties.made(other_taken)
        assert await two.duties.take(other_board) is not None


async def test_a_table_played_in_the_channel_is_found_by_its_players(database_url: str) -> None:
    """Tables without a thread (Discord would not start one) are played in the tournament's
    channel: a command typed there finds the table its person sits at; anyone else is told
    which tables there are, and may name one; the game option suggests them."""
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        started = await service.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        tables = [change.game for change in started.games]
        assert all(game.thread_id is None for game in tables)
        games = service.games
        for game in tables:
            for seat in game.seats:
                assert seat.user_id is not None
                found = await games.open_game(CHANNEL, seat.user_id, started=True)
                assert found.id == game.id
        with pytest.raises(BotError) as caught:
            await games.open_game(CHANNEL, OWNER)
        error = caught.value
        assert error.key == "bot.tournament.table_notes.tables_here"
        assert error.fields["games"] == ", ".join(f"#{game.id}" for game in tables)
        assert str(error) == texts_for("en")(error.key, **error.fields)
        assert (await games.open_game(CHANNEL, OWNER, tables[1].id)).id == tables[1].id
        seated = tables[1].seats[0].user_id
        assert seated is not None
        here = await games.games_here(CHANNEL, seated)
        assert [g.id for g in here] == [tables[1].id, tables[0].id], "their own first"
    finally:
        await service.close()


async def test_a_pause_holds_the_next_round_until_it_resumes(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        paused = await service.tournaments.pause(tid, by=OWNER, can_manage=False)
        assert paused.tournament.status == "paused"
        first, last = await play_round(service, started)
        assert first is None and last is not None and last.what == "standings", "no round"
        assert await service.tournaments.due() == []
        await refused(
            "only_manager", service.tournaments.resume(tid, by=PEOPLE[0], can_manage=False)
        )
        resumed = await service.tournaments.resume(tid, by=PEOPLE[0], can_manage=True)
        assert resumed.what == "paired" and resumed.tournament.round == 2
        assert resumed.tournament.status == "running" and len(resumed.games) == 2
    finally:
        await service.close()


def kinds(change: TournamentChange | None) -> list[tuple[str, object]]:
    """The posts `change` owes: each kind, and the round its body names."""
    assert change is not None
    return [(owed.kind, owed.body.get("round")) for owed in change.owed]


async def test_a_paused_round_posts_its_standings_as_it_ends_and_not_again(
    database_url: str,
) -> None:
    """While paused, the standings after a round are owed as its last game ends, once: the
    pairing at resume owes the round and the sign-up post, not the standings again. A last
    round ending while paused owes nothing: the podium says it at resume."""
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        await service.tournaments.pause(tid, by=OWNER, can_manage=False)
        first, last = await play_round(service, started)
        assert first is None, "a game still played: nothing yet"
        assert kinds(last) == [("standings", 1)]
        assert last is not None and last.tournament.status == "paused" and not last.games
        assert await service.tournaments.due() == [], "owed once"
        standing = await service.tournaments.standing(tid)
        assert [r.standings_at is not None for r in standing.rounds] == [True]

        resumed = await service.tournaments.resume(tid, by=OWNER, can_manage=False)
        assert resumed.what == "paired" and resumed.tournament.round == 2
        assert kinds(resumed) == [("signup", None), ("round", 2), ("signup", None)]
        sql = "SELECT COUNT(*) FROM announcements WHERE kind = 'standings'"
        assert await count(service.repo, sql) == 1

        await service.tournaments.pause(tid, by=OWNER, can_manage=False)
        assert await play_round(service, resumed) == [None, None], "the last round"
        assert await service.tournaments.due() == []
        ended = await service.tournaments.resume(tid, by=OWNER, can_manage=False)
        assert ended.what == "finished"
        assert kinds(ended) == [("signup", None), ("podium", 2), ("signup", None)]
        assert await count(service.repo, sql) == 1
    finally:
        await service.close()


async def test_a_paused_rounds_standings_are_owed_once_by_two_processes(
    database_url: str,
) -> None:
    """Two processes seeing a paused round's last game end owe its standings once; one that
    died before owing them leaves them to the periodic check of either, once; a round left
    unpaired and found paused owes them too, and its pairing at resume does not."""
    async with services_sharing(database_url, 2) as (one, two):
        one.clock = two.clock = MovedClock()
        made = await opened(one, rounds=3)
        tid = made.tournament.id
        started = await one.tournaments.start(tid, OWNER, can_manage=False)
        await one.tournaments.pause(tid, by=OWNER, can_manage=False)
        for table in started.games[:-1]:
            await lose(one, table.game.id, table.game.seats[-1].user_id)
        final = started.games[-1].game
        ended = await lose(one, final.id, final.seats[-1].user_id)
        both = await asyncio.gather(
            one.tournaments.game_ended(ended), two.tournaments.game_ended(ended)
        )
        owed = [kinds(c) for c in both if c is not None]
        assert owed == [[("standings", 1)]], owed
        assert await one.tournaments.due() == [] and await two.tournaments.due() == []

        resumed = await two.tournaments.resume(tid, by=OWNER, can_manage=False)
        assert kinds(resumed) == [("signup", None), ("round", 2), ("signup", None)]
        await one.tournaments.pause(tid, by=OWNER, can_manage=False)
        for table in resumed.games:  # the ends seen by nobody: a process died after each
            await lose(one, table.game.id, table.game.seats[-1].user_id)
        checked = await asyncio.gather(one.tournaments.due(), two.tournaments.due())
        found = [kinds(c) for changes in checked for c in changes]
        assert found == [[("standings", 2)]], found
        again = await two.tournaments.resume(tid, by=OWNER, can_manage=False)
        assert kinds(again) == [("signup", None), ("round", 3), ("signup", None)]
        sql = "SELECT COUNT(*) FROM announcements WHERE kind = 'standings'"
        assert await count(one.repo, sql) == 2


async def test_a_cancelled_tournament_pairs_no_more_and_its_games_go_on(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        cancelled = await service.tournaments.cancel(tid, by=OWNER, can_manage=False)
        assert cancelled.tournament.status == "cancelled"
        assert [o.kind for o in cancelled.owed] == ["signup"]
        game = await service.games.find(started.games[0].game.id, fresh=True)
        assert game is not None and game.status == "active"
        assert await play_round(service, started) == [None, None]
        await refused("over", service.tournaments.cancel(tid, by=OWNER, can_manage=False))
        assert await service.tournaments.in_channel(CHANNEL) is None
    finally:
        await service.close()


async def test_a_no_show_loses_by_the_clock_and_the_round_goes_on(database_url: str) -> None:
    service, clock = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        assert len(started.games) == 2
        clock.advance(days=1, minutes=1)
        events = await service.clocks.due(lambda *_: "warned", lambda *_: "out of time")
        ran_out = [e for e in events if e.ran_out]
        assert len(ran_out) == 2
        after = []
        for event in ran_out:
            assert event.game.status == "finished"
            after.append(await service.tournaments.game_ended(event.game))
        # The first end seen finds both games over: the round is paired once.
        paired, nothing = after
        assert nothing is None
        assert paired is not None and paired.tournament.round == 2
        standing = await service.tournaments.standing(tid, upto=1)
        # Whoever was to move and never did lost; the other won.
        losers = {e.user_id for e in ran_out}
        for line in standing.standings:
            assert line.points == (0 if line.player in losers else 6)
    finally:
        await service.close()


async def test_the_periodic_check_pairs_a_round_left_unpaired_and_starts_on_time(
    database_url: str,
) -> None:
    service, clock = await started_service(database_url)
    try:
        made = await opened(service)
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        for table in started.games:  # the process that ended them died before pairing
            await lose(service, table.game.id, table.game.seats[-1].user_id)
        (paired,) = await service.tournaments.due()
        assert paired.what == "paired" and paired.tournament.round == 2
        assert await service.tournaments.due() == []
        # A tournament with a start time starts then by itself.
        other = await service.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            user_id=OWNER,
            may_open=True,
            game="pylons",
            options={},
            format="swiss",
            rounds=None,
            table="2",
            turn_clock=DAY,
            timeout="ai_seat",
            starts_at=clock() + timedelta(hours=2),
            most=None,
            name=None,
        )
        for user in PEOPLE[4:9]:
            await service.tournaments.join(other.tournament.id, user, name=f"P{user}")
        assert await service.tournaments.due() == []
        clock.advance(hours=2)
        (began,) = await service.tournaments.due()
        assert began.what == "started" and began.tournament.id == other.tournament.id
        assert began.tournament.rounds == 3 and len(began.games) == 2
        (bye,) = (await service.tournaments.standing(other.tournament.id)).rounds[0].byes
        assert bye == PEOPLE[8]  # five newcomers: the last to join, seeded last, sits out
    finally:
        await service.close()


async def test_tables_share_the_channel_and_its_rule_of_one_game_holds_for_others(
    database_url: str,
) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service)
        started = await service.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        # Two tables in the channel, neither in its thread yet: the channel is not theirs.
        assert all(g.game.thread_id is None for g in started.games)
        # Asked in a table's thread, it is that tournament's.
        table = started.games[0].game
        await service.repo.set_thread(game_id=table.id, thread_id=CHANNEL + 100)
        found = await service.tournaments.in_channel(CHANNEL + 100)
        assert found is not None and found.id == made.tournament.id
        assert await service.tournaments.in_channel(CHANNEL + 101) is None
        assert await service.repo.open_game_in_channel(channel_id=CHANNEL) is None
        lobby = await service.lobby.new_lobby(
            channel_id=CHANNEL, guild_id=GUILD, user_id=PEOPLE[8], name="Hal", game_name="pylons"
        )
        assert (await service.games.open_game(CHANNEL)).id == lobby.id
        with pytest.raises(BotError) as caught:
            await service.lobby.new_lobby(
                channel_id=CHANNEL,
                guild_id=GUILD,
                user_id=PEOPLE[9],
                name="Ivy",
                game_name="pylons",
            )
        assert caught.value.key == "bot.error.busy"
    finally:
        await service.close()


async def test_a_tournament_without_enough_entrants_at_its_time_is_cancelled(
    database_url: str,
) -> None:
    service, clock = await started_service(database_url)
    try:
        made = await service.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=OWNER,
            may_open=True,
            game="high-voltage",
            options={},
            format="swiss",
            rounds=None,
            table="3-4",
            turn_clock=DAY,
            timeout="end",
            starts_at=clock() + timedelta(hours=1),
            most=None,
            name=None,
        )
        assert made.tournament.name == "High Voltage tournament"
        for user in PEOPLE[:5]:  # two tables of three need six
            await service.tournaments.join(made.tournament.id, user)
        clock.advance(hours=1)
        (cancelled,) = await service.tournaments.due()
        assert cancelled.what == "cancelled" and cancelled.tournament.status == "cancelled"
        assert [o.kind for o in cancelled.owed] == ["signup"]
        assert await service.tournaments.due() == []
    finally:
        await service.close()


async def test_a_round_robin_left_with_only_byes_records_them_and_ends(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        made = await opened(service, format="round_robin", rounds=None, people=PEOPLE[:4])
        tid = made.tournament.id
        started = await service.tournaments.start(tid, OWNER, can_manage=False)
        staying, leaving = (tuple(s.user_id for s in g.game.seats) for g in started.games)
        for user in leaving:
            assert user is not None
            await service.tournaments.leave(tid, user)
        # The two who stay met in round 1: rounds 2 and 3 hold only their byes.
        ended = await play_round(service, started)
        finished = ended[-1]
        assert finished is not None and finished.what == "finished"
        assert [o.kind for o in finished.owed] == [
            "standings",
            "round",
            "signup",
            "podium",
            "signup",
        ]
        standing = await service.tournaments.standing(tid)
        assert [sorted(r.byes) for r in standing.rounds[1:]] == [sorted(staying)] * 2
        byes = {line.player: line.byes for line in standing.standings}
        assert [byes[user] for user in staying] == [2, 2]
    finally:
        await service.close()


async def test_two_starts_at_once_start_it_once(database_url: str) -> None:
    async with services_sharing(database_url, 2) as (one, two):
        made = await opened(one)
        tid = made.tournament.id
        both = await asyncio.gather(
            one.tournaments.start(tid, OWNER, can_manage=False),
            two.tournaments.start(tid, OWNER, can_manage=False),
            return_exceptions=True,
        )
        started = [c for c in both if isinstance(c, TournamentChange)]
        refusals = [e for e in both if isinstance(e, BotError)]
        assert len(started) == 1 and len(refusals) == 1, both
        assert refusals[0].key == "bot.tournament.error.started_already"
        assert await count(one.repo, "SELECT COUNT(*) FROM tournament_games") == 2


async def test_entrants_are_seeded_by_their_rating_in_the_game(database_url: str) -> None:
    service, _ = await started_service(database_url)
    try:
        # A game of Pylons before: its winner is rated above newcomers, its loser below.
        winner, loser = PEOPLE[3], PEOPLE[0]
        game = await started_game(
            service,
            channel_id=CHANNEL + 5,
            guild_id=GUILD,
            players=[(winner, "Win"), (loser, "Lose")],
        )
        await lose(service, game.id, loser)
        made = await opened(service, people=PEOPLE[:4])  # the loser joined first
        started = await service.tournaments.start(made.tournament.id, OWNER, can_manage=False)
        standing = await service.tournaments.standing(started.tournament.id)
        seeds = [e.user_id for e in standing.entrants]
        assert seeds == [winner, PEOPLE[1], PEOPLE[2], loser]
        ratings = [e.rating for e in standing.entrants]
        assert ratings[0] is not None and ratings[0] > 1000 > (ratings[3] or 0)
        assert ratings[1:3] == [1000, 1000]
    finally:
        await service.close()
