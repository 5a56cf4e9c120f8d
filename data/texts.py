"""Every word the bot says, in English, Italian, French and German: the languages of the
rulebooks.

The texts are data (`data/locales/<language>.toml`, one file per language) so that a player who
speaks the language can correct a sentence without reading code. A key is a dotted path into the
file ("lobby.waiting"); its text is a `str.format` template whose fields are named
("{player} placed a pylon on {cell}"). A text that depends on a number is a table of plural
forms (`one`, `other`) chosen by the `count` field with each language's rule.

Which language to use is the caller's decision: a reply to one person follows their Discord
client (`interaction.locale`), a public post the server's preferred locale, a direct message the
language the person last used with the bot. Any locale the bot does not speak falls back to
English, as does any key a translation lacks (a test keeps the four files complete, so that
fallback is only a safety net).

Hidden information never passes through here by itself: the texts are templates, and the
callers decide what fills them.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any, Protocol

from data import DataError, load_text

LANGUAGES = ("en", "it", "fr", "de")
DEFAULT = "en"
PLURAL_FORMS = frozenset({"one", "other"})
_FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def language_of(locale: object | None) -> str:
    """The language the bot speaks for a Discord locale ("it", "en-GB", discord.Locale.french),
    English for any other."""
    if locale is None:
        return DEFAULT
    value = getattr(locale, "value", locale)
    code = str(value).lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT


def _is_one(language: str, count: int) -> bool:
    """Which plural form a count takes: French counts 0 with 1 ("0 ligne"), the others do not."""
    if language == "fr":
        return count in (0, 1)
    return count == 1


def _flatten(table: Mapping[str, Any], prefix: str, path: str) -> Iterator[tuple[str, Any]]:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            yield key, value
        elif isinstance(value, dict) and value and set(value) <= PLURAL_FORMS:
            if set(value) != PLURAL_FORMS or not all(isinstance(v, str) for v in value.values()):
                raise DataError(path, f"{key}: a plural text needs both 'one' and 'other' texts")
            yield key, dict(value)
        elif isinstance(value, dict):
            yield from _flatten(value, key + ".", path)
        else:
            raise DataError(path, f"{key}: a text must be a string, found {type(value).__name__}")


@functools.cache
def catalogue(language: str) -> dict[str, str | dict[str, str]]:
    """Every text of one language by dotted key (plural texts as {'one': ..., 'other': ...})."""
    if language not in LANGUAGES:
        raise ValueError(f"no texts for language {language!r}; the bot speaks {LANGUAGES}")
    path = f"locales/{language}.toml"
    try:
        raw = resources.files("data").joinpath(path).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise DataError(path, f"cannot be read ({exc.__class__.__name__})") from exc
    try:
        doc = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(path, f"is not valid TOML ({exc})") from exc
    return dict(_flatten(doc, "", path))


@functools.cache
def long_text(path: str, language: str) -> str:
    """A long text (a game's rules) in a language: `data/<dir>/<name>.<language>.md` beside the
    English `<name>.md`, which is used when no translation exists."""
    stem, dot, suffix = path.rpartition(".")
    if language != DEFAULT:
        translated = f"{stem}.{language}{dot}{suffix}"
        if resources.files("data").joinpath(translated).is_file():
            return load_text(translated)
    return load_text(path)


def fields_of(template: str | dict[str, str]) -> set[str]:
    """The named fields a text fills in (for the test that all languages agree on them)."""
    forms = template.values() if isinstance(template, dict) else [template]
    return {match.group(1) for form in forms for match in _FIELD.finditer(form)}


class Explained(Protocol):
    """An error that can be said in any language: a key into the texts and its fields.

    `engine.errors.GameError` and `hvbot.service.BotError` carry these; their `str()` stays the
    English text, for logs and for callers that have no language at hand."""

    key: str | None
    fields: Mapping[str, Any]


class Texts:
    """The texts of one language, called like a function: `texts("lobby.waiting", seats=2)`."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._own = catalogue(language)
        self._english = catalogue(DEFAULT)

    def __repr__(self) -> str:
        return f"Texts({self.language!r})"

    def template(self, key: str) -> str | dict[str, str]:
        """The raw text of a key; a key missing from English is a bug and raises KeyError."""
        found = self._own.get(key)
        if found is None:
            found = self._english[key]
        return found

    def __call__(self, key: str, /, **fields: Any) -> str:
        template = self.template(key)
        if isinstance(template, dict):
            if "count" not in fields:
                raise KeyError(f"{key} is a plural text: pass count=")
            form = "one" if _is_one(self.language, int(fields["count"])) else "other"
            template = template[form]
        return template.format_map({name: self._said(value) for name, value in fields.items()})

    def _said(self, value: Any) -> Any:
        """A field that is a text itself (a part of a refusal with its own key and fields, such
        as a compass side) is said in this language too; any other value is filled in as it is."""
        key = getattr(value, "key", None)
        if isinstance(key, str) and key in self._english:
            return self(key, **dict(getattr(value, "fields", {}) or {}))
        return value

    def has(self, key: str) -> bool:
        return key in self._english

    def explain(self, error: BaseException) -> str:
        """An error's message in this language: from its key when it has one, else its text."""
        key = getattr(error, "key", None)
        if key and self.has(key):
            return self(key, **dict(getattr(error, "fields", {}) or {}))
        return str(error)


def texts_for(locale: object | None = None) -> Texts:
    """The texts for a Discord locale or a language code (English for anything unknown)."""
    return _texts(language_of(locale))


@functools.cache
def _texts(language: str) -> Texts:
    return Texts(language)


ENGLISH = texts_for(DEFAULT)
