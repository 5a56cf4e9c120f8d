"""The one error the services raise for something a person asked that cannot be done."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.texts import ENGLISH
from engine.errors import Phrase


class BotError(Exception):
    """Something the user asked for cannot be done; the message says why and what would work.

    As with the engine's errors, the message is English and `key` with `fields` name the same
    text in the language files, so the reply can be in the asker's language."""

    def __init__(self, message: str, *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


def said(key: str) -> Phrase:
    """A text of the language files as a part of a refusal: English in the message, the
    reader's own words in the reply (the choices of a menu, the form a time is typed in)."""
    return Phrase(ENGLISH(key), key)


def listed(parts: Sequence[str]) -> str:
    """`parts` one after the other, each said in the reader's language when it is a `Phrase`:
    a refusal lists the choices by the names the reader's menu shows, not by their values."""
    result: str = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        result = Phrase(f"{part}, {result}", "bot.words.list", first=part, rest=result)
    return result
