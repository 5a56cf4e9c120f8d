"""The seasons' calendar, pure: UTC calendar months and quarters, at their edges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from hvbot.services.seasons import Season, season_at, season_named

LAST_MICRO = timedelta(microseconds=1)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def test_off_has_no_season_and_an_unknown_length_is_refused() -> None:
    assert season_at("off", at(2026, 11, 22)) is None
    with pytest.raises(ValueError, match="month"):
        season_at("week", at(2026, 11, 22))


def test_a_month_holds_its_last_second_and_not_the_next_month_s_first() -> None:
    november = season_at("month", at(2026, 11, 30, 23, 59, 59))
    assert november == Season("2026-11", at(2026, 11, 1), at(2026, 12, 1))
    assert season_at("month", at(2026, 12, 1) - LAST_MICRO) == november
    december = season_at("month", at(2026, 12, 1))
    assert december is not None and december.label == "2026-12"
    assert december.ends == at(2027, 1, 1), "December ends at the new year"
    assert november.contains("2026-11-30T23:59:59.999+00:00")
    assert not november.contains("2026-12-01T00:00:00.000+00:00")
    assert november.contains("2026-11-01T00:00:00"), "a stamp without a zone is UTC"
    assert not november.contains("2026-10-31T23:59:59.999+00:00")


def test_a_quarter_turns_on_the_first_of_january_april_july_october() -> None:
    q4 = season_at("quarter", at(2026, 12, 31, 23, 59, 59))
    assert q4 == Season("2026-Q4", at(2026, 10, 1), at(2027, 1, 1))
    q1 = season_at("quarter", at(2027, 1, 1))
    assert q1 == Season("2027-Q1", at(2027, 1, 1), at(2027, 4, 1))
    assert season_at("quarter", at(2026, 7, 1) - LAST_MICRO) == Season(
        "2026-Q2", at(2026, 4, 1), at(2026, 7, 1)
    )
    assert q1.before() == q4
    assert q4.length == "quarter" and q4.before().label == "2026-Q3"


def test_leap_years_end_february_on_its_29th() -> None:
    leap = season_at("month", at(2028, 2, 29, 23, 59, 59))
    assert leap == Season("2028-02", at(2028, 2, 1), at(2028, 3, 1))
    assert season_at("month", at(2027, 3, 1) - LAST_MICRO) == Season(
        "2027-02", at(2027, 2, 1), at(2027, 3, 1)
    )
    assert leap.contains("2028-02-29T12:00:00.000+00:00")
    march = season_at("month", at(2028, 3, 1))
    assert march is not None and march.before() == leap


def test_a_moment_elsewhere_is_read_in_utc() -> None:
    rome = timezone(timedelta(hours=1))
    # Half past midnight on 1 December in Rome is still November in UTC.
    assert season_at("month", datetime(2026, 12, 1, 0, 30, tzinfo=rome)) == season_named("2026-11")
    assert season_at("month", datetime(2026, 11, 30, 23, 30)) == season_named("2026-11")


def test_a_label_names_its_season_and_nothing_else() -> None:
    assert season_named("2026-11") == season_at("month", at(2026, 11, 5))
    assert season_named("2026-q4") == season_at("quarter", at(2026, 11, 5))
    for wrong in ("2026-13", "2026-Q5", "2026-1", "autumn", "", "2026-Q0"):
        assert season_named(wrong) is None, wrong
