"""Discord's limits on a message, applied in one place before anything is sent.

Discord refuses a whole message with one part too long, and a refused answer leaves the person
with nothing but their client's "the application did not respond". The bot's own texts stay well
inside the limits; what can grow is what people typed, names, and lists (a long game's moves), so
every message is cut to fit here, at a line break where there is one, and marked as cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

CONTENT = 2000
# Discord's limits on the parts of an embed, and on all its text together.
TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
# An attachment's description (its alt text): Discord's API schema gives it at most 1024
# characters (`MessageAttachmentRequest.description`).
ALT = 1024
CUT = "…"
# Where an alt text may be cut: after a sentence, a line or an item of a list (", ", "; ");
# not after a colon, which would leave a heading with nothing after it.
_ALT_BREAKS = re.compile(r"(?<=[.!?;·,])\s|\n")


def fit_text(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its start up to the last line break that
    leaves at least half (else a plain cut), marked as cut."""
    if len(text) <= limit:
        return text
    room = limit - len(CUT)
    head = text[:room]
    line_end = head.rfind("\n")
    if line_end >= room // 2:
        head = head[: line_end + 1]
    return head + CUT


def fit_sections(
    sections: Sequence[tuple[str, Sequence[str]]],
    more: Callable[[int], str],
    limit: int = CONTENT,
) -> str:
    """Lists under their headings, one line each, within `limit` characters: while too long,
    the last line of the last list that still has one goes, and every list that lost lines
    ends with `more(how many)` ("…and 3 more games"). A reader sees whole lines and knows
    what is left out, where a plain cut would end mid-line."""
    kept = [list(items) for _, items in sections]
    cut = [0] * len(sections)

    def said() -> str:
        lines: list[str] = []
        for (heading, _), items, dropped in zip(sections, kept, cut, strict=True):
            lines += [heading, *items] + ([more(dropped)] if dropped else [])
        return "\n".join(lines)

    text = said()
    while len(text) > limit:
        last = next((at for at in reversed(range(len(kept))) if kept[at]), None)
        if last is None:
            break
        kept[last].pop()
        cut[last] += 1
        text = said()
    return fit_text(text, limit)


def fit_alt(text: str, limit: int = ALT) -> str:
    """An alt text cut to Discord's limit at the last whole sentence, line or list item that
    fits (else at the last word), marked as cut: a screen reader reads a cut description to
    its end, so it must stop at a boundary a listener can follow."""
    if len(text) <= limit:
        return text
    room = limit - len(CUT) - 1  # and a space before the mark
    ends = [match.start() for match in _ALT_BREAKS.finditer(text, 0, room + 1)]
    if ends and ends[-1] >= room // 2:
        return text[: ends[-1]].rstrip() + " " + CUT
    word = text.rfind(" ", 0, room)
    return text[: word if word >= room // 2 else room].rstrip() + " " + CUT


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed with every part cut to Discord's limits, and the whole to its total. Parts
    are shortened in place (the embed is the message's own, built for this send)."""
    if embed.title:
        embed.title = fit_text(embed.title, TITLE)
    if embed.description:
        embed.description = fit_text(embed.description, DESCRIPTION)
    for at, each in enumerate(embed.fields):
        embed.set_field_at(
            at,
            name=fit_text(each.name or "", FIELD_NAME),
            value=fit_text(each.value or "", FIELD_VALUE),
            inline=bool(each.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=fit_text(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(
            name=fit_text(embed.author.name, AUTHOR),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    while len(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(-1)
    if len(embed) > EMBED_TOTAL and embed.description:
        over = len(embed) - EMBED_TOTAL
        embed.description = fit_text(embed.description, len(embed.description) - over)
    return embed


def fitted(**message: Any) -> dict[str, Any]:
    """The keyword arguments of a send or an edit, with content and embeds cut to fit."""
    content = message.get("content")
    if isinstance(content, str):
        message["content"] = fit_text(content, CONTENT)
    if isinstance(message.get("embed"), discord.Embed):
        message["embed"] = fit_embed(message["embed"])
    if message.get("embeds"):
        message["embeds"] = [fit_embed(each) for each in message["embeds"]]
    return message
