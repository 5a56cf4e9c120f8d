"""Ratings per game, computed afresh from finished games in the order they finished.

Why this scheme: a table here holds two to four players, and pairwise Elo treats a four-player
game as six separate duels that all count the same, whoever came second or last. The
Weng-Lin model with Plackett-Luce rankings (the `openskill` library, default parameters) rates
one game as one finishing order, however many sit at the table, and keeps with each rating how
sure it is (mu, the estimated skill, and sigma, its uncertainty), so a newcomer's first games
move their rating a lot and a regular's a little.

A game's finishing order is read from its stored results, the same way for every game:
- a seat that left early ranks last (`Placing.left_early`: a resignation, a forfeit when the
  clock ran out, a moderator's removal), whatever the AI that took the seat over went on to do;
- then the winners, sharing first place (a shared win is a tie);
- then the others by score, highest first; equal scores tie.
How each game's rules make this its own order:
- High Voltage: the highest score wins and equal highest scores share the win, so "winners,
  then by score" is the order of the final scores, ties as ties.
- Pylons: two players; whoever links their borders wins at once (the other loses, whatever
  the scores), else the higher score wins and equal scores are a draw (both won, or neither:
  a tie either way).
- Sector 6: the highest oxygen wins, ties broken by the colours of the markers; the winners
  come first, and the rest by oxygen (their tie-breaks are not stored, so equal oxygen ties).

AI seats are rated players too, one per game and level (`AI_LEVEL` keys): games against them
count for the people, and the AI's rating measures how strong each level plays. Before it has
played, a level starts from a prior set by its place among the game's levels (weakest first),
`LEVEL_STEP` apart, so even the first win against `easy` is worth less than one against
`hard`; the games played then correct the prior. A seat an AI took over from a person who left
is rated for nobody: it counts for the person, who ranks last. Two seats of the same player in
one game (two `easy` AIs) are averaged into one update.

What players read (`Rating.shown`) is conservative: mu - 3 sigma, the skill the player has
with about 99.9% certainty, so a rating rises as it is earned and a lucky first win is not
shown as mastery. It is scaled to numbers familiar from chess: `ORIGIN` + `SCALE` per unit of
the model's skill, so a newcomer shows 1000 and an average player about 1350 once settled,
1500 after many games; `SCALE` makes 400 points roughly the gap at which the stronger of two
regulars wins ten games to one, as in Elo. While sigma is above `SETTLED_SIGMA` the rating is
not settled and is shown with "?" (as lichess does): for about the first fifteen games (the
model grows sure of a player more slowly at a table of four than in a duel).

Nothing is stored: ratings are a pure function of the results, so fixing a result or the
scheme later needs no migration, and the same results always give the same ratings.

How a game is rated costs: a server's whole history is replayed when its summary is made
afresh, so one game's rating is called a hundred thousand times in a row. `PlackettLuce.rate`
checks its arguments, deep-copies every rating (each copy drawing a random id) and sorts the
table by place before it hands the maths to `PlackettLuce._compute`, and the rating objects
given to it drew a random id each too: three quarters of a game's cost. `Ratings` calls the
library's own `_compute` and `_unwind` itself, on rating objects of its own that it reuses
from game to game (`_compute` writes its answer into them), after the one step of `rate`'s
own it skips: sigma grown by tau (`rate`'s "correct sigma with tau"). The numbers are the
library's, bit for bit: a test replays hundreds of games both ways.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating
from openskill.models.weng_lin.common import _unwind

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the library's defaults
ORIGIN = 1000.0  # what a newcomer shows (mu - 3 sigma = 0)
SCALE = 30.0  # shown points per unit of skill: 400 points ~ ten wins to one between regulars
SETTLED_SIGMA = 6.0  # at or below it the rating is sure enough to show without "?"
LEVEL_STEP = 4.0  # the prior's skill between two AI levels next to each other

# Whatever names a player: a Discord user id for a person, `AiLevel` for an AI seat.
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class AiLevel:
    """An AI seat's player: one per level (per game: ratings are computed per game)."""

    level: str


@dataclass(frozen=True)
class Placing(Generic[Player]):
    """One seat's end of one game, as the rating sees it (`player` None: rated for nobody,
    such as a seat a moderator took from a person)."""

    player: Player | None
    won: bool
    score: int = 0
    left_early: bool = False


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game: the model's skill `mu` and its uncertainty `sigma`."""

    mu: float
    sigma: float
    games: int  # rated games played

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the skill the player has almost surely, in the model's units."""
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        """What players read: the conservative skill in familiar points."""
        return round(ORIGIN + SCALE * self.conservative)

    @property
    def settled(self) -> bool:
        """Whether the rating is sure enough to be read without a question mark."""
        return self.sigma <= SETTLED_SIGMA

    def text(self) -> str:
        """ "1234", or "1234?" while the rating is not settled."""
        return f"{self.shown}" if self.settled else f"{self.shown}?"


def ranks(table: Sequence[Placing[Player]]) -> list[int]:
    """Each seat's place (1 best; equal places tie): left early last, then winners, then by
    score (see the module's docstring)."""
    keys = [(p.left_early, not p.won, 0 if p.won else -p.score) for p in table]
    return [1 + sum(other < key for other in keys) for key in keys]


def prior(levels: Sequence[str]) -> dict[str, float]:
    """The starting skill of each AI level, weakest first: `LEVEL_STEP` apart, centred on a
    newcomer's (so the levels together start where people do)."""
    middle = (len(levels) - 1) / 2
    return {level: MODEL.mu + LEVEL_STEP * (i - middle) for i, level in enumerate(levels)}


_TAU_SQUARED = MODEL.tau * MODEL.tau  # as `PlackettLuce.rate` works it out


def plackett_luce(
    before: Sequence[tuple[float, float]],
    places: Sequence[int],
    scratch: list[list[PlackettLuceRating]],
) -> list[tuple[float, float]]:
    """One game rated by the library, each player alone on a team: each one's (mu, sigma)
    after it, from (mu, sigma) before it and places (1 best, equal places tie). The same
    numbers as `MODEL.rate([[MODEL.rating(mu, sigma)], ...], ranks=places)`, without its
    argument checks, deep copies and random ids (see the module's docstring): `scratch`
    holds teams of one rating object each, reused (grown to the table's size as needed;
    one list per thread of work, since the library writes its answer into them)."""
    while len(scratch) < len(before):
        scratch.append([MODEL.rating()])
    teams = scratch[: len(before)]
    for (mu, sigma), (rating,) in zip(before, teams, strict=True):
        rating.mu = mu
        rating.sigma = math.sqrt(sigma * sigma + _TAU_SQUARED)
    ranks = [float(place) for place in places]
    ordered, tenet = _unwind(ranks, teams)
    after: list[list[PlackettLuceRating]] = MODEL._compute(teams=ordered, ranks=sorted(ranks))
    unwound: list[list[PlackettLuceRating]] = _unwind(tenet, after)[0]
    return [(team[0].mu, team[0].sigma) for team in unwound]


@dataclass
class Ratings(Generic[Player]):
    """Ratings being replayed, game after game."""

    levels: Mapping[str, float] = field(default_factory=dict)  # AI level -> starting mu
    ratings: dict[Player, Rating] = field(default_factory=dict)
    # The rating objects the library works on, reused from game to game (`plackett_luce`)
    _scratch: list[list[PlackettLuceRating]] = field(
        default_factory=list, repr=False, compare=False
    )

    def copy(self) -> Ratings[Player]:
        """Another replay that goes on from here, leaving this one as it is."""
        return Ratings(self.levels, dict(self.ratings))

    def of(self, player: Player) -> Rating:
        """The player's rating now (a newcomer's, or an AI level's prior, before any game)."""
        found = self.ratings.get(player)
        if found is not None:
            return found
        mu = self.levels.get(player.level, MODEL.mu) if isinstance(player, AiLevel) else MODEL.mu
        return Rating(mu, MODEL.sigma, 0)

    def rate(self, table: Sequence[Placing[Player]]) -> list[Player]:
        """Rate one game; the players whose rating it changed (none with fewer than two)."""
        seated: list[tuple[Player, int]] = [
            (p.player, place)
            for p, place in zip(table, ranks(table), strict=True)
            if p.player is not None
        ]
        if len({player for player, _ in seated}) < 2:
            return []
        before = {player: self.of(player) for player, _ in seated}
        after = plackett_luce(
            [(before[player].mu, before[player].sigma) for player, _ in seated],
            [place for _, place in seated],
            self._scratch,
        )
        updates: dict[Player, list[tuple[float, float]]] = {}
        for (player, _), new in zip(seated, after, strict=True):
            updates.setdefault(player, []).append(new)
        for player, new_ones in updates.items():
            mu = sum(m for m, _ in new_ones) / len(new_ones)
            sigma = sum(s for _, s in new_ones) / len(new_ones)
            self.ratings[player] = Rating(mu, sigma, before[player].games + 1)
        return list(updates)


def rate_games(
    games: Iterable[Sequence[Placing[Player]]], levels: Mapping[str, float] | None = None
) -> dict[Player, Rating]:
    """Replay games in finishing order: every rated player's rating (`levels`: the AI
    levels' starting skill, see `prior`)."""
    ratings: Ratings[Player] = Ratings(dict(levels or {}))
    for table in games:
        ratings.rate(table)
    return dict(ratings.ratings)
