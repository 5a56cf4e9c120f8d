"""The fixed choices of the bot's command options, shared by the command groups: Discord's
choices are fixed per command when the commands are registered, so they are built once from
the registered games (see `hvbot.plugins`)."""

from __future__ import annotations

from discord import app_commands

from engine.registry import all_games
from hvbot.messages.presenters import presenter_for
from hvbot.messages.translator import choice
from hvbot.services import AI_LEVELS, CLOCK_LENGTHS
from hvbot.services.notify import EVERY_CHOICES
from hvbot.store import REMIND_WHERE

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.name) for g in all_games()]
LEVEL_CHOICES = [choice(level, level, key=f"commands.choices.level.{level}") for level in AI_LEVELS]
# A turn clock's length, in minutes per move (0: no clock, whatever the server's default),
# and what happens at its end.
CLOCK_CHOICES = [
    choice(name, minutes, key=f"commands.choices.clock.{minutes}")
    for minutes, name in {0: "no clock", **CLOCK_LENGTHS}.items()
]
# The languages a server may choose for its public posts.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano"}
LANGUAGE_CHOICES = [
    choice(name, code, key=f"commands.choices.language.{code}")
    for code, name in LANGUAGE_NAMES.items()
]
# How long a server's seasons last, for /server settings.
SEASON_CHOICES = [
    choice(name, value, key=f"commands.choices.season.{value}")
    for value, name in (
        ("off", "off: no seasons"),
        ("month", "a calendar month"),
        ("quarter", "a calendar quarter"),
    )
]
# What /server settings can put back to its default.
_FORGET_NAMES = {
    "places": "where games may be opened (anywhere)",
    "opener_role": "who may open games (everyone)",
    "moderator_role": "the moderator role (none)",
    "language": "the language (the server's own)",
    "reminder": "the reminder (10 minutes)",
    "absent": "the absence wait (24 hours)",
    "clock": "the turn clock (none)",
    "most_open": "open games per member (3)",
    "lobby_hours": "a lobby's life (24 hours)",
    "games_per_channel": "games per channel (10)",
}
FORGET_CHOICES = [
    choice(name, value, key=f"commands.choices.forget.{value}")
    for value, name in _FORGET_NAMES.items()
]
TIMEOUT_CHOICES = [
    choice(name, value, key=f"commands.choices.timeout.{value}")
    for value, name in (
        ("ai_move", "an AI plays that move"),
        ("ai_seat", "an AI takes the seat"),
        ("end", "the game ends as a loss for that player"),
    )
]
# Every game's modes, for /game new (Discord's choices are fixed per command).
_MODES = {value: label for g in all_games() for value, label in presenter_for(g.name).modes.items()}
MODE_CHOICES = [
    choice(label, value, key=f"commands.choices.mode.{value}") for value, label in _MODES.items()
]
GAMES_WITH_MODES = ", ".join(g.title for g in all_games() if presenter_for(g.name).modes)
# Where a person's own reminders go, and how often (0: as each game says), for /me notify.
_WHERE_NAMES = {
    "channel": "in the game's channel",
    "dm": "by direct message",
    "both": "both (channel and direct message)",
    "none": "nowhere",
}
WHERE_CHOICES = [
    choice(_WHERE_NAMES[value], value, key=f"commands.choices.where.{value}")
    for value in REMIND_WHERE
]
EVERY_NAMES = {0: "as each game says", 30: "every 30 minutes", 60: "every hour"}
EVERY_NAMES |= {180: "every 3 hours", 480: "every 8 hours", 1440: "every day"}
EVERY_CHOICES_SHOWN = [
    choice(EVERY_NAMES[minutes], minutes, key=f"commands.choices.every.{minutes}")
    for minutes in (0, *EVERY_CHOICES)
]
