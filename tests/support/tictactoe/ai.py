"""Computer players for Tic-tac-toe, deciding from a view alone; registered with `engine.ai`.

Levels:
- `random`: any free cell (the level every game shares, `engine.ai.decide_random`).
- `easy`: completes its own three in a row if it can, else blocks the opponent's, else any
  free cell: it can be beaten by a fork.
- `normal`: perfect play by a full minimax over the game (under 6,000 positions, memoised):
  it never loses, and picks at random among the moves that keep the best result.
- `hard`: perfect play too; among the best moves it prefers those that leave the opponent
  the most replies that lose, so a careless opponent is punished sooner.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

from engine.ai import decide_random, register_agent
from tictactoe.rules import CELLS, GAME, GAME_NAME, LINES, TicTacToeState, winning_line

Board = tuple[int, ...]  # 0 empty, else seat + 1


def _board(view: Mapping[str, Any]) -> tuple[Board, int]:
    """The board and the seat to move, rebuilt from the view's history (the only truth)."""
    state = GAME.from_view(view, random.Random(0))
    assert isinstance(state, TicTacToeState)
    seat = state.current_seat()
    if seat is None:
        raise ValueError("The game is over: there is nothing to decide.")
    return tuple(state.board), seat


def _free(board: Board) -> list[int]:
    return [i for i, mark in enumerate(board) if not mark]


def _put(board: Board, cell: int, seat: int) -> Board:
    return (*board[:cell], seat + 1, *board[cell + 1 :])


@functools.cache
def value(board: Board, seat: int) -> int:
    """The result of the position for `seat`, who is to move, with perfect play on both
    sides: 1 a win, 0 a draw, -1 a loss."""
    best = -1
    free = _free(board)
    if not free:
        return 0
    for cell in free:
        after = _put(board, cell, seat)
        if winning_line(list(after)) is not None:
            return 1
        result = -value(after, 1 - seat) if _free(after) else 0
        best = max(best, result)
        if best == 1:
            break
    return best


def _move_value(board: Board, cell: int, seat: int) -> int:
    after = _put(board, cell, seat)
    if winning_line(list(after)) is not None:
        return 1
    return -value(after, 1 - seat) if _free(after) else 0


def best_moves(board: Board, seat: int) -> list[int]:
    """Every free cell that keeps the best result `seat` can force."""
    scored = {cell: _move_value(board, cell, seat) for cell in _free(board)}
    top = max(scored.values())
    return [cell for cell, result in scored.items() if result == top]


def _losing_replies(board: Board, cell: int, seat: int) -> int:
    """How many of the opponent's replies after `cell` lose against perfect play."""
    after = _put(board, cell, seat)
    if winning_line(list(after)) is not None:
        return len(CELLS)  # won at once: nothing is better
    return sum(1 for reply in _free(after) if _move_value(after, reply, 1 - seat) == -1)


def _threat(board: Board, seat: int) -> int | None:
    """A free cell that completes a line of `seat`, if any."""
    own = seat + 1
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(own) == 2 and marks.count(0) == 1:
            return line[marks.index(0)]
    return None


def decide_easy(
    view: Mapping[str, Any], *, rng: random.Random, budget_s: float | None, iterations: int | None
) -> str:
    board, seat = _board(view)
    for who in (seat, 1 - seat):
        cell = _threat(board, who)
        if cell is not None:
            return f"mark {CELLS[cell]}"
    return f"mark {CELLS[rng.choice(_free(board))]}"


def decide_normal(
    view: Mapping[str, Any], *, rng: random.Random, budget_s: float | None, iterations: int | None
) -> str:
    board, seat = _board(view)
    return f"mark {CELLS[rng.choice(best_moves(board, seat))]}"


def decide_hard(
    view: Mapping[str, Any], *, rng: random.Random, budget_s: float | None, iterations: int | None
) -> str:
    board, seat = _board(view)
    best = best_moves(board, seat)
    traps = {cell: _losing_replies(board, cell, seat) for cell in best}
    most = max(traps.values())
    return f"mark {CELLS[rng.choice([cell for cell in best if traps[cell] == most])]}"


register_agent(GAME_NAME, "random", decide_random, "marks any free cell")
register_agent(GAME_NAME, "easy", decide_easy, "wins or blocks when it sees a line, else guesses")
register_agent(GAME_NAME, "normal", decide_normal, "plays perfectly: it never loses")
register_agent(GAME_NAME, "hard", decide_hard, "plays perfectly and sets traps")

__all__ = ["best_moves", "decide_easy", "decide_hard", "decide_normal", "value"]
