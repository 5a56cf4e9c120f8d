"""The interface every game implements, so lobby, persistence, AI seats, logs and replays are
written once for all games.

Shaped after OpenSpiel's `State` (legal actions, apply, current player, terminal, returns) and
boardgame.io's `playerView`: a `Game` describes a game and creates states; a `State` holds the
whole truth, advances by actions given as plain data with one text form, and hands out views
that contain only what one seat may know. `tests/engine/test_engine_contract.py` checks every
registered game against what follows.

The contract
============

A game is a subclass of `Game` (metadata and a factory) and one of `State` (a position).

`Game` provides
    name, title, aliases, min_seats, max_seats, options (OptionSpec)
    new_state(seats, seed, options)  deal; the same arguments always give the same state
    state_from_dict(data)            rebuild a saved state (every save ever stored loads)
    parse_action(text)               read a player's words as an `Action`; needs no position,
                                     raises ActionSyntaxError
    from_view(view, rng)             a whole state that the view's viewer cannot tell from the
                                     real one, everything hidden from them filled in at random:
                                     what an AI seat searches from. Every game has it; the
                                     default replays the view's history on a deal from seed 0,
                                     right for a game whose deal hides nothing and does not
                                     depend on the seed.
    replay(seats, seed, texts)       (given) deal and apply a logged game
    record_deal(state, seat)         what of the deal has become public by now (or is
                                     `seat`'s own to know): the deal of a game record
                                     (`engine.records`). The default, {}, is right for a game
                                     whose deal hides nothing and does not depend on the seed
    deal_from_record(seats, options, deal)
                                     a deal consistent with `record_deal` output, what never
                                     became public filled in arbitrarily; the default deals
                                     from seed 0, the partner of the default above

Every action is an `Action`: a frozen dataclass whose fields are its parts (cells, rotations),
whose `text()` is its stable, context-free form (`parse_action(a.text()) == a`), and with
    kind            what sort of action it is ("draw", "place", "move"...), one word per class
    reveals_hidden  whether taking it shows someone something hidden (a card drawn); such an
                    action can never be taken back
    undoable        whether it may be taken back (today: it reveals nothing)
    shows_its_player
                    whether what it reveals is hidden from its own player too (a card drawn),
                    not only from the others (a hint at their own secret): alone with AI
                    seats, a person may take back only an action that showed them nothing
    prompt          the private prompt it opens for its actor by itself, or None (see below)

`State` owns what every game keeps alike, so a game does not write it again:
    seats            number of seats (property)
    seed             the deal's seed: part of the saved state, never of any view
    options          the game's options as chosen at the deal (a dict of str to str)
    history          the text of every action applied since the deal, in order (a copy);
                     a game appends to `self._history` as it applies actions
    phase            a word naming the stage of the game; "over" (`OVER`) once it has ended
    seat             the seat to move while the game is live
    end_reason       why the game ended (None while it is live)
    current_seat()   `seat`, or None once over;  is_terminal()  whether over
    apply(action)    checks the game is live, parses text, then calls the game's `_apply`
    view(seat)       the common keys below around the game's own (`_view`)
    prompt()         the private prompt the seat to move is answering now, or None
    targets(...)     the values an option of an action may take now (autocomplete)
    copy()           an independent copy: changing either never changes the other. The one
                     name for it in every game; a game makes it as cheap as it can

A game implements
    _apply(action)       check and apply one action, changing nothing if illegal
                         (IllegalActionError with a message for the player)
    legal_actions()      every action the seat to move may take now; empty once over
    sample_action(rng)   a random legal action, cheaply (random seats, playouts)
    outcome()            the `Outcome` once over, else None
    _view(seat)          its own view keys: only what `seat` may know (None: a spectator)
    to_dict(), from_dict(data)   the whole truth as versioned JSON-ready data, and back
    view_version         the version of its own view keys
and, when it has them:
    prompt()             see below; the default is None (no private prompts)
    target_options       the options `targets` answers for, as "kind.field" names
    targets(...)         faster than the default, which reads `legal_actions()`
    redeal(seat, rng)    the same game with everything hidden from `seat` dealt afresh;
                         the default changes only the seed, right for a game hiding nothing else
    copy()               the default goes through `to_dict`/`from_dict`

Common view keys (every view of every game has them, whatever the seat):
    game          the game's name (str)
    view_version  version of the game's own keys (int)
    viewer        the seat the view is for, None for the public (spectator) view
    seats         number of seats (int)
    options       the game's options (dict of str to str; {} when it has none)
    phase         the stage of the game (str); "over" once ended
    current_seat  the seat to move, None once over
    prompt        the private prompt the seat to move is answering, or None (public: everyone
                  may know that someone is choosing, never what they see)
    history       the text of every action applied, in order (list of str)
    outcome       `Outcome.to_dict()` once over, else None
A game's own keys never reuse these names.

Private prompts
    A prompt is a decision the seat to move takes in private, with something only they see or
    with buttons of their own: "place" (a drawn card or tile to lay), "declare" (lines to
    declare or not), "choose" (the opening keep-or-mirror choice). `State.prompt()` names the
    one waiting now; `Action.prompt` the one an action opens by itself (a draw), before it is
    applied. The bot keys its private messages on these names.

Targets
    `targets(seat, "kind.field", chosen)` lists the distinct values of `field` over the legal
    actions of that kind whose other fields match `chosen` (say {"origin": "C4"}), for the seat
    to move; [] for any other seat. A game lists in `target_options` the options it answers.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.errors import IllegalActionError

OVER = "over"  # the phase of every game once it has ended


class Action:
    """Base of every game's actions (each a frozen dataclass): what the bot, the log and the
    AI read of an action without splitting its text. See the module docstring."""

    __slots__ = ()

    kind: ClassVar[str]

    def text(self) -> str:
        """The stable, context-free text form, which `Game.parse_action` reads back."""
        raise NotImplementedError

    @property
    def reveals_hidden(self) -> bool:
        """Whether taking this action shows someone something hidden (a card drawn)."""
        return False

    @property
    def undoable(self) -> bool:
        """Whether it may be taken back: not once it has shown something hidden, since
        nobody can unsee it."""
        return not self.reveals_hidden

    @property
    def shows_its_player(self) -> bool:
        """Whether it shows its own player something hidden from them (a card drawn), and
        not only the others something of theirs. Taken back, such an action would let its
        player choose again knowing what was hidden, even with nobody else at the table."""
        return self.reveals_hidden

    @property
    def prompt(self) -> str | None:
        """The private prompt this action opens for its actor by itself (a drawn card to
        place), or None; a prompt that depends on the position is `State.prompt()`'s."""
        return None


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the rule that ended it, final score per seat and the winning seats.

    Several winners mean a shared win.
    """

    reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "details": dict(self.details),
        }


COMMON_VIEW_KEYS = (
    "game",
    "view_version",
    "viewer",
    "seats",
    "options",
    "phase",
    "current_seat",
    "prompt",
    "history",
    "outcome",
)


class State(ABC):
    """One position of one game. Mutable: `apply` advances it in place; `copy` copies it."""

    game: ClassVar[Game]
    view_version: ClassVar[int]
    target_options: ClassVar[tuple[str, ...]] = ()

    def __init__(self, seats: int, seed: int, options: Mapping[str, str] | None = None) -> None:
        self._seats = seats
        self.seed = seed
        self.options: dict[str, str] = dict(options or {})
        self._history: list[str] = []
        self.phase = ""
        self.seat = 0
        self.end_reason: str | None = None

    # ------------------------------------------------------------------ given

    @property
    def seats(self) -> int:
        """Number of seats at the table."""
        return self._seats

    @property
    def history(self) -> list[str]:
        """The text of every action applied since the deal, in order."""
        return list(self._history)

    def current_seat(self) -> int | None:
        """The seat that must act now, or None when the game is over."""
        return None if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        """True once a rule has ended the game."""
        return self.phase == OVER

    def parse_action(self, text: str) -> Any:
        """Read a player's words as an action of this game (raises ActionSyntaxError)."""
        return self.game.parse_action(text)

    def apply(self, action: Any) -> None:
        """Apply an action given as data or as text; one place that checks the game is live."""
        if self.is_terminal():
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        if isinstance(action, str):
            action = self.parse_action(action)
        self._apply(action)

    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready picture of the game as `seat` may know it; None is a spectator: the
        common keys (module docstring) around the game's own."""
        if seat is not None and not 0 <= seat < self.seats:
            raise ValueError(f"No seat {seat}: seats are 0-{self.seats - 1}.")
        result = self.outcome()
        view: dict[str, Any] = {
            "game": self.game.name,
            "view_version": self.view_version,
            "viewer": seat,
            "seats": self.seats,
            "options": dict(self.options),
            "phase": self.phase,
            "current_seat": self.current_seat(),
            "prompt": self.prompt(),
            "history": list(self._history),
            "outcome": result.to_dict() if result else None,
        }
        own = self._view(seat)
        clash = own.keys() & view.keys()
        if clash:
            raise ValueError(f"{self.game.title} view reuses common keys: {sorted(clash)}")
        view.update(own)
        return view

    def prompt(self) -> str | None:
        """The private prompt the seat to move is answering now ("place", "declare",
        "choose"), or None: see the module docstring."""
        return None

    def targets(
        self, seat: int | None, option: str, chosen: Mapping[str, Any] | None = None
    ) -> list[Any]:
        """The distinct values option `option` ("kind.field") takes over the legal actions
        of that kind matching `chosen`, in the order of `legal_actions()`; [] unless `seat`
        is the seat to move. What autocomplete offers, never worked out again elsewhere."""
        if seat is None or seat != self.current_seat():
            return []
        kind, _, name = option.partition(".")
        wanted = tuple((chosen or {}).items())
        found: dict[Any, None] = {}
        for action in self.legal_actions():
            if action.kind != kind or any(getattr(action, k) != v for k, v in wanted):
                continue
            value = getattr(action, name)
            if value is not None:
                found[value] = None
        return list(found)

    def redeal(self, seat: int | None, rng: random.Random) -> State:
        """The same game, with everything `seat` cannot see dealt afresh at random (the seed
        included), the same public history: `seat`'s view of it is the same. The default
        changes the seed alone, which is right for a game that hides nothing else."""
        other = self.copy()
        other.seed = rng.getrandbits(62)
        return other

    def copy(self) -> State:
        """An independent copy: changing either never changes the other. Through the saved
        form by default; a game overrides it with a direct copy, since the bot copies a
        game's state for every move and AI searches copy thousands."""
        return type(self).from_dict(self.to_dict())

    # ------------------------------------------------------------------ each game's

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action the current seat may take now; empty only when the game is over."""

    @abstractmethod
    def _apply(self, action: Any) -> None:
        """Check and apply one action; raise IllegalActionError and change nothing if illegal."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal, else None."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's own view keys: only what `seat` may know (None: a spectator)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole truth as JSON-ready data, versioned, for the database (never for players)."""

    @abstractmethod
    def sample_action(self, rng: random.Random) -> Action:
        """A random legal action, cheaply: for random seats, playouts and simulations."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `to_dict` output, validating it (raises ValueError)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # equal by value and mutable: never hashed


def check_saved_format(data: Mapping[str, Any], *, format: str, version: int, title: str) -> None:
    """Refuse a saved state of another game or of a version this engine cannot read, with a
    message that says which, before any of its contents is trusted."""
    if data.get("format") != format:
        raise ValueError(f"Not a {title} state (format {data.get('format')!r}).")
    if data.get("version") != version:
        raise ValueError(
            f"{title} state version {data.get('version')!r} is not supported "
            f"(this engine reads version {version})."
        )


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts at creation, with its default and allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str


class Game(ABC):
    """Metadata and a factory: what the lobby, CLI and registry need to know about a game."""

    name: ClassVar[str]  # stable id, e.g. "high-voltage"
    title: ClassVar[str]  # what players read, e.g. "High Voltage"
    aliases: ClassVar[tuple[str, ...]] = ()
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()

    @abstractmethod
    def new_state(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """Deal a new game; the same (seats, seed, options) always gives the same state."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a saved state."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read a player's words as an action (raises ActionSyntaxError); needs no position."""

    def from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A whole state that the view's viewer cannot tell from the real one, what is hidden
        from them filled in at random with `rng`. The default replays the view's history on
        the deal of seed 0: right for a game whose deal hides nothing and owes nothing to the
        seed; any other game overrides it."""
        return self.replay(int(view["seats"]), 0, view["history"], view.get("options"))

    def record_deal(self, state: State, seat: int | None) -> dict[str, Any]:
        """What of `state`'s deal has become public by the position it has reached, plus
        what `seat` alone knows of it (None: the public only), as JSON-ready data: the deal
        of a game record, from which `deal_from_record` rebuilds a deal that replays the
        moves to the same result. Never the seed, nothing still hidden from `seat`. The
        default holds nothing: right for a game whose deal hides nothing and owes nothing
        to the seed; any other game overrides both."""
        return {}

    def deal_from_record(
        self, seats: int, options: Mapping[str, Any] | None, deal: Mapping[str, Any]
    ) -> State:
        """The state before the first move, consistent with `deal` (`record_deal`
        output), what never became public filled in arbitrarily: it cannot change the
        result, since nobody saw it. ValueError when `deal` cannot be this game's. The
        default deals from seed 0, the partner of the default `record_deal`."""
        return self.new_state(seats, 0, options)

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(
                f"{self.title} is for {self.min_seats}-{self.max_seats} players, not {seats}."
            )

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and reject unknown names or values with a message naming the choices."""
        given = dict(options or {})
        known = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise ValueError(f"Unknown option {unknown[0]!r} for {self.title}; options: {names}.")
        resolved = {}
        for name, spec in known.items():
            value = given.get(name, spec.default)
            if value not in spec.choices:
                allowed = ", ".join(map(str, spec.choices))
                raise ValueError(f"Option {name!r} must be one of {allowed}, not {value!r}.")
            resolved[name] = value
        return resolved

    def replay(
        self,
        seats: int,
        seed: int,
        actions: Iterable[str],
        options: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal from the seed and apply a logged game: the audit, undo and bug-report path."""
        state = self.new_state(seats, seed, options)
        for text in actions:
            state.apply(text)
        return state
