"""The fixed choices of the bot's command options, shared by the command groups: Discord's
choices are fixed per command when the commands are registered, so they are built once from
the registered games (see `games`)."""

from __future__ import annotations

from discord import app_commands

from games import all_games
from hvbot.messages.presenters import presenter_for
from hvbot.messages.translator import choice
from hvbot.services import AI_LEVELS

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.name) for g in all_games()]
LEVEL_CHOICES = [choice(level, level, key=f"commands.choices.level.{level}") for level in AI_LEVELS]
# Every game's modes, for /game new (Discord's choices are fixed per command).
_MODES = {value: label for g in all_games() for value, label in presenter_for(g.name).modes.items()}
MODE_CHOICES = [
    choice(label, value, key=f"commands.choices.mode.{value}") for value, label in _MODES.items()
]
GAMES_WITH_MODES = ", ".join(g.title for g in all_games() if presenter_for(g.name).modes)
