"""Finished games' results, one row per seat: what statistics and ratings are made of."""

from __future__ import annotations

from collections.abc import Sequence

from hvbot.database import Database, Row, Transaction
from hvbot.store.rows import ResultRow, SeatResult


def result_row(r: Row) -> ResultRow:
    """A stored seat of the `results` table as statistics read it: every reader of results
    reads all of it (who left early and which AI held a seat rate a game as much as the
    finishing order does)."""
    return ResultRow(
        game_id=r["game_id"],
        seat=r["seat"],
        game_name=r["game"],
        guild_id=r["guild_id"],
        user_id=r["user_id"],
        display_name=r["display_name"],
        score=r["score"],
        won=bool(r["won"]),
        finished_at=r["finished_at"],
        left_early=bool(r["left_early"]),
        ai_level=r["ai_level"],
    )


class Results:
    """The `results` table: written with a game's finishing move, read by /game stats."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def kinds_played(self, *, guild_id: int, user_id: int | None = None) -> list[str]:
        """The kinds of game finished on a server (by one person, if given), by name."""
        values: tuple[int, ...]
        if user_id is None:
            sql, values = "SELECT DISTINCT game FROM results WHERE guild_id = ?", (guild_id,)
        else:
            sql = "SELECT DISTINCT game FROM results WHERE user_id = ? AND guild_id = ?"
            values = (user_id, guild_id)
        return [r["game"] for r in await self.db.fetch(sql + " ORDER BY game", *values)]

    async def count_of_kind(self, *, guild_id: int, game: str) -> int:
        """How many seats of one kind of game finished on a server are stored: results are
        only ever added, so while this stays the same so does `of_kind` (read from the same
        index, without reading the rows)."""
        count = await self.db.fetchval(
            "SELECT COUNT(*) FROM results WHERE guild_id = ? AND game = ?", guild_id, game
        )
        return int(count)

    async def of_kind(self, *, guild_id: int, game: str) -> list[ResultRow]:
        """Every seat of one kind of game finished on a server, in finishing order: ratings
        replay them in this order, so ties are broken by game id to keep it the same always."""
        rows = await self.db.fetch(
            "SELECT * FROM results WHERE guild_id = ? AND game = ?"
            " ORDER BY finished_at, game_id, seat",
            guild_id,
            game,
        )
        return [result_row(r) for r in rows]

    async def after(
        self, *, guild_id: int, game: str, last: tuple[str, int] | None, limit: int
    ) -> list[ResultRow]:
        """Up to `limit` seats of `of_kind`, those of the games after `last` (finished_at,
        game_id) in finishing order (None: from the first): a server's results read a page
        at a time, or only those finished since a summary was made. The last game of a
        full page may be cut short: the page's reader goes on from the one before it."""
        where, values = "guild_id = ? AND game = ?", [guild_id, game]
        if last is not None:
            where += " AND (finished_at, game_id) > (?, ?)"
            values += [*last]
        rows = await self.db.fetch(
            f"SELECT * FROM results WHERE {where} ORDER BY finished_at, game_id, seat LIMIT ?",
            *values,
            limit,
        )
        return [result_row(r) for r in rows]

    async def count_through(self, *, guild_id: int, game: str, last: tuple[str, int]) -> int:
        """How many seats of `of_kind` are of `last` (finished_at, game_id) or games before
        it: what a summary made through `last` summed up, unless a result was since filled
        in before it (the start-up backfill dates a game by its end, however late)."""
        count = await self.db.fetchval(
            "SELECT COUNT(*) FROM results WHERE guild_id = ? AND game = ?"
            " AND (finished_at, game_id) <= (?, ?)",
            guild_id,
            game,
            *last,
        )
        return int(count)

    async def fill(self, *, game_id: int, results: Sequence[SeatResult]) -> None:
        """Store the results of a game finished before results were kept, dated by its end;
        results stored already are left as they are, so filling them twice changes nothing."""
        await self.db.transact(lambda tx: insert_results(tx, game_id, results, None))


async def insert_results(
    tx: Transaction,
    game_id: int,
    results: Sequence[SeatResult],
    finished_at: str | None,
) -> None:
    """Copy the game's kind, server and seat names from the rows the same transaction sees,
    so the results say who sat where at the very end. A seat an AI played for a person
    counts for that person: one away (the AI stood in for them), or one who resigned (for
    whom it is a loss, whoever the seat's AI went on to beat). A resigned seat left early,
    as did those the service says so of (`SeatResult.left_early`). Results stored already
    stay as they are."""
    await tx.executemany(
        "INSERT INTO results (game_id, seat, game, guild_id, user_id,"
        " display_name, score, won, finished_at, left_early, ai_level)"
        " SELECT s.game_id, s.seat, g.game, g.guild_id,"
        " COALESCE(s.user_id, s.away_user_id, s.resigned_user_id), s.display_name,"
        " CAST(? AS INTEGER),"
        " CASE WHEN s.resigned_user_id IS NULL THEN CAST(? AS INTEGER) ELSE 0 END,"
        " COALESCE(CAST(? AS TEXT), g.ended_at, g.updated_at),"
        " CASE WHEN s.resigned_user_id IS NOT NULL OR CAST(? AS INTEGER) = 1 THEN 1 ELSE 0 END,"
        " s.ai_level"
        " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = ? AND s.seat = ?"
        " ON CONFLICT DO NOTHING",
        [(r.score, int(r.won), finished_at, int(r.left_early), game_id, r.seat) for r in results],
    )
