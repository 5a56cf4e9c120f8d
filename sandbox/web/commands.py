"""The bot's slash commands as a person's Discord client shows them, and the checks the client
makes before sending one.

The tree is read from what the bot registered with the emulated Discord (its names and
descriptions in the person's language, from `name_localizations` and
`description_localizations`). Before a command is sent, its options are checked and typed
against the same schema, the way Discord's client refuses an unknown option or a value that
is not one of the choices: the refusal says what would be legal.
"""

from __future__ import annotations

from typing import Any

from sandbox.emulator import DiscordEmulator, User
from sandbox.emulator.acting import OPTION_TYPES, offered
from sandbox.emulator.interactions import GUILD_CONTEXT

TYPE_NAMES = {number: name for name, number in OPTION_TYPES.items()}
SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, NUMBER = (
    OPTION_TYPES[name]
    for name in (
        "subcommand",
        "group",
        "string",
        "integer",
        "boolean",
        "user",
        "channel",
        "role",
        "number",
    )
)
CHAT_INPUT = 1  # an application command typed with "/" (not a context-menu command)
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "1"), ("false", "no", "0")


class Refused(ValueError):
    """A command the client would not send as given; the message says what would be legal."""


def registered(emu: DiscordEmulator, person: User | None = None) -> dict[str, dict[str, Any]]:
    """The slash commands a member of the server can run, by name: the server's own, then
    the global ones it does not shadow (as `DiscordEmulator.slash` finds them); with
    `person`, only those Discord offers them (not /server to a member who cannot manage it)."""
    found: dict[str, dict[str, Any]] = {}
    for scope in (emu.guild_id, None):
        for name, command in emu.commands.get(scope, {}).items():
            if command.get("type", CHAT_INPUT) == CHAT_INPUT:
                found.setdefault(name, command)
    if person is not None:
        permissions = emu.permissions_of(person)
        installed = person.id in emu.user_installs
        found = {
            n: c
            for n, c in found.items()
            if offered(c, permissions, context=GUILD_CONTEXT, user_installed=installed)
        }
    return dict(sorted(found.items()))


def localised(node: dict[str, Any], key: str, locale: str) -> str:
    """`node[key]` in `locale`, or the default text when the bot gave none for it."""
    table = node.get(f"{key}_localizations") or {}
    return str(table.get(locale) or node.get(key) or "")


def _node(node: dict[str, Any], locale: str, kind: str) -> dict[str, Any]:
    options = [] if kind not in ("command", "subcommand", "group") else node.get("options") or []
    return {
        "name": node["name"],
        "label": localised(node, "name", locale),
        "description": localised(node, "description", locale),
        "type": kind,
        "required": bool(node.get("required", False)),
        "autocomplete": bool(node.get("autocomplete", False)),
        "choices": [
            {"value": c["value"], "label": localised(c, "name", locale)}
            for c in node.get("choices") or []
        ],
        "options": [_node(o, locale, TYPE_NAMES.get(o["type"], str(o["type"]))) for o in options],
    }


def command_tree(
    emu: DiscordEmulator, locale: str, person: User | None = None
) -> list[dict[str, Any]]:
    """Every command (offered to `person`), its subcommands and options, labelled in
    `locale`."""
    return [_node(command, locale, "command") for command in registered(emu, person).values()]


def leaves(emu: DiscordEmulator) -> list[str]:
    """Every runnable command path ("game new", "hv draw", "stats")."""
    out: list[str] = []

    def walk(node: dict[str, Any], path: str) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            out.append(path)
        for sub in subs:
            walk(sub, f"{path} {sub['name']}")

    for name, command in registered(emu).items():
        walk(command, name)
    return out


def find_leaf(emu: DiscordEmulator, command: str) -> tuple[str, list[dict[str, Any]]]:
    """The command's normal form ("game new") and the options it takes."""
    words = command.strip().lstrip("/").split()
    known = leaves(emu)
    listing = ", ".join(f"/{c}" for c in known) or "none yet (the bot has not synced them)"
    node = registered(emu).get(words[0]) if words else None
    if node is None:
        raise Refused(f"There is no command /{' '.join(words)}. Commands: {listing}.")
    for word in words[1:]:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
        found = next((o for o in subs if o["name"] == word), None)
        if found is None:
            raise Refused(f"There is no command /{' '.join(words)}. Commands: {listing}.")
        node = found
    options = node.get("options") or []
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in options):
        within = [c for c in known if c.startswith(" ".join(words) + " ")]
        raise Refused(
            f"/{' '.join(words)} needs a subcommand: " + ", ".join(f"/{c}" for c in within) + "."
        )
    return " ".join(words), options


def typed_options(
    emu: DiscordEmulator,
    people: list[User],
    command: str,
    given: dict[str, Any],
    *,
    partial: bool = False,
) -> dict[str, Any]:
    """The options of `/command` as the emulator sends them, typed by the schema (integers as
    ints, people by their user); empty values count as not given.

    `partial` is for autocomplete, where the form is half filled: missing required options and
    values that do not fit yet are left out instead of refused.
    """
    path, schema = find_leaf(emu, command)
    by_name = {o["name"]: o for o in schema}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        names = ", ".join(by_name) or "none"
        raise Refused(f"/{path} has no option {', '.join(unknown)}. Its options: {names}.")
    out: dict[str, Any] = {}
    for option in schema:
        name = option["name"]
        value = given.get(name)
        if value is None or value == "":
            if option.get("required") and not partial:
                raise Refused(f"/{path} needs {name}: {option.get('description', '')}".rstrip())
            continue
        try:
            out[name] = _typed(option, value, people, _role_names(emu))
        except Refused as refusal:
            if not partial:
                raise Refused(f"/{path}: {refusal}") from None
    return out


def _role_names(emu: DiscordEmulator) -> dict[str, str]:
    """The roles a role option takes, by id: the server's own, and @everyone (whose id is the
    server's, as on Discord)."""
    roles = {str(r.id): r.name for r in emu.roles.values() if r.guild_id == emu.guild_id}
    return {str(emu.guild_id): "@everyone", **roles}


def _typed(option: dict[str, Any], value: Any, people: list[User], roles: dict[str, str]) -> Any:
    name, kind = option["name"], option["type"]
    typed: Any = value
    if kind == INTEGER:
        try:
            typed = int(str(value).strip())
        except ValueError:
            raise Refused(f"{name} takes a whole number, not {value!r}.") from None
    elif kind == NUMBER:
        try:
            typed = float(str(value).strip())
        except ValueError:
            raise Refused(f"{name} takes a number, not {value!r}.") from None
    elif kind == BOOLEAN:
        word = str(value).strip().lower()
        if isinstance(value, bool):
            typed = value
        elif word in TRUE_WORDS or word in FALSE_WORDS:
            typed = word in TRUE_WORDS
        else:
            raise Refused(f"{name} is true or false, not {value!r}.")
    elif kind == USER:
        typed = next((p for p in people if str(p.id) == str(value)), None)
        if typed is None:
            names = ", ".join(f"{p.name} ({p.id})" for p in people)
            raise Refused(f"{name} takes one of the people by id: {names}; not {value!r}.")
    elif kind == ROLE:
        typed = str(value)
        if typed not in roles:
            names = ", ".join(f"{title} ({ident})" for ident, title in roles.items())
            raise Refused(f"{name} takes one of the server's roles by id: {names}; not {value!r}.")
    elif kind in (STRING, CHANNEL):
        typed = str(value)
    choices = option.get("choices") or []
    if choices and typed not in [c["value"] for c in choices]:
        legal = ", ".join(f"{c['value']} ({c['name']})" for c in choices)
        raise Refused(f"{name} must be one of {legal}; not {value!r}.")
    _check_bounds(option, typed)
    return typed


def _check_bounds(option: dict[str, Any], value: Any) -> None:
    """Discord's own limits on a value: min/max for numbers, min/max length for text."""
    name = option["name"]
    low, high = option.get("min_value"), option.get("max_value")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if low is not None and value < low:
            raise Refused(f"{name} must be at least {low}, not {value}.")
        if high is not None and value > high:
            raise Refused(f"{name} must be at most {high}, not {value}.")
    if isinstance(value, str):
        shortest, longest = option.get("min_length", 0), option.get("max_length", 6000)
        if not shortest <= len(value) <= longest:
            raise Refused(f"{name} takes {shortest} to {longest} characters.")
