"""Reading the data files shipped with the project: each game's card sets, tiles and setup
constants as JSON files (in the game's own folder), the texts (`data.texts`) and the fonts.

The files are data so that an owner of a physical game can correct a card without touching
code; everything read here is validated by the game that uses it, and any problem is reported
as a `DataError` naming the file, so a broken edit fails loudly at start-up instead of
producing a subtly wrong game.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


class DataError(ValueError):
    """A data file is missing, is not JSON, or does not describe a valid game component.

    `path` names the file from the project's folder ("games/sector6/tiles.json")."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def load_json(path: str, *, expected_format: str, expected_version: int) -> dict[str, Any]:
    """Read a JSON file named from the project's folder ("games/high_voltage/cards.json", in
    the package of its folder, so an installed copy finds it too) and check its declared
    format and version before anyone trusts it."""
    folder, _, name = path.rpartition("/")
    try:
        text = resources.files(folder.replace("/", ".")).joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError) as exc:
        raise DataError(path, f"cannot be read ({exc.__class__.__name__})") from exc
    return parse_json(
        path, text, expected_format=expected_format, expected_version=expected_version
    )


def load_text(path: str, package: str = __name__) -> str:
    """Read a text file under `data/` (help and rules texts live there, not in code), or under
    another package's folder (a game's own)."""
    try:
        return resources.files(package).joinpath(path).read_text(encoding="utf-8")
    except OSError as exc:
        where = f"{package.replace('.', '/')}/{path}"
        raise DataError(where, f"cannot be read ({exc.__class__.__name__})") from exc


def parse_json(
    path: str, text: str, *, expected_format: str, expected_version: int
) -> dict[str, Any]:
    """Parse already-read text; split out so tests can feed broken files without touching disk."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(path, f"is not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    if not isinstance(doc, dict):
        raise DataError(path, "must hold a JSON object at the top level")
    if doc.get("format") != expected_format:
        raise DataError(path, f"'format' must be {expected_format!r}, found {doc.get('format')!r}")
    if doc.get("version") != expected_version:
        raise DataError(path, f"'version' must be {expected_version}, found {doc.get('version')!r}")
    return doc
