"""Tournaments (`tournaments`, `tournament_entrants`, `tournament_rounds`,
`tournament_games`): a server's Swiss or round robin played over days, its games ordinary
games in threads of the tournament's channel (see `hvbot.services.tournaments`).

The row that makes a round happen once is `tournament_rounds`, keyed by (tournament, round):
the round's games, its byes and the posts it owes are written in the transaction that inserts
it, so of two processes that both see a round's last game end, one pairs the next round and
the other's insert fails as a `Duplicate` and changes nothing. A tournament's own changes
(join, leave, start, pause, ...) compare and bump its `version`, as a game's do.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hvbot.database import Database, Row, Statement, Transaction, Work
from hvbot.store.changes import replace_seats
from hvbot.store.duties import Owed, owe_for_server
from hvbot.store.results import result_row
from hvbot.store.rows import ResultRow, SeatRow
from hvbot.store.sql import VersionConflict, stamp

# A tournament's life: sign-up, then rounds (paused between them if a moderator says so),
# then finished, or cancelled at any time.
STATUSES = ("signup", "running", "paused", "finished", "cancelled")
OPEN_TOURNAMENT = ("signup", "running", "paused")
FORMATS = ("swiss", "round_robin")
TABLES = ("2", "3", "4", "3-4")


@dataclass(frozen=True)
class TournamentRow:
    """One tournament as stored. `rounds`: how many (Swiss: set at the start when not given;
    round robin: entrants - 1, or entrants when odd); `round`: the last round paired (0 in
    sign-up). `smallest`/`largest`: a table's seats. `clock_minutes`/`timeout`: every table
    game's turn clock. `starts_at`: when it starts by itself (a stamp, None: when its creator
    starts it). `most`: entrants at most. `signup_message_id`: the sign-up post, edited by
    every later change. `language`: of its public posts (the server's)."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game_name: str
    options: dict[str, Any]
    format: str
    rounds: int | None
    smallest: int
    largest: int
    clock_minutes: int
    timeout: str
    starts_at: str | None
    most: int
    status: str
    round: int
    signup_message_id: int | None
    name: str
    language: str
    version: int
    created_at: str
    finished_at: str | None = None

    @property
    def is_open(self) -> bool:
        """Signing up or playing (a paused tournament is open: it resumes)."""
        return self.status in OPEN_TOURNAMENT

    @property
    def table(self) -> str:
        """The table size as /tournament new names it: "2", "3", "4" or "3-4"."""
        if self.smallest == self.largest:
            return str(self.largest)
        return f"{self.smallest}-{self.largest}"


@dataclass(frozen=True)
class EntrantRow:
    """A person signed up. `seed`: their place in the seed order, by rating at the start (0
    before it); `rating`: their rating then. `withdrawn_round`: they left (or were removed)
    after that many rounds had been paired (None: still playing; 0: before the start, which
    takes them off the list instead). `removed`: by a moderator."""

    tournament_id: int
    user_id: int
    name: str
    language: str | None
    seed: int
    rating: float | None
    joined_at: str
    withdrawn_round: int | None = None
    removed: bool = False

    @property
    def playing(self) -> bool:
        return self.withdrawn_round is None


@dataclass(frozen=True)
class RoundRow:
    """A round as paired, once: its byes (user ids), and when; when its standings were owed."""

    tournament_id: int
    round: int
    byes: tuple[int, ...]
    paired_at: str
    # When the standings after it were owed (None: not yet): they are posted once, with the
    # next round's pairing or, while the tournament is paused, as soon as the round is over.
    standings_at: str | None = None


@dataclass(frozen=True)
class TableGameRow:
    """One table of a round: its game (an ordinary game), and its players in seat order."""

    tournament_id: int
    round: int
    table: int
    game_id: int
    players: tuple[int, ...]


def _tournament(r: Row) -> TournamentRow:
    return TournamentRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        creator_id=r["creator_id"],
        game_name=r["game"],
        options=json.loads(r["options"]),
        format=r["format"],
        rounds=r["rounds"],
        smallest=r["smallest"],
        largest=r["largest"],
        clock_minutes=r["clock_minutes"],
        timeout=r["clock_timeout"],
        starts_at=r["starts_at"],
        most=r["most"],
        status=r["status"],
        round=r["round"],
        signup_message_id=r["signup_message_id"],
        name=r["name"],
        language=r["language"],
        version=r["version"],
        created_at=r["created_at"],
        finished_at=r["finished_at"],
    )


def _entrant(r: Row) -> EntrantRow:
    return EntrantRow(
        tournament_id=r["tournament_id"],
        user_id=r["user_id"],
        name=r["name"],
        language=r["language"],
        seed=r["seed"],
        rating=r["rating"],
        joined_at=r["joined_at"],
        withdrawn_round=r["withdrawn_round"],
        removed=bool(r["removed"]),
    )


def _users(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split())


def _table(r: Row) -> TableGameRow:
    return TableGameRow(
        r["tournament_id"], r["round"], r["table_no"], r["game_id"], _users(r["players"])
    )


class TournamentTable:
    """The tournaments' tables, read; their changes are the `Work`s below, run by the
    service with `Database.transact`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self.db.fetchrow("SELECT * FROM tournaments WHERE id = ?", tournament_id)
        return _tournament(row) if row else None

    async def open_in(self, channel_ids: Sequence[int]) -> TournamentRow | None:
        """The open tournament of one of these channels (a thread's parent, say), or of the
        table whose thread one of them is, if any."""
        if not channel_ids:
            return None
        marks = ", ".join("?" for _ in channel_ids)
        row = await self.db.fetchrow(
            f"SELECT * FROM tournaments WHERE status IN {OPEN_SQL} AND (channel_id IN ({marks})"
            " OR id IN (SELECT tournament_id FROM games WHERE tournament_id IS NOT NULL"
            f" AND thread_id IN ({marks}))) ORDER BY id LIMIT 1",
            *channel_ids,
            *channel_ids,
        )
        return _tournament(row) if row else None

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """Its entrants: in seed order once started, else in the order they joined."""
        rows = await self.db.fetch(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY seed, joined_at, user_id",
            tournament_id,
        )
        return [_entrant(r) for r in rows]

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        rows = await self.db.fetch(
            "SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY round",
            tournament_id,
        )
        return [
            RoundRow(
                r["tournament_id"], r["round"], _users(r["byes"]), r["paired_at"], r["standings_at"]
            )
            for r in rows
        ]

    async def tables(self, tournament_id: int) -> list[tuple[TableGameRow, str]]:
        """Its tables, round by round, each with its game's status now."""
        rows = await self.db.fetch(
            "SELECT t.*, g.status FROM tournament_games AS t JOIN games AS g ON g.id = t.game_id"
            " WHERE t.tournament_id = ? ORDER BY t.round, t.table_no",
            tournament_id,
        )
        return [(_table(r), r["status"]) for r in rows]

    async def results(self, tournament_id: int) -> list[ResultRow]:
        """The stored results of its finished games, seat by seat."""
        rows = await self.db.fetch(
            "SELECT r.* FROM results AS r JOIN tournament_games AS t ON t.game_id = r.game_id"
            " WHERE t.tournament_id = ? ORDER BY r.game_id, r.seat",
            tournament_id,
        )
        return [result_row(r) for r in rows]

    async def of_game(self, game_id: int) -> TableGameRow | None:
        """The table a game is, if it is a tournament's."""
        row = await self.db.fetchrow("SELECT * FROM tournament_games WHERE game_id = ?", game_id)
        return _table(row) if row else None

    async def due_to_start(self, now: datetime, most: int = 10) -> list[TournamentRow]:
        """Tournaments in sign-up whose start time has come."""
        rows = await self.db.fetch(
            "SELECT * FROM tournaments WHERE status = 'signup' AND starts_at IS NOT NULL"
            " AND starts_at <= ? ORDER BY starts_at, id LIMIT ?",
            stamp(now),
            most,
        )
        return [_tournament(r) for r in rows]

    async def round_over(self, most: int = 10) -> list[TournamentRow]:
        """Running tournaments whose last round paired has no game left open: the next round
        is due (or the end). Normally the last game's end pairs it at once; these are those a
        process died before pairing, found by the periodic check."""
        rows = await self.db.fetch(
            "SELECT * FROM tournaments AS t WHERE t.status = 'running' AND t.round > 0"
            " AND NOT EXISTS (SELECT 1 FROM tournament_games AS tg JOIN games AS g"
            " ON g.id = tg.game_id WHERE tg.tournament_id = t.id AND tg.round = t.round"
            " AND g.status IN ('lobby', 'active')) ORDER BY t.id LIMIT ?",
            most,
        )
        return [_tournament(r) for r in rows]

    async def standings_due(self, most: int = 10) -> list[TournamentRow]:
        """Paused tournaments whose last round paired has no game left open and whose
        standings after it are not owed yet: the round's last end owes them at once; these
        are those a process died before owing them (or paused as the round ended), found by
        the periodic check."""
        rows = await self.db.fetch(
            "SELECT * FROM tournaments AS t WHERE t.status = 'paused' AND t.round > 0"
            " AND EXISTS (SELECT 1 FROM tournament_rounds AS tr WHERE tr.tournament_id = t.id"
            " AND tr.round = t.round AND tr.standings_at IS NULL)"
            " AND NOT EXISTS (SELECT 1 FROM tournament_games AS tg JOIN games AS g"
            " ON g.id = tg.game_id WHERE tg.tournament_id = t.id AND tg.round = t.round"
            " AND g.status IN ('lobby', 'active')) ORDER BY t.id LIMIT ?",
            most,
        )
        return [_tournament(r) for r in rows]

    async def removed_still_seated(self, most: int = 10) -> list[tuple[int, int, int]]:
        """Games still under way at which a person a moderator removed from their
        tournament still sits, unresigned: (game id, tournament id, user id), oldest game
        first. A removal withdraws them and then resigns their seat, in two steps; a process
        that died between them left these, which the periodic check resigns (once: a
        resignation is a compare-and-set on the game's version)."""
        rows = await self.db.fetch(
            "SELECT g.id AS game_id, e.tournament_id, e.user_id FROM games AS g"
            " JOIN tournament_entrants AS e ON e.tournament_id = g.tournament_id"
            " JOIN seats AS s ON s.game_id = g.id AND s.user_id = e.user_id"
            " WHERE g.tournament_id IS NOT NULL AND g.status = 'active' AND e.removed = 1"
            " ORDER BY g.id, e.user_id LIMIT ?",
            most,
        )
        return [(r["game_id"], r["tournament_id"], r["user_id"]) for r in rows]

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        """The sign-up post as made (not a versioned change: it moves nothing)."""
        await self.db.transact(
            Statement(
                "UPDATE tournaments SET signup_message_id = ? WHERE id = ?",
                (message_id, tournament_id),
            )
        )


OPEN_SQL = "('signup', 'running', 'paused')"


def create(
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    game: str,
    options: dict[str, Any],
    format: str,
    rounds: int | None,
    smallest: int,
    largest: int,
    clock_minutes: int,
    timeout: str,
    starts_at: datetime | None,
    most: int,
    name: str,
    language: str,
    at: datetime,
) -> Work[tuple[int, list[Owed]]]:
    """A new tournament in sign-up, and its sign-up post owed (posted, not edited: its body
    says `first`). Fails with `Duplicate` while the channel has an open tournament."""

    async def work(tx: Transaction) -> tuple[int, list[Owed]]:
        tournament_id: int = await tx.fetchval(
            "INSERT INTO tournaments (guild_id, channel_id, creator_id, game, options, format,"
            " rounds, smallest, largest, clock_minutes, clock_timeout, starts_at, most,"
            " status, name, language, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?) RETURNING id",
            guild_id,
            channel_id,
            creator_id,
            game,
            json.dumps(options),
            format,
            rounds,
            smallest,
            largest,
            clock_minutes,
            timeout,
            stamp(starts_at) if starts_at is not None else None,
            most,
            name,
            language,
            stamp(at),
        )
        body = {"tournament": tournament_id, "first": True}
        owed = await owe_for_server(tx, guild_id=guild_id, kind="signup", body=body, now=at)
        return tournament_id, [owed]

    return work


Step = Callable[[Transaction], Awaitable[None]]


def change(
    tournament: TournamentRow,
    *,
    at: datetime,
    sets: str = "",
    values: Sequence[Any] = (),
    steps: Sequence[Step] = (),
    posts: Sequence[tuple[str, dict[str, Any]]] = (("signup", {}),),
) -> Work[list[Owed]]:
    """One change to a tournament: its version compared and bumped (with the columns in
    `sets`), its `posts` owed (kind, body; the body names the tournament by itself), then
    `steps`. Fails with `VersionConflict` if it changed since it was read."""

    async def work(tx: Transaction) -> list[Owed]:
        also = f", {sets}" if sets else ""
        changed = await tx.execute(
            f"UPDATE tournaments SET version = version + 1{also} WHERE id = ? AND version = ?",
            *values,
            tournament.id,
            tournament.version,
        )
        if changed != 1:
            raise VersionConflict(f"tournament {tournament.id} changed meanwhile")
        # Owed first: a round's announcement goes out before its tables' own posts, whoever
        # sends them (another process takes the outbox over oldest first).
        owed = await owe_posts(tx, tournament, posts, at)
        for step in steps:
            await step(tx)
        return owed

    return work


async def owe_posts(
    tx: Transaction,
    tournament: TournamentRow,
    posts: Sequence[tuple[str, dict[str, Any]]],
    at: datetime,
) -> list[Owed]:
    """A tournament's posts owed in the transaction of the change they tell of."""
    owed = []
    for kind, body in posts:
        full = {"tournament": tournament.id, **body}
        owed.append(
            await owe_for_server(tx, guild_id=tournament.guild_id, kind=kind, body=full, now=at)
        )
    return owed


def add_entrant(
    tournament_id: int, user_id: int, name: str, language: str | None, most: int, at: datetime
) -> Step:
    """A person signed up, unless the tournament is full (`Full`) or they are on its list
    already (`Duplicate`)."""

    async def step(tx: Transaction) -> None:
        count: int = await tx.fetchval(
            "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?", tournament_id
        )
        if count >= most:
            raise Full(count)
        await tx.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, language, joined_at)"
            " VALUES (?, ?, ?, ?, ?)",
            tournament_id,
            user_id,
            name,
            language,
            stamp(at),
        )

    return step


def drop_entrant(tournament_id: int, user_id: int) -> Step:
    """A person off the list (before the start)."""

    async def step(tx: Transaction) -> None:
        await tx.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            tournament_id,
            user_id,
        )

    return step


def withdraw(tournament_id: int, user_id: int, after_round: int, *, removed: bool) -> Step:
    """A person not paired again (after `after_round` rounds were paired)."""

    async def step(tx: Transaction) -> None:
        changed = await tx.execute(
            "UPDATE tournament_entrants SET withdrawn_round = ?, removed = ?"
            " WHERE tournament_id = ? AND user_id = ? AND withdrawn_round IS NULL",
            after_round,
            int(removed),
            tournament_id,
            user_id,
        )
        if changed != 1:
            raise VersionConflict(f"tournament {tournament_id}: {user_id} withdrew already")

    return step


def seed(tournament_id: int, order: Sequence[tuple[int, float | None]]) -> Step:
    """The entrants' seed order at the start (user id, rating then), best first."""

    async def step(tx: Transaction) -> None:
        await tx.executemany(
            "UPDATE tournament_entrants SET seed = ?, rating = ?"
            " WHERE tournament_id = ? AND user_id = ?",
            [(n + 1, rating, tournament_id, user) for n, (user, rating) in enumerate(order)],
        )

    return step


def add_round(tournament_id: int, number: int, byes: Sequence[int], at: datetime) -> Step:
    """The round's row: the claim that pairs it, once (`Duplicate` if it is there)."""

    async def step(tx: Transaction) -> None:
        await tx.execute(
            "INSERT INTO tournament_rounds (tournament_id, round, byes, paired_at)"
            " VALUES (?, ?, ?, ?)",
            tournament_id,
            number,
            " ".join(str(b) for b in byes),
            stamp(at),
        )

    return step


def owe_standings(tournament_id: int, number: int, at: datetime) -> Step:
    """The round's standings marked owed, in the transaction that owes their post: they are
    owed once (`VersionConflict` if another change owed them first)."""

    async def step(tx: Transaction) -> None:
        marked = await tx.execute(
            "UPDATE tournament_rounds SET standings_at = ?"
            " WHERE tournament_id = ? AND round = ? AND standings_at IS NULL",
            stamp(at),
            tournament_id,
            number,
        )
        if marked != 1:
            raise VersionConflict(f"tournament {tournament_id}: round {number}'s standings owed")

    return step


async def open_table(
    tx: Transaction,
    tournament: TournamentRow,
    *,
    number: int,
    table: int,
    seats: Sequence[SeatRow],
    remind_minutes: int | None,
    at: datetime,
) -> int:
    """A table of round `number` as a game in its lobby, seated, named as the tournament's
    (its thread is started from its announcement once posted): its id. The caller starts it
    in the same transaction."""
    game_id: int = await tx.fetchval(
        "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options,"
        " remind_minutes, absent_hours, wants_thread, language, created_at, updated_at,"
        " clock_minutes, clock_timeout, tournament_id)"
        " VALUES (?, ?, ?, ?, 'lobby', ?, ?, NULL, 1, ?, ?, ?, ?, ?, ?) RETURNING id",
        tournament.game_name,
        tournament.guild_id,
        tournament.channel_id,
        seats[0].user_id,
        json.dumps(tournament.options),
        remind_minutes,
        tournament.language,
        stamp(at),
        stamp(at),
        tournament.clock_minutes,
        tournament.timeout,
        tournament.id,
    )
    await replace_seats(tx, game_id, seats)
    await tx.execute(
        "INSERT INTO tournament_games (tournament_id, round, table_no, game_id, players)"
        " VALUES (?, ?, ?, ?, ?)",
        tournament.id,
        number,
        table,
        game_id,
        " ".join(str(s.user_id) for s in seats),
    )
    return game_id


class Full(Exception):
    """The tournament has as many entrants as it takes."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} entrants already")
        self.count = count
