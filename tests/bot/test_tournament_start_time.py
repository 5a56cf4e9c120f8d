"""/tournament new start: the start time as its creator types it, read in the zone they give
(UTC by default); anything else is refused, saying what would do."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from data.texts import texts_for
from hvbot.handlers.tournament import start_time
from hvbot.messages.wording import explain
from hvbot.services import BotError

NOW = datetime(2026, 11, 29, 16, 30, tzinfo=UTC)


def test_a_time_of_day_is_the_next_time_the_clock_shows_it() -> None:
    assert start_time("18:00", None, NOW) == datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    assert start_time("9", None, NOW) == datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    # 16:30 UTC is 17:30 in Rome: 17:00 there has passed today, so it is tomorrow's.
    assert start_time("17:00", "europe/rome", NOW) == datetime(2026, 11, 30, 16, 0, tzinfo=UTC)


def test_a_day_and_a_time_in_the_zone_given() -> None:
    at = start_time("2026-12-05 18:00", "Europe/Rome", NOW)
    assert at == datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
    assert start_time("2026-12-05T18:00", None, NOW) == datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("typed", "zone", "key", "said"),
    [
        ("tomorrow", None, "bot.tournament_cmd.bad_start", "is not a time: use HH:MM"),
        ("25:00", None, "bot.tournament_cmd.bad_start", "is not a time"),
        ("2026-02-30 10:00", None, "bot.tournament_cmd.bad_start", "is not a time"),
        ("2026-11-29 10:00", None, "bot.tournament_cmd.start_past", "has passed already"),
        ("2027-03-01 10:00", None, "bot.tournament_cmd.start_far", "more than 60 days"),
        ("18:00", "Mars/Olympus", "bot.tournament_cmd.bad_zone", "is not a time zone"),
    ],
)
def test_what_is_not_a_start_is_refused_saying_what_would_do(
    typed: str, zone: str | None, key: str, said: str
) -> None:
    with pytest.raises(BotError) as refused:
        start_time(typed, zone, NOW)
    assert refused.value.key == key
    assert said in explain(texts_for("en"), refused.value)
    # In the reader's language, naming the option as their client lists it.
    if key == "bot.tournament_cmd.start_past":
        assert "début" in explain(texts_for("fr"), refused.value)
