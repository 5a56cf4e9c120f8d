"""Whatever a person types, every game's parser either reads an action or refuses with its
own syntax error, whose message quotes at most a short cut of a long input: never another
exception, never the whole of a long input back.

Inputs are random unicode (other scripts' digits, superscripts, combining marks, spaces of
every kind), huge numbers, and real actions with one word swapped for such text."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data.texts import LANGUAGES, texts_for
from engine import ActionSyntaxError, GameError
from engine.errors import MAX_ACTION_CHARS, Phrase
from games.high_voltage.rules import GAME as HIGH_VOLTAGE
from games.pylons.rules import GAME as PYLONS
from games.sector6.rules import GAME as SECTOR6

GAMES = {"high-voltage": HIGH_VOLTAGE, "pylons": PYLONS, "sector6": SECTOR6}
ACTIONS = {
    "high-voltage": [
        "draw C3",
        "draw C3 empty r90",
        "place here r180",
        "rotate E4 r90",
        "move E4 r0 special=danger",
        "swap B2 F6 r0 r270",
        "declare S3-S17",
        "declare none",
    ],
    "pylons": ["place K12", "K12", "keep", "mirror"],
    "sector6": [
        "draw",
        "place C4 r120",
        "place entry C4",
        "move C4 C7",
        "collect",
        "rotate right",
        "rotate C4 left",
        "done",
        "pass",
    ],
}
ODD_WORDS = st.sampled_from(
    [
        "r\u00b2",
        "\u00b9\u00b2",
        "r\u0669\u0660",
        "C\u0663",
        "S1-S" + "9" * 5000,
        "9" * 5000,
        "r" + "0" * 400 + "90",
        "special=" + "x" * 300,
        "\u0000",
        "C3\u0301",
        "\u2003",
        "ｒ９０",
        "C" * 900,
    ]
)
TYPED = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=string.printable, max_size=60),
    st.text(min_size=MAX_ACTION_CHARS - 5, max_size=3000),
    ODD_WORDS,
)


def _quoted(fields: dict[str, object]) -> list[str]:
    """The parts of what was typed a refusal quotes: its fields, and those of its parts."""
    out = []
    for name, value in fields.items():
        if isinstance(value, Phrase):
            out += _quoted(value.fields)
        elif isinstance(value, str) and name != "examples":
            out.append(value)
    return out


def _parse_everywhere(text: str) -> None:
    """Read `text` in every game; any refusal is the game's syntax error, said in every
    language without error and without quoting more than a short cut of the input."""
    for name, game in GAMES.items():
        state = game.new_state(game.min_seats, seed=1)
        try:
            state.parse_action(text)
        except ActionSyntaxError as error:
            for language in LANGUAGES:
                said = texts_for(language).explain(error)
                assert said, (name, text)
                assert len(said) < 1000, (name, len(said))
            assert max(map(len, _quoted(error.fields)), default=0) <= MAX_ACTION_CHARS, error.fields


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TYPED)
def test_any_text_is_read_or_refused_with_the_games_syntax_error(text: str) -> None:
    _parse_everywhere(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(ACTIONS)), st.data())
def test_a_real_action_with_one_odd_word_is_refused_cleanly(game: str, data: st.DataObject) -> None:
    action = data.draw(st.sampled_from(ACTIONS[game]))
    words = action.split()
    at = data.draw(st.integers(0, len(words) - 1))
    words[at] = data.draw(st.one_of(ODD_WORDS, st.text(min_size=1, max_size=20)))
    _parse_everywhere(" ".join(words))


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("high-voltage", "rotate D3 r\u00b2"),
        ("high-voltage", "rotate D3 r\u0669\u0660"),
        ("high-voltage", "declare S1-S" + "9" * 5000),
        ("high-voltage", "rotate " + "C" * 900 + " r90"),
        ("pylons", "place K\u00b9\u00b2"),
        ("pylons", "K\u0661\u0662"),
        ("sector6", "place C4 r\u00b9\u00b2\u2070"),
        ("sector6", "move C\u0664 C7"),
        ("sector6", "rotate left" + " " * 200 + "x"),
    ],
)
def test_inputs_that_once_crashed_or_passed_are_refused(game: str, text: str) -> None:
    state = GAMES[game].new_state(GAMES[game].min_seats, seed=1)
    with pytest.raises(ActionSyntaxError) as refused:
        state.parse_action(text)
    message = texts_for("en").explain(refused.value)
    assert len(message) < 600
    assert text not in message or len(text) <= MAX_ACTION_CHARS


def test_input_is_quoted_as_typed() -> None:
    state = PYLONS.new_state(2, seed=1)
    with pytest.raises(GameError) as refused:
        state.parse_action("place Y25")
    assert "'Y25'" in texts_for("en").explain(refused.value)
    state = HIGH_VOLTAGE.new_state(2, seed=1)
    with pytest.raises(GameError) as refused:
        state.parse_action("Rotate Z99x R90")
    assert "'Z99x'" in texts_for("en").explain(refused.value)
