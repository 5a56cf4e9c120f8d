"""Slash commands in Italian, French and German: every group, command, option and choice has
a name and description Discord accepts in each language, and the texts are found by the keys
the translator derives from the command tree."""

from __future__ import annotations

import importlib
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from data.texts import catalogue
from games import plugins
from hvbot.infra.config import Settings
from hvbot.messages.translator import Translator, key_of
from hvbot.runtime.client import GameBot

LOCALES = {"it": discord.Locale.italian, "fr": discord.Locale.french, "de": discord.Locale.german}
NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's ^[-_\p{L}\p{N}]{1,32}$, lowercase


@pytest.fixture
async def payloads() -> AsyncIterator[list[dict[str, Any]]]:
    """The commands as the bot syncs them, translated (no connection to Discord needed)."""
    from hvbot.cogs.game import GameCog
    from hvbot.cogs.stats import StatsCog
    from hvbot.cogs.tournament import TournamentCog

    bot = GameBot(
        Settings(
            token="unused", database_url="sqlite:///unused.sqlite3", guild_id=None, log_level="INFO"
        )
    )
    for cog in (GameCog, StatsCog, TournamentCog):
        await bot.add_cog(cog(bot))
    for game in plugins():  # every registered game's own commands, as the bot sets them up
        await importlib.import_module(game.commands).setup(bot)
    translator = Translator()
    yield [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    await bot.close()


def walk(nodes: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    for node in nodes:
        here = f"{path} {node['name']}".strip()
        yield here, node
        yield from walk(node.get("options") or [], here)


def choices(nodes: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, node in walk(nodes):
        for choice in node.get("choices") or []:
            yield f"{path}={choice['value']}", choice


async def test_every_command_and_option_has_a_valid_name_and_description_in_each_language(
    payloads: list[dict[str, Any]],
) -> None:
    problems = []
    for path, node in walk(payloads):
        for language, locale in LOCALES.items():
            name = (node.get("name_localizations") or {}).get(locale.value)
            description = (node.get("description_localizations") or {}).get(locale.value)
            if name is None or not NAME.match(name) or name != name.lower():
                problems.append(f"{path} [{language}] name {name!r}")
            if description is None or not 1 <= len(description) <= 100:
                problems.append(f"{path} [{language}] description {description!r}")
    assert problems == []


async def test_localised_names_are_unique_within_their_group(
    payloads: list[dict[str, Any]],
) -> None:
    def check(siblings: list[dict[str, Any]], where: str) -> list[str]:
        clashes = []
        for locale in LOCALES.values():
            names = [(n.get("name_localizations") or {}).get(locale.value) for n in siblings]
            if len(names) != len(set(names)):
                clashes.append(f"{where} [{locale.value}]: {sorted(map(str, names))}")
        for node in siblings:
            clashes += check(node.get("options") or [], f"{where} {node['name']}")
        return clashes

    assert check(payloads, "/") == []


async def test_every_choice_has_a_name_in_each_language_except_names_and_numbers(
    payloads: list[dict[str, Any]],
) -> None:
    """Game titles and degrees read the same in every language and are left as they are."""
    untranslated = []
    for path, choice in choices(payloads):
        local = choice.get("name_localizations") or {}
        if " game=" in path or (path.startswith("hv ") and "rotation" in path):
            continue
        for locale in LOCALES.values():
            text = local.get(locale.value)
            if text is None or not 1 <= len(text) <= 100:
                untranslated.append(f"{path} [{locale.value}] {text!r}")
    assert untranslated == []


async def test_the_english_texts_are_the_code_s_own_strings() -> None:
    """The keys the translator derives point at the right texts: each English text is exactly
    the string the code gives Discord as the default."""

    class English(app_commands.Translator):
        def __init__(self) -> None:
            self.found: dict[str, str] = {}

        async def translate(self, string, locale, context):  # type: ignore[no-untyped-def]
            key = key_of(string, context)
            if key is not None and locale is discord.Locale.italian:
                template = catalogue("en")[key]
                assert isinstance(template, str)
                fields = {k: v for k, v in string.extras.items() if k != "key"}
                self.found[key] = template.format_map(fields)
                assert self.found[key] == string.message, key
            return None

    from hvbot.cogs.game import GameCog
    from hvbot.cogs.stats import StatsCog
    from hvbot.cogs.tournament import TournamentCog

    bot = GameBot(
        Settings(
            token="unused", database_url="sqlite:///unused.sqlite3", guild_id=None, log_level="INFO"
        )
    )
    for cog in (GameCog, StatsCog, TournamentCog):
        await bot.add_cog(cog(bot))
    for game in plugins():  # every registered game's own commands, as the bot sets them up
        await importlib.import_module(game.commands).setup(bot)
    english = English()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, english)
    assert "commands.game.new.name" in english.found
    assert "commands.choices.level.easy" in english.found
    assert "commands.s6.move.origin.name" in english.found
    assert "commands.tournament.new.title.name" in english.found
    assert "commands.choices.tournament_table.3_4" in english.found
    await bot.close()


@pytest.mark.parametrize("locale", ["en-US", "en-GB", "es-ES", "ja"])
def test_locales_the_bot_does_not_speak_get_the_default_names(locale: str) -> None:
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    string = app_commands.locale_str("easy", key="commands.choices.level.easy")
    assert Translator.text(string, locale, context) is None
    assert Translator.text(string, "it", context) == "facile"
    assert Translator.text(string, discord.Locale.german, context) == "leicht"


def test_a_string_without_a_text_is_left_alone() -> None:
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert Translator.text(app_commands.locale_str("Sector 6"), "fr", context) is None
    fields = app_commands.locale_str("x", key="commands.game.new.mode.description", games="S")
    assert (
        Translator.text(fields, "fr", context) == "S uniquement : quelle part des règles utiliser"
    )
