"""Discord's limits on a message that its OpenAPI schema does not spell out (or spells out
looser than the API enforces for bots).

These always apply, with or without the schema file: a bot message Discord would refuse must
fail in the tests too. Each check returns violations in the same shape as the schema check, so
the emulator answers 400 / 50035 with Discord's nested error object.
"""

from __future__ import annotations

from typing import Any

from .models import IS_COMPONENTS_V2
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


def check_message(
    body: dict[str, Any], *, files: int, base: FieldPath = (), creating: bool = True
) -> list[Violation]:
    """A message body as sent (JSON or `payload_json`), with `files` uploaded beside it."""
    out: list[Violation] = []
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
    flags = body.get("flags") or 0
    if isinstance(components, list) and not (isinstance(flags, int) and flags & IS_COMPONENTS_V2):
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
