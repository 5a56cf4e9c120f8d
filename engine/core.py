"""The interface every game implements, so lobby, persistence, AI seats, logs and replays are
written once for all games.

Shaped after OpenSpiel's `State` (legal actions, apply, current player, terminal, returns) and
boardgame.io's `playerView`: a `Game` describes a game and creates states; a `State` holds the
whole truth, advances by actions given as plain data with one text form, and hands out views
that contain only what one seat may know.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from engine.errors import IllegalActionError


class Action(Protocol):
    """An action is a frozen dataclass whose `text()` is its stable, context-free form."""

    def text(self) -> str: ...


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


class State(ABC):
    """One position of one game. Mutable: `apply` advances it in place; `clone` copies it."""

    game: ClassVar[Game]

    @property
    @abstractmethod
    def seats(self) -> int:
        """Number of seats at the table."""

    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must act now, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action the current seat may take now; empty only when the game is over."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """Read a player's words as an action of this game (raises ActionSyntaxError)."""

    @abstractmethod
    def _apply(self, action: Any) -> None:
        """Check and apply one action; raise IllegalActionError and change nothing if illegal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once a rule has ended the game."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal, else None."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready picture of the game as `seat` may know it; None is a spectator."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole truth as JSON-ready data, versioned, for the database (never for players)."""

    @property
    @abstractmethod
    def history(self) -> Sequence[str]:
        """The text of every action applied since the deal, in order."""

    @abstractmethod
    def sample_action(self, rng: random.Random) -> Any:
        """A random legal action, cheaply: for random seats, playouts and simulations."""

    def apply(self, action: Any) -> None:
        """Apply an action given as data or as text; one place that checks the game is live."""
        if self.is_terminal():
            raise IllegalActionError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        if isinstance(action, str):
            action = self.parse_action(action)
        self._apply(action)

    def clone(self) -> State:
        return type(self).from_dict(self.to_dict())

    def copy(self) -> State:
        """An independent copy, as cheap as the game can make it: the bot copies a game's
        state for every move. A game whose `clone` goes through its saved form overrides this
        with a direct copy."""
        return self.clone()

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `to_dict` output, validating it (raises ValueError)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


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

    def reveals_hidden(self, action: str) -> bool:
        """Whether this action (its text) showed someone something hidden, such as a card
        drawn; such an action cannot be taken back, since nobody can unsee what it showed."""
        return False

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
