"""The garbage collector of a bot process (`hvbot.infra.collector`): what survives a full pass
is frozen, so the next passes walk only what came since; and what would wait frozen for good
(a cycle that became garbage after it was frozen) is walked again, and freed, once the frozen
objects have grown enough."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator

import pytest

from hvbot.infra.collector import YOUNG, Collector, process_collector
from hvbot.infra.config import Settings
from hvbot.runtime.client import GameBot


class Node:
    """An object that can be tied into a cycle."""

    other: Node | None = None


@pytest.fixture
def collector() -> Iterator[Collector]:
    collector = Collector()
    collector.start()
    try:
        yield collector
    finally:
        collector.stop()  # what it froze stays so, as what the test process froze does


def unfrozen(item: object) -> bool:
    """Whether a full pass walks `item` (the frozen are in no generation)."""
    return any(each is item for each in gc.get_objects())


def test_what_survives_a_full_pass_is_frozen_and_not_walked_again(collector: Collector) -> None:
    kept = [[n] for n in range(10_000)]
    assert unfrozen(kept)
    frozen = gc.get_freeze_count()
    gc.collect()
    assert collector.passes == 1
    assert not unfrozen(kept) and not unfrozen(kept[0])
    assert gc.get_freeze_count() >= frozen + 10_000
    assert collector.frozen >= gc.get_freeze_count(), "counted high, never low"
    # A young pass freezes nothing: only what outlived a full pass is frozen.
    young = [[n] for n in range(100)]
    gc.collect(0)
    assert unfrozen(young) and collector.passes == 1


def test_a_cycle_that_became_garbage_frozen_is_freed_once_the_frozen_have_doubled(
    collector: Collector,
) -> None:
    node = Node()
    node.other = node
    alive = weakref.ref(node)
    gc.collect()  # alive then: frozen
    del node
    gc.collect()
    assert alive() is not None, "garbage frozen waits while the frozen have not grown enough"
    assert collector.passes_over_all == 0
    # The process grows (more games): twice as many objects frozen as when all was walked.
    grown = [[n] for n in range(collector.walked_all + 1000)]
    gc.collect()
    assert not unfrozen(grown)
    gc.collect()  # this pass walks everything
    assert collector.passes_over_all == 1
    assert alive() is None
    assert not unfrozen(grown), "what is alive is frozen again"
    assert collector.walked_all == gc.get_freeze_count()


def test_what_a_test_keeps_to_look_at_is_not_frozen(collector: Collector) -> None:
    node = Node()
    node.other = node
    del node
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kept = [each for each in gc.garbage if isinstance(each, Node)]
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    assert len(kept) == 1 and unfrozen(kept[0])
    assert collector.passes == 0


def test_stopped_it_freezes_nothing_more(collector: Collector) -> None:
    collector.stop()
    kept = [[n] for n in range(100)]
    gc.collect()
    assert unfrozen(kept) and collector.passes == 0


def counting_all_frozen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every count of all that is frozen (Python walks every frozen object to count them),
    noted in the list returned until `monkeypatch.undo()`."""
    counted_all: list[int] = []
    count = gc.get_freeze_count

    def walks_all_frozen() -> int:
        counted_all.append(count())  # (a callback's exception would only be printed)
        return counted_all[-1]

    monkeypatch.setattr(gc, "get_freeze_count", walks_all_frozen)
    return counted_all


def test_an_ordinary_full_pass_counts_what_it_froze_without_counting_all_that_is_frozen(
    collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python counts the frozen objects by walking all of them: a pause as long as a good
    part of the walk that freezing spares. Only a pass that walked everything asks."""
    before = collector.frozen
    kept = [[n] for n in range(1_000)]
    counted_all = counting_all_frozen(monkeypatch)
    gc.collect()
    monkeypatch.undo()
    assert not unfrozen(kept)
    assert counted_all == [], "every frozen object counted after an ordinary full pass"
    assert collector.frozen >= before + 1_000


def test_a_count_grown_high_by_objects_freed_since_is_counted_again_before_walking_all(
    collector: Collector,
) -> None:
    """States replaced move by move are counted each time they are frozen, though the old
    ones are gone: the count says "doubled" long before the frozen have. Counted again then,
    no walk of everything comes before it is due."""
    bound = collector.growth * collector.walked_all
    while collector.frozen <= bound:
        kept = [[n] for n in range(collector.walked_all // 3)]
        gc.collect()  # frozen, counted
        del kept  # freed by its count: still counted
    assert gc.get_freeze_count() < bound
    gc.collect()
    assert collector.passes_over_all == 0, "the frozen have not doubled: nothing to walk"
    assert collector.frozen <= collector.growth * collector.walked_all


def test_a_later_start_freezes_what_came_since_without_counting_all_that_is_frozen(
    collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that runs one bot after another (or several) starts its collector each
    time: only the first start counts everything frozen, the walk a start is there to spare."""
    collector.stop()
    walked_all, before = collector.walked_all, collector.frozen
    kept = [[n] for n in range(5_000)]
    counted_all = counting_all_frozen(monkeypatch)
    collector.start()
    monkeypatch.undo()
    assert counted_all == [], "everything frozen counted again at a later start"
    assert not unfrozen(kept) and not unfrozen(kept[0])
    assert collector.frozen >= before + 5_000
    assert collector.frozen >= gc.get_freeze_count(), "counted high, never low"
    assert collector.walked_all == walked_all, "a later start did not walk everything"


def test_it_freezes_until_the_last_of_its_users_stops(collector: Collector) -> None:
    collector.start()  # a second bot of the process
    collector.stop()  # the first one closes
    kept = [[n] for n in range(100)]
    gc.collect()
    assert not unfrozen(kept), "a bot still running lost its collector"
    collector.stop()  # the last one
    kept = [[n] for n in range(100)]
    gc.collect()
    assert unfrozen(kept)


def young_passes() -> int:
    return gc.get_stats()[0]["collections"]


@contextlib.contextmanager
def thresholds_set(thresholds: tuple[int, int, int]) -> Iterator[None]:
    """The collector's thresholds `thresholds` inside, the test process's (`conftest.py`)
    again after."""
    test_process = gc.get_threshold()
    gc.set_threshold(*thresholds)
    try:
        yield
    finally:
        gc.set_threshold(*test_process)


@pytest.fixture
def python_thresholds() -> Iterator[None]:
    """Python's own thresholds for the test, not those of the test process."""
    with thresholds_set((700, 10, 10)):
        yield


@pytest.mark.usefixtures("python_thresholds")
def test_young_passes_come_young_objects_apart_until_the_last_user_stops() -> None:
    """A move's objects in flight are gone by the time a young pass comes, not passed on to
    be walked again: the passes come `YOUNG` new objects apart, not Python's 700."""
    collector = Collector()
    collector.start()
    collector.start()  # a second bot of the process
    try:
        assert gc.get_threshold() == (YOUNG, 10, 10)
        gc.collect(0)  # no new objects counted since
        before = young_passes()
        kept = [[n] for n in range(YOUNG // 2)]
        assert young_passes() == before, "a young pass before YOUNG new objects"
        kept += [[n] for n in range(YOUNG)]
        assert young_passes() > before
        collector.stop()
        assert gc.get_threshold()[0] == YOUNG, "a bot still running lost its thresholds"
        collector.stop()
    finally:
        while collector.users:
            collector.stop()
    assert gc.get_threshold() == (700, 10, 10)
    gc.collect(0)
    before = young_passes()
    kept = [[n] for n in range(YOUNG // 2)]
    assert young_passes() > before, "the process's own thresholds given back"
    assert kept


@pytest.mark.parametrize("thresholds", [(50_000, 20, 100), (0, 10, 10)])
def test_young_passes_set_further_apart_or_off_are_left_so(
    thresholds: tuple[int, int, int],
) -> None:
    with thresholds_set(thresholds):
        collector = Collector()
        collector.start()
        assert gc.get_threshold() == thresholds
        collector.stop()
        assert gc.get_threshold() == thresholds


async def test_a_bot_closed_before_it_set_up_leaves_the_collector_to_the_bots_running() -> None:
    shared = process_collector()
    shared.start()  # as a bot of the process set up
    try:
        settings = Settings(
            token="unused", database_url="sqlite:///unused.sqlite3", guild_id=None, log_level="INFO"
        )
        made = GameBot(settings)
        assert made.collector is shared, "a bot of its own collector"
        await made.close()  # before it ever set up (a failed start)
        kept = [[n] for n in range(100)]
        gc.collect()
        assert not unfrozen(kept), "a bot that never started its collector stopped it"
    finally:
        shared.stop()


@pytest.mark.parametrize("when", ["at a later start", "after a full pass"])
def test_what_a_pass_made_as_it_freed_garbage_is_counted_too(
    collector: Collector, when: str
) -> None:
    """A weak reference's callback (or a finalizer) runs during the pass that frees its
    object and may make objects then: they are frozen with the rest, and counted with it."""
    made: list[list[int]] = []

    def on_freed(_: object) -> None:
        made.extend([n] for n in range(20_000))

    node = Node()
    node.other = node
    watch = weakref.ref(node, on_freed)
    del node
    if when == "at a later start":
        collector.stop()
        collector.start()
    else:
        gc.collect()
    assert made and watch() is None
    assert not unfrozen(made[-1])
    assert collector.frozen >= gc.get_freeze_count(), "counted low"
