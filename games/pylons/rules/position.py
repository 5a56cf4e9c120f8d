"""What the state's helpers (refusals, saving, views) read of a Pylons game, as a `Protocol`.

`PylonsState` plays the moves and calls these helpers; they only read it. Naming its fields
here rather than importing the class keeps every import pointing one way, down: the state
imports its helpers, and no helper imports the state back, not even for its type hints.
"""

from __future__ import annotations

from typing import Any, Protocol

from games.pylons.rules.board import Patch


class PylonsPosition(Protocol):
    """The fields of a `PylonsState` its helpers read (see the state for what each holds)."""

    seed: int
    phase: str
    seat: int
    end_reason: str | None
    _history: list[str]
    swamps_on: bool
    dealt: tuple[Patch, ...]
    patches: tuple[Patch, ...]
    mirrored: bool | None
    first_seat: int | None
    swamp: bytearray
    owner: bytearray
    order: list[int]
    link_on: bytearray
    links: list[int]
    scores: list[int]
    placed: list[int]
    free: list[list[int]]
    skipped: list[tuple[int, int]]
    last_seat: int | None
    last_cell: int
    last_links: list[int]
    last_blocked: list[int]

    def apply(self, action: Any) -> None:
        """Apply an action given as data or as text (see `engine.core.State.apply`)."""

    def to_dict(self) -> dict[str, Any]:
        """The whole truth as JSON-ready data (see `engine.core.State.to_dict`)."""
