"""A declared line is named in words by the stations the picture numbers ("20", "25"), not by
the typed name "S20-S25": in the public post, the turn's words, the line's summary and the
picture's footer, in every language."""

from __future__ import annotations

import pytest

from data.texts import texts_for
from games.high_voltage.pictures.panel import last_move
from games.high_voltage.presenter import HighVoltagePresenter, describe_action, describe_line

LANGUAGES = ("en", "it", "fr", "de")
RECORD = {"line": "S20-S25", "cells": ["B7", "C7", "D7", "E7"], "points": {"red": 4}}


def test_a_declared_line_is_named_by_its_stations_in_english() -> None:
    texts = texts_for("en")
    assert (
        describe_action("declare S20-S25", "Ada", texts=texts)
        == "Ada declared the line between stations 20 and 25."
    )
    presenter = HighVoltagePresenter("en")
    assert presenter.move_words("declare S20-S25") == "declared the line between stations 20 and 25"
    assert describe_line(RECORD, texts).startswith("Line between stations 20 and 25 (4 cards)")
    view = {"last": {"seat": 0, "actions": ["declare S20-S25"], "lines": [RECORD]}}
    assert last_move(view, ["Ada"], texts) == "Scored stations 20-25 · 4 cards"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_typed_line_name_reaches_a_player(language: str) -> None:
    texts = texts_for(language)
    view = {"last": {"seat": 0, "actions": ["declare S20-S25"], "lines": [RECORD]}}
    said = [
        describe_action("declare S20-S25", "Ada", texts=texts),
        HighVoltagePresenter(language).move_words("declare S20-S25"),
        describe_line(RECORD, texts),
        last_move(view, ["Ada"], texts),
    ]
    for words in said:
        assert "S20" not in words and "S25" not in words, words
        assert "20" in words and "25" in words, words


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_moved_card_names_the_empty_cell_it_went_to(language: str) -> None:
    """A card moved into the empty cell: the post says which cell, as a draw's does."""
    texts = texts_for(language)
    said = describe_action("move D6 r90", "Ada", last_cells=["B2", "D6"], texts=texts)
    assert "B2" in said and "D6" in said, said
    if language == "en":
        assert said == "Ada moved D6 into the empty cell B2, turned 90°."
