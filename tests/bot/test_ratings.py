"""Ratings v2: each game's finishing order read from its results, rated by openskill's
Weng-Lin Plackett-Luce model; AI levels are players of their own."""

from __future__ import annotations

import random

import pytest

from hvbot.services.ratings import (
    LEVEL_STEP,
    MODEL,
    ORIGIN,
    AiLevel,
    Placing,
    Rating,
    Ratings,
    prior,
    ranks,
    rate_games,
)

LEVELS = ["random", "easy", "normal", "hard"]


def test_places_are_winners_first_then_score_and_ties_share_a_place() -> None:
    table = [
        Placing("ada", won=False, score=7),
        Placing("bo", won=True, score=12),
        Placing("cy", won=True, score=12),
        Placing("di", won=False, score=7),
    ]
    assert ranks(table) == [3, 1, 1, 3]
    by_score = [Placing("a", False, 3), Placing("b", True, 9), Placing("c", False, 5)]
    assert ranks(by_score) == [3, 1, 2]
    # Winners share first place whatever their scores (a win broken by a tie-break that is
    # not stored, or a draw).
    assert ranks([Placing("a", True, 3), Placing("b", True, 9)]) == [1, 1]


def test_a_seat_that_left_early_ranks_last_whatever_it_scored() -> None:
    table = [
        Placing("resigner", won=False, score=40, left_early=True),
        Placing("bo", won=True, score=12),
        Placing("cy", won=False, score=3),
    ]
    assert ranks(table) == [3, 1, 2]
    after = rate_games([table])
    assert after["resigner"].mu < after["cy"].mu < after["bo"].mu


def test_a_forfeit_is_a_win_for_everyone_else_shared() -> None:
    table = [Placing("a", True), Placing("b", False, left_early=True), Placing("c", True)]
    assert ranks(table) == [1, 3, 1]
    after = rate_games([table])
    assert after["a"].mu == pytest.approx(after["c"].mu)
    assert after["b"].mu < MODEL.mu < after["a"].mu


def test_a_seat_rated_for_nobody_ranks_last_and_moves_no_one_but_the_others() -> None:
    """A seat a moderator removed: its AI played on for nobody."""
    with_removed = [Placing("a", True, 9), Placing("b", False, 4), Placing(None, False, 99, True)]
    without = [Placing("a", True, 9), Placing("b", False, 4)]
    assert rate_games([with_removed]) == rate_games([without])
    assert set(rate_games([with_removed])) == {"a", "b"}


def test_a_game_with_one_rated_player_changes_nothing() -> None:
    assert rate_games([[Placing("a", True), Placing(None, False, left_early=True)]]) == {}
    assert rate_games([[Placing("a", True)]]) == {}


def test_seat_order_does_not_matter() -> None:
    seats = [Placing("a", False, 3), Placing("b", True, 8), Placing("c", False, 5)]
    ratings = rate_games([seats, seats])
    shuffled = rate_games([seats, seats[::-1]])
    for player in "abc":
        assert shuffled[player].mu == pytest.approx(ratings[player].mu)
        assert shuffled[player].sigma == pytest.approx(ratings[player].sigma)


def test_second_place_at_four_is_better_than_last() -> None:
    table = [Placing(p, p == "a", 10 - i) for i, p in enumerate("abcd")]
    after = rate_games([table])
    assert after["a"].mu > after["b"].mu > after["c"].mu > after["d"].mu
    assert after["b"].mu > MODEL.mu, "beating two of three is a good game"


def test_ai_levels_are_players_of_their_own() -> None:
    levels = prior(LEVELS)
    games = [
        [Placing("ada", True, 9), Placing(AiLevel("easy"), False, 2)],
        [Placing("ada", False, 4), Placing(AiLevel("hard"), True, 11)],
    ]
    after = rate_games(games, levels)
    assert set(after) == {"ada", AiLevel("easy"), AiLevel("hard")}
    assert after[AiLevel("easy")].mu < levels["easy"]
    assert after[AiLevel("hard")].mu > levels["hard"]
    assert after[AiLevel("easy")].games == after[AiLevel("hard")].games == 1


def test_the_levels_start_apart_weakest_first() -> None:
    levels = prior(LEVELS)
    assert [levels[level] for level in LEVELS] == sorted(levels.values())
    assert levels["hard"] - levels["normal"] == pytest.approx(LEVEL_STEP)
    assert sum(levels.values()) / len(levels) == pytest.approx(MODEL.mu)


def test_beating_easy_moves_a_rating_less_than_beating_hard() -> None:
    levels = prior(LEVELS)
    easy = rate_games([[Placing("ada", True, 5), Placing(AiLevel("easy"), False, 1)]], levels)
    hard = rate_games([[Placing("ada", True, 5), Placing(AiLevel("hard"), False, 1)]], levels)
    gained_easy = easy["ada"].mu - MODEL.mu
    gained_hard = hard["ada"].mu - MODEL.mu
    assert 0 < gained_easy < gained_hard
    assert hard[AiLevel("hard")].mu < levels["hard"], "the hard AI lost rating to her"


def test_two_seats_of_one_ai_level_are_one_update() -> None:
    table = [Placing("ada", True, 9), Placing(AiLevel("easy"), False, 3)]
    twice = [*table, Placing(AiLevel("easy"), False, 1)]
    ratings: Ratings[object] = Ratings(prior(LEVELS))
    assert ratings.rate(twice) == ["ada", AiLevel("easy")]
    assert ratings.ratings[AiLevel("easy")].games == 1


def test_a_newcomer_shows_the_origin_unsettled() -> None:
    newcomer = Ratings[str]().of("ada")
    assert (newcomer.shown, newcomer.settled, newcomer.text()) == (1000, False, "1000?")
    assert ORIGIN == 1000


def test_a_rating_settles_with_games_and_is_then_shown_plain() -> None:
    rng = random.Random(3)
    ratings: Ratings[str] = Ratings()
    settled_after = None
    for game in range(1, 60):
        seats = [Placing(p, False, rng.randint(0, 20)) for p in ("ada", "bo", "cy")]
        ratings.rate(seats)
        if settled_after is None and ratings.of("ada").settled:
            settled_after = game
    assert settled_after is not None and 8 <= settled_after <= 30, settled_after
    ada = ratings.of("ada")
    assert ada.text() == str(ada.shown) and ada.games == 59


def test_text_and_shown() -> None:
    assert Rating(30.0, 3.0, 20).text() == "1630"  # 1000 + 30 * (30 - 9)
    assert Rating(30.0, 7.0, 2).text() == "1270?"  # 1000 + 30 * (30 - 21)
    assert Rating(30.0, 3.0, 20).conservative == pytest.approx(21.0)


def _straightforward(
    games: list[list[Placing[str | AiLevel]]], levels: dict[str, float]
) -> dict[str | AiLevel, tuple[float, float, int]]:
    """The replay as the library's documentation shows it: `MODEL.rate` on fresh rating
    objects, game after game, two seats of one player averaged."""
    known: dict[str | AiLevel, tuple[float, float, int]] = {}
    for table in games:
        places = zip(table, ranks(table), strict=True)
        seated = [(p.player, place) for p, place in places if p.player is not None]
        if len({player for player, _ in seated}) < 2:
            continue
        before = {}
        for player, _ in seated:
            start = levels.get(player.level, MODEL.mu) if isinstance(player, AiLevel) else MODEL.mu
            before[player] = known.get(player, (start, MODEL.sigma, 0))
        teams = [[MODEL.rating(before[p][0], before[p][1])] for p, _ in seated]
        after = MODEL.rate(teams, ranks=[float(place) for _, place in seated])
        updates: dict[str | AiLevel, list[tuple[float, float]]] = {}
        for (player, _), (new,) in zip(seated, after, strict=True):
            updates.setdefault(player, []).append((new.mu, new.sigma))
        for player, new_ones in updates.items():
            mu = sum(m for m, _ in new_ones) / len(new_ones)
            sigma = sum(s for _, s in new_ones) / len(new_ones)
            known[player] = (mu, sigma, before[player][2] + 1)
    return known


def test_the_ratings_are_the_librarys_own_rate_bit_for_bit() -> None:
    """`Ratings` calls the library below `PlackettLuce.rate` to spare its copies: over a few
    hundred seeded games of two to four seats (ties, left early, AI levels, two seats of one
    level, seats rated for nobody), every rating is what `rate` itself gives."""
    rng = random.Random(47)
    people = [f"p{i}" for i in range(40)]
    games: list[list[Placing[str | AiLevel]]] = []
    for _ in range(400):
        size = rng.choice((2, 3, 4))
        table: list[Placing[str | AiLevel]] = []
        for seat_player in rng.sample(people, size):
            player: str | AiLevel | None = seat_player
            roll = rng.random()
            if roll < 0.2:
                player = AiLevel(rng.choice(LEVELS))
            elif roll < 0.23:
                player = None
            won = rng.random() < 0.3
            table.append(Placing(player, won, rng.randint(0, 4), rng.random() < 0.05))
        games.append(table)
    levels = prior(LEVELS)
    expected = _straightforward(games, levels)
    got = rate_games(games, levels)
    assert len(got) == len(expected) > 40
    assert any(isinstance(p, AiLevel) and r.games > 20 for p, r in got.items())
    for player, (mu, sigma, played) in expected.items():
        rating = got[player]
        assert rating.games == played
        assert rating.mu == pytest.approx(mu, abs=1e-9, rel=0)
        assert rating.sigma == pytest.approx(sigma, abs=1e-9, rel=0)
