"""The short rules of every game in every language: one Discord message each, with the same
shape as the English text and the same commands, written exactly as the players type them."""

from __future__ import annotations

import re

import pytest

from data import load_text
from data.texts import DEFAULT, LANGUAGES, long_text
from games import plugins

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
