"""Components V2: the layout components a message may carry with the `IS_COMPONENTS_V2` flag
(Container, Section, TextDisplay, Thumbnail, MediaGallery, File, Separator, and action rows of
buttons inside them), walked the way Discord counts and reads them.

Discord's documentation ("Components > Using Message Components" and "Component Reference")
says what this module follows: every component of the tree counts towards a message's 40,
wherever it is nested (a section's accessory too, a gallery's items not: they are no
components); the text a reader reads is that of the Text Displays; a media item points either
at a URL or at one of the message's own files (`attachment://name`); and on the way back Discord
numbers every component (`id`, depth first from 1, keeping those the sender chose) and resolves
each media item into the file it names.

Plain functions over the JSON as sent, shared by the checks (`rules`), the stored message
(`models`) and the sandbox's page.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

# Component types (Component Reference > Component Object > Component Types).
ACTION_ROW = 1
BUTTON = 2
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17

# What may stand at the top of a Components V2 message, and inside a container.
TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
ATTACHMENT_SCHEME = "attachment://"

Path = tuple[str, ...]


def children(component: dict[str, Any], path: Path = ()) -> Iterator[tuple[dict[str, Any], Path]]:
    """The components directly inside `component`, each with its path in the request body:
    an action row's or a container's `components`, a section's texts and its `accessory`."""
    inner = component.get("components")
    if isinstance(inner, list):
        for index, child in enumerate(inner):
            if isinstance(child, dict):
                yield child, (*path, "components", str(index))
    accessory = component.get("accessory")
    if component.get("type") == SECTION and isinstance(accessory, dict):
        yield accessory, (*path, "accessory")


def walk(
    components: list[Any], path: Path = ("components",)
) -> Iterator[tuple[dict[str, Any], Path]]:
    """Every component of the tree, depth first in the order a reader meets them, each with
    its path in the request body."""
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = (*path, str(index))
        yield component, here
        yield from _walk_inside(component, here)


def _walk_inside(component: dict[str, Any], path: Path) -> Iterator[tuple[dict[str, Any], Path]]:
    for child, where in children(component, path):
        yield child, where
        yield from _walk_inside(child, where)


def count(components: list[Any]) -> int:
    """How many components Discord counts towards a message's limit: all of them, nested ones
    included (Component Reference: "up to 40 total components")."""
    return sum(1 for _ in walk(components))


def text_of(components: list[Any]) -> list[str]:
    """The text of every Text Display, in reading order."""
    return [
        str(c.get("content") or "")
        for c, _ in walk(components)
        if c.get("type") == TEXT_DISPLAY and isinstance(c.get("content"), str)
    ]


def media_items(components: list[Any]) -> Iterator[tuple[dict[str, Any], Path]]:
    """Every unfurled media item (a gallery item's and a thumbnail's `media`, a file's
    `file`), with its path."""
    for component, path in walk(components):
        kind = component.get("type")
        if kind == MEDIA_GALLERY:
            for index, item in enumerate(component.get("items") or []):
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield item["media"], (*path, "items", str(index), "media")
        elif kind == THUMBNAIL and isinstance(component.get("media"), dict):
            yield component["media"], (*path, "media")
        elif kind == FILE and isinstance(component.get("file"), dict):
            yield component["file"], (*path, "file")


def attachment_name(url: Any) -> str | None:
    """The file an `attachment://name` reference names, or None for any other address."""
    if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
        return url[len(ATTACHMENT_SCHEME) :]
    return None


def is_web_url(url: Any) -> bool:
    """An address Discord can unfurl: http or https with a host."""
    if not isinstance(url, str):
        return False
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def as_returned(
    components: list[dict[str, Any]], files: dict[str, dict[str, Any]], owner: str
) -> list[dict[str, Any]]:
    """The components as Discord returns them on a message (ContainerComponentResponse and the
    others in its OpenAPI description): each numbered (`id`, depth first from 1, unless the
    sender numbered it), the optional fields filled with their defaults, and each media item
    resolved into the file it names (`files`: an attachment's payload by filename) or the URL
    it points at (a media item of a URL is given the id of its message, `owner`)."""
    out = copy.deepcopy(components)
    taken = {c["id"] for c, _ in walk(out) if isinstance(c.get("id"), int)}
    next_id = 1
    for component, _ in walk(out):
        if not isinstance(component.get("id"), int):
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
        kind = component.get("type")
        if kind == CONTAINER:
            component.setdefault("accent_color", None)
            component["spoiler"] = bool(component.get("spoiler"))
        elif kind == SEPARATOR:
            component["divider"] = component.get("divider") is not False
            component["spacing"] = component.get("spacing") or 1
        elif kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                item["description"] = item.get("description")
                item["spoiler"] = bool(item.get("spoiler"))
                item["media"] = _resolved(item.get("media") or {}, files, owner)
        elif kind == THUMBNAIL:
            component["description"] = component.get("description")
            component["spoiler"] = bool(component.get("spoiler"))
            component["media"] = _resolved(component.get("media") or {}, files, owner)
        elif kind == FILE:
            component["spoiler"] = bool(component.get("spoiler"))
            found = files.get(attachment_name((component.get("file") or {}).get("url")) or "")
            component["file"] = _resolved(component.get("file") or {}, files, owner)
            component["name"] = found["filename"] if found else None
            component["size"] = found["size"] if found else None
    return out


def _resolved(
    media: dict[str, Any], files: dict[str, dict[str, Any]], owner: str
) -> dict[str, Any]:
    """An unfurled media item as Discord returns it (UnfurledMediaResponse): an attachment's
    address, size and type for `attachment://`, the URL itself otherwise."""
    url = media.get("url")
    name = attachment_name(url)
    found = files.get(name) if name is not None else None
    if found is None:
        return {
            "id": owner,
            "url": url,
            "proxy_url": url,
            "width": None,
            "height": None,
            "content_type": None,
        }
    return {
        "id": found["id"],
        "url": found["url"],
        "proxy_url": found["proxy_url"],
        "width": found.get("width"),
        "height": found.get("height"),
        "content_type": found.get("content_type"),
        "attachment_id": found["id"],
    }
