"""The language files, the bot's and each game's: complete in the four languages, consistent
in their fields, merged into one catalogue per language, and chosen by locale."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import discord
import pytest
from conftest import commands_mentioned
from same_pictures import same_picture

import data.texts
from data import DataError
from data.texts import (
    DEFAULT,
    ENGLISH,
    LANGUAGES,
    Texts,
    _flatten,
    add_game_texts,
    catalogue,
    fields_of,
    file_name,
    file_texts,
    language_of,
    long_text,
    text_packages,
    texts_for,
)
from engine.errors import IllegalActionError
from games import plugins
from games.high_voltage import pictures as hv_pictures
from games.high_voltage.rules import GAME as HIGH_VOLTAGE

ENGLISH_KEYS = set(catalogue(DEFAULT))
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT]
# Where texts are: the bot's own files, then each registered game's (a test-only game too).
PACKAGES = {"bot": "data", **{game.name: game.texts for game in plugins()}}


def missing_keys(package: str, language: str) -> tuple[list[str], list[str]]:
    """The keys one file lacks, and the keys it has, against the English file beside it."""
    english, keys = set(file_texts(package, DEFAULT)), set(file_texts(package, language))
    return sorted(english - keys), sorted(keys - english)


def field_mismatches(package: str, language: str) -> dict[str, tuple[set[str], set[str]]]:
    """The keys of one file whose text fills other fields than the English text beside it."""
    english, other = file_texts(package, DEFAULT), file_texts(package, language)
    return {
        key: (fields_of(english[key]), fields_of(other[key]))
        for key in english.keys() & other.keys()
        if fields_of(english[key]) != fields_of(other[key])
        or isinstance(english[key], dict) != isinstance(other[key], dict)
    }


def test_every_registered_game_adds_its_files_to_the_catalogue() -> None:
    assert text_packages() == list(PACKAGES.values())
    keys = [key for package in text_packages() for key in file_texts(package, DEFAULT)]
    assert sorted(keys) == sorted(ENGLISH_KEYS)  # each key in one file, every file merged


@pytest.mark.parametrize("package", PACKAGES.values(), ids=list(PACKAGES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_texts_of_its_own_in_every_language(package: str, language: str) -> None:
    assert file_texts(package, language), f"{file_name(package, language)} is missing or empty"


@pytest.mark.parametrize("package", PACKAGES.values(), ids=list(PACKAGES))
@pytest.mark.parametrize("language", OTHERS)
def test_every_key_exists_in_every_language(package: str, language: str) -> None:
    lacks, extra = missing_keys(package, language)
    where = file_name(package, language)
    assert lacks == [], f"{where} lacks these keys of {file_name(package, DEFAULT)}"
    assert extra == [], f"{where} has keys {file_name(package, DEFAULT)} lacks"


@pytest.mark.parametrize("package", PACKAGES.values(), ids=list(PACKAGES))
@pytest.mark.parametrize("language", OTHERS)
def test_translations_fill_the_same_fields(package: str, language: str) -> None:
    assert field_mismatches(package, language) == {}, file_name(package, language)


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


class GivenTexts(Texts):
    """The texts of a language from catalogues given here, not from the files."""

    def __init__(self, language: str, own: Mapping, english: Mapping | None = None) -> None:
        super().__init__(language)
        self.given = own, own if english is None else english

    @property
    def _own(self) -> Mapping:
        return self.given[0]

    @property
    def _english(self) -> Mapping:
        return self.given[1]


def test_plural_forms_follow_each_language() -> None:
    plural = {"one": "{count} line", "other": "{count} lines"}
    texts = GivenTexts(
        "fr", {"lines": {"one": "{count} ligne", "other": "{count} lignes"}}, {"lines": plural}
    )
    assert texts("lines", count=0) == "0 ligne"
    assert texts("lines", count=2) == "2 lignes"
    english = GivenTexts("en", {"lines": plural})
    assert english("lines", count=0) == "0 lines"
    assert english("lines", count=1) == "1 line"
    with pytest.raises(KeyError):
        english("lines")


def test_a_missing_translation_falls_back_to_english_and_an_unknown_key_fails() -> None:
    texts = GivenTexts("de", {}, catalogue(DEFAULT))
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
    english = long_text("rules.md", "en", "games.pylons")
    assert english
    assert long_text("rules.md", "xx", "games.pylons") == english


# ---------------------------------------------------------------- a game's files, made here

GameFiles = Callable[[Mapping[str, str]], str]


@pytest.fixture
def game_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameFiles]:
    """Writes the language files of a made-up game's texts package and names the package; the
    game is not registered, and the catalogues are as before once the test is over."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(data.texts, "_GAME_TEXTS", list(data.texts._GAME_TEXTS))
    made: list[str] = []

    def make(files: Mapping[str, str]) -> str:
        package = f"made_up_game_{len(made)}"
        (tmp_path / package / "locales").mkdir(parents=True)
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
        for language, text in files.items():
            (tmp_path / package / "locales" / f"{language}.toml").write_text(text, "utf-8")
        made.append(package)
        return package

    yield make
    monkeypatch.undo()
    for package in made:
        sys.modules.pop(package, None)
    catalogue.cache_clear()
    data.texts._command_tree.cache_clear()


def test_a_file_lacking_a_translation_is_named(game_files: GameFiles) -> None:
    package = game_files(
        {"en": 'made_up.a = "A"\nmade_up.b = "B"\n', "it": 'made_up.a = "A"\nmade_up.c = "C"\n'}
    )
    assert missing_keys(package, "it") == (["made_up.b"], ["made_up.c"])
    assert file_name(package, "it").endswith(f"{package}/locales/it.toml")
    assert missing_keys(package, "de") == (["made_up.a", "made_up.b"], [])  # no de.toml at all


def test_a_translation_filling_other_fields_is_found(game_files: GameFiles) -> None:
    package = game_files({"en": 'a = "{x} and {y}"\n', "fr": 'a = "{x} et {z}"\n'})
    assert field_mismatches(package, "fr") == {"a": ({"x", "y"}, {"x", "z"})}


def test_a_key_defined_in_two_files_is_refused_naming_both(game_files: GameFiles) -> None:
    package = game_files({"en": '[bot]\napology = "Sorry again."\n'})
    add_game_texts(package)
    with pytest.raises(DataError) as refused:
        catalogue(DEFAULT)
    assert f"{package}/locales/en.toml: bot.apology" in str(refused.value)
    assert "defined in data/locales/en.toml already" in str(refused.value)


def test_a_game_registered_later_is_said_by_texts_made_before(game_files: GameFiles) -> None:
    """`ENGLISH` is made when the texts are imported, before any game is registered."""
    package = game_files(
        {"en": '[made_up]\nhello = "Hello"\n', "it": '[made_up]\nhello = "Ciao"\n'}
    )
    italian = texts_for("it")
    assert not ENGLISH.has("made_up.hello")
    add_game_texts(package)
    assert ENGLISH("made_up.hello") == "Hello"
    assert italian("made_up.hello") == "Ciao"
    assert texts_for("de")("made_up.hello") == "Hello"  # no German file: English


def test_a_process_that_only_draws_registers_the_games_without_the_bot() -> None:
    """A process that only draws (a script) registers the games, as every entry point does
    (`games.register_all`), and imports a game's pictures: of the bot only its registry of
    games (`hvbot.plugins`), no discord.py; and a High Voltage board drawn in Italian is the
    one the bot draws."""
    view = HIGH_VOLTAGE.new_state(2, 3).view(None)
    script = (
        "import sys\n"
        "from games import register_all\n"
        "from games.high_voltage.pictures import hv_board_png\n"
        "from games.high_voltage.rules import GAME\n"
        "register_all()\n"
        "assert not any(name.split('.')[0] == 'discord' for name in sys.modules)\n"
        "bot = {name for name in sys.modules if name.split('.')[0] == 'hvbot'}\n"
        "assert bot == {'hvbot', 'hvbot.plugins'}, bot\n"
        "png = hv_board_png(GAME.new_state(2, 3).view(None), language='it')\n"
        "sys.stdout.buffer.write(png)\n"
    )
    alone = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        check=True,
    ).stdout
    assert same_picture(alone, hv_pictures.hv_board_png(view, language="it"))


def test_a_text_without_fields_is_made_once_and_again_when_mentions_change() -> None:
    """A label said on every post is looked up and formatted once per language; naming the
    commands as mentions (or as typed again) makes it afresh."""
    texts = GivenTexts("en", {"hint": "Use /game board {{here}}."})
    looked = 0
    template = texts.template

    def counted(key: str) -> Any:
        nonlocal looked
        looked += 1
        return template(key)

    texts.template = counted  # type: ignore[method-assign]  # counting the look-ups only
    assert texts("hint") == texts("hint") == "Use /game board {here}."
    assert looked == 1
    with commands_mentioned({"game": 11}):
        texts.forget_said()  # as `mention_commands` does for the languages' own texts
        assert texts("hint") == "Use </game board:11> {here}."
    texts.forget_said()
    assert texts("hint") == "Use /game board {here}." and looked == 3


def test_mentioning_the_commands_makes_every_languages_texts_afresh() -> None:
    key = next(k for k, v in catalogue(DEFAULT).items() if isinstance(v, str) and "/game " in v)
    typed = ENGLISH(key)
    with commands_mentioned({"game": 11}):
        assert ENGLISH(key) != typed and "</game" in ENGLISH(key)
    assert ENGLISH(key) == typed
