"""The gateway: the websocket over which Discord tells the bot what happens.

It speaks the part of the protocol a bot with default intents meets: HELLO, IDENTIFY -> READY
and GUILD_CREATE, heartbeats and their ACKs, dispatches with sequence numbers, and RESUME after
a dropped connection (events sent while the bot was away are replayed, as Discord does). Frames
go out as uncompressed text, which discord.py accepts even when it asked for zlib-stream.

Sharding works as on Discord, so several bot processes, each with some of the shards, can share
one emulator: an IDENTIFY names its shard `[shard_id, shard_count]` (none means `[0, 1]`), its
READY lists only that shard's guilds, and a guild's events go to the session of shard
`(guild_id >> 22) % shard_count`; events without a guild (DMs) go to shard 0. IDENTIFYs are
rate limited per bucket `shard_id % max_concurrency`, one per `identify_interval`; one that
comes too early is answered with an Invalid Session, as Discord answers it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .models import User, shard_of

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
CLOSE_AUTH_FAILED = 4004
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_UNKNOWN_ERROR = 4000
CLOSE_INVALID_SHARD = 4010
# Discord lets each identify bucket start one session per 5 seconds; tests need far less.
IDENTIFY_INTERVAL = 0.05
SESSION_START_TOTAL = 1000  # IDENTIFYs Discord allows a bot per day
SESSION_START_RESET_MS = 14_400_000
# Events whose payload is the guild itself: its id is the guild's.
GUILD_ITSELF = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})

ShardKey = tuple[int, int]  # (shard_id, shard_count)


class Host(Protocol):
    """What the gateway reads of the emulator it belongs to (`DiscordEmulator`, which is
    built with a gateway and so is not imported here, not even for its type)."""

    @property
    def token(self) -> str: ...
    @property
    def bot_user(self) -> User: ...
    @property
    def application_id(self) -> int: ...
    @property
    def gateway_url(self) -> str: ...

    def touch(self) -> None:
        """Something happened: wake whatever waits on the emulator's activity."""

    def guilds_on_shard(self, shard_id: int, shard_count: int) -> list[int]:
        """The ids of the guilds whose events go to shard `shard_id` of `shard_count`."""

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """A guild as GUILD_CREATE carries it."""


@dataclass
class Session:
    """One identified session of one shard; it outlives its websocket so it can be resumed."""

    id: str
    shard: ShardKey = (0, 1)
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass(frozen=True)
class IdentifyAttempt:
    """One IDENTIFY as the gateway judged it, at the event loop's time `at`; not `accepted`
    when its bucket was still closed (the bot was told its session is invalid)."""

    shard_id: int
    shard_count: int
    at: float
    accepted: bool


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, which decides its shard; None for a DM's events."""
    raw = data.get("id") if event in GUILD_ITSELF else data.get("guild_id")
    return int(raw) if raw else None


def _shard_key(raw: Any) -> ShardKey | None:
    """An IDENTIFY's `shard` field as (id, count), or None when Discord would refuse it."""
    if raw is None:
        return (0, 1)
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in raw):
        return None
    shard_id, count = raw
    return (shard_id, count) if 0 <= shard_id < count else None


class Gateway:
    def __init__(
        self,
        emulator: Host,
        *,
        heartbeat_interval: float,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_interval: float = IDENTIFY_INTERVAL,
    ) -> None:
        self.emulator = emulator
        self.heartbeat_interval = heartbeat_interval
        # What GET /gateway/bot recommends, and how IDENTIFYs are limited.
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.identify_interval = identify_interval
        self.session_start_total = SESSION_START_TOTAL
        self.sessions: dict[str, Session] = {}
        # The session each shard's events go to: the latest identified or resumed one.
        self.shards: dict[ShardKey, Session] = {}
        self.current: Session | None = None  # the latest identified or resumed, of any shard
        self.sockets: set[web.WebSocketResponse] = set()
        # Counters and logs tests can wait on.
        self.connections = 0
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.replayed = 0
        self.identify_log: list[IdentifyAttempt] = []
        self.intents: int | None = None
        self._bucket_opens: dict[int, float] = {}
        self._open = asyncio.Event()
        self._open.set()

    @property
    def connected(self) -> bool:
        """Some shard's session has its websocket (with one shard: the bot is online)."""
        return bool(self.connected_shards)

    @property
    def connected_shards(self) -> set[int]:
        """The ids of the shards whose current session has its websocket."""
        return {key[0] for key, session in self.shards.items() if session.socket is not None}

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions a guild's events go to (shard 0's for None): one per shard count in
        use, so normally one."""
        return [
            session
            for (shard_id, count), session in self.shards.items()
            if shard_of(guild_id, count) == shard_id
        ]

    def identify_times(self, shard_id: int) -> list[float]:
        """When each accepted IDENTIFY of shard `shard_id` arrived (event loop time)."""
        return [a.at for a in self.identify_log if a.accepted and a.shard_id == shard_id]

    @property
    def session_starts_remaining(self) -> int:
        """What GET /gateway/bot reports as `remaining`: each accepted IDENTIFY uses one."""
        used = sum(1 for a in self.identify_log if a.accepted)
        return max(0, self.session_start_total - used)

    # ------------------------------------------------------------------ sending

    async def dispatch(
        self, event: str, data: dict[str, Any], *, guild_id: int | None = None
    ) -> None:
        """Send an event to the session of its shard, or keep it for that session's resume if
        the bot is away. The shard is that of `guild_id`, else of the guild `data` names, else
        shard 0, as on Discord."""
        guild = guild_id if guild_id is not None else guild_of(event, data)
        sessions = self.sessions_for(guild)
        if not sessions:
            raise RuntimeError(f"no bot is connected to receive {event} (guild {guild})")
        for session in sessions:
            await self._dispatch_to(session, event, data)

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
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

    async def drop(self, code: int = CLOSE_UNKNOWN_ERROR, *, shard_id: int | None = None) -> None:
        """Close the bot's websockets (only shard `shard_id`'s, if given) as a network failure
        would; the sessions stay resumable."""
        if shard_id is None:
            sockets = list(self.sockets)
        else:
            sockets = [
                session.socket
                for (shard, _), session in self.shards.items()
                if shard == shard_id and session.socket is not None
            ]
        for socket in sockets:
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
                elif op in (IDENTIFY, RESUME) and session is not None:
                    await socket.close(
                        code=CLOSE_ALREADY_AUTHENTICATED, message=b"Already authenticated."
                    )
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

    def _admit(self, shard: ShardKey) -> bool:
        """Whether an IDENTIFY of `shard` may start a session now: each bucket
        (`shard_id % max_concurrency`) admits one per `identify_interval`. Logged either way."""
        at = asyncio.get_running_loop().time()
        bucket = shard[0] % max(1, self.max_concurrency)
        admitted = at >= self._bucket_opens.get(bucket, -math.inf)
        if admitted:
            self._bucket_opens[bucket] = at + self.identify_interval
        self.identify_log.append(IdentifyAttempt(shard[0], shard[1], at, admitted))
        return admitted

    async def _identify(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> Session | None:
        if data.get("token") != self.emulator.token:
            await socket.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return None
        shard = _shard_key(data.get("shard"))
        if shard is None:
            await socket.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return None
        if not self._admit(shard):
            await self._send(socket, {"op": INVALID_SESSION, "d": False})
            self.emulator.touch()
            return None
        self.identifies += 1
        self.intents = data.get("intents")
        session = Session(secrets.token_hex(16), shard)
        self.sessions[session.id] = session
        self.shards[shard] = session
        self.current = session
        session.socket = socket
        emu = self.emulator
        guilds = emu.guilds_on_shard(*shard)
        ready = {
            "v": 10,
            "user": {**emu.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(guild), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "shard": list(shard),
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        await self._dispatch_to(session, "READY", ready)
        for guild in guilds:
            await self._dispatch_to(session, "GUILD_CREATE", emu.guild_payload(guild))
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
            self.shards[session.shard] = session
            self.current = session
            for frame in session.sent:
                if frame["s"] > last:
                    self.replayed += 1
                    await self._send(socket, frame)
        await self._dispatch_to(session, "RESUMED", {})
        return session
