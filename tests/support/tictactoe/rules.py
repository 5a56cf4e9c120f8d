"""Tic-tac-toe: two players take turns marking a free cell of a 3x3 board, X first; three of
one's own marks in a row, a column or a diagonal win, and a full board without one is a draw.

The rules as the engine contract asks for them (`engine.core`): actions are frozen
dataclasses with one text form (`mark B2`), a refusal names what was wrong and the cells that
are free, a view holds the whole position (the game has no secrets) without the seed, and the
saved form is the deal plus the history, checked against the board it stores.

Cells are named as on the other games' boards: columns A-C west to east, rows 1-3 north to
south, so A1 is the top left corner and B2 the centre.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import OVER, Action, Game, Outcome, State, check_saved_format
from engine.errors import GameError, IllegalActionError, check_length, unreadable

GAME_NAME = "tic-tac-toe"
TABLE = "tictactoe"  # where the language files keep this game's texts
STATE_FORMAT = "tic-tac-toe-state"
STATE_VERSION = 1
VIEW_VERSION = 1

SIZE = 3
COLUMNS = "ABC"
CELLS: tuple[str, ...] = tuple(f"{c}{r}" for r in range(1, SIZE + 1) for c in COLUMNS)
INDEX = {name: i for i, name in enumerate(CELLS)}
MARKS = ("X", "O")  # seat 0 plays X and moves first
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
PLAY = "play"  # the one phase before OVER
END_LINE, END_FULL = "three_in_a_row", "board_full"
EXAMPLES = "mark B2 · B2"


@dataclass(frozen=True)
class Mark(Action):
    """Put the mover's mark on `cell` (a name such as "B2")."""

    kind: ClassVar[str] = "mark"
    cell: str

    def text(self) -> str:
        return f"mark {self.cell}"


MARK: tuple[Mark, ...] = tuple(Mark(c) for c in CELLS)


def _bad(text: str, why: str, reason: str, **fields: Any) -> GameError:
    return unreadable(TABLE, text, why, reason, EXAMPLES, **fields)


def _cell(word: str, text: str) -> Mark:
    found = INDEX.get(word.upper())
    if found is None:
        raise _bad(text, f"{word!r} is not a cell; cells run from A1 to C3", "cell", word=word)
    return MARK[found]


def parse_action(text: str) -> Mark:
    """The one reader of the game's action text: `mark B2`, or the bare cell `B2` (case and
    extra spaces ignored)."""
    check_length(text, EXAMPLES)
    words = text.strip().split()
    if not words:
        raise _bad(text, "it is empty", "empty")
    verb, args = words[0].lower(), words[1:]
    if verb == "mark":
        if len(args) != 1:
            raise _bad(text, "mark takes one cell", "mark")
        return _cell(args[0], text)
    if len(words) == 1 and words[0].upper() in INDEX:
        return _cell(words[0], text)
    raise _bad(text, f"{words[0]!r} is not an action", "verb", verb=words[0])


def winning_line(board: list[int]) -> tuple[int, int, int] | None:
    """The first line of three equal marks on `board` (0 empty, else seat + 1), if any."""
    for line in LINES:
        a, b, c = line
        if board[a] and board[a] == board[b] == board[c]:
            return line
    return None


class TicTacToeState(State):
    """One position. Create with `GAME.new_state(2, seed)`."""

    game: ClassVar[Game]
    view_version = VIEW_VERSION
    target_options = ("mark.cell",)

    def __init__(self, seed: int) -> None:
        super().__init__(2, seed)
        self.phase = PLAY
        self.board = [0] * len(CELLS)  # 0 empty, else seat + 1
        self.line: tuple[int, int, int] | None = None

    # ------------------------------------------------------------------ the rules

    def free_cells(self) -> list[str]:
        """The cells still empty, in reading order (A1, B1, C1, A2, ...)."""
        return [CELLS[i] for i, mark in enumerate(self.board) if not mark]

    def legal_actions(self) -> list[Mark]:
        if self.is_terminal():
            return []
        return [MARK[i] for i, mark in enumerate(self.board) if not mark]

    def sample_action(self, rng: random.Random) -> Mark:
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        return legal[int(rng.random() * len(legal))]

    def _apply(self, action: Any) -> None:
        if not isinstance(action, Mark):
            raise IllegalActionError(
                f"{action!r} is not a Tic-tac-toe action.",
                key=f"engine.{TABLE}.not_an_action",
                action=action,
            )
        index = INDEX.get(action.cell)
        if index is None:
            raise IllegalActionError(
                f"{action.cell} is not a cell: cells run from A1 to C3.",
                key=f"engine.{TABLE}.not_a_cell",
                cell=action.cell,
            )
        if self.board[index]:
            owner = self.board[index] - 1
            free = ", ".join(self.free_cells())
            raise IllegalActionError(
                f"{action.cell} already holds {MARKS[owner]}: mark a free cell ({free}).",
                key=f"engine.{TABLE}.taken",
                cell=action.cell,
                mark=MARKS[owner],
                free=free,
            )
        self.board[index] = self.seat + 1
        self._history.append(action.text())
        self.line = winning_line(self.board)
        if self.line is not None:
            self.phase, self.end_reason = OVER, END_LINE
        elif all(self.board):
            self.phase, self.end_reason = OVER, END_FULL
        else:
            self.seat = 1 - self.seat

    def outcome(self) -> Outcome | None:
        if self.end_reason is None:
            return None
        if self.line is not None:
            winner = self.board[self.line[0]] - 1
            scores = (1, 0) if winner == 0 else (0, 1)
            return Outcome(
                reason=END_LINE,
                scores=scores,
                winners=(winner,),
                details={"line": [CELLS[i] for i in self.line], "draw": False},
            )
        return Outcome(reason=END_FULL, scores=(0, 0), winners=(0, 1), details={"draw": True})

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The whole position (nothing is hidden), the same for every seat."""
        placed = len(self._history)
        last_cell = self._history[-1].split()[1] if self._history else None
        return {
            "size": SIZE,
            "move": placed + (0 if self.is_terminal() else 1),
            "cells": [
                {"cell": name, "mark": MARKS[self.board[i] - 1] if self.board[i] else None}
                for i, name in enumerate(CELLS)
            ],
            "free": self.free_cells(),
            "players": [
                {"seat": s, "mark": MARKS[s], "marks": self.board.count(s + 1)} for s in (0, 1)
            ],
            "last": {
                "seat": None if not placed else (placed - 1) % 2,
                "action": self._history[-1] if placed else None,
                "cell": last_cell,
            },
            "line": [CELLS[i] for i in self.line] if self.line else None,
        }

    # ------------------------------------------------------------------ saving

    def copy(self) -> TicTacToeState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.board = self.board[:]
        twin.options = dict(self.options)
        twin._history = self._history[:]
        return twin

    def to_dict(self) -> dict[str, Any]:
        """The deal (the seed) and the history are the truth; the board is stored too, so a
        save reads on its own and is checked against its history when loaded."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "seats": 2,
            "seed": self.seed,
            "history": list(self._history),
            "board": "".join("." if not m else MARKS[m - 1] for m in self.board),
            "phase": self.phase,
            "seat": self.seat,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TicTacToeState:
        """Replay the saved history and refuse a save whose board disagrees with it."""
        check_saved_format(data, format=STATE_FORMAT, version=STATE_VERSION, title="Tic-tac-toe")
        try:
            if int(data["seats"]) != 2:
                raise ValueError("Tic-tac-toe is for 2 players")
            state = cls(int(data["seed"]))
            for text in data["history"]:
                state.apply(str(text))
            stored = {key: data[key] for key in ("board", "phase", "seat", "end_reason")}
        except (KeyError, TypeError) as exc:
            raise ValueError(f"Saved Tic-tac-toe state is incomplete: {exc!r}") from exc
        except GameError as exc:
            raise ValueError(f"Saved Tic-tac-toe history does not replay: {exc}") from exc
        replayed = state.to_dict()
        for key, value in stored.items():
            if replayed[key] != value:
                raise ValueError(f"Saved Tic-tac-toe state disagrees with its history on {key!r}.")
        return state


class TicTacToe(Game):
    name = GAME_NAME
    title = "Tic-tac-toe"
    aliases = ("ttt", "noughts and crosses")
    min_seats = 2
    max_seats = 2

    def new_state(
        self, seats: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> TicTacToeState:
        """A new empty board: X (seat 0) moves first. The seed deals nothing; it is kept so a
        saved game says how it was created, as every game's does."""
        self.check_seats(seats)
        self.resolve_options(options)
        return TicTacToeState(seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> TicTacToeState:
        return TicTacToeState.from_dict(data)

    def parse_action(self, text: str) -> Mark:
        return parse_action(text)

    # `from_view` is the engine's own: the deal hides nothing and owes nothing to the seed,
    # so replaying a view's history gives the very position it shows.


GAME = TicTacToe()
TicTacToeState.game = GAME

__all__ = ["CELLS", "GAME", "LINES", "MARKS", "Mark", "TicTacToe", "TicTacToeState"]
