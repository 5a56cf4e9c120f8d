"""The throttle forgets what is older than its window without looking over everyone who
asked: a bot with thousands of games counts thousands of people, and each request looked over
them all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hvbot.services.throttle import Throttle

START = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def test_each_person_and_kind_is_counted_apart_and_let_through_again_after_the_window() -> None:
    clock = Clock()
    throttle = Throttle(clock, most=2, window=timedelta(minutes=1))
    assert throttle.wait("game board", 1) is None
    clock.now += timedelta(seconds=20)
    assert throttle.wait("game board", 1) is None
    assert throttle.wait("game board", 1) == 40, "the first request leaves the window in 40 s"
    assert throttle.wait("game log", 1) is None, "another kind of work is counted apart"
    assert throttle.wait("game board", 2) is None, "so is another person"
    clock.now += timedelta(seconds=40)
    assert throttle.wait("game board", 1) is None, "the first request has left the window"
    assert throttle.wait("game board", 1) == 20


def test_a_request_looks_only_at_the_requests_leaving_the_window() -> None:
    clock = Clock()
    throttle = Throttle(clock, most=3, window=timedelta(minutes=1))
    for user in range(5000):
        assert throttle.wait("game board", user) is None
    clock.now += timedelta(seconds=30)
    looked: list[int] = []

    class Watched(dict[tuple[str, int], object]):
        def get(self, key, default=None):  # type: ignore[no-untyped-def, override]
            looked.append(key[1])
            return super().get(key, default)

        def items(self):  # type: ignore[no-untyped-def, override]
            raise AssertionError("every person who asked was looked over")

    throttle._asked = Watched(throttle._asked)  # type: ignore[assignment]  # to watch it
    assert throttle.wait("game board", 1) is None
    assert looked == [], "nothing has left the window yet"
    clock.now += timedelta(seconds=31)
    assert throttle.wait("game board", 6000) is None
    assert sorted(looked) == list(range(5000)), "each request leaving is forgotten once"
    assert set(throttle._asked) == {("game board", 1), ("game board", 6000)}
    looked.clear()
    assert throttle.wait("game board", 6001) is None
    assert looked == [], "what was forgotten is not looked at again"
