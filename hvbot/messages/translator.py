"""Slash commands in the players' languages: names and descriptions of every command group,
command, option and choice, given to Discord when the commands are synced.

The code's own strings are the English ones; every other language's text lives under
`[commands]` in its locale files (a game's commands in the game's own, see `data.texts`), found
by where the string sits in the command tree:
`commands.<group>.name` and `.description` for a group, `commands.<group>.<command>.name` and
`.description` for a command, `commands.<group>.<command>.<option>.name` and `.description`
for an option (by the name players see, so `/s6 move from` is `commands.s6.move.from`).
Choices say their key themselves (`choice(...)`), since discord.py tells the translator only
the choice, not the option it belongs to. English keeps the code's strings, so Discord shows
them to every locale the bot does not speak.

A string may carry fields (`locale_str("{games} only: ...", games="Sector 6")`), filled into
the translation like any text's fields.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from data.texts import DEFAULT, catalogue, language_of

# Extras of a locale_str that are not fields of its text.
KEY = "key"


def choice(name: str, value: Any, *, key: str) -> app_commands.Choice[Any]:
    """A choice whose name Discord shows in each language: `key` names its texts."""
    return app_commands.Choice(name=app_commands.locale_str(name, key=key), value=value)


def key_of(string: app_commands.locale_str, context: app_commands.TranslationContext) -> str | None:
    """The dotted key of a command string in the locale files, or None for a string the bot
    leaves as it is (a choice without a key, say: a game's title)."""
    given = string.extras.get(KEY)
    if given:
        return str(given)
    location, data = context.location, context.data
    if location in (Where.group_name, Where.group_description):
        part = "name" if location is Where.group_name else "description"
        return f"commands.{data.qualified_name.replace(' ', '.')}.{part}"
    if location in (Where.command_name, Where.command_description):
        part = "name" if location is Where.command_name else "description"
        return f"commands.{data.qualified_name.replace(' ', '.')}.{part}"
    if location in (Where.parameter_name, Where.parameter_description):
        part = "name" if location is Where.parameter_name else "description"
        command = data.command.qualified_name.replace(" ", ".")
        return f"commands.{command}.{data.name}.{part}"
    return None


def fields_of(string: app_commands.locale_str) -> dict[str, Any]:
    return {name: value for name, value in string.extras.items() if name != KEY}


# The Discord locales the bot speaks other than English, by the language it speaks there. A sync
# asks for every string in each of Discord's thirty-odd locales, most of which the bot does not
# speak: those are answered at once.
SPOKEN = {
    locale: language for locale in discord.Locale if (language := language_of(locale)) != DEFAULT
}


class Translator(app_commands.Translator):
    """Gives Discord the Italian, French and German names and descriptions of the commands;
    None (Discord shows the English) for any other locale and for strings without a text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        language = SPOKEN.get(locale)
        return None if language is None else _in_language(string, language, context)

    @staticmethod
    def text(
        string: app_commands.locale_str,
        locale: discord.Locale | str,
        context: app_commands.TranslationContext,
    ) -> str | None:
        """The same answer as `translate`, without the coroutine (for tests and tools)."""
        language = language_of(locale)
        return None if language == DEFAULT else _in_language(string, language, context)


def _in_language(
    string: app_commands.locale_str, language: str, context: app_commands.TranslationContext
) -> str | None:
    """`string` in `language` (one the bot speaks other than English), or None when it has
    no text there."""
    key = key_of(string, context)
    if key is None:
        return None
    template = catalogue(language).get(key)
    if not isinstance(template, str):
        return None
    return template.format_map(fields_of(string))
