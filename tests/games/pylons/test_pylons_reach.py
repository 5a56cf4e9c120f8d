"""The bitboard connection distances of the Pylons players equal a plain cell-by-cell 0-1
breadth-first search, on random positions of both swamp settings and through place and
undo, and the cells they call shortest are exactly those a search from each border finds."""

from __future__ import annotations

import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from pylons_positions import random_game

from games.pylons.rules.board import CELLS, COL, LAST, NEIGHBOURS, ROW
from games.pylons.rules.reach import FAR, Board


def plain_field(board: Board, seat: int, backwards: bool) -> list[int]:
    """Cost of the cheapest way from one border to every cell, the cell included."""
    own, axis = seat + 1, (COL if seat == 0 else ROW)
    usable = board.open[seat]
    dist = [FAR] * CELLS
    queue: deque[int] = deque()
    for c in range(CELLS):
        if axis[c] == (LAST if backwards else 0) and usable[c]:
            o = board.owner[c]
            if o in (0, own):
                dist[c] = 0 if o else 1
                queue.append(c)
    while queue:
        u = queue.popleft()
        for v, link in NEIGHBOURS[u]:
            o = board.owner[v]
            if board.crossed[link] or not usable[v] or o not in (0, own):
                continue
            step = 0 if o else 1
            if dist[u] + step < dist[v]:
                dist[v] = dist[u] + step
                if step:
                    queue.append(v)
                else:
                    queue.appendleft(v)
    return dist


def plain_answer(board: Board, seat: int) -> tuple[int, set[int]]:
    ahead, behind = plain_field(board, seat, False), plain_field(board, seat, True)
    axis = COL if seat == 0 else ROW
    best = min(ahead[c] for c in range(CELLS) if axis[c] == LAST)
    if best >= FAR:
        return FAR, set()
    cells = {c for c in range(CELLS) if not board.owner[c] and ahead[c] + behind[c] - 1 == best}
    return best, cells


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 160), st.booleans())
def test_bitboard_distances_equal_a_plain_search(seed, moves, swamps):
    state = random_game(seed, moves, swamps)
    board = Board(state)
    rng = random.Random(seed)
    trail = []
    for step in range(6):  # place some pylons, checking as they come, then take them back
        for seat in (0, 1):
            expected = plain_answer(board, seat)
            assert board.distance(seat) == expected[0]
            assert board.on_shortest(seat) == expected
        free = [c for c in range(CELLS) if board.legal(step % 2, c)]
        if not free:
            break
        c = rng.choice(free)
        trail.append((c, board.place(c, step % 2)))
    while trail:
        c, made = trail.pop()
        board.undo(c, made)
    fresh = Board(state)
    assert board.steps == fresh.steps and board.mine == fresh.mine
    assert board.crossed == fresh.crossed and board.owner == fresh.owner
