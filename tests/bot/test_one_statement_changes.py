"""The change every move makes, as PostgreSQL runs it: one statement, one round trip.

`changes.record_actions` is written twice, as steps (what SQLite runs) and as one statement of
data-modifying common table expressions (what PostgreSQL runs). Here both forms make the same
changes to twin games on a real PostgreSQL server, and everything they stored is compared;
the round trips are counted by the bot's own metric, as an operator would read them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import new_postgres_database, plan_for_any

from hvbot.database import OneStatement, Statement
from hvbot.infra.metrics import DATABASE_ROUND_TRIPS
from hvbot.store import GameStore, SeatRow, VersionConflict, changes
from hvbot.store.duties import LEASE, AiClaim, Duties
from hvbot.store.rows import Wait
from hvbot.store.sql import stamp

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def repo(postgres):
    repository = await GameStore.open(await new_postgres_database(postgres))
    yield repository
    await repository.close()


async def _twins(repo: GameStore) -> tuple[int, int]:
    """Two games started alike, in two channels, both at the same version."""
    ids = []
    for channel in (10, 11):
        game = await repo.create(
            changes.create_lobby(
                game="pylons",
                guild_id=1,
                channel_id=channel,
                creator_id=100,
                creator_name="Ada",
                options={},
                at=repo.clock(),
            )
        )
        seats = [*game.seats, SeatRow(1, 200, None, "Bo")]
        started = await repo.write(
            changes.start(
                game.id,
                game.version,
                seed=5,
                state={"n": 0},
                seats=seats,
                at=repo.clock(),
            )
        )
        for owed in started:  # the first board and the secrets, out as the bot sends them
            await Duties(repo.db, clock=lambda: AT).made(owed)
        ids.append(game.id)
    return ids[0], ids[1]


def _change(game_id: int, version: int, step: dict[str, Any]) -> OneStatement:
    """The step's move as `changes.record_actions` writes it: both forms of its transaction."""
    write = changes.record_actions(
        game_id,
        version,
        state=step.get("state", {"n": version}),
        actions=step.get("actions", [(0, "place K12")]),
        at=AT,
        status=step.get("status", "active"),
        prompt=step.get("prompt"),
        wait=step.get("wait"),
        ai_turn=step.get("ai_turn", False),
        announce=step.get("announce", True),
        stand_in_seat=step.get("stand_in_seat"),
        ai_claim=AiClaim(step["ai_claim"], stamp(AT), stamp(AT + LEASE))
        if "ai_claim" in step
        else None,
    )
    assert isinstance(write.work, OneStatement)
    return write.work


async def _stored(repo: GameStore, game_id: int) -> dict[str, Any]:
    """Everything a game's changes stored, without what differs between twins by nature
    (ids, the channel, the moments of writing, the posts' nonces)."""
    db = repo.db
    game = dict(await db.fetchrow("SELECT * FROM games WHERE id = ?", game_id))
    for column in ("id", "channel_id", "created_at", "updated_at", "ended_at", "lobby_expires_at"):
        game.pop(column)
    actions = [
        (r["n"], r["seat"], r["action"])
        for r in await db.fetch("SELECT * FROM actions WHERE game_id = ? ORDER BY n", game_id)
    ]
    prompts = [
        (r["kind"], r["user_id"], r["version"], r["resolved"])
        for r in await db.fetch("SELECT * FROM prompts WHERE game_id = ? ORDER BY id", game_id)
    ]
    posts = [
        (r["version"], r["kind"], json.loads(r["body"]), r["token"], r["sent_at"])
        for r in await db.fetch(
            "SELECT * FROM announcements WHERE game_id = ? ORDER BY id", game_id
        )
    ]
    return {"game": game, "actions": actions, "prompts": prompts, "posts": posts}


STEPS: Sequence[dict[str, Any]] = (
    # The AI's thinking claimed by the move that hands it the turn: renewed by its holder...
    {"ai_turn": True, "announce": False, "ai_claim": "p1", "lease": True},
    # ...not taken from it by another process.
    {"ai_turn": True, "announce": False, "ai_claim": "p2"},
    {"prompt": ("place", 100)},
    {"actions": [(0, "draw C3"), (0, "place here r90")], "prompt": ("declare", 100)},
    {"wait": Wait(AT, AT + timedelta(hours=1), "2026-03-02T12:00:00.000+00:00", None)},
    {"ai_turn": True, "announce": False},
    {"actions": [(1, "place M13")], "stand_in_seat": 1, "ai_turn": True},
    {"actions": [], "prompt": ("place", 200)},
    {"status": "abandoned", "actions": [(1, "place N14")]},
)


async def test_one_statement_stores_what_the_steps_store(repo):
    by_statement, by_steps = await _twins(repo)
    version = (await repo.game(game_id=by_statement)).version
    for step in STEPS:
        # A process thinks for an AI seat: a change that leaves no AI to move lets go of it.
        await repo.db.transact(
            Statement(
                "UPDATE games SET ai_until = ?, ai_by = 'p1' WHERE id IN (?, ?)",
                ("2030-01-01T00:00:00.000+00:00", by_statement, by_steps),
            )
        )
        one = _change(by_statement, version, step)
        assert one.postgresql is not None
        owed_one = await repo.db.transact(one)
        owed_steps = await repo.db.transact(_change(by_steps, version, step).work)
        assert [(o.version, o.kind, o.body, o.token) for o in owed_one] == [
            (o.version, o.kind, o.body, o.token) for o in owed_steps
        ], step
        assert owed_one.ai_claimed == owed_steps.ai_claimed == (step.get("ai_claim") == "p1")
        stored = await _stored(repo, by_statement)
        assert stored == await _stored(repo, by_steps), step
        claim = (stored["game"]["ai_by"], stored["game"]["ai_until"] is not None)
        assert claim == (("p1", True) if step.get("ai_turn") else (None, False)), step
        if step.get("lease"):
            assert stored["game"]["ai_until"] == stamp(AT + LEASE), step
        version += 1


async def test_a_stale_version_changes_nothing_in_one_statement(repo):
    game_id, _ = await _twins(repo)
    version = (await repo.game(game_id=game_id)).version
    before = await _stored(repo, game_id)
    with pytest.raises(VersionConflict):
        await repo.db.transact(_change(game_id, version - 1, {"prompt": ("place", 100)}))
    assert await _stored(repo, game_id) == before


async def test_a_finishing_move_is_stored_in_steps(repo):
    """A finishing move owes its replay and the lobby's update too: the steps do it."""
    game_id, _ = await _twins(repo)
    version = (await repo.game(game_id=game_id)).version
    change = _change(game_id, version, {"status": "finished"})
    assert change.postgresql is None
    owed = await repo.db.transact(change)
    assert [o.kind for o in owed] == ["move", "replay", "lobby"]


async def _round_trips() -> float:
    """The count so far: asyncpg tells of each request in a callback it schedules on the
    loop, run here before reading."""
    await asyncio.sleep(0)
    return DATABASE_ROUND_TRIPS.labels(backend="postgresql")._value.get()


async def test_a_move_and_its_post_cost_three_round_trips(repo):
    """Stored in one statement; the post taken right before it is sent, and marked made
    after: one statement each, with no BEGIN, COMMIT or session reset around them. (The
    first of each on a connection costs more, once: asyncpg prepares it and reads the types
    it uses.)"""
    game_id, _ = await _twins(repo)
    version = (await repo.game(game_id=game_id)).version
    duties = Duties(repo.db, clock=lambda: AT)
    counts = []
    for move in range(2):
        before = await _round_trips()
        (owed,) = await repo.db.transact(_change(game_id, version + move, {"prompt": ("place", 1)}))
        stored = await _round_trips()
        taken = await duties.take(owed)
        assert taken is not None and taken.token == owed.token + 1
        assert await duties.made(taken, fenced=True)
        counts.append((stored - before, await _round_trips() - before))
    assert counts[1] == (1, 3)
    # A second take of the same claim finds its token moved on: it is not sent twice.
    assert await duties.take(owed) is None


async def test_the_outbox_statement_is_planned_once_for_any_posts(repo):
    """Takes and marks of posts are one statement, run on every move: the server plans it once
    for any posts and runs that plan again (after its first five runs, planned for their own
    values). With the posts' ids as plain parameters, its plan for their values looked cheaper
    than one for any values, the more so the more posts there were: it was planned anew on
    every run, about half a millisecond of the server's CPU each."""
    game_id, other = await _twins(repo)
    version = (await repo.game(game_id=game_id)).version
    # An outbox that has served a while: many posts made, a few owed (the server's estimates,
    # not these rows, are what made it plan each run anew).
    await repo.db.transact(
        lambda tx: tx.execute(
            "INSERT INTO announcements (game_id, version, kind, body, created_at, token, sent_at)"
            " SELECT ?, n, 'move', '{}', ?, 1, CASE WHEN n % 20 = 0 THEN NULL ELSE ? END"
            " FROM generate_series(1, 3000) AS n",
            other,
            stamp(AT),
            stamp(AT),
        )
    )
    await repo.db.fetch("ANALYZE announcements")
    duties = Duties(repo.db, clock=lambda: AT)
    for move in range(8):
        (owed,) = await repo.db.transact(_change(game_id, version + move, {"prompt": ("place", 1)}))
        taken = await duties.take(owed)
        assert taken is not None and await duties.made(taken, fenced=True)

    async def plans(tx):  # on the connection the posts were taken through: the pool's one
        return await tx.fetchrow(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE 'WITH marked AS%'"
        )

    generic, custom = await repo.db.transact(plans)
    assert custom <= 5 and generic > custom, (generic, custom)


async def test_a_move_settles_the_open_prompts_of_its_own_game_only(repo):
    """A move settles its game's open prompts as it is stored. The server's plan for any
    move finds them by the game's id: through what the version's compare-and-set returned, it
    could not tell there was one game, and read the open prompts of every game (one each,
    200 of them at 200 games) on every move."""
    game_id, other = await _twins(repo)
    version = (await repo.game(game_id=game_id)).version
    # Prompts that served a while: thousands settled, the table's statistics read then. (A
    # plan made by them counts on next to no prompts being open.)
    await repo.db.transact(
        lambda tx: tx.execute(
            "INSERT INTO prompts (game_id, kind, user_id, version, created_at, resolved)"
            " SELECT ?, 'place', 1, n, ?, 1 FROM generate_series(1, 3000) AS n",
            other,
            stamp(AT),
        )
    )
    await repo.db.fetch("ANALYZE prompts")
    for move in range(8):
        await repo.db.transact(_change(game_id, version + move, {"prompt": ("place", 1)}))
    plan = await plan_for_any(repo.db, "WITH bumped AS")
    settled = plan[plan.index("CTE settled") : plan.index("CTE opened")]
    assert "Index Cond: (game_id = $" in settled, plan
