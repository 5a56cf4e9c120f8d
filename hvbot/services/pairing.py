"""Pairing of tournament rounds: Swiss and round robin (interface; bodies follow)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Round:
    """One round's tables (each in seat order, the first seat moves first) and its byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def table_sizes(count: int, smallest: int, largest: int) -> tuple[int, ...]:
    raise NotImplementedError


def swiss_round(
    order: Sequence[int],
    points: Mapping[int, int],
    met: Mapping[frozenset[int], int],
    byes_had: Mapping[int, int],
    first_seats: Mapping[int, int],
    *,
    smallest: int,
    largest: int,
    round_number: int,
) -> Round:
    raise NotImplementedError


def round_robin(players: Sequence[int]) -> list[Round]:
    raise NotImplementedError
