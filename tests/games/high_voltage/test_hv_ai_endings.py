"""High Voltage games between AI seats end by the rules: no AI turns cards back and forth.

Rotations are free and the rulebook sets no limit, so two AI seats that each prefer another
orientation of the same cards could stall a game for ever. (The move limit, a house rule,
ends such a game after `MAX_MOVES` moves: a backstop these games must never reach.) These
tests replay games that used to stall, play many short games at every level, and check the
anti-stalling rules on hand-picked sequences.
"""

from __future__ import annotations

import random

import pytest
from hv_positions import GAME, close_by_rotating, route

from engine.ai import choose
from games.high_voltage.ai.progress import Guard, actions_since_draw, stall_limit
from games.high_voltage.rules.state import HighVoltageState

LEVELS = ("random", "easy", "normal", "hard")
# Hard seats search every decision: many of their games are a long run, for the slow tier.
LEVEL_RUNS = [pytest.param(v, marks=pytest.mark.slow) if v == "hard" else v for v in LEVELS]
LIMIT = 1000  # a game this long has stalled: real games take 150-300 actions

# Two hard seats (6 determinizations a decision) once reached this position (2 players, deal
# 52) and from there turned F4, G4 and G5 back and forth for ever; with 3 determinizations they
# stalled too, a few draws later, with 7 cards face down. Their search ranked its candidates by
# simulated positions, without the bonus that makes a long-awaited draw worth more, while its
# model of the opponent (the one-ply player, with the bonus) drew: every rotation looked good.
STALLED_52 = """
draw D7 ; place here r90 ; draw G4 ; place here r0 ; draw F1 ; place here r0 ; draw G1 ;
place here r90 ; draw F2 ; place here r90 ; rotate F2 r0 ; draw B1 ; place empty r0 ; draw
C1 ; place here r270 ; draw A3 ; place here r90 ; draw C7 ; place here r90 ; draw F3 ; place
here r0 ; draw A2 ; place here r270 ; draw F4 ; place empty r0 ; move G4 r0 special=double ;
move D5 r0 ; declare S6-S12 ; rotate F4 r180 ; draw A6 ; place here r90 ; rotate F2 r90 ;
rotate B1 r90 ; rotate C1 r0 ; rotate F4 r90 ; rotate G4 r90 ; rotate F2 r0 ; rotate A2 r0 ;
rotate F1 r90 ; draw G3 ; place here r90 ; rotate G1 r0 ; rotate F4 r180 ; draw D1 ; place
here r0 ; rotate F1 r0 ; draw B6 ; place here r180 ; rotate F2 r90 ; rotate F4 r90 ; rotate
A6 r0 ; rotate F1 r90 ; rotate G1 r90 ; rotate F2 r0 ; draw E7 ; place here r0 ; rotate D7
r0 ; rotate F1 r0 ; draw E1 ; place here r0 ; rotate F4 r180 ; draw B3 ; place here r270 ;
rotate D7 r90 ; rotate F1 r90 ; draw B2 ; place here r0 ; swap B1 G4 r90 r90 ; declare
S2-S29 ; rotate G4 r0 ; rotate F4 r0 ; rotate F3 r90 ; rotate D7 r0 ; rotate F2 r90 ; rotate
G4 r90 ; rotate F4 r180 ; rotate G1 r0 ; draw G7 ; place here r0 ; draw G2 ; place here r90
; rotate D7 r90 ; rotate F4 r90 ; rotate F1 r0 ; draw F5 ; place here r0 ; rotate G4 r0 ;
rotate G3 r180 ; rotate G2 r0 ; rotate F2 r0 ; draw F7 ; place here r90 ; rotate G4 r90 ;
rotate F4 r180 ; rotate D7 r0 ; rotate G3 r270 ; draw G5 ; place here r0 ; draw E3 ; place
here r0 ; rotate F1 r90 ; rotate D7 r90 ; draw G6 ; place here r0 ; move G7 r0
special=double ; move F1 r90 ; declare S15-S20 ; rotate G3 r180 ; rotate F7 r0 ; rotate D7
r0 ; rotate E7 r90 ; rotate F4 r0 ; rotate G3 r270 ; rotate F3 r0 ; rotate G4 r0 ; draw A5 ;
place here r0 ; draw A7 ; place here r0 ; rotate A6 r90 ; rotate D7 r90 ; rotate G4 r90 ;
rotate F4 r270 ; move G6 r0 ; rotate F3 r90 ; rotate G3 r0 ; rotate G1 r90 ; rotate F4 r0 ;
move G4 r0 ; draw A4 ; place empty r180
"""


def decide(state: HighVoltageState, level: str, seed: int, iterations: int | None) -> str:
    bound = {"iterations": iterations} if level == "hard" and iterations else {}
    return choose(state.view(state.current_seat()), level=level, seed=seed, **bound)


def board(state: HighVoltageState) -> tuple:
    """Everything visible on the board, pictures rather than orientation numbers (a straight
    at r0 and at r180 is the same board)."""
    cards = state.cards
    cells = [
        (card, cards.exits[card][state.rot[card]], cards.colour[card][state.rot[card]])
        if card >= 0 and state.card_up[card]
        else (card,)
        for card in state.grid
    ]
    return (*cells, tuple(state.energy))


def play_out(
    state: HighVoltageState, seats: list[str], seed: int, iterations: int | None = None
) -> int:
    """Play `state` to its end with the given level in each seat, seeding each decision as the
    tournaments do; returns the actions played. Fails if a normal or hard seat brings back a
    board seen since the last action that was not a rotation, without declaring a line."""
    start = len(state.history)
    actions = 0
    seen = {board(state)}
    repeated_by: str | None = None
    while not state.is_terminal():
        assert actions < LIMIT, f"stalled: {state.history[-12:]}"
        level = seats[state.current_seat()]
        text = decide(state, level, seed * 10_007 + start + actions, iterations)
        state.apply(text)
        actions += 1
        if repeated_by is not None:
            assert text.startswith("declare") and text != "declare none", (repeated_by, text)
            repeated_by = None
        if not text.startswith(("rotate", "declare none")):
            seen = set()
        now = board(state)
        if text.startswith("rotate") and now in seen and level in ("normal", "hard"):
            repeated_by = f"{level}: {text} after {state.history[-8:-1]}"
            assert state.phase == "declaring", repeated_by
        seen.add(now)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason != "move_limit", state.history[-12:]
    return actions


# ---------------------------------------------------------------------- games that stalled


def test_two_normal_players_end_the_game_of_deal_220():
    """Two normal seats used to rotate for ever once one card was left face down: drawing it
    ends the game, and the last draw was valued without the bonus that keeps games moving."""
    state = GAME.new_state(2, 220)
    assert play_out(state, ["normal", "normal"], 220) < LIMIT


@pytest.mark.slow
def test_two_hard_players_end_the_game_of_deal_52():
    state = GAME.new_state(2, 52)
    for text in " ".join(STALLED_52.split()).split(" ; "):
        state.apply(text)
    assert state.face_down == 14 and not state.is_terminal()
    play_out(state, ["hard", "hard"], 52, iterations=3)


# ---------------------------------------------------------------------- many games


def late_positions(count: int, seed: int) -> list[tuple[HighVoltageState, int]]:
    """Games dealt for 2, 3 and 4 players and played at random until a few cards are left face
    down, where stalling pays most (drawing the last card ends the game)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        deal = rng.randrange(10**6)
        state = GAME.new_state(2 + i % 3, deal)
        left = rng.randrange(1, 9)
        while not state.is_terminal() and (state.face_down > left or state.phase != "action"):
            state.apply(state.sample_action(rng))
        if not state.is_terminal():
            out.append((state, deal))
    return out


@pytest.mark.parametrize("level", LEVEL_RUNS)
def test_games_between_ai_seats_of_one_level_end_by_the_rules(level):
    """Every level, 2 to 4 players, from late positions of random games: the games end by
    the rules, and no normal or hard seat ever brings back a board (see `play_out`)."""
    for state, deal in late_positions(12, seed=LEVELS.index(level)):
        play_out(state, [level] * state.seats, deal, iterations=1)


def test_games_between_mixed_levels_end_by_the_rules():
    rng = random.Random(9)
    for state, deal in late_positions(12, seed=99):
        play_out(state, [rng.choice(LEVELS) for _ in range(state.seats)], deal, iterations=1)


# ---------------------------------------------------------------------- the rules themselves


def early_game(seed: int = 3) -> HighVoltageState:
    """A 2-player game after ten draws placed where they were: the orientation of every card
    turned up so far is in the history."""
    state = GAME.new_state(2, seed)
    rng = random.Random(seed)
    for _ in range(10):
        state.apply(f"draw {rng.choice(face_down(state))}")
        state.apply(f"place here r{90 * rng.randrange(4)}")
        while state.phase == "declaring":
            state.apply("declare none")
    return state


def face_down(state: HighVoltageState) -> list[str]:
    return [state.geo.names[c] for c, k in enumerate(state.grid) if k >= 0 and not state.card_up[k]]


def turnable(state: HighVoltageState) -> list[tuple[str, int, list[int]]]:
    """Face-up cards drawn during the game that have at least two other pictures and whose
    turns close no line: (cell, orientation now, other orientations)."""
    drawn = {t.split()[1] for t in state.history if t.startswith("draw")}
    out = []
    for name in sorted(drawn):
        card = state.grid[state.geo.cell(name)]
        if card < 0 or not state.card_up[card] or state._is_danger(card):
            continue
        turns = list(state.cards.legal_turns[card][state.rot[card]])
        if len(turns) >= 2 and all(_closes_nothing(state, name, q) for q in turns):
            out.append((name, state.rot[card], turns))
    return out


def _closes_nothing(state: HighVoltageState, name: str, q: int) -> bool:
    trial = state.copy()
    trial.apply(f"rotate {name} r{90 * q}")
    return trial.phase == "action"


def test_turning_a_card_back_is_a_repetition():
    state = early_game()
    (cell, was, turns), *_ = turnable(state)
    state.apply(f"rotate {cell} r{90 * turns[0]}")
    guard = Guard(state)
    assert guard.repeats(cell, was)
    assert not guard.repeats(cell, turns[1])
    other = next(c for c, _, _ in turnable(state) if c != cell)
    assert not any(guard.repeats(other, q) for q in range(4))  # not turned since the draw


def test_a_cycle_over_several_cards_is_a_repetition():
    state = early_game()
    (a, a0, a_turns), (b, b0, b_turns), *_ = turnable(state)
    state.apply(f"rotate {a} r{90 * a_turns[0]}")
    state.apply(f"rotate {b} r{90 * b_turns[0]}")
    state.apply(f"rotate {a} r{90 * a0}")  # a new board: b is turned
    guard = Guard(state)
    assert guard.repeats(b, b0)  # the board before the first turn
    assert guard.repeats(a, a_turns[0])  # the board after it
    state.apply(f"draw {face_down(state)[0]}")
    state.apply("place here r0")
    assert not Guard(state).repeats(b, b0)  # a draw starts a new stretch


def test_the_same_picture_at_another_orientation_is_the_same_board():
    state = early_game()
    for cell, was, turns in turnable(state):
        card = state.grid[state.geo.cell(cell)]
        same = [
            q
            for q in range(4)
            if q != was
            and state.cards.exits[card][q] == state.cards.exits[card][was]
            and state.cards.colour[card][q] == state.cards.colour[card][was]
        ]
        if same:  # a one-colour straight: r0 and r180 show the same picture
            away = next(q for q in turns if q not in same)
            state.apply(f"rotate {cell} r{90 * away}")
            assert Guard(state).repeats(cell, same[0])
            return
    pytest.fail("no card with two orientations of one picture among those turned up")


def test_a_rotation_that_closes_a_line_is_never_refused():
    """Turning a card back to where it closes a line and declaring it is progress."""
    layout = route(["A1", "A2", "A3", "A4"], "N", "W")
    state = close_by_rotating(layout, "A4", 0, colours=["red", "green"], seat=0, empty="G1")
    state.apply("declare none")  # red declines its own line, then its card is turned away
    card, right, _ = layout["A4"]
    away = state.cards.legal_turns[card][right // 90][0]
    state.apply(f"rotate A4 r{90 * away}")
    assert Guard(state).repeats("A4", right // 90)
    assert decide(state, "normal", 0, None).startswith(f"rotate A4 r{right}")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_after_the_limit_without_a_draw_only_progress_is_played(level):
    state = early_game(4)
    assert actions_since_draw(state) == 0
    cells = [c for c, _, _ in turnable(state)]
    for i in range(stall_limit(2)):
        cell = cells[i % len(cells)]
        card = state.grid[state.geo.cell(cell)]
        for q in state.cards.legal_turns[card][state.rot[card]]:
            if _closes_nothing(state, cell, q):
                state.apply(f"rotate {cell} r{90 * q}")
                break
    assert actions_since_draw(state) == stall_limit(2) and Guard(state).forced
    for seed in range(3):
        text = decide(state, level, seed, iterations=1)
        trial = state.copy()
        trial.apply(text)
        assert text.startswith("draw") or trial.phase == "declaring", text
