"""Acting as users: what Discord sends the bot when a person runs a slash command, presses a
button, types into an autocompleted option or writes a message, and waiting for its answer.

A command is typed as words and keyword options (`slash(ada, "hv draw", cell="C3")`) and
turned into the interaction data Discord would send, checked against the commands the bot
registered, so a test cannot run a command or option a user would not be offered. One of the
parts `DiscordEmulator` is built from (see `server` for why parts share one object).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from . import rules
from .errors import CommandNotShown, EmulatorUsageError, InteractionFailed
from .gateway import Gateway
from .history import History
from .interactions import (
    BOT_DM_CONTEXT,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    PRIVATE_CHANNEL_CONTEXT,
    USER_INSTALL,
    Clock,
    InteractionState,
)
from .models import (
    PERM_ADMINISTRATOR,
    Change,
    Channel,
    Record,
    Role,
    StoredMessage,
    User,
    Visibility,
)
from .replies import Reply
from .world import World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

OPTION_TYPES = {
    "subcommand": 1,
    "group": 2,
    "string": 3,
    "integer": 4,
    "boolean": 5,
    "user": 6,
    "channel": 7,
    "role": 8,
    "mentionable": 9,
    "number": 10,
    "attachment": 11,
}


def context_of(channel: Channel) -> int:
    """The interaction context of a channel (Interactions > Interaction Context Types): a
    server's channel, the bot's own DM, or any other private channel (a group DM)."""
    if channel.is_group_dm:
        return PRIVATE_CHANNEL_CONTEXT
    return BOT_DM_CONTEXT if channel.is_dm else GUILD_CONTEXT


def installations(command: dict[str, Any], context: int, *, user_installed: bool) -> set[int]:
    """The installations of the app that make `command` available in `context`
    (Application Commands > Contexts): the server's (GUILD_INSTALL, which reaches the server's
    channels and the bot's DM, never a group DM) when the command allows guild installs (its
    `integration_types`, GUILD_INSTALL alone when it names none), and the user's own
    (USER_INSTALL, which reaches everywhere) when they installed the app and the command
    allows user installs."""
    types = command.get("integration_types") or [GUILD_INSTALL]
    found = set()
    if GUILD_INSTALL in types and context in (GUILD_CONTEXT, BOT_DM_CONTEXT):
        found.add(GUILD_INSTALL)
    if USER_INSTALL in types and user_installed:
        found.add(USER_INSTALL)
    return found


def offered(
    command: dict[str, Any], permissions: int, *, context: int, user_installed: bool = False
) -> bool:
    """Whether Discord offers a registered command to a user with `permissions` (theirs in
    the server, `World.permissions_of`) in a channel of `context`: only where its `contexts`
    allow (all three when it names none, less the bot's DM with `dm_permission` false), only
    through an installation that reaches there (`installations`), and, where the server's
    installation offers it in a server, only to members with every permission its
    `default_member_permissions` asks for (a server's own overrides aside)."""
    contexts = command.get("contexts")
    if contexts is None:
        contexts = [GUILD_CONTEXT, PRIVATE_CHANNEL_CONTEXT]
        if command.get("dm_permission") is not False:
            contexts.append(BOT_DM_CONTEXT)
    if context not in contexts:
        return False
    through = installations(command, context, user_installed=user_installed)
    if not through:
        return False
    needed = command.get("default_member_permissions")
    if context != GUILD_CONTEXT or GUILD_INSTALL not in through or needed is None:
        return True
    if int(needed) == 0:  # "0": nobody but administrators
        return bool(permissions & PERM_ADMINISTRATOR)
    return permissions & int(needed) == int(needed)


class Acting(World, History):
    """`slash`, `click`, `autocomplete` and `say`, as a given user."""

    # Set by `DiscordEmulator.__init__`.
    application_id: int
    interaction_window: float
    interactions_by_token: dict[str, InteractionState]
    commands: dict[int | None, dict[str, dict[str, Any]]]
    gateway: Gateway
    clock: Clock

    if TYPE_CHECKING:

        @property
        def base_url(self) -> str:
            """Where the emulator listens (`DiscordEmulator.base_url`): messages link their
            files there."""
            ...

    def _find_command(
        self, name: str, guild_id: int | None, *, group_dm: bool = False
    ) -> tuple[dict[str, Any], int | None]:
        """A command as a user in `guild_id` sees it: the guild's own, then the global ones.
        In the bot's DM the first guild's commands are offered too, so tests can run
        guild-scoped commands there; in a group DM only global commands exist."""
        scopes = (None,) if group_dm else (guild_id or self.guild_id, None)
        for scope in scopes:
            found = self.commands.get(scope, {}).get(name)
            if found is not None:
                return found, scope
        known = sorted({n for scope in self.commands.values() for n in scope})
        raise EmulatorUsageError(f"/{name} is not registered with Discord (registered: {known})")

    def _role(self, role_id: int, guild_id: int | None) -> Role:
        """A role by id; the guild's own id is its @everyone role, as on Discord."""
        if role_id == (guild_id or self.guild_id):
            return Role(role_id, "@everyone", role_id, 0)
        return self.roles[role_id]

    def _check_shown(self, command: dict[str, Any], user: User, channel: Channel) -> None:
        permissions = self.permissions_of(user, channel.guild_id)
        installed = user.id in self.user_installs
        if not offered(command, permissions, context=context_of(channel), user_installed=installed):
            where = (
                "in group DMs"
                if channel.is_group_dm
                else "in DMs"
                if channel.is_dm
                else f"to {user.name}"
            )
            raise CommandNotShown(
                f"/{command['name']} is not offered {where} (default_member_permissions:"
                f" {command.get('default_member_permissions')}, contexts:"
                f" {command.get('contexts')}, dm_permission: {command.get('dm_permission')},"
                f" integration_types: {command.get('integration_types')}, installed by"
                f" {user.name}: {installed})"
            )

    def _owners(self, state: InteractionState, command: dict[str, Any] | None) -> dict[str, str]:
        """`authorizing_integration_owners` of an interaction (Interactions > Interaction
        Object > Authorizing Integration Owners Object): for a command, each installation it
        came through, the server's id (or "0" in the bot's DM) for the server's and the user's
        id for theirs; for a button, those of the interaction whose answer carries it, or the
        server's alone on a message the bot posted by itself."""
        channel = self.channels[state.channel_id]
        guild = str(channel.guild_id) if channel.guild_id is not None else "0"
        if command is not None:
            installed = state.user.id in self.user_installs
            through = installations(command, state.context, user_installed=installed)
            owners = {}
            if GUILD_INSTALL in through:
                owners[str(GUILD_INSTALL)] = guild
            if USER_INSTALL in through:
                owners[str(USER_INSTALL)] = str(state.user.id)
            return owners
        source = self.messages_by_id.get(state.source_message_id or 0)
        origin = self.interactions.get(source.interaction_id or 0) if source else None
        if origin is not None:
            return dict(origin.owners)
        return {str(GUILD_INSTALL): guild}

    def _build_options(
        self,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, Any],
        guild_id: int | None = None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise EmulatorUsageError(f"unknown option(s) {unknown}; known: {sorted(by_name)}")
        out = []
        for option in schema:
            name = option["name"]
            if name not in given:
                if option.get("required"):
                    raise EmulatorUsageError(f"option {name!r} is required")
                continue
            value = given[name]
            kind = option["type"]
            if kind == OPTION_TYPES["user"]:
                user = value if isinstance(value, User) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                member = self.member_payload(user, guild_id)
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
                value = str(user.id)
            elif kind == OPTION_TYPES["channel"]:
                channel = value if isinstance(value, Channel) else self.channels[int(value)]
                allowed = option.get("channel_types")
                if allowed and channel.type not in allowed:
                    raise EmulatorUsageError(
                        f"option {name!r} takes channels of types {allowed}, not {channel.type}"
                    )
                # Discord resolves a channel option to a partial channel with permissions in
                # it (here the ones the emulator grants in every channel).
                resolved.setdefault("channels", {})[str(channel.id)] = {
                    "id": str(channel.id),
                    "name": channel.name,
                    "type": channel.type,
                    "parent_id": str(channel.parent_id) if channel.parent_id else None,
                    "permissions": str(self.app_permissions),
                }
                value = str(channel.id)
            elif kind == OPTION_TYPES["role"]:
                role = value if isinstance(value, Role) else self._role(int(value), guild_id)
                resolved.setdefault("roles", {})[str(role.id)] = role.payload()
                value = str(role.id)
            elif kind == OPTION_TYPES["integer"] and not isinstance(value, int):
                raise EmulatorUsageError(f"option {name!r} takes an integer, not {value!r}")
            elif kind == OPTION_TYPES["string"]:
                value = str(value)
            choices = option.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                allowed = [c["value"] for c in choices]
                raise EmulatorUsageError(f"option {name!r} must be one of {allowed}, not {value!r}")
            out.append({"name": name, "type": kind, "value": value})
        return out

    def _command_data(
        self,
        command: str,
        options: dict[str, Any],
        *,
        focused: tuple[str, str] | None = None,
        guild_id: int | None = None,
        group_dm: bool = False,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        top, scope = self._find_command(words[0], guild_id, group_dm=group_dm)
        resolved: dict[str, Any] = {}
        node_options = top.get("options") or []
        path: list[tuple[str, int]] = []
        for word in words[1:]:
            sub = next((o for o in node_options if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise EmulatorUsageError(f"/{command}: no subcommand {word!r}")
            path.append((word, sub["type"]))
            node_options = sub.get("options") or []
        given = dict(options)
        if focused is not None:
            given.pop(focused[0], None)
        leaf_schema = [o for o in node_options if o["type"] not in (1, 2)]
        if focused is not None:
            # Discord sends what is filled in so far; required options may still be missing.
            leaf_schema = [{**o, "required": False} for o in leaf_schema]
        leaf = self._build_options(leaf_schema, given, resolved, guild_id)
        if focused is not None:
            option = next((o for o in leaf_schema if o["name"] == focused[0]), None)
            if option is None or not option.get("autocomplete"):
                raise EmulatorUsageError(f"/{command} {focused[0]} has no autocomplete")
            leaf.append(
                {"name": focused[0], "type": option["type"], "value": focused[1], "focused": True}
            )
        for word, kind in reversed(path):
            leaf = [{"name": word, "type": kind, "options": leaf}]
        data: dict[str, Any] = {
            "id": top["id"],
            "name": top["name"],
            "type": 1,
            "options": leaf,
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    def _interaction_payload(
        self,
        state: InteractionState,
        data: dict[str, Any],
        message: StoredMessage | None = None,
    ) -> dict[str, Any]:
        channel = self.channels[state.channel_id]
        payload: dict[str, Any] = {
            "id": str(state.id),
            "application_id": str(self.application_id),
            "type": state.type,
            "data": data,
            "token": state.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(self.users),
            "app_permissions": str(self.app_permissions),
            "locale": self.locale_of(state.user),
            "entitlements": [],
            "authorizing_integration_owners": dict(state.owners),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "context": state.context,
        }
        if channel.guild_id is None:
            payload["user"] = state.user.payload()
        else:
            guild = self.guilds[channel.guild_id or self.guild_id]
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = self.member_payload(state.user, guild.id)
        if message is not None:
            payload["message"] = message.payload(self.base_url)
        return payload

    def _new_interaction(
        self,
        kind: int,
        user: User,
        channel_id: int,
        source: StoredMessage | None = None,
        command: dict[str, Any] | None = None,
    ) -> InteractionState:
        """A new interaction of `user` in the channel, on the button of `source` or running
        `command` (as registered), with its context and the installations behind it."""
        channel = self.channels[channel_id]
        if channel.is_group_dm and user.id not in channel.recipient_ids:
            raise EmulatorUsageError(f"{user.name} is not in group DM {channel.id}")
        state = InteractionState(
            id=self.ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel_id=channel_id,
            guild_id=channel.guild_id,
            created_at=self.clock.now(),
            start_seq=self.last_seq,
            source_message_id=source.id if source else None,
            context=context_of(channel),
        )
        state.owners = self._owners(state, command)
        self.interactions[state.id] = state
        self.interactions_by_token[state.token] = state
        return state

    async def _deliver(
        self, state: InteractionState, payload: dict[str, Any], *, settle: bool, timeout: float
    ) -> Reply:
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(state.answered.wait(), self.interaction_window + 0.5)
        except TimeoutError:
            state.expired = True
            raise InteractionFailed(
                f"the bot did not acknowledge interaction {state.id} within "
                f"{self.interaction_window:.0f}s ('The application did not respond')\n"
                f"records since:\n{self.describe(self.records[state.start_seq :])}"
            ) from None
        if state.expired:
            raise InteractionFailed(
                f"interaction {state.id} was acknowledged after Discord's "
                f"{self.interaction_window:.0f}s window"
            )
        if settle:
            await self.settle(timeout=timeout)
        else:
            # A deferred reply is not an answer yet: wait for what replaces "thinking…".
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while state.placeholder_pending and loop.time() < deadline:
                await self._wait_activity(min(0.05, max(0.0, deadline - loop.time())))
        return Reply(r for r in self.records if r.seq > state.start_seq)

    async def slash(
        self,
        user: User,
        command: str,
        *,
        channel: Channel | None = None,
        settle: bool = True,
        wait_s: float = 10.0,
        **options: Any,
    ) -> Reply:
        """Run `/command` as `user` and return what the bot did in answer.

        Waits until the interaction is acknowledged, then (with `settle`) until the bot is done
        (see `settle`; for at most `wait_s`), so follow-ups, channel posts and DMs it caused are
        included. Every other keyword is an option of the command.
        """
        target = channel or self.channel
        group_dm = target.is_group_dm
        data = self._command_data(command, options, guild_id=target.guild_id, group_dm=group_dm)
        registered = self._find_command(data["name"], target.guild_id, group_dm=group_dm)[0]
        self._check_shown(registered, user, target)
        state = self._new_interaction(2, user, target.id, command=registered)
        state.command = " ".join(command.strip().lstrip("/").split())
        payload = self._interaction_payload(state, data)
        return await self._deliver(state, payload, settle=settle, timeout=wait_s)

    async def click(
        self,
        user: User,
        custom_id: str,
        *,
        message: Record | StoredMessage | int,
        settle: bool = True,
        timeout: float = 10.0,
    ) -> Reply:
        """Press the button `custom_id` on `message` as `user`."""
        if isinstance(message, Record):
            if message.message_id is None:
                raise EmulatorUsageError(f"record {message} is not a message")
            message = message.message_id
        stored = self.messages_by_id[message] if isinstance(message, int) else message
        stored = self.messages_by_id[stored.id]  # its state now, after any edits
        if stored.visibility.kind != "public" and stored.visibility.user_id != user.id:
            raise EmulatorUsageError(
                f"{user.name} cannot see message {stored.id} ({stored.visibility})"
            )
        button = next((b for b in stored.buttons if b.custom_id == custom_id), None)
        if button is None:
            have = [b.custom_id for b in stored.buttons]
            raise EmulatorUsageError(f"message {stored.id} has no button {custom_id!r}: {have}")
        if button.disabled:
            raise EmulatorUsageError(f"button {custom_id!r} is disabled")
        state = self._new_interaction(3, user, stored.channel_id, source=stored)
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction_payload(state, data, stored)
        return await self._deliver(state, payload, settle=settle, timeout=timeout)

    async def autocomplete(
        self,
        user: User,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type `typed` into `option` of `/command`; return the choices the bot offered."""
        target = channel or self.channel
        group_dm = target.is_group_dm
        data = self._command_data(
            command, options, focused=(option, typed), guild_id=target.guild_id, group_dm=group_dm
        )
        registered = self._find_command(data["name"], target.guild_id, group_dm=group_dm)[0]
        state = self._new_interaction(4, user, target.id, command=registered)
        payload = self._interaction_payload(state, data)
        await self._deliver(state, payload, settle=False, timeout=5.0)
        if state.callback_type != 8 or state.choices is None:
            raise InteractionFailed(f"autocomplete answered with type {state.callback_type}")
        return state.choices

    def say(self, user: User, content: str, *, channel: Channel | None = None) -> StoredMessage:
        """`user` types a plain message in `channel` (the first guild's by default, or their
        DM channel with the bot): it shows there for everyone who can see it. The bot is not
        told (no MESSAGE_CREATE): it reads no messages."""
        target = channel or self.channel
        if target.is_dm and target.recipient_id != user.id:
            raise EmulatorUsageError(f"{user.name} cannot write in another person's DMs")
        if target.is_group_dm and user.id not in target.recipient_ids:
            raise EmulatorUsageError(f"{user.name} is not in group DM {target.id}")
        if not content.strip() or len(content) > rules.CONTENT_LIMIT:
            raise EmulatorUsageError(
                f"a message holds 1 to {rules.CONTENT_LIMIT} characters, not {len(content)}"
            )
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=target.id,
            author=user,
            visibility=Visibility.dm_to(user) if target.is_dm else Visibility.public(),
            content=content,
            guild_id=target.guild_id,
        )
        self.messages_by_id[message.id] = message
        self.touch()
        self.notify(Change("message", message=message, channel_id=target.id))
        return message
