"""Work kept while what it was made from holds: an export, a server's /stats."""

from __future__ import annotations

import pytest

from hvbot.infra.kept import Kept


def test_a_value_serves_while_its_stamp_holds_and_not_after() -> None:
    kept: Kept[str, int, str] = Kept(most=4)
    assert kept.get("a", 1) is None
    kept.keep("a", 1, "made from 1")
    assert kept.get("a", 1) == "made from 1"
    assert kept.get("a", 2) is None, "made from something else: made anew"
    kept.keep("a", 2, "made from 2")
    assert kept.get("a", 1) is None and kept.get("a", 2) == "made from 2"


def test_the_least_recently_used_goes_first_and_no_more_are_kept() -> None:
    kept: Kept[str, int, str] = Kept(most=2)
    kept.keep("a", 0, "A")
    kept.keep("b", 0, "B")
    assert kept.get("a", 0) == "A"  # now "b" is the least recently used
    kept.keep("c", 0, "C")
    assert len(kept) == 2
    assert kept.get("b", 0) is None and kept.get("a", 0) == "A" and kept.get("c", 0) == "C"


def test_nothing_kept_is_no_cache() -> None:
    with pytest.raises(ValueError):
        Kept(most=0)
