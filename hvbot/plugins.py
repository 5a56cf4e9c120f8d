"""The bot's registry of games: what a game hands the bot, and the part of the bot a game uses.

The bot never imports a game. A game exists for it once its manifest (`GamePlugin`, module
names only) is given to `register`, which `bot.py` does for the built-in games (through
`games.register_all`) and the tests' conftest for the tests' own tic-tac-toe. From then on the
bot reaches the game by those names alone: its rules through `engine.registry.find_game`, its
AI levels through `engine.ai`, its texts through `data.texts`, its presenter and its slash
commands by importing the modules the manifest names (`GamePlugin.presenter_class`,
`GamePlugin.commands`).

The game-facing part of the bot, the only modules of `hvbot` a game's folder may import (the
layer test holds every game, and any game the tests add, to this list):

- `hvbot.plugins`: `GamePlugin`, for the game's manifest (its `__init__.py`);
- `hvbot.messages.presenters.base`: `Presenter`, the base of the game's presenter, and the
  helpers it builds on (`View`, `alt_lines`);
- `hvbot.messages.post`: what a presenter hands back (`Post`, `Picture`, `Look`, `Choice`),
  plain data that needs no discord.py in the drawing workers;
- `hvbot.messages.outgoing` (`send_private`), for a command that answers one player alone;
- `hvbot.messages.game_posts`, `hvbot.messages.wording`, `hvbot.messages.translator`
  (`choice`): the posts every game shares, the bot's wording, translated command choices;
- `hvbot.infra.workers`: where a presenter's slow drawing runs (`draw`);
- `hvbot.cogs.moves` (`GameMoves`, `Choices`): the base of the game's slash-command group;
- `hvbot.handlers.moves`, `hvbot.handlers.answering`: applying a move the way every button
  and command does, and answering the interaction;
- `hvbot.runtime.client` (`GameBot`), for type hints only (`setup(bot)` of the commands).

Worker processes start as fresh interpreters, with no game registered: whoever starts them
hands them `in_a_worker()`, which registers there the manifests registered here.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from data.texts import add_game_texts
from engine.ai import register_provider
from engine.core import Game
from engine.registry import find_game, register_game

# The modules of the bot a game's folder may import (see above): the layer test reads it.
GAME_FACING = (
    "hvbot.plugins",
    "hvbot.messages.presenters.base",
    "hvbot.messages.post",
    "hvbot.messages.outgoing",
    "hvbot.messages.game_posts",
    "hvbot.messages.wording",
    "hvbot.messages.translator",
    "hvbot.infra.workers",
    "hvbot.cogs.moves",
    "hvbot.handlers.moves",
    "hvbot.handlers.answering",
    "hvbot.runtime.client",
)


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """Where the parts of one game live, by module name.

    Module names, not modules: the rules, the AI levels and the texts are loaded when the game
    is registered, while the Discord parts are imported by the bot alone (so the command line
    and the benchmarks never import discord.py)."""

    name: str  # the engine's name of the game ("high-voltage"), as games are stored
    rules: str  # module whose GAME is the game's `engine.core.Game`
    ai: str  # module that registers the game's AI levels (`engine.ai.register_agent`)
    presenter: str  # "module:Class": the game's wording, pictures and prompts in Discord
    commands: str  # module of the game's slash commands; its `setup(bot)` adds their cog
    texts: str  # package holding locales/<language>.toml and the rules texts
    # Rated separately at each table size (two, three, four players): only for a game whose
    # balance depends on how many play, so that a rating means the same at every size
    # (otherwise one rating per game: splitting it would need more games before any settles).
    rated_by_player_count: bool = False
    # Whether it can be played where the bot only answers interactions (a DM or a group DM
    # through a person's own installation): every secret a player must see then reaches
    # them privately, and a turn fits in the answers Discord allows one interaction.
    in_private_channels: bool = True

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


def rated_by_player_count(name: str) -> bool:
    """Whether a game is rated per table size (see `GamePlugin`); False for a game not
    registered here."""
    found = _PLUGINS.get(name)
    return found is not None and found.rated_by_player_count


def in_private_channels(name: str) -> bool:
    """Whether a game can be played in a DM or a group DM (see `GamePlugin`); True for a
    game not registered here (the tests' own)."""
    found = _PLUGINS.get(name)
    return found is None or found.in_private_channels


def private_channel_games() -> list[str]:
    """The engine names of the registered games that can be played in a DM or a group DM."""
    return [p.name for p in _PLUGINS.values() if p.in_private_channels]


def plugins() -> list[GamePlugin]:
    """Every registered game's manifest, in the order registered."""
    return list(_PLUGINS.values())


def register_missing(known: tuple[GamePlugin, ...]) -> None:
    """Register those of `known` not registered here yet (in a worker process: all of them)."""
    for each in known:
        if each.name not in _PLUGINS:
            register(each)


def in_a_worker() -> Callable[[], None]:
    """What a worker process runs first to know the games this process has registered: a
    call that pickles as the manifests (module names), handed to `hvbot.infra.workers.Workers`
    by whoever starts the workers, so the workers themselves know nothing of games."""
    return functools.partial(register_missing, tuple(_PLUGINS.values()))


def worker_modules() -> tuple[str, ...]:
    """The modules of the games registered here that a worker process's work imports: their
    rules and AI levels (`in_a_worker` registers them) and their presenters (which draw), for
    `hvbot.infra.workers.Workers`'s `preload`."""
    return tuple(
        module
        for each in _PLUGINS.values()
        for module in (each.rules, each.ai, each.presenter.partition(":")[0])
    )


__all__ = [
    "GAME_FACING",
    "GamePlugin",
    "in_a_worker",
    "in_private_channels",
    "plugin",
    "plugins",
    "private_channel_games",
    "register",
    "register_missing",
    "worker_modules",
]
