"""The games in memory keep each row's saved state compressed: a High Voltage game's 3-5 kB of
JSON took as much of the bot's memory again as its built state. A row handed out has it back
as stored, after a change of other columns too, and a new saved state replaces it."""

from __future__ import annotations

import json
import random
import tracemalloc
from dataclasses import replace

from engine import State
from games import find_game
from hvbot.store import GameRow, SeatRow
from hvbot.store.cache import GameCache

GAMES = 300


def played(seed: int, moves: int = 30) -> State:
    state = find_game("high-voltage").new_state(2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def row(game_id: int, state: State) -> GameRow:
    return GameRow(
        id=game_id,
        game_name="high-voltage",
        guild_id=1,
        channel_id=1000 + game_id,
        creator_id=100,
        status="active",
        seed=game_id,
        options={},
        state_json=json.dumps(state.to_dict()),
        version=12,
        lobby_message_id=None,
        seats=(SeatRow(0, 100, None, "Ada"), SeatRow(1, 200, None, "Bo")),
    )


def test_a_kept_rows_saved_state_takes_a_fraction_of_its_text() -> None:
    states = [played(n) for n in range(1, GAMES + 1)]
    cache = GameCache()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows = [row(n, state) for n, state in enumerate(states, 1)]
        text = sum(len(r.state_json or "") for r in rows) / GAMES
        for r in rows:
            cache.read(r, since=cache.writes)
        first = rows[0]
        del rows, r  # what the cache holds alone, as once a read's callers are done
        held = (tracemalloc.get_traced_memory()[0] - before) / GAMES
    finally:
        tracemalloc.stop()
    assert text > 3000, "as large as a game's saved state in play"
    assert held < text / 2, f"{held:.0f} bytes a game kept for {text:.0f} of saved state"
    again = [row(n, state) for n, state in enumerate(states, 1)]
    assert all(cache.row(r.id) == r for r in again), "handed out as stored"
    assert cache.in_channel(first.channel_id) == first


def test_the_saved_state_follows_the_changes() -> None:
    cache = GameCache()
    first = row(5, played(5))
    cache.read(first, since=cache.writes)
    cache.changed(5, clock_deadline="2026-11-29T20:00:00")
    assert cache.row(5) == replace(first, clock_deadline="2026-11-29T20:00:00")
    moved = played(5, moves=31)
    later = json.dumps(moved.to_dict())
    cache.changed(5, moved, version=13, state_json=later)
    found = cache.row(5)
    assert found is not None and found.state_json == later and found.version == 13
    assert cache.state(found) is moved
    cache.forget(5)
    assert cache.row(5) is None
    cache.read(replace(first, state_json=None, status="lobby"), since=cache.writes)
    lobby = cache.row(5)
    assert lobby is not None and lobby.state_json is None, "a lobby has no saved state"
