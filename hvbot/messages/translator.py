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

import functools
import hashlib
import inspect
import json
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


# The translated commands a sync sent, by the commands as the code defines them (their English
# payload): a process that starts its bot again (the tests do, hundreds of times) gives Discord
# the same translations without asking the translator again for each of thirty-odd locales.
# An entry keeps the catalogues it was translated from, and is used only with those same ones.
_TRANSLATED: dict[tuple[type, str], tuple[tuple[object, ...], list[dict[str, Any]]]] = {}


# `Tree.sync` repeats the lines of discord.py's own sync after the payload is built; it does so
# only while discord.py's sync is the one those lines were taken from (this digest of its
# source), and otherwise leaves the sync to discord.py, translating at every start as before.
_KNOWN_SYNC = "2280350af081940b"


@functools.cache
def _sync_is_known() -> bool:
    try:
        source = inspect.getsource(app_commands.CommandTree.sync)
    except (OSError, TypeError):  # no source to compare (a frozen or stripped install)
        return False
    return hashlib.sha256(source.encode()).hexdigest()[:16] == _KNOWN_SYNC


def _catalogues() -> tuple[object, ...]:
    return tuple(catalogue(language) for language in sorted(set(SPOKEN.values())))


class Tree(app_commands.CommandTree[Any]):
    """discord.py's command tree, whose sync translates the commands once per process."""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        """As `CommandTree.sync`, with the translated payload built once for the same commands
        and texts (the lines after building it are discord.py 2.7's own)."""
        if not _sync_is_known():
            return await super().sync(guild=guild)
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        commands = self._get_all_commands(guild=guild)
        translator = self.translator
        if translator is None:
            payload = [command.to_dict(self) for command in commands]
        else:
            english = json.dumps([command.to_dict(self) for command in commands], sort_keys=True)
            texts = _catalogues()
            known = _TRANSLATED.get((type(translator), english))
            if known is not None and all(a is b for a, b in zip(known[0], texts, strict=True)):
                payload = known[1]
            else:
                payload = [
                    await command.get_translated_payload(self, translator) for command in commands
                ]
                _TRANSLATED[type(translator), english] = (texts, payload)
        try:
            if guild is None:
                data = await self._http.bulk_upsert_global_commands(
                    self.client.application_id, payload=payload
                )
            else:
                data = await self._http.bulk_upsert_guild_commands(
                    self.client.application_id, guild.id, payload=payload
                )
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]
