"""Elo ratings against numbers worked out by hand from the formula
E = 1 / (1 + 10^((opponent - rating) / 400)), new = old + K * (score - E), K = 32 shared
equally among the pairs a person is in."""

from __future__ import annotations

import pytest

from hvbot.services.ratings import (
    START,
    Placing,
    Rating,
    expected,
    pair_score,
    rate_game,
    rate_games,
)


def table(*seats: tuple[str, bool]) -> list[Placing]:
    return [Placing(player, won) for player, won in seats]


def test_expected_share_of_a_point() -> None:
    assert expected(1000, 1000) == 0.5
    # 10^(-100/400) = 0.562341; 1 / 1.562341 = 0.640065
    assert expected(1100, 1000) == pytest.approx(0.640065, abs=1e-6)
    assert expected(1000, 1100) == pytest.approx(1 - 0.640065, abs=1e-6)
    assert expected(1400, 1000) == pytest.approx(10 / 11)


def test_pair_scores_make_shared_wins_draws() -> None:
    assert pair_score(True, False) == 1.0
    assert pair_score(False, True) == 0.0
    assert pair_score(True, True) == 0.5
    assert pair_score(False, False) == 0.5


def test_two_equal_players() -> None:
    assert rate_game({}, table(("ada", True), ("bo", False))) == {"ada": 1016.0, "bo": 984.0}


def test_an_upset_moves_more_than_an_expected_win() -> None:
    ratings = {"ada": 1100.0, "bo": 1000.0}
    # 32 * (1 - 0.640065) = 11.518
    expected_win = rate_game(ratings, table(("ada", True), ("bo", False)))
    assert expected_win["ada"] == pytest.approx(1111.518, abs=1e-3)
    assert expected_win["bo"] == pytest.approx(988.482, abs=1e-3)
    # 32 * (1 - 0.359935) = 20.482
    upset = rate_game(ratings, table(("ada", False), ("bo", True)))
    assert upset["ada"] == pytest.approx(1079.518, abs=1e-3)
    assert upset["bo"] == pytest.approx(1020.482, abs=1e-3)


def test_three_players_one_winner() -> None:
    # Each pair weighs 32 / 2 = 16: Ada beats both (+8 +8); Bo and Cy lose to her (-8) and
    # draw with each other at equal ratings (0).
    after = rate_game({}, table(("ada", True), ("bo", False), ("cy", False)))
    assert after == {"ada": 1016.0, "bo": 992.0, "cy": 992.0}


def test_a_shared_win_is_a_draw_between_the_winners() -> None:
    after = rate_game({}, table(("ada", True), ("bo", True), ("cy", False)))
    assert after == {"ada": 1008.0, "bo": 1008.0, "cy": 984.0}


def test_four_players_move_a_rating_by_at_most_k() -> None:
    after = rate_game({}, table(("a", True), ("b", False), ("c", False), ("d", False)))
    # 32 / 3 per pair: the winner takes 3 * 16/3 = 16, each loser gives 16/3.
    assert after["a"] == pytest.approx(1016.0)
    assert after["b"] == pytest.approx(1000 - 16 / 3)
    assert sum(after.values()) == pytest.approx(4 * START), "Elo neither makes nor loses points"


def test_seat_order_does_not_matter() -> None:
    ratings = {"a": 1050.0, "b": 980.0, "c": 1010.0}
    seats = table(("a", False), ("b", True), ("c", False))
    assert rate_game(ratings, seats) == pytest.approx(rate_game(ratings, seats[::-1]))


def test_games_are_replayed_in_order() -> None:
    games = [table(("ada", True), ("bo", False)), table(("ada", False), ("bo", True))]
    ratings = rate_games(games)
    # Second game: Bo at 984 against Ada at 1016 expects 1 / (1 + 10^(32/400)) = 0.454078,
    # so he gains 32 * 0.545922 = 17.4695.
    assert ratings["bo"].value == pytest.approx(1001.4695, abs=1e-4)
    assert ratings["ada"].value == pytest.approx(998.5305, abs=1e-4)
    assert ratings["ada"].games == ratings["bo"].games == 2
    reversed_order = rate_games(games[::-1])
    assert reversed_order["ada"].value == pytest.approx(1001.4695, abs=1e-4), "order matters"


def test_games_with_one_person_change_no_rating() -> None:
    """A game against AI seats only: nobody to compare with, so no rating at all."""
    assert rate_games([table(("ada", True)), table(("ada", True))]) == {}
    ratings = rate_games([table(("ada", True)), table(("ada", False), ("bo", False))])
    assert ratings == {"ada": Rating(1000.0, 1), "bo": Rating(1000.0, 1)}
    assert ratings["ada"].shown == 1000


def test_shown_ratings_are_rounded() -> None:
    assert Rating(1011.518, 1).shown == 1012
    assert Rating(988.482, 1).shown == 988
