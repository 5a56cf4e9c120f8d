"""Sector 6, all of it in this folder: its rules (`rules/`), AI levels (`ai/`), pictures
(`pictures/`), Discord presenter and slash commands, components as data (tiles and their
walls, supplies per player count, oxygen markers, entry points, board size and limits, in the
JSON files), texts in four languages (`locales/`) and rules summary (`rules*.md`). `PLUGIN` is
its manifest, registered by `games.register_all`."""

from __future__ import annotations

from hvbot.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="sector6",
    rules="games.sector6.rules",
    ai="games.sector6.ai",
    presenter="games.sector6.presenter:Sector6Presenter",
    commands="games.sector6.commands",
    texts="games.sector6",
    # One rating whatever the table size: the rules' supply table (14 tiles each for two, 8
    # each for three or four) is there to keep every size the same race for oxygen.
    rated_by_player_count=False,
)

__all__ = ["PLUGIN"]
