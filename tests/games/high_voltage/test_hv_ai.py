"""AI seats for High Voltage: they decide from their own view only, always legally, the same
way for the same seed whatever they cannot see, within their time budget; and the pieces
they are made of (determinization, evaluation, belief) do what they claim."""

from __future__ import annotations

import json
import random
import time

import pytest
from hv_positions import (
    GAME,
    THROUGH_C4,
    build,
    close_by_rotating,
    random_line_position,
    route,
    station_colour,
)

from engine.ai import agent, choose, levels, register_agent
from games.high_voltage.ai import agents
from games.high_voltage.ai.belief import colour_belief, colour_marginals
from games.high_voltage.ai.evaluate import Evaluator, Perspective
from games.high_voltage.ai.progress import actions_since_draw, recently_turned
from games.high_voltage.rules import Declare, DeclareNone, parse_action
from games.high_voltage.rules.determinize import Determinizer, sample_state
from games.high_voltage.rules.state import HighVoltageState

LEVELS = ("random", "easy", "normal", "hard")
# A hard seat searches every decision: its many decisions are a long run, for the slow tier.
LEVEL_RUNS = [pytest.param(v, marks=pytest.mark.slow) if v == "hard" else v for v in LEVELS]
FAST = {"iterations": 2}  # bound the hard search by count: reproducible and quick


def decide(state: HighVoltageState, level: str, seed: int = 0, **bound) -> str:
    return choose(state.view(state.current_seat()), level=level, seed=seed, **(bound or FAST))


def positions(count: int, seed: int = 0) -> list[HighVoltageState]:
    """Live positions of every phase: random games stopped at random points (declarations
    favoured so the declaring step appears), and hand-made boards rich in lines."""
    rng = random.Random(seed)
    out: list[HighVoltageState] = []
    while len(out) < count:
        if rng.random() < 0.5:
            state = random_line_position(rng, seats=rng.choice((2, 3, 4)), seed=rng.randrange(99))
        else:
            state = GAME.new_state(rng.choice((2, 3, 4)), rng.randrange(10**6))
        for _ in range(rng.randrange(0, 90)):
            if state.is_terminal():
                break
            if state.phase == "declaring" and rng.random() < 0.3:
                break
            state.apply(state.sample_action(rng))
        if not state.is_terminal():
            out.append(state)
    return out


def hidden_variant(state: HighVoltageState, viewer: int, rng: random.Random) -> HighVoltageState:
    """The same game as `viewer` sees it, with every secret dealt again: face-down cards
    shuffled among their cells (a card the viewer is holding stays), the other seats'
    colours changed, another seed."""
    other = state.copy()
    keep = {state.drawn} if state.phase == "placing" and viewer == state.seat else set()
    hidden = [k for k in range(48) if not state.card_up[k] and k not in keep]
    cells = [state.pos[k] for k in hidden]
    shuffled = hidden[:]
    while len(hidden) > 1 and shuffled == hidden:
        rng.shuffle(shuffled)
    for cell, card in zip(cells, shuffled, strict=True):
        other.grid[cell] = card
        other.pos[card] = cell
    if state.phase == "placing" and not keep:
        other.drawn = other.grid[state.pos[state.drawn]]
    free = [c for c in range(4) if c != state.seat_colour[viewer]]
    while True:
        rng.shuffle(free)
        seats = [s for s in range(state.seats) if s != viewer]
        new = dict(zip(seats, free, strict=False))
        if state.seats == 1 or any(new[s] != state.seat_colour[s] for s in seats):
            break
    for seat, colour in new.items():
        other.seat_colour[seat] = colour
    other.seed = state.seed + 1
    return other


# ---------------------------------------------------------------------- the entry point


def test_every_level_is_registered_for_high_voltage():
    assert set(LEVELS) <= set(levels("high-voltage"))
    assert agent("high-voltage", "hard").about


def test_an_unknown_level_or_game_is_a_clear_error():
    view = GAME.new_state(2, 1).view(0)
    with pytest.raises(KeyError, match=r"levels: .*normal"):
        choose(view, level="grandmaster", seed=1)
    with pytest.raises(ValueError, match="names no game"):
        choose({}, level="easy", seed=1)


def test_a_level_cannot_be_registered_twice():
    levels("high-voltage")
    with pytest.raises(ValueError, match="registered"):
        register_agent("high-voltage", "normal", lambda view, **kw: "declare none")


def test_the_ai_decides_only_for_its_own_seat_on_its_turn():
    state = GAME.new_state(2, 3)
    mover = state.current_seat()
    with pytest.raises(ValueError, match="own seat"):
        choose(state.view(1 - mover), level="easy", seed=1)
    with pytest.raises(ValueError, match="own seat"):
        choose(state.view(None), level="easy", seed=1)


@pytest.mark.parametrize("level", LEVEL_RUNS)
def test_every_decision_is_legal(level):
    """In every phase, the answer is one of the listed legal actions (swaps name their cells in
    the listed order) and the state accepts it."""
    phases = set()
    for i, state in enumerate(positions(14, seed=LEVELS.index(level))):
        for _ in range(3):  # the decision, and what follows it (placing, declaring)
            if state.is_terminal():
                break
            phases.add(state.phase)
            text = decide(state, level, seed=i)
            action = parse_action(text)
            assert action.text() == text
            assert action in set(state.legal_actions()), (level, text)
            state.apply(text)
    assert {"action", "placing"} <= phases


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_information_never_changes_the_decision(level):
    """Two deals that differ only in what the seat cannot see (face-down cards, the other
    seats' colours, the seed) give the same view, and the same decision for the same seed."""
    rng = random.Random(5)
    for i, state in enumerate(positions(8, seed=10 + LEVELS.index(level))):
        seat = state.current_seat()
        other = hidden_variant(state, seat, rng)
        assert other.to_dict() != state.to_dict()
        assert other.view(seat) == state.view(seat)
        assert decide(state, level, seed=i) == decide(other, level, seed=i)


def test_the_hard_search_is_reproducible_by_iterations():
    state = positions(1, seed=3)[0]
    first = decide(state, "hard", seed=7, iterations=3)
    assert decide(state, "hard", seed=7, iterations=3) == first


def test_a_longer_hard_search_is_legal_and_reproducible():
    """Past the first determinizations the search reuses what no hidden card can change; the
    decision stays one of the legal actions, the same for the same seed and bound."""
    for i, state in enumerate(positions(4, seed=31)):
        first = decide(state, "hard", seed=i, iterations=12)
        assert parse_action(first) in set(state.legal_actions())
        assert decide(state, "hard", seed=i, iterations=12) == first


def mid_game_view(seed: int = 11) -> tuple[HighVoltageState, dict]:
    rng = random.Random(seed)
    state = GAME.new_state(2, seed)
    for _ in range(30):  # a mid-game position with plenty to consider
        state.apply(state.sample_action(rng))
        while state.phase != "action":
            state.apply(state.sample_action(rng))
    return state, state.view(state.current_seat())


def test_the_time_budget_holds(monkeypatch):
    """A hard search given 0.3 s and no reason to stop early (no iteration cap, no candidate
    ever dropped) searches until the budget is nearly spent and returns within it; the margin
    is generous because a busy machine may pause any process."""
    state, view = mid_game_view()
    choose(view, level="normal", seed=0)  # load the modules outside the timing
    monkeypatch.setattr(agents, "HARD_Z", 1e9)
    monkeypatch.setattr(agents, "HARD_OBVIOUS", 1e9)
    started = time.perf_counter()
    text = choose(view, level="hard", seed=1, budget_s=0.3, iterations=10_000)
    elapsed = time.perf_counter() - started
    assert 0.15 < elapsed < 0.3 + 0.4, elapsed
    assert parse_action(text) in set(state.legal_actions())


def test_the_default_hard_decision_stops_well_inside_a_second():
    """By default hard stops at its iteration cap, or at its 1 s budget if that comes first."""
    state, view = mid_game_view(12)
    choose(view, level="normal", seed=0)
    started = time.perf_counter()
    text = choose(view, level="hard", seed=1)
    assert time.perf_counter() - started < 1.0 + 0.4
    assert parse_action(text) in set(state.legal_actions())


def test_a_tiny_budget_still_gives_a_legal_decision():
    state = positions(1, seed=21)[0]
    text = decide(state, "hard", seed=2, budget_s=0.001)
    state.apply(text)


# ---------------------------------------------------------------------- playing well


COLOURFUL = {  # S3 (green) to S27 (blue), 7 cards: red 2, yellow 2, green 3, blue 2 points
    "C1": (0, 0),
    "C2": (33, 0),
    "C3": (4, 0),
    "C4": (28, 270),
    "B4": (1, 90),
    "A4": (40, 270),
    "A5": (24, 270),
}


def test_normal_closes_a_line_that_pays_it_and_declares_it():
    state = build({**COLOURFUL, "A5": (24, 0)}, colours=["green", "red"], seat=0)
    text = decide(state, "normal")
    state.apply(text)
    assert state.phase == "declaring", text
    assert decide(state, "normal") == "declare S3-S27"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_line_of_someone_elses_colour_is_left_alone(level):
    """Four red cards between two red stations pay red 6 and no one else: a blue
    player declines it; a red player takes it."""
    layout = route(["A1", "A2", "A3", "A4"], "N", "W")
    assert (station_colour(1), station_colour(28)) == ("red", "red")
    for colour, expected in (("blue", "declare none"), ("red", "declare S1-S28")):
        declines = 0
        tries = 20 if level == "easy" else 10  # easy plays at random now and then
        for seed in range(tries):
            state = close_by_rotating(
                layout, "A4", 0, colours=[colour, "green"], seat=0, empty="G1"
            )
            assert state.phase == "declaring" and state.seat == 0
            declines += decide(state, level, seed=seed) == expected
        assert declines >= (12 if level == "easy" else tries), (level, colour)


def test_ai_games_end():
    """Rotations are free, so two AI seats could turn one card back and forth for ever; the
    AIs avoid that, and a whole game between them ends, with lines scored."""
    state = GAME.new_state(2, 4)
    steps = 0
    while not state.is_terminal():
        level = "normal" if state.current_seat() == 0 else "easy"
        state.apply(decide(state, level, seed=steps))
        steps += 1
        assert steps < 600
    assert state.declared


def test_recent_rotations_and_stalling_are_read_from_the_history():
    state = build(THROUGH_C4, empty="G7")
    state.apply("rotate C1 r90")
    state.apply("rotate C1 r0")
    assert recently_turned(state) == {"C1"}
    assert actions_since_draw(state) == 2
    state.apply("draw A1")
    state.apply("place here r0")
    assert actions_since_draw(state) == 0


# ---------------------------------------------------------------------- determinization


def test_a_determinized_state_shows_the_same_view():
    rng = random.Random(2)
    for state in positions(40, seed=2):
        for seat in range(state.seats):
            view = state.view(seat)
            guess = sample_state(view, rng)
            assert guess.view(seat) == view
            json.dumps(guess.to_dict())
            assert guess.seat_colour[seat] == state.seat_colour[seat]
            assert len(set(guess.seat_colour)) == state.seats
            if state.phase == "declaring":
                assert guess.closable_lines() == state.closable_lines()
            if state.phase == "placing" and seat == state.seat:
                assert guess.cards.faces[guess.drawn] == state.cards.faces[state.drawn]


def test_determinized_states_vary_what_is_hidden_only():
    state = positions(1, seed=8)[0]
    seat = state.current_seat()
    view = state.view(seat)
    det = Determinizer(view, rng=random.Random(0))
    samples = [det.sample(random.Random(i)) for i in range(20)]
    assert all(s.view(seat) == view for s in samples)
    faces_down = {tuple(s.grid) for s in samples}
    assert len(faces_down) > 1 or state.face_down <= 1
    if state.seats < 4:
        assert len({tuple(s.seat_colour) for s in samples}) > 1


def test_a_determinization_can_be_given_its_colours():
    state = positions(1, seed=8)[0]
    seat = state.current_seat()
    view = state.view(seat)
    det = Determinizer(view, rng=random.Random(0))
    rng = random.Random(1)
    for index, (assignment, _) in enumerate(det.options):
        sample = det.sample(rng, index)
        assert sample.seat_colour == [assignment[s] for s in range(state.seats)]
        assert sample.view(seat) == view


def test_colour_shares_follow_the_weights():
    """After every number of samples each colour assignment has had its share, give or take
    one; equal weights take turns."""
    shares = agents.ColourShares([1.0, 1.0, 1.0])
    assert [shares.next() for _ in range(6)] == [0, 1, 2, 0, 1, 2]
    weights = [6.0, 3.0, 0.5, 0.5]
    shares = agents.ColourShares(weights)
    for n in range(1, 41):
        shares.next()
        for count, weight in zip(shares.counts, weights, strict=True):
            assert abs(count - n * weight / sum(weights)) <= 1.0
    assert shares.counts == [24, 12, 2, 2]


def test_a_simulation_that_draws_no_card_is_the_same_in_every_deal_of_the_hidden_cards():
    """The hard search keeps such a simulation's value per candidate and colours instead of
    playing it again: true only if no player's choice on the way depends on where the
    unseen cards lie."""
    checked = 0
    for i, state in enumerate(positions(10, seed=41)):
        view = state.view(state.current_seat())
        belief = colour_belief(view)
        det = Determinizer(view, belief, random.Random(i))
        models = agents._Models(
            det.template,
            view["viewer"],
            Perspective(view["viewer"], colour_marginals(view, belief)),
        )
        rng = random.Random(i)
        deals = [det.sample(rng, 0) for _ in range(3)]
        assert len({tuple(d.grid) for d in deals}) > 1 or state.face_down <= 1
        for _, action in agents._candidates(det.template, models)[:4]:
            results = [agents._simulate(deal, action, models) for deal in deals]
            if any(by_cards for _, by_cards in results):
                continue
            assert max(v for v, _ in results) == pytest.approx(min(v for v, _ in results))
            checked += 1
    assert checked >= 10


def test_a_view_that_the_card_set_cannot_show_is_refused():
    view = GAME.new_state(2, 1).view(0)
    up = next(c for c in view["cells"] if c["state"] == "up")
    up["kind"] = "straight"
    up["paths"] = [{"edges": ["N", "S"], "colour": "purple"}]
    with pytest.raises(ValueError, match="card set"):
        sample_state(view, random.Random(0))


# ---------------------------------------------------------------------- evaluation, belief


def test_the_incremental_evaluation_equals_the_full_one():
    """Re-walking only the chains a change touches gives the same value as starting over."""
    rng = random.Random(4)
    checked = 0
    for _ in range(12):
        state = random_line_position(rng)
        ev = Evaluator(state, Perspective(0, [[1, 0, 0, 0], [0, 0.5, 0.5, 0]]))
        base = ev.base(state)
        work = state.copy()
        for cell, card in enumerate(state.grid):
            if card < 0 or not state.card_up[card]:
                continue
            for q in range(4):
                work.rot[card] = q
                value = ev.delta(work, base, [cell])
                if value is not None:
                    assert value == pytest.approx(ev.value(work))
                    checked += 1
            work.rot[card] = state.rot[card]
    assert checked > 100


def test_a_complete_line_through_a_changed_card_is_left_to_the_full_play_out():
    state = build({**COLOURFUL, "A5": (24, 0)}, colours=["green", "red"])
    ev = Evaluator(state, Perspective.known(0, [2, 0]))
    base = ev.base(state)
    work = state.copy()
    work.rot[24] = 3
    assert ev.delta(work, base, [state.pos[24]]) is None


def test_the_evaluation_prefers_lines_of_its_own_colour():
    state = build({**COLOURFUL, "A5": (24, 0)}, colours=["green", "red"])
    closed = state.copy()
    closed.apply("rotate A5 r270")
    closed.apply("declare S3-S27")
    green = Evaluator(state, Perspective.known(0, [2, 0]))
    red = Evaluator(state, Perspective.known(0, [0, 2]))
    # Green has 3 points on the line against 2 for each other colour.
    assert green.value(closed) - green.value(state) > red.value(closed) - red.value(state)
    assert green.value(closed) > green.value(state)


def test_belief_follows_declared_and_declined_lines():
    layout = route(["A1", "A2", "A3", "A4"], "N", "W")
    state = close_by_rotating(layout, "A4", 0, colours=["blue", "red"], seat=1, empty="G1")
    state.apply("declare S1-S28")  # seat 1 took a line that pays red 6 and no one else
    belief = colour_belief(state.view(0))
    assert set(belief) == {1}
    assert max(range(4), key=lambda c: belief[1][c]) == 0  # red
    marginals = colour_marginals(state.view(0), belief)
    assert marginals[0] == [0, 0, 0, 1.0]  # the viewer knows its own colour: blue
    assert marginals[1][0] > 0.6 and marginals[1][3] == 0
    assert sum(marginals[1]) == pytest.approx(1)


def test_declining_lines_is_public_and_lowers_their_colours():
    state = close_by_rotating(
        route(["A1", "A2", "A3", "A4"], "N", "W"), "A4", 0, colours=["blue", "red"], empty="G1"
    )
    state.apply("declare none")
    assert state.declined == [
        {
            "seat": 0,
            "lines": [{"line": "S1-S28", "points": {"red": 6, "yellow": 0, "green": 0, "blue": 0}}],
        }
    ]
    assert state.view(1)["declined"] == state.declined
    belief = colour_belief(state.view(1))
    assert belief[0][0] < belief[0][2]  # red is now less likely than green for seat 0
    restored = HighVoltageState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    old_save = state.to_dict()
    del old_save["declined"]  # saved before the log existed
    assert HighVoltageState.from_dict(old_save).declined == []


def test_the_views_public_logs_and_changed_cells():
    state = build({**COLOURFUL, "A5": (24, 0)}, colours=["green", "red"])
    state.apply("rotate A5 r270")
    assert state.view(1)["turn_changed_cells"] == ["A5"]
    state.apply(Declare(3, 27))
    view = state.view(1)
    assert [rec["line"] for rec in view["declared"]] == ["S3-S27"]
    assert view["turn_changed_cells"] == []  # the turn passed
    assert isinstance(DeclareNone().text(), str)


def test_copy_is_independent_and_equal():
    state = positions(1, seed=6)[0]
    twin = state.copy()
    assert twin == state and twin._board.grid is twin.grid
    rng = random.Random(3)
    action = state.sample_action(rng)
    twin.apply(action)
    assert twin != state
    state.apply(action)
    assert twin == state
