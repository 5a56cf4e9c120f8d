"""Discord's rules for application command definitions beyond the schema's lengths: unique
names (in every language), valid lower-case names, descriptions present, required options
before optional ones, no autocomplete together with fixed choices, and localisations only for
the languages Discord knows. Plain functions from a definition to its `Violation`s.
"""

from __future__ import annotations

import re
from typing import Any

from ..openapi import Violation

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# The locales Discord accepts in name_localizations and description_localizations.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def check_commands(commands: list[dict[str, Any]]) -> list[Violation]:
    """Rules Discord applies to command definitions beyond the schema's lengths."""
    out: list[Violation] = []
    names = [c.get("name") for c in commands]
    out += _check_unique_localized(commands, ())
    for index, command in enumerate(commands):
        path = (str(index),)
        name = command.get("name") or ""
        if names.count(name) > 1:
            out.append(
                Violation(
                    (*path, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {name}",
                )
            )
        out += _check_command_options(command.get("options") or [], path, top=command)
        out += _check_localizations(command, path)
        if command.get("type", 1) in (None, 1) and not command.get("description"):
            out.append(
                Violation((*path, "description"), "BASE_TYPE_REQUIRED", "This field is required")
            )
    return out


def _check_command_options(
    options: list[dict[str, Any]], path: tuple[str, ...], *, top: dict[str, Any]
) -> list[Violation]:
    out: list[Violation] = []
    name = top.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        out.append(
            Violation(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    seen_optional = False
    out += _check_unique_localized(options, (*path, "options"))
    for index, option in enumerate(options):
        here = (*path, "options", str(index))
        out += _check_localizations(option, here)
        for number, choice in enumerate(option.get("choices") or []):
            out += _check_localizations(choice, (*here, "choices", str(number)), choice=True)
        if not option.get("description"):
            out.append(
                Violation((*here, "description"), "BASE_TYPE_REQUIRED", "This field is required")
            )
        if option.get("type") in (1, 2):
            out += _check_command_options(option.get("options") or [], here, top=option)
            continue
        if (
            not COMMAND_NAME.match(option.get("name") or "")
            or option["name"] != option["name"].lower()
        ):
            out.append(
                Violation(
                    (*here, "name"),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Option name is invalid: {option.get('name')!r}",
                )
            )
        if option.get("required"):
            if seen_optional:
                out.append(
                    Violation(
                        (*path, "options"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        if option.get("autocomplete") and option.get("choices"):
            out.append(
                Violation(
                    (*here, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set with choices",
                )
            )
    return out


def _check_localizations(
    node: dict[str, Any], path: tuple[str, ...], *, choice: bool = False
) -> list[Violation]:
    """A command's, option's or choice's names and descriptions in other languages: known
    locales, names by the same rules as the default name (a choice's: 1-100 characters),
    descriptions of 1-100 characters."""
    out: list[Violation] = []
    names = node.get("name_localizations") or {}
    descriptions = node.get("description_localizations") or {}
    for field, table in (
        ("name_localizations", names),
        ("description_localizations", descriptions),
    ):
        for locale, text in table.items():
            here = (*path, field, locale)
            if locale not in LOCALES:
                out.append(Violation(here, "LOCALE_INVALID", f"Invalid locale: {locale!r}"))
            if not isinstance(text, str):
                out.append(Violation(here, "BASE_TYPE_STRING", "Must be a string"))
                continue
            if field == "description_localizations" or choice:
                if not 1 <= len(text) <= 100:
                    out.append(
                        Violation(
                            here, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length"
                        )
                    )
            elif not COMMAND_NAME.match(text) or text != text.lower():
                out.append(
                    Violation(
                        here,
                        "APPLICATION_COMMAND_INVALID_NAME",
                        f"Localized name is invalid: {text!r}",
                    )
                )
    return out


def _check_unique_localized(
    siblings: list[dict[str, Any]], path: tuple[str, ...]
) -> list[Violation]:
    """Names must stay unique among siblings in every language (a localised name counts, and
    a missing one falls back to the default name)."""
    out: list[Violation] = []
    locales = {loc for node in siblings for loc in (node.get("name_localizations") or {})}
    for locale in sorted(locales):
        seen: set[str] = set()
        for node in siblings:
            name = (node.get("name_localizations") or {}).get(locale) or node.get("name") or ""
            if name in seen:
                out.append(
                    Violation(
                        (*path, "name_localizations", locale),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique in {locale}: {name}",
                    )
                )
            seen.add(name)
    return out
