"""Cutting a name to fit its room on a picture (`render.canvas.fit`): the same cut as one
character at a time would make, found in as many measures as the length has binary digits,
so a name of thousands of characters (a record's, anyone's) costs no more than a short one."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from render import canvas
from render.canvas import fit, text_width


def cut_one_by_one(text: str, size: int, width: float, bold: bool = True) -> str:
    """How names were cut before: one character off per measure, until it fits."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


NAMES = [
    "Ada",
    "Bo",
    "AI 1 (easy)",
    "Maximilian von Habsburg-Lothringen",
    "ffiffl fluffy waffles",
    "Zoë Ωμέγα Привет",
    "李小龙李小龙李小龙李小龙",
    "مرحبا بالعالم يا صديقي",
    "Ádám ⚡ Škoda 🎲🎲🎲",
    "W" * 40,
    "i" * 80,
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("size", "width", "bold"), [(24, 180, True), (18, 90, False), (30, 20, True)]
)
def test_fit_cuts_names_as_before(name: str, size: int, width: float, bold: bool) -> None:
    assert fit(name, size, width, bold) == cut_one_by_one(name, size, width, bold)


LONG = 20_000
MOST_MEASURES = 2 + LONG.bit_length()  # the whole name, then one per binary digit, and one


@pytest.fixture
def measures(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The texts `fit` measures, in order (the real measure, counted; stopped past
    MOST_MEASURES, where cutting one character at a time would go on for minutes)."""
    asked: list[str] = []
    real: Callable[..., float] = canvas.text_width

    def counted(text: str, size: int, bold: bool = True) -> float:
        asked.append(text)
        assert len(asked) <= MOST_MEASURES, "fit measures more than once per binary digit"
        return real(text, size, bold)

    monkeypatch.setattr(canvas, "text_width", counted)
    yield asked


@pytest.mark.parametrize("letters", ["Ab", "Ωé", "李", "ب"])
def test_a_name_of_twenty_thousand_characters_fits_in_few_measures(
    measures: list[str], letters: str
) -> None:
    name = letters * (LONG // len(letters))
    cut = fit(name, 24, 200)
    assert cut.endswith("…") and name.startswith(cut[:-1]) and len(cut) > 2
    assert text_width(cut, 24) <= 200 < text_width(name[: len(cut)] + "…", 24)
    assert 2 < len(measures) <= MOST_MEASURES
