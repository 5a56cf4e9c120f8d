"""The libraries the bot serves and draws with are asked for at versions without known server
holes: aiohttp before 3.12.14 (CVE-2024-30251, CVE-2024-52304, CVE-2025-53643) serves the
metrics, the health check and the sandbox; Pillow reads and writes every picture."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
FLOORS = {"aiohttp": Version("3.12.14"), "pillow": Version("11.3")}


def declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = (Requirement(text) for text in project["dependencies"])
    return {req.name.lower(): req for req in found}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_a_patched_version_is_what_the_project_asks_for(name: str) -> None:
    requirement = declared().get(name)
    assert requirement is not None, f"{name} is a direct dependency: the bot uses it itself"
    floor = FLOORS[name]
    # The lowest version the requirement allows is a patched one.
    lows = [Version(spec.version) for spec in requirement.specifier if spec.operator != "!="]
    assert lows and min(lows) >= floor, requirement
    assert Version(version(name)) >= floor, "the installed version is a patched one"


def test_discord_py_reads_and_writes_discords_json_with_orjson() -> None:
    """Every gateway event and every request's body goes through discord.py's JSON helpers;
    it takes orjson only if it can import it, so a missing dependency would pass unnoticed."""
    import discord.utils
    import orjson

    assert "orjson" in declared(), "orjson is asked for by the project itself"
    assert discord.utils.HAS_ORJSON
    assert discord.utils._to_json({"a": [1, "é"]}) == orjson.dumps({"a": [1, "é"]}).decode()
