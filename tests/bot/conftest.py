"""What the bot's own tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from data.texts import mention_commands

# The commands' ids by top-level name, as Discord would register them: texts name commands as
# mentions (`</hv draw:22>`) once the ids are known.
IDS = {"game": 11, "hv": 22, "pylons": 33, "s6": 44, "stats": 55, "me": 66, "server": 77}


@pytest.fixture
def mentioned() -> Iterator[None]:
    """Texts say commands as mentions for the test, as typed again after it."""
    mention_commands(IDS)
    try:
        yield
    finally:
        mention_commands({})
