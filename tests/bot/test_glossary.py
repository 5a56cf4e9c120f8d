"""One word per thing in each language: every text and rules summary uses the glossary's term
for each concept of its game (data/locales/glossary.toml) and none of the variants it forbids.
A game's terms apply to every text in its own files (games/<game>/locales/)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

import pytest

from data import load_text
from data.texts import DEFAULT, LANGUAGES, catalogue, file_name, file_texts, long_text
from games import GamePlugin, plugins

GLOSSARY: dict[str, Any] = tomllib.loads(load_text("locales/glossary.toml"))
# Every registered game's rules summary, by key "rules.<game>": its texts package's rules.md.
RULES = {f"rules.{game.texts.rpartition('.')[2]}": game.texts for game in plugins()}

# Taken out before matching: the same in every language, and not words of the language.
_FIELD = re.compile(r"\{[^{}]*\}")
_CODE = re.compile(r"`[^`]*`")
_TYPED_COMMAND = re.compile(r"/[a-z0-9_-]+(?: [a-z0-9_-]+)?(?: [a-z_]+:\S*)*")


def clean(text: str) -> str:
    """A text without what is the same in every language: its fields (each leaves a § behind,
    so that a pattern can tell "link {goal}" from "{count} link"), code and typed commands."""
    return _TYPED_COMMAND.sub(" ", _CODE.sub(" ", _FIELD.sub("§", text)))


def texts_of(
    language: str,
    texts: Mapping[str, str | Mapping[str, str]] | None = None,
    rules: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Every text of a language by key, plural forms joined, with the rules summaries as keys
    "rules.<game>"; `texts` and `rules` stand in for the files (to check other versions)."""
    texts = catalogue(language) if texts is None else texts
    rules = (
        {key: long_text("rules.md", language, package) for key, package in RULES.items()}
        if rules is None
        else rules
    )
    flat = {
        key: "\n".join(value.values()) if isinstance(value, Mapping) else value
        for key, value in texts.items()
    }
    return {**flat, **rules}


def in_scope(key: str, scopes: list[str], glossary: Mapping[str, Any] = GLOSSARY) -> bool:
    return any(key.startswith(prefix) for s in scopes for prefix in glossary["scopes"][s])


def _search(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


def outside(key: str, term: Mapping[str, Any]) -> bool:
    """Whether a key is left out of a term's scopes by the term's `outside` prefixes."""
    return any(key.startswith(prefix) for prefix in term.get("outside", ()))


def violations(
    language: str,
    texts: Mapping[str, str],
    english: Mapping[str, str],
    glossary: Mapping[str, Any] = GLOSSARY,
) -> list[str]:
    """What breaks the glossary in one language's texts: a forbidden variant anywhere in a
    term's scope, or a text whose English says the concept while it does not use the term."""
    found = []
    for concept, term in glossary["terms"].items():
        ours, theirs = term[language], term[DEFAULT]
        for key, text in texts.items():
            if not in_scope(key, term["scope"], glossary) or outside(key, term):
                continue
            said = clean(text)
            for pattern in ours.get("forbid", ()):
                if match := _search(pattern, said):
                    found.append(
                        f"{key}: {match.group(0)!r} where the {concept} is {ours['term']!r}"
                    )
            if (
                language != DEFAULT
                and "use" in ours
                and key not in ours.get("except", ())
                and key in english
                and _search(theirs["use"], clean(english[key]))
                and not _search(ours["use"], said)
            ):
                found.append(f"{key}: says no {ours['term']!r} where English says the {concept}")
    return found


def test_the_glossary_is_complete_and_its_patterns_work() -> None:
    keys = set(texts_of(DEFAULT))
    for concept, term in GLOSSARY["terms"].items():
        assert term.get("about"), f"{concept}: say what the concept is"
        assert term["scope"] and set(term["scope"]) <= set(GLOSSARY["scopes"]), concept
        assert any(in_scope(key, term["scope"]) for key in keys), f"{concept}: empty scope"
        assert set(term) >= set(LANGUAGES), f"{concept}: a term for every language"
        for language in LANGUAGES:
            entry = term[language]
            assert entry["term"], f"{concept}: the {language} term"
            assert not set(entry) - {"term", "use", "forbid", "except"}, (concept, language)
            if "use" in entry and language != DEFAULT:
                assert "use" in term[DEFAULT], f"{concept}: English says when {language} must"
            for pattern in entry.get("forbid", ()):
                re.compile(pattern)
                assert not _search(pattern, entry["term"]), f"{concept}: {language} forbids itself"
            assert set(entry.get("except", ())) <= keys, f"{concept}: unknown keys in except"


def scope_of(game: GamePlugin) -> str:
    """The glossary's scope of a game: named as its texts package ("games.pylons": "pylons")."""
    return game.texts.rpartition(".")[2]


@pytest.mark.parametrize(
    "game",
    [game for game in plugins() if scope_of(game) in GLOSSARY["scopes"]],
    ids=lambda game: game.name,
)
def test_a_game_s_scope_covers_every_text_in_its_files(game: GamePlugin) -> None:
    """So a table added to a game's files is held to the game's terms from the start."""
    keys = file_texts(game.texts, DEFAULT)
    assert keys, f"{file_name(game.texts, DEFAULT)} has no texts"
    outside = [key for key in keys if not in_scope(key, [scope_of(game)])]
    assert outside == [], f"{file_name(game.texts, DEFAULT)}: keys outside its glossary scope"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_uses_the_glossary_terms(language: str) -> None:
    english = texts_of(DEFAULT)
    assert violations(language, texts_of(language), english) == []


def test_a_forbidden_variant_is_found_by_word_not_inside_other_words() -> None:
    english = {"high_voltage.x": "Draw a card.", "sector6.x": "Draw a tile."}
    assert violations("it", {"high_voltage.x": "Pesca una carta."}, english) == [
        "high_voltage.x: 'carta' where the card is 'tessera'",
        "high_voltage.x: says no 'tessera' where English says the card",
    ]
    assert violations("it", {"high_voltage.x": "Pesca le tessere, non scartarle."}, english) == []
    # a term belongs to its game: Sector 6 tiles may be called as High Voltage cards are
    assert violations("it", {"sector6.x": "Pesca una tessera."}, english) == []


def test_a_translation_that_avoids_the_term_is_found() -> None:
    english = {"bot.x": "Open a lobby in this channel."}
    said = {"bot.x": "Ouvrir un salon dans ce canal."}
    assert violations("fr", said, english) == [
        'bot.x: says no "salle d\'attente" where English says the lobby',
        "bot.x: 'canal' where the channel is 'salon'",
    ]
    assert violations("fr", {"bot.x": "Ouvrir une salle d'attente dans ce salon."}, english) == []


def test_german_collects_with_one_verb_and_never_draws_a_prisoner() -> None:
    english = {"sector6.x": "Nothing to collect on C3.", "sector6.y": "the cell it moves to"}
    assert violations("de", {"sector6.x": "Auf C3 gibt es nichts zu sammeln."}, english) == [
        "sector6.x: 'sammeln' where the collect is 'einsammeln'"
    ]
    assert violations("de", {"sector6.x": "Auf C3 gibt es nichts einzusammeln."}, english) == []
    assert violations("de", {"sector6.x": "Den Marker gesammelt."}, english) != []
    assert violations("de", {"sector6.y": "das Feld, auf das er zieht"}, english) == [
        "sector6.y: 'er zieht' where the move_prisoner is 'bewegen'"
    ]
    assert violations("de", {"sector6.y": "das Feld, auf das er sich bewegt"}, english) == []


def test_french_turns_a_card_and_never_orients_it() -> None:
    english = {"high_voltage.x": "Ada turned C3 to 90°."}
    assert violations("fr", {"high_voltage.x": "Ada a orienté C3 à 90°."}, english) == [
        "high_voltage.x: 'orienté' where the rotate is 'tourner'",
        "high_voltage.x: says no 'tourner' where English says the rotate",
    ]
    assert violations("fr", {"high_voltage.x": "Ada a tourné C3 à 90°."}, english) == []
    # the noun stays: a card's orientation is what the option sets
    said = {"high_voltage.x": "Ada a tourné C3 : nouvelle orientation 90°."}
    assert violations("fr", said, english) == []


def test_french_says_vous_and_never_tu() -> None:
    english = {"bot.x": "You have no open game. Open one with /game new."}
    assert violations("fr", {"bot.x": "Tu n'as aucune partie : ouvre-en une."}, english) == [
        "bot.x: 'Tu' where the you is 'vous'"
    ]
    assert violations("fr", {"bot.x": "Il te reste 5 minutes."}, english) != []
    assert violations("fr", {"bot.x": "C'est ton tour."}, english) != []
    assert violations("fr", {"bot.x": "Une partie t'attend."}, english) != []
    said = {"bot.x": "Vous n'avez aucune partie en cours : ouvrez-en une avec /game new."}
    assert violations("fr", said, english) == []
    # words that only contain the letters stay: "tuile", "toits", "tesson", "attend"
    assert violations("fr", {"bot.x": "Votre tuile attend sous les toits."}, english) == []


def test_german_calls_a_game_being_played_a_partie() -> None:
    english = {"bot.x": "You have 2 open games; anyone may open a game."}
    said = {"bot.x": "Du hast 2 offene Spiele; jeder darf ein Spiel eröffnen."}
    assert violations("de", said, english)[:2] == [
        "bot.x: 'offene Spiele' where the game is 'Partie'",
        "bot.x: 'ein Spiel' where the game is 'Partie'",
    ]
    for text in (
        "In diesem Kanal läuft noch kein Spiel.",
        "Spiele dürfen hier eröffnet werden.",
        "Neue Spiele: Erinnerung nach 1 Stunde.",
        "Ein Kanal hat 10 Spiele pro Kanal.",
        "Deine Zug-Erinnerungen, in jedem deiner Spiele.",
    ):
        assert violations("de", {"bot.x": text}, english) != [], text
    said = {"bot.x": "Du hast 2 offene Partien; jeder darf eine Partie eröffnen."}
    assert violations("de", said, english) == []
    # the game itself stays a "Spiel": its rules, which game is played, the best of each game
    for text in (
        "/game rules erklärt ein Spiel kurz.",
        "Welches Spiel gespielt wird.",
        "Die Saisonrangliste jedes Spiels steht vor seiner Gesamtrangliste.",
    ):
        assert violations("de", {"bot.x": text}, english) == [], text
