"""The order `-n`'s workers run the tests in: each worker's share has its end-to-end tests
spread among its first quick tests, a module's tests together, and quick tests at its end for
the others to take."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from conftest import SPREAD_OVER, long_ones_spread_in_each_share, spread


@dataclass(frozen=True)
class Listed:
    """A collected test as the ordering sees it: its module's path and a name."""

    path: Path
    name: str


def module(name: str, tests: int) -> list[Listed]:
    return [Listed(Path(f"tests/{name}.py"), f"{name}::{index}") for index in range(tests)]


def modules_together(order: list[Listed]) -> bool:
    runs = [path for path, _ in itertools.groupby(test.path for test in order)]
    return len(runs) == len(set(runs))


def test_long_ones_are_spread_over_the_first_quick_ones_each_module_together() -> None:
    long = module("e2e_a", 3) + module("e2e_b", 5) + module("e2e_c", 2) + module("e2e_d", 4)
    short = [test for index in range(20) for test in module(f"quick_{index}", 10)]
    order = spread(long, short)
    assert sorted(order, key=lambda test: test.name) == sorted(
        long + short, key=lambda test: test.name
    )
    assert [test for test in order if test in long] == long  # each kind in its own order
    assert [test for test in order if test in short] == short
    assert modules_together(order)
    # The first long module first (the longest of a few must not start late), then quick tests
    # between every two long modules...
    kinds = [test in long for test in order]
    assert order[:3] == long[:3]  # e2e_a's three tests
    assert [kind for kind, _ in itertools.groupby(kinds)].count(True) == 4
    # ...and the last of the quick ones after every long one, for the other workers to take.
    last_long = max(index for index, kind in enumerate(kinds) if kind)
    assert len(order) - 1 - last_long >= (1 - SPREAD_OVER) * len(short)


def test_each_share_holds_its_part_of_the_long_ones_spread_among_quick_ones() -> None:
    """The shares are those xdist's worksteal hands out: equal, contiguous, in order."""
    long = [test for index in range(9) for test in module(f"e2e_{index}", 4)]
    short = [test for index in range(60) for test in module(f"quick_{index}", 5)]
    items = short[:100] + long + short[100:]  # as collected: the folders in their order
    order = long_ones_spread_in_each_share(items, long, 3)  # type: ignore[arg-type]  # stand-ins
    assert sorted(order, key=lambda test: test.name) == sorted(items, key=lambda test: test.name)
    size = len(items) // 3
    for share in (order[:size], order[size : 2 * size], order[2 * size :]):
        assert sum(test in long for test in share) == len(long) // 3
        assert share[0] in long and share[-1] not in long
        assert modules_together(share)
        kinds = [kind for kind, _ in itertools.groupby(test in long for test in share)]
        assert kinds.count(True) == len({test.path for test in share if test in long})
