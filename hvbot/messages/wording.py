"""Whose language a message is in, and the words for what it names.

Each message is in the language of whoever reads it: a reply to one person (ephemeral, a
refusal, a private prompt) in their Discord client's (`interaction.locale`), a public post in
the game's (the server's preferred locale when the game was opened, stored with it), a direct
message in the seat's (its person's client, as last seen). Hidden information never passes
through here by itself: the callers decide what fills the texts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord

from data.texts import Texts, language_of, texts_for
from engine.errors import Phrase
from hvbot.messages.presenters import presenter_for
from hvbot.services.seat_names import Named, said
from hvbot.store import GameRow


def shown(name: str) -> str:
    """A display name as a message shows it: as itself, whatever it holds. People choose
    their names, and one like `[Claim your prize](https://…) <@ada> @everyone` must neither
    format, nor link, nor ping: markdown and mentions are escaped, and `://` is broken with
    an invisible space so Discord finds no address to link."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    return escaped.replace("://", ":\u200b//")


def names_of(game: GameRow, texts: Texts | None = None) -> list[str]:
    """The seats' names for the words of a message (see `shown`), an AI seat's in the
    language of `texts` (by default the game's public one)."""
    texts = texts or public(game)
    return [said(seat, texts, shown) for seat in game.seats]


def picture_names(game: GameRow, texts: Texts | None = None) -> list[str]:
    """The seats' names as drawn on a picture: as they are, a picture formats nothing; an AI
    seat's in the language of `texts` (by default the game's public one)."""
    texts = texts or public(game)
    return [said(seat, texts) for seat in game.seats]


def mention(game: GameRow, seat: int, texts: Texts | None = None) -> str:
    """A person as a mention; an AI seat by its name in bold, in the language of `texts` (by
    default the game's public one)."""
    row = game.seats[seat]
    if row.user_id is not None:
        return f"<@{row.user_id}>"
    return f"**{said(row, texts or public(game), shown)}**"


def personal(interaction: discord.Interaction) -> Texts:
    """The texts of one person's replies: their Discord client's language."""
    return texts_for(interaction.locale)


def public(game: GameRow) -> Texts:
    """The texts of a game's public posts: its stored language."""
    return texts_for(game.language)


def language(interaction: discord.Interaction) -> str:
    """The language code to remember for the person behind an interaction."""
    return language_of(interaction.locale)


def hours_words(texts: Texts, span: timedelta) -> str:
    """A wait in hours, as a person reads it ("3 hours", "under an hour")."""
    hours = span.total_seconds() / 3600
    if hours < 1:
        return texts("bot.time.under_hour")
    return texts("bot.time.hours", count=round(hours))


def move_words(game: str, action: str, language: str) -> str:
    """A stored action of `game` in words, in a language."""
    return presenter_for(game, language).move_words(action)


def names_shown(value: Any) -> Any:
    """A refusal's field with every name a person chose in it (a `Named`, also inside an
    engine's `Phrase`) escaped as a message shows a name (`shown`): a refusal is sent in the
    bot's voice, and a name must not make it link or ping."""
    if isinstance(value, Named):
        return value.escaped(shown)
    if isinstance(value, Phrase):
        fields = {name: names_shown(field) for name, field in value.fields.items()}
        if any(fields[name] is not field for name, field in value.fields.items()):
            return Phrase(str(value), value.key, **fields)
    return value


def explain(texts: Texts, error: BaseException) -> str:
    """An error's message in a language; spans of time among its fields are put in words,
    and so is a move (the field `action`, with the engine name of its game in `game_name`);
    the names people chose are escaped (`names_shown`)."""
    key = getattr(error, "key", None)
    if not (key and texts.has(key)):
        return texts.explain(error)
    fields = dict(getattr(error, "fields", {}) or {})
    words = {
        name: hours_words(texts, value) if isinstance(value, timedelta) else names_shown(value)
        for name, value in fields.items()
    }
    if "game_name" in words and "action" in words:
        words["action"] = move_words(words["game_name"], words["action"], texts.language)
    return texts(key, **words)
