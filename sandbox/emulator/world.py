"""The world the bot lives in: guilds, their channels and threads, DM channels, users and their
languages, and these as Discord's payloads (a member, a guild as GUILD_CREATE carries it).

Tests build it (`add_user`, `add_guild`, `add_channel`, `allow_threads`); the REST routes and
the gateway read it. One of the parts `DiscordEmulator` is built from (see `server` for why
parts share one object).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import EmulatorUsageError
from .feed import ChangeFeed
from .models import (
    ALL_PERMISSIONS,
    GROUP_DM,
    GUILD_CATEGORY,
    GUILD_TEXT,
    HAS_THREAD,
    MEMBER_PERMISSIONS,
    PERM_ADMINISTRATOR,
    PERM_MANAGE_ROLES,
    PUBLIC_THREAD,
    THREAD_PERMISSIONS,
    Change,
    Channel,
    Guild,
    Role,
    Snowflakes,
    StoredMessage,
    User,
    iso,
    now,
    shard_of,
)

if TYPE_CHECKING:
    from .gateway import Gateway

DEFAULT_LOCALE = "en-US"  # every client's and the server's language unless a test sets one


class World(ChangeFeed):
    """Guilds, channels, threads, DMs and users; the first guild is the one most tests need."""

    # Set by `DiscordEmulator.__init__`.
    ids: Snowflakes
    bot_user: User
    owner: User
    guild_id: int
    guilds: dict[int, Guild]
    users: dict[int, User]
    locales: dict[int, str]
    channels: dict[int, Channel]
    channel: Channel
    dm_channels: dict[int, Channel]
    app_permissions: int
    gateway: Gateway
    roles: dict[int, Role]
    member_roles: dict[int, set[int]]  # user id: the ids of the roles they were given
    user_installs: set[int]  # the people who installed the app to their own account
    external_apps_off: set[int]  # guilds whose members' own apps may answer only privately

    def add_user(
        self,
        name: str,
        *,
        manage_channels: bool = False,
        manage_guild: bool = False,
        manage_messages: bool = False,
        locale: str = DEFAULT_LOCALE,
    ) -> User:
        """A member of the server whose Discord client is set to `locale`, with the
        permissions named (Manage Channels, Manage Server, Manage Messages)."""
        user = User(
            self.ids.next(),
            name,
            manage_channels=manage_channels,
            manage_guild=manage_guild,
            manage_messages=manage_messages,
        )
        self.users[user.id] = user
        self.locales[user.id] = locale
        return user

    def set_locale(self, user: User, locale: str) -> None:
        """The user switches their Discord client's language (seen from their next
        interaction on)."""
        self.locales[user.id] = locale
        self.notify(Change("user", user_id=user.id))

    def locale_of(self, user: User) -> str:
        return self.locales.get(user.id, DEFAULT_LOCALE)

    @property
    def guild_name(self) -> str:
        return self.guilds[self.guild_id].name

    @guild_name.setter
    def guild_name(self, name: str) -> None:
        self.guilds[self.guild_id].name = name

    @property
    def guild_locale(self) -> str:
        return self.guilds[self.guild_id].locale

    @guild_locale.setter
    def guild_locale(self, locale: str) -> None:
        self.guilds[self.guild_id].locale = locale

    def set_guild_locale(self, locale: str, guild_id: int | None = None) -> None:
        """A server's preferred language (the first one's unless `guild_id` says otherwise): in
        interactions at once; in GUILD_CREATE, so in discord.py's `guild.preferred_locale`, from
        the bot's next connection."""
        self.guilds[guild_id or self.guild_id].locale = locale

    def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        guild_id: int | None = None,
        channel_name: str = "general",
    ) -> int:
        """Another server with the bot in it, and with a text channel `channel_name` (see
        `default_channel`); returns its id.

        Discord serves a guild's events on shard `(guild_id >> 22) % shard_count`: pass
        `shard=(k, n)` for a guild on shard k of n, or the exact `guild_id`. Every user is a
        member, with the same permissions as in the first guild. Add guilds before the bot
        connects; one added later reaches a connected bot with
        `await emu.gateway.dispatch("GUILD_CREATE", emu.guild_payload(guild_id))`, as when a
        bot is invited to a server.
        """
        if guild_id is None:
            guild_id = self.ids.on_shard(*shard) if shard is not None else self.ids.next()
        if guild_id in self.guilds or guild_id in self.channels or guild_id in self.users:
            raise EmulatorUsageError(f"the id {guild_id} is taken")
        self.guilds[guild_id] = Guild(guild_id, name, DEFAULT_LOCALE)
        self.guilds[guild_id].channel_id = self.add_channel(channel_name, guild_id).id
        return guild_id

    def default_channel(self, guild_id: int | None = None) -> Channel:
        """The text channel a guild was created with (`channel` for the first guild)."""
        return self.channels[self.guilds[guild_id or self.guild_id].channel_id]

    def guilds_on_shard(self, shard_id: int, shard_count: int) -> list[int]:
        """The ids of the guilds whose events go to shard `shard_id` of `shard_count`."""
        return [g for g in self.guilds if shard_of(g, shard_count) == shard_id]

    def add_channel(
        self,
        name: str,
        guild_id: int | None = None,
        *,
        category: Channel | None = None,
        kind: int = GUILD_TEXT,
    ) -> Channel:
        """A text channel at the end of a guild's list (the first guild's by default), in
        `category` if one is given."""
        guild = guild_id or self.guild_id
        if guild not in self.guilds:
            raise EmulatorUsageError(f"there is no guild {guild}")
        if category is not None and (category.type != GUILD_CATEGORY or category.guild_id != guild):
            raise EmulatorUsageError(f"{category.name} is not a category of guild {guild}")
        position = sum(
            1
            for c in self.channels.values()
            if c.guild_id == guild and not c.is_dm and not c.is_thread
        )
        channel = Channel(
            self.ids.next(),
            name,
            guild,
            position,
            type=kind,
            parent_id=category.id if category is not None else None,
        )
        self.channels[channel.id] = channel
        return channel

    def define_role(self, name: str, *, permissions: int = 0, guild_id: int | None = None) -> Role:
        """A role in a guild (the first one's by default) granting `permissions`, given to
        nobody yet, made before the bot connects: the guild it is told of (GUILD_CREATE)
        carries it. Once the bot is connected, use `add_role`, which tells it."""
        guild = guild_id or self.guild_id
        if guild not in self.guilds:
            raise EmulatorUsageError(f"there is no guild {guild}")
        position = 1 + sum(1 for r in self.roles.values() if r.guild_id == guild)
        role = Role(self.ids.next(), name, guild, position, permissions)
        self.roles[role.id] = role
        return role

    async def add_role(
        self, name: str, guild_id: int | None = None, *, permissions: int = 0
    ) -> Role:
        """A role in a guild (the first one's by default) granting `permissions`, given to
        nobody yet. A bot connected to the guild's shard is told (GUILD_ROLE_CREATE), as
        Discord tells it."""
        guild = guild_id or self.guild_id
        role = self.define_role(name, permissions=permissions, guild_id=guild)
        if self.gateway.sessions_for(guild):
            await self.gateway.dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(guild), "role": role.payload()}
            )
        return role

    def give_role(self, user: User, role: Role) -> None:
        """The member gets the role (seen from their next interaction on)."""
        self.member_roles.setdefault(user.id, set()).add(role.id)
        self.notify(Change("user", user_id=user.id))

    def take_role(self, user: User, role: Role) -> None:
        """The member loses the role (seen from their next interaction on)."""
        self.member_roles.get(user.id, set()).discard(role.id)
        self.notify(Change("user", user_id=user.id))

    def roles_of(self, user: User, guild_id: int | None = None) -> set[int]:
        """The ids of the roles a member holds in a guild (the first one's by default)."""
        guild = guild_id or self.guild_id
        return {r for r in self.member_roles.get(user.id, set()) if self.roles[r].guild_id == guild}

    def permissions_of(self, user: User, guild_id: int | None = None) -> int:
        """A member's permissions in a guild (the first one's by default), as Discord computes
        them: everything for the server's owner; else @everyone's, those given to the user
        directly (`add_user`'s flags), and those of each role they hold; everything again with
        Administrator among them."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        granted = user.permissions
        for role_id in self.roles_of(user, guild_id):
            granted |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if granted & PERM_ADMINISTRATOR else granted

    def allow_manage_roles(self, allowed: bool = True) -> None:
        """Give the bot Manage Roles (or take it away): what it needs to give members roles."""
        if allowed:
            self.app_permissions |= PERM_MANAGE_ROLES
        else:
            self.app_permissions &= ~PERM_MANAGE_ROLES

    def add_category(self, name: str, guild_id: int | None = None) -> Channel:
        """A channel category (type 4): text channels added with `category=` sit in it."""
        return self.add_channel(name, guild_id, kind=GUILD_CATEGORY)

    def allow_threads(self, allowed: bool = True) -> None:
        """Let the bot create public threads and post in them (or take that away)."""
        if allowed:
            self.app_permissions |= THREAD_PERMISSIONS
        else:
            self.app_permissions &= ~THREAD_PERMISSIONS

    def start_thread(
        self, parent: Channel, message: StoredMessage, name: str, **kw: Any
    ) -> Channel:
        """A public thread started from `message` (Discord gives it the message's id)."""
        thread = Channel(
            message.id,
            name,
            parent.guild_id,
            type=PUBLIC_THREAD,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            **kw,
        )
        self.channels[thread.id] = thread
        message.flags |= HAS_THREAD
        return thread

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """The threads started so far (of `parent`, if given), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def dm_channel(self, user_id: int) -> Channel:
        """The bot's DM channel with a user, opened the first time it is asked for."""
        found = self.dm_channels.get(user_id)
        if found is None:
            found = Channel(self.ids.next(), "", None, recipient_id=user_id)
            self.dm_channels[user_id] = found
            self.channels[found.id] = found
        return found

    def install_for(self, user: User) -> None:
        """`user` adds the app to their own account (a user install): its commands that allow
        user installs follow them into DMs and group DMs, where no server installed it."""
        self.user_installs.add(user.id)
        self.notify(Change("user", user_id=user.id))

    def uninstall_for(self, user: User) -> None:
        """`user` removes the app from their account."""
        self.user_installs.discard(user.id)
        self.notify(Change("user", user_id=user.id))

    def allow_external_apps(self, allowed: bool = True, guild_id: int | None = None) -> None:
        """Whether a server (the first one by default) lets its members' own apps answer in
        public (@everyone's Use External Apps, on by default): without it, the answers of an
        app a member installed and the server did not are private to that member."""
        guild = guild_id or self.guild_id
        if allowed:
            self.external_apps_off.discard(guild)
        else:
            self.external_apps_off.add(guild)

    def add_group_dm(self, owner: User, *others: User, name: str = "") -> Channel:
        """A group DM that `owner` opened with `others` (type 3). The bot is no member of it:
        it sees it only through the interactions of people who installed the app."""
        if not others:
            raise EmulatorUsageError("a group DM has at least two people")
        people = (owner.id, *(u.id for u in others))
        channel = Channel(
            self.ids.next(), name, None, type=GROUP_DM, owner_id=owner.id, recipient_ids=people
        )
        self.channels[channel.id] = channel
        return channel

    def member_payload(self, user: User, guild_id: int | None = None) -> dict[str, Any]:
        """A user as a member of a guild (the first one by default), as interactions and
        GUILD_CREATE carry it."""
        guild = guild_id or self.guild_id
        given = self.member_roles.get(user.id, set())
        return {
            "user": user.payload(),
            "roles": [str(r) for r in sorted(given) if self.roles[r].guild_id == guild],
            "joined_at": iso(now()),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions_of(user, guild)),
        }

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """A guild as GUILD_CREATE carries it (the first guild's by default)."""
        guild = self.guilds[guild_id or self.guild_id]
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": str(MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        members = [self.member_payload(u, guild.id) for u in self.users.values()]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                everyone,
                *(r.payload() for r in self.roles.values() if r.guild_id == guild.id),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso(now()),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [
                c.payload()
                for c in self.channels.values()
                if c.guild_id == guild.id and not c.is_dm and not c.is_thread
            ],
            "threads": [c.payload() for c in self.threads() if c.guild_id == guild.id],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
