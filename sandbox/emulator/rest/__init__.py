"""The REST side of the emulated Discord: the routes a bot like ours calls, answered the way
Discord answers them, including its errors.

A middleware (`guard`) does what Discord does before any route: checks the bot token, applies
armed faults, reads the body and validates it against the OpenAPI schema when available. The
routes come in groups, one module each: `accounts` (gateway address, users, DMs), `commands`
(registering slash commands, with Discord's `command_rules`), `interactions` (callbacks,
follow-ups and the interaction webhook), `channels` (messages, threads, attachments) and
`guilds` (members' roles). They
apply Discord's own rules (interaction acknowledged once and within the window, follow-ups
only after it, ephemeral messages only editable through their interaction, message limits) and
record everything accepted. `Rest` puts them on one aiohttp application.
"""

from __future__ import annotations

from aiohttp import web

from ..parts import EmulatorParts
from .accounts import AccountRoutes
from .channels import ChannelRoutes
from .commands import CommandRoutes
from .guard import Guard
from .guilds import GuildRoutes
from .interactions import InteractionRoutes
from .routes import Routes


class Rest(Routes):
    """Discord's REST API for one emulator: `middleware` and `add_routes` for its server."""

    def __init__(self, emulator: EmulatorParts) -> None:
        super().__init__(emulator)
        self.middleware = Guard(emulator).middleware
        self.groups = (
            AccountRoutes(emulator),
            CommandRoutes(emulator),
            InteractionRoutes(emulator),
            ChannelRoutes(emulator),
            GuildRoutes(emulator),
        )

    def add_routes(self, app: web.Application) -> None:
        for group in self.groups:
            group.add_routes(app.router)
        # Last: whatever Discord has but this emulator lacks is a 404, and noted in `unhandled`.
        app.router.add_route("*", "/{tail:.*}", self.unknown_route)

    async def unknown_route(self, request: web.Request) -> web.Response:
        self.emu.unhandled.append(f"{request.method} {request.path}")
        return self.error(request, 404, 0, "404: Not Found")
