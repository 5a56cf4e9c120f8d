"""Discord's limits on a message that its OpenAPI schema does not spell out (or spells out
looser than the API enforces for bots).

These always apply, with or without the schema file: a bot message Discord would refuse must
fail in the tests too. Each check returns violations in the same shape as the schema check, so
the emulator answers 400 / 50035 with Discord's nested error object.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from . import layout
from .models import IS_COMPONENTS_V2, StoredMessage
from .openapi import FieldPath, Violation

CONTENT_LIMIT = 2000
ACTION_ROWS_LIMIT = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_LIMIT = 100
LABEL_LIMIT = 80
EMBEDS_LIMIT = 10
EMBED_TOTAL_LIMIT = 6000
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELDS_LIMIT = 25
EMBED_FIELD_NAME_LIMIT = 256
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_FOOTER_LIMIT = 2048
EMBED_AUTHOR_LIMIT = 256
REQUIRED = "This field is required"
FILES_LIMIT = 10
FILE_SIZE_LIMIT = 10 * 1024 * 1024  # of all a message's files together
LINK_STYLE = 5
PREMIUM_STYLE = 6
# Components V2 (Components > Using Message Components, and the Component Reference).
V2_COMPONENTS_LIMIT = 40  # in the whole tree, nested ones included
V2_TEXT_LIMIT = 4000  # of all the Text Displays of a message together
SECTION_TEXTS = (1, 3)
GALLERY_ITEMS = (1, 10)
MEDIA_DESCRIPTION_LIMIT = 1024
ACCENT_COLOUR_MAX = 0xFFFFFF
SEPARATOR_SPACINGS = (1, 2)
LEGACY_FIELDS = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def check_message(
    body: dict[str, Any],
    *,
    files: int,
    base: FieldPath = (),
    creating: bool = True,
    before: StoredMessage | None = None,
    filenames: Collection[str] = (),
    uploaded_into_edit: Collection[str] = (),
) -> list[Violation]:
    """A message body as sent (JSON or `payload_json`), with `files` uploaded beside it.

    `before` is the message an edit changes (None when creating one) and `filenames` the
    files the message will have once the body is applied, which its layout may show
    (`attachment://name`). `uploaded_into_edit`: the files uploaded with an edit (a PATCH,
    or the follow-up that replaces a deferral), which Discord's open bug keeps a gallery from
    showing (`_check_media`)."""
    out: list[Violation] = []
    flags = body.get("flags")
    old_flags = before.flags if before is not None else 0
    v2 = bool((isinstance(flags, int) and flags & IS_COMPONENTS_V2) or old_flags & IS_COMPONENTS_V2)
    if v2:
        out += _check_v2(body, base, before, filenames, uploaded_into_edit)
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        out.append(
            Violation(
                (*base, "content"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {CONTENT_LIMIT} or fewer in length.",
            )
        )
    embeds = body.get("embeds") or []
    if isinstance(embeds, list):
        out += _check_embeds(embeds, (*base, "embeds"))
    components = body.get("components") or []
    if isinstance(components, list) and not v2:
        out += _check_components(components, (*base, "components"))
    if files > FILES_LIMIT:
        out.append(
            Violation(
                (*base, "attachments"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 0 and {FILES_LIMIT} in length.",
            )
        )
    if creating and not (
        content or embeds or components or files or body.get("sticker_ids") or body.get("poll")
    ):
        out.append(Violation(base, "MESSAGE_EMPTY", "Cannot send an empty message"))
    return out


def _check_v2(
    body: dict[str, Any],
    base: FieldPath,
    before: StoredMessage | None,
    filenames: Collection[str],
    uploaded_into_edit: Collection[str] = (),
) -> list[Violation]:
    """What Discord refuses of a message with the IS_COMPONENTS_V2 flag (Message Resource >
    Message Object > Message Flags, and Components > Using Message Components): the flag kept
    once set; no `content`, `embeds`, `poll` or stickers, and a message turned into one must
    clear those it had; at most 40 components in the whole tree and 4,000 characters of text;
    each layout component where the Component Reference allows it; every media item pointing
    at a web address or at one of the message's own files."""
    out: list[Violation] = []
    flags = body.get("flags")
    if (
        before is not None
        and before.flags & IS_COMPONENTS_V2
        and isinstance(flags, int)
        and not flags & IS_COMPONENTS_V2
    ):
        out.append(
            Violation(
                (*base, "flags"),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed once set.",
            )
        )
    legacy = {
        "content": body.get("content") is not None,
        "embeds": bool(body.get("embeds") or body.get("embed")),
        "poll": body.get("poll") is not None,
        "sticker_ids": bool(body.get("sticker_ids")),
    }
    if before is not None and not before.flags & IS_COMPONENTS_V2:
        # Turning a message into a Components V2 one: what it had must be cleared too.
        legacy["content"] |= bool(before.content) and "content" not in body
        legacy["embeds"] |= bool(before.embeds) and "embeds" not in body
    for name, used in legacy.items():
        if used:
            out.append(
                Violation(
                    (*base, name),
                    LEGACY_FIELDS,
                    f"The '{name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
    components = body.get("components")
    if not isinstance(components, list):
        return out
    path = (*base, "components")
    total = layout.count(components)
    if total > V2_COMPONENTS_LIMIT:
        out.append(
            Violation(
                path,
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"A message can have at most {V2_COMPONENTS_LIMIT} components in total "
                f"(this one has {total}).",
            )
        )
    text = sum(len(t) for t in layout.text_of(components))
    if text > V2_TEXT_LIMIT:
        out.append(
            Violation(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"The text of a message's components must be {V2_TEXT_LIMIT} or fewer in "
                f"length (this one has {text}).",
            )
        )
    for index, component in enumerate(components):
        if isinstance(component, dict) and component.get("type") not in layout.TOP_LEVEL:
            out.append(_wrong_type((*path, str(index)), layout.TOP_LEVEL))
    seen: set[str] = set()
    for component, where in layout.walk(components, path):
        out += _check_layout_component(component, where, seen)
    for media, where in layout.media_items(components):
        out += _check_media(media, where, filenames, file=where[-1] == "file")
        if where[-1] == "media" and "items" in where:
            out += _check_gallery_upload(media, where, uploaded_into_edit)
    return out


def _wrong_type(path: FieldPath, allowed: frozenset[int]) -> Violation:
    listed = ", ".join(map(str, sorted(allowed)))
    return Violation((*path, "type"), "BASE_TYPE_CHOICES", f"Value must be one of ({listed}).")


def _bad_length(path: FieldPath, low: int, high: int) -> Violation:
    return Violation(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _too_long(path: FieldPath, limit: int) -> Violation:
    return Violation(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_layout_component(
    component: dict[str, Any], path: FieldPath, seen: set[str]
) -> list[Violation]:
    """One component of a Components V2 tree, as its entry in the Component Reference
    describes it (what it may hold, its lengths and bounds)."""
    out: list[Violation] = []
    kind = component.get("type")
    inner = component.get("components")
    if kind == layout.CONTAINER:
        if not isinstance(inner, list) or not inner:
            out.append(_bad_length((*path, "components"), 1, V2_COMPONENTS_LIMIT))
        for child, where in layout.children(component, path):
            if child.get("type") not in layout.IN_CONTAINER:
                out.append(_wrong_type(where, layout.IN_CONTAINER))
        colour = component.get("accent_color")
        if isinstance(colour, int) and not 0 <= colour <= ACCENT_COLOUR_MAX:
            out.append(
                Violation(
                    (*path, "accent_color"),
                    "NUMBER_TYPE_MAX",
                    f"Must be less than or equal to {ACCENT_COLOUR_MAX}.",
                )
            )
    elif kind == layout.SECTION:
        low, high = SECTION_TEXTS
        if not isinstance(inner, list) or not low <= len(inner) <= high:
            out.append(_bad_length((*path, "components"), low, high))
        for child, where in layout.children(component, path):
            if where[-1] != "accessory" and child.get("type") != layout.TEXT_DISPLAY:
                out.append(_wrong_type(where, frozenset({layout.TEXT_DISPLAY})))
        accessory = component.get("accessory")
        if not isinstance(accessory, dict):
            out.append(Violation((*path, "accessory"), "BASE_TYPE_REQUIRED", REQUIRED))
        elif accessory.get("type") not in (layout.BUTTON, layout.THUMBNAIL):
            out.append(_wrong_type((*path, "accessory"), frozenset({2, 11})))
    elif kind == layout.TEXT_DISPLAY:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            out.append(Violation((*path, "content"), "BASE_TYPE_REQUIRED", REQUIRED))
        elif len(content) > V2_TEXT_LIMIT:
            out.append(_too_long((*path, "content"), V2_TEXT_LIMIT))
    elif kind == layout.MEDIA_GALLERY:
        items = component.get("items")
        low, high = GALLERY_ITEMS
        if not isinstance(items, list) or not low <= len(items) <= high:
            out.append(_bad_length((*path, "items"), low, high))
        for index, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict):
                out += _check_description(item, (*path, "items", str(index)))
    elif kind == layout.THUMBNAIL:
        out += _check_description(component, path)
    elif kind == layout.SEPARATOR:
        spacing = component.get("spacing")
        if spacing is not None and spacing not in SEPARATOR_SPACINGS:
            out.append(
                Violation((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
            )
    elif kind == layout.ACTION_ROW:
        if not isinstance(inner, list) or not 1 <= len(inner) <= BUTTONS_PER_ROW:
            out.append(_bad_length((*path, "components"), 1, BUTTONS_PER_ROW))
    elif kind == layout.BUTTON:
        out += _check_button(component, path, seen)
    return out


def _check_description(holder: dict[str, Any], path: FieldPath) -> list[Violation]:
    """A gallery item's or a thumbnail's alt text: 1 to 1,024 characters when given."""
    text = holder.get("description")
    if text is None:
        return []
    if not isinstance(text, str) or not text:
        return [
            Violation(
                (*path, "description"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
            )
        ]
    if len(text) > MEDIA_DESCRIPTION_LIMIT:
        return [_too_long((*path, "description"), MEDIA_DESCRIPTION_LIMIT)]
    return []


def _check_gallery_upload(
    media: dict[str, Any], path: FieldPath, uploaded_into_edit: Collection[str]
) -> list[Violation]:
    """Discord's open bug (discord-api-docs #7529, "PATCHing with CV2 breaks media uploads"):
    an edit, or the follow-up that replaces a deferral, whose Media Gallery shows a file
    uploaded with it is refused with 400, the attachment "not found"; the same card sent as a
    new message (an answer, a follow-up of its own, a channel message) is accepted, and so is
    an edit that shows only files the message already has."""
    name = layout.attachment_name(media.get("url"))
    if name is None or name not in uploaded_into_edit:
        return []
    return [
        Violation(
            (*path, "url"),
            "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
            f"The referenced attachment ({name}) was not found.",
        )
    ]


def _check_media(
    media: dict[str, Any], path: FieldPath, filenames: Collection[str], *, file: bool
) -> list[Violation]:
    """An unfurled media item: a web address, or `attachment://name` naming one of the
    message's files; a File component takes only the latter (Component Reference > File)."""
    url = media.get("url")
    name = layout.attachment_name(url)
    here = (*path, "url")
    if name is not None:
        if name not in filenames:
            return [
                Violation(
                    here,
                    "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
                    f"The referenced attachment ({name}) was not found.",
                )
            ]
        return []
    if file:
        return [
            Violation(
                here,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_REFERENCE_REQUIRED",
                "A file component must reference an attachment (attachment://filename).",
            )
        ]
    if not layout.is_web_url(url):
        return [Violation(here, "URL_TYPE_INVALID_URL", "Not a well formed URL.")]
    return []


def _check_components(rows: list[Any], path: FieldPath) -> list[Violation]:
    out: list[Violation] = []
    if len(rows) > ACTION_ROWS_LIMIT:
        out.append(
            Violation(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {ACTION_ROWS_LIMIT} in length.",
            )
        )
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        row_path = (*path, str(r))
        if row.get("type") != 1:
            out.append(
                Violation(
                    (*row_path, "type"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "Top-level components must be action rows unless IS_COMPONENTS_V2 is set.",
                )
            )
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= BUTTONS_PER_ROW:
            out.append(
                Violation(
                    (*row_path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {BUTTONS_PER_ROW} in length.",
                )
            )
        for c, child in enumerate(children):
            if isinstance(child, dict) and child.get("type") == 2:
                out += _check_button(child, (*row_path, "components", str(c)), seen)
    return out


def _check_button(button: dict[str, Any], path: FieldPath, seen: set[str]) -> list[Violation]:
    out: list[Violation] = []
    style = button.get("style")
    custom_id = button.get("custom_id")
    label = button.get("label")
    if style == LINK_STYLE:
        if not button.get("url"):
            out.append(
                Violation((*path, "url"), "BASE_TYPE_REQUIRED", "A link button needs a url.")
            )
    elif style != PREMIUM_STYLE:
        if not custom_id:
            out.append(Violation((*path, "custom_id"), "BASE_TYPE_REQUIRED", REQUIRED))
        if button.get("url"):
            out.append(
                Violation(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                    "Only link buttons may have a url.",
                )
            )
    if isinstance(custom_id, str):
        if len(custom_id) > CUSTOM_ID_LIMIT:
            out.append(
                Violation(
                    (*path, "custom_id"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {CUSTOM_ID_LIMIT} or fewer in length.",
                )
            )
        if custom_id in seen:
            out.append(
                Violation(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(custom_id)
    if isinstance(label, str) and len(label) > LABEL_LIMIT:
        out.append(
            Violation(
                (*path, "label"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {LABEL_LIMIT} or fewer in length.",
            )
        )
    if not label and not button.get("emoji") and style != PREMIUM_STYLE:
        out.append(
            Violation(
                (*path, "label"),
                "BUTTON_COMPONENT_INVALID",
                "A button needs a label or an emoji.",
            )
        )
    return out


def _check_embeds(embeds: list[Any], path: FieldPath) -> list[Violation]:
    out: list[Violation] = []
    if len(embeds) > EMBEDS_LIMIT:
        out.append(
            Violation(
                path, "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {EMBEDS_LIMIT} in length."
            )
        )
    total = 0
    for e, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        here = (*path, str(e))
        limits: list[tuple[FieldPath, Any, int]] = [
            ((*here, "title"), embed.get("title"), EMBED_TITLE_LIMIT),
            ((*here, "description"), embed.get("description"), EMBED_DESCRIPTION_LIMIT),
            (
                (*here, "footer", "text"),
                (embed.get("footer") or {}).get("text"),
                EMBED_FOOTER_LIMIT,
            ),
            (
                (*here, "author", "name"),
                (embed.get("author") or {}).get("name"),
                EMBED_AUTHOR_LIMIT,
            ),
        ]
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_LIMIT:
            out.append(
                Violation(
                    (*here, "fields"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 0 and {EMBED_FIELDS_LIMIT} in length.",
                )
            )
        for f, fld in enumerate(fields):
            if isinstance(fld, dict):
                where = (*here, "fields", str(f))
                limits.append(((*where, "name"), fld.get("name"), EMBED_FIELD_NAME_LIMIT))
                limits.append(((*where, "value"), fld.get("value"), EMBED_FIELD_VALUE_LIMIT))
                for key in ("name", "value"):
                    if not fld.get(key):
                        out.append(Violation((*where, key), "BASE_TYPE_REQUIRED", REQUIRED))
        for where, text, limit in limits:
            if isinstance(text, str):
                total += len(text)
                if len(text) > limit:
                    out.append(
                        Violation(
                            where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                        )
                    )
    if total > EMBED_TOTAL_LIMIT:
        out.append(
            Violation(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_LIMIT}",
            )
        )
    return out
