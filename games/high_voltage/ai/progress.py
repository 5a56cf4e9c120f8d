"""Keeping games between AI seats finite.

Rotations are free and can undo each other, so two seats that each prefer another orientation
of the same cards could turn them for ever. The rules set no limit (people may stall), but an
AI seat must not. Everything here is read from the public history, so it is the same in every
determinization, and it holds every searching player alike: the normal player, the hard
player's own simulated turns and its models of the other seats.

- **No repetition.** A rotation that brings the board back to a position it already had since
  the last action that was not a rotation (one card turned back, or a cycle of turns over
  several cards) is never played, unless it closes a line its player then declares. While the
  game lasts a card is face down (placing the last one ends it), so a draw is always there
  instead: refusing repetitions never leaves a player without a move.
- **A limit.** Once `stall_limit` actions have passed without a draw, only progress is played:
  a draw, or an action that closes a line its player declares. This bounds every game between
  AI seats (at most 44 draws, each after at most that many actions), whatever the evaluation
  thinks of ending the game.
- **A growing incentive.** Before the limit, a draw is worth a little more the longer nobody
  has drawn (`draw_bonus`), so the limit is rarely what makes an AI draw. The bonus is part of
  a draw's value wherever a draw is valued (the last draw, which ends the game, included), so
  that no level ranks draws without it.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

from games.high_voltage.rules.rules_data import CardSet

if TYPE_CHECKING:
    from games.high_voltage.ai.evaluate import Weights
    from games.high_voltage.rules.state import HighVoltageState

STALL_ROUNDS = 4  # rounds of actions without a draw after which only progress is played
# Rounds without a draw before a draw starts to earn `Weights.stall_step` per action.
BONUS_FREE_ROUNDS = 2


def stall_limit(seats: int) -> int:
    """Actions without a draw after which an AI seat plays only progress."""
    return STALL_ROUNDS * seats


def actions_since_draw(state: HighVoltageState) -> int:
    """Actions (not placements or declarations) taken since the last card was drawn."""
    count = 0
    for text in reversed(state._history):
        if text.startswith("draw"):
            break
        if not text.startswith(("place", "declare")):
            count += 1
    return count


def draw_bonus(state: HighVoltageState, weights: Weights) -> float:
    """What a draw is worth beyond the position it leads to: drawing moves the game on."""
    late = actions_since_draw(state) - BONUS_FREE_ROUNDS * state.seats
    return weights.draw_bonus + weights.stall_step * max(0, late)


def recently_turned(state: HighVoltageState) -> set[str]:
    """Cells rotated during the last round of actions (two per seat).

    The AI players are reluctant to turn such a card again (a penalty in the one-ply player,
    waived when the turn completes a line at once): a soft preference, before the rules above.
    """
    out: set[str] = set()
    seen = 0
    for text in reversed(state._history):
        verb = text.split(" ", 1)[0]
        if verb in ("place", "declare"):
            continue
        seen += 1
        if seen > 2 * state.seats:
            break
        if verb == "rotate":
            out.add(text.split(" ")[1])
    return out


class Guard:
    """The anti-stalling rules for the seat to move in `state` (action step).

    `repeats(cell, quarter)` says whether rotating the card on `cell` to `quarter` brings back
    a position seen since the last action that was not a rotation; `forced` whether only
    progress may be played now.
    """

    __slots__ = ("_canon", "_cards", "_current", "_names", "_seen", "forced")

    def __init__(self, state: HighVoltageState) -> None:
        self.forced = state.face_down > 0 and actions_since_draw(state) >= stall_limit(state.seats)
        history = state._history
        start = len(history)
        while start > 0 and history[start - 1].startswith(("rotate ", "declare none")):
            start -= 1
        turns = [text.split(" ") for text in history[start:] if text.startswith("rotate ")]
        canon = _canonical(state.cards)
        names = sorted({words[1] for words in turns})
        cards = {name: state.grid[state.geo.cell(name)] for name in names}
        self._canon, self._cards, self._names = canon, cards, names
        self._seen: set[tuple[int, ...]] = set()
        self._current = {name: canon[cards[name]][state.rot[cards[name]]] for name in names}
        if not turns:
            return
        known = _orientations(tuple(history[:start]), state.setup.start_empty)
        orient: dict[str, int | None] = {name: known.get(name) for name in names}

        def key() -> tuple[int, ...] | None:
            out = []
            for name in names:
                q = orient[name]
                if q is None:
                    return None  # a card dealt face up and never set since: cannot be matched
                out.append(canon[cards[name]][q])
            return tuple(out)

        first = key()
        if first is not None:
            self._seen.add(first)
        for words in turns:
            orient[words[1]] = int(words[2][1:]) // 90
            found = key()
            if found is not None:
                self._seen.add(found)

    def repeats(self, cell: str, quarter: int) -> bool:
        if cell not in self._current:
            return False  # not turned since the last other action: a new picture is a new board
        card = self._cards[cell]
        after = {**self._current, cell: self._canon[card][quarter]}
        return tuple(after[name] for name in self._names) in self._seen


@cache
def _canonical(cards: CardSet) -> list[list[int]]:
    """Per card and orientation, the first orientation showing the same picture."""
    out = []
    for card in range(len(cards)):
        first: dict[tuple, int] = {}
        row = []
        for q in range(4):
            row.append(first.setdefault((cards.exits[card][q], cards.colour[card][q]), q))
        out.append(row)
    return out


@lru_cache(maxsize=256)
def _orientations(history: tuple[str, ...], start_empty: str) -> dict[str, int]:
    """Cell -> the orientation the history last gave the card there (cells of cards dealt
    face up and never set since are missing). Read-only: the result is shared."""
    empty = start_empty
    drawn = ""
    orient: dict[str, int] = {}
    for text in history:
        words = text.split(" ")
        verb = words[0]
        if verb == "draw":
            drawn = words[1]
            if len(words) >= 4 and not words[2].startswith("special"):
                where, quarter = words[2], int(words[3][1:]) // 90
            else:
                continue
        elif verb == "place":
            where, quarter = words[1], int(words[2][1:]) // 90
        elif verb == "rotate":
            orient[words[1]] = int(words[2][1:]) // 90
            continue
        elif verb == "move":
            orient[empty] = int(words[2][1:]) // 90
            orient.pop(words[1], None)
            empty = words[1]
            continue
        elif verb == "swap":
            orient[words[2]] = int(words[3][1:]) // 90
            orient[words[1]] = int(words[4][1:]) // 90
            continue
        else:
            continue
        if where == "here":
            orient[drawn] = quarter
        else:
            orient[empty] = quarter
            orient.pop(drawn, None)
            empty = drawn
    return orient
