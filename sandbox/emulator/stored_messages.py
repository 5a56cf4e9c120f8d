"""Storing what the bot sends: a message created from a request body and its files, and an
edit applied to one, with Discord's rules on which attachments an edit keeps.

The REST routes call these for channel messages, interaction responses and follow-ups alike,
so that every way of sending builds the same `StoredMessage`. One of the parts
`DiscordEmulator` is built from (see `server` for why parts share one object).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from .interactions import InteractionState
from .models import (
    IS_COMPONENTS_V2,
    Attachment,
    Channel,
    Snowflakes,
    StoredMessage,
    User,
    Visibility,
    now,
)

# How long Discord remembers a message's nonce: "the past few minutes", in its words.
NONCE_WINDOW = timedelta(minutes=5)


class MessageStore:
    """The bot's messages by id, built from request bodies."""

    # Set by `DiscordEmulator.__init__`.
    ids: Snowflakes
    bot_user: User
    application_id: int
    channels: dict[int, Channel]
    messages_by_id: dict[int, StoredMessage]
    nonces: dict[tuple[int, str], StoredMessage]

    def store_message(
        self,
        *,
        channel_id: int,
        visibility: Visibility,
        body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        flags: int = 0,
        interaction: InteractionState | None = None,
    ) -> StoredMessage:
        """A new message of the bot's in `channel_id`, kept by id; with `interaction`, it is
        that interaction's answer, sent through the application's webhook as Discord shows it."""
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=channel_id,
            author=self.bot_user,
            visibility=visibility,
            flags=flags,
            guild_id=self.channels[channel_id].guild_id,
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.webhook_id = self.application_id
        self.apply_body(message, body, files)
        if body.get("nonce") is not None:
            message.nonce = str(body["nonce"])
            self.nonces[channel_id, message.nonce] = message
        self.messages_by_id[message.id] = message
        return message

    def by_nonce(self, channel_id: int, nonce: str) -> StoredMessage | None:
        """The bot's message created in the channel with this nonce within Discord's window:
        with `enforce_nonce`, Discord answers a second create with it and makes nothing.

        Looked up by channel and nonce, not by scanning the messages of the last minutes: a
        load run of thousands of games creates that many messages a minute, and the scan on
        every create had grown to a sixth of the emulator's time."""
        message = self.nonces.get((channel_id, nonce))
        if message is None:
            return None
        if message.created_at < now() - NONCE_WINDOW or message.id not in self.messages_by_id:
            del self.nonces[channel_id, nonce]  # forgotten by Discord, or deleted
            return None
        return message

    def apply_body(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        *,
        editing: bool = False,
    ) -> None:
        """Apply what `body` sets to `message`. Attachments follow Discord: a body that lists
        `attachments` keeps the listed old ones and adds the listed uploads; one that does not
        adds every upload, keeping the old ones only on an edit. The IS_COMPONENTS_V2 flag,
        once asked for, stays (Message Resource > Message Flags: it cannot be removed)."""
        flags = body.get("flags")
        if isinstance(flags, int) and flags & IS_COMPONENTS_V2:
            message.flags |= IS_COMPONENTS_V2
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body or "embed" in body:
            embeds = body.get("embeds")
            if embeds is None and body.get("embed") is not None:
                embeds = [body["embed"]]
            message.embeds = list(embeds or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        new: list[Attachment] = []
        listed = body.get("attachments")
        if listed is None:
            kept = message.attachments if editing else []
            for index in sorted(files):
                name, data, ctype = files[index]
                new.append(Attachment(self.ids.next(), name, data, ctype))
        else:
            kept = []
            existing = {a.id: a for a in message.attachments}
            for entry in listed:
                ident = int(entry["id"])
                if ident in existing:
                    kept.append(existing[ident])
                elif ident in files:
                    name, data, ctype = files[ident]
                    filename = entry.get("filename") or name
                    described = entry.get("description")
                    new.append(Attachment(self.ids.next(), filename, data, ctype, described))
        message.attachments = [*kept, *new]
        if editing:
            message.edited_at = now()
