"""Tournament standings: points by place in sixths, byes, abandoned games, the tie-breaks of
each format and shared places, on small tournaments worked out by hand."""

from __future__ import annotations

import pytest

from hvbot.services.standings import (
    Bye,
    Standing,
    TableResult,
    place_points,
    shown_points,
    shown_tiebreaks,
    standings,
    tiebreak_names,
)


def duel(round_: int, first: int, second: int, result: str) -> TableResult:
    """A game of two: "1-0" the first won, "0-1" the second, "=" a draw."""
    places = {"1-0": (1, 2), "0-1": (2, 1), "=": (1, 1)}[result]
    return TableResult(round_, (first, second), places)


def by_player(lines: list[Standing]) -> dict[int, Standing]:
    return {line.player: line for line in lines}


def test_a_place_scores_its_share_of_a_point_in_sixths() -> None:
    # Tables of two: win, draw, loss.
    assert [place_points(2, 1), place_points(2, 1, 2), place_points(2, 2)] == [6, 3, 0]
    # Tables of three: 1, ½, 0; of four: 1, ⅔, ⅓, 0.
    assert [place_points(3, place) for place in (1, 2, 3)] == [6, 3, 0]
    assert [place_points(4, place) for place in (1, 2, 3, 4)] == [6, 4, 2, 0]
    # Shared places average the places they cover: two first of four (1 and ⅔) score ⅚,
    # three first of four (1, ⅔, ⅓) ⅔ each, two third of four (⅓ and 0) ⅙, all four ½.
    assert place_points(4, 1, 2) == 5
    assert place_points(4, 1, 3) == 4
    assert place_points(4, 3, 2) == 1
    assert place_points(4, 1, 4) == 3
    # Two sharing a place at a table of three: the exact share (¾ for first, ¼ for second)
    # is rounded half up to whole sixths.
    assert place_points(3, 1, 2) == 5
    assert place_points(3, 2, 2) == 2
    with pytest.raises(ValueError):
        place_points(3, 4)


def test_swiss_of_two_ranks_by_points_then_buchholz_then_wins() -> None:
    tables = [
        duel(1, 1, 3, "1-0"),
        duel(1, 2, 4, "="),
        duel(2, 1, 2, "1-0"),
        duel(2, 3, 4, "1-0"),
    ]
    lines = standings([1, 2, 3, 4], tables, [], by_tables=False)
    # Points: 1 won twice (2), 3 once (1), 2 and 4 drew once (½ each). Buchholz of 2: its
    # opponents 4 (½) and 1 (2) = 2½; of 4: 2 (½) and 3 (1) = 1½; so 2 is third.
    assert [(line.player, line.points, line.tiebreaks) for line in lines] == [
        (1, 12, (9, 2)),
        (3, 6, (15, 1)),
        (2, 3, (15, 0)),
        (4, 3, (9, 0)),
    ]
    assert [line.place for line in lines] == [1, 2, 3, 4]
    assert all(line.games == 2 and line.byes == 0 for line in lines)
    assert by_player(lines)[1].wins == 2
    # A draw is no win.
    assert by_player(lines)[2].wins == 0


def test_games_won_break_a_tie_of_points_and_buchholz() -> None:
    # 1 beats 2 and loses to 3; 4 draws with 3 and 2: both end with 1 point and a Buchholz
    # of 2 (2's ½ and 3's 1½); 1 won a game, 4 none, so 1 is ahead although 4 is seeded first.
    tables = [
        duel(1, 1, 2, "1-0"),
        duel(1, 3, 4, "="),
        duel(2, 3, 1, "1-0"),
        duel(2, 4, 2, "="),
    ]
    lines = by_player(standings([4, 3, 2, 1], tables, [], by_tables=False))
    assert (lines[1].points, lines[4].points) == (6, 6)
    assert lines[1].tiebreaks == (3 + 9, 1)
    assert lines[4].tiebreaks == (9 + 3, 0)
    assert lines[1].place < lines[4].place


def test_a_bye_scores_a_point_and_counts_in_no_tiebreak() -> None:
    tables = [duel(1, 1, 2, "1-0"), duel(2, 3, 1, "1-0")]
    byes = [Bye(1, 3), Bye(2, 2)]
    lines = standings([1, 2, 3], tables, byes, by_tables=False)
    # 3: bye + a win = 2 points, Buchholz 1 (its one opponent, 1); 1: 1 point, Buchholz of
    # 2 (1 point, all from its bye) and 3 (2 points) = 3; 2: 1 point (its bye), Buchholz 1.
    assert [(line.player, line.points, line.tiebreaks) for line in lines] == [
        (3, 12, (6, 1)),
        (1, 6, (18, 1)),
        (2, 6, (6, 0)),
    ]
    assert [(line.games, line.byes) for line in lines] == [(1, 1), (2, 0), (1, 1)]


def test_players_equal_on_everything_share_a_place_in_seed_order() -> None:
    tables = [duel(1, 1, 2, "="), duel(1, 3, 4, "1-0"), duel(1, 5, 6, "=")]
    lines = standings([5, 6, 3, 4, 1, 2], tables, [], by_tables=False)
    # 1, 2, 5 and 6 drew: ½ point each; 5-6 and 1-2 have the same Buchholz (½) and no win.
    assert [(line.player, line.place) for line in lines] == [
        (3, 1),
        (5, 2),
        (6, 2),
        (1, 2),
        (2, 2),
        (4, 6),
    ]


def test_an_abandoned_game_scores_nothing_and_is_not_a_game_played() -> None:
    tables = [TableResult(1, (1, 2), None), duel(1, 3, 4, "0-1"), duel(2, 1, 4, "0-1")]
    lines = by_player(standings([1, 2, 3, 4], tables, [], by_tables=False))
    assert (lines[1].points, lines[1].games, lines[1].tiebreaks) == (0, 1, (12, 0))
    assert (lines[2].points, lines[2].games, lines[2].tiebreaks) == (0, 0, (0, 0))
    assert lines[4].tiebreaks == (0, 2)


def test_withdrawn_players_stay_with_what_they_scored_marked() -> None:
    tables = [duel(1, 1, 2, "1-0"), duel(1, 3, 4, "1-0"), duel(2, 1, 3, "1-0")]
    byes = [Bye(2, 4)]
    lines = standings([1, 2, 3, 4], tables, byes, withdrawn=[2], by_tables=False)
    assert [line.player for line in lines] == [1, 3, 4, 2]
    assert [line.withdrawn for line in lines] == [False, False, False, True]
    assert by_player(lines)[2].games == 1


def test_round_robin_ranks_by_sonneborn_berger_then_wins() -> None:
    tables = [
        duel(1, 1, 2, "1-0"),
        duel(1, 3, 4, "1-0"),
        duel(2, 1, 3, "="),
        duel(2, 2, 4, "1-0"),
        duel(3, 4, 1, "1-0"),
        duel(3, 2, 3, "1-0"),
    ]
    # Points: 2 has 2, 1 and 3 have 1½, 4 has 1. Sonneborn-Berger (in 36ths): 1 beat 2 (1 x
    # 2) and drew 3 (½ x 1½) = 2¾; 3 drew 1 (½ x 1½) and beat 4 (1 x 1) = 1¾. Their Buchholz
    # are equal (4½ each) and each won once, so seeded first, 3 would be ahead without it.
    lines = standings([3, 1, 2, 4], tables, [], by_tables=False, round_robin=True)
    assert [(line.player, line.points, line.tiebreaks) for line in lines] == [
        (2, 12, (6 * 9 + 6 * 6, 2)),
        (1, 9, (6 * 12 + 3 * 9, 1)),
        (3, 9, (3 * 9 + 6 * 6, 1)),
        (4, 6, (6 * 9, 1)),
    ]
    assert shown_tiebreaks(lines[1].tiebreaks, by_tables=False, round_robin=True) == ("2¾", "1")
    assert shown_tiebreaks(lines[2].tiebreaks, by_tables=False, round_robin=True) == ("1¾", "1")


def test_round_robin_a_withdrawn_players_games_are_byes_for_the_others() -> None:
    # 3 withdrew after round 1: its opponents of rounds 2 and 3 score a bye.
    tables = [duel(1, 1, 2, "="), duel(1, 3, 4, "1-0"), duel(2, 1, 4, "1-0"), duel(3, 2, 4, "=")]
    byes = [Bye(2, 2), Bye(3, 1)]
    lines = by_player(
        standings([1, 2, 3, 4], tables, byes, withdrawn=[3], by_tables=False, round_robin=True)
    )
    assert [lines[p].points for p in (1, 2, 3, 4)] == [15, 12, 6, 3]
    assert lines[3].withdrawn and not lines[1].withdrawn
    # 1's Sonneborn-Berger: ½ x 2 (drew 2) + 1 x ½ (beat 4); its bye counts for nothing.
    assert lines[1].tiebreaks == (3 * 12 + 6 * 3, 1)


def test_tables_rank_by_opponents_points_then_sum_of_places() -> None:
    tables = [
        TableResult(1, (2, 5, 4, 7), (3, 2, 4, 1)),
        TableResult(1, (6, 1, 3), (1, 3, 2)),
        TableResult(2, (3, 4, 6, 1), (3, 1, 2, 4)),
        TableResult(2, (5, 2, 7), (1, 2, 3)),
    ]
    lines = standings([1, 2, 3, 4, 5, 6, 7], tables, [], by_tables=True)
    # Points (sixths): 5 = 4 + 6, 6 = 6 + 4, 4 = 0 + 6, 7 = 6 + 0, 2 = 2 + 3, 3 = 3 + 2, 1 = 0.
    # 5 and 6: opponents' points 28 (2, 4, 7 then 2, 7) against 16 (1, 3 then 3, 4, 1).
    # 7 and 4: both met 36 sixths of opponents; 7's places add to 1 + 3, 4's to 4 + 1.
    # 2 and 3: 38 against 26.
    assert [(line.player, line.points, line.tiebreaks) for line in lines] == [
        (5, 10, (28, -3)),
        (6, 10, (16, -3)),
        (7, 6, (36, -4)),
        (4, 6, (36, -5)),
        (2, 5, (38, -5)),
        (3, 5, (26, -5)),
        (1, 0, (36, -7)),
    ]
    assert shown_tiebreaks(lines[2].tiebreaks, by_tables=True) == ("6", "4")


def test_shared_places_at_tables_score_their_average() -> None:
    tables = [TableResult(1, (1, 2, 3, 4), (1, 1, 3, 3)), TableResult(1, (5, 6, 7), (1, 2, 2))]
    lines = by_player(standings([1, 2, 3, 4, 5, 6, 7], tables, [], by_tables=True))
    assert [lines[p].points for p in (1, 2, 3, 4, 5, 6, 7)] == [5, 5, 1, 1, 6, 2, 2]
    # A shared first place is not a win.
    assert (lines[1].wins, lines[5].wins) == (0, 1)


def test_a_result_of_someone_not_entered_is_refused() -> None:
    with pytest.raises(ValueError):
        standings([1, 2], [duel(1, 1, 9, "1-0")], [], by_tables=False)
    with pytest.raises(ValueError):
        standings([1, 2], [], [Bye(1, 9)], by_tables=False)


def test_points_are_shown_with_their_fractions() -> None:
    assert [shown_points(s) for s in (15, 8, 0, 4, 1, 5, 12, 3, 7)] == [
        "2½",
        "1⅓",
        "0",
        "⅔",
        "⅙",
        "⅚",
        "2",
        "½",
        "1⅙",
    ]


def test_tiebreaks_are_named_for_their_headings() -> None:
    assert tiebreak_names(by_tables=False) == ("buchholz", "wins")
    assert tiebreak_names(by_tables=True) == ("opponents_points", "places")
    assert tiebreak_names(by_tables=False, round_robin=True) == ("sonneborn_berger", "wins")
    assert shown_tiebreaks((15, 2), by_tables=False) == ("2½", "2")
