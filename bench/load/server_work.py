"""What the bots' PostgreSQL server wrote over the timed play: the WAL it synced (and sent to
the players' replica, which applies it), the full page images in it, the checkpoints it made,
and how many of the games' updates were heap-only (HOT: written on the page of the game's last
version, with no new entry in any of the games' indexes).

A full page image is written for each page first changed after a checkpoint, so a checkpoint
in the middle of the timed play (PostgreSQL makes one every 5 minutes) would charge one run's
actions with thousands of them and not the next's. The run makes one itself as the play begins
(`checkpoint`), before the half of the games that plays first has touched the pages the timed
play changes, so that none falls due within the timed play and every run pays alike.

Read from the bots' server itself, through a connection of its own, twice a run: nothing the
players do. The tables' counts are those the server's processes have reported so far (each
does every second or so while busy), so the share of HOT updates is close, not exact; the WAL
is measured exactly, by its position."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True)
class ServerWork:
    """The server's counts at one moment (see `read`)."""

    wal_bytes: float  # the position in the WAL, in bytes
    full_pages: int  # full page images written to the WAL
    checkpoints: int  # made since the server started, by time or by request
    game_updates: int  # updates of the games' rows
    hot_game_updates: int  # ...of those, heap-only

    def since(self, before: ServerWork) -> ServerWork:
        return ServerWork(
            self.wal_bytes - before.wal_bytes,
            self.full_pages - before.full_pages,
            self.checkpoints - before.checkpoints,
            self.game_updates - before.game_updates,
            self.hot_game_updates - before.hot_game_updates,
        )


async def read(url: str) -> ServerWork:
    """The counts of the server of the bots' database `url` now."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal,"
            " (SELECT wal_fpi FROM pg_stat_wal) AS fpi,"
            " (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter) AS checkpoints,"
            " COALESCE(n_tup_upd, 0) AS upd, COALESCE(n_tup_hot_upd, 0) AS hot"
            " FROM (SELECT 1) AS one"
            " LEFT JOIN pg_stat_user_tables ON relname = 'games' AND schemaname = 'public'"
        )
    finally:
        await conn.close()
    assert row is not None
    return ServerWork(row["wal"], row["fpi"], row["checkpoints"], row["upd"], row["hot"])


async def checkpoint(url: str) -> None:
    """A checkpoint of the bots' server now (see the module's docstring)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CHECKPOINT")
    finally:
        await conn.close()
