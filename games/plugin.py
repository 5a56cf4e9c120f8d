"""The manifest of one game: where its parts live, by module name.

The manifest holds module names, not modules: the rules and the texts are loaded when the game
is registered (see `games`), while the Discord parts are imported by the bot alone (so the
command line and the benchmarks never import discord.py).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.core import Game


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """Where the parts of one game live, by module name."""

    name: str  # the engine's name of the game ("high-voltage"), as games are stored
    rules: str  # module whose GAME is the game's `engine.core.Game`
    ai: str  # module that registers the game's AI levels (`engine.ai.register_agent`)
    presenter: str  # "module:Class": the game's wording, pictures and prompts in Discord
    commands: str  # discord.py extension with the game's slash commands (a `setup(bot)`)
    texts: str  # package holding locales/<language>.toml and the rules texts

    def load_rules(self) -> Game:
        game = importlib.import_module(self.rules).GAME
        if game.name != self.name:
            raise ValueError(f"{self.rules}.GAME is named {game.name!r}, not {self.name!r}.")
        return game

    def presenter_class(self) -> Any:
        """The presenter class (imported on first use: it needs discord.py's side)."""
        module, _, name = self.presenter.partition(":")
        return getattr(importlib.import_module(module), name)


__all__ = ["GamePlugin"]
