"""Every game speaks Italian, French and German as well as English: the presenters' sentences
and buttons, and the words drawn on the pictures.

Whole games are played by the engine alone, and every step is told in all four languages, so
a key that a sentence needs but a language file lacks, or a field a translation forgets,
fails here rather than in a channel.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw

from data.texts import DEFAULT, LANGUAGES, catalogue
from engine.core import State as GameState
from games import find_game
from games.high_voltage import pictures as hv_pictures
from games.sector6 import pictures as sector6_pictures
from hvbot.messages.presenters import playable_games, presenter_for
from hvbot.messages.presenters.base import Presenter
from hvbot.store import GameRow, SeatRow
from render.fonts import Font, font

NAMES = ["Ada", "Bruno", "Chiara", "Dieter"]
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT]
SEEDS = {"high-voltage": 5, "pylons": 3, "sector6": 2}  # any other game: seed 1
GAMES = playable_games()  # every registered game


def played(game: str, seats: int = 2, seed: int | None = None) -> Iterator[GameState]:
    """The state after every action of a game the engine plays to its end by itself (each a
    copy of its own, so a list of them is the game's whole story)."""
    seed = SEEDS.get(game, 1) if seed is None else seed
    state = find_game(game).new_state(seats, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        yield state.copy()


_FINAL: dict[tuple[str, int], GameState] = {}


def final(game: str, seats: int = 2) -> GameState:
    if (game, seats) not in _FINAL:
        *_, last = played(game, seats)
        _FINAL[game, seats] = last
    return _FINAL[game, seats]


def row(game: str, seats: int) -> GameRow:
    return GameRow(
        id=7,
        game_name=game,
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status="active",
        seed=1,
        options={},
        state_json=None,
        version=12,
        lobby_message_id=None,
        seats=tuple(SeatRow(s, 100 + s, None, NAMES[s]) for s in range(seats)),
    )


def public_words(presenter: Presenter, state: GameState, names: list[str]) -> list[str]:
    """Everything a presenter says in public about the position after the last action."""
    view = state.view(None)
    applied = [state.history[-1]]
    words = [*presenter.describe(applied, view, names[0]), presenter.scores(view, names)]
    words.append(presenter.status(view, names))
    if view["phase"] != "over":
        words += [presenter.waiting(view, names[0]) or "", presenter.turn_note(view)]
    else:
        words.append(presenter.outcome(view, names))
    return words


@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_a_game_is_told_in_every_language(game: str) -> None:
    """No key or field is missing anywhere along a whole game, and what each language says
    is its own: not a single sentence of the scores and status is left in English."""
    names = NAMES[:2]
    told = {lang: 0 for lang in OTHERS}
    for state in played(game):
        english = public_words(presenter_for(game, DEFAULT), state, names)
        for lang in OTHERS:
            words = public_words(presenter_for(game, lang), state, names)
            assert len(words) == len(english)
            assert words[1] != english[1], f"{lang} scores in English: {words[1]}"
            told[lang] += sum(1 for ours, theirs in zip(words, english, strict=True) if ours)
    assert all(told.values())


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_outcome_is_told_in_the_language(game: str, language: str) -> None:
    view = final(game).view(None)
    english = presenter_for(game, DEFAULT).outcome(view, NAMES[:2])
    said = presenter_for(game, language).outcome(view, NAMES[:2])
    assert said != english
    assert said.splitlines()[0] != english.splitlines()[0], "the end reason is translated"
    for name in ("Ada", "Bruno"):
        assert name in said, "player names are not translated"


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_secret_is_told_in_the_language(game: str, language: str) -> None:
    state = final(game)
    english = presenter_for(game, DEFAULT)
    presenter = presenter_for(game, language)
    for seat in range(2):
        view = state.view(seat)
        title, text, picture = presenter.secret(row(game, 2).channel_id, view, seat)
        en_title, en_text, en_picture = english.secret(row(game, 2).channel_id, view, seat)
        assert title != en_title and text != en_text
        assert "<#2>" in text, "the channel mention stays a mention"
        assert decode(picture).size == decode(en_picture).size
        assert picture != en_picture, "the picture's labels are in the language"


@pytest.mark.parametrize("language", OTHERS)
def test_the_rules_come_in_the_language_or_in_english(language: str) -> None:
    for game in GAMES:
        rules = presenter_for(game, language).rules
        assert rules and len(rules) <= 2000, "Discord refuses longer messages"


def decode(data: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG"
    picture.load()
    return picture


def boards(game: str, language: str) -> list[bytes]:
    """The board in the middle of a game and at its end, and the end picture if any."""
    presenter = presenter_for(game, language)
    states = list(played(game))
    middle = states[len(states) // 2]
    pictures = [
        presenter.board_png(middle.view(None), NAMES[:2]),
        presenter.board_png(states[-1].view(None), NAMES[:2]),
    ]
    end = presenter.end_png(states[-1].view(None), NAMES[:2])
    return pictures + ([end] if end else [])


@pytest.mark.parametrize("game", GAMES)
def test_pictures_are_labelled_in_the_language(game: str) -> None:
    english = boards(game, DEFAULT)
    for language in OTHERS:
        pictures = boards(game, language)
        for ours, theirs in zip(pictures, english, strict=True):
            assert decode(ours).size == decode(theirs).size
            assert ours != theirs, f"{game} picture in {language} equals the English one"


def test_private_pictures_are_labelled_in_the_language() -> None:
    card = {"kind": "double_curve", "rotation": 0, "paths": []}
    for path in (("N", "E", "red"), ("S", "W", "blue")):
        card["paths"].append({"edges": list(path[:2]), "colour": path[2]})
    tile = {"walls": ["N", "S"], "value": 3, "colour": "green"}
    english = (hv_pictures.hv_card_png(card), sector6_pictures.sector6_tile_png(tile))
    for language in OTHERS:
        ours = (
            hv_pictures.hv_card_png(card, language=language),
            sector6_pictures.sector6_tile_png(tile, language=language),
        )
        for mine, theirs in zip(ours, english, strict=True):
            assert decode(mine).size == decode(theirs).size
            assert mine != theirs


def test_cached_pictures_are_kept_per_language() -> None:
    """The caches of secret and card pictures are keyed by language: asking in English after
    Italian gives the English picture again."""
    italian = hv_pictures.hv_secret_png("green", language="it")
    english = hv_pictures.hv_secret_png("green")
    assert italian != english
    assert hv_pictures.hv_secret_png("green", language="it") == italian
    assert hv_pictures.hv_secret_png("green", language="en") == english


def test_the_high_voltage_prompts_speak_the_language() -> None:
    """The drawn card's prompt names its button in the words the button shows."""
    for state in played("high-voltage"):
        seat = state.view(None)["current_seat"]
        if state.view(None)["phase"] == "placing" and seat is not None:
            break
    else:
        pytest.fail("no card was drawn")
    view = state.view(seat)
    for language in LANGUAGES:
        presenter = presenter_for("high-voltage", language)
        post = asyncio.run(presenter.prompt(view))
        assert post is not None and post.choices
        here = presenter.texts("high_voltage.buttons.here")
        assert f"**{here}**" in post.content
        labels = [choice.label for choice in post.choices]
        assert f"{here} 90°" in labels
        if language != DEFAULT:
            assert "Here 90°" not in labels


def test_sector6_buttons_speak_the_language() -> None:
    for state in played("sector6"):
        view = state.view(None)
        if view["phase"] == "play" and view["step"] == "act":
            break
    else:
        pytest.fail("no move was made")
    english = presenter_for("sector6", DEFAULT).public_choices(view)
    assert english
    en_labels = [choice.label for choice in english]
    for language in OTHERS:
        labels = [
            choice.label for choice in presenter_for("sector6", language).public_choices(view)
        ]
        assert len(labels) == len(en_labels)
        assert all(ours != theirs for ours, theirs in zip(labels, en_labels, strict=True))


ACCENTED = "àèéìòùç ÀÈÉÇ äöüß ÄÖÜ «» ’ œ ê â î ô û ë ï"
NO_GLYPH = "\U000f0000"  # a private-use code point: the font draws its missing-glyph box


def glyph(face: Font, letter: str) -> bytes:
    """The pixels of one letter drawn alone."""
    img = Image.new("L", (48, 48))
    ImageDraw.Draw(img).text((6, 6), letter, font=face, fill=255)
    return img.tobytes()


@pytest.mark.parametrize("bold", [True, False])
def test_the_font_draws_every_accented_letter(bold: bool) -> None:
    """DejaVu Sans has a glyph for each letter the translations use: none of them comes out
    as the box a font draws for a character it lacks, or as nothing."""
    face = font(24, bold)
    missing = glyph(face, NO_GLYPH)
    for letter in ACCENTED.replace(" ", ""):
        drawn = glyph(face, letter)
        assert any(drawn), f"{letter!r} is not drawn"
        assert drawn != missing, f"{letter!r} is drawn as a missing glyph"
    assert glyph(face, "é") != glyph(face, "e"), "the accent is drawn"


def test_every_text_of_the_pictures_uses_letters_the_font_has() -> None:
    letters: set[str] = set()
    for language in LANGUAGES:
        for key, template in catalogue(language).items():
            if key.startswith("picture."):
                forms = template.values() if isinstance(template, dict) else [template]
                letters.update(ch for form in forms for ch in form if not ch.isspace())
    for bold in (True, False):
        face = font(24, bold)
        missing = glyph(face, NO_GLYPH)
        assert sorted(ch for ch in letters if glyph(face, ch) == missing) == []
