"""How the bot names a seat an AI plays, in the words of whoever reads it.

A seat's name is stored once, when the seat is made: an AI added in the lobby as "AI 1 (easy)"
(in English), a seat an AI took over as "Ada (resigned, AI plays)" (in the language of the
game's posts). Stored words would reach a reader of another language as they are, so every
message names a seat through `said` (or fills a text with `named`), which recognises a stored
name in any of the bot's languages and says it again in the reader's. A person's own name,
and any name not made by the bot, is never changed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from data.texts import ENGLISH, LANGUAGES, Texts, texts_for
from hvbot.store import SeatRow

# The names the bot gives seats an AI plays (`bot.seat.*`): an AI added in the lobby, and an
# AI playing for a person away, resigned, removed or out of time.
FORMS = ("ai", "away", "resigned", "removed", "out_of_time")
_FIELDS = {"number": r"(?P<number>\d+)", "level": r"(?P<level>.+)", "player": r"(?P<player>.+)"}


def ai_name(number: int, level: str) -> str:
    """The name stored for the `number`-th AI added to a lobby, at `level` ("AI 2 (hard)"):
    in English, said in each reader's language by `said`."""
    return ENGLISH("bot.seat.ai", number=number, level=ENGLISH(f"bot.level.{level}"))


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(form, pattern) for each form of name in each language, English first."""
    found = []
    for language in LANGUAGES:
        texts = texts_for(language)
        for form in FORMS:
            template = texts.template(f"bot.seat.{form}")
            assert isinstance(template, str)
            pattern = re.escape(template)
            for name, group in _FIELDS.items():
                pattern = pattern.replace(re.escape("{" + name + "}"), group, 1)
            found.append((form, re.compile(pattern)))
    return tuple(found)


def recognised(name: str) -> tuple[str, dict[str, str]] | None:
    """(form, fields) of a name the bot made, in whichever language it was stored; None for
    any other name."""
    for form, pattern in _patterns():
        match = pattern.fullmatch(name)
        if match:
            return form, match.groupdict()
    return None


@dataclass(frozen=True)
class _Said:
    """A part of a text with its own key, said in the language of the text it fills."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


def _parts(seat: SeatRow) -> _Said | None:
    """The key and fields that say the seat's name, or None when it is not the bot's."""
    if not seat.is_ai:
        return None
    found = recognised(seat.display_name)
    if found is None:
        return None
    form, fields = found
    if form != "ai":
        return _Said(f"bot.seat.{form}", {"player": fields["player"]})
    key = f"bot.level.{seat.ai_level}"
    word: Any = _Said(key) if ENGLISH.has(key) else fields["level"]
    return _Said("bot.seat.ai", {"number": fields["number"], "level": word})


def said(seat: SeatRow, texts: Texts, escape: Callable[[str], str] = str) -> str:
    """The seat's name in `texts`' language; a person's name (in the seat's own name or inside
    "Ada (resigned, AI plays)") passed through `escape` (for a message, not a picture)."""
    parts = _parts(seat)
    if parts is None:
        return escape(seat.display_name)
    fields = dict(parts.fields)
    if "player" in fields:
        fields["player"] = escape(fields["player"])
    return texts(parts.key, **fields)


class Named(str):
    """A seat's stored name, to fill a text (a refusal's `{player}`) with: it reads as stored,
    and `data.texts` says it in the language of the text it fills (its `key` and `fields`, None
    and empty for a person's own name). Every name a refusal carries is one, so whatever turns
    the refusal into a message knows which fields a person chose, and escapes them
    (`escaped`); the services themselves know nothing of how a message formats."""

    key: str | None
    fields: dict[str, Any]

    def escaped(self, escape: Callable[[str], str]) -> Named:
        """The same name with what a person chose in it (their own name, or the one inside
        "Ada (resigned, AI plays)") passed through `escape`, as `said` does."""
        name = Named(escape(self))
        name.key, name.fields = self.key, dict(self.fields)
        if isinstance(name.fields.get("player"), str):
            name.fields["player"] = escape(name.fields["player"])
        return name


def named(seat: SeatRow) -> Named:
    """The seat's name for a text's field: said in the reader's language when the bot made
    it; a person's name as it is. A `Named` either way (see there)."""
    name = Named(seat.display_name)
    parts = _parts(seat)
    name.key, name.fields = (None, {}) if parts is None else (parts.key, dict(parts.fields))
    return name


def was_removed(seat: SeatRow) -> bool:
    """Whether a moderator took the seat from its person: an AI plays it for nobody. The bot
    keeps no more of a removal than the name it gives the seat (`bot.seat.removed`, in the
    language of the game's posts), which no person can take: a person's seat keeps their own
    name, and an AI plays a removed seat."""
    if not seat.is_ai or seat.away_user_id is not None or seat.resigned_user_id is not None:
        return False
    found = recognised(seat.display_name)
    return found is not None and found[0] == "removed"
