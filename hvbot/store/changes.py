"""The changes to a game, each one `Write`: a transaction (a `Work` for `Database.transact`)
and what the game's copy in memory becomes once it commits.

Every change to a game's position or seats compares and bumps its version (`sql.bump`) in
the same transaction, so it fails whole with VersionConflict if another click or process got
there first. Callers build a change here and hand it to `GameStore.write`, which runs it and
keeps its copy in memory in step; the moment a change happens at (`at`) is the caller's, told
by the store's clock, so tests can move time. Every stamp a change writes is `at`: the game's
`updated_at` and `ended_at`, its actions' and prompts' `created_at`, and so its results'
`finished_at`, which seasons and ratings read; none is read off the real time behind the
clock's back.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from engine import State
from hvbot.database import OneStatement, Row, Statement, Transaction, Work
from hvbot.store.duties import AiClaim, Owed, lease_of, new_nonce, owe
from hvbot.store.follows import followers_by_dm, took_back
from hvbot.store.games import OPEN_CREATED_BY
from hvbot.store.requests import close_undo
from hvbot.store.results import insert_results
from hvbot.store.rows import CHANNEL, SeatResult, SeatRow, TurnClock, Wait
from hvbot.store.sql import TURN_COLUMNS, TooManyOpen, VersionConflict, bump, turn_values
from hvbot.store.sql import stamp as sql_stamp

T_co = TypeVar("T_co", covariant=True)
Prompt = tuple[str, int]  # (kind, user id) of a private prompt waiting for a person
# How long an unstarted lobby waits for its players before it closes by itself.
LOBBY_LIFE = timedelta(hours=24)
# The first key of the PostgreSQL advisory lock a person's /game new holds while it counts
# their open games and makes one ("hvog"; the second key names the person in the server).
OPEN_GAMES_LOCK = 0x68766F67


@dataclass(frozen=True)
class Write(Generic[T_co]):
    """One change to the game `game_id`: the transaction (`work`, whose value `GameStore.write`
    returns), and what the game's copy in memory becomes once it commits: the `columns` of
    its row it set (`GameRow` fields) and the engine `state` it saved, if one was given (its
    saved form alone is then read again when needed). It names its game itself, so the one
    that is changed and the one whose copy follows cannot differ."""

    game_id: int
    work: Work[T_co]
    columns: Mapping[str, Any] = field(default_factory=dict)
    state: State | None = None

    @property
    def version(self) -> int | None:
        """The game's version once the change commits (None: a change that keeps it)."""
        version: int | None = self.columns.get("version")
        return version


def clock_columns(wait: Wait | None, stand_in_seat: int | None = None) -> dict[str, Any]:
    """The turn clock's columns a change writes with its wait (see `sql.turn_values`), for
    the copy in memory."""
    _, _, deadline, warn_at, stand_in = turn_values(wait, stand_in_seat)
    return {
        "clock_deadline": deadline,
        "clock_warn_at": warn_at,
        "stand_in_seat": stand_in,
        "clock_paused_at": None,
    }


def _saved(state: State | dict[str, Any]) -> tuple[str, State | None]:
    """The saved form of a state, and the engine state itself if that is what was given."""
    if isinstance(state, State):
        return json.dumps(state.to_dict()), state
    return json.dumps(state), None


def create_lobby(
    *,
    game: str,
    guild_id: int | None,
    channel_id: int,
    creator_id: int,
    creator_name: str,
    options: dict[str, Any],
    at: datetime,
    remind_minutes: int | None = None,
    absent_hours: int | None = None,
    wants_thread: bool = False,
    language: str = "en",
    creator_language: str | None = None,
    clock: TurnClock | None = None,
    lifetime: timedelta | None = None,
    most_open: int | None = None,
    postgresql: bool = False,
    delivery: str = CHANNEL,
) -> Work[int]:
    """A new game in its lobby with its creator seated, made `at` and closing by itself
    `lifetime` later (None: `LOBBY_LIFE`) if it has not started. `language`: the game's
    public posts'; `creator_language`: the creator's own; `delivery`: how its posts reach
    its players (`GameRow.delivery`). The work returns the game's id, and
    fails with `Duplicate` if the channel (or thread) has an open game; it is run by
    `GameStore.create`, as no copy of the game is in memory yet.

    `most_open`: how many open games (lobbies and games in play) the creator may have of
    their own in the server; the work fails with `TooManyOpen` instead of making one more.
    The count is made in the transaction that inserts, since a count made before it lets a
    burst of /game new through together, each having counted the same few. On SQLite that is
    enough: writes run one at a time (one writer thread, `BEGIN IMMEDIATE` between
    processes), so no other lobby is made between the count and the insert. On PostgreSQL
    (`postgresql`), two READ COMMITTED transactions would count the same rows; so the work
    first takes a transaction-level advisory lock on (server, creator), held until it commits
    or rolls back. A second creation by the same person in the same server waits for it, and
    its count, a statement that begins once it holds the lock, sees the first one's lobby
    committed. Other people and other servers take other locks and never wait."""
    expires_at = sql_stamp(at + (lifetime or LOBBY_LIFE))
    stamp = sql_stamp(at)

    # The column left to its default for a game played in its channel (as a database not
    # migrated that far, read by a migration's own test, has none).
    answered = (delivery,) if delivery != CHANNEL else ()
    delivered, marked = (", delivery", ", ?") if answered else ("", "")

    async def work(tx: Transaction) -> int:
        await count_open(tx, guild_id, creator_id, most_open, postgresql)
        game_id: int = await tx.fetchval(
            "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
            " remind_minutes, absent_hours, wants_thread, language, created_at,"
            f" updated_at, clock_minutes, clock_timeout, lobby_expires_at{delivered})"
            f" VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{marked}) RETURNING id",
            game,
            guild_id,
            channel_id,
            creator_id,
            json.dumps(options),
            remind_minutes,
            absent_hours,
            int(wants_thread),
            language,
            stamp,
            stamp,
            clock.minutes if clock else None,
            clock.timeout if clock else None,
            expires_at,
            *answered,
        )
        await tx.execute(
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, language)"
            " VALUES (?, 0, ?, NULL, ?, ?)",
            game_id,
            creator_id,
            creator_name,
            creator_language,
        )
        return game_id

    return work


async def count_open(
    tx: Transaction,
    guild_id: int | None,
    creator_id: int,
    most_open: int | None,
    postgresql: bool,
) -> None:
    """Fail with `TooManyOpen` if the creator has `most_open` open games of their own in the
    server already, counted as `create_lobby` explains (nothing is counted outside a server,
    or without a limit)."""
    if most_open is None or guild_id is None:
        return
    if postgresql:
        await tx.fetchval(
            "SELECT pg_advisory_xact_lock(?, ?)",
            OPEN_GAMES_LOCK,
            _member_key(guild_id, creator_id),
        )
    opened: int = await tx.fetchval(OPEN_CREATED_BY, guild_id, creator_id)
    if opened >= most_open:
        raise TooManyOpen(opened)


def _member_key(guild_id: int | None, user_id: int) -> int:
    """A person in a server as the second key of a PostgreSQL advisory lock (a 32-bit
    signed integer, the same in every process). Two people who share one only wait for
    each other's creations, which are rare."""
    return zlib.crc32(f"{guild_id}:{user_id}".encode()) - 2**31


def set_seats(
    game_id: int,
    expected_version: int,
    seats: Sequence[SeatRow],
    *,
    at: datetime,
    ai_turn: bool | None = None,
    in_lobby: bool = False,
    told: str | None = None,
    wait: Wait | None = None,
) -> Write[list[Owed]]:
    """Replace the seats (join, leave, add AI; in play: resign, an AI for a person away) as
    one versioned change, at `at`. `ai_turn`: whether an AI seat is to move now, if that
    changed. `in_lobby`: the lobby message's update is owed with it; `told`: a public text
    saying what changed (a vote's outcome, say), owed with it (both returned, to send);
    `wait`: a person now sits where the move is (a return) and their turn starts: its
    reminders and clock."""

    async def work(tx: Transaction) -> list[Owed]:
        if wait is not None:
            await bump(
                tx,
                game_id,
                expected_version,
                "ai_turn = 0, " + TURN_COLUMNS,
                turn_values(wait),
                at=at,
            )
        elif ai_turn is None:
            await bump(tx, game_id, expected_version, at=at)
        elif ai_turn:
            # No person's clock runs while an AI seat is to move.
            await bump(
                tx,
                game_id,
                expected_version,
                "ai_turn = 1, clock_deadline = NULL, clock_warn_at = NULL, stand_in_seat = NULL,"
                " clock_paused_at = NULL",
                (),
                at=at,
            )
        else:
            await bump(tx, game_id, expected_version, "ai_turn = 0", (), at=at)
        await replace_seats(tx, game_id, seats)
        version = expected_version + 1
        owed = await _tell(tx, game_id, version, told, at)
        if in_lobby:
            owed.append(
                await owe(tx, game_id=game_id, version=version, kind="lobby", body={}, now=at)
            )
        return owed

    stopped = clock_columns(wait) if wait is not None or ai_turn else {}
    columns = {"version": expected_version + 1, "seats": tuple(seats), **stopped}
    return Write(game_id, work, columns)


async def _tell(
    tx: Transaction, game_id: int, version: int, told: str | None, at: datetime
) -> list[Owed]:
    """The public text `told`, owed `at` with the change it tells of."""
    if told is None:
        return []
    body = {"content": told}
    return [await owe(tx, game_id=game_id, version=version, kind="text", body=body, now=at)]


def start(
    game_id: int,
    expected_version: int,
    *,
    seed: int,
    state: State | dict[str, Any],
    seats: Sequence[SeatRow],
    at: datetime,
    wait: Wait | None = None,
    ai_turn: bool = False,
    in_thread: bool = False,
    lobby: Mapping[str, Any] | None = None,
) -> Write[list[Owed]]:
    """The game leaves its lobby with its first `state` (an engine state is kept in memory
    with the game's row). Owed with it, at `at`, and returned: the lobby message's update,
    the first board and each person's secret by DM. A game that asked for a thread
    (`in_thread`) and is followed from its lobby owes too, before its first board, its
    followers joined to the thread (done once the thread is there; see `Followers`).
    `lobby`: the lobby post's body (a tournament's table, whose announcement is posted with
    the start rather than edited: see `hvbot.services.tournaments`)."""
    state_json, built = _saved(state)
    lobby_body = dict(lobby or {})

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "status = 'active', seed = ?, state = ?, ai_turn = ?, " + TURN_COLUMNS,
            (seed, state_json, int(ai_turn), *turn_values(wait)),
            at=at,
        )
        await replace_seats(tx, game_id, seats)
        version = expected_version + 1
        owed = [
            await owe(tx, game_id=game_id, version=version, kind="lobby", body=lobby_body, now=at)
        ]
        followers = await followers_by_dm(tx, game_id) if in_thread else []
        if followers:
            joining = {"users": followers}
            owed.append(
                await owe(
                    tx, game_id=game_id, version=version, kind="followers", body=joining, now=at
                )
            )
        owed.append(await owe(tx, game_id=game_id, version=version, kind="start", body={}, now=at))
        for seat in seats:
            if seat.user_id is not None:
                body = {"seat": seat.seat, "user": seat.user_id}
                owed.append(
                    await owe(
                        tx, game_id=game_id, version=version, kind="secret", body=body, now=at
                    )
                )
        return owed

    columns = {
        "version": expected_version + 1,
        "status": "active",
        "seed": seed,
        "state_json": state_json,
        "seats": tuple(seats),
        **clock_columns(wait),
    }
    return Write(game_id, work, columns, built)


def record_actions(
    game_id: int,
    expected_version: int,
    *,
    state: State | dict[str, Any],
    actions: Sequence[tuple[int, str]],
    at: datetime,
    status: str = "active",
    prompt: Prompt | None = None,
    wait: Wait | None = None,
    results: Sequence[SeatResult] | None = None,
    ai_turn: bool = False,
    announce: bool = True,
    stand_in_seat: int | None = None,
    ai_claim: AiClaim | None = None,
) -> Write[Recorded]:
    """Save the new state, append its actions, settle old prompts and open a new one.

    All in one transaction that fails with VersionConflict if someone else got there first.
    `wait`: the turn of the person now to move, to remind them (None: nobody to remind).
    `results` come with the finishing move, so a game is never finished without them.
    `ai_turn`: an AI seat is to move now; `stand_in_seat`: an AI goes on playing that
    seat's move (its clock ran out). With `announce`, the move's board post (and a finished
    game's replay and lobby update) is owed in the outbox at `at` (see `hvbot.store.duties`);
    they are what the work returns. The new version is the write's `version`. With `ai_turn`,
    `ai_claim` is taken for the process making the change where `Duties.claim_ai` would take
    it (see `AiClaim`); the posts returned say whether it was (`Recorded.ai_claimed`).
    """
    if results and status != "finished":
        raise ValueError("results belong to a finished game only")
    state_json, built = _saved(state)
    announce_at = at if announce else None
    stamp = sql_stamp(at)
    ended = stamp if status in ("finished", "abandoned") else None
    version = expected_version + 1
    claim = ai_claim if ai_turn else None
    takes = AiClaim.values(claim)
    columns = (
        *(state_json, status, ended, int(ai_turn)),
        *(int(ai_turn), *takes, claim.until if claim else None),  # ai_until
        *(int(ai_turn), *takes, claim.owner if claim else None),  # ai_by
        *turn_values(wait, stand_in_seat),
    )

    def claimed(ai_by: str | None, ai_until: str | None) -> bool:
        """Whether this change took the claim: the lease it wrote is the game's. The owner
        alone would not do: where the claim is not taken (an earlier post is owed), a lease
        this process held before stays as it was, with its name on it."""
        return claim is not None and (ai_by, ai_until) == (claim.owner, claim.until)

    async def work(tx: Transaction) -> Recorded:
        await bump(tx, game_id, expected_version, _RECORDED_COLUMNS, columns, at=at)
        recorded = Recorded()
        if claim is not None:
            lease = await tx.fetchrow("SELECT ai_by, ai_until FROM games WHERE id = ?", game_id)
            recorded.ai_claimed = lease is not None and claimed(lease["ai_by"], lease["ai_until"])
        first = await tx.fetchval(
            "SELECT COALESCE(MAX(n) + 1, 0) FROM actions WHERE game_id = ?", game_id
        )
        await tx.executemany(
            "INSERT INTO actions (game_id, n, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, first + i, seat, text, stamp) for i, (seat, text) in enumerate(actions)],
        )
        await _open_prompt(tx, game_id, prompt, version, stamp)
        if results:
            await insert_results(tx, game_id, results, stamp)
        if announce_at is not None and actions:
            body = {"seat": actions[0][0], "first": first, "count": len(actions)}
            recorded.append(
                await owe(
                    tx, game_id=game_id, version=version, kind="move", body=body, now=announce_at
                )
            )
        if announce_at is not None and status == "finished":
            for kind in ("replay", "lobby"):  # the lobby message says the game has ended
                recorded.append(
                    await owe(
                        tx, game_id=game_id, version=version, kind=kind, body={}, now=announce_at
                    )
                )
        return recorded

    in_memory = {
        "version": version,
        "status": status,
        "state_json": state_json,
        **clock_columns(wait, stand_in_seat),
    }
    if status == "finished":  # rare, and owes more: the steps serve both databases
        return Write(game_id, OneStatement(work, None), in_memory, built)
    announced = announce and bool(actions)
    nonce = new_nonce()
    seats, texts = [seat for seat, _ in actions], [text for _, text in actions]

    def read(row: Row) -> Recorded:
        if row["bumped"] != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        recorded = Recorded()
        recorded.ai_claimed = claimed(row["ai_by"], row["ai_until"])
        if row["owed_id"] is not None:
            body = {"seat": actions[0][0], "first": row["first"], "count": len(actions)}
            recorded.append(
                Owed(row["owed_id"], game_id, version, "move", body, row["token"], nonce)
            )
        return recorded

    kind, user_id = prompt if prompt is not None else (None, None)
    values = (
        *(stamp, *columns, game_id, expected_version),  # bumped
        game_id,  # counted
        *(stamp, seats, texts),  # appended
        game_id,  # settled
        *(kind, user_id, version, stamp, kind),  # opened
        *(version, seats[0] if seats else None, len(actions)),  # owed
        *(sql_stamp(at), sql_stamp(at + lease_of("move")), nonce, announced),
    )
    one = OneStatement(work, Statement(_RECORD_ACTIONS, values, "fetchrow", read))
    return Write(game_id, one, in_memory, built)


class Recorded(list[Owed]):
    """The posts a move owes (see `record_actions`), and whether its change took the claim of
    the AI seat's thinking it was given (`AiClaim`): then the process that made it goes on to
    the AI's move without claiming it again."""

    ai_claimed: bool = False


# With no AI seat to move after it, the change lets go of the claim of an AI's thinking: no
# process is to think for it now (see `Duties.claim_ai`). With one, it takes the claim it was
# given, where `Duties.claim_ai` would (`AiClaim.TAKES`), and otherwise keeps the one there.
_RECORDED_COLUMNS = (
    "state = ?, status = ?, ended_at = COALESCE(CAST(? AS TEXT), ended_at), ai_turn = ?,"
    f" ai_until = CASE WHEN CAST(? AS INTEGER) = 0 THEN NULL WHEN {AiClaim.TAKES} THEN ?"
    " ELSE ai_until END,"
    f" ai_by = CASE WHEN CAST(? AS INTEGER) = 0 THEN NULL WHEN {AiClaim.TAKES} THEN ?"
    " ELSE ai_by END, " + TURN_COLUMNS
)
# `record_actions` as one PostgreSQL statement, for a move that does not finish the game: each
# step below is one of the work's, in its order, and happens only if the compare-and-set of
# the version (`bumped`) changed the game. The steps all see the tables as they were before
# the statement, so the prompts settled are the old ones, not the one opened. They are found
# by the game's id as given, not as `bumped` returns it: the server's plan for any game did
# not see through `bumped` to the one game, and read the open prompts of every game.
_RECORD_ACTIONS = (
    "WITH bumped AS (UPDATE games SET version = version + 1, updated_at = ?, "
    + _RECORDED_COLUMNS
    + " WHERE id = ? AND version = ? RETURNING id, ai_by, ai_until),"
    " counted AS (SELECT COALESCE(MAX(n) + 1, 0) AS first FROM actions WHERE game_id = ?),"
    " appended AS (INSERT INTO actions (game_id, n, seat, action, created_at)"
    " SELECT bumped.id, counted.first + a.i - 1, a.seat, a.action, ? FROM bumped, counted,"
    " unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[])) WITH ORDINALITY AS a(seat, action, i)),"
    " settled AS (UPDATE prompts SET resolved = 1"
    " WHERE game_id = ? AND resolved = 0 AND EXISTS (SELECT 1 FROM bumped)),"
    " opened AS (INSERT INTO prompts (game_id, kind, user_id, version, created_at)"
    " SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT), ?, ? FROM bumped"
    " WHERE CAST(? AS TEXT) IS NOT NULL),"
    " owed AS (INSERT INTO announcements (game_id, version, kind, body, created_at,"
    " claimed_until, token, nonce) SELECT bumped.id, ?, 'move', json_build_object('seat',"
    " CAST(? AS INTEGER), 'first', counted.first, 'count', CAST(? AS INTEGER))::text, ?, ?,"
    " 1, ? FROM bumped, counted WHERE CAST(? AS BOOLEAN) RETURNING id, token)"
    " SELECT (SELECT COUNT(*) FROM bumped) AS bumped, (SELECT ai_by FROM bumped) AS ai_by,"
    " (SELECT ai_until FROM bumped) AS ai_until, counted.first,"
    " (SELECT id FROM owed) AS owed_id, (SELECT token FROM owed) AS token FROM counted"
)


def set_status(
    game_id: int,
    expected_version: int,
    status: str,
    *,
    at: datetime,
    told: str | None = None,
    results: Sequence[SeatResult] | None = None,
) -> Write[list[Owed]]:
    """The game ends without a move: abandoned, or "finished" by a forfeit with its
    `results` (who lost and who won when the game stopped; its replay is then owed at `at`,
    as after a finishing move), its prompts settled with it. Its clock stops with it, and the
    lobby message's update, saying it has ended, is owed at `at`; `told`: a public text
    saying so, owed with it (all returned, to send)."""
    if results and status != "finished":
        raise ValueError("results belong to a finished game only")
    stamp = sql_stamp(at)

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "status = ?, ended_at = ?, ai_turn = 0, clock_deadline = NULL,"
            " clock_warn_at = NULL, remind_at = NULL",
            (status, stamp),
            at=at,
        )
        await tx.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ?", game_id)
        owed = await _tell(tx, game_id, expected_version + 1, told, at)
        if results:
            await insert_results(tx, game_id, results, stamp)
            owed.append(
                await owe(
                    tx,
                    game_id=game_id,
                    version=expected_version + 1,
                    kind="replay",
                    body={},
                    now=at,
                )
            )
        owed.append(
            await owe(
                tx, game_id=game_id, version=expected_version + 1, kind="lobby", body={}, now=at
            )
        )
        return owed

    columns = {"version": expected_version + 1, "status": status, **clock_columns(None)}
    return Write(game_id, work, columns)


def take_back(
    game_id: int,
    expected_version: int,
    *,
    n: int,
    state: State | dict[str, Any],
    request_id: int | None,
    at: datetime,
    taken: int = 1,
    accepted: Sequence[int] = (),
    prompt: Prompt | None = None,
    wait: Wait | None = None,
    ai_turn: bool = False,
    told: dict[str, Any] | None = None,
) -> Write[list[Owed]]:
    """The `taken` latest actions removed, from number `n` on (only if they still are the
    latest), the `state` from before them saved, the request that asked for it closed, as
    one versioned change; the work returns the post it owes at `at`: the board as it is again
    (`told`: who took back which move, see `Owed`). The new version is the write's `version`."""
    state_json, built = _saved(state)
    stamp = sql_stamp(at)

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "state = ?, ai_turn = ?, " + TURN_COLUMNS,
            (state_json, int(ai_turn), *turn_values(wait)),
            at=at,
        )
        deleted = await tx.execute(
            "DELETE FROM actions WHERE game_id = ? AND n >= ?"
            " AND (SELECT MAX(n) FROM actions WHERE game_id = ?) = ?",
            game_id,
            n,
            game_id,
            n + taken - 1,
        )
        if deleted != taken:
            raise VersionConflict(f"game {game_id}: actions from {n} are no longer the latest")
        await _open_prompt(tx, game_id, prompt, expected_version + 1, stamp)
        if request_id is not None:
            await close_undo(tx, request_id, accepted)
        if told is not None:
            await took_back(tx, game_id=game_id, n=n, told=told)  # followers told next digest
        body = {**(told or {}), "count": n}
        version = expected_version + 1
        return [await owe(tx, game_id=game_id, version=version, kind="undo", body=body, now=at)]

    columns = {"version": expected_version + 1, "state_json": state_json, **clock_columns(wait)}
    return Write(game_id, work, columns, built)


async def replace_seats(tx: Transaction, game_id: int, seats: Sequence[SeatRow]) -> None:
    await tx.execute("DELETE FROM seats WHERE game_id = ?", game_id)
    await tx.executemany(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name, away_user_id,"
        " language, resigned_user_id, away_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                s.seat,
                s.user_id,
                s.ai_level,
                s.display_name,
                s.away_user_id,
                s.language,
                s.resigned_user_id,
                s.away_until,
            )
            for s in seats
        ],
    )


async def _open_prompt(
    tx: Transaction, game_id: int, prompt: Prompt | None, version: int, stamp: str
) -> None:
    """Settle the game's open prompts and open `prompt` (kind, user) for `version`, if any."""
    await tx.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ? AND resolved = 0", game_id)
    if prompt is not None:
        kind, user_id = prompt
        await tx.execute(
            "INSERT INTO prompts (game_id, kind, user_id, version, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            game_id,
            kind,
            user_id,
            version,
            stamp,
        )
