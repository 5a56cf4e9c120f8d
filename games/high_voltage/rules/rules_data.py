"""The High Voltage card set and setup constants, read from `games/high_voltage/` and checked.

Everything the rules need per card and orientation is precomputed here once (where a path
entering an edge leaves, its colour, which rotations change the picture), so the hot paths of
the engine are list look-ups instead of geometry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from data import DataError, load_json

EDGES = ("N", "E", "S", "W")
EDGE_INDEX = {name: i for i, name in enumerate(EDGES)}
KINDS = ("straight", "curve", "crossing", "double_curve", "danger")
CARDS_FILE = "games/high_voltage/cards.json"
SETUP_FILE = "games/high_voltage/setup.json"


@dataclass(frozen=True)
class Path:
    """A coloured path joining two edges of a card in its printed orientation."""

    a: int
    b: int
    colour: str

    def rotated(self, quarter_turns: int) -> Path:
        return Path((self.a + quarter_turns) % 4, (self.b + quarter_turns) % 4, self.colour)


@dataclass(frozen=True)
class CardFace:
    kind: str
    paths: tuple[Path, ...]

    @property
    def is_danger(self) -> bool:
        return not self.paths


@dataclass(frozen=True)
class Setup:
    """The setup constants; see games/high_voltage/setup.json for what each one means."""

    grid_size: int
    start_empty: str
    start_face_up: tuple[str, ...]
    colours: tuple[str, ...]
    station_colour_cycle: tuple[str, ...]
    action_tokens: int
    special_tokens: int
    energy_tokens: int
    point_tokens: int
    min_line_cards: int
    max_high_voltage_on_line: int
    length_points: tuple[tuple[int, int], ...]  # (min_cards, points), ascending
    min_players: int
    max_players: int

    def points_for_length(self, cards: int) -> int:
        points = 0
        for min_cards, value in self.length_points:
            if cards >= min_cards:
                points = value
        return points

    def to_dict(self) -> dict[str, Any]:
        return {
            "grid_size": self.grid_size,
            "start_empty": self.start_empty,
            "start_face_up": list(self.start_face_up),
            "colours": list(self.colours),
            "station_colour_cycle": list(self.station_colour_cycle),
            "action_tokens": self.action_tokens,
            "special_tokens": self.special_tokens,
            "energy_tokens": self.energy_tokens,
            "point_tokens": self.point_tokens,
            "min_line_cards": self.min_line_cards,
            "max_high_voltage_on_line": self.max_high_voltage_on_line,
            "length_points": [{"min_cards": m, "points": p} for m, p in self.length_points],
            "min_players": self.min_players,
            "max_players": self.max_players,
        }


class CardSet:
    """The faces of all cards plus per-orientation look-up tables used by the rules."""

    def __init__(self, faces: Sequence[CardFace], colours: Sequence[str]) -> None:
        self.faces = tuple(faces)
        self.colours = tuple(colours)
        colour_index = {c: i for i, c in enumerate(self.colours)}
        # exits[card][rot][entry_edge] -> exit edge or -1; colour[card][rot][edge] -> colour index
        self.exits: list[tuple[tuple[int, ...], ...]] = []
        self.colour: list[tuple[tuple[int, ...], ...]] = []
        # legal_turns[card][rot] -> orientations a `rotate` may turn the card to
        self.legal_turns: list[tuple[tuple[int, ...], ...]] = []
        self.is_danger: list[bool] = []
        self.can_go_straight: list[bool] = []
        self.can_turn: list[bool] = []
        for face in self.faces:
            exits: list[tuple[int, ...]] = []
            path_colours: list[tuple[int, ...]] = []
            signatures: list[frozenset[tuple[frozenset[int], str]]] = []
            for rot in range(4):
                ex, col = [-1] * 4, [-1] * 4
                for path in face.paths:
                    p = path.rotated(rot)
                    ex[p.a], ex[p.b] = p.b, p.a
                    col[p.a] = col[p.b] = colour_index[p.colour]
                exits.append(tuple(ex))
                path_colours.append(tuple(col))
                signatures.append(
                    frozenset(
                        (frozenset((p.a, p.b)), p.colour)
                        for p in (q.rotated(rot) for q in face.paths)
                    )
                )
            self.exits.append(tuple(exits))
            self.colour.append(tuple(path_colours))
            self.legal_turns.append(
                tuple(
                    tuple(r for r in range(4) if signatures[r] != signatures[frm])
                    for frm in range(4)
                )
            )
            self.is_danger.append(face.is_danger)
            self.can_go_straight.append(any((p.a - p.b) % 2 == 0 for p in face.paths))
            self.can_turn.append(any((p.a - p.b) % 2 == 1 for p in face.paths))

    def __len__(self) -> int:
        return len(self.faces)

    def to_data(self) -> list[list[Any]]:
        """Compact JSON form, stored with every saved game so a later data fix cannot change it."""
        return [
            [face.kind, [[EDGES[p.a], EDGES[p.b], p.colour] for p in face.paths]]
            for face in self.faces
        ]

    @classmethod
    def from_data(cls, data: Sequence[Any], colours: Sequence[str]) -> CardSet:
        """The card set of a saved game. Every saved game carries its cards, and nearly all
        carry the same ones, so a set already checked is looked up instead of checked again:
        a bot loads a game on every move."""
        try:
            key = tuple((kind, tuple(tuple(p) for p in paths)) for kind, paths in data)
            hash(key)
        except (TypeError, ValueError):
            key = None  # malformed: checking it says what is wrong
        if key is not None:
            return _checked_cardset(key, tuple(colours))
        return _cardset_of(data, colours)


def _cardset_of(data: Sequence[Any], colours: Sequence[str]) -> CardSet:
    faces = []
    for i, item in enumerate(data):
        kind, paths = item
        faces.append(_face(f"card {i}", kind, paths, colours))
    return _cached_cardset(tuple(faces), tuple(colours))


@lru_cache(maxsize=16)
def _checked_cardset(key: tuple[Any, ...], colours: tuple[str, ...]) -> CardSet:
    return _cardset_of([[kind, [list(p) for p in paths]] for kind, paths in key], colours)


@cache
def _cached_cardset(faces: tuple[CardFace, ...], colours: tuple[str, ...]) -> CardSet:
    return CardSet(faces, colours)


def _face(where: str, kind: Any, paths: Any, colours: Sequence[str]) -> CardFace:
    """Check one card's description; raise ValueError naming the card and what is wrong."""
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(paths, list):
        raise ValueError(f"{where}: 'paths' must be a list")
    parsed = []
    used: set[int] = set()
    for path in paths:
        if not (isinstance(path, list) and len(path) == 3):
            raise ValueError(f"{where}: each path is [edge, edge, colour], got {path!r}")
        a, b, colour = path
        if a not in EDGE_INDEX or b not in EDGE_INDEX or a == b:
            raise ValueError(f"{where}: a path joins two different edges of N, E, S, W: {path!r}")
        if colour not in colours:
            raise ValueError(f"{where}: colour {colour!r} is not one of {', '.join(colours)}")
        ia, ib = EDGE_INDEX[a], EDGE_INDEX[b]
        if ia in used or ib in used:
            raise ValueError(f"{where}: two paths share an edge")
        used |= {ia, ib}
        parsed.append(Path(ia, ib, colour))
    expected_paths = {"straight": 1, "curve": 1, "crossing": 2, "double_curve": 2, "danger": 0}
    if len(parsed) != expected_paths[kind]:
        raise ValueError(f"{where}: a {kind} card has {expected_paths[kind]} path(s)")
    straight = [(p.a - p.b) % 2 == 0 for p in parsed]
    if kind in ("straight", "crossing") and not all(straight):
        raise ValueError(f"{where}: a {kind} card's paths join opposite edges")
    if kind in ("curve", "double_curve") and any(straight):
        raise ValueError(f"{where}: a {kind} card's paths join neighbouring edges")
    return CardFace(kind, tuple(parsed))


def parse_setup(doc: Mapping[str, Any], path: str = SETUP_FILE) -> Setup:
    """Build and check the setup constants; problems name the file and the key."""

    def need(key: str, kind: type) -> Any:
        if key not in doc:
            raise DataError(path, f"missing key {key!r}")
        value = doc[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise DataError(path, f"{key!r} must be a whole number, not {value!r}")
        if kind is list and not isinstance(value, list):
            raise DataError(path, f"{key!r} must be a list")
        if kind is str and not isinstance(value, str):
            raise DataError(path, f"{key!r} must be text")
        return value

    size = need("grid_size", int)
    if size < 3 or size > 26:
        raise DataError(path, f"'grid_size' must be between 3 and 26, not {size}")
    cells = {f"{chr(65 + c)}{r + 1}" for r in range(size) for c in range(size)}
    start_empty = need("start_empty", str)
    if start_empty not in cells:
        raise DataError(path, f"'start_empty' {start_empty!r} is not a cell of the grid")
    face_up = need("start_face_up", list)
    for cell in face_up:
        if cell not in cells or cell == start_empty:
            raise DataError(path, f"'start_face_up' has {cell!r}, not a card's cell")
    colours = need("colours", list)
    if len(colours) != 4 or len(set(colours)) != 4 or not all(isinstance(c, str) for c in colours):
        raise DataError(path, "'colours' must list four different colour names")
    cycle = need("station_colour_cycle", list)
    if not cycle or any(c not in colours for c in cycle):
        raise DataError(path, "'station_colour_cycle' must list colours from 'colours'")
    table = need("length_points", list)
    try:
        length_points = tuple((int(t["min_cards"]), int(t["points"])) for t in table)
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(path, "'length_points' entries need 'min_cards' and 'points'") from exc
    if [m for m, _ in length_points] != sorted({m for m, _ in length_points}):
        raise DataError(path, "'length_points' must be in ascending 'min_cards' order")
    setup = Setup(
        grid_size=size,
        start_empty=start_empty,
        start_face_up=tuple(face_up),
        colours=tuple(colours),
        station_colour_cycle=tuple(cycle),
        action_tokens=need("action_tokens", int),
        special_tokens=need("special_tokens", int),
        energy_tokens=need("energy_tokens", int),
        point_tokens=need("point_tokens", int),
        min_line_cards=need("min_line_cards", int),
        max_high_voltage_on_line=need("max_high_voltage_on_line", int),
        length_points=length_points,
        min_players=need("min_players", int),
        max_players=need("max_players", int),
    )
    for key in ("action_tokens", "special_tokens", "energy_tokens", "point_tokens"):
        if getattr(setup, key) < 0:
            raise DataError(path, f"{key!r} cannot be negative")
    if not 1 <= setup.min_players <= setup.max_players <= len(colours):
        raise DataError(path, "players must satisfy 1 <= min_players <= max_players <= 4")
    return setup


def parse_cards(doc: Mapping[str, Any], setup: Setup, path: str = CARDS_FILE) -> CardSet:
    cards = doc.get("cards")
    if not isinstance(cards, list):
        raise DataError(path, "missing the list 'cards'")
    expected = setup.grid_size * setup.grid_size - 1
    if len(cards) != expected:
        raise DataError(
            path,
            f"needs {expected} cards for a {setup.grid_size}x"
            f"{setup.grid_size} grid with one empty cell, found {len(cards)}",
        )
    faces = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            raise DataError(path, f"card {i} must be an object")
        if card.get("id") != i:
            raise DataError(path, f"card {i} has id {card.get('id')!r}; ids run 0, 1, 2, ...")
        try:
            faces.append(_face(f"card {i}", card.get("kind"), card.get("paths"), setup.colours))
        except ValueError as exc:
            raise DataError(path, str(exc)) from exc
    return _cached_cardset(tuple(faces), setup.colours)


@cache
def default_rules() -> tuple[Setup, CardSet]:
    """The shipped setup and card set, read and checked once per process."""
    setup = parse_setup(
        load_json(SETUP_FILE, expected_format="high-voltage-setup", expected_version=1)
    )
    cards = parse_cards(
        load_json(CARDS_FILE, expected_format="high-voltage-cards", expected_version=1), setup
    )
    return setup, cards
