"""The board palettes kept in files beside each game's pictures.

A process that draws boards reads its games' palettes for the default themes from these files
instead of building them from the sprites as it starts. A file that no longer matches what the
drawing code builds would change every board's colours without a word, so each is checked
against a fresh build here.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from games.cli import stored_palettes
from games.high_voltage import pictures as high_voltage
from games.pylons import pictures as pylons
from games.pylons.pictures import PYLONS_THEME
from games.pylons.pictures.board import pylons_palette
from games.sector6 import pictures as sector6
from render.encode import StoredPalette, palette_image

ROOT = Path(__file__).resolve().parents[2]
REFRESH = "python -m games palettes"
GAMES = {"high-voltage": high_voltage, "pylons": pylons, "sector6": sector6}


def colours(palette: Image.Image) -> list[tuple[int, ...]]:
    flat = palette.getpalette() or []
    return [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]


@pytest.mark.parametrize("pictures", GAMES.values(), ids=GAMES.keys())
def test_the_stored_palette_is_the_one_the_drawing_code_builds(pictures: ModuleType) -> None:
    stored: StoredPalette = pictures.STORED_PALETTE
    try:
        kept = colours(stored.load())
    except (OSError, ValueError) as exc:
        pytest.fail(f"{exc}. Run `{REFRESH}` to write it again, and commit the file.")
    built = colours(stored.build())
    moved = [i for i, (a, b) in enumerate(zip(built, kept, strict=True)) if a != b]
    assert not moved, (
        f"{stored.path.relative_to(ROOT)} is out of date: {len(moved)} of its 256 entries "
        f"differ from the palette the {stored.about} drawing builds (the first is entry "
        f"{moved[0]}). After a change of the art, run `{REFRESH}` and commit the file."
    )


def test_the_command_line_refreshes_every_game_palette() -> None:
    found = {stored.path for stored in stored_palettes()}
    assert found == {pictures.STORED_PALETTE.path for pictures in GAMES.values()}


def test_another_theme_gets_a_palette_built_from_its_own_colours() -> None:
    theme = replace(PYLONS_THEME, background=(1, 2, 3))
    assert colours(pylons_palette(theme))[0] == (1, 2, 3)
    assert colours(pylons_palette(PYLONS_THEME))[0] == PYLONS_THEME.background


def test_a_palette_file_holds_its_entries_in_order(tmp_path: Path) -> None:
    palette = palette_image([(i, 255 - i, i // 2) for i in range(256)])
    stored = StoredPalette(tmp_path / "palette.txt", "test board", lambda: palette)
    assert stored.refresh()
    assert not stored.refresh()  # nothing to rewrite
    assert stored.load().getpalette() == palette.getpalette()
    lines = stored.path.read_text(encoding="utf-8").splitlines()
    assert lines[-256:][:2] == ["#00ff00", "#01fe00"]


def test_a_damaged_palette_file_is_refused(tmp_path: Path) -> None:
    stored = StoredPalette(tmp_path / "palette.txt", "test board", lambda: palette_image([]))
    stored.path.write_text("#000000\n" * 255, encoding="utf-8")
    with pytest.raises(ValueError, match="255 colours"):
        stored.load()
    stored.path.write_text("#00000g\n" * 256, encoding="utf-8")
    with pytest.raises(ValueError, match="not a #rrggbb colour"):
        stored.load()
