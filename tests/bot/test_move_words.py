"""Moves are told in words in every language (the move log, undo requests, /game status),
never in the engine's typed form that no slash command takes."""

from __future__ import annotations

import random
import re

import pytest

from data.texts import LANGUAGES
from engine import Game
from games.high_voltage.rules import GAME as HIGH_VOLTAGE
from games.pylons.rules import GAME as PYLONS
from games.sector6.rules import GAME as SECTOR6
from hvbot.messages.presenters import presenter_for

TYPED = re.compile(r"\br[0-9]+\b|special=|\b(declare|place|draw|rotate|swap) [A-Z][0-9]")


def played(game: Game, seats: int, options: dict[str, str], seed: int) -> list[tuple[str, str]]:
    """(action text, phase before it) of a random game, up to 300 actions."""
    rng = random.Random(seed)
    state = game.new_state(seats, seed, options)
    out = []
    while not state.is_terminal() and len(out) < 300:
        action = rng.choice(state.legal_actions())
        out.append((action.text(), state.view(None)["phase"]))
        state.apply(action)
    return out


CASES = [
    (HIGH_VOLTAGE, 3, {}),
    (PYLONS, 2, {"swamps": "on"}),
    (SECTOR6, 2, {"mode": "full"}),
    (SECTOR6, 3, {"mode": "novice"}),
]


@pytest.mark.parametrize(
    ("game", "seats", "options"), CASES, ids=[f"{g.name}-{n}" for g, n, _ in CASES]
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_move_and_phase_is_said_in_words(
    game: Game, seats: int, options: dict[str, str], language: str
) -> None:
    presenter = presenter_for(game.name, language)
    for text, phase in played(game, seats, options, seed=7):
        words = presenter.move_words(text)
        assert words and not TYPED.search(words), (text, words)
        said = presenter.phase_words({"phase": phase})
        assert said != phase, (language, phase)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_closed_dm_notice_names_each_games_own_secret(language: str) -> None:
    """A Pylons or Sector 6 player has a colour, not a company."""
    said = {g: presenter_for(g, language).secret_words() for g in ("high-voltage", "pylons")}
    assert said["high-voltage"] != said["pylons"]
    assert presenter_for("sector6", language).secret_words() == said["pylons"]


@pytest.mark.parametrize(
    ("game", "seats", "options"), CASES, ids=[f"{g.name}-{n}" for g, n, _ in CASES]
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_pictures_last_move_is_said_in_words(
    game: Game, seats: int, options: dict[str, str], language: str
) -> None:
    """The words the presenter hands the board picture for its last line, after every
    action of a game: never the typed form ("draw A5 empty r90", "keep")."""
    presenter = presenter_for(game.name, language)
    state = game.new_state(seats, 7, options)
    for text, _ in played(game, seats, options, seed=7):
        state.apply(text)
        for words in presenter.last_moves(state.view(None)):
            assert words and not TYPED.search(words), (text, words)


def test_a_card_looked_at_adds_nothing_to_the_pictures_last_move() -> None:
    """A drawn card is seen by its drawer alone until placed: the public picture's last line
    says nothing of it, and once placed only what everyone sees, where and how it was turned."""
    presenter = presenter_for(HIGH_VOLTAGE.name)
    state = HIGH_VOLTAGE.new_state(3, 4)
    state.apply("draw A1")
    state.apply("place here r0")
    assert presenter.last_moves(state.view(None)) == [
        "drew A1 and placed it where it was, turned 0°"
    ]
    state.apply("draw B2")
    assert not any("B2" in words for words in presenter.last_moves(state.view(None)))
    state.apply("place empty r90")
    assert presenter.last_moves(state.view(None)) == [
        "drew B2 and placed it in the empty cell, turned 90°"
    ]
