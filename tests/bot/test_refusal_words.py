"""Refusals as the bot says them, read in the language concerned: the commands and buttons a
player uses, angles as the commands offer them, and the players by their names."""

from __future__ import annotations

import pytest

from data.texts import LANGUAGES, texts_for
from engine import GameError
from engine.errors import name_seats
from games.high_voltage.rules import GAME as HIGH_VOLTAGE
from games.pylons.rules import GAME as PYLONS


def refusal(state: object, action: str) -> GameError:
    with pytest.raises(GameError) as caught:
        state.apply(action)  # type: ignore[attr-defined]
    return caught.value


def test_a_rotation_that_changes_nothing_is_told_in_degrees() -> None:
    state = HIGH_VOLTAGE.new_state(2, 7)
    up = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "up")
    turned = next(c["rotation"] for c in state.view(None)["cells"] if c["cell"] == up)
    error = refusal(state, f"rotate {up} r{turned}")
    assert f"r{turned}" in str(error), "the engine's message keeps the typed form"
    for language in LANGUAGES:
        said = texts_for(language).explain(error)
        assert f"{turned}°" in said and f"r{turned}" not in said, (language, said)


def test_a_taken_cell_names_the_player_and_suggests_a_command(mentioned: None) -> None:
    state = PYLONS.new_state(2, 3, {"swamps": "off"})
    state.apply("place K12")
    error = refusal(state, "place K12")
    fields = {name: name_seats(value, ["Ada", "Bo"]) for name, value in error.fields.items()}
    said = texts_for("it")(error.key or "", **fields)
    assert said.startswith("Su K12 c'è già un traliccio (di Ada)."), said
    assert "</pylons place:33> casella:" in said, said
    # Without names (the command line, a test), the seat is said in the language too.
    assert "(di giocatore 1 (blu))" in texts_for("it").explain(error)


@pytest.mark.parametrize(
    ("key", "wanted", "unwanted"),
    [
        ("engine.sector6.unreadable.move", "sich bewegt", "zieht"),
        ("engine.high_voltage.unreadable.only_special", "darin steht keine Aktion", "er nennt"),
    ],
)
def test_german_refusal_words(key: str, wanted: str, unwanted: str) -> None:
    said = texts_for("de")(key)
    assert wanted in said and unwanted not in said, said
