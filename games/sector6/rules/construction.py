"""The construction phase of Sector 6: the actions that build the maze, and what each does.

While pieces are left, the seat to move either draws the top tile of its supply and then
places it, or places one of its entry points; where a piece may go is the position's answer
(`Sector6Position.placements`, with the fallbacks the rules describe in
`state`). Each function checks before it changes anything, so a refused
action leaves the position exactly as it was. The last piece placed hands over to the
competition (`competition.begin_competition`).
"""

from __future__ import annotations

from engine.errors import IllegalActionError
from games.sector6.rules.actions import DRAW, Place, PlaceEntry, Sector6Action
from games.sector6.rules.competition import begin_competition
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.refusals import cell_of, example_place, why_not_placed
from games.sector6.rules.steps import DRAW_STEP, EMPTY, PLACE_STEP


def build_actions(state: Sector6Position) -> tuple[list[Sector6Action], list[Sector6Action]]:
    """(draw actions, entry actions) for the seat to move in the construction phase."""
    seat = state.seat
    if state.step == PLACE_STEP:
        return [Place(state.name(c), r) for c, r in state.placements(state.drawn)], []
    draws: list[Sector6Action] = [DRAW] if state.supply_left(seat) else []
    entries: list[Sector6Action] = []
    if state.entries_left(seat):
        piece = state.rules.entry(seat, state.entries_placed[seat])
        entries = [PlaceEntry(state.name(c)) for c, _ in state.placements(piece)]
    return draws, entries


def draw(state: Sector6Position) -> None:
    """The seat takes the top tile of its supply; it must place it next."""
    if state.step == PLACE_STEP:
        example = example_place(state, state.drawn)
        raise IllegalActionError(
            f"You have drawn a tile already: place it, e.g. {example}.",
            key="engine.sector6.drawn_already",
            example=example,
        )
    if state.supply_left(state.seat) == 0:
        entry = state.rules.entry(state.seat, state.entries_placed[state.seat])
        example = example_place(state, entry)
        raise IllegalActionError(
            f"Your supply is empty: place an entry point instead, e.g. {example}.",
            key="engine.sector6.supply_empty",
            example=example,
        )
    state.drawn = state.supplies[state.seat][state.drawn_count[state.seat]]
    state.drawn_count[state.seat] += 1
    state.step = PLACE_STEP
    state._record(DRAW.text())


def place(state: Sector6Position, action: Place) -> None:
    """The drawn tile goes on the table, turned as the seat chose."""
    if state.step != PLACE_STEP:
        raise IllegalActionError(
            "Draw a tile first (draw), or place an entry point (place entry C4).",
            key="engine.sector6.draw_first",
        )
    cell = cell_of(state.table, action.cell)
    if not state.can_place(state.drawn, cell, action.rotation):
        raise why_not_placed(state, state.drawn, cell, action.rotation)
    piece = state.drawn
    state._put(piece, cell, action.rotation)
    state.drawn = EMPTY
    state._record(Place(state.name(cell), action.rotation).text(), placed=state.name(cell))
    end_build_turn(state)


def place_entry(state: Sector6Position, action: PlaceEntry) -> None:
    """The seat's next entry point goes on the table (instead of drawing)."""
    if state.step == PLACE_STEP:
        example = example_place(state, state.drawn)
        raise IllegalActionError(
            f"You have drawn a tile: it must be placed, e.g. {example}.",
            key="engine.sector6.place_drawn_tile",
            example=example,
        )
    if state.entries_left(state.seat) == 0:
        raise IllegalActionError(
            "Both your entry points are placed: draw a tile instead.",
            key="engine.sector6.entries_placed",
        )
    piece = state.rules.entry(state.seat, state.entries_placed[state.seat])
    cell = cell_of(state.table, action.cell)
    if not state.can_place(piece, cell, 0):
        raise why_not_placed(state, piece, cell, 0)
    state._put(piece, cell, 0)
    state.entries_placed[state.seat] += 1
    state._record(PlaceEntry(state.name(cell)).text(), placed=state.name(cell))
    end_build_turn(state)


def end_build_turn(state: Sector6Position) -> None:
    """The next seat with pieces left builds; when no one has any, the competition begins."""
    state.turns_played += 1
    for k in range(1, state.seats + 1):
        seat = (state.seat + k) % state.seats
        if state._has_pieces(seat):
            state.seat = seat
            state.step = DRAW_STEP
            state._fresh = True
            return
    begin_competition(state)


__all__ = ["build_actions", "draw", "end_build_turn", "place", "place_entry"]
