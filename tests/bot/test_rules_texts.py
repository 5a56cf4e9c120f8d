"""The short rules of every game in every language: one Discord message each, with the same
shape as the English text and the same commands, written exactly as the players type them and
said, as in every other text, as mentions with the option names of the reader's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import commands_mentioned

from data import load_text
from data.texts import DEFAULT, LANGUAGES, catalogue, long_text
from games import GamePlugin, plugins
from hvbot.messages.presenters import presenter_for

RULES = [game.texts for game in plugins()]  # each game's rules.md is in its texts package
LIMIT = 1900  # a Discord message holds 2000 characters; the rest is left for a heading


def _shape(text: str) -> dict[str, object]:
    return {
        "headings": len(re.findall(r"^\*\*", text, re.MULTILINE)),
        "bullets": len(re.findall(r"^•", text, re.MULTILINE)),
        "bold": text.count("**"),
        "code": sorted(re.findall(r"`[^`]*`", text)),
    }


@pytest.mark.parametrize("package", RULES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_exist_fit_one_message_and_keep_the_shape(package: str, language: str) -> None:
    text = long_text("rules.md", language, package)
    english = long_text("rules.md", DEFAULT, package)
    assert len(text) < LIMIT, f"{package} rules in {language} are {len(text)} characters"
    assert _shape(text) == _shape(english)
    if language != DEFAULT:
        # the translation is a file of its own, and long_text serves it rather than English
        assert text == load_text(f"rules.{language}.md", package)
        assert text != english, f"{package} rules have no {language} translation"


# Discord's command ids are 19-digit snowflakes: a mention is that much longer than the typed
# command it stands for, and the rules must still fit one message with every one of them.
SNOWFLAKES = {"game": 10**18 + 1, "hv": 10**18 + 2, "pylons": 10**18 + 3, "s6": 10**18 + 4}
MESSAGE = 2000


@pytest.fixture
def mentioned() -> Iterator[None]:
    with commands_mentioned(SNOWFLAKES):
        yield


@pytest.mark.parametrize("game", plugins(), ids=lambda game: game.name)
@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_name_every_command_as_a_mention_with_the_readers_options(
    mentioned: None, game: GamePlugin, language: str
) -> None:
    said = presenter_for(game.name, language).rules
    assert len(said) <= MESSAGE, f"{game.name} rules in {language}: {len(said)} characters"
    typed = re.sub(r"</[^>]+>", "", said)
    assert not re.search(r"/(game|hv|pylons|s6) ", typed), typed  # every command a mention
    assert "`</" not in said, "a mention in a code span is not clickable"
    options = {
        text
        for key, text in catalogue(language).items()
        if key.startswith("commands.") and key.endswith(".name") and key.count(".") == 4
    }
    for option in re.findall(r"> `([^`:\s]+):", said):  # the options after a mention
        assert option in options, (language, option)


def test_the_rules_options_are_said_in_italian_and_german(mentioned: None) -> None:
    italian = presenter_for("high-voltage", "it").rules
    assert "</hv move:1000000000000000002> `speciale:danger`" in italian
    german = presenter_for("sector6", "de").rules
    assert "</game new:1000000000000000001> `modus:…`" in german
    assert "special:" not in italian and "mode:" not in german
