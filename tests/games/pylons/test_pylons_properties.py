"""Pylons over random games: the incremental bookkeeping (networks, scores, crossing counts,
free cells) always equals a recount from scratch, no two links ever cross, and games replay
and survive JSON exactly."""

from __future__ import annotations

import json
import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from pylons_positions import random_game

from games.pylons.rules import GAME, PylonsState
from games.pylons.rules.actions import PLACE
from games.pylons.rules.board import (
    CELL_INDEX,
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
    assert_free_cells_recounted(state)


def free_from_scratch(state: PylonsState, seat: int) -> list[int]:
    """The cells `seat` may build on, by the rules, from the board alone."""
    return [
        c
        for c in range(CELLS)
        if c not in CORNERS
        and not state.swamp[c]
        and not state.owner[c]
        and border_owner(c) in (None, seat)
    ]


def assert_free_cells_recounted(state: PylonsState) -> None:
    """The legal cells kept move by move are the rules' cells, in cell order, for both seats,
    and `legal_actions` hands out exactly those of the seat to move."""
    for seat in (0, 1):
        expected = free_from_scratch(state, seat)
        assert state.free_cells(seat) == expected
        assert state.moves[seat] == [PLACE[c] for c in expected]
        free = set(expected)
        assert [bool(state.open[seat][c]) and not state.owner[c] for c in range(CELLS)] == [
            c in free for c in range(CELLS)
        ]
    if state.phase == "play":
        expected = free_from_scratch(state, state.seat)
        assert state.legal_actions() == [PLACE[c] for c in expected]


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
def test_replay_json_and_copy_give_the_same_game(game):
    seed, moves, swamps = game
    state = random_game(seed, moves, swamps)
    options = {"swamps": "on" if swamps else "off"}
    assert GAME.replay(2, seed, state.history, options) == state
    assert GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    copy = state.copy()
    assert copy == state
    view = json.loads(json.dumps(state.view(None)))
    assert PylonsState.from_view(view).view(None) == view
    if not state.is_terminal():
        rng = random.Random(1)
        copy.apply(copy.sample_action(rng))
        assert copy != state and copy.history[:-1] == state.history


@settings(max_examples=30, deadline=None)
@given(st.booleans(), st.integers(0, 10_000), st.lists(st.floats(0, 1, exclude_max=True)))
def test_legal_cells_kept_move_by_move_equal_a_recount(swamps, seed, picks):
    """Any sequence of legal moves (chosen from `legal_actions`, the board choice included),
    on both swamp settings: after every move the kept lists equal a recount, a copy's lists
    are its own, and a save or a view rebuilds the same lists."""
    state = GAME.new_state(2, seed, {"swamps": "on" if swamps else "off"})
    for pick in picks[:220]:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        before = state.copy()
        state.apply(legal[int(pick * len(legal))])
        assert before.legal_actions() == legal  # the copy did not move with the original
        assert_free_cells_recounted(state)
    for again in (
        GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))),
        PylonsState.from_view(json.loads(json.dumps(state.view(None)))),
        state.copy(),
    ):
        assert again.free == state.free and again.moves == state.moves
        assert again.legal_actions() == state.legal_actions()


def test_legal_actions_are_a_fresh_list_in_cell_order():
    """Callers may keep or change the list they are given without touching the game."""
    state = GAME.new_state(2, 3, {"swamps": "off"})
    first = state.legal_actions()
    first.clear()
    names = [a.text() for a in state.legal_actions()]
    assert names[:3] == ["place A2", "place B2", "place C2"]  # row 1 is red's border
    assert len(names) == 24 * 24 - 4 - 2 * 22  # no corners, not red's two border rows
    assert names == sorted(names, key=lambda t: CELL_INDEX[t.split()[1]])


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
