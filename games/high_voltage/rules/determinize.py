"""Whole High Voltage states consistent with what one seat sees: the AI's guesses.

An AI seat only ever receives `view(seat)`. To search, it needs full states it can play forward,
so it "determinizes": it keeps everything the view shows and fills in what it cannot see at
random, in a way the rules allow. Averaging decisions over many such states is how information-
set Monte Carlo search stays fair: the AI never looks at the true deal.

What is kept from the view: every face-up card (which card of the shipped set shows that face,
its orientation and energy token), the empty cell, tokens, supplies, company scores, phase, seat
to move, turn number, actions taken, double turn, the drawn card (its face when the viewer drew
it), the cards changed this turn, the last turn's summary and the action history.

What is guessed: which unseen card lies on each face-down cell (a uniform shuffle of the cards
not showing), and the colour of every other seat (from the colours the viewer does not hold,
weighted by an optional belief). Cards that look the same (the four red straights, say) are
interchangeable, so which of them shows where does not matter.

Differences between `sample_state(view, rng).view(seat)` and the view it came from: none for a
live game. `to_dict()` differs in the seed (the view has none; 0 is used) and in card ids: which
of several identical-looking cards lies where, which no one can see.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games.high_voltage.rules.actions import parse_action
from games.high_voltage.rules.lines import DANGER, HIGH_VOLTAGE, NO_TOKEN
from games.high_voltage.rules.rules_data import EDGE_INDEX, CardSet, default_rules
from games.high_voltage.rules.state import DECLARING, EMPTY, OVER, PLACING, HighVoltageState

ENERGY = {"none": NO_TOKEN, "high_voltage": HIGH_VOLTAGE, "danger": DANGER}

# A face as a view shows it: (kind, frozenset of (frozenset of two edges, colour)).
FaceKey = tuple[str, frozenset[tuple[frozenset[int], str]]]


def face_key(face: Mapping[str, Any]) -> FaceKey:
    """The picture of a card as a view describes it (already turned to its orientation)."""
    return (
        face["kind"],
        frozenset(
            (frozenset(EDGE_INDEX[e] for e in p["edges"]), p["colour"]) for p in face["paths"]
        ),
    )


@cache
def _faces_by_orientation(cards: CardSet) -> dict[tuple[FaceKey, int], tuple[int, ...]]:
    """(picture, quarter turns) -> the ids of the cards that show exactly that picture."""
    found: dict[tuple[FaceKey, int], list[int]] = {}
    for card, face in enumerate(cards.faces):
        for quarters in range(4):
            key = (
                face.kind,
                frozenset(
                    (frozenset((p.rotated(quarters).a, p.rotated(quarters).b)), p.colour)
                    for p in face.paths
                ),
            )
            found.setdefault((key, quarters), []).append(card)
    return {key: tuple(ids) for key, ids in found.items()}


class CardMatcher:
    """Hands out card ids for faces seen in a view, each id at most once."""

    def __init__(self, cards: CardSet) -> None:
        self.table = _faces_by_orientation(cards)
        self.used: set[int] = set()

    def take(self, face: Mapping[str, Any], quarters: int, where: str) -> int:
        for card in self.table.get((face_key(face), quarters), ()):
            if card not in self.used:
                self.used.add(card)
                return card
        raise ValueError(
            f"The view shows a card on {where} that the shipped card set does not have "
            f"(or has fewer of): {face['kind']} {face['paths']}."
        )


def colour_assignments(
    view: Mapping[str, Any], belief: Mapping[int, Sequence[float]] | None = None
) -> list[tuple[dict[int, int], float]]:
    """Every way to give the unseen seats distinct colours, with its weight.

    Seats whose colour the view shows keep it. `belief[seat][colour]` (any non-negative
    numbers) weighs the others; the weight of an assignment is the product over seats, which
    treats the seats as independent apart from colours being distinct. At most 4! = 24.
    """
    colours = list(view["colours"])
    known: dict[int, int] = {}
    unknown: list[int] = []
    for player in view["players"]:
        if player["colour"] is None:
            unknown.append(player["seat"])
        else:
            known[player["seat"]] = colours.index(player["colour"])
    free = [c for c in range(len(colours)) if c not in known.values()]
    out = []
    for combo in itertools.permutations(free, len(unknown)):
        weight = 1.0
        for seat, colour in zip(unknown, combo, strict=True):
            if belief is not None and seat in belief:
                weight *= float(belief[seat][colour])
        if weight > 0:
            out.append(({**known, **dict(zip(unknown, combo, strict=True))}, weight))
    if not out:  # a belief that rules everything out is ignored rather than trusted
        return colour_assignments(view, None)
    return out


def sample_colours(
    view: Mapping[str, Any],
    rng: random.Random,
    belief: Mapping[int, Sequence[float]] | None = None,
) -> list[int]:
    """Colour index per seat: known ones from the view, the rest drawn by `belief`."""
    options = colour_assignments(view, belief)
    total = sum(w for _, w in options)
    pick = rng.random() * total
    chosen = options[-1][0]
    for assignment, weight in options:
        pick -= weight
        if pick < 0:
            chosen = assignment
            break
    return [chosen[s] for s in range(view["seats"])]


def sample_state(
    view: Mapping[str, Any],
    rng: random.Random,
    belief: Mapping[int, Sequence[float]] | None = None,
) -> HighVoltageState:
    """A full state that `view["viewer"]` cannot tell apart from the real one.

    Raises ValueError when the view cannot come from the shipped card set, or when the
    rebuilt position would not offer exactly the lines the view lists as closable.
    """
    if view.get("game") != "high-voltage":
        raise ValueError(f"Not a High Voltage view (game {view.get('game')!r}).")
    setup, cards = default_rules()
    if view["grid_size"] != setup.grid_size or list(view["colours"]) != list(setup.colours):
        raise ValueError("The view does not use the shipped High Voltage setup.")
    seats = int(view["seats"])
    state = HighVoltageState(setup, cards, seats, 0)
    geo = state.geo
    matcher = CardMatcher(cards)
    face_down_cells: list[int] = []
    for cell, entry in enumerate(view["cells"]):
        kind = entry["state"]
        if kind == "up":
            quarters = int(entry["rotation"]) // 90
            card = matcher.take(entry, quarters, entry["cell"])
            state.grid[cell] = card
            state.pos[card] = cell
            state.card_up[card] = True
            state.rot[card] = quarters
            state.energy[card] = ENERGY[entry["energy"]]
        elif kind == "down":
            face_down_cells.append(cell)
        elif kind != "empty":
            raise ValueError(f"Unknown cell state {kind!r} on {entry['cell']}.")
    drawn = view.get("drawn")
    drawn_cell = geo.cell(drawn["cell"]) if drawn else None
    known_drawn = None
    if drawn and "paths" in drawn:
        known_drawn = matcher.take(drawn, 0, f"{drawn['cell']} (the drawn card)")
    hidden = [card for card in range(len(cards)) if card not in matcher.used]
    rng.shuffle(hidden)
    fill = iter(hidden)
    for cell in face_down_cells:
        card = known_drawn if cell == drawn_cell and known_drawn is not None else next(fill)
        state.grid[cell] = card
        state.pos[card] = cell
    if next(fill, None) is not None or EMPTY not in state.grid:
        raise ValueError("The view's cards do not add up to the shipped card set.")
    # The lists above are the ones `state._board` reads: they were changed in place only.
    state.face_down = len(face_down_cells)
    state.seat_colour = sample_colours(view, rng, belief)
    players = view["players"]
    state.action_tokens = [int(p["action_tokens"]) for p in players]
    state.special_tokens = [int(p["special_tokens"]) for p in players]
    state.point_tokens = [int(p["point_tokens"]) for p in players]
    state.company = [int(view["company_scores"][c]) for c in setup.colours]
    state.energy_supply = int(view["energy_supply"])
    state.point_supply = int(view["point_supply"])
    state.phase = view["phase"]
    over = state.phase == OVER
    state.seat = 0 if view["current_seat"] is None else int(view["current_seat"])
    state.turns_played = int(view["turn"]) - (0 if over else 1)
    state.actions_taken = int(view["actions_taken"])
    state.double_turn = bool(view["double_turn"])
    state.changed = {state.grid[geo.cell(name)] for name in view.get("turn_changed_cells", ())}
    history = [str(t) for t in view["history"]]
    if state.phase == PLACING:
        if drawn_cell is None:
            raise ValueError("The view is placing a drawn card but names none.")
        state.drawn = state.grid[drawn_cell]
        # The draw being placed is the last entry of the history; it says whether it was
        # announced with a special token.
        last_draw = parse_action(history[-1]) if history else None
        state.drawn_special = getattr(last_draw, "special", None)
    last = view["last"]
    state.last = {
        "seat": last["seat"],
        "actions": list(last["actions"]),
        "cells": [geo.cell(name) for name in last["cells"]],
        "lines": [dict(rec) for rec in last["lines"]],
    }
    state._history = history
    state.declared = [dict(rec) for rec in view.get("declared", ())]
    state.declined = [
        {"seat": rec["seat"], "lines": [dict(ln) for ln in rec["lines"]]}
        for rec in view.get("declined", ())
    ]
    if over:
        state.end_reason = view["outcome"]["reason"] if view.get("outcome") else None
    if state.phase == DECLARING:
        state.closable = state._find_closable()
        names = [ln.name for ln in state.closable]
        if names != [entry["line"] for entry in view["closable"]]:
            raise ValueError(
                "The view's closable lines cannot be rebuilt (does it list the cards this "
                "turn changed?)."
            )
    return state


class Determinizer:
    """Many determinizations of one view, cheaply: the view is read once, then each sample is a
    copy of that state with the hidden cards shuffled again and the colours drawn again."""

    def __init__(
        self,
        view: Mapping[str, Any],
        belief: Mapping[int, Sequence[float]] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.view = view
        self.template = sample_state(view, rng or random.Random(0), belief)
        self.options = colour_assignments(view, belief)
        self.total = sum(w for _, w in self.options)
        t = self.template
        drawn = view.get("drawn")
        self.known_drawn = t.drawn if drawn and "paths" in drawn else EMPTY
        self.hidden_cells = [
            cell
            for cell, card in enumerate(t.grid)
            if card != EMPTY and not t.card_up[card] and card != self.known_drawn
        ]

    def sample(self, rng: random.Random, assignment: int | None = None) -> HighVoltageState:
        """A state with the hidden cards shuffled by `rng`, and the unseen colours drawn by
        their weights or, when `assignment` is given, those of `options[assignment]` (so that
        a caller can share a few samples out over the colours as their weights say)."""
        state = self.template.copy()
        cards = [state.grid[cell] for cell in self.hidden_cells]
        rng.shuffle(cards)
        for cell, card in zip(self.hidden_cells, cards, strict=True):
            state.grid[cell] = card
            state.pos[card] = cell
        if state.phase == PLACING and self.known_drawn == EMPTY:
            state.drawn = state.grid[self.template.pos[self.template.drawn]]
        if assignment is None:
            pick = rng.random() * self.total
            chosen = self.options[-1][0]
            for option, weight in self.options:
                pick -= weight
                if pick < 0:
                    chosen = option
                    break
        else:
            chosen = self.options[assignment][0]
        state.seat_colour = [chosen[s] for s in range(state.seats)]
        return state
