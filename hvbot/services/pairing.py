"""Who plays whom in a tournament round: Swiss (tables of 2, or of 3-4) and round robin.

Pure and deterministic: the same standing, points and history always give the same round, so
a round paired twice (a retry after a database outage, two processes racing) is the same
round, and a test can spell out what it expects. Players are plain ints (entrant numbers or
user ids: the caller decides); nothing here reads a clock, a database or a random source.

Swiss, tables of two: a maximum-weight matching (networkx's `max_weight_matching`, Edmonds'
blossom algorithm, with `maxcardinality=True` so everyone paired plays). Each possible pair's
weight is a constant less three penalties, each of which outweighs every combination of the
ones after it:
1. the times the two have met already: a repeat meeting is taken only when no matching avoids
   it (a long Swiss of few players);
2. the square of their points' difference: players of equal points meet, and when a points
   group is odd the one who floats meets the nearest group;
3. the square of the distance between their places in the standing: the tie-break, so among
   equally good matchings the one that pairs neighbours of the standing (1-2, 3-4) wins, as
   Board Game Arena groups its leaders. It also makes the best matching all but unique, and
   the graph is built in standing order, so the blossom algorithm returns the same matching
   for the same input.
Round 1 is the fold instead (the top half of the seeds against the bottom half, 1 against
n/2+1), as chess Swiss pairs it: the strongest do not meet before the results say they should.

Swiss, tables of 3-4: `table_sizes` says how many tables of which size (as many of the largest
as possible, fewest byes first); they are filled in standing order, leaders together, largest
tables first; then a bounded local search swaps two players of neighbouring tables while the
swap lowers the number of repeat meetings (the swap that lowers it most, then the one that
mixes points least, then the one of players nearest in the standing, so the leaders stay at
the first table, then the first in standing order). Each swap lowers a count that cannot go
below zero, so it ends; it is also capped.

Byes (players left over): the lowest-ranked player who has had none (if everyone had one, the
fewest, then the lowest-ranked), as chess Swiss gives the bye to the bottom of the standing.

The first seat (who moves first): the player who has had it fewer times, ties by standing.

Round robin: the circle method (one place fixed, the others turn around it) in the order of
Berger's tables, n-1 rounds for n even, n rounds for n odd with one bye each; each pair meets
exactly once, and nobody has the first seat more than once more than anybody else.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class Round:
    """One round's tables (each in seat order: the first seat moves first), best table first,
    and the players who sit it out with a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def table_sizes(count: int, smallest: int, largest: int) -> tuple[int, ...]:
    """The sizes of a round's tables for `count` players, largest first.

    Fewest byes first (a player sitting out scores without playing, so every bye is a cost),
    then as many tables of `largest` as possible, then the larger of what is left: 13 players
    at tables of 3-4 are 4+3+3+3 (no bye), 12 are 4+4+4, 5 at tables of 4 are one table and a
    bye. `count - sum(sizes)` players get byes.
    """
    if smallest < 2 or largest < smallest:
        raise ValueError(f"tables of {smallest}-{largest} players cannot be")
    for seated in range(max(count, 0), -1, -1):
        sizes = _partition(seated, smallest, largest)
        if sizes is not None:
            return sizes
    return ()


@functools.cache
def _partition(total: int, smallest: int, top: int) -> tuple[int, ...] | None:
    """The largest (compared as a tuple) way to write `total` as sizes from `smallest` to
    `top`, largest first, or None when there is none: the one with most sizes of `top`."""
    if total == 0:
        return ()
    for size in range(min(top, total), smallest - 1, -1):
        rest = _partition(total - size, smallest, size)
        if rest is not None:
            return (size, *rest)
    return None


def swiss_round(
    order: Sequence[int],
    points: Mapping[int, int],
    met: Mapping[frozenset[int], int],
    byes_had: Mapping[int, int],
    first_seats: Mapping[int, int],
    *,
    smallest: int,
    largest: int,
    round_number: int,
) -> Round:
    """Pair one Swiss round (see the module's docstring for how and why).

    `order` is the current standing, best first (round 1: the seeds, by rating); `points` are
    in sixths of a point; `met[{a, b}]` the times a and b sat at one table; `byes_had` and
    `first_seats` count past byes and first seats. Players missing from a mapping have 0.
    """
    players = list(order)
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standing")
    sizes = table_sizes(len(players), smallest, largest)
    rank = {player: index for index, player in enumerate(players)}
    byes = _byes(players, byes_had, len(players) - sum(sizes))
    seated = [player for player in players if player not in byes]
    if largest == 2:
        if round_number <= 1:
            half = len(seated) // 2
            groups = [[seated[i], seated[i + half]] for i in range(half)]
        else:
            groups = _matched(seated, points, met)
        # The table of the best-ranked pair first.
        groups.sort(key=lambda group: min(rank[player] for player in group))
    else:
        # The tables as filled: the leaders' first, the largest first.
        groups = _grouped(seated, sizes, points, met)
    tables = [
        tuple(sorted(group, key=lambda player: (first_seats.get(player, 0), rank[player])))
        for group in groups
    ]
    return Round(tables=tuple(tables), byes=tuple(sorted(byes, key=rank.__getitem__)))


def _byes(players: list[int], byes_had: Mapping[int, int], count: int) -> set[int]:
    """The `count` players who sit the round out: fewest byes had, then lowest-ranked."""
    ranked = sorted(
        range(len(players)), key=lambda index: (byes_had.get(players[index], 0), -index)
    )
    return {players[index] for index in ranked[:count]}


def _matched(
    players: list[int], points: Mapping[int, int], met: Mapping[frozenset[int], int]
) -> list[list[int]]:
    """Tables of two by a maximum-weight perfect matching of `players` (an even number)."""
    # networkx takes a seventh of a second to import, a fifth of the bot's own imports: every
    # bot process and test process paid it at start, for the few that pair a Swiss round.
    import networkx as nx

    count = len(players)
    if count == 0:
        return []
    scores = [points.get(player, 0) for player in players]
    spread = max(scores) - min(scores)
    meetings = max((met.get(frozenset(pair), 0) for pair in combinations(players, 2)), default=0)
    # Each penalty's unit outweighs the most all the later ones can add up to in a matching.
    per_score = count**3 + 1
    per_meeting = (count // 2) * spread**2 * per_score + count**3 + 1
    base = meetings * per_meeting + spread**2 * per_score + count**2 + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    for i, j in combinations(range(count), 2):
        penalty = (
            met.get(frozenset((players[i], players[j])), 0) * per_meeting
            + (scores[i] - scores[j]) ** 2 * per_score
            + (j - i) ** 2
        )
        graph.add_edge(i, j, weight=base - penalty)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != count:
        raise AssertionError("a complete graph of an even number of players has a perfect matching")
    return [[players[min(pair)], players[max(pair)]] for pair in sorted(map(sorted, matching))]


def _grouped(
    players: list[int],
    sizes: tuple[int, ...],
    points: Mapping[int, int],
    met: Mapping[frozenset[int], int],
) -> list[list[int]]:
    """Tables of `sizes` filled in standing order, then swaps between neighbouring tables that
    lower repeat meetings."""
    rank = {player: index for index, player in enumerate(players)}
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size

    def repeats(table: list[int]) -> int:
        return sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))

    def mixing(table: list[int]) -> int:
        return sum((points.get(a, 0) - points.get(b, 0)) ** 2 for a, b in combinations(table, 2))

    for _ in range(len(players) ** 2):
        best: tuple[int, int, int, int, int, int] | None = None
        for t in range(len(tables) - 1):
            upper, lower = tables[t], tables[t + 1]
            before_repeats = repeats(upper) + repeats(lower)
            before_mixing = mixing(upper) + mixing(lower)
            for i, j in ((i, j) for i in range(len(upper)) for j in range(len(lower))):
                new_upper = [*upper[:i], lower[j], *upper[i + 1 :]]
                new_lower = [*lower[:j], upper[i], *lower[j + 1 :]]
                fewer = repeats(new_upper) + repeats(new_lower) - before_repeats
                if fewer >= 0:
                    continue
                mixed = mixing(new_upper) + mixing(new_lower) - before_mixing
                moved = rank[lower[j]] - rank[upper[i]]
                candidate = (fewer, mixed, moved, t, i, j)
                if best is None or candidate < best:
                    best = candidate
        if best is None:
            break
        *_, t, i, j = best
        tables[t][i], tables[t + 1][j] = tables[t + 1][j], tables[t][i]
    return tables


def round_robin(players: Sequence[int]) -> list[Round]:
    """Every round of a round robin of `players` (seed order) at tables of two.

    The circle method as Berger's tables lay it out: one place is fixed and the others turn
    around it by half the circle each round, which (unlike turning by one) alternates who
    sits first: nobody has the first seat more than once more than anyone else, nor three
    times running. With an odd number the fixed place is the empty seat, so its partner of
    the round has the bye.
    """
    seats: list[int | None] = list(players)
    if len(set(seats)) != len(seats):
        raise ValueError("a player appears twice among the entrants")
    if len(seats) < 2:
        return []
    if len(seats) % 2:
        seats.insert(0, None)
    count = len(seats)
    fixed, circle = seats[0], seats[1:]
    rounds: list[Round] = []
    for number in range(count - 1):
        turn = number * (count // 2) % len(circle)
        around = [fixed, *circle[turn:], *circle[:turn]]
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for i in range(count // 2):
            a, b = around[i], around[count - 1 - i]
            if a is None or b is None:
                byes.extend(player for player in (a, b) if player is not None)
            elif i == 0 and number % 2:
                tables.append((b, a))  # the fixed player sits first every other round
            else:
                tables.append((a, b))
        rounds.append(Round(tables=tuple(tables), byes=tuple(byes)))
    return rounds
