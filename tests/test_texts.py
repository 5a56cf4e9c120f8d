"""The four language files: complete, consistent in their fields, and chosen by locale."""

from __future__ import annotations

import discord
import pytest

from data import DataError
from data.texts import (
    DEFAULT,
    LANGUAGES,
    Texts,
    _flatten,
    catalogue,
    fields_of,
    language_of,
    long_text,
    texts_for,
)
from engine.errors import IllegalActionError

ENGLISH_KEYS = set(catalogue(DEFAULT))


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != DEFAULT])
def test_every_key_exists_in_every_language(language: str) -> None:
    keys = set(catalogue(language))
    assert sorted(ENGLISH_KEYS - keys) == [], f"{language}.toml lacks these keys"
    assert sorted(keys - ENGLISH_KEYS) == [], f"{language}.toml has keys English lacks"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != DEFAULT])
def test_translations_fill_the_same_fields(language: str) -> None:
    english, other = catalogue(DEFAULT), catalogue(language)
    differ = {
        key: (fields_of(english[key]), fields_of(other[key]))
        for key in ENGLISH_KEYS & set(other)
        if fields_of(english[key]) != fields_of(other[key])
        or isinstance(english[key], dict) != isinstance(other[key], dict)
    }
    assert differ == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_formats_with_its_own_fields(language: str) -> None:
    texts = texts_for(language)
    for key, template in catalogue(language).items():
        fields = {name: "x" for name in fields_of(template)}
        if isinstance(template, dict):
            fields["count"] = 2
        assert isinstance(texts(key, **fields), str)


def test_translations_are_not_left_in_english() -> None:
    """A text identical in all four languages is a forgotten translation, unless it is a word
    the languages share (a name, a symbol); at most a few of those are expected."""
    same = [
        key
        for key in ENGLISH_KEYS
        if all(catalogue(lang).get(key) == catalogue(DEFAULT)[key] for lang in LANGUAGES)
    ]
    assert len(same) <= max(10, len(ENGLISH_KEYS) // 20), same


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("it", "it"),
        ("fr", "fr"),
        ("de", "de"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("es-ES", "en"),
        ("pt-BR", "en"),
        (None, "en"),
        (discord.Locale.italian, "it"),
        (discord.Locale.french, "fr"),
        (discord.Locale.german, "de"),
        (discord.Locale.japanese, "en"),
    ],
)
def test_language_follows_the_locale_and_defaults_to_english(locale, language) -> None:
    assert language_of(locale) == language
    assert texts_for(locale).language == language


def test_plural_forms_follow_each_language() -> None:
    plural = {"one": "{count} line", "other": "{count} lines"}
    texts = Texts("fr")
    texts._own = {"lines": {"one": "{count} ligne", "other": "{count} lignes"}}
    texts._english = {"lines": plural}
    assert texts("lines", count=0) == "0 ligne"
    assert texts("lines", count=2) == "2 lignes"
    english = Texts("en")
    english._own = english._english = {"lines": plural}
    assert english("lines", count=0) == "0 lines"
    assert english("lines", count=1) == "1 line"
    with pytest.raises(KeyError):
        english("lines")


def test_a_missing_translation_falls_back_to_english_and_an_unknown_key_fails() -> None:
    texts = Texts("de")
    texts._own = {}
    assert texts("bot.apology") == catalogue(DEFAULT)["bot.apology"]
    with pytest.raises(KeyError):
        texts("no.such.key")


def test_a_malformed_file_is_reported_with_its_key() -> None:
    with pytest.raises(DataError, match="lines: a plural text"):
        list(_flatten({"lines": {"one": "a line"}}, "", "locales/xx.toml"))
    with pytest.raises(DataError, match="count: a text must be a string"):
        list(_flatten({"count": 3}, "", "locales/xx.toml"))


def test_errors_are_explained_in_the_language_of_their_key() -> None:
    keyed = IllegalActionError("Sorry, broken.", key="bot.apology")
    assert texts_for("it").explain(keyed) == catalogue("it")["bot.apology"]
    assert texts_for("en").explain(keyed) == catalogue("en")["bot.apology"]
    assert texts_for("it").explain(IllegalActionError("No key here.")) == "No key here."


def test_long_texts_fall_back_to_english() -> None:
    english = long_text("pylons/rules.md", "en")
    assert english
    assert long_text("pylons/rules.md", "xx") == english
