"""Which lines may be scored, what a line is worth, the final scores, and whether the game must
end because nothing useful can happen any more.

Pure computations over the board and the counts they need: the state asks them after every
action (which lines closed, is the game over), the AI asks them of positions it imagines, and
the end-of-game tests can be checked against a brute-force search on their own.
"""

from __future__ import annotations

from games.high_voltage.rules.board import Geometry
from games.high_voltage.rules.lines import DANGER, HIGH_VOLTAGE, NO_TOKEN, Board, Line
from games.high_voltage.rules.rules_data import CardSet, Setup


def valid_lines_through(board: Board, cells: list[int], setup: Setup) -> list[Line]:
    """The valid lines through any of `cells`: given the cells of the cards a turn changed,
    the only lines that turn may close."""
    return [
        line
        for line in board.lines_through(cells)
        if board.problem(line, setup.min_line_cards, setup.max_high_voltage_on_line) is None
    ]


def line_points(
    line: Line, geo: Geometry, setup: Setup, point_supply: int
) -> tuple[list[int], int]:
    """(points per colour, point tokens the declarer would take) for declaring `line`: a point
    for the colour of each path it uses and of each station at its ends, and point tokens by
    its length while the supply lasts."""
    points = [0] * len(setup.colours)
    for colour in line.colours:
        points[colour] += 1
    stations = geo.stations
    points[stations[line.first].colour] += 1
    points[stations[line.second].colour] += 1
    tokens = min(setup.points_for_length(len(line)), point_supply)
    return points, tokens


def final_scores(company: list[int], seat_colour: list[int], point_tokens: list[int]) -> list[int]:
    """Each seat's company points plus point tokens (meaningful at any time, final at end)."""
    return [company[seat_colour[s]] + point_tokens[s] for s in range(len(point_tokens))]


def no_line_possible(
    board: Board,
    cards: CardSet,
    setup: Setup,
    face_down: int,
    action_tokens: list[int],
    special_tokens: list[int],
) -> bool:
    """True only if no valid line can ever be closed again, whatever anyone does.

    Sound, never early: (1) a line needs `min_line_cards` cards that carry no DANGER
    token, of which at most `max_high_voltage_on_line` carry HIGH VOLTAGE, and tokens are
    never removed; face-down cards count as usable whatever they hide, so the test reveals
    nothing. (2) Once nothing can be drawn, moved or swapped by anyone, only rotations
    remain, and an exact search over orientations decides whether a line can appear.
    """
    clean = face_down
    high_voltage = 0
    card_up, energy, is_danger = board.card_up, board.energy, cards.is_danger
    for card in range(len(cards)):
        if card_up[card] and not is_danger[card]:
            if energy[card] == NO_TOKEN:
                clean += 1
            elif energy[card] == HIGH_VOLTAGE:
                high_voltage += 1
    if clean + min(high_voltage, setup.max_high_voltage_on_line) < setup.min_line_cards:
        return True
    if face_down or any(action_tokens) or any(special_tokens):
        return False
    return not board.rotation_line_possible(
        cards.can_go_straight,
        cards.can_turn,
        setup.min_line_cards,
        setup.max_high_voltage_on_line,
    )


def has_action(
    board: Board, cards: CardSet, face_down: int, action_left: int, special_left: int
) -> bool:
    """Whether the seat to move has any legal action: a card to draw, a card to turn, or a
    card its tokens can move."""
    if face_down:
        return True
    movable = action_left > 0
    special = special_left > 0
    card_up, energy, rot = board.card_up, board.energy, board.rot
    for card in range(len(cards)):
        if not card_up[card]:
            continue
        if energy[card] == DANGER or cards.is_danger[card]:
            if special:
                return True
        elif movable or cards.legal_turns[card][rot[card]]:
            return True
    return False
