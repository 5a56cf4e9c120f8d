"""The Sector 6 rules: one position and every way it may change.

The game has two phases. In the construction phase the players take turns building the maze:
either `draw` the top tile of their face-down supply and `place` it (turned as they like), or
`place entry` one of their two entry points. The first tile goes anywhere on the table, the
second must touch it, every later one must touch at least two placed pieces; in the veteran
and novice modes a piece must also open onto an open side of a neighbour (the galleries
rule). When everything is placed, every maze tile gets an oxygen marker of its value and every
entry point a prisoner of its owner, and the competition phase begins with the player who
began the construction.

A competition turn is a `move` of one own prisoner in a straight line through open sides
(never through a wall on either tile, a gap or a prisoner, never onto a prisoner), then one
of: `collect` the marker of the tile just left, `rotate` that tile one side either way (in
full mode, tiles whose closed side meets a closed side of the turned tile turn the other way,
judged before the turn, one level deep), or `done`. A player whose prisoners cannot move
makes two rotations of the tiles under them instead (in novice mode: `pass`). The game ends
as soon as every marker left on the board lies under a prisoner or is out of reach for good,
or when the oxygen clock runs out (see `ending`); each player then takes the
markers under their own prisoners. Highest total wins; ties go to more blue (4), then green
(3), then yellow (2) markers, else the win is shared.

Choices this project made where the rules leave room:
- The table is a bounded grid (`games/sector6/setup.json`), large enough for any maze; "the
  first tile anywhere" means any cell of it.
- The drawn tile is shown to its drawer alone until it is placed (the view of every other
  seat says only that a tile is drawn); each supply's order stays secret from everyone, its
  owner included. What is left of each supply by value is public, since the table of supplies
  and the placed tiles are.
- A drawn tile must be placed: a player who wants to place an entry point does so instead of
  drawing. If no cell touching two pieces satisfies the galleries rule for the piece in hand,
  a cell touching one piece will do, galleries kept; only if that is impossible too is the
  galleries rule waived for this placement (waiving it first could wall off part of a novice
  maze for good). If no cell touches two pieces, one will do. A game must never get stuck.
- After a move the player may also do nothing (`done`): the rulebook says the player *may*
  act on the tile left. When nothing but `done` is possible (novice mode, no marker there),
  the turn ends by itself after the move.
- Turning an entry point is allowed (it changes nothing: it has no walls and no gears).
- Blocked players make both rotations even if the first one frees a prisoner.
- Novice mode: a blocked player types `pass`; if no player at all can move, nothing can ever
  change again, so the game ends at once as if every marker left were under a prisoner.
- Markers no prisoner can ever reach again are out of play (`ending`), and
  `oxygen_clock_rounds` full rounds without a collection end the competition (data); free
  markers then go to no one. `max_rounds` turns per player (data) remain a last backstop.
- Games saved before those two rules replay their saved actions as they were played (with
  the backstop of then, `competition.V1_MAX_ROUNDS`) and follow the rules from there on
  (`ending_from`); their clock counts from their last collection.
- The first player is drawn from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import OVER, Outcome
from engine.errors import IllegalActionError, Phrase
from games.sector6.rules.actions import (
    Collect,
    Done,
    Draw,
    Move,
    Pass,
    Place,
    PlaceEntry,
    Rotate,
    Sector6Action,
)
from games.sector6.rules.competition import (
    collect,
    done,
    finish,
    move,
    pass_turn,
    play_actions,
    rotate,
    start_turn,
)
from games.sector6.rules.construction import build_actions, draw, place, place_entry
from games.sector6.rules.dealing import deal_supplies, supplies_from_view, supplies_redealt
from games.sector6.rules.ending import (
    END_CLOCK,
    END_DEAD,
    END_HELD,
    END_LIMIT,
    END_REASONS,
    END_STUCK,
)
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.refusals import build_hint, play_hint, refuse
from games.sector6.rules.rules_data import Rules, default_rules
from games.sector6.rules.saving import load, saved_form
from games.sector6.rules.steps import (
    ACT_STEP,
    BLOCKED_STEP,
    BUILD,
    DRAW_STEP,
    EMPTY,
    FULL,
    MODES,
    MOVE_STEP,
    PLACE_STEP,
    PLAY,
)
from games.sector6.rules.views import result, seat_view

VIEW_VERSION = 1


class Sector6State(Sector6Position):
    """A Sector 6 game. Create with `Sector6Game().new_state(...)` (`games.sector6.rules.GAME`).

    The position and what the rules ask of it are `Sector6Position`'s; the actions of each
    phase are applied by `construction` and `competition`, the
    views drawn by `views` and the saves written by `saving`.
    """

    game: ClassVar[Any]
    view_version = VIEW_VERSION
    target_options = (
        "place.cell",
        "place.degrees",
        "entry.cell",
        "move.origin",
        "move.target",
        "rotate.cell",
    )

    # ------------------------------------------------------------------ creation

    @classmethod
    def deal(
        cls, seats: int, seed: int, mode: str = FULL, rules: Rules | None = None
    ) -> Sector6State:
        """Deal every seat its supply from the box and shuffle it; draw the first player."""
        rules = rules or default_rules()
        if not rules.min_players <= seats <= rules.max_players:
            raise ValueError(
                f"Sector 6 is for {rules.min_players}-{rules.max_players} players, not {seats}."
            )
        supplies, first_seat = deal_supplies(rules, seats, seed)
        return cls(rules, seats, seed, mode, supplies, first_seat)

    # ------------------------------------------------------------------ interface

    def prompt(self) -> str | None:
        """A drawn tile waits, seen by its drawer alone, to be placed."""
        return "place" if self.phase == BUILD and self.step == PLACE_STEP else None

    def outcome(self) -> Outcome | None:
        return result(self)

    def _start_turn(self, seat: int) -> None:
        """Give the competition turn to `seat` (`competition.start_turn`); a position built
        by hand starts its competition here."""
        start_turn(self, seat)

    def _finish(self, reason: str) -> None:
        """End the game now for `reason`, as a rule would (`competition.finish`)."""
        finish(self, reason)

    # ------------------------------------------------------------------ applying actions

    def _apply(self, action: Any) -> None:
        """Every branch checks before it changes anything, so a refused action leaves the
        state exactly as it was."""
        if isinstance(action, Draw | Place | PlaceEntry) and self.phase != BUILD:
            lead = Phrase("The maze is complete", "engine.sector6.lead.maze_complete")
            raise refuse(play_hint(self, lead))
        if isinstance(action, Draw):
            draw(self)
        elif isinstance(action, Place):
            place(self, action)
        elif isinstance(action, PlaceEntry):
            place_entry(self, action)
        elif self.phase == BUILD:
            raise refuse(build_hint(self))
        elif isinstance(action, Move):
            move(self, action)
        elif isinstance(action, Collect):
            collect(self)
        elif isinstance(action, Rotate):
            rotate(self, action)
        elif isinstance(action, Done):
            done(self)
        elif isinstance(action, Pass):
            pass_turn(self)
        else:
            raise IllegalActionError(
                f"{action!r} is not a Sector 6 action.",
                key="engine.sector6.not_an_action",
                action=action,
            )

    # ------------------------------------------------------------------ choosing actions

    def legal_actions(self) -> list[Sector6Action]:
        if self.phase == OVER:
            return []
        if self.phase == BUILD:
            draws, entries = build_actions(self)
            return draws + entries
        return play_actions(self)

    def sample_action(self, rng: random.Random) -> Sector6Action:
        """A random legal action: in the construction phase first a random kind (draw or
        entry point), then a random cell, so random tables use both; else uniform."""
        if self.phase == OVER:
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        if self.phase == BUILD:
            draws, entries = build_actions(self)
            kinds = [k for k in (draws, entries) if k]
            kind = kinds[int(rng.random() * len(kinds))]
            return kind[int(rng.random() * len(kind))]
        actions = self.legal_actions()
        return actions[int(rng.random() * len(actions))]

    # ------------------------------------------------------------------ views

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (`views.seat_view`)."""
        return seat_view(self, seat)

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rng: random.Random | None = None) -> Sector6State:
        """A full state consistent with what a view shows: what an AI seat searches from.

        Placed tiles are known; what is left of each supply is known by value only (and the
        viewer's drawn tile exactly), so the layouts of the unseen tiles are drawn at random
        from the tiles of that value still in the box, and their order shuffled. Replaying
        the view's history on those supplies rebuilds the public position exactly."""
        rules = default_rules()
        rng = rng or random.Random(0)
        supplies = supplies_from_view(rules, view, rng)
        state = cls(
            rules,
            int(view["seats"]),
            0,
            str(view["options"]["mode"]),
            supplies,
            int(view["first_seat"]),
        )
        state.ending_from = int(view.get("ending_rules_from") or 0)
        for text in view["history"]:
            state.apply(text)
        return state

    def redeal(self, seat: int | None, rng: random.Random) -> Sector6State:
        """Every tile `seat` has not seen drawn again from the box by value (the tiles placed
        and the one `seat` holds after drawing it are kept), every supply's order shuffled
        again, a new seed; the same actions replayed on it."""
        known = [self.supplies[p][: self.drawn_count[p]] for p in range(self.seats)]
        if self.drawn != EMPTY and seat != self.seat:
            known[self.seat] = known[self.seat][:-1]
        supplies = supplies_redealt(self.rules, self.seats, known, rng)
        other = type(self)(
            self.rules, self.seats, rng.getrandbits(62), self.mode, supplies, self.first_seat
        )
        other.ending_from = self.ending_from
        for text in self._history:
            other.apply(text)
        return other

    # ------------------------------------------------------------------ saving

    def to_dict(self) -> dict[str, Any]:
        """The saved game (`saving.saved_form`)."""
        return saved_form(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sector6State:
        """Rebuild and check a saved game (`saving.load`); refuses a corrupt one."""
        return load(cls, data)


__all__ = [
    "ACT_STEP",
    "BLOCKED_STEP",
    "BUILD",
    "DRAW_STEP",
    "END_CLOCK",
    "END_DEAD",
    "END_HELD",
    "END_LIMIT",
    "END_REASONS",
    "END_STUCK",
    "MODES",
    "MOVE_STEP",
    "OVER",
    "PLACE_STEP",
    "PLAY",
    "Sector6State",
]
