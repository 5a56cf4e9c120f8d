"""The private prompt after an action that closes lines: a button per line, "Declare none"
before anything is declared (the rules allow declaring none of them), "Declare no more" only
once a line of this step is declared; a picture with the lines outlined."""

from __future__ import annotations

import asyncio

import pytest
from hv_positions import THROUGH_C4, build

from games.high_voltage.presenter import HighVoltagePresenter
from hvbot.messages.outgoing import send_kwargs
from hvbot.messages.post import Post


def prompt_of(state, language: str = "en") -> Post:
    post = asyncio.run(HighVoltagePresenter(language).prompt(state.view(state.current_seat())))
    assert post is not None
    return post


def closed_two_lines():
    state = build({**THROUGH_C4, "C4": (32, 0, 0)}, empty="G7")
    state.apply("rotate C4 r90")  # closes S3-S21 and S12-S28
    return state


def test_declare_none_first_then_declare_no_more_after_a_declaration() -> None:
    state = closed_two_lines()
    first = prompt_of(state)
    labels = [c.label for c in first.choices]
    assert labels == ["Declare S3-S21", "Declare S12-S28", "Declare none"]
    assert "Declare no more" not in labels
    assert [c.action for c in first.choices][-1] == "declare none"
    assert [picture.name for picture in first.files] == ["lines.png"]
    # The picture is described as every picture is, and the post can be sent.
    (sent,) = send_kwargs(first)["files"]
    assert sent.description and "S3-S21" in sent.description and "S12-S28" in sent.description

    state.apply("declare S12-S28")
    assert state.phase == "declaring"  # S3-S21 is still closed
    after = prompt_of(state)
    labels = [c.label for c in after.choices]
    assert labels == ["Declare S3-S21", "Declare no more"]
    assert [c.action for c in after.choices][-1] == "declare none"
    assert after.content.startswith("Declared.")
    assert [picture.name for picture in after.files] == ["lines.png"]
    assert send_kwargs(after)["files"][0].description


@pytest.mark.parametrize(
    ("language", "none", "no_more"),
    [
        ("it", "Non dichiararne nessuna", "Nessun'altra linea"),
        ("de", "Keine melden", "Keine weitere melden"),
        ("fr", "N'en déclarer aucune", "Ne plus déclarer"),
    ],
)
def test_the_two_buttons_in_other_languages(language: str, none: str, no_more: str) -> None:
    state = closed_two_lines()
    assert prompt_of(state, language).choices[-1].label == none
    state.apply("declare S12-S28")
    assert prompt_of(state, language).choices[-1].label == no_more
