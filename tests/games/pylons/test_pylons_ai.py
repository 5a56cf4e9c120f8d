"""Pylons computer players: legal moves from a view alone, budgets kept, wins taken, and the
`normal` player clearly better than chance."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.ai import choose, levels
from games.pylons.ai import FAR, Board, Search
from games.pylons.rules import GAME, PylonsState
from games.pylons.rules.board import CELL_INDEX


def midgame(seed: int, moves: int, swamps: str = "on") -> PylonsState:
    state = GAME.new_state(2, seed, {"swamps": swamps})
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(state.sample_action(rng))
    return state


@pytest.mark.parametrize("level", ["random", "normal", "hard"])
@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 1), (3, 15), (4, 80)])
def test_every_level_returns_a_legal_action(level, seed, moves):
    state = midgame(seed, moves)
    text = choose(state.view(state.current_seat()), level=level, seed=5, iterations=60)
    legal = {a.text() for a in state.legal_actions()}
    assert text in legal


def test_the_board_choice_is_keep_or_mirror():
    for seed in range(5):
        state = GAME.new_state(2, seed)
        assert choose(state.view(0), level="normal", seed=1) in ("keep", "mirror")


def test_players_decide_from_the_view_alone():
    """A view rebuilt from JSON, with no seed anywhere, gives the same decision."""

    state = midgame(9, 21)
    view = state.view(state.current_seat())
    assert "seed" not in json.dumps(view)
    again = json.loads(json.dumps(view))
    assert choose(view, level="hard", seed=3, iterations=150) == choose(
        again, level="hard", seed=3, iterations=150
    )


def test_hard_with_iterations_is_deterministic():
    state = midgame(11, 31)
    view = state.view(state.current_seat())
    first = choose(view, level="hard", seed=2, iterations=400)
    assert first == choose(view, level="hard", seed=2, iterations=400)
    assert first in {a.text() for a in state.legal_actions()}


@pytest.mark.parametrize(("seed", "moves", "swamps"), [(21, 9, "on"), (22, 24, "off")])
def test_hard_searching_deeper_is_legal_and_deterministic(seed, moves, swamps):
    """With a bound that lets it search four moves deep and more, hard decides the same from
    the same seed and bound, from the view or its JSON copy, and legally."""
    state = midgame(seed, moves, swamps)
    view = state.view(state.current_seat())
    again = json.loads(json.dumps(view))
    first = choose(view, level="hard", seed=4, iterations=1500)
    assert first == choose(again, level="hard", seed=4, iterations=1500)
    assert first in {a.text() for a in state.legal_actions()}


def test_hard_makes_no_more_evaluations_than_its_bound(monkeypatch):
    """The bound is what makes hard reproducible: every evaluation counts against it, in the
    deeper searches too, and the search stops at it."""
    made = []
    spend = Search.spend

    def counted(self):
        spend(self)  # raises once the bound is used up, before counting
        made.append(1)

    monkeypatch.setattr(Search, "spend", counted)
    state = midgame(23, 30, "off")
    choose(state.view(state.current_seat()), level="hard", seed=1, iterations=700)
    assert len(made) == 700  # the two-move search alone takes a few hundred: all were used


@pytest.mark.parametrize("budget", [0.05, 0.3])
def test_hard_keeps_to_its_time_budget(budget):
    state = midgame(12, 40)
    started = time.perf_counter()
    choose(state.view(state.current_seat()), level="hard", seed=1, budget_s=budget)
    assert time.perf_counter() - started < budget + 0.25


def chain_missing_last() -> PylonsState:
    """Blue links A11 to W12 in twelve pylons; X14 (or X10) would finish it."""
    chain = ["A11", "C12", "E11", "G12", "I11", "K12", "M11", "O12", "Q11", "S12", "U11", "W12"]
    state = GAME.new_state(2, 1, {"swamps": "off"})
    for k, cell in enumerate(chain):
        state.apply(f"place {cell}")
        state.apply(f"place {chr(66 + k)}20")
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_winning_move_is_taken(level):
    state = chain_missing_last()
    text = choose(state.view(0), level=level, seed=1, iterations=500)
    state.apply(text)
    assert state.outcome() is not None and state.outcome().winners == (0,)


def test_hard_blocks_a_win_in_one():
    """Blue's chain lacks K12 only (red holds K10, the other cell bridging I11 and M11)."""
    chain = ["A11", "C12", "E11", "G12", "I11", "M11", "O12", "Q11", "S12", "U11", "W12", "X14"]
    red = ["K10", *(f"{column}20" for column in "BCDEFGHIJK")]
    state = GAME.new_state(2, 1, {"swamps": "off"})
    for k, cell in enumerate(chain):
        state.apply(f"place {cell}")
        if k < len(red):
            state.apply(f"place {red[k]}")
    board = Board(state)
    winning = []
    for c in state.free_cells(0):
        made = board.place(c, 0)
        if board.distance(0) == 0:
            winning.append(c)
        board.undo(c, made)
    assert winning == [CELL_INDEX["K12"]]
    for level in ("normal", "hard"):
        after = state.copy()
        after.apply(choose(state.view(1), level=level, seed=1, iterations=3000))
        assert Board(after).distance(0) >= 2, level  # no win in one any more


def win_in_three(state: PylonsState) -> int | None:
    """A cell from which the side to move wins whatever the reply: after it, every legal
    reply leaves the mover one pylon from linking its borders (found by trying them all).

    A pylon shortens a distance by one at most, so such a cell lies on a shortest
    connection, and only those need trying."""
    seat = state.current_seat()
    board = Board(state)
    distance, cells = board.on_shortest(seat)
    if distance != 2:
        return None
    replies = state.free_cells(1 - seat)
    for c in sorted(cells):
        made = board.place(c, seat)
        forced = board.distance(seat) == 1
        for r in replies if forced else ():
            if r != c:
                answer = board.place(r, 1 - seat)
                forced = board.distance(1 - seat) > 0 and board.distance(seat) == 1
                board.undo(r, answer)
                if not forced:
                    break
        board.undo(c, made)
        if forced:
            return c
    return None


def double_threat_coming() -> PylonsState:
    """Blue to move; red needs two pylons to link R5 to row 1, and red's S3 would open two
    ways there (to R1 and to T1), of which blue could then close only one."""
    moves = "N12 L11 L13 K13 J14 I14 H15 G15 F16 E16 D17 P13 C15 O11 O10 P9 A16 Q7 N14 O15"
    moves += " O16 P17 P18 Q19 Q20 R21 P5 S23 R4 Q24 V6 T5 Q6 O8 X5 R5"
    state = GAME.new_state(2, 139)  # swamps dealt from the seed, clear of these cells
    state.apply("keep")
    for cell in moves.split():
        state.apply(f"place {cell}")
    return state


def test_hard_sees_a_double_threat_coming_that_two_moves_deep_cannot():
    """Two moves deep, S3 looks like any threat to be blocked when it comes: normal (and the
    wider two-move search hard used to be) plays elsewhere and loses by force. Four moves
    deep, hard sees red's win in three and closes the way first."""
    state = double_threat_coming()
    assert state.current_seat() == 0 and Board(state).distance(1) == 2
    view = state.view(0)
    walked_in = state.copy()
    walked_in.apply(choose(view, level="normal", seed=1))
    assert win_in_three(walked_in) == CELL_INDEX["S3"]
    for seed in (1, 2):
        blocked = state.copy()
        blocked.apply(choose(view, level="hard", seed=seed, iterations=2500))
        assert not blocked.is_terminal() and win_in_three(blocked) is None
        assert Board(blocked).distance(1) >= 2  # red cannot win at once either


def test_the_connection_distance_counts_missing_pylons():
    state = GAME.new_state(2, 1, {"swamps": "off"})
    board = Board(state)
    assert board.distance(0) == board.distance(1) == 13
    state = chain_missing_last()
    assert Board(state).distance(0) == 1
    assert Board(state).distance(1) == FAR  # blue's links wall red off from row 1


def test_the_levels_are_registered_with_the_ai_registry():
    assert levels("pylons") == ["random", "easy", "normal", "hard"]
    assert "hard" in levels("high-voltage")  # the other game's players are untouched


def test_an_unknown_level_or_a_finished_game_is_refused():
    with pytest.raises(KeyError, match="grandmaster"):
        choose(GAME.new_state(2, 1).view(0), level="grandmaster", seed=1)
    state = chain_missing_last()
    state.apply("place X14")
    with pytest.raises(ValueError, match="own seat"):
        choose(state.view(0), level="normal", seed=1)


def test_normal_beats_random():
    wins = 0
    for game in range(4):
        normal_seat = game % 2
        state = GAME.new_state(2, 40 + game)
        while not state.is_terminal():
            seat = state.current_seat()
            level = "normal" if seat == normal_seat else "random"
            state.apply(choose(state.view(seat), level=level, seed=game))
        wins += state.outcome().winners == (normal_seat,)
    assert wins == 4
