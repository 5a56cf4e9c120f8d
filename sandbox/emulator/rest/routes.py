"""What every REST route shares: Discord's way of answering (JSON exactly as discord.py
expects it, its error bodies, its checks on a message) and the request's parsed body.

Each group of routes (`accounts`, `commands`, `interactions`, `channels`) is a `Routes`: the
handlers differ, the answers are the same, so they come from this one base rather than being
passed around.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .. import rules
from ..models import EPHEMERAL, Channel, Rejection, StoredMessage, User, Visibility
from ..openapi import Violation, errors_tree
from ..parts import EmulatorParts

API = "/api/v10"

Files = dict[int, tuple[str, bytes, str]]
# What the middleware read from a request, for its handler: the JSON body and the files.
# The body is JSON as the bot sent it, of any shape: each route checks what it reads of it.
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES = web.RequestKey("files", dict)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # Exactly "application/json", no charset: discord.py compares the header verbatim.
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def truthy(value: str | None) -> bool:
    """A query flag as Discord reads it (`?wait=true`)."""
    return (value or "").lower() in ("1", "true", "yes")


def filenames_after(body: Any, files: Files, before: StoredMessage | None) -> set[str]:
    """The names of the files a message will have once `body` is applied (the rule of
    `MessageStore.apply_body`): the uploads, under the names `attachments` gives them, and
    the old files an edit keeps. A Components V2 layout may show only these."""
    listed = body.get("attachments") if isinstance(body, dict) else None
    old = before.attachments if before is not None else []
    if not isinstance(listed, list):
        return {name for name, _, _ in files.values()} | {a.filename for a in old}
    names: set[str] = set()
    kept = {str(a.id): a.filename for a in old}
    for entry in listed:
        if not isinstance(entry, dict):
            continue
        ident = str(entry.get("id"))
        if ident in kept:
            names.add(kept[ident])
        elif ident.isdigit() and int(ident) in files:
            names.add(str(entry.get("filename") or files[int(ident)][0]))
    return names


class Routes:
    """A group of routes of the emulator `emu`, with Discord's answers."""

    def __init__(self, emulator: EmulatorParts) -> None:
        self.emu = emulator

    def error(
        self,
        request: web.Request,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        rejected: bool = True,
    ) -> web.Response:
        """Discord's error answer; unless deliberate (a fault), it is kept as a rejection."""
        body: dict[str, Any] = {"message": message, "code": code}
        if errors:
            body["errors"] = errors
        if rejected:
            self.emu.rejections.append(Rejection(request.method, request.path, status, body))
        return json_response(body, status)

    def invalid(self, request: web.Request, violations: list[Violation]) -> web.Response:
        return self.error(request, 400, 50035, "Invalid Form Body", errors_tree(violations))

    def check_message(
        self,
        request: web.Request,
        body: dict[str, Any],
        files: Files,
        *,
        base: tuple[str, ...] = (),
        creating: bool = True,
        before: StoredMessage | None = None,
        patching: bool = False,
    ) -> web.Response | None:
        """Discord's refusal of a message body and its files, or None when it is accepted;
        `before` is the message an edit changes; `patching`: the body edits a message (a
        PATCH, an update, or the follow-up that replaces a deferral's "thinking…")."""
        violations = rules.check_message(
            body,
            files=len(files),
            base=base,
            creating=creating,
            before=before,
            filenames=filenames_after(body, files, before),
            uploaded_into_edit=filenames_after(body, files, None) if patching else (),
        )
        # Discord's upload limit is on all of a message's files together, not each.
        if sum(len(data) for _, data, _ in files.values()) > rules.FILE_SIZE_LIMIT:
            return self.error(request, 413, 40005, "Request entity too large")
        if not violations:
            return None
        if any(v.code == "MESSAGE_EMPTY" for v in violations):
            return self.error(request, 400, 50006, "Cannot send an empty message")
        return self.invalid(request, violations)

    def visibility(self, channel: Channel, user: User | None, flags: int) -> Visibility:
        """Who sees a message sent to `channel`: its DM's recipient, `user` alone when the
        message is ephemeral (only an interaction's answers can be), or everyone."""
        if channel.is_dm:
            return Visibility.dm_to(channel.recipient_id or 0)
        if flags & EPHEMERAL and user is not None:
            return Visibility.ephemeral_to(user)
        return Visibility.public()

    def message_json(self, message: StoredMessage) -> web.Response:
        return json_response(message.payload(self.emu.base_url))
