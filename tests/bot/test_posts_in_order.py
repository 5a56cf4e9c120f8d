"""A game's channel reads its posts in the order their changes were made, on both backends: a
board or words a later change owes wait, owed, until every earlier one of the game is out,
whichever process owes it; DMs, the lobby's update and replays wait for nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from conftest import plan_for_any
from started_games import start_pylons

from hvbot.database import Statement
from hvbot.store import GameStore, changes
from hvbot.store.duties import LEASE, Duties, Owed, owe_text

pytestmark = pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def started(repo: GameStore) -> tuple[int, list[Owed]]:
    """A Pylons game between Ada and Bo, just started: its id, and what the start owes."""
    game, owed = await start_pylons(repo, state={"n": 0}, at=AT)
    return game.id, owed


async def text(repo: GameStore, game_id: int, body: dict[str, object]) -> Owed:
    return await repo.db.transact(lambda tx: owe_text(tx, game_id=game_id, body=body, now=AT))


async def test_a_later_post_waits_for_every_earlier_one_of_its_game(database_url: str) -> None:
    repo = await GameStore.open(database_url)
    try:
        duties = Duties(repo.db, clock=lambda: AT)
        game_id, owed = await started(repo)
        first_board = next(o for o in owed if o.kind == "start")
        game = await repo.game(game_id=game_id)
        assert game is not None
        (move,) = await repo.write(
            changes.record_actions(
                game_id, game.version, state={"n": 1}, actions=[(0, "place K12")], at=AT
            )
        )
        said = await text(repo, game_id, {"content": "⌛ Ada ran out of time."})
        dm = await text(repo, game_id, {"content": "Your turn.", "user": 200})

        # The first board is not out yet: the move's board and the words after it wait...
        assert await duties.take(move) is None
        assert await duties.take(said) is None
        # ...but what goes elsewhere does not: a DM, the lobby's update, each secret.
        assert await duties.take(dm) is not None
        for other in owed:
            if other.kind in ("lobby", "secret"):
                assert await duties.take(other) is not None, other.kind

        # Out in order: each is taken once those before it are made.
        taken = await duties.take(first_board)
        assert taken is not None
        await duties.made(taken)
        assert await duties.take(said) is None, "the move's board comes before the words"
        taken = await duties.take(move)
        assert taken is not None
        await duties.made(taken)
        assert await duties.take(said) is not None
    finally:
        await repo.close()


async def test_posts_another_process_left_are_handed_over_oldest_first(
    database_url: str,
) -> None:
    """A process owes a board and dies; another owes words after it, which wait. Once the
    leases run out, whoever takes them over gets the board first, and then the words."""
    repo = await GameStore.open(database_url)
    try:
        now = [AT]
        duties = Duties(repo.db, clock=lambda: now[0])
        game_id, owed = await started(repo)
        for each in owed:
            await duties.made(each)
        game = await repo.game(game_id=game_id)
        assert game is not None
        (move,) = await repo.write(
            changes.record_actions(
                game_id, game.version, state={"n": 1}, actions=[(0, "place K12")], at=AT
            )
        )
        said = await text(repo, game_id, {"content": "⌛ Bo ran out of time."})
        assert await duties.take(said) is None, "the board of the move comes first"

        now[0] = AT + LEASE + timedelta(seconds=1)
        handed = await duties.claim_owed()
        assert [o.id for o in handed] == [move.id, said.id]
        board, words = handed
        assert await duties.take(words) is None
        taken = await duties.take(board)
        assert taken is not None
        await duties.made(taken)
        assert await duties.take(words) is not None
    finally:
        await repo.close()


@pytest.mark.parametrize("take_first", [False, True], ids=["mark-asked-first", "take-asked-first"])
async def test_a_board_taken_beside_the_mark_of_the_one_before_goes_at_once(
    database_url: str, take_first: bool
) -> None:
    """The players saw a game's board and moved at once: the next board is taken while the
    mark of the one before still waits to go, so both go in one group (`Gathered`). The
    mark counts for the take, whichever was asked first and on either backend: a board
    refused there would wait, owed, until its lease ran out (and the AI seat after it as
    long). A mark refused (its token moved on: another process has the post) does not."""
    repo = await GameStore.open(database_url)
    try:
        duties = Duties(repo.db, clock=lambda: AT)
        game_id, owed = await started(repo)
        first_board = next(o for o in owed if o.kind == "start")
        taken = await duties.take(first_board)
        assert taken is not None
        game = await repo.game(game_id=game_id)
        assert game is not None
        (move,) = await repo.write(
            changes.record_actions(
                game_id, game.version, state={"n": 1}, actions=[(0, "place K12")], at=AT
            )
        )

        async def together(mark: Owed) -> tuple[bool, Owed | None]:
            """The mark and the take, asked in one turn of the event loop: one group."""
            marking = duties.made(mark, fenced=True)
            if take_first:
                board, marked = await asyncio.gather(duties.take(move), marking)
            else:
                marked, board = await asyncio.gather(marking, duties.take(move))
            return marked, board

        stale = replace(taken, token=taken.token - 1)
        assert await together(stale) == (False, None), "not made: the board waits for it"
        marked, board = await together(taken)
        assert marked is True
        assert board is not None and board.token == move.token + 1
    finally:
        await repo.close()


async def _started_after_serving(repo: GameStore, duties: Duties) -> int:
    """A game started in an outbox that has served a while (`_served`), its start's posts
    made: its id."""
    await _served(repo)
    game_id, owed = await started(repo)
    for post in owed:
        taken = await duties.take(post)
        assert taken is not None and await duties.made(taken, fenced=True)
    return game_id


async def _served(repo: GameStore) -> None:
    """An outbox that has served a while: 50 games of 60 posts each made, a few of them still
    owed, the table's statistics read (the server plans by them)."""
    for channel in range(50):
        await repo.create(
            changes.create_lobby(
                game="pylons",
                guild_id=1,
                channel_id=1000 + channel,
                creator_id=300 + channel,
                creator_name="Cy",
                options={},
                at=AT,
            )
        )
    await repo.db.transact(
        lambda tx: tx.execute(
            "INSERT INTO announcements (game_id, version, kind, body, created_at, token, sent_at)"
            " WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)"
            " SELECT games.id, i, 'move', '{}', ?, 1, CASE WHEN i % 20 = 0 THEN NULL ELSE ? END"
            " FROM games, n",
            AT.isoformat(),
            AT.isoformat(),
        )
    )
    await repo.db.fetch("ANALYZE announcements")


async def test_what_a_game_owes_is_looked_up_among_its_own_unsent_posts(
    database_url: str,
) -> None:
    """Every move takes its board only once every earlier post of its game is out, and its AI
    seat waits while the game owes one: both look up the game's unsent posts. They are read
    through an index of those alone; through the index of every unsent post, or of every post
    the game made, each move read the posts of all the games, or its game's whole history
    (and, on PostgreSQL, every post marked sent since the table was last vacuumed)."""
    repo = await GameStore.open(database_url)
    try:
        duties = Duties(repo.db, clock=lambda: AT)
        game_id = await _started_after_serving(repo, duties)
        game = await repo.game(game_id=game_id)
        assert game is not None
        (move,) = await repo.write(
            changes.record_actions(
                game_id, game.version, state={"n": 1}, actions=[(0, "place K12")], at=AT
            )
        )
        run: list[str] = []
        if repo.db.backend == "sqlite":  # each statement the store runs, as it runs it
            await repo.db.conn.set_trace_callback(run.append)  # type: ignore[attr-defined]
        taken = await duties.take(move)
        assert taken is not None and await duties.made(taken, fenced=True)
        assert await duties.claim_ai(game_id, "me", unless_owed=("move",))
        if repo.db.backend == "sqlite":
            await repo.db.conn.set_trace_callback(None)  # type: ignore[attr-defined]
            # The take of the move (its earlier posts out?) and the AI's claim (none owed?).
            looking = [sql for sql in run if "sent_at IS NULL" in sql and "game_id" in sql]
            assert any("earlier" in sql for sql in looking), run
            assert any(sql.startswith("UPDATE games") for sql in looking), run
            for sql in looking:
                plan = await repo.db.fetch(f"EXPLAIN QUERY PLAN {sql}")
                steps = " ".join(str(r[-1]) for r in plan)
                assert "announcements_unsent_by_game" in steps, (sql, steps)
            return
        for start in ("WITH marked AS", "UPDATE games SET ai_until = CASE WHEN"):
            plan = await plan_for_any(repo.db, start)
            assert "announcements_unsent_by_game" in plan, plan
    finally:
        await repo.close()


async def test_the_order_of_posts_is_checked_for_the_posts_taken_only(database_url: str) -> None:
    """Takes go as one statement on PostgreSQL (`hvbot.store.duties`). A taken post's check
    of its game's earlier posts is done for the posts asked for only: done on every unsent
    post the server read before it matched them with the requests (it reads them all when
    it expects few), it was repeated for each post every game owed, on every move. The post
    itself is found by its id, not among every post owed. (SQLite takes one post at a time,
    by its id.)"""
    if database_url.startswith("sqlite"):
        pytest.skip("one statement on PostgreSQL only")
    repo = await GameStore.open(database_url)
    try:
        duties = Duties(repo.db, clock=lambda: AT)
        game_id = await _started_after_serving(repo, duties)
        # The statistics read when next to nothing was owed (the server plans by them), and
        # the games owing posts again since.
        unsent = await repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")
        await repo.db.transact(
            Statement(
                "UPDATE announcements SET sent_at = ? WHERE sent_at IS NULL", (AT.isoformat(),)
            )
        )
        await repo.db.fetch("ANALYZE announcements")
        await repo.db.transact(
            Statement(
                "UPDATE announcements SET sent_at = NULL WHERE id = ANY(?)",
                ([row["id"] for row in unsent],),
            )
        )
        game = await repo.game(game_id=game_id)
        assert game is not None
        moves = []
        for n in range(2):
            (move,) = await repo.write(
                changes.record_actions(
                    game_id, game.version + n, state={"n": n}, actions=[(0, "place K12")], at=AT
                )
            )
            moves.append(move)
        taken = await duties.take(moves[0])  # the statement prepared on the connection
        assert taken is not None and await duties.made(taken, fenced=True)
        until = (AT + LEASE).isoformat()
        plan = await plan_for_any(
            repo.db,
            "WITH marked AS",
            # when; the marks (none): ids, tokens, ids; the take: ids, tokens, leases, ids
            f"'{AT.isoformat()}', '{{}}', '{{}}', '{{}}', '{{{moves[1].id}}}',"
            f" '{{{moves[1].token}}}', '{{\"{until}\"}}', '{{{moves[1].id}}}'",
        )
        checks = [line for line in plan.splitlines() if "on announcements earlier" in line]
        assert len(checks) == 1, plan
        assert "loops=1)" in checks[0], plan
        # ...and the post itself is found by its id, not among all the posts owed.
        (read,) = [line for line in plan.splitlines() if "Scan" in line and " a_1 " in line]
        assert "rows=1 loops=1)" in read, plan
        assert (
            await repo.db.fetchval("SELECT token FROM announcements WHERE id = ?", moves[1].id)
            == moves[1].token + 1
        ), "taken by the plan run"
    finally:
        await repo.close()
