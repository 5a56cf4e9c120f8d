"""Switches that make the emulated Discord misbehave the way the real one does.

- closed DMs: messages to a user's DM channel fail with 403 / 50007;
- rate limits: the next N requests matching a route answer 429 with `retry_after` and the
  headers discord.py reads (it retries after the pause);
- failures: the next N requests matching a route answer a chosen status and error body;
- holds: the next N requests matching a route (and whose message says a given text) wait
  until the test releases them (a slow network, or a request sent the moment its process is
  paused), then go on as usual.

Routes are written like `POST /channels/{channel_id}/messages` (any `{name}` matches one path
segment), relative to `/api/v10`.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from . import layout

API_PREFIX = "/api/v10"


def compile_route(route: str) -> tuple[str, re.Pattern[str]]:
    method, _, template = route.strip().partition(" ")
    if not template.startswith("/"):
        raise ValueError(
            f"route must look like 'POST /channels/{{channel_id}}/messages': {route!r}"
        )
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
    return method.upper(), re.compile(f"^{pattern}$")


@dataclass
class ArmedFault:
    method: str
    pattern: re.Pattern[str]
    remaining: int
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    fired: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and method == self.method
            and bool(self.pattern.match(path.removeprefix(API_PREFIX)))
        )


@dataclass
class HeldRoute:
    """Requests on a route held back until `release`; `held` counts those that arrived."""

    method: str
    pattern: re.Pattern[str]
    remaining: int
    # Only a message whose text (its content, or a Components V2 layout's Text Displays)
    # holds this text, or begins with this one.
    says: str | None = None
    starts: str | None = None
    released: asyncio.Event = field(default_factory=asyncio.Event)
    held: int = 0

    def matches(self, method: str, path: str, body: Any) -> bool:
        content = body.get("content") if isinstance(body, dict) else None
        components = body.get("components") if isinstance(body, dict) else None
        if not content and isinstance(components, list):
            content = "\n".join(layout.text_of(components))
        return (
            self.remaining > 0
            and method == self.method
            and bool(self.pattern.match(path.removeprefix(API_PREFIX)))
            and (self.says is None or self.says in str(content or ""))
            and (self.starts is None or str(content or "").startswith(self.starts))
        )

    def release(self) -> None:
        self.released.set()


@dataclass
class Faults:
    """The fault switches of one emulator; tests flip them between steps."""

    closed_dms: set[int] = field(default_factory=set)
    armed: list[ArmedFault] = field(default_factory=list)
    holds: list[HeldRoute] = field(default_factory=list)

    def close_dms(self, user_id: int) -> None:
        """From now on DMs to this user fail as when they block DMs from server members."""
        self.closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self.closed_dms.discard(user_id)

    def rate_limit(
        self, route: str, *, retry_after: float = 0.2, times: int = 1, is_global: bool = False
    ) -> ArmedFault:
        """The next `times` requests on `route` answer 429 like Discord's rate limiter."""
        method, pattern = compile_route(route)
        bucket = re.sub(r"[^a-z0-9]", "", route.lower())[:32] or "bucket"
        headers = {
            "Retry-After": f"{retry_after:.3f}",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "shared" if not is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        fault = ArmedFault(method, pattern, times, 429, body, headers)
        self.armed.append(fault)
        return fault

    def fail(
        self, route: str, *, status: int, code: int, message: str, times: int = 1
    ) -> ArmedFault:
        """The next `times` requests on `route` answer `status` with Discord's error body."""
        method, pattern = compile_route(route)
        fault = ArmedFault(method, pattern, times, status, {"message": message, "code": code}, {})
        self.armed.append(fault)
        return fault

    def hold(
        self,
        route: str,
        *,
        says: str | None = None,
        starts: str | None = None,
        times: int = 1,
    ) -> HeldRoute:
        """The next `times` requests on `route` (sending a message whose text holds the
        text `says`, or begins with `starts`, if given) wait until the hold is released."""
        method, pattern = compile_route(route)
        hold = HeldRoute(method, pattern, times, says, starts)
        self.holds.append(hold)
        return hold

    def holding(self, method: str, path: str, body: Any) -> HeldRoute | None:
        """The hold this request waits for, if any (and count it as held)."""
        for hold in self.holds:
            if hold.matches(method, path, body):
                hold.remaining -= 1
                hold.held += 1
                return hold
        return None

    def take(self, method: str, path: str) -> ArmedFault | None:
        """The armed fault this request triggers, if any (and count it as used)."""
        for fault in self.armed:
            if fault.matches(method, path):
                fault.remaining -= 1
                fault.fired += 1
                return fault
        return None

    def clear(self) -> None:
        self.closed_dms.clear()
        self.armed.clear()
        for hold in self.holds:
            hold.release()
        self.holds.clear()
