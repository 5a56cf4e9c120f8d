"""How good a High Voltage position is for one seat: the number every AI level maximises.

A position's value for seat `me` is

    score difference        my expected score minus the best opponent's expected score
  + line prospects          lines that one more card (or one rotation) would complete,
                            weighted by how likely that card comes and by how much their
                            colour mix favours me over the others
  + chains                  partial lines growing from a station, by their colour mix
  + latent lines            complete lines nobody may declare until a card of theirs changes
  + tokens                  action and special tokens in hand, worth less as the game ends.

Colours the seat cannot see enter as probabilities (`Perspective.weights`), so the same code
serves the one-ply player (probabilities from its belief) and the search (one sampled colour
per seat). Random play almost never completes a line; an AI must build lines on purpose, which
is why most of the terms look at lines that do not exist yet.

All terms except the score are sums over *station chains*: the path followed from one station
into the grid until it ends. Changing a few cells changes only the chains that pass through or
end at them, so `Evaluator.delta` re-walks just those and re-scores just the cells they end at:
that is what makes trying thousands of placements per decision affordable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.high_voltage.rules.lines import DANGER, HIGH_VOLTAGE

if TYPE_CHECKING:
    from games.high_voltage.rules.state import HighVoltageState

EMPTY = -1
_MAX_STEPS = 120


@dataclass(frozen=True)
class Weights:
    """Weights of the evaluation, set by hand and checked with tournaments (`bench/ai.py`)."""

    chain: float = 0.12  # per card of an open chain (up to `chain_cap` cards), times colour mix
    chain_cap: int = 5
    prospect_good: float = 0.55  # a line one card away that favours me
    prospect_bad: float = 0.75  # ... that favours the others (they are next to move)
    latent: float = 0.2  # a complete, valid line waiting for a change
    draw_factor: float = 0.8  # a face-down gap needs the right card drawn from exactly there
    action_token: float = 0.35
    special_token: float = 1.2
    win_bonus: float = 4.0  # added at the end for a win (half for a shared win)
    closer_tokens: float = 0.3  # point tokens a prospect would give whoever closes it
    draw_bonus: float = 0.05  # drawing moves the game on; free rotations alone can go round
    stall_step: float = 0.25  # more per action once a round has passed without a draw
    recent_penalty: float = 2.0  # turning back a card turned in the last round (see search)


DEFAULT_WEIGHTS = Weights()


@dataclass
class Perspective:
    """Whose eyes: seat `me` and, per seat, the probability of each colour.

    `adv[c]` is what one point of colour c is worth to me relative to the others: my own
    probability of holding c minus the mean of my opponents'. A line's colour mix is judged by
    the sum of its points times `adv`.
    """

    me: int
    weights: list[list[float]]
    adv: list[float] = field(init=False)
    opponents: list[int] = field(init=False)

    def __post_init__(self) -> None:
        seats = len(self.weights)
        self.opponents = [s for s in range(seats) if s != self.me]
        colours = len(self.weights[0])
        mean_opp = [
            sum(self.weights[o][c] for o in self.opponents) / max(1, len(self.opponents))
            for c in range(colours)
        ]
        self.adv = [self.weights[self.me][c] - mean_opp[c] for c in range(colours)]

    @classmethod
    def known(cls, me: int, seat_colour: list[int], colours: int = 4) -> Perspective:
        """Every colour known (one sampled determinization, or the end of the game)."""
        return cls(me, [[1.0 if c == sc else 0.0 for c in range(colours)] for sc in seat_colour])


class Chain:
    """The path from one station into the grid, as far as it goes."""

    __slots__ = ("adv", "cells", "dead", "end", "hv", "points", "side", "stop", "stop_edge")

    def __init__(
        self,
        side: int,
        cells: list[int],
        points: list[int],
        hv: int,
        dead: bool,
        stop: int,
        stop_edge: int,
        end: int,
        adv: float,
    ) -> None:
        self.side: int = side
        self.cells: list[int] = cells
        self.points: list[int] = points  # per colour, the station's own segment included
        self.hv: int = hv
        self.dead: bool = dead  # passes a DANGER token or the same card twice
        self.stop: int = stop  # the cell where it ends, or -1 at another station
        self.stop_edge: int = stop_edge  # the edge of `stop` it reaches
        self.end: int = end  # the station reached, or -1
        self.adv: float = adv  # sum of points times Perspective.adv


class Base:
    """A position's chains, indexed for incremental re-evaluation."""

    __slots__ = ("chains", "fixed", "gap", "stops", "through", "total")

    def __init__(self) -> None:
        self.chains: dict[int, Chain] = {}
        self.stops: dict[int, list[int]] = {}  # cell -> stations whose chain ends there
        self.through: dict[int, list[int]] = {}  # cell -> stations whose chain passes it
        self.gap: dict[int, float] = {}  # cell -> its prospect term
        self.fixed = 0.0  # score and token terms
        self.total = 0.0


class Evaluator:
    """Values positions of one game for one perspective."""

    def __init__(
        self, state: HighVoltageState, persp: Perspective, weights: Weights = DEFAULT_WEIGHTS
    ) -> None:
        self.persp = persp
        self.w = weights
        geo = state.geo
        cards = state.cards
        self.neighbour = geo.neighbour
        self.station_at = geo.station_at
        self.stations = [(st.number, st.cell, st.side, st.colour) for st in geo.stations.values()]
        self.station_side = {st.number: st.side for st in geo.stations.values()}
        self.station_colour = {st.number: st.colour for st in geo.stations.values()}
        self.station_cells = {n: (cell, side, colour) for n, cell, side, colour in self.stations}
        self.exits = cards.exits
        self.colour = cards.colour
        self.danger_card = cards.is_danger
        self.can_straight = cards.can_go_straight
        self.can_turn = cards.can_turn
        self.min_cards = state.setup.min_line_cards
        self.max_hv = state.setup.max_high_voltage_on_line
        self.setup = state.setup
        self.n_colours = len(state.setup.colours)
        adv = persp.adv
        self.mean_adv = sum(adv) / len(adv)
        self.set_unseen(state)

    def set_unseen(self, state: HighVoltageState) -> None:
        """Chances that a face-down card fits a gap, from the cards nobody has seen."""
        down = [k for k in range(len(state.card_up)) if not state.card_up[k]]
        n = max(1, len(down))
        self.fit_straight = sum(1 for k in down if self.can_straight[k]) / n
        self.fit_turn = sum(1 for k in down if self.can_turn[k]) / n
        remaining = state.face_down
        self.progress = min(1.0, remaining / 8.0)

    # ------------------------------------------------------------------ chains

    def walk(self, state: HighVoltageState, cell: int, side: int, colour: int) -> Chain:
        """Follow the path from the station on `side` of `cell` (its segment has `colour`)."""
        grid, up, rot, energy = state.grid, state.card_up, state.rot, state.energy
        exits, colours, danger_card = self.exits, self.colour, self.danger_card
        neighbour, station_at = self.neighbour, self.station_at
        points = [0] * self.n_colours
        points[colour] += 1
        cells: list[int] = []
        hv = 0
        dead = False
        edge = side
        end = -1
        stop = cell
        for _ in range(_MAX_STEPS):
            card = grid[cell]
            if card < 0 or not up[card]:
                break
            r = rot[card]
            out = exits[card][r][edge]
            if out < 0:
                break
            if cell in cells:
                dead = True
            cells.append(cell)
            points[colours[card][r][edge]] += 1
            e = energy[card]
            if e == DANGER or danger_card[card]:
                dead = True
            elif e == HIGH_VOLTAGE:
                hv += 1
            nxt = neighbour[cell][out]
            if nxt < 0:
                end = station_at[cell][out]
                points[self.station_colour[end]] += 1
                stop = -1
                edge = out
                break
            cell, edge = nxt, out ^ 2
            stop = cell
        else:
            dead = True
            stop = -1
        adv = self.persp.adv
        value = 0.0
        for c, p in enumerate(points):
            if p:
                value += p * adv[c]
        return Chain(side, cells, points, hv, dead, stop, edge, end, value)

    def chain_value(self, number: int, ch: Chain) -> float:
        if ch.dead or not ch.cells:
            return 0.0
        if ch.end >= 0:
            if number > ch.end:
                return 0.0  # a complete line counts once, from its lower station
            if (
                len(ch.cells) < self.min_cards
                or ch.hv > self.max_hv
                or self.station_side[ch.end] == ch.side
            ):
                return 0.0
            return self.w.latent * ch.adv * self.progress
        return self.w.chain * min(len(ch.cells), self.w.chain_cap) * ch.adv * self.progress

    def gap_value(
        self,
        state: HighVoltageState,
        cell: int,
        numbers: list[int],
        chains: dict[int, Chain] | _Overlay,
    ) -> float:
        """The prospect term of one cell where at least two chains end: the best line one
        card there would complete for me and the worst for me, each weighted by the chance
        that the card comes (certain for a face-up card that a rotation fits)."""
        if len(numbers) < 2:
            return 0.0
        card = state.grid[cell]
        face_up = False
        hv_here = 0
        if card == EMPTY:
            factor = 1.0 if state.face_down else 0.0
        elif not state.card_up[card]:
            factor = self.w.draw_factor
        else:
            if self.danger_card[card] or state.energy[card] == DANGER:
                return 0.0
            face_up = True
            factor = 1.0
            hv_here = state.energy[card] == HIGH_VOLTAGE
        if factor == 0.0:
            return 0.0
        adv = self.persp.adv
        best = worst = 0.0
        station_side = self.station_side
        min_cards, max_hv = self.min_cards, self.max_hv
        for i in range(len(numbers)):
            a = chains[numbers[i]]
            if a.dead:
                continue
            for j in range(i + 1, len(numbers)):
                b = chains[numbers[j]]
                if b.dead or station_side[numbers[i]] == station_side[numbers[j]]:
                    continue
                length = len(a.cells) + len(b.cells) + 1
                if length < min_cards or a.hv + b.hv + hv_here > max_hv:
                    continue
                if a.cells and b.cells and any(c in b.cells for c in a.cells):
                    continue
                ea, eb = a.stop_edge, b.stop_edge
                straight = (ea ^ eb) == 2
                if face_up:
                    options = [
                        self.colour[card][q][ea] for q in range(4) if self.exits[card][q][ea] == eb
                    ]
                    if not options:
                        continue
                    p = 1.0
                    here = sum(adv[c] for c in options) / len(options)
                else:
                    p = factor * (self.fit_straight if straight else self.fit_turn)
                    here = self.mean_adv
                tokens = self.setup.points_for_length(length)
                value = p * (a.adv + b.adv + here + self.w.closer_tokens * tokens)
                if value > best:
                    best = value
                elif value < worst:
                    worst = value
        return (self.w.prospect_good * best + self.w.prospect_bad * worst) * self.progress

    # ------------------------------------------------------------------ whole positions

    def fixed_terms(self, state: HighVoltageState) -> float:
        """Score difference and tokens: what does not depend on the chains."""
        persp = self.persp
        weights = persp.weights
        company = state.company
        me = persp.me

        def expected(seat: int) -> float:
            row = weights[seat]
            return sum(row[c] * company[c] for c in range(len(company))) + state.point_tokens[seat]

        mine = expected(me)
        best = max(expected(o) for o in persp.opponents)
        diff = mine - best
        if state.phase == "over":
            if diff > 1e-9:
                diff += self.w.win_bonus
            elif diff > -1e-9:
                diff += self.w.win_bonus / 2
            return diff
        opp = persp.opponents
        tokens = state.action_tokens[me] - sum(state.action_tokens[o] for o in opp) / len(opp)
        special = state.special_tokens[me] - sum(state.special_tokens[o] for o in opp) / len(opp)
        return diff + self.progress * (
            self.w.action_token * tokens + self.w.special_token * special
        )

    def base(self, state: HighVoltageState) -> Base:
        """Evaluate a whole position and keep what `delta` needs."""
        base = Base()
        base.fixed = self.fixed_terms(state)
        if state.phase == "over":
            base.total = base.fixed
            return base
        total = base.fixed
        chains, stops, through = base.chains, base.stops, base.through
        for number, cell, side, colour in self.stations:
            ch = self.walk(state, cell, side, colour)
            chains[number] = ch
            if ch.stop >= 0:
                stops.setdefault(ch.stop, []).append(number)
            for c in ch.cells:
                through.setdefault(c, []).append(number)
            total += self.chain_value(number, ch)
        for cell, numbers in stops.items():
            if len(numbers) >= 2:
                g = self.gap_value(state, cell, numbers, chains)
                base.gap[cell] = g
                total += g
        base.total = total
        return base

    def value(self, state: HighVoltageState) -> float:
        return self.base(state).total

    def delta(self, state: HighVoltageState, base: Base, cells: list[int]) -> float | None:
        """Value of `state`, which differs from the position of `base` only on `cells` (no
        score change). None when a chain through a changed cell now forms a valid complete
        line: that line is closable, so the caller must play the declaration out instead."""
        chains = base.chains
        affected: set[int] = set()
        for c in cells:
            affected.update(base.through.get(c, ()))
            affected.update(base.stops.get(c, ()))
        if not affected:
            return base.total  # no chain passes or ends there, so no term can change
        total = base.total
        new: dict[int, Chain] = {}
        touched: set[int] = set(cells)
        station_cell = self.station_cells
        for number in affected:
            old = chains[number]
            total -= self.chain_value(number, old)
            if old.stop >= 0:
                touched.add(old.stop)
            cell, side, colour = station_cell[number]
            ch = self.walk(state, cell, side, colour)
            new[number] = ch
            if ch.stop >= 0:
                touched.add(ch.stop)
            elif (
                not ch.dead
                and len(ch.cells) >= self.min_cards
                and ch.hv <= self.max_hv
                and self.station_side[ch.end] != ch.side
            ):
                return None
        for number, ch in new.items():
            # a complete line counted from its lower station: re-count both ends consistently
            total += self.chain_value(number, ch)
        merged = _Overlay(chains, new)
        for cell in touched:
            total -= base.gap.get(cell, 0.0)
            numbers = [n for n in base.stops.get(cell, ()) if n not in new]
            numbers += [n for n, ch in new.items() if ch.stop == cell]
            if len(numbers) >= 2:
                total += self.gap_value(state, cell, numbers, merged)
        return total


class _Overlay:
    """Chains of the base position with some replaced, without copying the dict."""

    __slots__ = ("base", "new")

    def __init__(self, base: dict[int, Chain], new: dict[int, Chain]) -> None:
        self.base, self.new = base, new

    def __getitem__(self, number: int) -> Chain:
        found = self.new.get(number)
        return found if found is not None else self.base[number]
