"""One-ply High Voltage search: try every sensible action once and keep the best.

This is the `normal` player, and the model of the other players inside the `hard` player's
search. For the seat to move it lists candidate actions, values the position each one leads to
with `Evaluator`, and returns the best.

- Rotations, moves and the special DANGER moves are all tried; swaps are tried only where they
  complete a line one card away (hundreds of pairs times 16 orientations would be too many).
- A draw is a chance node: its value is the expectation, over the cards nobody has seen, of the
  best placement of each (back where it was, or into the empty cell, in every orientation).
  Cards that look alike are counted together, and placements that touch the same line ends the
  same way are valued once.
- When an action completes a valid line, the rest of the turn (declaring lines, greedily, in the
  best order) is played out on a copy before the position is valued.
- A double turn is tried for the best few first actions, followed by the best second action.

Most candidates are valued incrementally: the change is made on one scratch copy, re-valued with
`Evaluator.delta`, and undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.high_voltage.ai.evaluate import Base, Evaluator
from games.high_voltage.ai.progress import Guard, draw_bonus, recently_turned
from games.high_voltage.rules.actions import (
    Declare,
    DeclareNone,
    Draw,
    HvAction,
    Move,
    Place,
    Rotate,
    Swap,
)
from games.high_voltage.rules.rules_data import CardSet
from games.high_voltage.rules.state import ACTION, DECLARING, EMPTY, PLACING, HighVoltageState

# How much of the draw expectation and of the double turn a one-ply player works out:
# FULL for the normal player; MODEL, for other seats inside the hard search, values a draw
# cell by cell only where a line with cards waits and tries no double turns; QUICK, for the
# AI's own next move at the end of a simulation, values every draw alike.
FULL, MODEL, QUICK = "full", "model", "quick"
DETAILS = (FULL, MODEL, QUICK)
DOUBLE_TRIES = 2  # first actions tried as the start of a double turn
MAX_ORDERINGS = 3  # closable lines beyond this many are declared greedily, without look-ahead


@dataclass(frozen=True)
class Scored:
    """A candidate action with its value; `order` breaks ties reproducibly."""

    value: float
    order: int
    action: HvAction


def face_groups(state: HighVoltageState) -> list[int]:
    """Per card, the index of its class of identical-looking cards."""
    keys: dict[tuple, int] = {}
    out = []
    for face in state.cards.faces:
        key = (face.kind, frozenset((frozenset((p.a, p.b)), p.colour) for p in face.paths))
        out.append(keys.setdefault(key, len(keys)))
    return out


def distinct_rotations(state: HighVoltageState, card: int) -> list[int]:
    """Quarter turns that give different pictures (a straight has two, a DANGER card one)."""
    return _distinct(state.cards)[card]


@cache
def _distinct(cards: CardSet) -> list[list[int]]:
    out = []
    for card in range(len(cards)):
        seen = set()
        turns = []
        for q in range(4):
            key = cards.exits[card][q], cards.colour[card][q]
            if key not in seen:
                seen.add(key)
                turns.append(q)
        out.append(turns)
    return out


@cache
def _edge_faces(cards: CardSet) -> list[list[tuple[int, tuple[tuple[int, int], ...]]]]:
    """Per card, its distinct orientations with (exit, colour) at each entry edge."""
    distinct = _distinct(cards)
    return [
        [
            (q, tuple((cards.exits[card][q][e], cards.colour[card][q][e]) for e in range(4)))
            for q in distinct[card]
        ]
        for card in range(len(cards))
    ]


class OnePly:
    """The greedy player for the perspective of `evaluator` (whose seat must be to move)."""

    def __init__(self, evaluator: Evaluator, *, detail: str = FULL) -> None:
        if detail not in DETAILS:
            raise ValueError(f"detail is one of {', '.join(DETAILS)}, not {detail!r}")
        self.ev = evaluator
        self.detail = detail
        self.full = detail == FULL
        self._groups: list[int] | None = None

    # ------------------------------------------------------------------ playing out

    def settle(self, state: HighVoltageState) -> None:
        """Finish the seat's declarations greedily (in place)."""
        me = self.ev.persp.me
        while state.phase == DECLARING and state.seat == me:
            best = self.best_declaration(state)
            state.apply(best.action)

    def after(self, state: HighVoltageState, *actions: HvAction) -> tuple[HighVoltageState, float]:
        """Play `actions` on a copy, finish the declarations, and value the result."""
        s = state.copy()
        for action in actions:
            s.apply(action)
        self.settle(s)
        return s, self.ev.value(s)

    def best_declaration(self, state: HighVoltageState, depth: int = 0) -> Scored:
        options: list[HvAction] = [Declare(ln.first, ln.second) for ln in state.closable]
        options.append(DeclareNone())
        best: Scored | None = None
        me = self.ev.persp.me
        for i, action in enumerate(options):
            s = state.copy()
            s.apply(action)
            if s.phase == DECLARING and s.seat == me:
                if depth < MAX_ORDERINGS:
                    value = self.best_declaration(s, depth + 1).value
                else:
                    self.settle(s)
                    value = self.ev.value(s)
            else:
                value = self.ev.value(s)
            if best is None or value > best.value + 1e-9:
                best = Scored(value, i, action)
        assert best is not None
        return best

    # ------------------------------------------------------------------ deciding

    def choose(self, state: HighVoltageState) -> Scored:
        """The best action for the seat to move (which must be the evaluator's seat)."""
        if state.phase == DECLARING:
            return self.best_declaration(state)
        if state.phase == PLACING:
            return self.best_placement(state)
        ranked = self.rank(state)
        return ranked[0]

    def best_placement(self, state: HighVoltageState) -> Scored:
        card = state.drawn
        best: Scored | None = None
        order = 0
        for place in ("here", "empty"):
            for q in distinct_rotations(state, card):
                action = Place(place, 90 * q)
                _, value = self.after(state, action)
                if best is None or value > best.value + 1e-9:
                    best = Scored(value, order, action)
                order += 1
        assert best is not None
        return best

    def rank(
        self,
        state: HighVoltageState,
        *,
        with_double: bool | None = None,
        detail: str | None = None,
    ) -> list[Scored]:
        """Every candidate action of the action step, best first."""
        if state.phase != ACTION:
            raise ValueError("rank() is for the action step")
        ev = self.ev
        ev.set_unseen(state)
        base = ev.base(state)
        work = state.copy()
        found: list[Scored] = []
        guard = Guard(state)
        self._declaring: set[int] = set()  # orders of actions that close a line and declare it
        self._rotations(state, work, base, found, guard)
        self._draws(state, work, base, found, detail or self.detail)
        self._moves(state, work, base, found)
        if guard.forced:  # too long without a draw: only progress now (see `progress`)
            progress = [
                s for s in found if isinstance(s.action, Draw) or s.order in self._declaring
            ]
            found = progress or found
        found.sort(key=lambda s: (-s.value, s.order))
        if with_double is None:
            with_double = self.full
        if (
            with_double
            and not guard.forced
            and state.special_tokens[state.seat] > 0
            and state.actions_taken == 0
            and found
        ):
            found += self._doubles(state, found)
            found.sort(key=lambda s: (-s.value, s.order))
        return found

    # ------------------------------------------------------------------ candidates

    def _valued(
        self,
        state: HighVoltageState,
        work: HighVoltageState,
        base: Base,
        cells: list[int],
        action: HvAction,
        cost: float,
        order: int,
    ) -> float:
        value = self.ev.delta(work, base, cells)
        if value is None:
            return self._played_out(state, action, order)
        return value - cost

    def _played_out(self, state: HighVoltageState, action: HvAction, order: int) -> float:
        """Value of an action that closes a line, played out; notes whether it declares one."""
        s, value = self.after(state, action)
        if len(s.declared) > len(state.declared):
            self._declaring.add(order)
        return value

    def _rotations(
        self,
        state: HighVoltageState,
        work: HighVoltageState,
        base: Base,
        found: list[Scored],
        guard: Guard,
    ) -> None:
        """Every legal rotation, except those that bring back a position seen since the last
        other action without declaring a line (`progress.Guard`)."""
        names = state.geo.names
        legal_turns = state.cards.legal_turns
        recent = recently_turned(state)
        penalty = self.ev.w.recent_penalty
        for cell, card in enumerate(state.grid):
            if card == EMPTY or not state.card_up[card] or state._is_danger(card):
                continue
            old = state.rot[card]
            for q in legal_turns[card][old]:
                action = Rotate(names[cell], 90 * q)
                order = len(found)
                work.rot[card] = q
                value = self.ev.delta(work, base, [cell])
                work.rot[card] = old
                if value is None:
                    value = self._played_out(state, action, order)
                elif names[cell] in recent:
                    value -= penalty
                if order not in self._declaring and guard.repeats(names[cell], q):
                    continue
                found.append(Scored(value, order, action))

    def _moves(
        self, state: HighVoltageState, work: HighVoltageState, base: Base, found: list[Scored]
    ) -> None:
        """Moves to the empty cell (any card; DANGER ones with the special token) and swaps
        that put a card into a gap where two line ends wait for it."""
        seat = state.seat
        names = state.geo.names
        tokens = state.action_tokens[seat] > 0
        special = state.special_tokens[seat] > 0
        if not (tokens or special):
            return
        ev = self.ev
        empty = state.grid.index(EMPTY)
        token_cost = ev.w.action_token * ev.progress
        special_cost = ev.w.special_token * ev.progress
        gaps = [c for c, ns in base.stops.items() if len(ns) >= 2 and c != empty]
        for cell, card in enumerate(state.grid):
            if card == EMPTY or not state.card_up[card]:
                continue
            danger = state._is_danger(card)
            if danger and not special:
                continue
            if not danger and not tokens:
                continue
            how = "danger" if danger else None
            cost = special_cost if danger else token_cost
            old = state.rot[card]
            work.grid[cell], work.grid[empty] = EMPTY, card
            work.pos[card] = empty
            for q in distinct_rotations(state, card):
                work.rot[card] = q
                action: HvAction = Move(names[cell], 90 * q, how)
                value = self._valued(state, work, base, [cell, empty], action, cost, len(found))
                found.append(Scored(value, len(found), action))
            work.grid[cell], work.grid[empty] = card, EMPTY
            work.pos[card] = cell
            work.rot[card] = old
            # Swaps: put this card into a gap where two chains wait for it.
            for gap in gaps:
                other = state.grid[gap]
                if other == EMPTY or not state.card_up[other] or gap == cell:
                    continue
                other_danger = state._is_danger(other)
                if danger or other_danger:
                    if not special:
                        continue
                    how, cost = "danger", special_cost
                elif tokens:
                    how, cost = None, token_cost
                else:
                    continue
                edges = [base.chains[n].stop_edge for n in base.stops[gap]]
                fits = [
                    q
                    for q in distinct_rotations(state, card)
                    if any(
                        state.cards.exits[card][q][a] == b for a in edges for b in edges if a != b
                    )
                ]
                if not fits:
                    continue
                other_old = state.rot[other]
                work.grid[cell], work.grid[gap] = other, card
                work.pos[card], work.pos[other] = gap, cell
                for q in fits:
                    work.rot[card] = q
                    a, b, ra, rb = cell, gap, other_old, q
                    if a > b:
                        a, b, ra, rb = b, a, rb, ra
                    action = Swap(names[a], names[b], 90 * ra, 90 * rb, how)
                    value = self._valued(state, work, base, [cell, gap], action, cost, len(found))
                    found.append(Scored(value, len(found), action))
                work.grid[cell], work.grid[gap] = card, other
                work.pos[card], work.pos[other] = cell, gap
                work.rot[card] = old
                work.rot[other] = other_old

    def _draws(
        self,
        state: HighVoltageState,
        work: HighVoltageState,
        base: Base,
        found: list[Scored],
        detail: str,
    ) -> None:
        """Value every draw by its expectation over the cards nobody has seen."""
        if not state.face_down:
            return
        names = state.geo.names
        if self._groups is None:
            self._groups = face_groups(state)
        groups = self._groups
        down_cells = [c for c, k in enumerate(state.grid) if k != EMPTY and not state.card_up[k]]
        bonus = draw_bonus(state, self.ev.w)
        if state.face_down == 1:
            # The last card: drawing it ends the game, which only a full play-out values (the
            # one face left is the true one in this determinization).
            cell = down_cells[0]
            card = state.grid[cell]
            best = max(
                self.after(state, Draw(names[cell]), Place(p, 90 * q))[1]
                for p in ("here", "empty")
                for q in distinct_rotations(state, card)
            )
            found.append(Scored(best + bonus, len(found), Draw(names[cell])))
            return
        members: dict[int, list[int]] = {}
        for c in down_cells:
            k = state.grid[c]
            members.setdefault(groups[k], []).append(k)
        count = len(down_cells)
        empty = state.grid.index(EMPTY)
        plain = [c for c in down_cells if c not in base.stops]
        origin = plain[0] if plain else down_cells[0]
        seen: dict[tuple, float] = {}
        into_empty = {
            g: self._placed_value(state, work, base, origin, ks[0], empty, g, seen)
            for g, ks in members.items()
        }
        reveal = base.total  # a card turned up where no line waits changes no chain
        generic = sum(len(ks) * max(reveal, into_empty[g]) for g, ks in members.items()) / count
        for cell in down_cells:
            ends = base.stops.get(cell)
            if (
                not ends
                or detail == QUICK
                or (detail == MODEL and not any(base.chains[n].cells for n in ends))
            ):
                # No line waits here (or, for a cheaper model of an opponent, only bare
                # stations): count it as an ordinary draw.
                value = generic
            else:
                seen = {}
                total = 0.0
                for g, ks in members.items():
                    here = self._placed_value(state, work, base, cell, ks[0], None, g, seen)
                    total += len(ks) * max(here, into_empty[g])
                value = total / count
            found.append(Scored(value + bonus, len(found), Draw(names[cell])))

    def _placed_value(
        self,
        state: HighVoltageState,
        work: HighVoltageState,
        base: Base,
        cell: int,
        card: int,
        empty: int | None,
        group: int,
        seen: dict[tuple, float],
    ) -> float:
        """Best value of drawing `card` from `cell` and placing it here (empty is None) or in
        the empty cell, over its orientations.

        Only the line ends waiting at the target cell can notice the card, so placements that
        give those ends the same exits and colours have the same value: `seen` remembers them
        per target cell, which saves most of the work.
        """
        target = cell if empty is None else empty
        ends = [base.chains[n].stop_edge for n in base.stops.get(target, ())]
        keys = []
        for q, faces in _edge_faces(state.cards)[card]:
            # the faces met by the ends waiting here, and the card's group if it matters
            key: tuple[tuple[int, int] | int, ...] = tuple([faces[e] for e in ends])
            if len(ends) >= 2 and any(faces[e][0] < 0 for e in ends):
                key += (group,)  # a blocked end may later be turned into the line: face matters
            keys.append((q, key))
        if all(key in seen for _, key in keys):
            return max(seen[key] for _, key in keys)
        grid, pos = work.grid, work.pos
        names = state.geo.names
        sitting = grid[cell]
        home = pos[card]
        # Put `card` on `cell` (both face down, so nothing visible changes).
        grid[cell], grid[home] = card, sitting
        pos[card], pos[sitting] = cell, home
        if empty is not None:
            grid[cell], grid[empty] = EMPTY, card
            pos[card] = empty
        work.card_up[card] = True
        changed = [cell] if empty is None else [cell, empty]
        best = None
        for q, key in keys:
            value = seen.get(key)
            if value is None:
                work.rot[card] = q
                value = self.ev.delta(work, base, changed)
                if value is None:
                    probe = work.copy()
                    # Undo the reveal on the probe and play the draw for real.
                    probe.card_up[card] = False
                    probe.rot[card] = 0
                    if empty is not None:
                        probe.grid[empty], probe.grid[cell] = EMPTY, card
                        probe.pos[card] = cell
                    place = "here" if empty is None else "empty"
                    value = self.after(probe, Draw(names[cell]), Place(place, 90 * q))[1]
                seen[key] = value
            if best is None or value > best:
                best = value
        work.card_up[card] = False
        work.rot[card] = 0
        if empty is not None:
            grid[empty], grid[cell] = EMPTY, card
            pos[card] = cell
        grid[cell], grid[home] = sitting, card
        pos[card], pos[sitting] = home, cell
        assert best is not None
        return best

    def _doubles(self, state: HighVoltageState, ranked: list[Scored]) -> list[Scored]:
        """The best few non-draw first actions as the start of a double turn."""
        out: list[Scored] = []
        tried = 0
        for scored in ranked:
            action = scored.action
            if isinstance(action, Draw) or getattr(action, "special", None) == "danger":
                continue
            if tried >= DOUBLE_TRIES:
                break
            tried += 1
            doubled = _with_special(action, "double")
            s = state.copy()
            s.apply(doubled)
            self.settle(s)
            if s.phase == ACTION and s.seat == state.seat:
                second = self.rank(s, with_double=False, detail=MODEL)
                value = second[0].value if second else self.ev.value(s)
            else:
                value = self.ev.value(s)
            out.append(Scored(value, len(ranked) + len(out), doubled))
        return out


def _with_special(action: HvAction, special: str) -> HvAction:
    if isinstance(action, Rotate):
        return Rotate(action.cell, action.rotation, special)
    if isinstance(action, Move):
        return Move(action.cell, action.rotation, special)
    if isinstance(action, Swap):
        return Swap(action.a, action.b, action.rotation_a, action.rotation_b, special)
    if isinstance(action, Draw):
        return Draw(action.cell, action.place, action.rotation, special)
    raise ValueError(f"{action!r} takes no special token")
