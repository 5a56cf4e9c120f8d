"""Board palettes kept in text files (`render.encode.StoredPalette`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from render.encode import StoredPalette, palette_image


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
