"""`SandboxPage`: the people, and the HTTP and WebSocket routes of the page, served by the
emulator's own server (same port, loopback only).

The page acts through a small JSON API as its people: a slash command, a button press,
autocomplete, a chat message, a change of language. Each runs through the emulator exactly as
a test's `slash` / `click` would, so the bot cannot tell a person at the page from a test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from aiohttp import web

from sandbox.emulator import (
    Channel,
    DiscordEmulator,
    EmulatorUsageError,
    InteractionFailed,
    Role,
    StoredMessage,
    User,
)
from sandbox.emulator.models import (
    PERM_MANAGE_CHANNELS,
    PERM_MANAGE_GUILD,
    PERM_MANAGE_MESSAGES,
    PERM_MANAGE_ROLES,
)
from sandbox.emulator.rest.guard import foreign_caller

from .commands import Refused, typed_options
from .sockets import Hub
from .views import LOCALES, channel_shown, may_see, view_json

DEFAULT_PEOPLE = ("Ada", "Bruno", "Chiara", "Dieter")
# The server's roles, lowest first, so the page's people can be given what a real server gives
# its members: an admin (who manages the server's settings), a moderator (Manage Messages, who
# may end games and remove players), and two roles with no permission of their own, for a
# server's settings to name (the role that opens games, the role that moderates them).
SERVER_ROLES = (
    ("Game host", 0),
    ("Referee", 0),
    ("Moderator", PERM_MANAGE_MESSAGES),
    ("Admin", PERM_MANAGE_GUILD | PERM_MANAGE_CHANNELS | PERM_MANAGE_ROLES),
)
STATIC = Path(__file__).resolve().parent / "static"
STATIC_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")
CONTENT_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".ttf": "font/ttf",
    ".txt": "text/plain",
}
NO_RESPONSE = "The application did not respond"
# No other site may show the page inside its own (clickjacking): a framed page's requests come
# from the page's own origin, so a click drawn over by another site would pass `_check_caller`.
UNFRAMED = {"X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'"}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class PageError(Exception):
    """A request the page's API refuses: answered with `status` and `{"error": message}`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _answer(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


def _check_caller(request: web.Request) -> None:
    """Only this machine's browser, on the page itself, may use the page.

    Listening on 127.0.0.1 keeps other machines out, but not other web sites open in the same
    browser: a site can send requests to 127.0.0.1 (a form posting text, a WebSocket), or have
    its own name resolve to 127.0.0.1 (DNS rebinding). So the page answers only requests
    addressed to a loopback name (`Host`), coming from its own origin when a browser says where
    they come from (`Origin`), and with JSON bodies, which a foreign site cannot send without
    the browser asking first, which nothing here allows.
    """
    refusal = foreign_caller(request)
    if refusal is not None:
        raise PageError(403, refusal)
    if request.method == "POST" and request.content_type != "application/json":
        raise PageError(400, "The request body must be a JSON object (application/json).")


def _guarded(handler: Handler) -> Handler:
    """The route's handler, answering only the page's own callers (`_check_caller`), and never
    inside another site's frame (`UNFRAMED`)."""

    async def guarded(request: web.Request) -> web.StreamResponse:
        try:
            _check_caller(request)
            response = await handler(request)
        except PageError as refusal:
            response = _answer({"error": refusal.message}, refusal.status)
        if not response.prepared:  # a WebSocket has said its headers already
            response.headers.update(UNFRAMED)
        return response

    return guarded


class SandboxPage:
    """The browser page for `emu`: adds `people` as members of the server (before the bot
    connects, so they are in its member list), then `install()` before `await emu.start()`.

    With `owner`, the server's owner is one of the page's people too (last), and the server
    has the roles of `SERVER_ROLES`: whoever may manage roles (the owner, an Admin) gives them
    to the others on the page, so settings and moderation can be tried as on a real server.
    """

    def __init__(
        self,
        emu: DiscordEmulator,
        people: Iterable[str | User] = DEFAULT_PEOPLE,
        *,
        owner: bool = True,
    ):
        self.emu = emu
        self.people: list[User] = [
            person if isinstance(person, User) else emu.add_user(person) for person in people
        ]
        if owner and emu.owner not in self.people:
            self.people.append(emu.owner)
            for name, permissions in SERVER_ROLES:
                emu.define_role(name, permissions=permissions)
        # The private answers each person dismissed (by person id): gone from their page for
        # good, as Discord forgets a dismissed ephemeral message, even after a reload.
        self.dismissed: dict[int, set[int]] = {}
        self.hub = Hub(emu, self.people, self.dismissed)

    def install(self) -> None:
        """Have the emulator serve the page's routes and feed its sockets (before `start`)."""
        self.emu.route_installers.append(self.add_routes)
        self.emu.watchers.append(self.hub.on_change)

    @property
    def url(self) -> str:
        return f"{self.emu.base_url}/"

    def add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get("/", _guarded(self.index))
        r.add_get("/favicon.ico", self.no_icon)
        r.add_get("/sandbox/static/{name}", _guarded(self.static))
        r.add_get("/sandbox/api/view", _guarded(self.view))
        r.add_post("/sandbox/api/command", _guarded(self.command))
        r.add_post("/sandbox/api/autocomplete", _guarded(self.autocomplete))
        r.add_post("/sandbox/api/click", _guarded(self.click))
        r.add_post("/sandbox/api/say", _guarded(self.say))
        r.add_post("/sandbox/api/locale", _guarded(self.locale))
        r.add_post("/sandbox/api/dismiss", _guarded(self.dismiss))
        r.add_post("/sandbox/api/role", _guarded(self.role))
        r.add_get("/sandbox/ws", _guarded(self.socket))
        # Anything else under /sandbox is the page's, not a Discord route the bot missed.
        r.add_route("*", "/sandbox/{tail:.*}", _guarded(self.unknown))
        app.on_shutdown.append(self.hub.close)

    # ------------------------------------------------------------------ files

    async def index(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        return self._file(request.match_info["name"])

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    @staticmethod
    def _file(name: str) -> web.StreamResponse:
        path = STATIC / name
        if not STATIC_NAME.match(name) or not path.is_file():
            return web.Response(status=404, text=f"The page has no file {name!r}.")
        content_type = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
        if content_type.startswith("text/"):
            content_type += "; charset=utf-8"
        return web.FileResponse(path, headers={"Content-Type": content_type})

    # ------------------------------------------------------------------ finding things

    def person(self, ident: Any) -> User:
        """One of the page's people, by id (or by name, as in the page's `?as=Ada`)."""
        wanted = str(ident).strip().lower()
        found = next((p for p in self.people if wanted in (str(p.id), p.name.lower())), None)
        if found is None:
            people = ", ".join(f"{p.name} ({p.id})" for p in self.people)
            raise PageError(404, f"There is no person {ident!r} here. The people: {people}.")
        return found

    def channel(self, person: User, ident: Any) -> Channel:
        try:
            found = self.emu.channels.get(int(str(ident)))
        except ValueError:
            found = None
        if found is None or not channel_shown(self.emu, person, found):
            shown = [c for c in self.emu.channels.values() if channel_shown(self.emu, person, c)]
            names = ", ".join(f"{'DM' if c.is_dm else '#' + c.name} ({c.id})" for c in shown)
            raise PageError(404, f"{person.name} has no channel {ident!r}. Channels: {names}.")
        return found

    def message(self, person: User, ident: Any) -> StoredMessage:
        try:
            found = self.emu.messages_by_id.get(int(str(ident)))
        except ValueError:
            found = None
        # Another person's ephemeral message or DM does not exist as far as this one knows.
        if found is None or not may_see(self.emu, person, found):
            raise PageError(404, f"{person.name} sees no message {ident!r}.")
        return found

    @staticmethod
    async def body(request: web.Request, *fields: str) -> dict[str, Any]:
        """The request's JSON object, with `fields` present."""
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            raise PageError(400, "The request body must be a JSON object.")
        missing = [f for f in fields if data.get(f) in (None, "")]
        if missing:
            raise PageError(400, f"Missing field(s): {', '.join(missing)}.")
        return data

    # ------------------------------------------------------------------ the API

    async def view(self, request: web.Request) -> web.Response:
        """One person's view; the first person's when none is named (a page opened plainly)."""
        named = request.query.get("person")
        person = self.person(named) if named else self.people[0]
        return _answer(view_json(self.emu, self.people, person, self.dismissed.get(person.id)))

    async def socket(self, request: web.Request) -> web.StreamResponse:
        person = self.person(request.query.get("person"))
        return await self.hub.serve(request, person)

    async def command(self, request: web.Request) -> web.Response:
        """Run a slash command as a person; answer once the bot acknowledged it."""
        data = await self.body(request, "person", "channel_id", "command")
        person = self.person(data["person"])
        channel = self.channel(person, data["channel_id"])
        given = data.get("options") or {}
        if not isinstance(given, dict):
            raise PageError(400, "options must be an object of option name to value.")
        try:
            options = typed_options(self.emu, self.people, str(data["command"]), given)
            await self.emu.slash(
                person, str(data["command"]), channel=channel, settle=False, wait_s=0, **options
            )
        except Refused as refusal:
            raise PageError(400, str(refusal)) from None
        except EmulatorUsageError as refusal:
            raise PageError(400, str(refusal)) from None
        except InteractionFailed:
            return _answer({"ok": False, "error": NO_RESPONSE})
        return _answer({"ok": True})

    async def autocomplete(self, request: web.Request) -> web.Response:
        """The bot's live choices for the option being typed, in the person's language."""
        data = await self.body(request, "person", "channel_id", "command", "option")
        person = self.person(data["person"])
        channel = self.channel(person, data["channel_id"])
        option, typed = str(data["option"]), str(data.get("typed") or "")
        given = data.get("options") or {}
        if not isinstance(given, dict):
            raise PageError(400, "options must be an object of option name to value.")
        try:
            filled = typed_options(self.emu, self.people, str(data["command"]), given, partial=True)
            filled.pop(option, None)
            choices = await self.emu.autocomplete(
                person, str(data["command"]), option, typed, channel=channel, **filled
            )
        except (Refused, EmulatorUsageError) as refusal:
            raise PageError(400, str(refusal)) from None
        except InteractionFailed:
            return _answer({"choices": [], "error": NO_RESPONSE})
        return _answer({"choices": [{"name": c["name"], "value": c["value"]} for c in choices]})

    async def click(self, request: web.Request) -> web.Response:
        """Press a button of a message the person sees; answer once the bot acknowledged."""
        data = await self.body(request, "person", "message_id", "custom_id")
        person = self.person(data["person"])
        message = self.message(person, data["message_id"])
        try:
            await self.emu.click(
                person, str(data["custom_id"]), message=message.id, settle=False, timeout=0
            )
        except EmulatorUsageError as refusal:
            raise PageError(400, str(refusal)) from None
        except InteractionFailed:
            return _answer({"ok": False, "error": NO_RESPONSE})
        return _answer({"ok": True})

    async def say(self, request: web.Request) -> web.Response:
        data = await self.body(request, "person", "channel_id", "content")
        person = self.person(data["person"])
        channel = self.channel(person, data["channel_id"])
        try:
            message = self.emu.say(person, str(data["content"]), channel=channel)
        except EmulatorUsageError as refusal:
            raise PageError(400, str(refusal)) from None
        return _answer({"ok": True, "id": str(message.id)})

    async def locale(self, request: web.Request) -> web.Response:
        data = await self.body(request, "person", "locale")
        person = self.person(data["person"])
        codes = [code for code, _ in LOCALES]
        if data["locale"] not in codes:
            raise PageError(400, f"No language {data['locale']!r}; languages: {', '.join(codes)}.")
        self.emu.set_locale(person, str(data["locale"]))
        return _answer({"ok": True})

    async def dismiss(self, request: web.Request) -> web.Response:
        """The person dismisses one of their private answers: it leaves their page for good."""
        data = await self.body(request, "person", "message_id")
        person = self.person(data["person"])
        message = self.message(person, data["message_id"])
        if message.visibility.kind != "ephemeral":
            raise PageError(400, "Only a private answer (only you can see it) can be dismissed.")
        self.dismissed.setdefault(person.id, set()).add(message.id)
        return _answer({"ok": True})

    def server_role(self, ident: Any) -> Role:
        found = next((r for r in self.emu.roles.values() if str(r.id) == str(ident)), None)
        if found is None or found.guild_id != self.emu.guild_id:
            names = ", ".join(f"{r.name} ({r.id})" for r in self.emu.roles.values())
            raise PageError(404, f"The server has no role {ident!r}. Its roles: {names}.")
        return found

    async def role(self, request: web.Request) -> web.Response:
        """Give a member a role, or take it away, as `person`: as on Discord, only someone
        with Manage Roles may, and only roles below their own highest (the owner: any)."""
        data = await self.body(request, "person", "member", "role")
        person = self.person(data["person"])
        member = self.person(data["member"])
        role = self.server_role(data["role"])
        given = data.get("given")
        if not isinstance(given, bool):
            raise PageError(400, "given must be true (give the role) or false (take it away).")
        if not self.emu.permissions_of(person) & PERM_MANAGE_ROLES:
            raise PageError(
                403,
                f"{person.name} cannot give roles: that takes the Manage Roles permission"
                " (the server's owner, or an Admin).",
            )
        if person.id != self.emu.owner.id:
            held = self.emu.roles_of(person)
            highest = max((self.emu.roles[r].position for r in held), default=0)
            if role.position >= highest:
                raise PageError(
                    403,
                    f"{person.name} can only give roles below their own highest role;"
                    f" {role.name} is not.",
                )
        if given:
            self.emu.give_role(member, role)
        else:
            self.emu.take_role(member, role)
        return _answer({"ok": True})

    async def unknown(self, request: web.Request) -> web.Response:
        raise PageError(404, f"The sandbox has no {request.method} {request.path}.")
