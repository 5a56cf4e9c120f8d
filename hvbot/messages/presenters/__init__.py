"""How each game is shown in Discord: its wording, its pictures and its private prompts.

The turn (`hvbot.handlers`, `hvbot.messages.game_posts`) is the same for every game; everything that
depends on a game's rules or vocabulary lives in one presenter per game, named by the game's
manifest (see `hvbot.plugins`) and found by the engine's game name.
"""

from __future__ import annotations

from engine.registry import find_game
from hvbot.messages.presenters.base import Presenter, presenter_for
from hvbot.plugins import plugins

__all__ = ["Presenter", "playable_games", "presenter_for", "warm_up"]


def playable_games() -> list[str]:
    """The games that can be played in Discord: every registered game (see `hvbot.plugins`)."""
    return [p.name for p in plugins()]


# The games whose pictures this process has drawn once: their pieces stay cached for the life
# of the process, so a bot started again in it (or a second one) has nothing left to warm up.
_warm: set[str] = set()


def warm_up() -> None:
    """Draw one board of every game, so the first board players see is as quick as the rest
    (each renderer builds its picture pieces on first use). Run where pictures are drawn;
    a game already drawn in this process is not drawn again."""
    for name in playable_games():
        if name in _warm:
            continue
        rules = find_game(name)
        view = rules.new_state(rules.min_seats, 0).view(None)
        presenter_for(name).board_png(view, [f"Seat {i + 1}" for i in range(rules.min_seats)])
        _warm.add(name)
