"""Pylons over random games: the incremental bookkeeping (networks, scores, crossing counts,
free cells) always equals a recount from scratch, no two links ever cross, and games replay
and survive JSON exactly."""

from __future__ import annotations

import json
import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pylons import GAME, PylonsState
from engine.pylons.board import (
    CELLS,
    COL,
    CORNERS,
    CROSSES,
    LINK_A,
    LINK_B,
    LINKS,
    NEIGHBOURS,
    ROW,
    border_owner,
    segments_cross,
)


def random_game(seed: int, moves: int, swamps: bool) -> PylonsState:
    state = GAME.new_state(2, seed, {"swamps": "on" if swamps else "off"})
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    return state


def components(state: PylonsState) -> list[set[int]]:
    """Networks found from scratch: a search over the links on the board."""
    adjacent: dict[int, list[int]] = {c: [] for c in state.order}
    for link in state.links:
        a, b = LINK_A[link], LINK_B[link]
        adjacent[a].append(b)
        adjacent[b].append(a)
    seen: set[int] = set()
    found = []
    for start in state.order:
        if start in seen:
            continue
        group = {start}
        queue = deque([start])
        while queue:
            for n in adjacent[queue.popleft()]:
                if n not in group:
                    group.add(n)
                    queue.append(n)
        seen |= group
        found.append(group)
    return found


def ends(link: int) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = LINK_A[link], LINK_B[link]
    return (COL[a], ROW[a]), (COL[b], ROW[b])


games = st.tuples(st.integers(0, 10_000), st.integers(0, 200), st.booleans())


@settings(max_examples=40, deadline=None)
@given(games)
def test_bookkeeping_equals_a_recount(game):
    state = random_game(*game)
    groups = components(state)
    # union-find networks are exactly the linked groups
    for group in groups:
        assert len({state.find(c) for c in group}) == 1
    roots = [state.find(next(iter(g))) for g in groups]
    assert len(set(roots)) == len(groups)
    # every network has one owner; the score is its largest span, per player
    best = [0, 0]
    for group in groups:
        owners = {state.owner[c] for c in group}
        assert len(owners) == 1
        seat = owners.pop() - 1
        axis = COL if seat == 0 else ROW
        best[seat] = max(best[seat], max(axis[c] for c in group) - min(axis[c] for c in group))
    assert state.scores == best
    # crossing counts
    present = set(state.links)
    for link in range(LINKS):
        assert state.crossed[link] == sum(1 for other in CROSSES[link] if other in present)
    # the free cells of each seat
    for seat in (0, 1):
        expected = sorted(
            c
            for c in range(CELLS)
            if c not in CORNERS
            and not state.swamp[c]
            and not state.owner[c]
            and border_owner(c) in (None, seat)
        )
        assert state.free_cells(seat) == expected
        for k, c in enumerate(state.free[seat]):
            assert state.free_pos[seat][c] == k


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_two_links_cross_and_every_possible_link_is_made(game):
    state = random_game(*game)
    links = state.links
    for x, a in enumerate(links):
        for b in links[x + 1 :]:
            assert not segments_cross(*ends(a), *ends(b))
    # own pylons a knight apart are linked unless a link on the board crosses that link
    present = set(links)
    for c in state.order:
        for n, link in NEIGHBOURS[c]:
            if state.owner[n] == state.owner[c]:
                crossing = any(other in present for other in CROSSES[link])
                assert (link in present) != crossing
            else:
                assert link not in present


@settings(max_examples=25, deadline=None)
@given(games)
def test_replay_json_and_clone_give_the_same_game(game):
    seed, moves, swamps = game
    state = random_game(seed, moves, swamps)
    options = {"swamps": "on" if swamps else "off"}
    assert GAME.replay(2, seed, state.history, options) == state
    assert GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    copy = state.clone()
    assert copy == state
    view = json.loads(json.dumps(state.view(None)))
    assert PylonsState.from_view(view).view(None) == view
    if not state.is_terminal():
        rng = random.Random(1)
        copy.apply(copy.sample_action(rng))
        assert copy != state and copy.history[:-1] == state.history


def test_random_games_always_end_by_a_rule():
    reasons = set()
    for seed in range(60):
        state = random_game(seed, 10_000, seed % 2 == 0)
        outcome = state.outcome()
        assert outcome is not None and outcome.winners
        reasons.add(outcome.reason)
        if outcome.reason == "pylon_limit":
            assert len(state.order) == 200
    assert "pylon_limit" in reasons
