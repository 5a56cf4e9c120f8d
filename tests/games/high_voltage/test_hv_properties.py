"""Properties of random High Voltage games that must hold after every action.

Games come from hypothesis-drawn seeds and random players: mostly the engine's own sampler,
sometimes any action from `legal_actions()` (which also covers the declaring step), with a
bias towards declaring lines so that scoring and energy tokens get exercised. A second
family starts from hand-made positions rich in nearly finished lines and looks for rotations
that close them, so lines are declared, tokens flip to DANGER and the supply can run out.
"""

from __future__ import annotations

import json
import random

import pytest
from hv_positions import DANGER_CARDS, GAME, random_line_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.high_voltage.rules import Declare, Rotate, parse_action
from games.high_voltage.rules.state import HighVoltageState

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
SEEDS = st.integers(min_value=10**10, max_value=2**62)  # long enough never to occur by chance


def choose(state: HighVoltageState, rng: random.Random, seek_lines: bool = False):
    """A random player: declares most closable lines, now and then picks from the full list
    of legal actions, and (if asked) prefers a rotation that closes a line."""
    if state.phase == "declaring":
        actions = state.legal_actions()
        declares = [a for a in actions if isinstance(a, Declare)]
        if declares and rng.random() < 0.85:
            return rng.choice(declares)
        return rng.choice(actions)
    if state.phase == "action" and rng.random() < 0.04:
        return rng.choice(state.legal_actions())
    if seek_lines and state.phase == "action" and rng.random() < 0.7:
        candidates = _some_rotations(state, rng, 4)
        for action in candidates:
            trial = state.copy()
            trial.apply(action)
            if trial.phase == "declaring":
                return action
        if candidates and rng.random() < 0.6:
            return rng.choice(candidates)
    return state.sample_action(rng)


def _some_rotations(state, rng, count):
    turnable = [
        (cell, card)
        for cell, card in enumerate(state.grid)
        if card >= 0
        and state.card_up[card]
        and not state._is_danger(card)
        and state.cards.legal_turns[card][state.rot[card]]
    ]
    out = []
    for _ in range(count if turnable else 0):
        cell, card = rng.choice(turnable)
        quarters = rng.choice(state.cards.legal_turns[card][state.rot[card]])
        out.append(Rotate(state.geo.names[cell], 90 * quarters))
    return out


# ---------------------------------------------------------------- the checks


def check_board(state: HighVoltageState) -> None:
    assert state.grid.count(-1) == 1, "exactly one empty cell"
    assert sorted(c for c in state.grid if c >= 0) == list(range(48)), "every card once"
    assert all(state.grid[state.pos[card]] == card for card in range(48))
    assert state.face_down == sum(1 for up in state.card_up if not up)
    on_cards = sum(1 for card in range(48) if state.energy[card])
    assert state.energy_supply + on_cards == 36
    assert state.energy_supply >= 0
    assert all(state.energy[card] == 0 for card in DANGER_CARDS)
    assert state.point_supply + sum(state.point_tokens) == 20 and state.point_supply >= 0
    totals = dict.fromkeys(state.setup.colours, 0)
    for record in state.declared:
        for colour, points in record["points"].items():
            totals[colour] += points
    assert state.company == [totals[c] for c in state.setup.colours]
    assert (state.current_seat() is None) == state.is_terminal()


def check_tokens(before: dict, state: HighVoltageState) -> None:
    """Action and special tokens are never negative and only ever spent."""
    for key in ("action_tokens", "special_tokens"):
        now = getattr(state, key)
        assert all(0 <= new <= old for new, old in zip(now, before[key], strict=True)), key
    assert all(
        new >= old for new, old in zip(state.point_tokens, before["point_tokens"], strict=True)
    )


def check_views(state: HighVoltageState, rng: random.Random) -> None:
    over = state.is_terminal()
    colours = [state.setup.colours[c] for c in state.seat_colour]
    for viewer in [None, *range(state.seats)]:
        view = state.view(viewer)
        text = json.dumps(view)
        assert '"seed"' not in text and str(state.seed) not in text
        for i, player in enumerate(view["players"]):
            assert player["colour"] == (colours[i] if over or i == viewer else None)
        for entry in view["cells"]:
            if entry["state"] == "down":
                assert set(entry) == {"cell", "state"}
        if state.phase == "placing":
            drawn = view["drawn"]
            assert drawn["cell"] == state.geo.names[state.pos[state.drawn]]
            assert ("paths" in drawn) is (viewer == state.seat)
        else:
            assert view["drawn"] is None
        if not over and viewer is not None:
            # Shuffle what this viewer may not know: the view must not change.
            assert hidden_variant(state, viewer, rng).view(viewer) == view
    if not over:
        assert hidden_variant(state, None, rng).view(None) == state.view(None)


def hidden_variant(state: HighVoltageState, viewer: int | None, rng: random.Random):
    """The same game as `viewer` sees it with every secret changed: face-down cards shuffled
    among their cells (the drawn card stays put for its drawer), the other seats' colours
    dealt again, another seed."""
    other = state.copy()
    keep = {state.drawn} if state.phase == "placing" and viewer == state.seat else set()
    hidden = [card for card in range(48) if not state.card_up[card] and card not in keep]
    cells = [state.pos[card] for card in hidden]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    for cell, card in zip(cells, shuffled, strict=True):
        other.grid[cell] = card
        other.pos[card] = cell
    if state.phase == "placing" and state.drawn not in keep:
        other.drawn = other.grid[state.pos[state.drawn]]
    seats = [s for s in range(state.seats) if s != viewer]
    free = [c for c in range(4) if viewer is None or c != state.seat_colour[viewer]]
    rng.shuffle(free)
    for seat, colour in zip(seats, free, strict=False):
        other.seat_colour[seat] = colour
    other.seed = state.seed + 1
    return other


def check_round_trips(state: HighVoltageState) -> None:
    restored = HighVoltageState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    if state.phase != "action":  # cheap here; in the action phase the lists are long
        assert restored.legal_actions() == state.legal_actions()


def check_legal_actions(state: HighVoltageState, rng: random.Random, limit: int = 60) -> None:
    """Every listed action is accepted (a sample when the list is long), its text reads back
    as itself, and the sampler only proposes listed actions."""
    actions = state.legal_actions()
    assert actions, "a live game always has a legal action"
    listed = set(actions)
    for _ in range(5):
        assert state.sample_action(rng) in listed
    for action in actions if len(actions) <= limit else rng.sample(actions, limit):
        assert parse_action(action.text()) == action
        state.copy().apply(action)


# ---------------------------------------------------------------- the properties


@settings(SETTINGS, max_examples=10)
@given(seed=SEEDS, seats=st.integers(2, 4), player=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(seed, seats, player):
    play_checking_every_invariant(seed, seats, player)


@pytest.mark.slow
@SETTINGS
@given(seed=SEEDS, seats=st.integers(2, 4), player=st.integers(0, 2**32))
def test_many_random_games_keep_every_invariant(seed, seats, player):
    play_checking_every_invariant(seed, seats, player)


def play_checking_every_invariant(seed: int, seats: int, player: int) -> None:
    """A random game from the deal to its end, every invariant checked along the way."""
    state = GAME.new_state(seats, seed)
    rng = random.Random(player)
    checkpoints = set(rng.sample(range(200), 3))
    for step in range(400):
        if state.is_terminal():
            break
        before = state.to_dict()
        state.apply(choose(state, rng))
        check_board(state)
        check_tokens(before, state)
        if step % 5 == 0 or state.phase != "action":  # placing shows the drawn card
            check_views(state, rng)
        if step in checkpoints and not state.is_terminal():
            check_legal_actions(state, rng)
            check_round_trips(state)
    assert state.is_terminal(), "random games end"
    check_views(state, rng)
    check_round_trips(state)
    assert GAME.replay(seats, seed, state.history) == state
    assert state.outcome().reason in (
        "last_card_placed",
        "energy_tokens_exhausted",
        "no_valid_line_possible",
        "no_legal_action",
    )


@settings(SETTINGS, max_examples=15)
@given(seed=SEEDS, seats=st.integers(2, 4), player=st.integers(0, 2**32))
def test_games_from_line_rich_positions_keep_every_invariant(seed, seats, player):
    rng = random.Random(player)
    state = random_line_position(rng, seats=seats, seed=seed)
    check_board(state)
    for step in range(100):
        if state.is_terminal():
            break
        before = state.to_dict()
        state.apply(choose(state, rng, seek_lines=True))
        check_board(state)
        check_tokens(before, state)
        if step % 6 == 0 or state.phase != "action":
            check_views(state, rng)
        if step % 30 == 0 and not state.is_terminal():
            check_legal_actions(state, rng, limit=30)
            check_round_trips(state)
    check_round_trips(state)


def test_line_rich_games_do_declare_lines():
    """The line-rich family really exercises scoring: across a few fixed games lines are
    declared, DANGER tokens appear and some game runs out of energy tokens."""
    declared = danger = 0
    reasons = set()
    for game in range(12):
        rng = random.Random(game)
        state = random_line_position(rng, seats=2 + game % 3, seed=game)
        for _ in range(150):
            if state.is_terminal():
                break
            state.apply(choose(state, rng, seek_lines=True))
        declared += len(state.declared)
        danger += sum(rec["tokens_flipped"] for rec in state.declared)
        if state.is_terminal():
            reasons.add(state.outcome().reason)
    assert declared >= 10 and danger >= 1
    assert "last_card_placed" in reasons
