"""What the emulated Discord knows: users, guilds with text channels, messages, and the records
of everything the bot sent.

Records are the point of the emulator: each one says who could see a message (everyone in the
channel, one user ephemerally, one user by DM), what it said, which buttons it carried and which
files it attached, with PNG attachments already decoded so tests can look at the pixels.
"""

from __future__ import annotations

import io
import itertools
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from PIL import Image

from . import layout

DISCORD_EPOCH_MS = 1_420_070_400_000
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GIF_SIGNATURES = (b"GIF87a", b"GIF89a")

# Message flags Discord uses for interaction replies.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Permission bits the emulator hands out.
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_HISTORY = 1 << 16
PERM_USE_COMMANDS = 1 << 31
PERM_ADMINISTRATOR = 1 << 3
PERM_MANAGE_CHANNELS = 1 << 4
PERM_MANAGE_GUILD = 1 << 5
PERM_MANAGE_MESSAGES = 1 << 13
PERM_MANAGE_ROLES = 1 << 28
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
# Every permission bit Discord defines today: what a server's owner (or an Administrator) has.
ALL_PERMISSIONS = (1 << 51) - 1
THREAD_PERMISSIONS = PERM_CREATE_PUBLIC_THREADS | PERM_SEND_MESSAGES_IN_THREADS

# Channel types.
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
# Message flag of a message a thread was started from.
HAS_THREAD = 1 << 5
MEMBER_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_HISTORY
    | PERM_USE_COMMANDS
)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The gateway shard that carries a guild's events: Discord's rule, which bots use too
    (discord.py's `Guild.shard_id`). Events without a guild (DMs) go to shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


class Snowflakes:
    """Discord-shaped ids: milliseconds since the Discord epoch, then a counter."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id of a guild on shard `shard_id` of `shard_count`.

        The shard depends only on the id's milliseconds, so tests that need a guild on a given
        shard would otherwise depend on the clock; the milliseconds are moved back to the
        nearest fitting value instead (the counter bits keep the id unique).
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"there is no shard {shard_id} of {shard_count}")
        ident = self.next()
        millis = ident >> 22
        millis -= (millis - shard_id) % shard_count
        return (millis << 22) | (ident & 0x3FFFFF)


def iso(moment: datetime) -> str:
    return moment.isoformat()


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class User:
    """A Discord account taking part in the test (a person, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    manage_channels: bool = False
    manage_guild: bool = False  # Manage Server: what `default_member_permissions` asks of admins
    manage_messages: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def permissions(self) -> int:
        return (
            MEMBER_PERMISSIONS
            | (PERM_MANAGE_CHANNELS if self.manage_channels else 0)
            | (PERM_MANAGE_GUILD if self.manage_guild else 0)
            | (PERM_MANAGE_MESSAGES if self.manage_messages else 0)
        )

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Guild:
    """A server the bot is in: its name, its preferred language (`guild_locale` in
    interactions, `preferred_locale` in GUILD_CREATE) and the text channel tests use in it
    when they name none."""

    id: int
    name: str
    locale: str
    channel_id: int = 0


@dataclass(frozen=True)
class Role:
    """A role of a guild that members may be given (`World.add_role`, `give_role`), with the
    permissions it grants its members on top of @everyone's."""

    id: int
    name: str
    guild_id: int
    position: int = 1
    permissions: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(frozen=True)
class Channel:
    """A guild text channel (type 0, in a category if `parent_id` names one), a category
    (type 4), a DM channel (type 1) of the bot with one recipient, a group DM (type 3) of
    people (`recipient_ids`, made by `owner_id`) where the bot is no member, or a public
    thread (type 11) of a text channel (`parent_id`), started by `owner_id`."""

    id: int
    name: str
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None
    type: int = GUILD_TEXT
    parent_id: int | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    created_at: datetime = field(default_factory=now)
    # A thread's members added by the bot (Add Thread Member), not part of its identity.
    members: set[int] = field(default_factory=set, compare=False, hash=False)
    # A group DM's people.
    recipient_ids: tuple[int, ...] = ()

    @property
    def is_dm(self) -> bool:
        """The bot's own DM with one person."""
        return self.guild_id is None and self.type != GROUP_DM

    @property
    def is_group_dm(self) -> bool:
        return self.type == GROUP_DM

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self, users: dict[int, User] | None = None) -> dict[str, Any]:
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": PUBLIC_THREAD,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": False,
                    "create_timestamp": iso(self.created_at),
                },
            }
        if self.is_group_dm:
            people = [(users or {}).get(u) for u in self.recipient_ids]
            return {
                "id": str(self.id),
                "type": GROUP_DM,
                "name": self.name or None,
                "icon": None,
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "flags": 0,
                "recipients": [p.payload() for p in people if p is not None],
            }
        if self.is_dm:
            recipient = (users or {}).get(self.recipient_id or 0)
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [recipient.payload()] if recipient else [],
            }
        if self.type == GUILD_CATEGORY:
            return {
                "id": str(self.id),
                "type": GUILD_CATEGORY,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(frozen=True)
class Visibility:
    """Who can see a message: everyone in the channel, one user ephemerally, or one user by DM."""

    kind: str  # "public" | "ephemeral" | "dm"
    user_id: int | None = None

    @classmethod
    def public(cls) -> Visibility:
        return cls("public")

    @classmethod
    def ephemeral_to(cls, user: User | int) -> Visibility:
        return cls("ephemeral", user.id if isinstance(user, User) else user)

    @classmethod
    def dm_to(cls, user: User | int) -> Visibility:
        return cls("dm", user.id if isinstance(user, User) else user)

    def __str__(self) -> str:
        return self.kind if self.user_id is None else f"{self.kind}:{self.user_id}"


@dataclass(frozen=True)
class Button:
    """One button as the user sees it; `row` is the index of its action row."""

    custom_id: str | None
    label: str | None
    style: int
    row: int
    disabled: bool = False
    url: str | None = None


@dataclass(frozen=True)
class Attachment:
    """An uploaded file; pictures (PNG, GIF) are decoded and loaded so a broken one fails
    early. Of an animated GIF, `image` is the first frame; seek it for the others."""

    id: int
    filename: str
    data: bytes
    content_type: str
    # Its alt text, as the sender described it (`attachments[].description` in the body).
    description: str | None = None
    # The signature of its address, as Discord's CDN signs its own (`hm`): without it the
    # file is not served, so knowing a message's id is not enough to read its secret picture.
    key: str = field(default_factory=lambda: secrets.token_urlsafe(16))

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_SIGNATURE)

    @property
    def is_gif(self) -> bool:
        return self.data.startswith(GIF_SIGNATURES)

    @property
    def image(self) -> Image.Image | None:
        """The decoded picture, or None when the file is not an image."""
        if not (self.is_png or self.is_gif):
            return None
        picture = Image.open(io.BytesIO(self.data))
        picture.load()
        return picture

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}?hm={self.key}"
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        size = png_size(self.data) or gif_size(self.data)
        if size is not None:
            out["width"], out["height"] = size
        return out


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's header (cheap; decoding is left to the tests)."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def gif_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a GIF's logical screen descriptor."""
    if not data.startswith(GIF_SIGNATURES) or len(data) < 10:
        return None
    return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")


def buttons_of(components: list[dict[str, Any]] | None) -> tuple[Button, ...]:
    """Every button of a message as a reader finds it: in its action rows, and in a
    Components V2 layout wherever it sits (a row inside a container, a section's accessory);
    `row` is the index of the top-level component that holds it."""
    found = []
    for row, component in enumerate(components or []):
        if not isinstance(component, dict):
            continue
        for child, _ in layout.walk([component]):
            if child.get("type") == layout.BUTTON:
                found.append(
                    Button(
                        custom_id=child.get("custom_id"),
                        label=child.get("label"),
                        style=int(child.get("style", 0)),
                        row=row,
                        disabled=bool(child.get("disabled", False)),
                        url=child.get("url"),
                    )
                )
    return tuple(found)


@dataclass
class StoredMessage:
    """A message as it is now in a channel (edits change it in place)."""

    id: int
    channel_id: int
    author: User
    visibility: Visibility
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    created_at: datetime = field(default_factory=now)
    edited_at: datetime | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    webhook_id: int | None = None
    guild_id: int | None = None
    nonce: str | None = None  # given when it was created (see `MessageStore.by_nonce`)

    @property
    def buttons(self) -> tuple[Button, ...]:
        return buttons_of(self.components)

    @property
    def is_layout(self) -> bool:
        """Whether it is a Components V2 message (its components are its whole layout)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What a reader reads of it: its content, or a Components V2 message's Text Displays
        (it has no content), as a `Record`'s `text` says them, embeds aside."""
        parts = [self.content]
        if self.is_layout:
            parts += layout.text_of(self.components)
        return "\n".join(p for p in parts if p)

    def payload(self, base_url: str) -> dict[str, Any]:
        attachments = [a.payload(base_url, self.channel_id) for a in self.attachments]
        components = self.components
        if self.is_layout:
            by_name = {a["filename"]: a for a in attachments}
            components = layout.as_returned(self.components, by_name, str(self.id))
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 20 if self.interaction_id else 0,
            "content": self.content,
            "author": self.author.payload(),
            "attachments": attachments,
            "embeds": self.embeds,
            "components": components,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "flags": self.flags,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass(frozen=True)
class Change:
    """Something people would notice in their Discord client: the emulator's change feed
    (`DiscordEmulator.watch`), which a client such as the sandbox's page follows.

    `kind` is "message" (a new message, or one edited: `message` as it is now), "delete"
    (`message` as it was, so a watcher can tell who could see it), "channel" (a thread was
    started: `channel_id`), "commands" (the bot synced its commands) or "user" (`user_id`
    changed, e.g. their client's language).
    """

    kind: str
    message: StoredMessage | None = None
    channel_id: int | None = None
    user_id: int | None = None


@dataclass(frozen=True)
class Record:
    """One thing the bot did that a user could notice, as Discord accepted it.

    `kind` is one of: response (callback type 4), deferred (5), deferred_update (6), update (7),
    autocomplete (8), followup, edit_original, edit_followup, channel_message, dm, message_edit,
    thread_create (a thread started from a message: `channel_id` is the thread's).
    For edits, `content`, `embeds`, `components` and `attachments` describe the message after
    the edit.
    """

    seq: int
    kind: str
    method: str
    path: str
    visibility: Visibility
    channel_id: int | None
    message_id: int | None
    interaction_id: int | None
    content: str
    embeds: tuple[dict[str, Any], ...]
    components: tuple[Button, ...]
    attachments: tuple[Attachment, ...]
    payload: dict[str, Any]
    at: float  # the event loop's clock
    when: datetime
    choices: tuple[dict[str, Any], ...] = ()
    # Of a Components V2 message, its layout as sent (Container, Text Display, gallery...).
    layout: tuple[dict[str, Any], ...] = ()

    @property
    def is_public(self) -> bool:
        return self.visibility.kind == "public"

    @property
    def text(self) -> str:
        """Everything a reader can read: content, every text field of every embed, and the
        Text Displays of a Components V2 layout."""
        parts = [self.content, *layout.text_of(list(self.layout))]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [(embed.get("footer") or {}).get("text") or ""]
            parts += [(embed.get("author") or {}).get("name") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        return [b.custom_id for b in self.components if b.custom_id]

    @property
    def pings(self) -> frozenset[str]:
        """Whom Discord would notify for this message: the ids of the users its content (or
        a Components V2 layout's Text Displays, which ping as content does: Component
        Reference > Text Display) mentions that its `allowed_mentions` let through, and
        "everyone" for an @everyone or @here it allows. Without `allowed_mentions`, Discord
        lets every mention through. An embed's mentions never ping."""
        data = self.payload.get("data", self.payload) if "type" in self.payload else self.payload
        allowed = data.get("allowed_mentions") if isinstance(data, dict) else None
        parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
        listed = set() if allowed is None else {str(u) for u in allowed.get("users", [])}
        said = "\n".join([self.content, *layout.text_of(list(self.layout))])
        users = set(_USER_MENTION.findall(said))
        pinged = users if "users" in parse else users & listed
        if "everyone" in parse and _EVERYONE.search(said):
            pinged = {*pinged, "everyone"}
        return frozenset(pinged)

    def attachment(self, filename: str) -> Attachment:
        for item in self.attachments:
            if item.filename == filename:
                return item
        names = ", ".join(a.filename for a in self.attachments) or "none"
        raise KeyError(f"no attachment {filename!r} (attachments: {names})")

    def has_attachment(self, filename: str) -> bool:
        return any(a.filename == filename for a in self.attachments)

    def __str__(self) -> str:
        files = ",".join(a.filename for a in self.attachments)
        return (
            f"#{self.seq} {self.kind} [{self.visibility}] {self.content[:80]!r}"
            + (f" files={files}" if files else "")
            + (f" buttons={self.custom_ids}" if self.components else "")
        )


_USER_MENTION = re.compile(r"<@!?([0-9]+)>")
_EVERYONE = re.compile(r"@(everyone|here)\b")

MESSAGE_KINDS = frozenset(
    {
        "response",
        "deferred",
        "update",
        "followup",
        "edit_original",
        "edit_followup",
        "channel_message",
        "dm",
        "message_edit",
    }
)


@dataclass(frozen=True)
class RequestLog:
    """Every HTTP request the bot made, with the status the emulator answered."""

    method: str
    path: str
    status: int
    at: float


@dataclass(frozen=True)
class Rejection:
    """A request Discord would refuse: the test should fail unless it expected this."""

    method: str
    path: str
    status: int
    body: dict[str, Any]

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status} {self.body}"
