"""What Discord does before any route: check the bot token, apply armed faults (429, closed
DMs), read JSON or multipart bodies (`payload_json` plus `files[n]`) and validate them against
the OpenAPI schema when it is available; and count each request as in flight while it runs,
which is how `settle` knows the bot is still waiting on Discord.
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from yarl import URL

from .routes import API, BODY, FILES, Files, Routes, json_response

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

NO_AUTH_PREFIXES = (f"{API}/interactions/", f"{API}/webhooks/", f"{API}/gateway")
# Discord's own paths, which the middleware looks after; the gateway's socket and any pages
# installed next to them (`DiscordEmulator.route_installers`) are passed straight through, so
# that a page's long-lived socket is not a request the bot has in flight.
DISCORD_PREFIXES = ("/api/", "/attachments/")


# A header's parameters (`; name="value"` or `; name=value`), as multipart bodies carry them.
PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))')


def header_value(value: str) -> tuple[str, dict[str, str]]:
    """A header's value (lowercase) and its parameters by lowercase name."""
    main = value.split(";", 1)[0].strip().lower()
    params = {
        found[1].lower(): found[2].replace('\\"', '"') if found[2] is not None else found[3].strip()
        for found in PARAMETER.finditer(value)
    }
    return main, params


def multipart_parts(raw: bytes, boundary: str) -> list[tuple[dict[str, str], bytes]]:
    """The parts of a multipart body (RFC 2046), each as its Content-Disposition's parameters
    and its bytes. Read here rather than by aiohttp's reader, whose parsing of every part's
    headers through the `email` package was a quarter of the emulator's time in a load run."""
    parts = []
    delimiter = b"--" + boundary.encode()
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, _, data = chunk.partition(b"\r\n\r\n")
        if data.endswith(b"\r\n"):
            data = data[:-2]  # the line break before the next delimiter is the delimiter's
        disposition: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-disposition":
                disposition = header_value(value)[1]
        parts.append((disposition, data))
    return parts


LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def foreign_caller(request: web.Request) -> str | None:
    """Why a request comes from outside this machine's own bot and page, if it does.

    Listening on 127.0.0.1 keeps other machines out, but not other web sites open in the same
    browser: a site can send requests to 127.0.0.1 (a form, an image, a WebSocket), or have its
    own name resolve to 127.0.0.1 (DNS rebinding), and take over the bot's session or read a
    secret picture. So every route answers only requests addressed to a loopback name
    (`Host`) and, when a browser says where they come from (`Origin`), coming from the page
    itself. The bot sends no Origin."""
    try:
        name = URL(f"http://{request.host}").host
    except ValueError:
        name = None
    if name not in LOOPBACK_NAMES:
        return f"The sandbox answers only at 127.0.0.1, not {request.host!r}."
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"http://{request.host}":
        return f"The sandbox answers only its own page, not {origin!r}."
    return None


class Guard(Routes):
    """The aiohttp middleware in front of every route (`middleware`): no caller from outside
    (`foreign_caller`), and in front of Discord's routes what Discord does; what it refuses,
    it refuses with the same answers as the routes."""

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        refusal = foreign_caller(request)
        if refusal is not None:  # said as Discord says it on its routes, as the page elsewhere
            if request.path.startswith(DISCORD_PREFIXES):
                return json_response({"message": refusal, "code": 0}, 403)
            return json_response({"error": refusal}, 403)
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
            return json_response(fault.body, fault.status, dict(fault.headers))
        try:
            body, files = await self._read_body(request)
        except ConnectionResetError:
            # Its sender went away while the request was held (a process killed meanwhile).
            return web.Response(status=499)
        except ValueError as exc:
            return self.error(request, 400, 50109, f"The request body contains invalid JSON: {exc}")
        request[BODY], request[FILES] = body, files
        hold = emu.faults.holding(request.method, path, body)
        if hold is not None:
            emu.touch()
            await hold.released.wait()
        if emu.validator is not None and body is not None:
            violations = emu.validator.check_request(request.method, path, body)
            if violations:
                return self.invalid(request, violations)
        return await handler(request)

    async def _read_body(self, request: web.Request) -> tuple[Any, Files]:
        files: Files = {}
        if not request.can_read_body:
            return None, files
        ctype, params = header_value(request.headers.get("Content-Type", ""))
        if ctype.startswith("multipart/"):
            body: Any = None
            for disposition, data in multipart_parts(await request.read(), params["boundary"]):
                name = disposition.get("name", "")
                if name == "payload_json":
                    body = json.loads(data.decode())
                elif name.startswith("files["):
                    index = int(name[len("files[") : -1])
                    filename = disposition.get("filename") or f"file{index}"
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
