"""The live boards' web server (aiohttp, inside the bot's process), when WEB_PORT is set.

- `GET /board/<game>/<signature>`: the game's page, in the browser's language;
- `GET /board/<game>/<signature>/events`: its updates, as server-sent events;
- `GET /board/<game>/<signature>/<version>.png`: the picture of a version;
- `GET /live.js`, `GET /live.css`: the page's script and style.

A wrong signature, a game that is not there (or not started), and a game whose server turned
its links off all get the same 404, so a stranger learns nothing of which games exist. Every
answer carries the usual headers: a Content-Security-Policy allowing the bot's own script,
style, pictures and events only (nothing inline), no framing, no sniffing, no referrer, and
no caching of a game under way.

Public HTTPS is the operator's: a reverse proxy in front (see the README), with WEB_PUBLIC_URL
its address.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from aiohttp import web

from hvbot.infra.config import ConfigError
from hvbot.infra.links import LiveLinks
from hvbot.store import GameRow
from hvbot.web import assets
from hvbot.web.hub import Frame, Hub, now_ms
from hvbot.web.page import language_from, page_html

log = logging.getLogger(__name__)

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
UNDER_WAY = "no-store"  # a game under way: never kept by a browser or a proxy
ENDED = "public, max-age=3600"  # an ended game no longer changes
ASSETS = "public, max-age=3600"
RETRY_MS = 1000  # how soon a browser connects again to the events when cut off


def cache_control(game: GameRow) -> str:
    return UNDER_WAY if game.is_open else ENDED


class WebServer:
    """Serves the pages of `hub`'s games on `host`:`port`; `links` checks their signatures;
    `clock` is the bot's (the clock's countdown is sent against it)."""

    def __init__(
        self,
        hub: Hub,
        links: LiveLinks,
        host: str,
        port: int,
        clock: Callable[[], datetime],
    ) -> None:
        self.hub = hub
        self.links = links
        self.host = host
        self.port = port
        self.clock = clock
        self._runner: web.AppRunner | None = None
        self.bound_port: int | None = None  # the port listened on (`port` 0: any free one)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        game = r"/board/{game_id:\d{1,18}}/{signature:[0-9a-f]{1,64}}"
        app.router.add_get(game, self._page)
        app.router.add_get(game + "/events", self._events)
        app.router.add_get(game + r"/{version:\d{1,18}}.png", self._picture)
        app.router.add_get("/live.js", self._script)
        app.router.add_get("/live.css", self._style)
        return app

    async def start(self) -> None:
        # Closing waits this long at most for answers under way (the viewers end at once).
        runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise ConfigError(
                f"WEB_PORT {self.port} on {self.host} cannot be served: {exc.strerror or exc}; "
                "choose another port, or leave WEB_PORT empty."
            ) from exc
        self._runner = runner
        self.bound_port = int(runner.addresses[0][1])  # the one given, for port 0
        log.info("serving live boards on %s:%s", self.host, self.bound_port)

    async def close(self) -> None:
        await self.hub.close()  # its viewers end, so their answers do too
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ answers

    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            _guarded(exc)
            raise
        if not response.prepared:  # the events' went with their first bytes
            _guarded(response)
        return response

    async def _checked(self, request: web.Request) -> Frame:
        """The frame of the game a request names, or a 404 that says nothing more."""
        game_id = int(request.match_info["game_id"])
        if not self.links.check(game_id, request.match_info["signature"]):
            raise _not_found()
        frame = await self.hub.frame(game_id)
        if frame is None or not await self.links.allowed(frame.game.guild_id):
            raise _not_found()
        return frame

    async def _page(self, request: web.Request) -> web.Response:
        frame = await self._checked(request)
        language = language_from(request.headers.get("Accept-Language"))
        words, _ = frame.words(language)
        events = self.links.path(frame.game.id) + "/events"
        html = page_html(frame.moment, language, events, now_ms(self.clock), words)
        return web.Response(
            text=html,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": cache_control(frame.game), "Content-Language": language},
        )

    async def _picture(self, request: web.Request) -> web.Response:
        frame = await self._checked(request)
        board = self.hub.boards.get(frame.game.id)
        shown = board.frame_of(int(request.match_info["version"])) if board else None
        if shown is None:
            raise _not_found()  # a version long past: the page asks for the latest
        return web.Response(
            body=shown.png,
            content_type="image/png",
            headers={"Cache-Control": cache_control(frame.game)},
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        frame = await self._checked(request)
        language = language_from(request.headers.get("Accept-Language"))
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": UNDER_WAY,
                "X-Accel-Buffering": "no",  # nginx passes each event on at once
            }
        )
        for name, value in HEADERS.items():
            response.headers[name] = value
        await response.prepare(request)
        with contextlib.suppress(ConnectionError):
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            async for shown in self.hub.follow(frame.game.id):
                if shown is None:
                    await response.write(b": still here\n\n")
                    continue
                if not await self.links.allowed(shown.game.guild_id):
                    break  # its server turned the links off meanwhile: nothing more is shown
                await response.write(shown.event(language, now_ms(self.clock)))
        return response

    async def _script(self, request: web.Request) -> web.Response:
        return web.Response(
            text=assets.SCRIPT,
            content_type="text/javascript",
            charset="utf-8",
            headers={"Cache-Control": ASSETS},
        )

    async def _style(self, request: web.Request) -> web.Response:
        return web.Response(
            text=assets.STYLE,
            content_type="text/css",
            charset="utf-8",
            headers={"Cache-Control": ASSETS},
        )


def _guarded(response: web.StreamResponse) -> None:
    """The headers every answer carries (a 404 too), unless it says otherwise."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Cache-Control", UNDER_WAY)


def _not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="Not found", content_type="text/plain")
