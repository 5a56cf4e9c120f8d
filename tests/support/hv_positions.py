"""Hand-built High Voltage positions for scenario tests.

A scenario test says which card lies face up on which cell, turned how and with which energy
token, and `build` rearranges a freshly dealt game to match: every card stays on the board
exactly once and exactly one cell stays empty, so the position is one the rules could reach
(tokens and supplies aside, which a test may set on purpose).

`route` lays a chain of cards along given cells from a station to a station, working out each
card's orientation from the printed pictures described in the rules (a straight joins N-S, a
curve joins N-E, a quarter turn clockwise takes N to E), independently of the engine's tables,
so a test that closes a route checks the engine's path-following rather than repeating it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import find_game
from games.high_voltage.rules.state import ACTION, HighVoltageState

GAME = find_game("high-voltage")
SIZE = 7
EDGES = "NESW"
COLOURS = ("red", "yellow", "green", "blue")

NO_TOKEN, HIGH_VOLTAGE, DANGER = 0, 1, 2

# Card ids of the shipped set, by kind and colour (see games/high_voltage/cards.json).
STRAIGHT = {colour: tuple(range(4 * i, 4 * i + 4)) for i, colour in enumerate(COLOURS)}
CURVE = {colour: tuple(range(16 + 4 * i, 20 + 4 * i)) for i, colour in enumerate(COLOURS)}
CROSSINGS = tuple(range(32, 40))
DOUBLE_CURVES = tuple(range(40, 44))
DANGER_CARDS = tuple(range(44, 48))
ALL_STRAIGHTS = tuple(c for colour in COLOURS for c in STRAIGHT[colour])
ALL_CURVES = tuple(c for colour in COLOURS for c in CURVE[colour])
N_CARDS = 48


def cell(name: str) -> int:
    """Row-major index of a cell name: A1 = 0, B1 = 1, ..., G7 = 48."""
    return (int(name[1:]) - 1) * SIZE + (ord(name[0].upper()) - 65)


def name(index: int) -> str:
    row, col = divmod(index, SIZE)
    return f"{chr(65 + col)}{row + 1}"


def station(cell_name: str, edge: str) -> int:
    """Number of the power station beyond `edge` of a border cell, counted from the rules:
    1-7 north of A-G, 9-15 east of rows 1-7, 17-23 south of G-A, 25-31 west of rows 7-1."""
    row, col = divmod(cell(cell_name), SIZE)
    if edge == "N" and row == 0:
        return 1 + col
    if edge == "E" and col == SIZE - 1:
        return 9 + row
    if edge == "S" and row == SIZE - 1:
        return 17 + (SIZE - 1 - col)
    if edge == "W" and col == 0:
        return 25 + (SIZE - 1 - row)
    raise ValueError(f"{edge} of {cell_name} faces another cell, not a station")


def station_colour(number: int) -> str:
    """Colours cycle red, yellow, green, blue over the stations in numbering order."""
    order = [n for n in range(32) if n % 8]  # the corners 0, 8, 16, 24 are not stations
    return COLOURS[order.index(number) % 4]


@dataclass(frozen=True)
class Down:
    """A layout entry: this card lies face down on this cell."""

    card: int


def _quarter(degrees: int) -> int:
    if degrees not in (0, 90, 180, 270):
        raise ValueError(f"orientation {degrees} is not 0, 90, 180 or 270")
    return degrees // 90


def build(
    layout: Mapping[str, tuple[int, int] | tuple[int, int, int] | Down],
    *,
    seats: int = 2,
    seed: int = 1,
    empty: str = "D4",
    rest: str = "down",
    seat: int = 0,
    colours: Sequence[str] | None = None,
    action_tokens: Sequence[int] | None = None,
    special_tokens: Sequence[int] | None = None,
    point_tokens: Sequence[int] | None = None,
    company: Sequence[int] | None = None,
    energy_supply: int | None = None,
    point_supply: int | None = None,
) -> HighVoltageState:
    """A position where each cell of `layout` holds the given card: `(card, degrees)` or
    `(card, degrees, energy)` face up, or `Down(card)` face down.

    The other cards fill the other cells in ascending id order (so a test knows what a
    face-down card is): face down if `rest` is "down", or face up at r0 and unusable for
    lines if `rest` is "danger" (DANGER cards first, then cards with a DANGER token).
    `energy_supply` defaults to 36 minus the tokens on the board (never below 0) and
    `point_supply` to 20 minus the players' point tokens, so the supplies add up.
    """
    if rest not in ("down", "danger"):
        raise ValueError("rest is 'down' or 'danger'")
    state = GAME.new_state(seats, seed)
    placed: dict[int, tuple[int, bool, int, int]] = {}  # cell -> (card, up, quarters, energy)
    for cell_name, spec in layout.items():
        if cell_name == empty:
            raise ValueError(f"{cell_name} is the empty cell")
        if isinstance(spec, Down):
            placed[cell(cell_name)] = (spec.card, False, 0, NO_TOKEN)
        else:
            card, degrees, *energy = spec
            placed[cell(cell_name)] = (card, True, _quarter(degrees), energy[0] if energy else 0)
    used = [entry[0] for entry in placed.values()]
    if len(set(used)) != len(used):
        raise ValueError(f"a card is used twice in {sorted(used)}")
    spare = [c for c in DANGER_CARDS if c not in used] if rest == "danger" else []
    spare += [c for c in range(N_CARDS) if c not in used and c not in spare]
    free_cells = [c for c in range(SIZE * SIZE) if c not in placed and c != cell(empty)]
    for cell_index, card in zip(free_cells, spare, strict=True):
        if rest == "down":
            placed[cell_index] = (card, False, 0, NO_TOKEN)
        else:
            placed[cell_index] = (card, True, 0, NO_TOKEN if card in DANGER_CARDS else DANGER)
    # The state's board keeps references to these lists: change them in place only.
    state.grid[:] = [-1] * (SIZE * SIZE)
    for cell_index, (card, up, quarters, energy) in placed.items():
        state.grid[cell_index] = card
        state.pos[card] = cell_index
        state.card_up[card] = up
        state.rot[card] = quarters
        state.energy[card] = energy
    state.face_down = sum(1 for card in range(N_CARDS) if not state.card_up[card])
    state.seat = seat
    state.phase = ACTION
    state.actions_taken = 0
    state.double_turn = False
    state.changed = set()
    state.closable = []
    if colours is not None:
        state.seat_colour = [COLOURS.index(c) for c in colours]
    if action_tokens is not None:
        state.action_tokens = list(action_tokens)
    if special_tokens is not None:
        state.special_tokens = list(special_tokens)
    if point_tokens is not None:
        state.point_tokens = list(point_tokens)
    if company is not None:
        state.company = list(company)
    on_cards = sum(1 for card in range(N_CARDS) if state.energy[card] != NO_TOKEN)
    state.energy_supply = max(0, 36 - on_cards) if energy_supply is None else energy_supply
    state.point_supply = 20 - sum(state.point_tokens) if point_supply is None else point_supply
    return state


def turns_for(card: int, enter: str, leave: str) -> list[int]:
    """Orientations (quarter turns) in which `card` joins edges `enter` and `leave`, from the
    printed pictures: straight N-S, curve N-E, crossing N-S and E-W, double curve N-E and S-W."""
    printed = {
        "straight": [("N", "S")],
        "curve": [("N", "E")],
        "crossing": [("N", "S"), ("E", "W")],
        "double_curve": [("N", "E"), ("S", "W")],
        "danger": [],
    }[kind_of(card)]
    want = {enter, leave}
    found = []
    for quarters in range(4):
        for a, b in printed:
            if {_turn(a, quarters), _turn(b, quarters)} == want:
                found.append(quarters)
    return found


def _turn(edge: str, quarters: int) -> str:
    return EDGES[(EDGES.index(edge) + quarters) % 4]


def kind_of(card: int) -> str:
    if card < 16:
        return "straight"
    if card < 32:
        return "curve"
    if card < 40:
        return "crossing"
    if card < 44:
        return "double_curve"
    return "danger"


def off_board(index: int, edge: str) -> bool:
    row, col = divmod(index, SIZE)
    return {"N": row == 0, "E": col == SIZE - 1, "S": row == SIZE - 1, "W": col == 0}[edge]


def neighbour(index: int, edge: str) -> int:
    row, col = divmod(index, SIZE)
    dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[edge]
    return (row + dr) * SIZE + col + dc


def shapes(cells: Sequence[str], enter: str, leave: str) -> list[tuple[str, str]]:
    """(entry edge, exit edge) on each of `cells` for one path from edge `enter` of the first
    cell, through the orthogonally adjacent cells in order, out of edge `leave` of the last."""
    out = []
    edge_in = enter
    for i, here in enumerate(cells):
        if i + 1 < len(cells):
            step = next(
                e
                for e in EDGES
                if not off_board(cell(here), e) and neighbour(cell(here), e) == cell(cells[i + 1])
            )
        else:
            step = leave
        out.append((edge_in, step))
        edge_in = _turn(step, 2)
    return out


def route(
    cells: Sequence[str],
    enter: str,
    leave: str,
    cards: Sequence[int] | None = None,
    energy: Mapping[str, int] | None = None,
) -> dict[str, tuple[int, int, int]]:
    """Layout entries that carry one path from edge `enter` of the first cell, through
    orthogonally adjacent `cells`, out of edge `leave` of the last.

    Cards default to straights and curves in id order as each step needs; given `cards` are
    used in order (a crossing or double curve takes its lowest fitting orientation).
    """
    straights = iter(ALL_STRAIGHTS)
    curves = iter(ALL_CURVES)
    energy = energy or {}
    layout: dict[str, tuple[int, int, int]] = {}
    for i, (here, (edge_in, edge_out)) in enumerate(
        zip(cells, shapes(cells, enter, leave), strict=True)
    ):
        if cards is not None:
            card = cards[i]
        elif EDGES.index(edge_in) % 2 == EDGES.index(edge_out) % 2:
            card = next(straights)
        else:
            card = next(curves)
        turns = turns_for(card, edge_in, edge_out)
        if not turns:
            raise ValueError(f"card {card} cannot join {edge_in}-{edge_out} on {here}")
        layout[here] = (card, 90 * turns[0], energy.get(here, NO_TOKEN))
    return layout


def play(state: HighVoltageState, *texts: str) -> HighVoltageState:
    for text in texts:
        state.apply(text)
    return state


def close_by_rotating(layout, at: str, wrong: int, **options: Any) -> HighVoltageState:
    """Build `layout` with the card on `at` turned to `wrong` degrees, then rotate it into the
    orientation the layout gives it (a legal rotation when the picture changes), so that the
    action of the turn is the one that completes whatever the layout connects."""
    card, right, *energy = layout[at]
    state = build({**layout, at: (card, wrong, *energy)}, **options)
    state.apply(f"rotate {at} r{right}")
    return state


# Two lines through one crossing on C4 (put it there yourself, with or without a token):
# S3 down column C to S21, and S28 along row 4 to S12. Turning the crossing a quarter turn
# keeps both connected and changes a card of each. Leave G7 or another cell empty, not D4.
THROUGH_C4 = {
    **route(["C1", "C2", "C3"], "N", "S", cards=[0, 1, 2]),
    **route(["C5", "C6", "C7"], "N", "S", cards=[4, 5, 6]),
    **route(["A4", "B4"], "W", "E", cards=[8, 9]),
    **route(["D4", "E4", "F4", "G4"], "W", "E", cards=[10, 12, 13, 14]),
}


def random_walk(rng: random.Random, blocked: set[int]) -> tuple[list[str], str, str] | None:
    """A self-avoiding chain of cells not in `blocked`, from a border edge to a border edge
    (any length, any sides: invalid lines are wanted too), or None if the walk got stuck."""
    starts = [
        (i, e) for i in range(SIZE * SIZE) if i not in blocked for e in EDGES if off_board(i, e)
    ]
    if not starts:
        return None
    here, enter = rng.choice(starts)
    first_enter = enter
    cells = [here]
    for _ in range(16):
        options = [e for e in EDGES if e != enter]
        rng.shuffle(options)
        for edge in options:
            if off_board(here, edge):
                if len(cells) >= 2 and rng.random() < 0.5:
                    return [name(c) for c in cells], first_enter, edge
                continue
            nxt = neighbour(here, edge)
            if nxt in blocked or nxt in cells:
                continue
            cells.append(nxt)
            here, enter = nxt, _turn(edge, 2)
            break
        else:
            return None
    return None


def random_line_position(rng: random.Random, *, seats: int = 2, seed: int = 1) -> HighVoltageState:
    """A position rich in lines: a few face-up chains from the frame to the frame (most with
    one card turned out of place, some already complete), energy tokens here and there, and
    every other card face down or face up at random. Supplies add up to the rules' totals."""
    pools = {
        "straight": list(ALL_STRAIGHTS),
        "curve": list(ALL_CURVES),
        "crossing": list(CROSSINGS),
        "double_curve": list(DOUBLE_CURVES),
    }
    for pool in pools.values():
        rng.shuffle(pool)
    empty = rng.randrange(SIZE * SIZE)
    blocked = {empty}
    layout: dict[str, Any] = {}
    for _ in range(rng.randint(2, 7)):
        found = random_walk(rng, blocked)
        if found is None:
            continue
        cells, enter, leave = found
        laid = []
        for here, (edge_in, edge_out) in zip(cells, shapes(cells, enter, leave), strict=True):
            straight = EDGES.index(edge_in) % 2 == EDGES.index(edge_out) % 2
            kinds = ["straight", "crossing"] if straight else ["curve", "double_curve"]
            if rng.random() < 0.25:
                kinds.reverse()
            kind = next((k for k in kinds if pools[k]), None)
            if kind is None:  # this kind of card is used up: leave the chain unfinished
                break
            card = pools[kind].pop()
            laid.append(here)
            quarters = rng.choice(turns_for(card, edge_in, edge_out))
            token = HIGH_VOLTAGE if rng.random() < 0.1 else NO_TOKEN
            layout[here] = (card, 90 * quarters, token)
            blocked.add(cell(here))
        if laid and rng.random() < 0.8:  # turn one card out of place: a rotation closes it
            here = rng.choice(laid)
            card, degrees, token = layout[here]
            layout[here] = (card, (degrees + 90 * rng.randint(1, 3)) % 360, token)
    used = {spec[0] for spec in layout.values()}
    rest = [c for c in range(N_CARDS) if c not in used]
    rng.shuffle(rest)
    free = [c for c in range(SIZE * SIZE) if c not in blocked]
    for index, card in zip(free, rest, strict=True):
        if rng.random() < 0.5:
            token = rng.choice((NO_TOKEN, HIGH_VOLTAGE, HIGH_VOLTAGE, DANGER))
            if card in DANGER_CARDS:
                token = NO_TOKEN
            layout[name(index)] = (card, 90 * rng.randrange(4), token)
        else:
            layout[name(index)] = Down(card)
    on_board = [at for at, spec in layout.items() if not isinstance(spec, Down) and spec[2]]
    for at in on_board[30:]:  # keep some of the 36 energy tokens in the supply
        layout[at] = (*layout[at][:2], NO_TOKEN)
    return build(layout, seats=seats, seed=seed, empty=name(empty), seat=rng.randrange(seats))
