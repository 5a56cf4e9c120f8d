"""The High Voltage AI levels, each a function of one seat's view.

- `random`: a uniformly random kind of legal action, then a random action of that kind (the
  engine's own sampler, run on a state rebuilt from the view).
- `easy`: plays at random most of the time, but usually takes a line that pays its own
  colour when one is there for the taking.
- `normal`: the one-ply greedy player of `search.OnePly`: the action whose resulting position
  is worth most (own expected score minus the best opponent's, plus line prospects), with the
  colours it cannot see weighted by its belief.
- `hard`: information-set Monte Carlo search. It keeps the normal player's best few actions
  and plays each of them out in many determinizations (hidden cards and colours sampled
  consistently with the view and the belief): its own turn is finished greedily, the next
  opponent answers as a one-ply player who knows only its own colour, and the position after
  that answer is valued, with the sampled colours, by the AI's own best next action.
  The colours of the determinizations follow the belief in fixed shares rather than at random.
  A simulation in which no card is drawn does not depend on where the hidden cards lie (every
  player values a draw by its expectation over the unseen cards), so its value is kept per
  candidate and colours, and later determinizations replay only the simulations that draw.
  Candidates that fall clearly behind are dropped; the search stops when one is left, at an
  iteration cap, or at the time budget.

The searching levels obey the anti-stalling rules of `progress` (through the one-ply player),
and the hard search adds the same draw bonus to its draws' simulated values.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from games.high_voltage.ai.belief import colour_belief, colour_marginals
from games.high_voltage.ai.evaluate import DEFAULT_WEIGHTS, Evaluator, Perspective, Weights
from games.high_voltage.ai.progress import draw_bonus
from games.high_voltage.ai.search import MODEL, OnePly, Scored, distinct_rotations
from games.high_voltage.rules.actions import Declare, DeclareNone, Draw, HvAction, Place, Rotate
from games.high_voltage.rules.determinize import Determinizer, sample_state
from games.high_voltage.rules.state import ACTION, DECLARING, OVER, PLACING, HighVoltageState

HARD_BUDGET_S = 1.0  # default wall-clock budget per decision
# Determinizations at most. Past the first few, a determinization costs only the simulations
# that draw a card (the others are kept per colours), so 24 of them take about half a second
# of one core for a decision of the middle game; the budget stops the search sooner on a
# loaded machine.
HARD_MAX_ITERATIONS = 24
# Before any candidate may be dropped: in 2 players, one determinization for each colour the
# other seat may hold.
HARD_MIN_ITERATIONS = 3
HARD_OBVIOUS = 3.0  # a one-ply lead this large (in points) is taken without searching
HARD_CANDIDATES = 6  # the normal player's best actions kept for the search
HARD_Z = 1.6  # how clearly (in standard errors) a candidate must trail to be dropped
REPLY_TURNS = 1  # opponent turns simulated after the AI's own turn
# True: value a leaf by the AI's own best next action (a third ply). It costs about 2.5 times
# as much per determinization, which the 1 s budget affords many times over, and wins more
# often against the normal player (see bench/hv_match.py).
LEAF_REPLY = True

# The leaf evaluation when the AI itself is next to move: its prospects are nearly sure.
MY_MOVE_WEIGHTS = Weights(prospect_good=0.85, prospect_bad=0.45)

EASY_SEEK = 0.7  # how often the easy player looks for a line to take


def perspective(view: Mapping[str, Any], *, use_belief: bool = True) -> Perspective:
    belief = colour_belief(view) if use_belief else None
    return Perspective(view["viewer"], colour_marginals(view, belief))


# ---------------------------------------------------------------------- easy


def _line_gain(state: HighVoltageState, persp: Perspective, line) -> float:
    points, tokens = state.line_points(line)
    return sum(p * a for p, a in zip(points, persp.adv, strict=True)) + tokens


def _closing_gain(state: HighVoltageState, persp: Perspective, action: HvAction) -> float | None:
    """The best gain of a line `action` makes closable, or None if it closes none."""
    trial = state.copy()
    trial.apply(action)
    if trial.phase != DECLARING:
        return None
    return max(_line_gain(trial, persp, line) for line in trial.closable)


def decide_easy(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """Mostly random, with a light preference for lines that pay its own colour."""
    state = sample_state(view, rng)
    persp = perspective(view, use_belief=False)
    seek = rng.random() < EASY_SEEK
    if state.phase == DECLARING:
        gains = [(_line_gain(state, persp, ln), ln) for ln in state.closable]
        best_gain, best = max(gains, key=lambda g: g[0])
        if seek and best_gain > 0:
            return Declare(best.first, best.second).text()
        return (DeclareNone() if seek else rng.choice(state.legal_actions())).text()
    if seek and state.phase == PLACING:
        options = [
            Place(place, 90 * q)
            for place in ("here", "empty")
            for q in distinct_rotations(state, state.drawn)
        ]
        scored = [(_closing_gain(state, persp, a), i, a) for i, a in enumerate(options)]
        good = [(g, i, a) for g, i, a in scored if g is not None and g > 0]
        if good:
            return max(good, key=lambda t: (t[0], -t[1]))[2].text()
    if seek and state.phase == ACTION:
        names = state.geo.names
        turns = [
            Rotate(names[cell], 90 * q)
            for cell, card in enumerate(state.grid)
            if card >= 0 and state.card_up[card] and not state._is_danger(card)
            for q in state.cards.legal_turns[card][state.rot[card]]
        ]
        scored_turns = [(_closing_gain(state, persp, a), i, a) for i, a in enumerate(turns)]
        good_turns = [(g, i, a) for g, i, a in scored_turns if g is not None and g > 0]
        if good_turns:
            return max(good_turns, key=lambda t: (t[0], -t[1]))[2].text()
    return state.sample_action(rng).text()


# ---------------------------------------------------------------------- normal


def decide_normal(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """The one-ply greedy choice (see `search.OnePly`)."""
    state = sample_state(view, rng, colour_belief(view))
    evaluator = Evaluator(state, perspective(view))
    return OnePly(evaluator).choose(state).action.text()


# ---------------------------------------------------------------------- hard


class _Models:
    """Evaluators and one-ply players per seat and colour, built once per decision."""

    def __init__(self, template: HighVoltageState, me: int, persp: Perspective) -> None:
        self.template = template
        self.me = me
        self.mine = OnePly(Evaluator(template, persp))
        self._players: dict[tuple[int, int], OnePly] = {}
        self._judges: dict[tuple[int, ...], Evaluator] = {}
        self._repliers: dict[int, OnePly] = {}
        self.colours = len(template.setup.colours)

    def player(self, seat: int, colour: int) -> OnePly:
        """A one-ply model of `seat` holding `colour`; it sees no one else's colour."""
        key = (seat, colour)
        found = self._players.get(key)
        if found is None:
            n = self.colours
            others = [1.0 / (n - 1) if c != colour else 0.0 for c in range(n)]
            weights = [
                [1.0 if c == colour else 0.0 for c in range(n)] if s == seat else others
                for s in range(self.template.seats)
            ]
            found = OnePly(Evaluator(self.template, Perspective(seat, weights)), detail=MODEL)
            self._players[key] = found
        return found

    def replier(self, judge: Evaluator) -> OnePly:
        """The AI's own next move at a leaf (only with LEAF_REPLY)."""
        found = self._repliers.get(id(judge))
        if found is None:
            found = OnePly(judge, detail=MODEL)
            self._repliers[id(judge)] = found
        return found

    def judge(self, seat_colour: list[int], my_move: bool) -> Evaluator:
        """The AI's own evaluation when every colour is as sampled. When the AI moves next,
        lines one card away are more its own to take and less the others'."""
        key = (*seat_colour, my_move)
        found = self._judges.get(key)
        if found is None:
            found = Evaluator(
                self.template,
                Perspective.known(self.me, seat_colour, self.colours),
                MY_MOVE_WEIGHTS if my_move else DEFAULT_WEIGHTS,
            )
            self._judges[key] = found
        return found


def _play_turn(state: HighVoltageState, player: OnePly) -> None:
    """Let `player` (whose seat is to move) play until its turn is over."""
    seat = state.seat
    turn = state.turns_played
    steps = 0
    while state.phase != OVER and state.seat == seat and state.turns_played == turn:
        choice = player.choose(state)
        state.apply(choice.action)
        steps += 1
        if steps > 32:  # a turn is at most two actions with their placements and lines
            raise RuntimeError("a simulated turn did not end")


def _simulate(det_state: HighVoltageState, action: HvAction, models: _Models) -> tuple[float, bool]:
    """The value of `action` played out in one determinization, and whether that value can
    depend on which hidden card lies where: only when a card is drawn on the way, or when one
    card is left face down (whose value the players work out from the card itself). Otherwise
    every player values draws by their expectation over the unseen cards, which all
    determinizations share, and only the sampled colours matter."""
    s = det_state.copy()
    me = models.me
    turn = s.turns_played
    s.apply(action)
    # Finish the AI's own turn as it would (placement seen, greedy declarations, 2nd action).
    while s.phase != OVER and s.seat == me and s.turns_played == turn:
        s.apply(models.mine.choose(s).action)
    for _ in range(REPLY_TURNS):
        if s.phase == OVER or s.seat == me:
            break
        _play_turn(s, models.player(s.seat, s.seat_colour[s.seat]))
    judge = models.judge(s.seat_colour, s.phase != OVER and s.seat == me)
    judge.set_unseen(s)
    if LEAF_REPLY and s.phase == ACTION and s.seat == me:
        value = models.replier(judge).rank(s)[0].value
    else:
        value = judge.value(s)
    played = s._history[len(det_state._history) :]
    return value, s.face_down < 2 or any(t.startswith("draw") for t in played)


def _candidates(state: HighVoltageState, models: _Models) -> list[tuple[float, HvAction]]:
    """The actions worth searching with their one-ply values, best first (so that when the
    search cannot tell them apart, the one-ply choice wins)."""
    one = models.mine
    if state.phase in (DECLARING, PLACING):
        if state.phase == DECLARING:
            options: list[HvAction] = [Declare(ln.first, ln.second) for ln in state.closable]
            options.append(DeclareNone())
        else:
            options = [
                Place(place, 90 * q)
                for place in ("here", "empty")
                for q in distinct_rotations(state, state.drawn)
            ]
        valued = [(one.after(state, a)[1], i, a) for i, a in enumerate(options)]
        valued.sort(key=lambda t: (-t[0], t[1]))
        return [(v, a) for v, _, a in valued]
    ranked: list[Scored] = one.rank(state)
    chosen = [(s.value, s.action) for s in ranked[:HARD_CANDIDATES]]
    for kind in (Draw, Rotate):
        best = next((s for s in ranked if isinstance(s.action, kind)), None)
        if best is not None and all(best.action != a for _, a in chosen):
            chosen.append((best.value, best.action))
    return chosen


def decide_hard(
    view: Mapping[str, Any],
    *,
    rng: random.Random,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> str:
    """Information-set Monte Carlo search over the normal player's best candidates."""
    started = time.perf_counter()
    deadline: float | None
    if iterations is None:
        deadline = started + (HARD_BUDGET_S if budget_s is None else budget_s)
        cap = HARD_MAX_ITERATIONS
    else:
        deadline = None if budget_s is None else started + budget_s
        cap = iterations
    belief = colour_belief(view)
    persp = Perspective(view["viewer"], colour_marginals(view, belief))
    det = Determinizer(view, belief, rng)
    root = det.template
    models = _Models(root, view["viewer"], persp)
    valued = _candidates(root, models)
    candidates = [a for _, a in valued]
    if len(candidates) == 1 or valued[0][0] - valued[1][0] > HARD_OBVIOUS:
        return candidates[0].text()
    # The simulations value positions; a draw also moves the game on, which the one-ply values
    # of the candidates already count: the search must count it too, or it would stall.
    bonus = draw_bonus(root, DEFAULT_WEIGHTS)
    extra = [bonus if isinstance(a, Draw) else 0.0 for a in candidates]
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    # A running mean of what one simulation costs: a simulation starts only if it can end
    # before the deadline (the first always starts; it costs a small part of the budget).
    per_sim = 0.0
    sims = 0
    # Simulations that no hidden card can change, by candidate and colours (see `_simulate`).
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    # The colours of successive determinizations are shared out by the belief, so that a few
    # of them already weigh each likely colour as the belief does (independent draws would
    # often give one colour most of them).
    shares = ColourShares([w for _, w in det.options])
    for done in range(cap):
        if deadline is not None and time.perf_counter() > deadline:
            break  # rounds of kept values only are quick, but not free
        sample = det.sample(rng, shares.next())
        colours = tuple(sample.seat_colour)
        row: list[float] = []
        for i in alive:
            known = memo.get((i, colours))
            if known is not None:
                row.append(known)
                continue
            now = time.perf_counter()
            if deadline is not None and now + per_sim > deadline:
                break
            value, by_cards = _simulate(sample, candidates[i], models)
            value += extra[i]
            if not by_cards:
                memo[(i, colours)] = value
            row.append(value)
            sims += 1
            per_sim += (time.perf_counter() - now - per_sim) / min(sims, 8)
        if len(row) < len(alive):
            break  # out of time: an unfinished round would compare candidates unfairly
        for i, value in zip(alive, row, strict=True):
            values[i].append(value)
        if done + 1 >= HARD_MIN_ITERATIONS:
            alive = _race(values, alive)
            if len(alive) == 1:
                break
    if not values[alive[0]]:
        return candidates[0].text()  # no time to search: the one-ply player's choice
    best = max(alive, key=lambda i: (_mean(values[i]), -i))
    return candidates[best].text()


class ColourShares:
    """Which colour assignment each determinization uses: the one furthest behind its share
    of the weights. After n samples every assignment has had n times its share, give or take
    one, and equal weights take turns."""

    def __init__(self, weights: list[float]) -> None:
        total = sum(weights)
        self.shares = [w / total for w in weights]
        self.counts = [0] * len(weights)
        self.used = 0

    def next(self) -> int:
        self.used += 1
        n = self.used
        chosen = max(
            range(len(self.shares)), key=lambda a: (n * self.shares[a] - self.counts[a], -a)
        )
        self.counts[chosen] += 1
        return chosen


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -math.inf


def _race(values: list[list[float]], alive: list[int]) -> list[int]:
    """Drop candidates that trail the leader clearly (paired over the same samples)."""
    leader = max(alive, key=lambda i: (_mean(values[i]), -i))
    n = len(values[leader])
    keep = []
    for i in alive:
        if i == leader:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[leader], values[i][-n:], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if mean <= HARD_Z * math.sqrt(var / n) + 1e-9:
            keep.append(i)
    return keep
