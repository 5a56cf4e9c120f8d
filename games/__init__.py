"""Every game the project plays, each described by one manifest and registered in one place.

A game is its own folders: its rules in `engine/<game>/` (with its AI levels), its pictures in
`render/`, its Discord wording and prompts (a presenter) and its slash commands (a discord.py
extension) in `hvbot/`, its texts in `data/<game>/locales/<language>.toml`. The manifest names
them, and registering it is the one line that makes the game exist for the bot, the CLI, the AI
seats, the benchmarks and the replays:

    register(GamePlugin(name="tic-tac-toe", rules="mygames.tictactoe", ...))

The manifest holds module names, not modules: the rules and the texts are loaded when the game
is registered, while the Discord parts are imported by the bot alone (so the engine's CLI and
the benchmarks never import discord.py). This module sits between the engine and the bot: it
imports the engine and the texts, and the bot imports it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from data.texts import add_game_texts
from engine.ai import register_provider
from engine.core import Game
from engine.registry import all_games, find_game, register_game


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


_PLUGINS: dict[str, GamePlugin] = {}


def register(plugin: GamePlugin) -> GamePlugin:
    """Make a game exist: its rules findable by name, its AI levels and its texts known."""
    if plugin.name in _PLUGINS:
        raise ValueError(f"A game named {plugin.name!r} is registered already.")
    register_game(plugin.load_rules())
    register_provider(plugin.name, plugin.ai)
    add_game_texts(plugin.texts)
    _PLUGINS[plugin.name] = plugin
    return plugin


def plugin(name: str) -> GamePlugin:
    """The manifest of a registered game, by its engine name or any alias."""
    return _PLUGINS[find_game(name).name]


def plugins() -> list[GamePlugin]:
    """Every registered game's manifest, in the order registered."""
    return list(_PLUGINS.values())


# The games the bot plays: one line each.
register(
    GamePlugin(
        name="high-voltage",
        rules="engine.high_voltage",
        ai="engine.high_voltage.ai",
        presenter="hvbot.messages.presenters.high_voltage:HighVoltagePresenter",
        commands="hvbot.cogs.high_voltage",
        texts="data.high_voltage",
    )
)
register(
    GamePlugin(
        name="pylons",
        rules="engine.pylons",
        ai="engine.pylons.ai",
        presenter="hvbot.messages.presenters.pylons:PylonsPresenter",
        commands="hvbot.cogs.pylons",
        texts="data.pylons",
    )
)
register(
    GamePlugin(
        name="sector6",
        rules="engine.sector6",
        ai="engine.sector6.ai",
        presenter="hvbot.messages.presenters.sector6:Sector6Presenter",
        commands="hvbot.cogs.sector6",
        texts="data.sector6",
    )
)

__all__ = ["GamePlugin", "all_games", "find_game", "plugin", "plugins", "register"]
