"""Application commands: the bot registers its slash commands (globally or for one guild) and
reads them back; a registration Discord would refuse is refused with its errors (see
`command_rules`), so a command the bot could not register on Discord never works here either.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..models import Change
from .command_rules import check_commands
from .routes import API, BODY, Routes, json_response


class CommandRoutes(Routes):
    """GET and PUT of an application's commands, global or per guild."""

    def add_routes(self, router: web.UrlDispatcher) -> None:
        for scope in ("", "/guilds/{guild_id}"):
            path = f"{API}/applications/{{app_id}}{scope}/commands"
            router.add_get(path, self.get_commands)
            router.add_put(path, self.put_commands)

    def _scope(self, request: web.Request) -> tuple[int | None, web.Response | None]:
        if int(request.match_info["app_id"]) != self.emu.application_id:
            return None, self.error(request, 403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        if guild is not None and int(guild) not in self.emu.guilds:
            return None, self.error(request, 403, 50001, "Missing Access")
        return (int(guild) if guild else None), None

    async def get_commands(self, request: web.Request) -> web.Response:
        scope, failed = self._scope(request)
        if failed is not None:
            return failed
        return json_response(list(self.emu.commands.get(scope, {}).values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope, failed = self._scope(request)
        if failed is not None:
            return failed
        body = request[BODY] or []
        violations = check_commands(body)
        if violations:
            return self.invalid(request, violations)
        emu = self.emu
        old = emu.commands.get(scope, {})
        new: dict[str, dict[str, Any]] = {}
        for command in body:
            previous = old.get(command["name"])
            stored = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
                "id": previous["id"] if previous else str(emu.ids.next()),
                "application_id": str(emu.application_id),
                "version": str(emu.ids.next()),
            }
            if scope is not None:
                stored["guild_id"] = str(scope)
            new[command["name"]] = stored
        emu.commands[scope] = new
        emu.command_syncs += 1
        emu.notify(Change("commands"))
        return json_response(list(new.values()))
