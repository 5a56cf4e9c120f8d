"""The database layer on both backends (a real SQLite file, a real PostgreSQL server):
migrations, one open game per channel, and the compare-and-set that keeps two writers from both
changing the same old version."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator

import pytest
from conftest import new_postgres_database

from hvbot.database import migrations, split_sql
from hvbot.store import ChannelBusy, GameStore, SeatRow, VersionConflict, changes


@contextlib.contextmanager
def recording_reads(repo: GameStore, statements: list[str]) -> Iterator[None]:
    """Note every statement the repository reads with, whatever the backend."""
    db = repo.db
    originals = {name: getattr(db, name) for name in ("fetch", "fetchrow", "fetchval")}

    def recorded(read):
        async def read_and_note(sql, *args):
            statements.append(sql)
            return await read(sql, *args)

        return read_and_note

    for name, read in originals.items():
        setattr(db, name, recorded(read))
    try:
        yield
    finally:
        for name in originals:
            delattr(db, name)


@pytest.fixture
async def repo(database_url):
    repository = await GameStore.open(database_url)
    yield repository
    await repository.close()


async def _lobby(repo: GameStore, channel: int = 10):
    return await repo.create(
        changes.create_lobby(
            game="high-voltage",
            guild_id=1,
            channel_id=channel,
            creator_id=100,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )


async def test_migrations_apply_once(empty_database_url):
    path = empty_database_url
    first = await GameStore.open(path)
    version = await first.schema_version()
    await first.close()
    again = await GameStore.open(path)
    assert await again.schema_version() == version >= 1
    await again.close()


async def test_one_open_game_per_channel(repo):
    game = await _lobby(repo)
    with pytest.raises(ChannelBusy):
        await _lobby(repo)
    other = await _lobby(repo, channel=11)
    assert other.id != game.id
    await repo.write(changes.set_status(game.id, game.version, status="abandoned", at=repo.clock()))
    assert (await _lobby(repo)).channel_id == 10


async def test_compare_and_set_refuses_a_stale_version(repo):
    game = await _lobby(repo)
    seats = [*game.seats, SeatRow(1, 200, None, "Bo")]
    await repo.write(changes.set_seats(game.id, game.version, seats=seats, at=repo.clock()))
    with pytest.raises(VersionConflict):
        await repo.write(
            changes.set_seats(game.id, game.version, seats=game.seats, at=repo.clock())
        )
    stored = await repo.game(game_id=game.id)
    assert [s.display_name for s in stored.seats] == ["Ada", "Bo"]
    assert stored.version == game.version + 1


async def test_record_actions_appends_and_settles_prompts(repo):
    game = await _lobby(repo)
    await repo.write(
        changes.start(
            game.id,
            game.version,
            seed=42,
            state={"x": 1},
            seats=game.seats,
            at=repo.clock(),
        )
    )
    version = game.version + 1
    move = changes.record_actions(
        game.id,
        version,
        state={"x": 2},
        actions=[(0, "draw C3")],
        prompt=("place", 100),
        at=repo.clock(),
    )
    await repo.write(move)
    version = move.version
    assert [p["kind"] for p in await repo.open_prompts(game_id=game.id)] == ["place"]
    move = changes.record_actions(
        game.id,
        version,
        state={"x": 3},
        actions=[(0, "place here r0")],
        at=repo.clock(),
    )
    await repo.write(move)
    version = move.version
    assert await repo.open_prompts(game_id=game.id) == []
    assert await repo.actions(game_id=game.id) == [(0, "draw C3"), (0, "place here r0")]
    stored = await repo.game(game_id=game.id)
    assert stored.state == {"x": 3}
    assert stored.version == version


async def test_failed_transaction_changes_nothing(repo):
    game = await _lobby(repo)
    with pytest.raises(VersionConflict):
        await repo.write(
            changes.record_actions(
                game.id,
                game.version + 5,
                state={},
                actions=[(0, "x")],
                at=repo.clock(),
            )
        )
    assert await repo.actions(game_id=game.id) == []
    assert (await repo.game(game_id=game.id)).version == game.version


async def test_a_move_reads_nothing_once_its_game_is_in_memory(repo):
    """Every statement is a trip to the database thread; a busy bot cannot afford reads that
    only return what it wrote itself."""
    game = await _lobby(repo)
    await repo.write(
        changes.start(
            game.id,
            game.version,
            seed=42,
            state={"x": 1},
            seats=game.seats,
            at=repo.clock(),
        )
    )
    statements: list[str] = []
    with recording_reads(repo, statements):
        move = changes.record_actions(
            game.id,
            game.version + 1,
            state={"x": 2},
            actions=[(0, "a")],
            at=repo.clock(),
        )
        await repo.write(move)
        version = move.version
        by_id = await repo.game(game_id=game.id)
        by_channel = await repo.open_game_in_channel(channel_id=10)
    assert by_id == by_channel and by_id.state == {"x": 2} and by_id.version == version
    assert not [s for s in statements if s.lstrip().upper().startswith("SELECT")], statements
    # An ended game leaves memory: it is read from the database again.
    await repo.write(changes.set_status(game.id, version, status="finished", at=repo.clock()))
    assert await repo.open_game_in_channel(channel_id=10) is None
    assert (await repo.game(game_id=game.id)).status == "finished"


async def test_closing_waits_for_changes_already_under_way(database_url):
    """A move acknowledged just before shutdown is saved before the connection closes."""
    repo = await GameStore.open(database_url)
    games = [await _lobby(repo, channel) for channel in range(10, 15)]
    for game in games:
        await repo.write(
            changes.start(
                game.id,
                game.version,
                seed=1,
                state={"x": 0},
                seats=game.seats,
                at=repo.clock(),
            )
        )
    saves = [
        asyncio.create_task(
            repo.write(
                changes.record_actions(
                    game.id,
                    game.version + 1,
                    state={"x": 1},
                    actions=[(0, f"move in {game.channel_id}")],
                    at=repo.clock(),
                )
            )
        )
        for game in games
    ]
    await asyncio.sleep(0)  # every save has begun
    await repo.close()
    assert [len(await s) for s in saves] == [1 for _ in games], "each saved, owing its post"
    again = await GameStore.open(database_url)
    for game in games:
        assert await again.actions(game_id=game.id) == [(0, f"move in {game.channel_id}")]
    await again.close()


async def test_a_read_that_overlaps_a_change_is_not_kept_in_memory(repo):
    """A game read while a change to it commits may show it from before the change; keeping
    that copy would make the next move fail its compare-and-set for no reason. The read is
    taken apart here to put the change exactly in the middle of it."""
    game = await _lobby(repo)
    await repo.write(
        changes.start(
            game.id,
            game.version,
            seed=1,
            state={"x": 1},
            seats=game.seats,
            at=repo.clock(),
        )
    )
    repo.forget(game.id)
    writes_before = repo.cache.writes
    old_row = await repo.db.fetchrow("SELECT * FROM games WHERE id = ?", game.id)
    move = changes.record_actions(
        game.id,
        game.version + 1,
        state={"x": 2},
        actions=[(0, "a")],
        at=repo.clock(),
    )
    await repo.write(move)
    version = move.version
    stale = await repo._read(old_row, since=writes_before)
    assert stale is not None and stale.version == version - 1
    kept = await repo.game(game_id=game.id)
    assert (kept.version, kept.state) == (version, {"x": 2})


async def test_a_migration_skipped_by_a_later_one_is_still_applied(tmp_path):
    """A database that got migration 3 before migration 2 existed gets 2 at the next start."""
    path = tmp_path / "branch.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for number, sql in migrations("sqlite"):
        if number != 2:
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
    conn.commit()
    conn.close()

    repo = await GameStore.open(path)
    columns = set((await repo.db.columns())["games"])
    assert {"remind_minutes", "turn_since", "remind_at"} <= columns
    assert await repo.migrate() == max(n for n, _ in migrations("sqlite"))
    await repo.close()


async def _finish(repo: GameStore, channel: int, status: str = "finished") -> int:
    game = await _lobby(repo, channel)
    await repo.write(
        changes.start(
            game.id,
            game.version,
            seed=42,
            state={"x": 1},
            seats=game.seats,
            at=repo.clock(),
        )
    )
    await repo.write(
        changes.record_actions(
            game.id,
            game.version + 1,
            state={"x": 2},
            actions=[(0, "place K12")],
            status=status,
            at=repo.clock(),
        )
    )
    return game.id


async def test_finished_games_of_a_channel_latest_first(repo):
    first = await _finish(repo, 10)
    await _finish(repo, 11)  # another channel
    await _finish(repo, 10, status="abandoned")  # ended without a result
    latest = await _finish(repo, 10)
    await _lobby(repo, 10)  # open: not archived
    found = await repo.finished_games(channel_id=10)
    assert [a.game.id for a in found] == [latest, first]
    assert all(a.game.status == "finished" and a.ended_at for a in found)
    assert [s.display_name for s in found[0].game.seats] == ["Ada"]
    assert [a.game.id for a in await repo.finished_games(channel_id=10, limit=1)] == [latest]
    only = await repo.finished_games(channel_id=10, game_id=first)
    assert [a.game.id for a in only] == [first]
    assert await repo.finished_games(channel_id=11, game_id=first) == []
    assert await repo.finished_games(channel_id=12) == []


async def test_both_backends_migrate_from_empty_to_the_same_schema(tmp_path, postgres):
    """The same tables with the same columns in the same order, at the same schema version."""
    lite = await GameStore.open(tmp_path / "empty.sqlite3")
    pg = await GameStore.open(await new_postgres_database(postgres))
    try:
        assert await lite.db.columns() == await pg.db.columns()
        newest = max(n for n, _ in migrations("sqlite"))
        assert [n for n, _ in migrations("sqlite")] == [n for n, _ in migrations("postgresql")]
        assert await lite.schema_version() == await pg.schema_version() == newest
    finally:
        await lite.close()
        await pg.close()


async def test_processes_starting_together_migrate_once(empty_database_url):
    opened = await asyncio.gather(*(GameStore.open(empty_database_url) for _ in range(4)))
    try:
        rows = await opened[0].db.fetch("SELECT version FROM schema_version ORDER BY version")
        assert [r["version"] for r in rows] == [n for n, _ in migrations(opened[0].db.backend)]
    finally:
        for repo in opened:
            await repo.close()


async def test_discord_ids_beyond_32_bits_are_kept_exactly(repo):
    """Snowflakes are 64-bit: a server, channel or person id of today does not fit in 32."""
    big = 1_234_567_890_123_456_789
    game = await repo.create(
        changes.create_lobby(
            game="pylons",
            guild_id=big,
            channel_id=big + 1,
            creator_id=big + 2,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )
    again = await repo.open_game_in_channel(channel_id=big + 1)
    assert (again.guild_id, again.creator_id, again.seats[0].user_id) == (big, big + 2, big + 2)
    assert game.id == again.id


async def test_the_post_with_live_buttons_is_kept_until_the_game_moves_past_it(repo):
    """One board post per game has live buttons, for one version: a newer post replaces it,
    a post for a version the game is past never becomes it, and once the game moves on it is
    handed out once, for its buttons to go. Message ids are 64-bit snowflakes."""
    game = await _lobby(repo)
    first, second, late = 1_300_000_000_000_000_001, 1_300_000_000_000_000_002, 1_300_000_003
    assert await repo.buttons.keep(game_id=game.id, message_id=first, version=game.version) == []
    assert await repo.buttons.drop_stale(game_id=game.id) is None, "still live"
    # The same version shown again (/game board): the newer post has the live buttons.
    kept = await repo.buttons.keep(game_id=game.id, message_id=second, version=game.version)
    assert kept == [first]
    seats = [*game.seats, SeatRow(1, 200, None, "Bo")]
    await repo.write(changes.set_seats(game.id, game.version, seats=seats, at=repo.clock()))
    # A post made for the old version after the game moved on: its own buttons must go.
    assert await repo.buttons.keep(game_id=game.id, message_id=late, version=game.version) == [late]
    assert await repo.buttons.drop_stale(game_id=game.id) == second
    assert await repo.buttons.drop_stale(game_id=game.id) is None, "handed out once"


async def test_two_processes_take_stale_buttons_off_once(database_url):
    first = await GameStore.open(database_url)
    second = await GameStore.open(database_url)
    try:
        game = await _lobby(first)
        await first.buttons.keep(game_id=game.id, message_id=77, version=game.version)
        seats = [*game.seats, SeatRow(1, 200, None, "Bo")]
        await first.write(changes.set_seats(game.id, game.version, seats=seats, at=first.clock()))
        found = await asyncio.gather(
            *(r.buttons.drop_stale(game_id=game.id) for r in (first, second, first, second))
        )
        assert sorted(found, key=str) == [77, None, None, None]
    finally:
        for repository in (first, second):
            await repository.close()
