"""Every refusal of the engine says the same thing in its English message and in the language
files: it carries a key of the English texts, and that text filled with the refusal's fields is
the message, word for word. Every other language says it without error.

The refusals are collected by playing random games with fixed seeds and, at every step, trying
actions that are wrong or unreadable there: other seats' moves, occupied and missing cells,
the wrong phase, text that is not an action at all. The collection must reach every refusal the
English files of the bot and of these games name, except the few listed in UNREACHABLE with
the reason.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hv_positions import DANGER, build, close_by_rotating, route

from data.texts import DEFAULT, ENGLISH, LANGUAGES, file_texts, texts_for
from engine import GameError, State
from engine.errors import Phrase, Seat
from games import plugin
from games.high_voltage.rules import GAME as HIGH_VOLTAGE
from games.high_voltage.rules.actions import Move as HvMove
from games.pylons.rules import GAME as PYLONS
from games.pylons.rules.actions import Place as PylonsPlace
from games.sector6.rules import GAME as SECTOR6
from games.sector6.rules.actions import Move as Sector6Move
from games.sector6.rules.actions import Place as Sector6Place
from games.sector6.rules.state import BUILD

L5 = route(["A1", "A2", "A3", "A4", "A5"], "N", "W")  # a line from S1 to S27

# Keys no action can produce, and why.
UNREACHABLE = {
    # parse_action turns every cell it reads into a real one; only an action built by hand
    # with a made-up cell reaches the state's own check (tried below all the same).
    "engine.pylons.cannot_build_on.not_free": "the free list and the refusals above agree",
    # A straight line between two cells of the table never leaves the table.
    "engine.sector6.why_not_move.edge": "a line between two cells stays on the table",
    "engine.sector6.why_not_move.unreachable": "reach() and the checks before it agree",
    # The game ends as soon as the last face-down card is drawn, so a draw always has one.
    "engine.high_voltage.example.none_left": "the game ends when no face-down card is left",
    # A prisoner's move leads to the after-move step only if there is a marker to collect or
    # a tile to rotate, so "done" never stands alone.
    "engine.sector6.after_move.done": "the after-move step always offers collect or rotate",
    # In the construction phase every action but draw and place gets the building hint first.
    "engine.sector6.pass_only_blocked.building": "pass while building gets the building hint",
    # After a move the prisoner can always go back the way it came.
    "engine.sector6.moves.none": "a prisoner that has moved can always move back",
    # Only DANGER cards look the same turned every way, and those cannot be rotated at all.
    "engine.high_voltage.no_rotations": "only DANGER cards have no rotation that changes them",
}

GARBAGE = ["", "   ", "fly away", "special=double", "special=maybe draw C3", "42", "r90", "xyz 1"]
# Typed text no action is made of, tried once in every game.
ODD_INPUT = [
    "rotate D3 r\u00b2",  # a superscript two: a digit to str.isdigit(), not a number
    "declare S1-S" + "9" * 5000,  # longer than Python turns into an int by default
    "rotate C3 r\u0669\u0660",  # Arabic-Indic digits
    "rotate " + "C" * 900 + " r90",
]


def _phrases(value: Any) -> Iterator[Phrase]:
    if isinstance(value, Phrase):
        yield value
        for field in value.fields.values():
            yield from _phrases(field)


# What only typed actions say: an engine's own English message may say it (it is read where
# actions are typed), a player of the bot must never meet it. The bot speaks of its buttons
# and commands, and of angles as 90°.
ENGINE_SYNTAX = re.compile(
    "|".join(
        (
            r"\br\d{1,3}\b",  # r90
            r"\bspecial=",
            r"\bplace (here|empty|entry)\b",
            r"\bdeclare none\b",
            r"\b(draw|place|move|rotate|swap) [A-Z]\d",  # draw C3
            r"\brotate (left|right)\b",
            r"\bcollect \(",
            r"\b(keep|mirror) \(",
            r", done\b|\bor (keep|mirror)\b|: pass\.|· keep",  # a bare verb offered
            r"Examples?:",
        )
    )
)
# Fields that echo what was typed: quoted back as typed, whatever it looks like.
ECHOED = ("text", "action", "name", "word", "verb", "value", "label")


def check_refusal(error: GameError) -> None:
    """The error's key and fields make a text in every language, with no field left unfilled
    and no engine syntax in it. In English the text says the engine's own message word for
    word, unless that message is in engine syntax or the text names the bot's commands."""
    assert error.key, f"no key for the refusal {str(error)!r}"
    said_before = (error.key, str(error), _fingerprint(error.fields))
    if said_before in _CHECKED:
        return  # the very same refusal, checked already: the checks would say the same
    _CHECKED.add(said_before)
    assert ENGLISH.has(error.key), f"{error.key} has no English text"
    _same_in_english(error.key, error.fields, str(error))
    for field in error.fields.values():
        for phrase in _phrases(field):
            assert ENGLISH.has(phrase.key), f"{phrase.key} has no English text"
            _same_in_english(phrase.key, phrase.fields, str(phrase))
    shape = (error.key, *sorted(_shape(name, field) for name, field in error.fields.items()))
    if shape in _SPOKEN:
        return
    _SPOKEN.add(shape)
    echo_free = GameError(str(error), key=error.key, **_without_echoes(error.fields))
    for language in LANGUAGES:
        said = texts_for(language).explain(error)
        assert said and "{" not in said.replace("{{", ""), (language, error.key, said)
        syntax = ENGINE_SYNTAX.search(texts_for(language).explain(echo_free))
        assert syntax is None, (language, error.key, syntax and syntax[0], said)


def _same_in_english(key: str, fields: dict[str, Any], message: str) -> None:
    template = ENGLISH.template(key)
    forms = template.values() if isinstance(template, dict) else [template]
    if ENGINE_SYNTAX.search(message) or any("/" in form for form in forms):
        return  # the bot's words differ from the typed actions' on purpose
    if ".unreadable." in key:
        return  # how to type an action, which the bot's players never type
    assert ENGLISH(key, **fields) == message


def _without_echoes(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, field in fields.items():
        if name in ECHOED and not isinstance(field, Phrase):
            out[name] = "…"
        elif isinstance(field, Phrase):
            out[name] = Phrase(str(field), field.key, **_without_echoes(field.fields))
        else:
            out[name] = field
    return out


# The refusals already checked whole, by key, message and fields: random play meets the same
# refusal (the same words for the same cells) again and again.
_CHECKED: set[tuple[Any, ...]] = set()


def _fingerprint(value: Any) -> Any:
    """The whole of a refusal's field, hashable: a Phrase with its key and its own fields (a
    Seat with its seat), a list by its items, anything else by its type and repr."""
    if isinstance(value, dict):
        return tuple(sorted((name, _fingerprint(field)) for name, field in value.items()))
    if isinstance(value, Phrase):
        seat = value.seat if isinstance(value, Seat) else None
        return (type(value).__name__, str(value), value.key, seat, _fingerprint(value.fields))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_fingerprint(item) for item in value))
    return (type(value).__name__, repr(value))


# The shapes of the refusals already said in every language: a refusal whose key and fields'
# kinds were said once is said the same way with other cells in them.
_SPOKEN: set[tuple[Any, ...]] = set()


def _shape(name: str, field: Any) -> tuple[Any, ...]:
    if isinstance(field, Phrase):
        return (name, field.key, *sorted(_shape(n, f) for n, f in field.fields.items()))
    if isinstance(field, list | tuple):
        return (name, type(field).__name__, frozenset(_shape("", f) for f in field))
    return (name, type(field).__name__)


def _try(state: State, action: Any, found: set[str], before: dict[str, Any]) -> bool:
    """Try one action that is probably wrong and record the keys of its refusal and of the
    texts that fill it; one that happens to be legal is simply played (and True says so:
    `before`, the saved state before it, is then no longer the state's)."""
    try:
        state.apply(action)
    except GameError as error:
        check_refusal(error)
        assert state.to_dict() == before, f"{error.key} changed the state"
        found.add(error.key or "")
        for field in error.fields.values():
            found.update(phrase.key for phrase in _phrases(field))
        return False
    return True


def _collect(
    game: Any,
    seats: int,
    options: dict[str, Any],
    seeds: range,
    tries: Callable[[State, random.Random], list[Any]],
    per_step: int,
    found: set[str],
    first_choice: Callable[[list[Any]], Any] | None = None,
) -> None:
    """Random games from `seeds`, trying `per_step` of `tries` before every move; a game may
    prefer the legal action `first_choice` picks, to reach positions random play rarely does."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seats, seed, options)
        while True:
            candidates = tries(state, rng)
            before = state.to_dict()
            for action in rng.sample(candidates, min(per_step, len(candidates))):
                if _try(state, action, found, before):
                    before = state.to_dict()
            if state.is_terminal():
                break
            choice = first_choice(state.legal_actions()) if first_choice else None
            state.apply(choice if choice is not None else state.sample_action(rng))
        before = state.to_dict()
        for action in ("draw", "place K12", "keep", "done", "pass"):
            if _try(state, action, found, before):
                before = state.to_dict()


# ---------------------------------------------------------------------- the three games


def _hv_tries(state: Any, rng: random.Random) -> list[Any]:
    names = list(state.geo.names)
    cells = rng.sample(names, 6)
    up = [name for name in names if _hv_face_up(state, name)]
    danger = [name for name in up if state._is_danger(state.grid[state.geo.index[name]])]
    down = [name for name in names if name not in up and state.grid[state.geo.index[name]] >= 0]
    a, b = cells[0], cells[1]
    rot = rng.choice((0, 90, 180, 270))
    special = rng.choice(("", " special=double", " special=danger"))
    return [
        *GARBAGE,
        f"draw {a}{special}",
        f"draw {a} {rng.choice(('here', 'empty', b))} r{rot}{special}",
        f"place {rng.choice(('here', 'empty', b))} r{rot}",
        "place here r0 special=double",
        f"rotate {a} r{rot}{special}",
        f"rotate {b} r{rot}",
        f"move {a} r{rot}{special}",
        f"move {b} r{rot}",
        f"swap {a} {b} r{rot} r0{special}",
        f"swap {a} {a} r0 r0",
        f"swap {cells[2]} {cells[3]} r0 r90",
        "declare none",
        f"declare S{rng.randint(0, 40)}-S{rng.randint(0, 40)}",
        "declare S1-S2 special=danger",
        "declare S1",
        "draw H9",
        "draw C3 empty r45",
        "draw C3 there r90",
        "draw",
        "place here",
        "turn C3",
        "swap C3 D4",
        "special=sometimes draw C3",
        "draw Z9",
        f"rotate {a} r{rot} special=danger",
        f"move {a} r{rot} special=danger",
        HvMove("C3", 0, "teleport"),
        3.5,
        *[f"rotate {c} r{rot}" for c in rng.sample(up, min(3, len(up)))],
        *[f"{verb} {c} r{rot}" for c in danger for verb in ("move", "rotate")],
        *[f"swap {c} {rng.choice(up)} r0 r0" for c in danger],
        *[f"draw {c} special=double" for c in down[:2]],
    ]


def _hv_face_up(state: Any, name: str) -> bool:
    card = state.grid[state.geo.index[name]]
    return card >= 0 and bool(state.card_up[card])


def _pylons_tries(state: Any, rng: random.Random) -> list[Any]:
    cells = [
        f"{'ABCDEFGHIJKLMNOPQRSTUVWX'[rng.randrange(24)]}{rng.randint(1, 24)}" for _ in range(6)
    ]
    own = [f"place {name}" for name, _ in state.view(None)["pylons"][-4:]]
    edges = ["place A5", "place X7", "place E1", "place F24", "place A1", "place X24"]
    return [
        *GARBAGE,
        *[f"place {c}" for c in cells],
        *own,
        *edges,
        "keep",
        "mirror",
        "keep now",
        "mirror please",
        "place",
        "place A1 B2",
        "Y30",
        "place Z3",
        PylonsPlace("Z99"),
        None,
    ]


def _sector6_tries(state: Any, rng: random.Random) -> list[Any]:
    names = list(state.table.names)
    cells = rng.sample(names, 6)
    rot = rng.choice((0, 60, 120, 180, 240, 300))
    mine = [state.name(c) for c in state.prisoners[state.seat]]
    theirs = [state.name(c) for s, cs in enumerate(state.prisoners) if s != state.seat for c in cs]
    placed = [state.name(state.where[p]) for p in state.order[-3:]]
    frontier = [state.name(c) for c in state.frontier()[:40]]
    if len(state.order) == 1:
        frontier += cells
    near = rng.sample(frontier, min(3, len(frontier)))
    tries: list[Any] = [
        *GARBAGE,
        "draw",
        "draw now",
        *[f"place {c} r{rot}" for c in cells[:2] + near + placed],
        *[f"place entry {c}" for c in cells[:2] + near + placed],
        "place entry",
        "place C4",
        "place C4 r45",
        "entry Z1",
        "place Z1 r0",
        "move C4",
        "move C4 Z1",
        "collect",
        "collect now",
        "rotate left",
        "rotate right",
        "rotate sideways",
        "rotate C4 left now",
        f"rotate {cells[0]} left",
        "done",
        "done now",
        "end it",
        "pass",
        "pass now",
        "jump C4",
        "place entry 4x",
        Sector6Place("Z1", 0),
        Sector6Move("Z1", "C4"),
        object(),
    ]
    for origin in mine + theirs + cells[:2]:
        tries += [f"move {origin} {target}" for target in rng.sample(names, 4)]
        tries.append(f"move {origin} {origin}")
        tries += [f"rotate {origin} left", f"move {origin} {rng.choice(names)}"]
    return tries


def test_every_refusal_has_its_text_in_every_language() -> None:
    found: set[str] = set()
    for seats in (2, 3):
        _collect(HIGH_VOLTAGE, seats, {}, range(seats * 10, seats * 10 + 4), _hv_tries, 6, found)
    for swamps in ("on", "off"):
        _collect(PYLONS, 2, {"swamps": swamps}, range(4), _pylons_tries, 4, found)
    for mode in ("full", "veteran", "novice"):
        for seats in (2, 4):
            _collect(SECTOR6, seats, {"mode": mode}, range(2), _sector6_tries, 8, found)
    # A seat that always draws empties its supply before placing its entry points.
    _collect(SECTOR6, 2, {}, range(1), _draw_from_empty, 1, found, _draw_first)
    check_cells_and_stations(found)
    check_odd_input(found)
    check_hv_positions(found)
    # The refusals of the bot's own files and of the games played here (not of any other game
    # registered, such as a test-only one: its own tests reach its refusals).
    files = ["data", *(plugin(game.name).texts for game in (HIGH_VOLTAGE, PYLONS, SECTOR6))]
    engine_keys = {
        key
        for package in files
        for key in file_texts(package, DEFAULT)
        if key.startswith("engine.")
    }
    assert set(UNREACHABLE) <= engine_keys
    missed = sorted(engine_keys - found - set(UNREACHABLE))
    assert missed == [], f"no refusal reached these keys: {missed}"


def _draw_first(actions: list[Any]) -> Any:
    return next((a for a in actions if a.text() == "draw"), None)


def _draw_from_empty(state: Any, rng: random.Random) -> list[Any]:
    return ["draw"] if state.phase == BUILD and state.supply_left(state.seat) == 0 else []


def _refused(state: State, action: str, found: set[str]) -> None:
    with pytest.raises(GameError) as caught:
        state.apply(action)
    check_refusal(caught.value)
    found.add(caught.value.key or "")
    for field in caught.value.fields.values():
        found.update(phrase.key for phrase in _phrases(field))


def check_hv_positions(found: set[str]) -> None:
    """High Voltage positions random play reaches too seldom: a card with a DANGER token, a
    second special token, a line waiting to be declared."""
    state = build({"C4": (32, 0, DANGER), "C3": (12, 0)}, empty="G7", special_tokens=(2, 2))
    for action in ("move C4 r0", "swap C4 C3 r0 r0"):
        _refused(state, action, found)
    state.apply("draw A1 here r0 special=double")
    _refused(state, "draw B1 special=double", found)
    _refused(close_by_rotating(L5, "A5", 0), "declare S1-S28", found)


def check_cells_and_stations(found: set[str]) -> None:
    """The board's own readers of cell and station names, which the High Voltage state uses
    for cells and which pictures use for stations."""
    geometry = HIGH_VOLTAGE.new_state(2, 1).geo
    for read in (lambda: geometry.cell("Z9"), lambda: geometry.station(99)):
        with pytest.raises(GameError) as caught:
            read()
        check_refusal(caught.value)
        found.add(caught.value.key or "")


def check_odd_input(found: set[str]) -> None:
    for game in (HIGH_VOLTAGE, PYLONS, SECTOR6):
        state = game.new_state(2, 1)
        for text in ODD_INPUT:
            with pytest.raises(GameError) as caught:
                state.parse_action(text)
            check_refusal(caught.value)
            found.add(caught.value.key or "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_parts_of_a_refusal_are_said_in_its_language(language: str) -> None:
    """The reason inside "I can't read ..." is said in the same language as the rest."""
    state = SECTOR6.new_state(2, 1, {"mode": "full"})
    with pytest.raises(GameError) as caught:
        state.apply("draw now")
    texts = texts_for(language)
    said = texts.explain(caught.value)
    assert texts("engine.sector6.unreadable.draw") in said
    assert said.startswith(texts("engine.core.unreadable", text="", why="", examples="")[:5])


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_refusal_text_is_in_engine_syntax(language: str) -> None:
    """Every refusal of the bot's files and of every game, as written, in every language:
    those no action reaches too (UNREACHABLE), and the bot's own (bot.error)."""
    files = ["data", *(plugin(game.name).texts for game in (HIGH_VOLTAGE, PYLONS, SECTOR6))]
    found = []
    for package in files:
        for key, template in file_texts(package, language).items():
            if not key.startswith(("engine.", "bot.error.")):
                continue
            for form in template.values() if isinstance(template, dict) else [template]:
                syntax = ENGINE_SYNTAX.search(form)
                if syntax:
                    found.append((key, syntax[0], form))
    assert found == []
