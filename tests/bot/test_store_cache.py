"""The game store keeps a game's row and its engine state as one entry, on both backends: a
move leaves both, a change of seats keeps the state it did not touch, and a compare-and-set
that fails drops both, so no stale state outlives its row."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import State
from games import find_game
from hvbot.store import GameRow, GameStore, SeatRow, VersionConflict, changes
from hvbot.store.cache import GameCache

CHANNEL = 40


@pytest.fixture
async def store(database_url):
    opened = await GameStore.open(database_url)
    yield opened
    await opened.close()


async def _started(store: GameStore) -> tuple[GameRow, State]:
    lobby = await store.create(
        changes.create_lobby(
            game="high-voltage",
            guild_id=1,
            channel_id=CHANNEL,
            creator_id=100,
            creator_name="Ada",
            options={},
            at=store.clock(),
        )
    )
    seats = [*lobby.seats, SeatRow(1, 200, None, "Bo")]
    state = find_game("high-voltage").new_state(2, 5)
    await store.write(
        changes.start(
            lobby.id,
            lobby.version,
            seed=5,
            state=state,
            seats=seats,
            at=store.clock(),
        )
    )
    game = await store.game(game_id=lobby.id)
    assert game is not None
    return game, state


def _moved(state: State, seed: int) -> State:
    after = state.copy()
    after.apply(after.sample_action(random.Random(seed)))
    return after


async def test_a_stored_move_leaves_its_state_with_its_row(store):
    game, state = await _started(store)
    assert store.peek_state(game) is state, "the started state is kept, not rebuilt"
    after = _moved(state, 1)
    move = changes.record_actions(
        game.id,
        game.version,
        state=after,
        actions=[(0, "a")],
        at=store.clock(),
    )
    await store.write(move)
    version = move.version
    moved = await store.open_game_in_channel(channel_id=CHANNEL)
    assert moved is not None and moved.version == version
    assert store.peek_state(moved) is after
    assert store.load_state(moved) is not after and store.load_state(moved) == after
    # The row of before is out of date: its state is rebuilt from its own saved form.
    assert store.peek_state(game) == state and store.peek_state(game) is not state


async def test_a_change_of_seats_keeps_the_state_it_left_alone(store):
    game, state = await _started(store)
    seats = [game.seats[0], SeatRow(1, None, "easy", "AI 1")]
    await store.write(changes.set_seats(game.id, game.version, seats=seats, at=store.clock()))
    reseated = await store.game(game_id=game.id)
    assert reseated is not None and reseated.version == game.version + 1
    assert store.peek_state(reseated) is state


async def test_a_failed_compare_and_set_drops_the_row_and_the_state_together(database_url):
    """Two processes on one database: the one that lost the race forgets its copy whole, and
    reads the other's move, state included, afresh."""
    first, second = await GameStore.open(database_url), await GameStore.open(database_url)
    try:
        game, state = await _started(first)
        seen = await second.game(game_id=game.id)
        assert seen is not None and second.peek_state(seen) == state
        theirs = _moved(state, 1)
        await first.write(
            changes.record_actions(
                game.id,
                game.version,
                state=theirs,
                actions=[(0, "a")],
                at=first.clock(),
            )
        )
        with pytest.raises(VersionConflict):
            await second.write(
                changes.record_actions(
                    game.id,
                    seen.version,
                    state=_moved(state, 2),
                    actions=[(0, "b")],
                    at=second.clock(),
                )
            )
        assert second.cache.row(game.id) is None and second.cache.state(seen) is None
        fresh = await second.game(game_id=game.id)
        assert fresh is not None and fresh.version == game.version + 1
        assert second.peek_state(fresh) == theirs
    finally:
        await first.close()
        await second.close()


async def test_a_state_let_go_is_built_again_from_the_saved_form_as_it_was(store):
    """Only the states of the games played most lately are kept: a game played every few
    minutes finds its state gone at its next move, and gets it back whole from its row."""
    game, state = await _started(store)
    store.cache.kept_states = 1
    assert store.peek_state(game) is store.peek_state(game), "kept while it is the latest"
    other = GameRow(**{**game.__dict__, "id": game.id + 1000, "channel_id": CHANNEL + 1})
    store.cache.read(other, since=store.cache.writes)
    store.peek_state(other)  # the latest now: the first game's state is let go
    assert store.cache.state(game) is None and store.cache.row(game.id) == game
    rebuilt = store.peek_state(game)
    assert rebuilt.to_dict() == state.to_dict()
    moved = _moved(rebuilt, seed=3)
    assert moved.to_dict() == _moved(state, seed=3).to_dict(), "it plays on as the kept one"


async def test_only_the_latest_used_states_are_kept_but_every_open_row_is(store):
    game, state = await _started(store)
    cache = GameCache(kept_states=2)
    rows = [
        cache.read(GameRow(**{**game.__dict__, "id": n, "channel_id": n}), since=0)
        for n in (1, 2, 3)
    ]
    for row in rows:
        cache.keep_state(row, state.copy())
    assert [cache.row(r.id) for r in rows] == rows
    assert cache.state(rows[0]) is None, "the least recently used state went"
    assert cache.state(rows[1]) is not None and cache.state(rows[2]) is not None
    assert cache.in_channel(3) == rows[2]
    cache.forget(3)
    assert cache.row(3) is None and cache.state(rows[2]) is None and cache.in_channel(3) is None


async def test_a_read_is_kept_though_another_game_changed_meanwhile(store):
    """With hundreds of games opened at once a change commits during nearly every read: a
    read is left out of memory only when its own game changed meanwhile, or the watch began
    listening again, not when any game did."""
    game, _ = await _started(store)
    cache = GameCache()
    first = GameRow(**{**game.__dict__, "id": 1, "channel_id": 1})
    second = GameRow(**{**game.__dict__, "id": 2, "channel_id": 2})
    began = cache.writes
    cache.changed(2, version=second.version + 1)  # not held: only noted
    cache.forget(3)
    assert cache.read(first, since=began) is first and cache.row(1) == first
    began = cache.writes
    cache.changed(2, version=second.version + 1)
    cache.read(second, since=began - 1)  # begun before its game's change: maybe stale
    assert cache.row(2) is None
    began = cache.writes
    cache.forget(1)
    cache.read(first, since=began)  # its game was dropped meanwhile (another process)
    assert cache.row(1) is None
    began = cache.writes
    cache.restarted()  # the watch missed whatever happened while it did not listen
    cache.read(first, since=began)
    assert cache.row(1) is None
    cache.read(first, since=cache.writes)
    assert cache.row(1) == first


async def test_a_read_of_a_game_whose_change_was_forgotten_is_not_kept(store, monkeypatch):
    """The latest change of at most KEPT_CHANGES games is remembered: a read begun before
    the latest one forgotten may predate that game's change, and is not kept."""
    monkeypatch.setattr("hvbot.store.cache.KEPT_CHANGES", 2)
    game, _ = await _started(store)
    cache = GameCache()
    first = GameRow(**{**game.__dict__, "id": 1, "channel_id": 1})
    began = cache.writes
    for game_id in (1, 2, 3):  # game 1's change is forgotten
        cache.changed(game_id, version=9)
    cache.read(first, since=began)
    assert cache.row(1) is None
    cache.read(first, since=cache.writes)
    assert cache.row(1) == first


async def test_a_change_made_on_another_version_than_the_kept_one_drops_the_copy(store):
    """A process commits version 6 of a game; before its change is noted here, another
    process's version 7 is read and kept. Noting version 6 over it would keep a row of two
    versions, marked current: the copy is dropped instead, and the next look reads the game."""
    game, _ = await _started(store)
    cache = GameCache()
    newer = replace(game, version=game.version + 2, lobby_message_id=77)
    cache.read(newer, since=cache.writes)
    assert cache.row(game.id) == newer
    cache.changed(game.id, version=game.version + 1)
    assert cache.row(game.id) is None
    cache.read(newer, since=cache.writes)
    cache.changed(game.id, version=newer.version + 1)
    kept = cache.row(game.id)
    assert kept is not None and kept.version == newer.version + 1
