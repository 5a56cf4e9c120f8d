"""Duties any bot process may do, claimed by one at a time with a lease, and taken with a
fencing token right before they are done.

Several processes share one database (see `hvbot.database`). What a change owes, its posts and
an AI seat's thinking, is written down in the change's own transaction and then claimed: a
claim is a lease (`claimed_until`, `ai_until`), so a process that dies mid-duty has it taken
over by another once the lease runs out, and a live process is never second-guessed before
then. On PostgreSQL the claims skip rows another process holds locked (`FOR UPDATE SKIP
LOCKED`); SQLite lets one writer in at a time anyway. A move that hands an AI seat its turn
claims the AI's thinking itself, for the process that made it, in its own statement (`AiClaim`):
the same lease, at no round trip of its own.

The outbox (`announcements`): every post a change owes (a move's board, the first board and
each seat's secret at the start, a lobby update, a move taken back, a reminder's words, a
finished game's replay, a follower's digest, the lobby's followers joined to the game's
thread; a server's: a season's end, a tournament's sign-up post, rounds, standings and podium),
in the order stored. Every claim bumps the post's `token`, and a post
is only ever sent after `take`, a compare-and-set on the token its claim handed over: a process
paused past its lease, whose post another process claimed meanwhile, finds the token moved on
and sends nothing. Its own process too takes each post before sending it. Each post also
carries a `nonce` for Discord, which refuses a second message with it within a few minutes,
for the one gap no database can close (a process stopped between the take and the send).

Leases are measured by `clock`, which the tests move forward instead of waiting.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from hvbot.database import Database, OneStatement, Row, Statement, Transaction
from hvbot.store.gathered import Gathered
from hvbot.store.rows import ANSWERS
from hvbot.store.sql import indexed_by, stamp

LEASE = timedelta(seconds=20)  # how long a claimed duty is left to the process that claimed it
# A finished game's replay takes its process seconds to draw (a long Sector 6 game, more on a
# busy machine): it is left to that process longer before another one draws it instead.
REPLAY_LEASE = timedelta(minutes=5)
# How long a post of a game reached only by answers waits for the next interaction before the
# periodic sweep looks at it again (see `Duties.put_off`).
ANSWER_WAIT = timedelta(hours=1)
KEEP_MADE = timedelta(days=1)  # how long a post made stays in the outbox (to look into)
CLAIM_BATCH = 50  # duties claimed at a time
KINDS = ("move", "text", "replay", "start", "secret", "lobby", "undo", "digest", "followers")
# A tournament's posts (see `hvbot.services.tournaments`): its sign-up post (posted once, then
# edited), a round's tables, the standings after a round, the final podium.
TOURNAMENT_KINDS = ("signup", "round", "standings", "podium")
# Posts a server owes rather than a game: a season's end announced, and its rank roles given;
# a tournament's.
SERVER_KINDS = ("season", "ranks", *TOURNAMENT_KINDS)
# The posts an AI seat waits for before it moves: every board and every word its game's channel
# reads, so that the channel reads them before the AI's move ("… ran out of time" before the
# move an AI plays for the person, say).
AI_WAITS_FOR = ("move", "start", "undo", "text")
Clock = Callable[[], datetime]


def real_time() -> datetime:
    return datetime.now(UTC)


def lease_of(kind: str) -> timedelta:
    """How long a process holds a post of this kind before another may take it over."""
    return REPLAY_LEASE if kind == "replay" else LEASE


@dataclass(frozen=True)
class Owed:
    """A post owed by a stored change. `token` is the fencing token of the claim that handed
    it over (see `Duties.take`); `nonce` is Discord's guard against a second copy.

    Kinds and their `body`: a move (`seat`, and the stored actions `first` to
    `first + count - 1`), a text (`content`), a replay, the start, a seat's secret (`seat`),
    the lobby message, a move taken back (`player`, `action`, and the `count` of actions left),
    a follower's digest by DM (`user`, and the moves it tells: see `hvbot.store.follows`), the
    followers of a lobby joined to the game's thread at its start (`users`).

    A server's post (`SERVER_KINDS`) has no game (`game_id` None, `version` 0) but its server,
    `guild_id`: a season's end (`label`, `channel`, `language`), its rank roles (`label`,
    `role`, who is `given` it and who is `taken` off it), a tournament's (`TOURNAMENT_KINDS`:
    `tournament`, and the `round` for a round's tables and standings)."""

    id: int
    game_id: int | None
    version: int
    kind: str
    body: dict[str, Any]
    token: int
    nonce: str | None = None
    guild_id: int | None = None

    @property
    def owner(self) -> str:
        """Whose post it is, for the logs: "game 12" or "server 34"."""
        return f"game {self.game_id}" if self.game_id is not None else f"server {self.guild_id}"

    @property
    def is_move(self) -> bool:
        return self.kind == "move"

    @property
    def discord_nonce(self) -> str:
        """At most 25 characters, as Discord wants; rows from before nonces use their id."""
        return self.nonce or f"owed-{self.id}"


def new_nonce() -> str:
    """A post's nonce for Discord (see `Owed`)."""
    return secrets.token_hex(10)


async def owe(
    tx: Transaction,
    *,
    game_id: int,
    version: int,
    kind: str,
    body: dict[str, Any],
    now: datetime,
) -> Owed:
    """Owe a post, inside the transaction of the change it tells of; held by the caller's
    process for its lease while it sends it itself. Returns it as claimed, to `take`."""
    if kind not in KINDS:
        raise ValueError(f"no such kind of post: {kind!r}")
    nonce = new_nonce()
    row = await tx.fetchrow(
        "INSERT INTO announcements (game_id, version, kind, body, created_at, claimed_until,"
        " token, nonce) VALUES (?, ?, ?, ?, ?, ?, 1, ?) RETURNING id, token",
        game_id,
        version,
        kind,
        json.dumps(body),
        stamp(now),
        stamp(now + lease_of(kind)),
        nonce,
    )
    assert row is not None
    return Owed(row["id"], game_id, version, kind, body, row["token"], nonce)


async def owe_for_server(
    tx: Transaction, *, guild_id: int, kind: str, body: dict[str, Any], now: datetime
) -> Owed:
    """Owe a server's post (one of `SERVER_KINDS`), inside the transaction of the change it
    tells of; held by the caller's process for its lease, as `owe`'s are."""
    if kind not in SERVER_KINDS:
        raise ValueError(f"no such kind of server post: {kind!r}")
    nonce = new_nonce()
    row = await tx.fetchrow(
        "INSERT INTO announcements (game_id, guild_id, version, kind, body, created_at,"
        " claimed_until, token, nonce) VALUES (NULL, ?, 0, ?, ?, ?, ?, 1, ?) RETURNING id, token",
        guild_id,
        kind,
        json.dumps(body),
        stamp(now),
        stamp(now + lease_of(kind)),
        nonce,
    )
    assert row is not None
    return Owed(row["id"], None, 0, kind, body, row["token"], nonce, guild_id)


def _owed_for_game(kinds: tuple[str, ...]) -> str:
    """SQL, with a `?` for each of `kinds`: whether the game of the `games` row at hand still
    owes a post of one of them (an AI seat waits for it). A game the bot reaches only by
    answering (`GameRow.answers_only`) never counts: its posts wait for its players' next
    interaction, and show what happened in order then, the AI's moves with the rest."""
    marks = ", ".join("?" for _ in kinds)
    return (
        f"(games.delivery <> '{ANSWERS}' AND EXISTS (SELECT 1 FROM announcements"
        f" WHERE game_id = games.id AND sent_at IS NULL AND kind IN ({marks})))"
    )


@dataclass(frozen=True)
class AiClaim:
    """The claim of an AI seat's thinking for the process `owner`, as `Duties.claim_ai` takes
    it (`unless_owed=AI_WAITS_FOR`), written by the change that hands the seat its turn, in the
    change's own statement (see `changes.record_actions`): the process that made the change
    goes on to the AI's move without a round trip of its own to claim it. It is the same lease
    (`until`), so a process that dies after the change leaves the AI's move to the periodic
    check of another (`Duties.claim_ai_turns`) once it runs out. Taken only where `claim_ai`
    would take it: nobody else holds it (its lease ran out at `now`, or `owner` holds it), and
    the game owes no earlier post the AI waits for (a change before this one is still to be
    told: then whoever tells it starts the AI)."""

    owner: str
    now: str
    until: str

    # SQL for an UPDATE of `games`, with a `?` for each of `values`: whether the claim is taken.
    TAKES = (
        "CAST(? AS TEXT) IS NOT NULL AND (ai_until IS NULL OR ai_until <= ? OR ai_by = ?)"
        f" AND NOT {_owed_for_game(AI_WAITS_FOR)}"
    )

    @staticmethod
    def values(claim: AiClaim | None) -> tuple[str | None, ...]:
        """The values of `TAKES` for `claim`; with None, taken never."""
        if claim is None:
            return (None, None, None, *AI_WAITS_FOR)
        return (claim.owner, claim.now, claim.owner, *AI_WAITS_FOR)


def _owed_of(r: Row) -> Owed:
    """An outbox row as claimed."""
    return Owed(
        r["id"],
        r["game_id"],
        r["version"],
        r["kind"],
        json.loads(r["body"]),
        r["token"],
        r["nonce"],
        r["guild_id"],
    )


def _skip_locked(db: Database) -> str:
    return " FOR UPDATE SKIP LOCKED" if db.backend == "postgresql" else ""


async def owe_text(tx: Transaction, *, game_id: int, body: dict[str, Any], now: datetime) -> Owed:
    """A text post (a reminder, a clock's warning) owed for the game as it stands: it changes
    nothing on the board, so it is owed at the current version, which it leaves alone."""
    version = await tx.fetchval("SELECT version FROM games WHERE id = ?", game_id)
    return await owe(tx, game_id=game_id, version=version, kind="text", body=body, now=now)


TAKE, MARK = "take", "mark"

# The posts a game's channel reads in order: its boards, and the words said in it (a text
# owed to a person's DMs names its "user", and is not among them). One of these is taken only
# once every earlier one of its game is out, whichever process owes it: a later change's post
# waits, owed, for the earlier change's (a process died, or is paused, before posting it), and
# is sent after it, by whoever takes the earlier one over (`claim_owed` hands them over oldest
# first). A lobby's update, a replay and a secret go elsewhere and wait for nothing.
IN_ORDER = "('move', 'start', 'undo', 'text')"
TO_A_PERSON = "'%\"user\"%'"  # a text's body that names the person it goes to
# A tournament table's announcement (a "lobby" post whose body names its tournament) is the
# first of its game's posts in order too: its thread is started from it, and the game's
# first board goes there, so the board waits for it.
A_TABLE = "'%\"tournament\"%'"


def _ordered(post: str) -> str:
    """SQL: the outbox row `post` (a table or its alias) is one of the posts its game's
    channel reads in order (see `IN_ORDER`, `A_TABLE`)."""
    return (
        f"(({post}.kind IN {IN_ORDER} AND {post}.body NOT LIKE {TO_A_PERSON})"
        f" OR ({post}.kind = 'lobby' AND {post}.body LIKE {A_TABLE}))"
    )


def _in_its_turn(post: str, made: str = "", asked: str = "") -> str:
    """SQL: the outbox row `post` (a table or its alias) may be sent now, as far as order goes
    (see `IN_ORDER`). `made`: SQL of the ids of the posts the same statement marks made, which
    are out as far as this take goes (the statement's own updates are not seen otherwise).
    `asked`: SQL of the post's id as the statement was asked for it (the same as `post`'s), so
    the check is a condition of the row asked for and its request together: the server then
    checks only the posts asked for, where a condition of `post` alone is checked on every
    unsent post it reads before it matches them with the requests."""
    also = f" AND earlier.id NOT IN ({made})" if made else ""
    return (
        f"(NOT {_ordered(post)} OR NOT EXISTS ("
        f"SELECT 1 FROM announcements AS earlier WHERE earlier.game_id = {post}.game_id"
        f" AND earlier.id < {asked or post + '.id'} AND earlier.sent_at IS NULL{also}"
        f" AND {_ordered('earlier')}))"
    )


@dataclass(frozen=True, slots=True)
class _Request:
    """A post to take (`until`: its new lease's end) or to mark made (`token`: the fence, or
    None for none)."""

    kind: str
    post: int
    token: int | None
    until: str | None = None


# Takes and marks of different posts as one PostgreSQL statement: a taken post's new token, a
# marked post's id with no token. The marks come first, as in the steps (see
# `Duties._send_requests`): a take sees the posts marked beside it as out, through what the
# marks return (every part of one statement reads the tables as they were before it).
# Its lists are read through sub-selects (`(SELECT CAST(? AS ...))`), so the server reckons
# with lists of a size it does not know whether it plans for these values or for any: planned
# for the values, a list of two posts looked so much cheaper than one of any size (the check
# of earlier posts owed is repeated for each) that the server never kept a plan and planned
# every run anew, about half a millisecond of its CPU each, on every move. Now it plans five
# runs for their values, then keeps one plan for any. The posts are also looked up by their
# ids (`a.id = ANY(...)`), so that plan finds each by its key: joined with the lists alone,
# a plan made when the table's statistics said few posts were owed read every post owed.
_AMONG_IDS = "a.id = ANY(CAST((SELECT CAST(? AS BIGINT[])) AS BIGINT[]))"
_OUTBOX_REQUESTS = (
    "WITH marked AS (UPDATE announcements AS a SET sent_at = ?"
    " FROM unnest((SELECT CAST(? AS BIGINT[])), (SELECT CAST(? AS INTEGER[]))) AS m (id, token)"
    f" WHERE a.id = m.id AND {_AMONG_IDS} AND a.sent_at IS NULL"
    " AND (m.token IS NULL OR a.token = m.token)"
    " RETURNING a.id),"
    " taken AS (UPDATE announcements AS a SET claimed_until = t.until,"
    " token = a.token + 1 FROM unnest((SELECT CAST(? AS BIGINT[])),"
    " (SELECT CAST(? AS INTEGER[])), (SELECT CAST(? AS TEXT[]))) AS t (id, token, until)"
    f" WHERE a.id = t.id AND {_AMONG_IDS} AND a.sent_at IS NULL"
    " AND a.token = t.token"
    f" AND {_in_its_turn('a', made='SELECT id FROM marked', asked='t.id')}"
    " RETURNING a.id, a.token)"
    " SELECT id, token FROM taken UNION ALL SELECT id, NULL FROM marked"
)


class Duties:
    """The outbox and the AI seats' claims of one database."""

    def __init__(self, db: Database, clock: Clock = real_time) -> None:
        self.db = db
        self.clock = clock
        # Takes and marks asked while others are under way go together (see `Gathered`).
        self._outbox: Gathered[_Request, int | bool | None] = Gathered(self._send_requests)

    # ------------------------------------------------------------------ the outbox

    async def take(self, owed: Owed) -> Owed | None:
        """Take a claimed post right before sending it: the post with its new token, or None
        if it must not be sent here (another process claimed it once this one's lease ran
        out, it was made already, or an earlier post of its game is still to go out first:
        see `IN_ORDER`). Its lease starts again from now."""
        until = stamp(self.clock() + lease_of(owed.kind))
        token = await self._outbox(_Request(TAKE, owed.id, owed.token, until))
        assert token is None or isinstance(token, int)
        if token is None:
            return None
        return replace(owed, token=token)

    async def made(self, owed: Owed, *, fenced: bool = False) -> bool:
        """The post is out (or Discord refused it for good): nobody sends it again. With
        `fenced`, only if `owed.token` is still the post's: False when another process took it
        over meanwhile (this one was paused past its lease), and sends it or has sent it."""
        marked = await self._outbox(_Request(MARK, owed.id, owed.token if fenced else None))
        return bool(marked)

    async def _send_requests(self, requests: Sequence[_Request]) -> list[int | bool | None]:
        """Takes and marks in one statement: a take's answer is the post's new token (None:
        not taken), a mark's whether it was marked (False: its token, when given, is no
        longer the post's).

        The marks go first: a post marked made is out for the takes of the same group, as
        if it had been marked in a group before. A game's next board is often asked for
        while its previous one's mark waits to go (its players saw that board and moved at
        once), and a take that did not see the mark would leave the board owed, to be sent
        only once its lease ran out, and the AI seat after it waiting as long."""
        now = stamp(self.clock())
        marks_first = sorted(range(len(requests)), key=lambda i: requests[i].kind != MARK)

        async def steps(tx: Transaction) -> list[int | bool | None]:
            found: dict[int, int | bool | None] = {}
            for i in marks_first:
                r = requests[i]
                if r.kind == TAKE:
                    found[i] = await tx.fetchval(
                        "UPDATE announcements SET claimed_until = ?, token = token + 1"
                        " WHERE id = ? AND sent_at IS NULL AND token = ?"
                        f" AND {_in_its_turn('announcements')} RETURNING token",
                        r.until,
                        r.post,
                        r.token,
                    )
                    continue
                fence = " AND token = ?" if r.token is not None else ""
                changed = await tx.execute(
                    f"UPDATE announcements SET sent_at = ? WHERE id = ? AND sent_at IS NULL{fence}",
                    now,
                    r.post,
                    *(() if r.token is None else (r.token,)),
                )
                found[i] = changed == 1 or r.token is None
            return [found[i] for i in range(len(requests))]

        def answers(rows: list[Row]) -> list[int | bool | None]:
            done = {row["id"]: row["token"] for row in rows}
            return [
                done.get(r.post) if r.kind == TAKE else r.token is None or r.post in done
                for r in requests
            ]

        takes = [r for r in requests if r.kind == TAKE]
        marks = [r for r in requests if r.kind == MARK]
        posts = [r.post for r in requests]
        return await self.db.transact(
            OneStatement(
                steps,
                None  # a post twice in one group: done in turn (marks first), one by one
                if len(set(posts)) < len(posts)
                else Statement(
                    _OUTBOX_REQUESTS,
                    (
                        now,
                        [r.post for r in marks],
                        [r.token for r in marks],
                        [r.post for r in marks],
                        [r.post for r in takes],
                        [r.token for r in takes],
                        [r.until for r in takes],
                        [r.post for r in takes],
                    ),
                    "fetch",
                    answers,
                ),
            )
        )

    async def forget_made(self, *, older_than: timedelta = KEEP_MADE) -> int:
        """Drop posts made long ago: the outbox holds what is owed, not a history."""
        before = stamp(self.clock() - older_than)
        return await self.db.transact(
            Statement(
                "DELETE FROM announcements WHERE sent_at IS NOT NULL AND sent_at < ?", (before,)
            )
        )

    async def claim_owed(self) -> list[Owed]:
        """Unsent posts whose lease has run out (their process died, or is paused), claimed
        for this process, oldest first."""
        now = self.clock()

        async def work(tx: Transaction) -> list[Owed]:
            rows = await tx.fetch(
                "UPDATE announcements SET claimed_until = CASE WHEN kind = 'replay' THEN ?"
                " ELSE ? END, token = token + 1 WHERE id IN (SELECT id FROM announcements"
                " WHERE sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)"
                f" ORDER BY id LIMIT {CLAIM_BATCH}{_skip_locked(self.db)})"
                " RETURNING id, game_id, version, kind, body, token, nonce, guild_id",
                stamp(now + REPLAY_LEASE),
                stamp(now + LEASE),
                stamp(now),
            )
            return sorted((_owed_of(r) for r in rows), key=lambda owed: owed.id)

        return await self.db.transact(work)

    async def claim_game(self, game_id: int, *, before: int | None = None) -> list[Owed]:
        """Every unsent post of one game (those before the post `before` only, when given),
        claimed for this process now, whoever held them, oldest first: for a game the bot
        reaches only by answering, whose posts the interaction in hand is the one way out
        (see `hvbot.aftermath.Aftermath.follow`). A process that held one and sends it late
        finds its token moved on, and sends nothing."""
        now = self.clock()
        upto = " AND id < ?" if before is not None else ""

        async def work(tx: Transaction) -> list[Owed]:
            rows = await tx.fetch(
                "UPDATE announcements SET claimed_until = CASE WHEN kind = 'replay' THEN ?"
                " ELSE ? END, token = token + 1 WHERE game_id = ? AND sent_at IS NULL"
                f"{upto} RETURNING id, game_id, version, kind, body, token, nonce, guild_id",
                stamp(now + REPLAY_LEASE),
                stamp(now + LEASE),
                game_id,
                *(() if before is None else (before,)),
            )
            return sorted((_owed_of(r) for r in rows), key=lambda owed: owed.id)

        return await self.db.transact(work)

    async def put_off(self, owed: Owed, *, wait: timedelta = ANSWER_WAIT) -> None:
        """A post of a game reached only by answers, with no interaction to go through: left
        to the next one (which claims it whatever its lease: `claim_game`), and to the
        periodic sweep only after `wait`, rather than claimed by it again every few seconds.
        Only by its holder (`owed.token`)."""
        await self.db.transact(
            Statement(
                "UPDATE announcements SET claimed_until = ?"
                " WHERE id = ? AND token = ? AND sent_at IS NULL",
                (stamp(self.clock() + wait), owed.id, owed.token),
            )
        )

    async def readdress(self, owed: Owed, body: dict[str, Any]) -> bool:
        """A post taken (`owed`, its token) owed from now on with `body` instead, left
        unsent: a person's DM Discord refused, to be said in the game's next answer instead.
        False if another process took it over meanwhile."""
        changed: int = await self.db.transact(
            Statement[int](
                "UPDATE announcements SET body = ?, claimed_until = NULL"
                " WHERE id = ? AND token = ? AND sent_at IS NULL",
                (json.dumps(body), owed.id, owed.token),
            )
        )
        return bool(changed)

    async def owes(self, game_id: int, kinds: tuple[str, ...] = KINDS) -> bool:
        """Whether a change to the game is still to be told by a post of one of `kinds`: an
        AI seat waits for a board still owed, so the channel reads the game in order."""
        marks = ", ".join("?" for _ in kinds)
        found = await self.db.fetchval(
            "SELECT 1 FROM announcements WHERE game_id = ? AND sent_at IS NULL"
            f" AND kind IN ({marks}) LIMIT 1",
            game_id,
            *kinds,
        )
        return found is not None

    async def owed_now(self) -> tuple[int, datetime | None]:
        """How many posts are owed, by every process, and when the oldest was stored (for the
        operators' metrics)."""
        row = await self.db.fetchrow(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM announcements"
            " WHERE sent_at IS NULL"
        )
        if row is None or not row["n"]:
            return 0, None
        oldest = datetime.fromisoformat(row["oldest"])
        return row["n"], oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)

    async def lobby_shown(self, game_id: int) -> None:
        """The lobby message was edited to show the game as it is now: every update it owed
        is made. An edit made twice shows the same, so this needs no token."""
        await self.db.transact(
            Statement(
                "UPDATE announcements SET sent_at = ?"
                " WHERE game_id = ? AND kind = 'lobby' AND sent_at IS NULL",
                (stamp(self.clock()), game_id),
            )
        )

    # ------------------------------------------------------------------ AI seats

    async def claim_ai(
        self, game_id: int, owner: str, *, unless_owed: tuple[str, ...] = ()
    ) -> bool:
        """Claim (or renew) the thinking of a game's AI seat for the process `owner`; False
        while another process holds it. The AI's move is stored with a compare-and-set, so
        even a process that outlived its lease cannot store a second move for the same turn.

        `unless_owed`: False too while a post of one of these kinds is owed for the game (a
        change before the AI's is still to be told), and then the claim is let go of, as
        `release_ai` would: one statement instead of a claim, a look and a release."""
        now = self.clock()
        values: tuple[str, ...]
        sets, values = "ai_until = ?, ai_by = ?", (stamp(now + LEASE), owner)
        if unless_owed:
            owed = _owed_for_game(unless_owed)
            sets = (
                f"ai_until = CASE WHEN {owed} THEN NULL ELSE ? END,"
                f" ai_by = CASE WHEN {owed} THEN NULL ELSE ? END"
            )
            values = (*unless_owed, values[0], *unless_owed, owner)
        claimed = await self.db.transact(
            Statement[str | None](  # who holds the claim now; None: not claimed
                f"UPDATE games SET {sets} WHERE id = ?"
                " AND (ai_until IS NULL OR ai_until <= ? OR ai_by = ?) RETURNING ai_by",
                (*values, game_id, stamp(now), owner),
                "fetchval",
            )
        )
        return claimed == owner

    def ai_claim(self, owner: str) -> AiClaim:
        """The claim of an AI seat's thinking for `owner`, leased from now, for the change that
        hands the seat its turn to write (see `AiClaim`)."""
        now = self.clock()
        return AiClaim(owner, stamp(now), stamp(now + LEASE))

    async def release_ai(self, game_id: int, owner: str) -> None:
        """Let go of the claim (a person is to move now), so any process may claim the next
        AI turn at once, not only once the lease has run out."""
        await self.db.transact(
            Statement(
                "UPDATE games SET ai_until = NULL, ai_by = NULL WHERE id = ? AND ai_by = ?",
                (game_id, owner),
            )
        )

    async def claim_ai_turns(self, owner: str, *, unless_owed: tuple[str, ...] = ()) -> list[int]:
        """Games in play whose AI seat is to move and whose thinking nobody holds (its
        process died, say): claimed for the process `owner`, by game id.

        `unless_owed`: not a game with a post of one of these kinds still owed. Its AI waits
        for that post, and whoever makes it goes on to the AI's move: under load many games
        are between a move handing the turn to an AI and its post made, and claiming them
        here would only let them go again."""
        now = self.clock()
        owed = f" AND NOT {_owed_for_game(unless_owed)}" if unless_owed else ""

        async def work(tx: Transaction) -> list[int]:
            rows = await tx.fetch(
                "UPDATE games SET ai_until = ?, ai_by = ? WHERE id IN (SELECT id FROM games"
                f"{indexed_by(self.db, 'games_ai_turns')}"
                " WHERE status = 'active' AND ai_turn = 1 AND (ai_until IS NULL OR ai_until <= ?)"
                f"{owed} ORDER BY id LIMIT {CLAIM_BATCH}{_skip_locked(self.db)}) RETURNING id",
                stamp(now + LEASE),
                owner,
                stamp(now),
                *unless_owed,
            )
            return sorted(r["id"] for r in rows)

        return await self.db.transact(work)
