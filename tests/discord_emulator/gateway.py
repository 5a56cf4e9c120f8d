"""The gateway: the websocket over which Discord tells the bot what happens.

It speaks the part of the protocol a bot with default intents meets: HELLO, IDENTIFY -> READY
and GUILD_CREATE, heartbeats and their ACKs, dispatches with sequence numbers, and RESUME after
a dropped connection (events sent while the bot was away are replayed, as Discord does). Frames
go out as uncompressed text, which discord.py accepts even when it asked for zlib-stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import DiscordEmulator

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
CLOSE_AUTH_FAILED = 4004
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_UNKNOWN_ERROR = 4000


@dataclass
class Session:
    """One identified session; it outlives its websocket so it can be resumed."""

    id: str
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Gateway:
    def __init__(self, emulator: DiscordEmulator, *, heartbeat_interval: float) -> None:
        self.emulator = emulator
        self.heartbeat_interval = heartbeat_interval
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        # Counters tests can wait on.
        self.connections = 0
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.replayed = 0
        self.intents: int | None = None
        self._open = asyncio.Event()
        self._open.set()

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.socket is not None

    # ------------------------------------------------------------------ sending

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the bot, or keep it for the resume if the bot is away."""
        session = self.current
        if session is None:
            raise RuntimeError(f"no bot is connected to receive {event}")
        async with session.lock:
            session.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
            session.sent.append(frame)
            if session.socket is not None:
                await self._send(session.socket, frame)
        self.emulator.touch()

    async def _send(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await socket.send_str(json.dumps(frame))

    async def drop(self, code: int = CLOSE_UNKNOWN_ERROR) -> None:
        """Close the bot's websocket as a network failure would; the session stays resumable."""
        for socket in list(self.sockets):
            await socket.close(code=code, message=b"connection dropped by the emulator")

    def hold(self) -> None:
        """Keep new connections waiting before HELLO, as during a gateway outage."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    async def close(self) -> None:
        self._open.set()
        for socket in list(self.sockets):
            await socket.close(code=1001, message=b"emulator shutting down")

    # ------------------------------------------------------------------ receiving

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        self.sockets.add(socket)
        self.connections += 1
        session: Session | None = None
        try:
            await self._open.wait()
            await self._send(
                socket, {"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval)}}
            )
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    await self._send(socket, {"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    session = await self._identify(socket, data or {})
                elif op == RESUME:
                    session = await self._resume(socket, data or {})
                elif session is None and op not in (3, 4, 8):
                    await socket.close(code=CLOSE_NOT_AUTHENTICATED, message=b"Not authenticated.")
        finally:
            self.sockets.discard(socket)
            if session is not None and session.socket is socket:
                session.socket = None
            self.emulator.touch()
        return socket

    async def _identify(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> Session | None:
        if data.get("token") != self.emulator.token:
            await socket.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return None
        self.identifies += 1
        self.intents = data.get("intents")
        session = Session(secrets.token_hex(16))
        self.sessions[session.id] = session
        self.current = session
        session.socket = socket
        emu = self.emulator
        ready = {
            "v": 10,
            "user": {**emu.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(emu.guild_id), "unavailable": True}],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "shard": [0, 1],
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        await self.dispatch("READY", ready)
        await self.dispatch("GUILD_CREATE", emu.guild_payload())
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.emulator.token or session is None:
            await self._send(socket, {"op": INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        last = int(data.get("seq") or 0)
        async with session.lock:
            session.socket = socket
            self.current = session
            for frame in session.sent:
                if frame["s"] > last:
                    self.replayed += 1
                    await self._send(socket, frame)
        await self.dispatch("RESUMED", {})
        return session
