"""What one person sees of the emulated Discord, as the JSON the page draws.

`may_see` is the leak boundary: the whole view, and every live event on a person's socket,
passes through it, so another person's ephemeral answers and DMs never reach their browser.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from sandbox.emulator import Channel, DiscordEmulator, StoredMessage, User, layout
from sandbox.emulator.models import LOADING, PERM_MANAGE_ROLES, iso

from .commands import command_tree

# The languages a person can switch their Discord client to on the page: the ones the bot
# speaks (Discord's own codes, and each language's name in itself).
LOCALES = (("en-US", "English"), ("fr", "Français"), ("de", "Deutsch"), ("it", "Italiano"))
ATTACHMENT_SCHEME = "attachment://"
# Embed parts that may point at one of the message's files.
EMBED_PICTURES = (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"))


def channel_shown(emu: DiscordEmulator, person: User, channel: Channel) -> bool:
    """The server's text channels and threads, and the person's own DM channel with the bot."""
    if channel.is_dm:
        return channel.recipient_id == person.id
    return channel.guild_id == emu.guild_id


def may_see(emu: DiscordEmulator, person: User, message: StoredMessage) -> bool:
    """Whether `person` may see `message`: public messages of channels they see, and what was
    meant for them alone (their ephemeral answers, their DMs)."""
    channel = emu.channels.get(message.channel_id)
    if channel is None or not channel_shown(emu, person, channel):
        return False
    return message.visibility.kind == "public" or message.visibility.user_id == person.id


def person_json(emu: DiscordEmulator, person: User) -> dict[str, Any]:
    """A person as the page lists them: their language, their roles in the server, whether
    they own it and whether they may give roles (Manage Roles)."""
    return {
        "id": str(person.id),
        "name": person.name,
        "locale": emu.locale_of(person),
        "roles": [str(r) for r in sorted(emu.roles_of(person))],
        "owner": person.id == emu.owner.id,
        "manage_roles": bool(emu.permissions_of(person) & PERM_MANAGE_ROLES),
    }


def roles_json(emu: DiscordEmulator) -> list[dict[str, Any]]:
    """The server's roles, highest first, as Discord lists them (@everyone aside)."""
    roles = [r for r in emu.roles.values() if r.guild_id == emu.guild_id]
    return [
        {"id": str(r.id), "name": r.name, "position": r.position}
        for r in sorted(roles, key=lambda r: -r.position)
    ]


def channels_json(emu: DiscordEmulator) -> list[dict[str, Any]]:
    """The server's text channels in their order, each followed by its threads."""
    texts = sorted(
        (c for c in emu.channels.values() if c.guild_id == emu.guild_id and c.type == 0),
        key=lambda c: c.position,
    )
    out: list[dict[str, Any]] = []
    for channel in texts:
        out.append({"id": str(channel.id), "name": channel.name, "kind": "text", "parent_id": None})
        out += [
            {"id": str(t.id), "name": t.name, "kind": "thread", "parent_id": str(channel.id)}
            for t in emu.threads(channel)
        ]
    return out


def message_json(emu: DiscordEmulator, message: StoredMessage) -> dict[str, Any]:
    """A message as the page draws it: its files by their URLs on this server (embeds'
    `attachment://` pictures too), who ran the command it answers, whether it is still
    "thinking…". Of a Components V2 message (`layout`), the components are the whole message
    and come as Discord returns them, each picture resolved to its file's address here; its
    files show only where the layout shows them, as in Discord."""
    files = []
    by_name: dict[str, dict[str, Any]] = {}
    for item in message.attachments:
        data = item.payload("", message.channel_id)  # a URL relative to the page's own server
        by_name[item.filename] = data
        files.append(
            {
                "id": data["id"],
                "url": data["url"],
                "filename": data["filename"],
                "content_type": data["content_type"],
                "description": data.get("description"),
                "width": data.get("width"),
                "height": data.get("height"),
            }
        )
    urls = {f["filename"]: f["url"] for f in files}
    state = emu.interactions.get(message.interaction_id or 0)
    interaction = None
    if state is not None and state.command:
        interaction = {"user": state.user.name, "command": state.command}
    return {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": {
            "id": str(message.author.id),
            "name": message.author.name,
            "bot": message.author.bot,
        },
        "content": message.content,
        "embeds": [_embed_json(embed, urls) for embed in message.embeds],
        "attachments": files,
        "components": layout.as_returned(message.components, by_name, str(message.id))
        if message.is_layout
        else copy.deepcopy(message.components),
        "layout": message.is_layout,
        "visibility": message.visibility.kind,
        "thinking": bool(message.flags & LOADING),
        "edited": message.edited_at is not None,
        "timestamp": iso(message.created_at),
        "interaction": interaction,
    }


def _embed_json(embed: dict[str, Any], urls: dict[str, str]) -> dict[str, Any]:
    out = copy.deepcopy(embed)
    for part, key in (*EMBED_PICTURES, ("footer", "icon_url")):
        holder = out.get(part)
        if not isinstance(holder, dict):
            continue
        url = holder.get(key)
        if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
            holder[key] = urls.get(url[len(ATTACHMENT_SCHEME) :], url)
    return out


def view_json(
    emu: DiscordEmulator,
    people: list[User],
    person: User,
    hidden: Collection[int] | None = None,
) -> dict[str, Any]:
    """Everything `person` sees when the page opens (the first frame of their socket), less
    the private answers they dismissed (`hidden`)."""
    hidden = hidden or ()
    dm = emu.dm_channel(person.id)
    channels = channels_json(emu)
    messages: dict[str, list[dict[str, Any]]] = {c["id"]: [] for c in channels}
    messages[str(dm.id)] = []
    for message in emu.messages_by_id.values():
        key = str(message.channel_id)
        if key in messages and may_see(emu, person, message) and message.id not in hidden:
            messages[key].append(message_json(emu, message))
    return {
        "guild": {"id": str(emu.guild_id), "name": emu.guild_name},
        "bot": {"id": str(emu.bot_user.id), "name": emu.bot_user.name},
        "person": person_json(emu, person),
        "people": [person_json(emu, p) for p in people],
        "roles": roles_json(emu),
        "locales": [{"code": code, "name": name} for code, name in LOCALES],
        "channels": channels,
        "dm_channel_id": str(dm.id),
        "commands": command_tree(emu, emu.locale_of(person), person),
        "messages": messages,
    }
