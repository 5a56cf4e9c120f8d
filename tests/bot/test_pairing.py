"""Tournament pairing: table sizes, Swiss rounds at tables of two (a maximum-weight matching)
and of 3-4 (standing order, then swaps against repeat meetings), byes, first seats and round
robins; many whole tournaments with seeded random results check what must always hold."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import pytest

from hvbot.services.pairing import Round, round_robin, swiss_round, table_sizes
from hvbot.services.standings import Bye, TableResult, standings

# --- table sizes -------------------------------------------------------------------------


def test_table_sizes_of_the_tournaments_asked_for() -> None:
    assert table_sizes(12, 3, 4) == (4, 4, 4)
    assert table_sizes(13, 3, 4) == (4, 3, 3, 3)
    assert table_sizes(5, 4, 4) == (4,)
    assert table_sizes(9, 2, 2) == (2, 2, 2, 2)
    # Fewest byes before most large tables: 6 at 3-4 are two tables of three, not 4 and 2 byes.
    assert table_sizes(6, 3, 4) == (3, 3)
    assert table_sizes(7, 3, 4) == (4, 3)
    assert table_sizes(5, 3, 4) == (4,)
    assert table_sizes(2, 3, 4) == ()
    assert table_sizes(0, 2, 2) == ()
    with pytest.raises(ValueError):
        table_sizes(8, 1, 2)
    with pytest.raises(ValueError):
        table_sizes(8, 4, 3)


def partitions(total: int, smallest: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Every way to write `total` as sizes from smallest to largest, largest first."""
    if total == 0:
        yield ()
        return
    for size in range(min(largest, total), smallest - 1, -1):
        for rest in partitions(total - size, smallest, size):
            yield (size, *rest)


@pytest.mark.parametrize("smallest, largest", [(2, 2), (3, 3), (4, 4), (3, 4), (2, 4)])
def test_table_sizes_leave_fewest_byes_then_seat_most_at_the_largest_tables(
    smallest: int, largest: int
) -> None:
    for count in range(65):
        sizes = table_sizes(count, smallest, largest)
        assert list(sizes) == sorted(sizes, reverse=True)
        assert all(smallest <= size <= largest for size in sizes)
        seated = max(
            total
            for total in range(count + 1)
            if next(partitions(total, smallest, largest), None) is not None
        )
        assert sum(sizes) == seated, count
        most = max(p.count(largest) for p in partitions(seated, smallest, largest))
        assert sizes.count(largest) == most, count


# --- Swiss at tables of two --------------------------------------------------------------


def pair(
    order: Sequence[int],
    points: dict[int, int] | None = None,
    met: dict[frozenset[int], int] | None = None,
    byes_had: dict[int, int] | None = None,
    first_seats: dict[int, int] | None = None,
    *,
    round_number: int = 2,
    smallest: int = 2,
    largest: int = 2,
) -> Round:
    return swiss_round(
        order,
        points or {},
        met or {},
        byes_had or {},
        first_seats or {},
        smallest=smallest,
        largest=largest,
        round_number=round_number,
    )


def test_round_one_is_the_fold_of_the_seeds() -> None:
    assert pair(range(8), round_number=1) == Round(tables=((0, 4), (1, 5), (2, 6), (3, 7)), byes=())
    # With an odd number the last seed sits out and the others fold.
    assert pair(range(9), round_number=1) == Round(
        tables=((0, 4), (1, 5), (2, 6), (3, 7)), byes=(8,)
    )


def test_players_of_equal_points_meet_neighbours_of_the_standing_first() -> None:
    # Everyone drew the fold of round 1: all equal, and nobody meets their first opponent.
    met = {frozenset((i, i + 4)): 1 for i in range(4)}
    points = dict.fromkeys(range(8), 3)
    assert pair(range(8), points, met).tables == ((0, 1), (2, 3), (4, 5), (6, 7))


def test_winners_meet_winners_and_nobody_meets_twice() -> None:
    # Round 1 (fold): 0, 1, 2, 3 won; the standing puts 0 and 1 first, but 0-1 met already
    # in an earlier round, so 0 meets the next winner not met: 2.
    met = {frozenset((i, i + 4)): 1 for i in range(4)} | {frozenset((0, 1)): 1}
    points = {0: 12, 1: 12, 2: 12, 3: 12, 4: 6, 5: 6, 6: 6, 7: 6}
    tables = pair(range(8), points, met).tables
    assert tables == ((0, 2), (1, 3), (4, 5), (6, 7))


def test_a_repeat_is_avoided_before_a_difference_of_points() -> None:
    # 0 and 1 lead and met; the only way to avoid that is pairing 0 and 1 with the others.
    points = {0: 6, 1: 6, 2: 0, 3: 0}
    tables = pair(range(4), points, {frozenset((0, 1)): 1}).tables
    assert {frozenset(t) for t in tables} == {frozenset((0, 2)), frozenset((1, 3))}


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    assert pair(range(9), byes_had={8: 1}).byes == (7,)
    assert pair(range(9), byes_had={8: 1, 7: 1, 6: 1}).byes == (5,)
    # Everyone has had one: the fewest, then the lowest-ranked.
    assert pair(range(5), byes_had={0: 1, 1: 1, 2: 2, 3: 1, 4: 2}).byes == (3,)


def test_who_sat_first_fewer_times_sits_first_then_the_better_ranked() -> None:
    tables = pair(range(4), {}, {}, {}, {0: 1, 1: 0, 2: 1, 3: 1}).tables
    assert tables == ((1, 0), (2, 3))
    assert pair(range(2), first_seats={0: 2, 1: 1}).tables == ((1, 0),)


def test_the_same_history_pairs_the_same_round() -> None:
    rng = random.Random(7)
    order = list(range(12))
    points = {p: rng.choice([0, 3, 6, 9, 12]) for p in order}
    met = {frozenset(p): 1 for p in rng.sample(list(combinations(order, 2)), 12)}
    first = pair(order, points, met)
    # Mappings built in another order give the same round.
    shuffled = list(met.items())
    rng.shuffle(shuffled)
    again = pair(order, dict(reversed(list(points.items()))), dict(shuffled))
    assert again == first


@dataclass
class History:
    """A Swiss played out: what the pairing reads, kept as a tournament keeps it."""

    entrants: list[int]
    tables: list[TableResult] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    met: Counter[frozenset[int]] = field(default_factory=Counter)
    firsts: Counter[int] = field(default_factory=Counter)

    def next_round(self, number: int, smallest: int, largest: int) -> tuple[Round, list[int]]:
        lines = standings(self.entrants, self.tables, self.byes, by_tables=largest > 2)
        order = [line.player for line in lines] if number > 1 else list(self.entrants)
        points = {line.player: line.points for line in lines}
        had = Counter(bye.player for bye in self.byes)
        paired = swiss_round(
            order,
            points,
            dict(self.met),
            dict(had),
            dict(self.firsts),
            smallest=smallest,
            largest=largest,
            round_number=number,
        )
        return paired, order

    def play(self, number: int, paired: Round, rng: random.Random) -> None:
        for table in paired.tables:
            places = tuple(rng.randint(1, len(table)) for _ in table)
            # Standard competition ranking of random finishing scores (ties allowed).
            places = tuple(1 + sum(other < mine for other in places) for mine in places)
            self.tables.append(TableResult(number, table, places))
            self.firsts[table[0]] += 1
            for a, b in combinations(table, 2):
                self.met[frozenset((a, b))] += 1
        self.byes.extend(Bye(number, player) for player in paired.byes)


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def test_nine_player_swiss_never_repeats_a_pairing_and_respects_points_groups() -> None:
    rng = random.Random(49)
    for _ in range(150):
        history = History(entrants=list(range(1, 10)))
        for number in (1, 2, 3):
            paired, _ = history.next_round(number, 2, 2)
            seated = [p for table in paired.tables for p in table]
            assert sorted(seated + list(paired.byes)) == history.entrants
            assert len(paired.byes) == 1
            assert all(len(table) == 2 for table in paired.tables)
            assert all(history.met[frozenset(table)] == 0 for table in paired.tables)
            if number > 1:
                # Points groups kept where possible: among every pairing of these eight
                # without a repeat, none leaves points further apart.
                points = {
                    s.player: s.points
                    for s in standings(
                        history.entrants, history.tables, history.byes, by_tables=False
                    )
                }

                def spread(tables: Sequence[Sequence[int]], points: dict[int, int]) -> int:
                    return sum((points[a] - points[b]) ** 2 for a, b in tables)

                best = min(
                    spread(m, points)
                    for m in matchings(sorted(seated))
                    if all(history.met[frozenset(t)] == 0 for t in m)
                )
                assert spread(paired.tables, points) == best
            history.play(number, paired, rng)
        assert max(Counter(bye.player for bye in history.byes).values()) == 1


@pytest.mark.parametrize("count", range(4, 17))
def test_a_swiss_of_at_most_half_as_many_rounds_as_players_never_repeats(count: int) -> None:
    # With at most (seated players)/2 rounds, a pairing without a repeat always exists (each
    # player has met fewer than half the others: Dirac's theorem), and the matching finds it.
    rng = random.Random(count)
    seated = count - count % 2
    for _ in range(20):
        history = History(entrants=list(range(100, 100 + count)))
        for number in range(1, seated // 2 + 1):
            paired, _ = history.next_round(number, 2, 2)
            assert all(history.met[frozenset(table)] == 0 for table in paired.tables)
            assert not set(paired.byes) & {b.player for b in history.byes}
            history.play(number, paired, rng)


# --- Swiss at tables of 3-4 --------------------------------------------------------------


def repeats(paired: Round, met: Counter[frozenset[int]]) -> int:
    return sum(met[frozenset(p)] for table in paired.tables for p in combinations(table, 2))


def test_twelve_players_at_tables_of_three_or_four_sit_three_tables_of_four() -> None:
    paired = pair(range(12), round_number=1, smallest=3, largest=4)
    assert paired == Round(tables=((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)), byes=())


def test_thirteen_players_at_tables_of_three_or_four_sit_one_of_four_and_three_of_three() -> None:
    paired = pair(range(13), round_number=1, smallest=3, largest=4)
    assert [len(table) for table in paired.tables] == [4, 3, 3, 3]
    assert paired.byes == ()
    assert paired.tables[0] == (0, 1, 2, 3)


def test_five_players_at_tables_of_four_sit_one_table_and_the_last_a_bye() -> None:
    paired = pair(range(5), round_number=1, smallest=4, largest=4)
    assert paired == Round(tables=((0, 1, 2, 3),), byes=(4,))
    assert pair(range(5), byes_had={4: 1}, smallest=4, largest=4).byes == (3,)


def test_swaps_between_neighbouring_tables_lower_repeat_meetings() -> None:
    # Round 1 sat 0-3 and 4-7; filled again in standing order, both tables would repeat all
    # six meetings. Swapping two players of each table leaves two repeats a table, the least.
    met: Counter[frozenset[int]] = Counter()
    for table in ((0, 1, 2, 3), (4, 5, 6, 7)):
        met.update(frozenset(p) for p in combinations(table, 2))
    paired = pair(range(8), {}, dict(met), smallest=4, largest=4)
    assert repeats(paired, met) == 4
    # The swaps move players nearest in the standing: 3 for 4, then 2 for 5, so the
    # leaders stay at the first table.
    assert paired == Round(tables=((0, 1, 4, 5), (2, 3, 6, 7)), byes=())


def test_seats_at_a_table_go_to_who_sat_first_fewer_times() -> None:
    paired = pair(range(4), first_seats={0: 2, 1: 1, 2: 1, 3: 0}, smallest=4, largest=4)
    assert paired.tables == ((3, 1, 2, 0),)


@pytest.mark.parametrize(
    "count, smallest, largest", [(12, 3, 4), (13, 3, 4), (10, 3, 4), (9, 3, 3), (11, 4, 4)]
)
def test_swiss_at_tables_seats_everyone_once_and_never_adds_repeats(
    count: int, smallest: int, largest: int
) -> None:
    rng = random.Random(count * 10 + largest)
    sizes = table_sizes(count, smallest, largest)
    for _ in range(40):
        history = History(entrants=list(range(1, count + 1)))
        for number in (1, 2, 3):
            paired, order = history.next_round(number, smallest, largest)
            assert [len(table) for table in paired.tables] == list(sizes)
            seated = [p for table in paired.tables for p in table]
            assert sorted(seated + list(paired.byes)) == history.entrants
            # The byes went to the lowest-ranked of those with fewest byes.
            had = Counter(bye.player for bye in history.byes)
            for player in paired.byes:
                for other in seated:
                    assert (had[other], -order.index(other)) >= (had[player], -order.index(player))
            # The swaps never add a repeat to the plain fill in standing order.
            plain: list[tuple[int, ...]] = []
            rest = [p for p in order if p not in paired.byes]
            for size in sizes:
                plain.append(tuple(rest[:size]))
                rest = rest[size:]
            assert repeats(paired, history.met) <= repeats(Round(tuple(plain), ()), history.met)
            history.play(number, paired, rng)


def test_tables_keep_leaders_together_when_nobody_has_met() -> None:
    points = {0: 12, 1: 12, 2: 6, 3: 6, 4: 6, 5: 0, 6: 0, 7: 0}
    paired = pair(range(8), points, smallest=4, largest=4)
    assert paired.tables == ((0, 1, 2, 3), (4, 5, 6, 7))


# --- round robin -------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 9))
def test_round_robin_meets_every_pair_exactly_once(count: int) -> None:
    players = [11 * (i + 1) for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    meetings = Counter(frozenset(table) for r in rounds for table in r.tables)
    assert set(meetings) == {frozenset(p) for p in combinations(players, 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:
        assert all(len(table) == 2 for table in r.tables)
        everyone = [p for table in r.tables for p in table] + list(r.byes)
        assert sorted(everyone) == players
        assert len(r.byes) == count % 2
    # With an odd number, each player sits out exactly one round.
    assert Counter(p for r in rounds for p in r.byes) == (
        Counter(players) if count % 2 else Counter()
    )


@pytest.mark.parametrize("count", range(3, 9))
def test_round_robin_balances_the_first_seat(count: int) -> None:
    players = list(range(count))
    rounds = round_robin(players)
    seats = {p: "" for p in players}
    for r in rounds:
        for first, second in r.tables:
            seats[first] += "F"
            seats[second] += "S"
    for player, sequence in seats.items():
        # Half the games first (one more or less when the number of games is odd)...
        assert abs(sequence.count("F") - sequence.count("S")) <= 1, (player, sequence)
        # ...and never three times running in the same seat.
        assert "FFF" not in sequence and "SSS" not in sequence, (player, sequence)


def test_round_robin_of_too_few_or_twice_the_same_player() -> None:
    assert round_robin([1]) == []
    with pytest.raises(ValueError):
        round_robin([1, 2, 1])
    with pytest.raises(ValueError):
        pair([1, 2, 1])
