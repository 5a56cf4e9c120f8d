"""Who is who and where to connect: the routes a bot calls as it logs in (the gateway's
address and shard advice, its own user and application) and to reach a person (a user, the DM
channel with them).
"""

from __future__ import annotations

from aiohttp import web

from ..gateway import SESSION_START_RESET_MS
from .routes import API, BODY, Routes, json_response


class AccountRoutes(Routes):
    """The gateway, the bot's user and application, users and DM channels."""

    def add_routes(self, router: web.UrlDispatcher) -> None:
        router.add_get(f"{API}/gateway", self.get_gateway)
        router.add_get(f"{API}/gateway/bot", self.get_gateway_bot)
        # Before `users/{user_id}`, which would take "@me" for an id.
        router.add_get(f"{API}/users/@me", self.get_me)
        router.add_post(f"{API}/users/@me/channels", self.create_dm)
        router.add_get(f"{API}/users/{{user_id}}", self.get_user)
        router.add_get(f"{API}/oauth2/applications/@me", self.get_application)

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.emu.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """Where to connect, how many shards to run, and how fast they may IDENTIFY."""
        gateway = self.emu.gateway
        return json_response(
            {
                "url": self.emu.gateway_url,
                "shards": gateway.recommended_shards,
                "session_start_limit": {
                    "total": gateway.session_start_total,
                    "remaining": gateway.session_starts_remaining,
                    "reset_after": SESSION_START_RESET_MS,
                    "max_concurrency": gateway.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.emu.bot_user.payload(), "verified": True, "mfa_enabled": False}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.emu.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self.error(request, 404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body = request[BODY] or {}
        user = self.emu.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            return self.error(request, 404, 10013, "Unknown User")
        return json_response(self.emu.dm_channel(user.id).payload(self.emu.users))

    async def get_application(self, request: web.Request) -> web.Response:
        emu = self.emu
        return json_response(
            {
                "id": str(emu.application_id),
                "name": emu.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": emu.owner.payload(),
                "team": None,
                "bot": emu.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(emu.guilds),
            }
        )
