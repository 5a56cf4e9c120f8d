"""Interactions as the bot answers them: the callback (once, within Discord's window, of a
type allowed for the interaction), then follow-ups and edits of the original or of a follow-up
through the interaction's webhook token. A deferred reply shows "thinking…" until its first
follow-up or edit replaces it; ephemeral messages can only be reached this way.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..interactions import (
    GUILD_CONTEXT,
    TOKEN_LIFETIME,
    USER_INSTALL_FOLLOWUPS,
    InteractionState,
)
from ..models import EPHEMERAL, LOADING, StoredMessage, Visibility
from ..openapi import Violation
from .routes import API, BODY, FILES, Files, Routes, json_response, truthy

MAX_FOLLOWUPS = "This interaction has hit the maximum number of follow up messages"
# Interaction type -> callback types Discord accepts for it.
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class InteractionRoutes(Routes):
    """The interaction callback and the interaction webhook's messages."""

    def add_routes(self, router: web.UrlDispatcher) -> None:
        router.add_post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        router.add_post(f"{API}/webhooks/{{app_id}}/{{token}}", self.followup)
        hook_message = f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}"
        router.add_get(hook_message, self.get_webhook_message)
        router.add_patch(hook_message, self.edit_webhook_message)
        router.add_delete(hook_message, self.delete_webhook_message)

    # ------------------------------------------------------------------ interactions

    def _interaction_for_token(
        self, request: web.Request
    ) -> tuple[InteractionState | None, web.Response | None]:
        """The interaction whose webhook token the route names, or Discord's refusal: an
        unknown token, one not acknowledged yet, or one older than its 15 minutes (Receiving
        and Responding > Followup Messages: "Interaction tokens are valid for 15 minutes"),
        which Discord answers 401 / 50027 Invalid Webhook Token."""
        emu = self.emu
        state = emu.interactions_by_token.get(request.match_info["token"])
        if int(request.match_info["app_id"]) != emu.application_id or state is None:
            return None, self.error(request, 404, 10015, "Unknown Webhook")
        if state.callback_type is None:
            return None, self.error(request, 404, 10015, "Unknown Webhook")
        if emu.clock.now() - state.created_at > TOKEN_LIFETIME:
            return None, self.error(request, 401, 50027, "Invalid Webhook Token")
        return state, None

    def _answer_flags(self, state: InteractionState, flags: int) -> int:
        """The flags an answer to the interaction gets: those asked for, and EPHEMERAL too
        where the server does not let the person's own apps answer in public (Permissions >
        USE_EXTERNAL_APPS: "When disabled, users will still be allowed to use their apps but
        the responses will be ephemeral. This only applies to apps not also installed to the
        server.")."""
        if (
            state.context == GUILD_CONTEXT
            and state.user_installed_only
            and state.guild_id in self.emu.external_apps_off
        ):
            return flags | EPHEMERAL
        return flags

    async def callback(self, request: web.Request) -> web.Response:
        emu = self.emu
        state = emu.interactions.get(int(request.match_info["interaction_id"]))
        if state is None or state.token != request.match_info["token"]:
            return self.error(request, 404, 10062, "Unknown interaction")
        late = emu.clock.now() - state.created_at > emu.interaction_window
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
        flags = self._answer_flags(state, int(data.get("flags") or 0))
        channel = emu.channels[state.channel_id]
        source = emu.messages_by_id.get(state.source_message_id or 0)
        message: StoredMessage | None = None
        if kind in (4, 7):
            refused = self.check_message(
                request,
                data,
                files,
                base=("data",),
                creating=kind == 4,
                before=source if kind == 7 else None,
                patching=kind == 7,
            )
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
        state.acknowledged_at = emu.clock.now()
        state.answered.set()
        if not truthy(request.query.get("with_response")):
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
        return json_response(answer)

    async def followup(self, request: web.Request) -> web.StreamResponse:
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        emu = self.emu
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        # The first follow-up after a deferral edits the "thinking…" message (below).
        refused = self.check_message(request, body, files, patching=state.placeholder_pending)
        if refused is not None:
            return refused
        if (
            state.user_installed_only
            and not state.placeholder_pending
            and len(state.followup_ids) >= USER_INSTALL_FOLLOWUPS
        ):
            # Receiving and Responding > Followup Messages: an app installed by the user and
            # not by the server is "limited to 5 followup messages per interaction". The one
            # that replaces a deferral's "thinking…" is the answer itself, not counted.
            return self.error(
                request,
                400,
                40094,
                "This interaction has hit the maximum number of follow up messages",
            )
        if state.placeholder_pending:
            # The first follow-up after a deferred reply replaces the "thinking..." message and
            # keeps the deferral's visibility, whatever flags it asks for.
            message = emu.messages_by_id[state.original_message_id or 0]
            emu.apply_body(message, body, files, editing=False)
            message.flags &= ~LOADING
            state.placeholder_pending = False
        else:
            channel = emu.channels[state.channel_id]
            flags = self._answer_flags(state, int(body.get("flags") or 0))
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
        if truthy(request.query.get("wait")):
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

    def _webhook_target(
        self, request: web.Request
    ) -> tuple[InteractionState, StoredMessage, bool] | web.Response:
        """The interaction of the token, the message it names and whether that is the
        original reply; or Discord's answer when there is no such interaction or message."""
        state, failed = self._interaction_for_token(request)
        if failed is not None or state is None:
            return failed or web.Response(status=404)
        message, original = self._webhook_message(request, state)
        if message is None:
            return self.error(request, 404, 10008, "Unknown Message")
        return state, message, original

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        target = self._webhook_target(request)
        if isinstance(target, web.Response):
            return target
        return self.message_json(target[1])

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        target = self._webhook_target(request)
        if isinstance(target, web.Response):
            return target
        state, message, original = target
        body: dict[str, Any] = request[BODY] or {}
        files: Files = request[FILES]
        refused = self.check_message(
            request, body, files, creating=False, before=message, patching=True
        )
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
        target = self._webhook_target(request)
        if isinstance(target, web.Response):
            return target
        state, message, original = target
        if original:
            # With the "thinking…" message gone, a follow-up is a new message of its own, with
            # its own visibility (Discord fixed this in 2021: discord-api-docs#2739).
            state.placeholder_pending = False
        self.emu.messages_by_id.pop(message.id, None)
        self.emu.record("delete", request, message=message, interaction=state)
        return web.Response(status=204)
