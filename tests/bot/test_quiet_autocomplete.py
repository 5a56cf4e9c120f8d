"""Autocomplete that fails unexpectedly answers no suggestions, with one line of warning:
it runs at every keystroke, and a traceback each time would bury the log."""

from __future__ import annotations

import logging

import pytest

from hvbot.handlers.answering import quiet_autocomplete


class Suggesting:
    """Stands for a cog: discord.py binds an autocomplete method by its qualified name."""

    @quiet_autocomplete
    async def cells(self, interaction: object, current: str) -> list[str]:
        if current == "boom":
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return [current]


async def test_a_failing_autocomplete_answers_nothing_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="hvbot.handlers.answering")
    suggesting = Suggesting()
    assert await suggesting.cells(None, "A1") == ["A1"]
    assert await suggesting.cells(None, "boom") == []
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    (warning,) = warnings
    assert "cells failed" in warning.getMessage() and warning.exc_info is None
    assert Suggesting.cells.__qualname__ == "Suggesting.cells", "discord.py binds it as a method"
