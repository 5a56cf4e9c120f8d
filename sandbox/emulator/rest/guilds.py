"""A guild's members' roles: the routes a bot calls to give a member a role and to take it
away (`PUT`/`DELETE /guilds/{guild}/members/{user}/roles/{role}`), answered as Discord does:
204 with no body, 403 "Missing Permissions" (50013) without Manage Roles, 404 for an unknown
guild (10004), member (10007) or role (10011). Giving a role a member holds, or taking one
they do not, changes nothing and still answers 204. Discord also refuses a role above the
bot's own highest one; the bot here holds no role, so that rule is not emulated.
"""

from __future__ import annotations

from aiohttp import web

from ..models import PERM_MANAGE_ROLES, Role, User
from .routes import API, Routes


class GuildRoutes(Routes):
    """Members' roles."""

    def add_routes(self, router: web.UrlDispatcher) -> None:
        path = f"{API}/guilds/{{guild_id}}/members/{{user_id}}/roles/{{role_id}}"
        router.add_put(path, self.add_member_role)
        router.add_delete(path, self.remove_member_role)

    def _member_and_role(self, request: web.Request) -> tuple[User, Role] | web.Response:
        guild_id = int(request.match_info["guild_id"])
        if guild_id not in self.emu.guilds:
            return self.error(request, 404, 10004, "Unknown Guild")
        user = self.emu.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self.error(request, 404, 10007, "Unknown Member")
        role = self.emu.roles.get(int(request.match_info["role_id"]))
        if role is None or role.guild_id != guild_id:
            return self.error(request, 404, 10011, "Unknown Role")
        if not self.emu.app_permissions & PERM_MANAGE_ROLES:
            return self.error(request, 403, 50013, "Missing Permissions")
        return user, role

    async def add_member_role(self, request: web.Request) -> web.Response:
        found = self._member_and_role(request)
        if isinstance(found, web.Response):
            return found
        self.emu.give_role(*found)
        return web.Response(status=204)

    async def remove_member_role(self, request: web.Request) -> web.Response:
        found = self._member_and_role(request)
        if isinstance(found, web.Response):
            return found
        self.emu.take_role(*found)
        return web.Response(status=204)
