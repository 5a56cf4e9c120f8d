"""Every game the project plays, each described by one manifest, registered by one call.

A game is one folder, `games/<game>/`: its rules (`rules/`, pure Python), its AI levels
(`ai/`), its pictures (`pictures/`, Pillow), its Discord wording and prompts (`presenter.py`),
its slash commands (`commands.py`, whose `setup` adds its cog), and its data and texts (JSON files,
`locales/<language>.toml`, `rules.md`). Its `__init__.py` holds its manifest (`PLUGIN`, a
`hvbot.plugins.GamePlugin` naming those parts), and registering it is the one line that makes
the game exist for the bot, the command line (`python -m games`), the AI seats, the benchmarks
and the replays:

    register(GamePlugin(name="tic-tac-toe", rules="mygames.tictactoe", ...))

Importing this package registers nothing: `register_all()` does, for the games the bot plays,
and is called by whoever runs them (`bot.py`, `python -m games`, the tests' conftest, the
benchmarks); a worker process is handed the registered manifests by the bot that starts it
(see `hvbot.plugins.in_a_worker`).

This package sits above the engine, the pictures and the bot's plugin API: a game's rules and
AI use the engine, its pictures `render`, its presenter and commands the game-facing part of
the bot (listed in `hvbot.plugins`). The bot finds a game's parts through the manifest's module
names alone, never by importing a game's modules itself.
"""

from __future__ import annotations

from engine.registry import all_games, find_game
from games import high_voltage, pylons, sector6
from hvbot.plugins import GamePlugin, plugin, plugins, register

# The games the bot plays: their manifests, which import nothing of the games' own parts.
BUILT_IN = (high_voltage.PLUGIN, pylons.PLUGIN, sector6.PLUGIN)


def register_all() -> None:
    """Register the games the bot plays, one line each; once only, however often called."""
    for manifest in BUILT_IN:
        if manifest not in plugins():
            register(manifest)


__all__ = [
    "BUILT_IN",
    "GamePlugin",
    "all_games",
    "find_game",
    "plugin",
    "plugins",
    "register",
    "register_all",
]
