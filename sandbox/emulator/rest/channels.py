"""Channels and their messages: reading a channel, posting, reading, editing and deleting a
message, starting a thread from one, and serving attachments' bytes. Discord's refusals are
kept: closed DMs (403 / 50007), threads without the permission, another user's message,
ephemeral messages (reachable only through their interaction), and group DMs, where the bot
is no member (403 / 50001): an app installed by a user reaches one only by answering an
interaction there (Developer docs, Application Commands > Contexts: a user-installed app
"can only respond to interactions").
"""

from __future__ import annotations

import secrets
from typing import Any

from aiohttp import web

from ..models import (
    EPHEMERAL,
    GUILD_TEXT,
    HAS_THREAD,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_SEND_MESSAGES_IN_THREADS,
    Channel,
    StoredMessage,
)
from ..openapi import Violation
from .routes import API, BODY, FILES, Files, Routes, json_response

THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes Discord accepts


class ChannelRoutes(Routes):
    """A channel, its messages and threads, and attachments."""

    def add_routes(self, router: web.UrlDispatcher) -> None:
        router.add_get(f"{API}/channels/{{channel_id}}", self.get_channel)
        router.add_post(f"{API}/channels/{{channel_id}}/messages", self.create_message)
        message = f"{API}/channels/{{channel_id}}/messages/{{message_id}}"
        router.add_get(message, self.get_message)
        router.add_patch(message, self.edit_message)
        router.add_delete(message, self.delete_message)
        router.add_post(f"{message}/threads", self.start_thread)
        member = f"{API}/channels/{{channel_id}}/thread-members/{{user_id}}"
        router.add_put(member, self.add_thread_member)
        router.add_delete(member, self.remove_thread_member)
        router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment)

    def _missing_access(self, request: web.Request, channel: Channel) -> web.Response | None:
        """Discord's refusal of a channel the bot is no member of (a group DM), if it is one."""
        if channel.is_group_dm:
            return self.error(request, 403, 50001, "Missing Access")
        return None

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.emu.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return self.error(request, 404, 10003, "Unknown Channel")
        refused = self._missing_access(request, channel)
        if refused is not None:
            return refused
        return json_response(channel.payload(self.emu.users))

    async def get_attachment(self, request: web.Request) -> web.Response:
        """A file, to whoever has its signed address: the bot that sent it, or a person the
        page showed its message to. Without the signature it is as if there were none."""
        try:
            wanted = int(request.match_info["attachment_id"])
            channel_id = int(request.match_info["channel_id"])
        except ValueError:
            return web.Response(status=404)
        signature = request.query.get("hm", "")
        for message in self.emu.messages_by_id.values():
            if message.channel_id != channel_id:
                continue
            for item in message.attachments:
                if item.id == wanted and secrets.compare_digest(signature, item.key):
                    return web.Response(body=item.data, content_type=item.content_type)
        return web.Response(status=404)

    # ------------------------------------------------------------------ channel messages

    def _channel_message(
        self, request: web.Request
    ) -> tuple[Channel | None, StoredMessage | None, web.Response | None]:
        emu = self.emu
        channel = emu.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return None, None, self.error(request, 404, 10003, "Unknown Channel")
        refused = self._missing_access(request, channel)
        if refused is not None:
            return channel, None, refused
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
        refused = self._missing_access(request, channel)
        if refused is not None:
            return refused
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
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            earlier = emu.by_nonce(channel.id, str(body["nonce"]))
            if earlier is not None:
                emu.duplicates_refused += 1
                return self.message_json(earlier)
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
        refused = self.check_message(
            request, body, files, creating=False, before=message, patching=True
        )
        if refused is not None:
            return refused
        self.emu.apply_body(message, body, files, editing=True)
        self.emu.record("message_edit", request, message=message, payload=body)
        return self.message_json(message)

    # ------------------------------------------------------------------ thread members

    def _thread_member(
        self, request: web.Request
    ) -> tuple[Channel | None, int, web.Response | None]:
        """The thread and the user of a thread-member route, or Discord's refusal: an
        unknown channel (404 / 10003), one that is no thread (400 / 50024), an unknown user
        (404 / 10013), or a bot that may not send messages in threads (403 / 50013), which
        adding and removing others requires."""
        emu = self.emu
        channel = emu.channels.get(int(request.match_info["channel_id"]))
        user_id = int(request.match_info["user_id"])
        if channel is None:
            return None, user_id, self.error(request, 404, 10003, "Unknown Channel")
        if not channel.is_thread:
            refused = self.error(request, 400, 50024, "Cannot execute action on this channel type")
            return None, user_id, refused
        if user_id not in emu.users:
            return None, user_id, self.error(request, 404, 10013, "Unknown User")
        if not emu.app_permissions & PERM_SEND_MESSAGES_IN_THREADS:
            return None, user_id, self.error(request, 403, 50013, "Missing Permissions")
        return channel, user_id, None

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """Add Thread Member: 204, the user now a member (again, it changes nothing)."""
        thread, user_id, failed = self._thread_member(request)
        if failed is not None or thread is None:
            return failed or web.Response(status=404)
        thread.members.add(user_id)
        self.emu.record(
            "thread_member_add", request, channel_id=thread.id, payload={"user_id": str(user_id)}
        )
        return web.Response(status=204)

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        """Remove Thread Member: 204, the user no longer a member (if they were)."""
        thread, user_id, failed = self._thread_member(request)
        if failed is not None or thread is None:
            return failed or web.Response(status=404)
        thread.members.discard(user_id)
        self.emu.record(
            "thread_member_remove", request, channel_id=thread.id, payload={"user_id": str(user_id)}
        )
        return web.Response(status=204)

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
        return json_response(data, 201)

    async def delete_message(self, request: web.Request) -> web.Response:
        _, message, failed = self._channel_message(request)
        if failed is not None or message is None:
            return failed or web.Response(status=404)
        self.emu.messages_by_id.pop(message.id, None)
        self.emu.record("delete", request, message=message)
        return web.Response(status=204)
