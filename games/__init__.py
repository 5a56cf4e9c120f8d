"""Every game the project plays, each described by one manifest and registered in one place.

A game is one folder, `games/<game>/`: its rules (`rules/`, pure Python), its AI levels
(`ai/`), its pictures (`pictures/`, Pillow), its Discord wording and prompts (`presenter.py`),
its slash commands (`commands.py`, a discord.py extension), and its data and texts (JSON files,
`locales/<language>.toml`, `rules.md`). Its `__init__.py` holds its manifest (`PLUGIN`, a
`GamePlugin` naming those parts), and registering it is the one line that makes the game exist
for the bot, the command line (`python -m games`), the AI seats, the benchmarks and the
replays:

    register(GamePlugin(name="tic-tac-toe", rules="mygames.tictactoe", ...))

This package sits above the engine, the pictures and the bot's shared machinery: a game's
rules and AI use the engine, its pictures `render`, its presenter and commands the bot
(`hvbot`). The bot finds a game's parts through the manifest's module names alone, never by
importing a game's modules itself.
"""

from __future__ import annotations

from data.texts import add_game_texts
from engine.ai import register_provider
from engine.registry import all_games, find_game, register_game
from games.plugin import GamePlugin

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
from games import high_voltage, pylons, sector6  # noqa: E402  (their manifests need the above)

register(high_voltage.PLUGIN)
register(pylons.PLUGIN)
register(sector6.PLUGIN)

__all__ = ["GamePlugin", "all_games", "find_game", "plugin", "plugins", "register"]
