"""The changes to a game, each one transaction (a `Work` for `Database.transact`).

Every change to a game's position or seats compares and bumps its version (`sql.bump`) in
the same transaction, so it fails whole with VersionConflict if another click or process got
there first. `hvbot.store.GameStore` runs them and keeps its copy in memory in step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from hvbot.database import OneStatement, Row, Statement, Transaction, Work
from hvbot.store.duties import Owed, lease_of, new_nonce, owe
from hvbot.store.requests import close_undo
from hvbot.store.results import insert_results
from hvbot.store.rows import SeatResult, SeatRow, TurnClock, Wait
from hvbot.store.sql import TURN_COLUMNS, VersionConflict, bump, now, turn_values
from hvbot.store.sql import stamp as sql_stamp

Prompt = tuple[str, int]  # (kind, user id) of a private prompt waiting for a person
Told = tuple[str, datetime]  # a public text a change owes, and when it was owed


def create_lobby(
    *,
    game: str,
    guild_id: int | None,
    channel_id: int,
    creator_id: int,
    creator_name: str,
    options: dict[str, Any],
    remind_minutes: int | None,
    absent_hours: int | None,
    wants_thread: bool,
    language: str,
    creator_language: str | None,
    clock: TurnClock | None = None,
    expires_at: str | None = None,
) -> Work[int]:
    """A new game in its lobby with its creator seated, closing by itself at `expires_at` if
    it has not started; the work returns the game's id (and fails with `Duplicate` if the
    channel has an open game)."""
    stamp = now()

    async def work(tx: Transaction) -> int:
        game_id: int = await tx.fetchval(
            "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
            " remind_minutes, absent_hours, wants_thread, language, created_at,"
            " updated_at, clock_minutes, clock_timeout, lobby_expires_at)"
            " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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


def set_seats(
    game_id: int,
    expected_version: int,
    seats: Sequence[SeatRow],
    ai_turn: bool | None,
    *,
    lobby_at: datetime | None = None,
    told: Told | None = None,
    wait: Wait | None = None,
) -> Work[list[Owed]]:
    """With `lobby_at` (a change in the lobby), the lobby message's update is owed; with
    `told`, a public text that says what changed (a vote's outcome, say); with `wait`, a
    person now sits where the move is (a return) and their turn starts."""

    async def work(tx: Transaction) -> list[Owed]:
        if wait is not None:
            await bump(
                tx, game_id, expected_version, "ai_turn = 0, " + TURN_COLUMNS, turn_values(wait)
            )
        elif ai_turn is None:
            await bump(tx, game_id, expected_version)
        elif ai_turn:
            # No person's clock runs while an AI seat is to move.
            await bump(
                tx,
                game_id,
                expected_version,
                "ai_turn = 1, clock_deadline = NULL, clock_warn_at = NULL, stand_in_seat = NULL,"
                " clock_paused_at = NULL",
                (),
            )
        else:
            await bump(tx, game_id, expected_version, "ai_turn = 0", ())
        await _replace_seats(tx, game_id, seats)
        version = expected_version + 1
        owed = await _tell(tx, game_id, version, told)
        if lobby_at is not None:
            owed.append(
                await owe(tx, game_id=game_id, version=version, kind="lobby", body={}, now=lobby_at)
            )
        return owed

    return work


async def _tell(tx: Transaction, game_id: int, version: int, told: Told | None) -> list[Owed]:
    """The public text `told` (its words and when), owed with the change it tells of."""
    if told is None:
        return []
    text, at = told
    body = {"content": text}
    return [await owe(tx, game_id=game_id, version=version, kind="text", body=body, now=at)]


def start(
    game_id: int,
    expected_version: int,
    *,
    seed: int,
    state_json: str,
    seats: Sequence[SeatRow],
    wait: Wait | None,
    ai_turn: bool,
    at: datetime,
) -> Work[list[Owed]]:
    """The game leaves its lobby: owed with it, the lobby message's update, the first board
    and each person's secret by DM."""

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "status = 'active', seed = ?, state = ?, ai_turn = ?, " + TURN_COLUMNS,
            (seed, state_json, int(ai_turn), *turn_values(wait)),
        )
        await _replace_seats(tx, game_id, seats)
        version = expected_version + 1
        owed = [
            await owe(tx, game_id=game_id, version=version, kind=kind, body={}, now=at)
            for kind in ("lobby", "start")
        ]
        for seat in seats:
            if seat.user_id is not None:
                body = {"seat": seat.seat, "user": seat.user_id}
                owed.append(
                    await owe(
                        tx, game_id=game_id, version=version, kind="secret", body=body, now=at
                    )
                )
        return owed

    return work


def record_actions(
    game_id: int,
    expected_version: int,
    *,
    state_json: str,
    actions: Sequence[tuple[int, str]],
    status: str,
    prompt: Prompt | None,
    wait: Wait | None,
    results: Sequence[SeatResult] | None,
    ai_turn: bool,
    announce_at: datetime | None,
    stand_in_seat: int | None = None,
) -> OneStatement[list[Owed]]:
    """The new state, its actions appended, old prompts settled and a new one opened, the
    results with a finishing move, and with `announce_at` its posts owed in the outbox.
    `stand_in_seat`: an AI goes on playing that seat's move (its clock ran out)."""
    stamp = now()
    ended = stamp if status in ("finished", "abandoned") else None
    version = expected_version + 1
    columns = (
        *(state_json, status, ended, int(ai_turn), int(ai_turn), int(ai_turn)),
        *turn_values(wait, stand_in_seat),
    )

    async def work(tx: Transaction) -> list[Owed]:
        await bump(tx, game_id, expected_version, _RECORDED_COLUMNS, columns)
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
        owed: list[Owed] = []
        if announce_at is not None and actions:
            body = {"seat": actions[0][0], "first": first, "count": len(actions)}
            owed.append(
                await owe(
                    tx, game_id=game_id, version=version, kind="move", body=body, now=announce_at
                )
            )
        if announce_at is not None and status == "finished":
            for kind in ("replay", "lobby"):  # the lobby message says the game has ended
                owed.append(
                    await owe(
                        tx, game_id=game_id, version=version, kind=kind, body={}, now=announce_at
                    )
                )
        return owed

    if status == "finished":  # rare, and owes more: the steps serve both databases
        return OneStatement(work, None)
    announced = announce_at is not None and bool(actions)
    at = announce_at or datetime.now(UTC)
    nonce = new_nonce()
    seats, texts = [seat for seat, _ in actions], [text for _, text in actions]

    def read(row: Row) -> list[Owed]:
        if row["bumped"] != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        if row["owed_id"] is None:
            return []
        body = {"seat": actions[0][0], "first": row["first"], "count": len(actions)}
        return [Owed(row["owed_id"], game_id, version, "move", body, row["token"], nonce)]

    kind, user_id = prompt if prompt is not None else (None, None)
    values = (
        *(stamp, *columns, game_id, expected_version),  # bumped
        game_id,  # counted
        *(stamp, seats, texts),  # appended
        *(kind, user_id, version, stamp, kind),  # opened
        *(version, seats[0] if seats else None, len(actions)),  # owed
        *(sql_stamp(at), sql_stamp(at + lease_of("move")), nonce, announced),
    )
    return OneStatement(work, Statement(_RECORD_ACTIONS, values, "fetchrow", read))


# With no AI seat to move after it, the change lets go of the claim of an AI's thinking: no
# process is to think for it now (see `Duties.claim_ai`).
_RECORDED_COLUMNS = (
    "state = ?, status = ?, ended_at = COALESCE(CAST(? AS TEXT), ended_at), ai_turn = ?,"
    " ai_until = CASE WHEN CAST(? AS INTEGER) = 1 THEN ai_until END,"
    " ai_by = CASE WHEN CAST(? AS INTEGER) = 1 THEN ai_by END, " + TURN_COLUMNS
)
# `record_actions` as one PostgreSQL statement, for a move that does not finish the game: each
# step below is one of the work's, in its order, and happens only if the compare-and-set of
# the version (`bumped`) changed the game. The steps all see the tables as they were before
# the statement, so the prompts settled are the old ones, not the one opened.
_RECORD_ACTIONS = (
    "WITH bumped AS (UPDATE games SET version = version + 1, updated_at = ?, "
    + _RECORDED_COLUMNS
    + " WHERE id = ? AND version = ? RETURNING id),"
    " counted AS (SELECT COALESCE(MAX(n) + 1, 0) AS first FROM actions WHERE game_id = ?),"
    " appended AS (INSERT INTO actions (game_id, n, seat, action, created_at)"
    " SELECT bumped.id, counted.first + a.i - 1, a.seat, a.action, ? FROM bumped, counted,"
    " unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[])) WITH ORDINALITY AS a(seat, action, i)),"
    " settled AS (UPDATE prompts SET resolved = 1"
    " WHERE game_id IN (SELECT id FROM bumped) AND resolved = 0),"
    " opened AS (INSERT INTO prompts (game_id, kind, user_id, version, created_at)"
    " SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT), ?, ? FROM bumped"
    " WHERE CAST(? AS TEXT) IS NOT NULL),"
    " owed AS (INSERT INTO announcements (game_id, version, kind, body, created_at,"
    " claimed_until, token, nonce) SELECT bumped.id, ?, 'move', json_build_object('seat',"
    " CAST(? AS INTEGER), 'first', counted.first, 'count', CAST(? AS INTEGER))::text, ?, ?,"
    " 1, ? FROM bumped, counted WHERE CAST(? AS BOOLEAN) RETURNING id, token)"
    " SELECT (SELECT COUNT(*) FROM bumped) AS bumped, counted.first,"
    " (SELECT id FROM owed) AS owed_id, (SELECT token FROM owed) AS token FROM counted"
)


def set_status(
    game_id: int,
    expected_version: int,
    status: str,
    *,
    told: Told | None = None,
    results: Sequence[SeatResult] | None = None,
    at: datetime | None = None,
) -> Work[list[Owed]]:
    """The game ends without a move: abandoned, or finished by a forfeit with its `results`
    (and then its replay owed at `at`, as after a finishing move). Its clock stops with it,
    and the lobby message's update, saying it has ended, is owed at `at`."""
    stamp = now()

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "status = ?, ended_at = ?, ai_turn = 0, clock_deadline = NULL,"
            " clock_warn_at = NULL, remind_at = NULL",
            (status, stamp),
        )
        await tx.execute("UPDATE prompts SET resolved = 1 WHERE game_id = ?", game_id)
        owed = await _tell(tx, game_id, expected_version + 1, told)
        if results and at is not None:
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
        if at is not None:
            owed.append(
                await owe(
                    tx, game_id=game_id, version=expected_version + 1, kind="lobby", body={}, now=at
                )
            )
        return owed

    return work


def take_back(
    game_id: int,
    expected_version: int,
    *,
    n: int,
    taken: int = 1,
    state_json: str,
    request_id: int | None,
    accepted: Sequence[int],
    prompt: Prompt | None,
    wait: Wait | None,
    ai_turn: bool,
    told: dict[str, Any],
    at: datetime,
) -> Work[list[Owed]]:
    """The `taken` latest actions removed, from number `n` on (only if they still are the
    latest), the state from before them saved, the request that asked for it closed, and the
    board as it is again owed (`told`: who took back which move, see `Owed`)."""
    stamp = now()

    async def work(tx: Transaction) -> list[Owed]:
        await bump(
            tx,
            game_id,
            expected_version,
            "state = ?, ai_turn = ?, " + TURN_COLUMNS,
            (state_json, int(ai_turn), *turn_values(wait)),
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
        body = {**told, "count": n}
        version = expected_version + 1
        return [await owe(tx, game_id=game_id, version=version, kind="undo", body=body, now=at)]

    return work


async def _replace_seats(tx: Transaction, game_id: int, seats: Sequence[SeatRow]) -> None:
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
