"""The two ways a player's input can be wrong, each with a message the player can act on.

Both derive from `GameError`, so the Discord layer, the CLI and the tests catch one type and
show its text as it is: the message is written for a player, names what was wrong and says
what would be legal instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self


class GameError(ValueError):
    """Base of every error caused by what a player asked for; the state is left unchanged.

    The message is English. `key` and `fields` let the Discord layer say the same thing in the
    player's language (`data.texts`): the key names a text of the language files (all under
    "engine.") and the fields fill it; an error without a key is shown as its English message.
    """

    def __init__(self, message: str, *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class Phrase(str):
    """A part of a refusal that is itself a text of the language files, such as a compass side
    or the list of moves a seat can make.

    It is a `str` holding its English words, so the English message is composed from it as
    before; its `key` and `fields` let a message in another language say that part in the same
    language (a field of a `GameError` may be a `Phrase`, and a `Phrase` may hold others).
    """

    key: str
    fields: dict[str, Any]

    def __new__(cls, english: str, key: str, **fields: Any) -> Self:
        phrase = super().__new__(cls, english)
        phrase.key = key
        phrase.fields = fields
        return phrase


class Seat(Phrase):
    """A seat named in a refusal ("player 2 (red)"): said in the player's language, and by
    the bot as the name of the person (or AI seat) who sits there, which the engine does not
    know."""

    seat: int

    def __new__(cls, english: str, key: str, seat: int, **fields: Any) -> Self:
        phrase = super().__new__(cls, english, key, **fields)
        phrase.seat = seat
        return phrase


def name_seats(value: Any, names: Sequence[str]) -> Any:
    """A refusal's field with every seat in it said as the name of who sits there."""
    if isinstance(value, Seat) and 0 <= value.seat < len(names):
        return names[value.seat]
    if isinstance(value, Phrase):
        fields = {name: name_seats(field, names) for name, field in value.fields.items()}
        return Phrase(str(value), value.key, **fields)
    return value


class ActionSyntaxError(GameError):
    """The text is not an action at all (a typo, a missing part)."""


class IllegalActionError(GameError):
    """The action is well formed but the rules do not allow it now."""


# No action of any game is near this long; longer input is refused before it is read, so a
# refusal never quotes a page of text back.
MAX_ACTION_CHARS = 100
ECHO_CHARS = 40  # how much of what was typed a refusal quotes


def echo(typed: str) -> str:
    """What a refusal quotes of a player's input: as typed, cut if long."""
    return typed if len(typed) <= ECHO_CHARS else typed[: ECHO_CHARS - 1] + "…"


def check_length(text: str, examples: str) -> None:
    """Refuse input longer than any action, before reading it."""
    if len(text) > MAX_ACTION_CHARS:
        raise ActionSyntaxError(
            f"That is {len(text)} characters long, and no move is longer than "
            f"{MAX_ACTION_CHARS}: {echo(text)!r}. Examples: {examples}.",
            key="engine.core.too_long",
            length=len(text),
            limit=MAX_ACTION_CHARS,
            text=echo(text),
            examples=examples,
        )


def unreadable(
    game: str, text: str, why: str, reason: str, examples: str, **fields: Any
) -> ActionSyntaxError:
    """The refusal of text that is not an action: `why` in English, `reason` its key under
    engine.<game>.unreadable with the fields it fills, and examples of what would be read.
    What was typed is quoted as typed: `check_length` has refused anything long."""
    return ActionSyntaxError(
        f"I can't read {text!r}: {why}. Examples: {examples}.",
        key="engine.core.unreadable",
        text=text,
        why=Phrase(why, f"engine.{game}.unreadable.{reason}", **fields),
        examples=examples,
    )
