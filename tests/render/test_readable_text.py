"""Every word and number the bot draws on a board or a drawn piece reads at the size Discord
shows the picture.

Discord shows a picture in a channel at most about SHOWN_WIDTH pixels wide, so text drawn
`size` pixels high on a picture `width` pixels wide is seen `size * SHOWN_WIDTH / width`
pixels high. The sizes checked are those the drawing code really asks of the font helper
while it draws: every picture module's `font` is replaced by one that records each size,
every cache of drawn pieces is emptied first (a cached label would not ask again), and
pictures of whole games are drawn in every language with long names and a turn clock.

A letter that is part of an icon (a company disc's letter, a pawn's, a marker's number, the
word printed on a DANGER card) goes through `render.fonts.icon_font` and is not counted: it
is as large as its icon, whose colour and shape say the same.
"""

from __future__ import annotations

import importlib
import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from data.texts import LANGUAGES
from games import find_game
from games.high_voltage.pictures import THEME as HV_THEME
from games.high_voltage.pictures import hv_card_png, hv_end_png
from games.high_voltage.rules import Draw
from games.sector6.pictures import sector6_tile_png
from hvbot.messages.presenters import presenter_for
from render import fonts
from render.fonts import LEAST_SHOWN, SHOWN_WIDTH

# Each module that draws text with `font`, and how many times larger than the final picture
# it draws (its supersampling): a size there is divided by that before it is judged.
MODULES = {
    "render.canvas": 1,
    "games.high_voltage.pictures.board": 1,
    "games.high_voltage.pictures.panel": 1,
    "games.high_voltage.pictures.card": 1,
    "games.high_voltage.pictures.end": 1,
    "games.high_voltage.pictures.sprites": HV_THEME.supersample,
    "games.pylons.pictures.board": 1,
    "games.sector6.pictures.panel": 1,
    "games.sector6.pictures.pieces": 1,
}
# Modules whose cached pieces hold drawn text (palettes hold none and are slow to rebuild).
CACHED = (
    *MODULES,
    "games.sector6.pictures.board",
    "games.sector6.pictures.panel_layout",  # measures its counts with `render.canvas`
    "games.sector6.pictures.tokens",
    "games.sector6.pictures.sprites",
    "games.sector6.pictures.palette",
)
NAMES = ["Annabelle-Sophie", "Bruno", "Chiara", "Dmitri"]
CLOCK = "⏳ 42 minutes left"


def _clear_caches() -> None:
    for name in CACHED:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if hasattr(value, "cache_clear") and "palette" not in attr:
                value.cache_clear()


@pytest.fixture
def sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The font sizes drawn from now on, in pixels of the final picture."""
    asked: list[float] = []
    for name, scale in MODULES.items():
        module = importlib.import_module(name)

        def recording(size: int, bold: bool = True, scale: int = scale) -> fonts.Font:
            asked.append(size / scale)
            return fonts.font(size, bold)

        monkeypatch.setattr(module, "font", recording)
    _clear_caches()
    yield asked
    _clear_caches()  # pieces drawn while recording are right, but leave none behind


def shown(png: bytes, asked: list[float]) -> float:
    """The smallest text of a picture as Discord shows it, in pixels; the record emptied."""
    width = Image.open(io.BytesIO(png)).width
    assert asked, "nothing was recorded: the pictures no longer draw through `font`"
    least = min(asked) * min(SHOWN_WIDTH, width) / width
    asked.clear()
    return least


def views(game: str, seats: int, options: dict[str, str], seed: int) -> list[dict[str, Any]]:
    """Public views of one random game: its start, a view every few actions, and its end."""
    rules = find_game(game)
    state = rules.new_state(seats, seed, options)
    rng = random.Random(seed)
    out = [state.view(None)]
    count = 0
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        count += 1
        if count % 37 == 0:
            out.append(state.view(None))
    out.append(state.view(None))
    return out


BOARDS = [
    ("high-voltage", 4, {}),
    ("pylons", 2, {"swamps": "on"}),
    ("sector6", 4, {"mode": "full"}),
    ("sector6", 3, {"mode": "novice"}),
]


@pytest.mark.parametrize(
    ("game", "seats", "options"), BOARDS, ids=[f"{g}-{n}" for g, n, _ in BOARDS]
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_board_has_no_text_too_small_to_read_in_discord(
    sizes: list[float], game: str, seats: int, options: dict[str, str], language: str
) -> None:
    presenter = presenter_for(game, language)
    for view in views(game, seats, options, seed=5)[::3]:
        png = presenter.board_png(view, NAMES[:seats], clock=CLOCK)
        assert shown(png, sizes) >= LEAST_SHOWN, (game, language, view.get("phase"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_drawn_card_or_tile_has_no_text_too_small_to_read(
    sizes: list[float], language: str
) -> None:
    state = find_game("high-voltage").new_state(3, 2)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Draw)))
    face = state.view(state.current_seat())["drawn"]
    assert shown(hv_card_png(face, language=language), sizes) >= LEAST_SHOWN
    tile = {"walls": ["N", "S"], "value": 2, "colour": "yellow"}  # repeats: "same as 0°"
    assert shown(sector6_tile_png(tile, language=language), sizes) >= LEAST_SHOWN


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_result_has_no_text_too_small_to_read(sizes: list[float], language: str) -> None:
    final = views("high-voltage", 4, {}, seed=5)[-1]
    png = hv_end_png(final, names=NAMES, language=language)
    assert shown(png, sizes) >= LEAST_SHOWN


def test_the_measure_catches_small_text(
    sizes: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel's last line drawn at the 15 pixels it once had reads as 8.6: caught."""
    presenter = presenter_for("high-voltage")
    view = views("high-voltage", 2, {}, seed=1)[1]
    assert shown(presenter.board_png(view, NAMES[:2]), sizes) >= LEAST_SHOWN
    monkeypatch.setattr("games.high_voltage.pictures.panel.SMALL", 15)
    assert shown(presenter.board_png(view, NAMES[:2]), sizes) < LEAST_SHOWN
