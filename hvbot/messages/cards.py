"""A game's posts as cards: Discord's Components V2 layout, built in this one place.

A card is one Container: its accent colour (the player to move's, where it is public), one
Text Display with the post's words (whose turn, the clock, the last move), the post's pictures
in a Media Gallery, each with its alt text, and the post's buttons in action rows inside the
container. The buttons are taken as the post's view holds them (its choices, Follow, a link),
row for row, so whatever adds a button to a post's view adds it to its card.

Discord's rules for such a message (the `IS_COMPONENTS_V2` flag, which discord.py sets for a
`LayoutView`): no `content` or embeds beside it; at most 40 components, nested ones included;
4,000 characters of text; 1 to 10 gallery items, each described in at most 1,024 characters.
The card is cut to fit, the same way every time: the text at a line break (`fit_text`), the
alt text at a sentence (`fit_alt`), the pictures after the tenth, the last rows of buttons
while there are too many components.

The flag cannot be taken off a message once sent: a card whose buttons go is edited into the
same card without them (`without_choices`), never into a plain message. And Discord refuses
an edit that puts a newly uploaded picture into an existing gallery (discord-api-docs #7529):
a card whose picture changes is never edited; a new card is posted instead (see
`hvbot.handlers.moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any
from urllib.parse import urlsplit

import discord

from hvbot.messages.limits import fit_alt, fit_text

# Discord's limits on a Components V2 message.
TEXT = 4000  # characters of all its Text Displays together
MOST_COMPONENTS = 40  # in the whole tree
MOST_PICTURES = 10  # items of a Media Gallery
ATTACHMENT = "attachment://"

Shown = tuple[str, str]  # a picture of the card: its file's name and its alt text


def card(
    text: str,
    pictures: Sequence[Shown] = (),
    *,
    accent: int | None = None,
    buttons: discord.ui.View | None = None,
) -> discord.ui.LayoutView:
    """The card of a post: `text` (cut to Discord's 4,000 characters), `pictures` (files the
    message carries, named as uploaded, with their alt texts), `accent` (an RGB colour as an
    int, or None for Discord's plain edge), and the buttons of `buttons` in its rows."""
    rows = _rows(buttons)
    layout = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=accent)
    said = fit_text(text.strip(), TEXT)
    if said:
        box.add_item(discord.ui.TextDisplay(said))
    items = [
        discord.MediaGalleryItem(f"{ATTACHMENT}{name}", description=fit_alt(alt) or None)
        for name, alt in pictures[:MOST_PICTURES]
    ]
    if items:
        box.add_item(discord.ui.MediaGallery(*items))
    if not said and not items:
        box.add_item(discord.ui.TextDisplay("\u200b"))  # a container holds at least one
    # The container, its text and gallery, then each row and its buttons.
    used = 1 + len(box.children)
    for row in rows:
        used += 1 + len(row)
        if used > MOST_COMPONENTS:
            break
        box.add_item(discord.ui.ActionRow(*row))
    layout.add_item(box)
    layout.stop()  # sent, it only draws: clicks find their handler by custom id
    return _unlinked(layout)


def _unlinked(layout: discord.ui.LayoutView) -> discord.ui.LayoutView:
    """`layout` with its items' links back up the tree (each item's view and parent) taken
    off: what discord.py keeps them for is running a clicked item's checks and callback and
    counting the view's components as items come and go, none of which a card does (it is
    stopped, built whole, and its clicks find their handler by custom id). Drawing it reads
    the tree downwards alone. Linked both ways, every card was a knot of reference cycles,
    several a move, that only the garbage collector's full passes freed; unlinked, it is
    freed as soon as it is sent. The links are discord.py's own attributes (no public way
    unsets them): where a release has none by these names, the card is left as it is."""
    for item in layout.walk_children():
        if hasattr(item, "_view") and hasattr(item, "_parent"):
            item._view = None
            item._parent = None
    return layout


def _rows(view: discord.ui.View | None) -> list[list[discord.ui.Button[Any]]]:
    """The buttons of `view`, row by row as discord.py lays them out (a button's `row`, or
    the first with room: its rendered row, as `View.to_components` groups them), moved onto
    the card: a view handed to a card is built for it, and is not sent itself. Each was made
    afresh from what the view would send of it, which cost more than the rest of the card:
    a lobby's card is built at every change of its seats."""
    if view is None:
        return []

    def row_of(item: discord.ui.Item[Any]) -> int:
        return item._rendered_row or 0

    out: list[list[discord.ui.Button[Any]]] = []
    for _, group in groupby(sorted(view.children, key=row_of), key=row_of):
        buttons = [each for each in group if isinstance(each, discord.ui.Button)]
        if buttons:
            out.append(buttons)
    return out


def is_card(message: discord.Message | None) -> bool:
    """Whether `message` was sent as a card (its flag stays on it for good)."""
    return message is not None and message.flags.components_v2


def read(message: discord.Message) -> tuple[str, list[Shown], int | None]:
    """A card as it was sent: its text, its pictures (by the name of the file each shows,
    which an edit may show again), its accent colour."""
    names = {each.id: each.filename for each in message.attachments}
    urls = {each.url: each.filename for each in message.attachments}
    texts: list[str] = []
    pictures: list[Shown] = []
    accent: int | None = None
    for component in message.components:
        if component.type is not discord.ComponentType.container:
            continue
        colour = getattr(component, "accent_colour", None)
        accent = colour.value if colour is not None else None
        for child in getattr(component, "children", []):
            if child.type is discord.ComponentType.text_display:
                texts.append(str(getattr(child, "content", "")))
            elif child.type is discord.ComponentType.media_gallery:
                for item in getattr(child, "items", []):
                    media = item.media
                    name = (
                        names.get(media.attachment_id or 0)
                        or urls.get(media.url)
                        or _file_name(media.url)
                    )
                    if name:
                        pictures.append((name, item.description or ""))
    return "\n".join(texts), pictures, accent


def says(message: discord.Message, text: str) -> bool:
    """Whether `message` says `text` already: a card's words as `card` cut them, or a plain
    message's content (so a post whose words changed since it was sent is edited)."""
    if is_card(message):
        return read(message)[0] == fit_text(text.strip(), TEXT)
    return message.content == text


def _file_name(url: str) -> str:
    """The name of the file an attachment's address ends with: a message may come back
    without its `attachments` listed (Discord leaves them out of some answers about
    Components V2 messages), while its gallery still names each file's address."""
    return urlsplit(url).path.rsplit("/", 1)[-1]


def without_choices(
    message: discord.Message, keep: discord.ui.View | None
) -> discord.ui.View | discord.ui.LayoutView | None:
    """What `message` is edited with to take its choices off, keeping `keep` (its Follow
    button, say): a card stays the same card with only `keep`'s buttons (its flag cannot be
    taken off, and its layout is the whole message); a plain message gets `keep` as its
    buttons."""
    if not is_card(message):
        return keep
    text, pictures, accent = read(message)
    return card(text, pictures, accent=accent, buttons=keep)


def said(text: str, *, accent: int | None = None) -> discord.ui.LayoutView:
    """A card of words alone, for a card whose prompt is settled ("Done")."""
    return card(text, accent=accent)
