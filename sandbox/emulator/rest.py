"""The REST side of the emulated Discord: the routes a bot like ours calls, answered the way
Discord answers them, including its errors.

A middleware does what Discord does before any route: checks the bot token, applies armed
faults (429, closed DMs), reads JSON or multipart bodies (`payload_json` plus `files[n]`) and
validates them against the OpenAPI schema when it is available. Route handlers then apply
Discord's own rules (interaction acknowledged once and within the window, follow-ups only after
it, ephemeral messages only editable through their interaction, message limits) and record
everything accepted.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import rules
from .gateway import SESSION_START_RESET_MS
from .models import (
    EPHEMERAL,
    GUILD_TEXT,
    HAS_THREAD,
    LOADING,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_SEND_MESSAGES_IN_THREADS,
    Change,
    Channel,
    Rejection,
    StoredMessage,
    User,
    Visibility,
)
from .openapi import Violation, errors_tree

if TYPE_CHECKING:
    from .server import DiscordEmulator, InteractionState

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Interaction type -> callback types Discord accepts for it.
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
NO_AUTH_PREFIXES = (f"{API}/interactions/", f"{API}/webhooks/", f"{API}/gateway")
# Discord's own paths, which the middleware looks after; the gateway's socket and any pages
# installed next to them (`DiscordEmulator.route_installers`) are passed straight through, so
# that a page's long-lived socket is not a request the bot has in flight.
DISCORD_PREFIXES = ("/api/", "/attachments/")
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes Discord accepts
# The locales Discord accepts in name_localizations and description_localizations.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)

Files = dict[int, tuple[str, bytes, str]]
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", dict)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json", no charset: discord.py compares the header verbatim.
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


class Rest:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self.emu = emulator

    # ------------------------------------------------------------------ plumbing

    def add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get(f"{API}/gateway", self.get_gateway)
        r.add_get(f"{API}/gateway/bot", self.get_gateway_bot)
        r.add_get(f"{API}/users/@me", self.get_me)
        r.add_post(f"{API}/users/@me/channels", self.create_dm)
        r.add_get(f"{API}/users/{{user_id}}", self.get_user)
        r.add_get(f"{API}/oauth2/applications/@me", self.get_application)
        for scope in ("", "/guilds/{guild_id}"):
            path = f"{API}/applications/{{app_id}}{scope}/commands"
            r.add_get(path, self.get_commands)
            r.add_put(path, self.put_commands)
        r.add_post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        r.add_post(f"{API}/webhooks/{{app_id}}/{{token}}", self.followup)
        hook_message = f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}"
        r.add_get(hook_message, self.get_webhook_message)
        r.add_patch(hook_message, self.edit_webhook_message)
        r.add_delete(hook_message, self.delete_webhook_message)
        r.add_get(f"{API}/channels/{{channel_id}}", self.get_channel)
        r.add_post(f"{API}/channels/{{channel_id}}/messages", self.create_message)
        message = f"{API}/channels/{{channel_id}}/messages/{{message_id}}"
        r.add_get(message, self.get_message)
        r.add_patch(message, self.edit_message)
        r.add_delete(message, self.delete_message)
        r.add_post(f"{message}/threads", self.start_thread)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment)
        r.add_route("*", "/{tail:.*}", self.unknown_route)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(DISCORD_PREFIXES):
            return await handler(request)
        emu = self.emu
        emu.in_flight += 1
        emu.touch()
        status = 500
        try:
            response = await self._guarded(request, handler)
            status = response.status
            response.headers["Via"] = "1.1 google"
            return response
        finally:
            emu.in_flight -= 1
            emu.log_request(request.method, request.path, status)
            emu.touch()

    async def _guarded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        emu = self.emu
        path = request.path
        needs_auth = path.startswith(API) and not path.startswith(NO_AUTH_PREFIXES)
        if (needs_auth or path == f"{API}/gateway/bot") and request.headers.get(
            "Authorization"
        ) != f"Bot {emu.token}":
            return self.error(request, 401, 0, "401: Unauthorized")
        fault = emu.faults.take(request.method, path)
        if fault is not None:
            return _json(fault.body, fault.status, dict(fault.headers))
        try:
            body, files = await self._read_body(request)
        except ValueError as exc:
            return self.error(request, 400, 50109, f"The request body contains invalid JSON: {exc}")
        request[BODY], request[FILES] = body, files
        if emu.validator is not None and body is not None:
            violations = emu.validator.check_request(request.method, path, body)
            if violations:
                return self.invalid(request, violations)
        return await handler(request)

    async def _read_body(self, request: web.Request) -> tuple[Any, Files]:
        files: Files = {}
        if not request.can_read_body:
            return None, files
        if request.content_type.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                elif name.startswith("files["):
                    index = int(name[len("files[") : -1])
                    data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                    filename = getattr(part, "filename", None) or f"file{index}"
                    ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
                    files[index] = (filename, data, ctype)
            return body if body is not None else {}, files
        raw = await request.text()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except json.JSONDecodeError as exc:
            raise ValueError(str(exc)) from exc

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
        return _json(body, status)

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
    ) -> web.Response | None:
        violations = rules.check_message(body, files=len(files), base=base, creating=creating)
        # Discord's upload limit is on all of a message's files together, not each.
        if sum(len(data) for _, data, _ in files.values()) > rules.FILE_SIZE_LIMIT:
            return self.error(request, 413, 40005, "Request entity too large")
        if not violations:
            return None
        if any(v.code == "MESSAGE_EMPTY" for v in violations):
            return self.error(request, 400, 50006, "Cannot send an empty message")
        return self.invalid(request, violations)

    def visibility(self, channel: Channel, user: User | None, flags: int) -> Visibility:
        if channel.is_dm:
            return Visibility.dm_to(channel.recipient_id or 0)
        if flags & EPHEMERAL and user is not None:
            return Visibility.ephemeral_to(user)
        return Visibility.public()

    def message_json(self, message: StoredMessage) -> web.Response:
        return _json(message.payload(self.emu.base_url))

    # ------------------------------------------------------------------ misc

    async def unknown_route(self, request: web.Request) -> web.Response:
        self.emu.unhandled.append(f"{request.method} {request.path}")
        return self.error(request, 404, 0, "404: Not Found")

    async def get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.emu.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """Where to connect, how many shards to run, and how fast they may IDENTIFY."""
        gateway = self.emu.gateway
        return _json(
            {
                "url": self.emu.gateway_url,
                "shards": gateway.recommended_shards,
                "session_start_limit": {
                    "total": gateway.session_start_total,
                    "remaining": gateway.session_starts_remaining,
                    "reset_after": SESSION_START_RESET_MS,
                    "max_concurrency": gateway.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        return _json({**self.emu.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.emu.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self.error(request, 404, 10013, "Unknown User")
        return _json(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body = request[BODY] or {}
        user = self.emu.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            return self.error(request, 404, 10013, "Unknown User")
        return _json(self.emu.dm_channel(user.id).payload(self.emu.users))

    async def get_application(self, request: web.Request) -> web.Response:
        emu = self.emu
        return _json(
            {
                "id": str(emu.application_id),
                "name": emu.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": emu.owner.payload(),
                "team": None,
                "bot": emu.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(emu.guilds),
            }
        )

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.emu.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return self.error(request, 404, 10003, "Unknown Channel")
        return _json(channel.payload(self.emu.users))

    async def get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.emu.messages_by_id.values():
            for item in message.attachments:
                if item.id == wanted:
                    return web.Response(body=item.data, content_type=item.content_type)
        return web.Response(status=404)

    # ------------------------------------------------------------------ commands

    def _scope(self, request: web.Request) -> tuple[int | None, web.Response | None]:
        if int(request.match_info["app_id"]) != self.emu.application_id:
            return None, self.error(request, 403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        if guild is not None and int(guild) not in self.emu.guilds:
            return None, self.error(request, 403, 50001, "Missing Access")
        return (int(guild) if guild else None), None

    async def get_commands(self, request: web.Request) -> web.Response:
        scope, failed = self._scope(request)
        if failed is not None:
            return failed
        return _json(list(self.emu.commands.get(scope, {}).values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope, failed = self._scope(request)
        if failed is not None:
            return failed
        body = request[BODY] or []
        violations = _check_commands(body)
        if violations:
            return self.invalid(request, violations)
        emu = self.emu
        old = emu.commands.get(scope, {})
        new: dict[str, dict[str, Any]] = {}
        for command in body:
            previous = old.get(command["name"])
            stored = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
                "id": previous["id"] if previous else str(emu.ids.next()),
                "application_id": str(emu.application_id),
                "version": str(emu.ids.next()),
            }
            if scope is not None:
                stored["guild_id"] = str(scope)
            new[command["name"]] = stored
        emu.commands[scope] = new
        emu.command_syncs += 1
        emu.notify(Change("commands"))
        return _json(list(new.values()))

    # ------------------------------------------------------------------ interactions

    def _interaction_for_token(
        self, request: web.Request
    ) -> tuple[InteractionState | None, web.Response | None]:
        emu = self.emu
        state = emu.interactions_by_token.get(request.match_info["token"])
        if int(request.match_info["app_id"]) != emu.application_id or state is None:
            return None, self.error(request, 404, 10015, "Unknown Webhook")
        if state.callback_type is None:
            return None, self.error(request, 404, 10015, "Unknown Webhook")
        return state, None

    async def callback(self, request: web.Request) -> web.Response:
        emu = self.emu
        state = emu.interactions.get(int(request.match_info["interaction_id"]))
        if state is None or state.token != request.match_info["token"]:
            return self.error(request, 404, 10062, "Unknown interaction")
        late = asyncio.get_running_loop().time() - state.created_at > emu.interaction_window
        if state.expired or late:
            state.expired = True
            state.answered.set()
            return self.error(request, 404, 10062, "Unknown interaction")
        if state.callback_type is not None:
            return self.error(request, 400, 40060, "Interaction has already been acknowledged.")
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        kind = body.get("type")
        if kind not in ALLOWED_CALLBACKS.get(state.type, set()):
            return self.invalid(
                request,
                [
                    Violation(
                        ("type",),
                        "INTERACTION_CALLBACK_TYPE_INVALID",
                        f"Callback type {kind} is not valid for interaction type {state.type}.",
                    )
                ],
            )
        data: dict[str, Any] = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        channel = emu.channels[state.channel_id]
        source = emu.messages_by_id.get(state.source_message_id or 0)
        message: StoredMessage | None = None
        if kind in (4, 7):
            refused = self.check_message(request, data, files, base=("data",), creating=kind == 4)
            if refused is not None:
                return refused
        if kind == 4:
            message = emu.store_message(
                channel_id=channel.id,
                visibility=self.visibility(channel, state.user, flags),
                body=data,
                files=files,
                flags=flags & EPHEMERAL,
                interaction=state,
            )
            state.original_message_id = message.id
            emu.record("response", request, message=message, interaction=state, payload=body)
        elif kind == 5:
            message = emu.store_message(
                channel_id=channel.id,
                visibility=self.visibility(channel, state.user, flags),
                body={},
                files={},
                flags=(flags & EPHEMERAL) | LOADING,
                interaction=state,
            )
            state.original_message_id = message.id
            state.placeholder_pending = True
            emu.record("deferred", request, message=message, interaction=state, payload=body)
        elif kind == 6:
            state.original_message_id = state.source_message_id
            emu.record(
                "deferred_update",
                request,
                message=source,
                channel_id=channel.id,
                interaction=state,
                payload=body,
                visibility=source.visibility if source else Visibility.public(),
            )
        elif kind == 7:
            if source is None:
                return self.error(request, 400, 40067, "There is no message to update.")
            emu.apply_body(source, data, files, editing=True)
            state.original_message_id = source.id
            message = source
            emu.record("update", request, message=source, interaction=state, payload=body)
        elif kind == 8:
            state.choices = list(data.get("choices") or [])
            emu.record(
                "autocomplete",
                request,
                channel_id=channel.id,
                interaction=state,
                payload=body,
                visibility=Visibility.ephemeral_to(state.user),
                choices=state.choices,
            )
        else:
            emu.record(
                "modal",
                request,
                channel_id=channel.id,
                interaction=state,
                payload=body,
                visibility=Visibility.ephemeral_to(state.user),
            )
        state.callback_type = kind
        state.acknowledged_at = asyncio.get_running_loop().time()
        state.answered.set()
        if not _truthy(request.query.get("with_response")):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(state.id),
                "type": state.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.flags & EPHEMERAL),
            }
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": message.payload(emu.base_url)}
        return _json(answer)

    async def followup(self, request: web.Request) -> web.StreamResponse:
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        emu = self.emu
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        refused = self.check_message(request, body, files)
        if refused is not None:
            return refused
        if state.placeholder_pending:
            # The first follow-up after a deferred reply replaces the "thinking..." message and
            # keeps the deferral's visibility, whatever flags it asks for.
            message = emu.messages_by_id[state.original_message_id or 0]
            emu.apply_body(message, body, files, editing=False)
            message.flags &= ~LOADING
            state.placeholder_pending = False
        else:
            channel = emu.channels[state.channel_id]
            flags = int(body.get("flags") or 0)
            message = emu.store_message(
                channel_id=channel.id,
                visibility=self.visibility(channel, state.user, flags),
                body=body,
                files=files,
                flags=flags & EPHEMERAL,
                interaction=state,
            )
            state.followup_ids.append(message.id)
        emu.record("followup", request, message=message, interaction=state, payload=body)
        if _truthy(request.query.get("wait")):
            return self.message_json(message)
        return web.Response(status=204)

    def _webhook_message(
        self, request: web.Request, state: InteractionState
    ) -> tuple[StoredMessage | None, bool]:
        wanted = request.match_info["message_id"]
        if wanted == "@original":
            ident = state.original_message_id
            return self.emu.messages_by_id.get(ident or 0), True
        ident = int(wanted)
        if ident != state.original_message_id and ident not in state.followup_ids:
            return None, False
        return self.emu.messages_by_id.get(ident), ident == state.original_message_id

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        message, _ = self._webhook_message(request, state)
        if message is None:
            return self.error(request, 404, 10008, "Unknown Message")
        return self.message_json(message)

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        message, original = self._webhook_message(request, state)
        if message is None:
            return self.error(request, 404, 10008, "Unknown Message")
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        refused = self.check_message(request, body, files, creating=False)
        if refused is not None:
            return refused
        self.emu.apply_body(message, body, files, editing=True)
        if original and state.placeholder_pending:
            message.flags &= ~LOADING
            state.placeholder_pending = False
        kind = "edit_original" if original else "edit_followup"
        self.emu.record(kind, request, message=message, interaction=state, payload=body)
        return self.message_json(message)

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        message, original = self._webhook_message(request, state)
        if message is None:
            return self.error(request, 404, 10008, "Unknown Message")
        if original:
            # With the "thinking…" message gone, a follow-up is a new message of its own, with
            # its own visibility (Discord fixed this in 2021: discord-api-docs#2739).
            state.placeholder_pending = False
        self.emu.messages_by_id.pop(message.id, None)
        self.emu.record("delete", request, message=message, interaction=state)
        return web.Response(status=204)

    # ------------------------------------------------------------------ channel messages

    def _channel_message(
        self, request: web.Request
    ) -> tuple[Channel | None, StoredMessage | None, web.Response | None]:
        emu = self.emu
        channel = emu.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return None, None, self.error(request, 404, 10003, "Unknown Channel")
        message = emu.messages_by_id.get(int(request.match_info["message_id"]))
        # Ephemeral messages exist only for their interaction: the channel route cannot see them.
        if message is None or message.channel_id != channel.id or message.flags & EPHEMERAL:
            return channel, None, self.error(request, 404, 10008, "Unknown Message")
        return channel, message, None

    async def create_message(self, request: web.Request) -> web.Response:
        emu = self.emu
        channel = emu.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return self.error(request, 404, 10003, "Unknown Channel")
        if channel.is_dm and channel.recipient_id in emu.faults.closed_dms:
            return self.error(
                request, 403, 50007, "Cannot send messages to this user", rejected=False
            )
        if channel.is_thread and not emu.app_permissions & PERM_SEND_MESSAGES_IN_THREADS:
            return self.error(request, 403, 50013, "Missing Permissions")
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        refused = self.check_message(request, body, files)
        if refused is not None:
            return refused
        message = emu.store_message(
            channel_id=channel.id,
            visibility=self.visibility(channel, None, 0),
            body=body,
            files=files,
        )
        emu.record(
            "dm" if channel.is_dm else "channel_message", request, message=message, payload=body
        )
        return self.message_json(message)

    async def get_message(self, request: web.Request) -> web.Response:
        _, message, failed = self._channel_message(request)
        if failed is not None or message is None:
            return failed or web.Response(status=404)
        return self.message_json(message)

    async def edit_message(self, request: web.Request) -> web.Response:
        _, message, failed = self._channel_message(request)
        if failed is not None or message is None:
            return failed or web.Response(status=404)
        if message.author.id != self.emu.bot_user.id:
            return self.error(request, 403, 50005, "Cannot edit a message authored by another user")
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        refused = self.check_message(request, body, files, creating=False)
        if refused is not None:
            return refused
        self.emu.apply_body(message, body, files, editing=True)
        self.emu.record("message_edit", request, message=message, payload=body)
        return self.message_json(message)

    async def start_thread(self, request: web.Request) -> web.Response:
        """Start Thread from Message: a public thread whose id is the message's, answered
        with the thread channel (201) after a THREAD_CREATE on the gateway."""
        emu = self.emu
        channel, message, failed = self._channel_message(request)
        if failed is not None or channel is None or message is None:
            return failed or web.Response(status=404)
        if channel.type != GUILD_TEXT:
            return self.error(request, 400, 50024, "Cannot execute action on this channel type")
        if not emu.app_permissions & PERM_CREATE_PUBLIC_THREADS:
            return self.error(request, 403, 50013, "Missing Permissions")
        if message.flags & HAS_THREAD or message.id in emu.channels:
            return self.error(
                request, 400, 160004, "A thread has already been created for this message"
            )
        body: dict[str, Any] = request[BODY] or {}
        name = body.get("name")
        archive = body.get("auto_archive_duration") or 1440
        problems = []
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(Violation(("name",), "BASE_TYPE_BAD_LENGTH", "Must be 1 to 100 long"))
        if archive not in THREAD_ARCHIVE_DURATIONS:
            problems.append(
                Violation(("auto_archive_duration",), "BASE_TYPE_CHOICES", "Not a valid choice")
            )
        if problems:
            return self.invalid(request, problems)
        thread = emu.start_thread(channel, message, str(name), auto_archive_duration=archive)
        data = thread.payload(emu.users)
        if emu.gateway.sessions_for(thread.guild_id):
            await emu.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        emu.record("thread_create", request, channel_id=thread.id, payload=body)
        return _json(data, 201)

    async def delete_message(self, request: web.Request) -> web.Response:
        _, message, failed = self._channel_message(request)
        if failed is not None or message is None:
            return failed or web.Response(status=404)
        self.emu.messages_by_id.pop(message.id, None)
        self.emu.record("delete", request, message=message)
        return web.Response(status=204)


def _check_commands(commands: list[dict[str, Any]]) -> list[Violation]:
    """Rules Discord applies to command definitions beyond the schema's lengths."""
    out: list[Violation] = []
    names = [c.get("name") for c in commands]
    out += _check_unique_localized(commands, ())
    for index, command in enumerate(commands):
        path = (str(index),)
        name = command.get("name") or ""
        if names.count(name) > 1:
            out.append(
                Violation(
                    (*path, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {name}",
                )
            )
        out += _check_command_options(command.get("options") or [], path, top=command)
        out += _check_localizations(command, path)
        if command.get("type", 1) in (None, 1) and not command.get("description"):
            out.append(
                Violation((*path, "description"), "BASE_TYPE_REQUIRED", "This field is required")
            )
    return out


def _check_command_options(
    options: list[dict[str, Any]], path: tuple[str, ...], *, top: dict[str, Any]
) -> list[Violation]:
    out: list[Violation] = []
    name = top.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        out.append(
            Violation(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    seen_optional = False
    out += _check_unique_localized(options, (*path, "options"))
    for index, option in enumerate(options):
        here = (*path, "options", str(index))
        out += _check_localizations(option, here)
        for number, choice in enumerate(option.get("choices") or []):
            out += _check_localizations(choice, (*here, "choices", str(number)), choice=True)
        if not option.get("description"):
            out.append(
                Violation((*here, "description"), "BASE_TYPE_REQUIRED", "This field is required")
            )
        if option.get("type") in (1, 2):
            out += _check_command_options(option.get("options") or [], here, top=option)
            continue
        if (
            not COMMAND_NAME.match(option.get("name") or "")
            or option["name"] != option["name"].lower()
        ):
            out.append(
                Violation(
                    (*here, "name"),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Option name is invalid: {option.get('name')!r}",
                )
            )
        if option.get("required"):
            if seen_optional:
                out.append(
                    Violation(
                        (*path, "options"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        if option.get("autocomplete") and option.get("choices"):
            out.append(
                Violation(
                    (*here, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set with choices",
                )
            )
    return out


def _check_localizations(
    node: dict[str, Any], path: tuple[str, ...], *, choice: bool = False
) -> list[Violation]:
    """A command's, option's or choice's names and descriptions in other languages: known
    locales, names by the same rules as the default name (a choice's: 1-100 characters),
    descriptions of 1-100 characters."""
    out: list[Violation] = []
    names = node.get("name_localizations") or {}
    descriptions = node.get("description_localizations") or {}
    for field, table in (
        ("name_localizations", names),
        ("description_localizations", descriptions),
    ):
        for locale, text in table.items():
            here = (*path, field, locale)
            if locale not in LOCALES:
                out.append(Violation(here, "LOCALE_INVALID", f"Invalid locale: {locale!r}"))
            if not isinstance(text, str):
                out.append(Violation(here, "BASE_TYPE_STRING", "Must be a string"))
                continue
            if field == "description_localizations" or choice:
                if not 1 <= len(text) <= 100:
                    out.append(
                        Violation(
                            here, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length"
                        )
                    )
            elif not COMMAND_NAME.match(text) or text != text.lower():
                out.append(
                    Violation(
                        here,
                        "APPLICATION_COMMAND_INVALID_NAME",
                        f"Localized name is invalid: {text!r}",
                    )
                )
    return out


def _check_unique_localized(
    siblings: list[dict[str, Any]], path: tuple[str, ...]
) -> list[Violation]:
    """Names must stay unique among siblings in every language (a localised name counts, and
    a missing one falls back to the default name)."""
    out: list[Violation] = []
    locales = {loc for node in siblings for loc in (node.get("name_localizations") or {})}
    for locale in sorted(locales):
        seen: set[str] = set()
        for node in siblings:
            name = (node.get("name_localizations") or {}).get(locale) or node.get("name") or ""
            if name in seen:
                out.append(
                    Violation(
                        (*path, "name_localizations", locale),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique in {locale}: {name}",
                    )
                )
            seen.add(name)
    return out
