"""The one error the services raise for something a person asked that cannot be done."""

from __future__ import annotations

from typing import Any


class BotError(Exception):
    """Something the user asked for cannot be done; the message says why and what would work.

    As with the engine's errors, the message is English and `key` with `fields` name the same
    text in the language files, so the reply can be in the asker's language."""

    def __init__(self, message: str, *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields
