"""One list of the games, so the bot, the CLI, AI seats and benchmarks agree on what exists."""

from __future__ import annotations

from engine.core import Game

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def register_game(game: Game) -> Game:
    """Make a game findable by its name, its title and its aliases (case and spaces ignored)."""
    if game.name in _GAMES:
        raise ValueError(f"A game named {game.name!r} is registered already.")
    _GAMES[game.name] = game
    for alias in (game.name, game.title, *game.aliases):
        _ALIASES[_key(alias)] = game.name
    return game


def find_game(name: str) -> Game:
    """The game called `name`; a clear error listing the games when there is none. By its
    own name first: what the bot and its stored games call it, looked up on every post."""
    game = _GAMES.get(name)
    if game is not None:
        return game
    found = _ALIASES.get(_key(name))
    if found is None:
        raise KeyError(f"No game called {name!r}; games: {', '.join(sorted(_GAMES))}.")
    return _GAMES[found]


def all_games() -> list[Game]:
    return list(_GAMES.values())
