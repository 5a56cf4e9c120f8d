"""The deal of a High Voltage game record: what of the shuffled cards and dealt companies
became public, and a deal rebuilt from it (`Game.record_deal`, `Game.deal_from_record`).

The deal is hidden at the start and shown bit by bit: the starting cards lie face up (their
faces and turns, and who moves first, are public from the start); every drawn card is placed
face up, so its face is public from then on; the companies are shown at the end. So a record
holds the starting cards, the face of the card each draw revealed (with the move that drew
it), and each seat's company once the game is over. A card still in its drawer's hand is in
its drawer's own record alone, and so is their own company before the end. Cards never
drawn and companies never shown are in no record.

Filling those in arbitrarily cannot change what the moves do or how the game ends:
- A face-down card stays on the cell it was dealt to until it is drawn: only face-up cards
  turn, move or swap, and a draw shows its face before anything else happens to it. So each
  drawn cell held, at the deal, the card whose face the record gives.
- Nothing the rules decide reads a face-down face: a draw is legal on any face-down card,
  lines run through face-up cards only, and the end tests count face-down cards as usable
  whatever they hide (`scoring.no_line_possible`, `scoring.has_action`) and end the deck
  by their number alone.
- The companies only turn company points into the players' scores (`scoring.final_scores`);
  no rule reads them during play, and a game over records them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import OVER
from games.high_voltage.rules.actions import Draw, parse_action
from games.high_voltage.rules.determinize import CardMatcher
from games.high_voltage.rules.position import EMPTY, PLACING
from games.high_voltage.rules.rules_data import default_rules
from games.high_voltage.rules.state import HighVoltageState
from games.high_voltage.rules.views import card_face


def record_deal(state: HighVoltageState, seat: int | None) -> dict[str, Any]:
    """The starting cards and first seat, the face of every card a draw revealed, and the
    companies known to `seat` (all once over): dealt again from the seed and played through
    the history, to see each card as it was drawn."""
    cards, setup = state.cards, state.setup
    walk = HighVoltageState.deal(state.seats, state.seed, setup, cards)
    first_seat = walk.seat
    face_up = []
    for name in setup.start_face_up:
        card = walk.grid[walk.geo.cell(name)]
        face_up.append({"cell": name, **card_face(cards, card, walk.rot[card])})
    draws = []
    for number, text in enumerate(state.history):
        action = parse_action(text)
        if isinstance(action, Draw):
            card = walk.grid[walk.geo.cell(action.cell)]
            face = card_face(cards, card, 0)
            del face["rotation"]
            draws.append({"move": number, "cell": action.cell, "card": face})
        walk.apply(text)
    if walk.to_dict() != state.to_dict():
        raise ValueError("The moves from the deal do not lead to the stored position.")
    if state.phase == PLACING and seat != state.seat:
        draws.pop()  # in its drawer's hand: seen by them alone
    over = state.phase == OVER
    colours = [
        setup.colours[c] if over or s == seat else None for s, c in enumerate(state.seat_colour)
    ]
    return {"first_seat": first_seat, "face_up": face_up, "draws": draws, "colours": colours}


def deal_from_record(seats: int, deal: Mapping[str, Any]) -> HighVoltageState:
    """A deal with the record's starting cards, each drawn cell holding a card of the face its
    draw revealed and the record's known companies; the other cards (in the order of the card
    set) and companies filled in as they come."""
    setup, cards = default_rules()
    if not setup.min_players <= seats <= setup.max_players:
        raise ValueError(
            f"High Voltage is for {setup.min_players}-{setup.max_players} players, not {seats}."
        )
    state = HighVoltageState(setup, cards, seats, 0)
    geo = state.geo
    matcher = CardMatcher(cards)
    empty = geo.cell(setup.start_empty)
    starting = {geo.cell(name) for name in setup.start_face_up}
    dealt: set[int] = set()

    def lay(cell: int, card: int) -> None:
        state.grid[cell] = card
        state.pos[card] = cell
        dealt.add(cell)

    for entry in deal["face_up"]:
        cell = geo.cell(str(entry["cell"]))
        if cell not in starting or cell in dealt:
            raise ValueError(f"{entry['cell']} is not a starting card's cell (or is twice).")
        quarters = int(entry["rotation"]) // 90 % 4
        card = matcher.take(entry, quarters, str(entry["cell"]))
        lay(cell, card)
        state.card_up[card] = True
        state.rot[card] = quarters
    if dealt != starting:
        raise ValueError("The starting cards are not all given.")
    for draw in deal["draws"]:
        cell = geo.cell(str(draw["cell"]))
        if cell == empty or cell in dealt:
            raise ValueError(f"No face-down card was dealt to {draw['cell']} to draw.")
        lay(cell, matcher.take(draw["card"], 0, str(draw["cell"])))
    unseen = iter(card for card in range(len(cards)) if card not in matcher.used)
    for cell in range(geo.cells):
        if cell != empty and cell not in dealt:
            lay(cell, next(unseen))
    state.face_down = len(cards) - len(starting)
    known = [None if c is None else setup.colours.index(str(c)) for c in deal["colours"]]
    if len(known) != seats or len({c for c in known if c is not None}) != sum(
        c is not None for c in known
    ):
        raise ValueError("The companies must be one per seat, each at most once.")
    free = iter(c for c in range(len(setup.colours)) if c not in known)
    state.seat_colour = [next(free) if c is None else c for c in known]
    state.seat = int(deal["first_seat"])
    if not 0 <= state.seat < seats:
        raise ValueError(f"No seat {state.seat} to move first.")
    assert EMPTY in state.grid
    return state
