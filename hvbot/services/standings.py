"""Tournament standings (interface; bodies follow)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableResult:
    """One table of a round: its players in seat order and their places (None: abandoned)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None


@dataclass(frozen=True)
class Bye:
    """A round a player sat out, scored as a win."""

    round: int
    player: int


@dataclass(frozen=True)
class Standing:
    """One line of the standings: points in sixths of a point."""

    player: int
    place: int
    points: int
    tiebreaks: tuple[int, ...]
    games: int
    wins: int
    byes: int
    withdrawn: bool


def standings(
    entrants: Sequence[int],
    tables: Sequence[TableResult],
    byes: Sequence[Bye],
    *,
    withdrawn: Collection[int] = (),
    by_tables: bool,
    round_robin: bool = False,
) -> list[Standing]:
    raise NotImplementedError


def shown_points(sixths: int) -> str:
    raise NotImplementedError
