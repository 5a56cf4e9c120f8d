"""Tic-tac-toe, a fourth game that only the tests play: everything of it sits in this folder
(rules, AI levels, presenter, slash commands, texts in four languages, rules summary), and one
line registers it (`hvbot.plugins.register(PLUGIN)`, in the tests' conftest). It shows that a
new game needs nothing of the bot but its manifest and the bot's game-facing modules, and every
test that goes over the registered games covers it too."""

from __future__ import annotations

from hvbot.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="tic-tac-toe",
    rules="tictactoe.rules",
    ai="tictactoe.ai",
    presenter="tictactoe.presenter:TicTacToePresenter",
    commands="tictactoe.commands",
    texts="tictactoe",
)

__all__ = ["PLUGIN"]
