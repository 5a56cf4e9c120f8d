"""A tournament's standings, computed afresh from its tables' results and its byes.

Pure: nothing is stored but the results, so the standings after any round (and the podium at
the end) are the same whoever computes them and whenever, and a fixed result fixes them.

Points are counted in sixths of a point, the unit in which every place at a table of 2, 3 or
4 is a whole number:
- place p at a table of n players scores (n-p)/(n-1) point: a win 1, a loss 0, a draw ½; at
  a table of three 1, ½, 0; at a table of four 1, ⅔, ⅓, 0, as Board Game Arena scores places
  at multiplayer tables (every table is worth the same to its winner, whatever its size);
- players who share a place share the places they cover: two first of four score the average
  of 1 and ⅔ (⅚ each); this is a whole number of sixths except for two players sharing a
  place at a table of three (first: ¾, second: ¼), which is rounded half up to whole sixths
  (⅚ and ⅓): a shared place never scores less than its exact share;
- a bye scores 1 point, as chess Swiss scores it: the player was ready to play;
- an abandoned or cancelled game (places None) scores 0 for everyone at it, and is not counted
  as a game played nor in anyone's tie-breaks: no result came out of it.

Tie-breaks, in the order they count after points (each larger is better):
- Swiss at tables of two: Buchholz (the sum of the final points of the opponents played),
  then games won;
- round robin: Sonneborn-Berger (for each game, the points scored in it times the opponent's
  final points: a win against a strong player counts for more), then games won;
- Swiss at tables of 3-4: the sum of the final points of everyone met at a table (once per
  table shared), then the sum of the places taken, lower better (stored negated).
Byes count in no tie-break: there was no opponent. Players still equal after every tie-break
keep their seed order in the list and share one place number (1, 2, 3, 3, 5). Withdrawn
players stay in the standings with what they scored, marked.

Units of the tie-breaks (`shown_tiebreaks` writes them as players read them): Buchholz and the
opponents' points in sixths, like points; Sonneborn-Berger in 36ths (sixths times sixths);
games won as a count; the sum of places as a negated count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

# A point, in the sixths that points are counted in.
POINT = 6
# Sonneborn-Berger multiplies points by points: it is counted in 36ths.
SB_POINT = POINT * POINT
# The glyphs for the fractions a score or a tie-break can end in.
FRACTIONS = {
    Fraction(1, 6): "⅙",
    Fraction(1, 4): "¼",
    Fraction(1, 3): "⅓",
    Fraction(1, 2): "½",
    Fraction(2, 3): "⅔",
    Fraction(3, 4): "¾",
    Fraction(5, 6): "⅚",
}


@dataclass(frozen=True)
class TableResult:
    """One table of a round: its players in seat order and the place each took (1 = first;
    players who tie share the place, and the next place is skipped: 1, 1, 3). `places` is
    None for a game abandoned or cancelled: 0 points for everyone at it."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None


@dataclass(frozen=True)
class Bye:
    """A round a player sat out (too few players for a table, or an opponent who withdrew from
    a round robin): scored 1 point."""

    round: int
    player: int


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `place` is shared by players equal on points and on every
    tie-break; `points` is in sixths of a point; `tiebreaks` in the units the module's
    docstring gives; `games` counts the games played to a result, `wins` those won outright
    (a draw or a shared first place is not a win)."""

    player: int
    place: int
    points: int
    tiebreaks: tuple[int, ...]
    games: int
    wins: int
    byes: int
    withdrawn: bool


def place_points(size: int, place: int, sharing: int = 1) -> int:
    """Sixths of a point for `place` at a table of `size`, shared by `sharing` players (the
    average of the places they cover, rounded half up)."""
    if size < 2 or not 1 <= place <= size or sharing < 1:
        raise ValueError(f"place {place} shared by {sharing} at a table of {size} cannot be")
    covered = range(place, min(place + sharing, size + 1))
    exact = sum(Fraction(POINT * (size - p), size - 1) for p in covered) / len(covered)
    return int(exact + Fraction(1, 2))


def standings(
    entrants: Sequence[int],
    tables: Sequence[TableResult],
    byes: Sequence[Bye],
    *,
    withdrawn: Collection[int] = (),
    by_tables: bool,
    round_robin: bool = False,
) -> list[Standing]:
    """The standings of `entrants` (in seed order), best first, from the results so far.

    `by_tables`: a Swiss at tables of 3-4 (its tie-breaks); `round_robin`: a round robin
    (Sonneborn-Berger). Every player at a table or given a bye must be an entrant.
    """
    seed = {player: index for index, player in enumerate(entrants)}
    points: dict[int, int] = dict.fromkeys(entrants, 0)
    games: dict[int, int] = dict.fromkeys(entrants, 0)
    wins: dict[int, int] = dict.fromkeys(entrants, 0)
    bye_count: dict[int, int] = dict.fromkeys(entrants, 0)
    placed: dict[int, int] = dict.fromkeys(entrants, 0)
    # Per player, each game played to a result: (points scored in it, the others at the table).
    played: dict[int, list[tuple[int, tuple[int, ...]]]] = defaultdict(list)
    for bye in byes:
        _known(seed, bye.player)
        points[bye.player] += POINT
        bye_count[bye.player] += 1
    for table in tables:
        for player in table.players:
            _known(seed, player)
        if table.places is None:
            continue
        if len(table.places) != len(table.players) or len(table.players) < 2:
            raise ValueError(f"a table of round {table.round} has places that do not fit it")
        size = len(table.players)
        for player, place in zip(table.players, table.places, strict=True):
            sharing = table.places.count(place)
            scored = place_points(size, place, sharing)
            points[player] += scored
            games[player] += 1
            placed[player] += place
            if place == 1 and sharing == 1:
                wins[player] += 1
            others = tuple(other for other in table.players if other != player)
            played[player].append((scored, others))

    def tiebreaks(player: int) -> tuple[int, ...]:
        if round_robin:
            sonneborn_berger = sum(
                scored * sum(points[other] for other in others) for scored, others in played[player]
            )
            return (sonneborn_berger, wins[player])
        met = sum(points[other] for _, others in played[player] for other in others)
        if by_tables:
            return (met, -placed[player])
        return (met, wins[player])

    lines = [(player, points[player], tiebreaks(player)) for player in entrants]
    lines.sort(key=lambda line: (-line[1], tuple(-value for value in line[2]), seed[line[0]]))
    result: list[Standing] = []
    gone = set(withdrawn)
    for index, (player, score, breaks) in enumerate(lines):
        if index and (score, breaks) == (result[-1].points, result[-1].tiebreaks):
            place = result[-1].place
        else:
            place = index + 1
        result.append(
            Standing(
                player=player,
                place=place,
                points=score,
                tiebreaks=breaks,
                games=games[player],
                wins=wins[player],
                byes=bye_count[player],
                withdrawn=player in gone,
            )
        )
    return result


def _known(seed: dict[int, int], player: int) -> None:
    if player not in seed:
        raise ValueError(f"player {player} has a result but is not an entrant")


def tiebreak_names(*, by_tables: bool, round_robin: bool = False) -> tuple[str, ...]:
    """What each tie-break of `standings` is, as keys for the texts of the headings:
    "buchholz", "sonneborn_berger", "opponents_points", "wins", "places"."""
    if round_robin:
        return ("sonneborn_berger", "wins")
    if by_tables:
        return ("opponents_points", "places")
    return ("buchholz", "wins")


def shown_tiebreaks(
    tiebreaks: Sequence[int], *, by_tables: bool, round_robin: bool = False
) -> tuple[str, ...]:
    """The tie-breaks of a `Standing` as players read them: points with their fractions,
    counts as counts, the sum of places as the (positive) sum."""
    shown: list[str] = []
    for name, value in zip(
        tiebreak_names(by_tables=by_tables, round_robin=round_robin), tiebreaks, strict=True
    ):
        if name == "sonneborn_berger":
            shown.append(_shown(Fraction(value, SB_POINT)))
        elif name in ("buchholz", "opponents_points"):
            shown.append(shown_points(value))
        elif name == "places":
            shown.append(str(-value))
        else:
            shown.append(str(value))
    return tuple(shown)


def shown_points(sixths: int) -> str:
    """Points as players read them, from sixths: "2½", "1⅓", "0", "⅔"."""
    return _shown(Fraction(sixths, POINT))


def _shown(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if not part:
        return f"{sign}{whole}"
    glyph = FRACTIONS.get(part)
    if glyph is None:
        return f"{sign}{float(abs(value)):.2f}"
    return f"{sign}{whole or ''}{glyph}"
