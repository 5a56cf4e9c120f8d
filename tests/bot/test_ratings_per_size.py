"""A game rated per table size (its manifest's `rated_by_player_count`): one summary per size
played, each rating only the tables of its size. None of today's games sets the flag, so the
manifest of High Voltage is swapped for one that does, for these tests alone."""

from __future__ import annotations

import dataclasses

import pytest

from hvbot import plugins
from hvbot.services.stats import summarise, summarise_all
from hvbot.store import ResultRow

GAME = "high-voltage"
ADA, BO, CY = 101, 102, 103


def seat(game_id: int, seat: int, user_id: int, score: int, won: bool) -> ResultRow:
    return ResultRow(
        game_id=game_id,
        seat=seat,
        game_name=GAME,
        guild_id=1,
        user_id=user_id,
        display_name={ADA: "Ada", BO: "Bo", CY: "Cy"}[user_id],
        score=score,
        won=won,
        finished_at=f"2026-01-{game_id:02d}T10:00:00+00:00",
    )


# Ada beats Bo twice at a table of two; Bo wins a table of three ahead of Ada and Cy.
ROWS = [
    seat(1, 0, ADA, 9, True),
    seat(1, 1, BO, 3, False),
    seat(2, 0, BO, 2, False),
    seat(2, 1, ADA, 8, True),
    seat(3, 0, ADA, 4, False),
    seat(3, 1, BO, 12, True),
    seat(3, 2, CY, 1, False),
]


@pytest.fixture
def rated_per_size(monkeypatch: pytest.MonkeyPatch) -> None:
    split = dataclasses.replace(plugins.plugin(GAME), rated_by_player_count=True)
    monkeypatch.setitem(plugins._PLUGINS, GAME, split)  # the registry itself


def test_one_rating_for_the_game_unless_its_manifest_splits_it() -> None:
    (only,) = summarise_all(GAME, ROWS)
    assert only.players_at is None and only.finished == 3


@pytest.mark.usefixtures("rated_per_size")
def test_a_game_rated_per_size_has_one_summary_per_table_size() -> None:
    two, three = summarise_all(GAME, ROWS)
    assert (two.players_at, two.finished, three.players_at, three.finished) == (2, 2, 3, 1)
    assert set(two.players) == {ADA, BO} and set(three.players) == {ADA, BO, CY}
    assert [p.user_id for p in two.top(2)] == [ADA, BO], "Ada won both games of two"
    assert three.top(1)[0].user_id == BO, "Bo won the game of three"
    # Each size is rated from its own tables alone, as if the others were never played.
    alone = summarise(GAME, ROWS[4:])
    assert three.players[BO].rating == alone.players[BO].rating
    assert two.players[ADA].rating == summarise(GAME, ROWS[:4]).players[ADA].rating
