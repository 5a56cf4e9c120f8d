"""Quiet hours on a player's own wall clock: a reminder due inside them waits for the exact
instant they end, on the nights clocks change too (a skipped end time ends quiet when the clock
jumps past it, a repeated one the first time it is shown), and the zone names a player types or
picks from autocomplete are ones zoneinfo loads."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from hvbot.services.quiet_hours import (
    QuietHours,
    known_zone,
    parse_clock_time,
    zone_choices,
)

ROME = ZoneInfo("Europe/Rome")
NEW_YORK = ZoneInfo("America/New_York")


def utc(*fields: int) -> datetime:
    return datetime(*fields, tzinfo=UTC)


def quiet(zone: str, start: str, end: str) -> QuietHours:
    return QuietHours(zone, parse_clock_time(start), parse_clock_time(end))


def test_rome_night_when_summer_time_begins_ends_at_seven_summer_time() -> None:
    nights = quiet("Europe/Rome", "22:00", "07:00")
    due = datetime(2026, 3, 28, 23, 30, tzinfo=ROME)  # CET, 22:30 UTC
    assert nights.contains(due)
    moved = nights.next_allowed(due)
    assert moved == utc(2026, 3, 29, 5, 0)  # 07:00 CEST: the night was an hour shorter
    assert moved.tzinfo is UTC
    assert moved.astimezone(ROME).replace(tzinfo=None) == datetime(2026, 3, 29, 7, 0)
    assert nights.contains(utc(2026, 3, 29, 4, 59, 59))
    assert not nights.contains(utc(2026, 3, 29, 5, 0))


def test_rome_night_when_clocks_go_back_ends_at_seven_winter_time() -> None:
    nights = quiet("Europe/Rome", "22:00", "07:00")
    due = datetime(2026, 10, 24, 23, 30, tzinfo=ROME)  # CEST, 21:30 UTC
    assert nights.next_allowed(due) == utc(2026, 10, 25, 6, 0)  # 07:00 CET
    # 02:30 happens twice that night, and both are quiet.
    assert nights.contains(datetime(2026, 10, 25, 2, 30, fold=0, tzinfo=ROME))
    assert nights.contains(datetime(2026, 10, 25, 2, 30, fold=1, tzinfo=ROME))
    assert nights.next_allowed(utc(2026, 10, 25, 5, 30)) == utc(2026, 10, 25, 6, 0)


def test_new_york_end_time_that_never_happens_ends_quiet_when_the_clock_jumps() -> None:
    # On 2026-03-08 New York's clocks go from 02:00 EST straight to 03:00 EDT (07:00 UTC).
    nights = quiet("America/New_York", "01:00", "02:30")
    due = datetime(2026, 3, 8, 1, 15, tzinfo=NEW_YORK)  # EST, 06:15 UTC
    assert nights.next_allowed(due) == utc(2026, 3, 8, 7, 0)
    assert nights.contains(utc(2026, 3, 8, 6, 59, 59))
    assert not nights.contains(utc(2026, 3, 8, 7, 0))


def test_new_york_start_time_that_never_happens_starts_quiet_when_the_clock_jumps() -> None:
    nights = quiet("America/New_York", "02:30", "06:00")
    assert not nights.contains(utc(2026, 3, 8, 6, 59))  # 01:59 EST
    assert nights.contains(utc(2026, 3, 8, 7, 0))  # 03:00 EDT
    assert nights.next_allowed(utc(2026, 3, 8, 7, 0)) == utc(2026, 3, 8, 10, 0)  # 06:00 EDT


def test_new_york_end_time_that_happens_twice_ends_quiet_the_first_time() -> None:
    # On 2026-11-01 New York's clocks go from 02:00 EDT back to 01:00 EST (06:00 UTC), so
    # 01:30 is both 05:30 and 06:30 UTC.
    nights = quiet("America/New_York", "00:00", "01:30")
    due = datetime(2026, 11, 1, 0, 45, tzinfo=NEW_YORK)  # EDT, 04:45 UTC
    assert nights.next_allowed(due) == utc(2026, 11, 1, 5, 30)  # 01:30 EDT
    # The second 01:10 is after quiet ended, though the clock reads inside 00:00-01:30.
    assert not nights.contains(datetime(2026, 11, 1, 1, 10, fold=1, tzinfo=NEW_YORK))
    assert nights.contains(datetime(2026, 11, 1, 1, 10, fold=0, tzinfo=NEW_YORK))


def test_new_york_start_time_that_happens_twice_starts_quiet_the_first_time() -> None:
    nights = quiet("America/New_York", "01:30", "06:00")
    assert not nights.contains(utc(2026, 11, 1, 5, 29))  # 01:29 EDT
    assert nights.contains(utc(2026, 11, 1, 5, 30))  # the first 01:30
    assert nights.contains(utc(2026, 11, 1, 6, 20))  # 01:20 EST, the second time round
    assert nights.next_allowed(utc(2026, 11, 1, 6, 20)) == utc(2026, 11, 1, 11, 0)  # 06:00 EST


def test_a_skip_of_half_an_hour_is_met_to_the_minute() -> None:
    # Lord Howe Island's clocks go from 02:00 (+10:30) to 02:30 (+11) on 2026-10-04.
    nights = quiet("Australia/Lord_Howe", "01:00", "02:15")
    due = datetime(2026, 10, 4, 1, 30, tzinfo=ZoneInfo("Australia/Lord_Howe"))
    assert nights.next_allowed(due) == utc(2026, 10, 3, 15, 30)


def test_a_night_whose_morning_was_skipped_lasts_until_the_next_morning() -> None:
    # Samoa skipped 2011-12-30: 23:59:59 on the 29th (-10) was followed by 00:00 on the 31st
    # (+14). Quiet that night ends when the clock jumps, which is also when the (skipped)
    # night of the 30th begins, so the reminder waits until 07:00 on the 31st.
    nights = quiet("Pacific/Apia", "22:00", "07:00")
    due = datetime(2011, 12, 29, 23, 0, tzinfo=ZoneInfo("Pacific/Apia"))
    assert nights.next_allowed(due) == utc(2011, 12, 30, 17, 0)


def test_two_nights_back_to_back_across_a_jump_are_one_stretch() -> None:
    # 02:00 and 02:59 both fall in New York's skipped hour of 2026-03-08, so one night's end
    # and the next one's start are both 03:00 EDT.
    nights = quiet("America/New_York", "02:59", "02:00")
    due = datetime(2026, 3, 8, 1, 0, tzinfo=NEW_YORK)
    assert nights.next_allowed(due) == utc(2026, 3, 9, 6, 0)  # 02:00 EDT the next day


def test_tokyo_night_is_found_from_the_previous_utc_date() -> None:
    nights = quiet("Asia/Tokyo", "23:00", "08:00")
    assert not nights.contains(utc(2026, 5, 1, 13, 59))  # 22:59 on the 1st in Tokyo
    assert nights.contains(utc(2026, 5, 1, 14, 0))  # 23:00 on the 1st in Tokyo
    # 15:30 UTC on the 1st is 00:30 on the 2nd in Tokyo; quiet ends at 08:00 on the 2nd.
    assert nights.next_allowed(utc(2026, 5, 1, 15, 30)) == utc(2026, 5, 1, 23, 0)
    assert not nights.contains(utc(2026, 5, 1, 23, 0))


def test_los_angeles_night_is_found_from_the_next_utc_date() -> None:
    nights = quiet("America/Los_Angeles", "22:00", "07:00")
    # 06:00 UTC on the 2nd is 23:00 on the 1st in Los Angeles (PDT).
    assert nights.next_allowed(utc(2026, 5, 2, 6, 0)) == utc(2026, 5, 2, 14, 0)


def test_quiet_hours_within_one_day() -> None:
    afternoon = quiet("Europe/Rome", "13:00", "15:30")
    assert afternoon.next_allowed(utc(2026, 6, 1, 11, 0)) == utc(2026, 6, 1, 13, 30)
    assert not afternoon.contains(utc(2026, 6, 1, 10, 59))
    assert not afternoon.contains(utc(2026, 6, 1, 13, 30))


def test_any_time_zone_of_the_instant_gives_the_same_answer_in_utc() -> None:
    nights = quiet("Europe/Rome", "22:00", "07:00")
    in_india = datetime(2026, 1, 15, 4, 0, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    moved = nights.next_allowed(in_india)  # 22:30 UTC on the 14th, 23:30 in Rome
    assert moved == utc(2026, 1, 15, 6, 0)
    assert moved.tzinfo is UTC


def test_a_time_outside_quiet_hours_is_returned_unchanged() -> None:
    nights = quiet("Europe/Rome", "22:00", "07:00")
    at = utc(2026, 6, 1, 12, 0)
    assert not nights.contains(at)
    assert nights.next_allowed(at) is at
    assert nights.next_allowed(utc(2026, 6, 1, 5, 0)) == utc(2026, 6, 1, 5, 0)  # 07:00 CEST


def test_a_time_without_a_zone_is_refused() -> None:
    nights = quiet("Europe/Rome", "22:00", "07:00")
    with pytest.raises(ValueError, match="no time zone"):
        nights.contains(datetime(2026, 6, 1, 23, 0))


@pytest.mark.parametrize(
    ("zone", "start", "end", "message"),
    [
        ("Europe/Rome", time(22), time(22), "different times"),
        ("Europe/Rome", time(22, 0, 30), time(7), "whole minutes"),
        ("Europe/Rome", time(22, tzinfo=UTC), time(7), "whole minutes"),
        ("Mars/Olympus_Mons", time(22), time(7), "unknown time zone"),
        ("europe/rome", time(22), time(7), "unknown time zone"),
        ("localtime", time(22), time(7), "unknown time zone"),
    ],
)
def test_quiet_hours_that_make_no_sense_are_refused(
    zone: str, start: time, end: time, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        QuietHours(zone, start, end)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("22:30", time(22, 30)),
        ("7:00", time(7, 0)),
        ("7", time(7, 0)),
        ("07", time(7, 0)),
        ("0:05", time(0, 5)),
        ("00:00", time(0, 0)),
        (" 23:59 ", time(23, 59)),
    ],
)
def test_clock_times_a_player_types(text: str, expected: time) -> None:
    assert parse_clock_time(text) == expected


@pytest.mark.parametrize(
    "text",
    ["24:00", "7:60", "07h30", "7:5", "123", "", "-1", "7:00pm", "12:30:00", "٧:٠٠", "7.30"],
)
def test_clock_times_that_are_refused_say_the_legal_form(text: str) -> None:
    with pytest.raises(ValueError, match="HH:MM, from 00:00 to 23:59") as refused:
        parse_clock_time(text)
    assert repr(text) in str(refused.value)


def test_stored_text_round_trips() -> None:
    nights = QuietHours("Europe/Rome", time(22, 30), time(7, 0))
    assert nights.to_text() == "Europe/Rome 22:30-07:00"
    assert QuietHours.from_text("Europe/Rome 22:30-07:00") == nights
    deep = QuietHours("America/Argentina/Buenos_Aires", time(0, 5), time(23, 55))
    assert QuietHours.from_text(deep.to_text()) == deep


@pytest.mark.parametrize(
    "text",
    [
        "Europe/Rome",
        "Europe/Rome 22:30",
        "22:30-07:00",
        "Mars/Olympus_Mons 22:30-07:00",
        "Europe/Rome 22:30-7:61",
        "Europe/Rome 22:30-22:30",
    ],
)
def test_stored_text_that_is_not_quiet_hours_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        QuietHours.from_text(text)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Europe/Rome", "Europe/Rome"),
        ("europe/rome", "Europe/Rome"),
        ("  EUROPE/ROME ", "Europe/Rome"),
        ("america/new york", "America/New_York"),
        ("utc", "UTC"),
        ("Rome", None),
        ("Mars/Olympus_Mons", None),
        ("", None),
        ("localtime", None),
        ("posixrules", None),
        ("Factory", None),
    ],
)
def test_known_zone_spells_the_zone_as_zoneinfo_does(typed: str, expected: str | None) -> None:
    assert known_zone(typed) == expected


def test_zone_choices_put_names_and_cities_starting_with_the_text_first() -> None:
    # Bermuda and Berlin start with "ber"; Canberra only contains it.
    assert zone_choices("ber") == ["Atlantic/Bermuda", "Europe/Berlin", "Australia/Canberra"]
    assert zone_choices("ROME") == ["Europe/Rome"]
    assert zone_choices("new york") == ["America/New_York"]
    assert zone_choices("eur")[:2] == ["Europe/Amsterdam", "Europe/Andorra"]


def test_zone_choices_are_at_most_the_limit() -> None:
    assert len(zone_choices("america")) == 25
    assert len(zone_choices("america", most=3)) == 3
    assert zone_choices("america", most=3) == zone_choices("america")[:3]
    assert zone_choices("no such place") == []


def test_zone_choices_before_typing_are_the_common_zones() -> None:
    common = zone_choices("")
    assert common[:3] == ["UTC", "Europe/London", "Europe/Lisbon"]
    for zone in ("Europe/Rome", "America/New_York", "Asia/Tokyo", "Australia/Sydney"):
        assert zone in common
    assert zone_choices("  ", most=2) == ["UTC", "Europe/London"]


@pytest.mark.parametrize("typed", ["", "a", "e", "/", "local", "posix", "fact", "gmt"])
def test_zone_choices_only_list_zones_zoneinfo_loads(typed: str) -> None:
    for zone in zone_choices(typed, most=1000):
        assert known_zone(zone) == zone
        ZoneInfo(zone)
        assert zone not in {"localtime", "posixrules", "Factory"}
