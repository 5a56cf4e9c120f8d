"""The live boards' links: `<public address>/board/<game id>/<signature>`, the signature an
HMAC of the game's id with the bot's secret, so a link cannot be guessed from a game's number
and every process checks it without asking the database.

The bot's posts (a board's "Live board" button, `/game board`) ask `current()` for a game's
link: None when no boards are served here (WEB_PORT unset) or the game's server turned them
off (`/server settings live_board:False`), checked through `allowed`, which the bot hands in
at start-up (this module knows no other part of the bot).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable

SIGNATURE_CHARS = 32  # hex digits of the HMAC kept in a link: 128 bits


def sign(secret: str, game_id: int) -> str:
    """The link's signature of a game: HMAC-SHA256 of its id, cut to 128 bits."""
    digest = hmac.new(secret.encode(), f"board:{game_id}".encode(), hashlib.sha256)
    return digest.hexdigest()[:SIGNATURE_CHARS]


def signed(secret: str, game_id: int, signature: str) -> bool:
    """Whether `signature` is the game's, compared in constant time (a wrong one takes as long
    to refuse however many of its digits are right)."""
    return hmac.compare_digest(sign(secret, game_id).encode(), signature.encode())


async def _always(guild_id: int | None) -> bool:
    return True


class LiveLinks:
    """The links of one bot: where they point (`address`, without a trailing slash), what
    signs them, and whether a server allows them."""

    def __init__(
        self,
        secret: str,
        address: str,
        allowed: Callable[[int | None], Awaitable[bool]] = _always,
    ) -> None:
        self._secret = secret
        self.address = address.rstrip("/")
        self.allowed = allowed

    def __repr__(self) -> str:
        return f"LiveLinks(address={self.address!r})"  # never the secret

    def path(self, game_id: int) -> str:
        return f"/board/{game_id}/{sign(self._secret, game_id)}"

    def url(self, game_id: int) -> str:
        return self.address + self.path(game_id)

    def check(self, game_id: int, signature: str) -> bool:
        return signed(self._secret, game_id, signature)

    async def for_game(self, game_id: int, guild_id: int | None) -> str | None:
        """The game's link, or None if its server turned the links off."""
        return self.url(game_id) if await self.allowed(guild_id) else None


_current: LiveLinks | None = None


def use(links: LiveLinks | None) -> None:
    """The links the bot's posts show from now on (None: none)."""
    global _current
    _current = links


def current() -> LiveLinks | None:
    return _current
