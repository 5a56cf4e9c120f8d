"""How each game is shown in Discord: its wording, its pictures and its private prompts.

The turn flow (`hvbot.flow`) is the same for every game; everything that depends on a game's
rules or vocabulary lives in one presenter per game, found by the engine's game name.
"""

from __future__ import annotations

import functools

from data.texts import language_of
from engine import find_game
from hvbot.presenters.base import Presenter
from hvbot.presenters.high_voltage import HighVoltagePresenter
from hvbot.presenters.pylons import PylonsPresenter
from hvbot.presenters.sector6 import Sector6Presenter

_PRESENTERS: dict[str, type[Presenter]] = {
    p.game: p for p in (HighVoltagePresenter, PylonsPresenter, Sector6Presenter)
}


def presenter_for(game: str, language: object | None = None) -> Presenter:
    """The presenter of a game speaking a language (a code or a Discord locale; English for
    any other): public posts use the server's language, private ones the person's."""
    return _presenter(game, language_of(language))


@functools.cache
def _presenter(game: str, language: str) -> Presenter:
    return _PRESENTERS[game](language)


def playable_games() -> list[str]:
    """The games that can be played in Discord (a game needs a presenter and a cog)."""
    return list(_PRESENTERS)


def warm_up() -> None:
    """Draw one board of every game, so the first board players see is as quick as the rest
    (each renderer builds its picture pieces on first use). Run where pictures are drawn."""
    for name in playable_games():
        rules = find_game(name)
        view = rules.new_state(rules.min_seats, 0).view(None)
        presenter_for(name).board_png(view, [f"Seat {i + 1}" for i in range(rules.min_seats)])
