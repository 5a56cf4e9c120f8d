"""Pylons, all of it in this folder: its rules (`rules/`), AI levels and reference opponent
(`ai/`), pictures (`pictures/`), Discord presenter and slash commands, texts in four
languages (`locales/`) and rules summary (`rules*.md`). `PLUGIN` is its manifest, registered
by `games.register_all`."""

from __future__ import annotations

from hvbot.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="pylons",
    rules="games.pylons.rules",
    ai="games.pylons.ai",
    presenter="games.pylons.presenter:PylonsPresenter",
    commands="games.pylons.commands",
    texts="games.pylons",
    # Always two players: there is only one table size to rate.
    rated_by_player_count=False,
)

__all__ = ["PLUGIN"]
