"""How a person plays, read from the games they sat in: how long they take to move and how
many of their games were abandoned. Nothing is stored for it: the action log is stamped as
moves are made, and an abandoned game keeps its status (it has no results rows)."""

from __future__ import annotations

from hvbot.database import Database

# From and up to (not including) these stamps: a season's moments (None: all time).
Window = tuple[str, str] | None

# Each of the person's moves with the stamp of the move before it in the same game, in games
# over (finished or abandoned) on one server. A move made by the same change as the one
# before it (a move's forced follow-up) shares its stamp and is left out: nobody thought
# over it. The first move of a game has no move before it and is left out too.
_MOVE_STAMPS = (
    "SELECT t.game, t.before_at, t.created_at FROM ("
    " SELECT g.game AS game, a.game_id AS game_id, a.seat AS seat, a.created_at AS created_at,"
    " LAG(a.created_at) OVER (PARTITION BY a.game_id ORDER BY a.n) AS before_at"
    " FROM actions a JOIN games g ON g.id = a.game_id"
    " WHERE g.guild_id = ? AND g.status IN ('finished', 'abandoned')"
    " AND a.game_id IN (SELECT game_id FROM seats WHERE user_id = ?)"
    ") t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.seat"
    " WHERE s.user_id = ? AND t.before_at IS NOT NULL AND t.before_at < t.created_at"
)


class Habits:
    """Read-only questions about a person's games on one server, for /stats me."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def move_stamps(
        self, *, guild_id: int, user_id: int, window: Window = None
    ) -> list[tuple[str, str, str]]:
        """(game, the stamp of the move before, the stamp of the person's move) for each of
        the person's moves in games over on the server (made inside `window`, if given: a
        season's stamps, from and up to): the time they took is the difference. Moves made
        while an AI held their seat are not theirs and not here."""
        sql, values = _MOVE_STAMPS, [guild_id, user_id, user_id, *(window or ())]
        if window is not None:
            sql += " AND t.created_at >= ? AND t.created_at < ?"
        rows = await self.db.fetch(sql, *values)
        return [(r["game"], r["before_at"], r["created_at"]) for r in rows]

    async def abandoned(
        self, *, guild_id: int, user_id: int, window: Window = None
    ) -> dict[str, int]:
        """How many games the person sat in were abandoned once started, by game (those
        abandoned inside `window`, if given): a lobby closed before its game began was never
        a game."""
        within = " AND g.ended_at >= ? AND g.ended_at < ?" if window is not None else ""
        rows = await self.db.fetch(
            "SELECT g.game AS game, COUNT(*) AS n FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            " WHERE g.guild_id = ? AND g.status = 'abandoned' AND g.state IS NOT NULL"
            " AND (s.user_id = ? OR s.away_user_id = ? OR s.resigned_user_id = ?)"
            f"{within} GROUP BY g.game",
            guild_id,
            user_id,
            user_id,
            user_id,
            *(window or ()),
        )
        return {r["game"]: int(r["n"]) for r in rows}
