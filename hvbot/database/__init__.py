"""Where games are stored: one small interface, with SQLite and PostgreSQL behind it.

The repository writes its SQL once, with `?` placeholders and only what both engines accept
(`CAST`s where PostgreSQL cannot guess a parameter's type, `ON CONFLICT DO NOTHING`,
`RETURNING`), against `Database` and `Transaction`. SQLite stays the embedded default that one
process uses; PostgreSQL is for several processes, on one machine or many, sharing one truth.

A transaction is an `async` function of a `Transaction` that awaits nothing but the
transaction's own methods: on PostgreSQL it is awaited in a real transaction; on SQLite it is
driven to its end inside the database thread, many at a time in one commit (see
`hvbot.database.sqlite`), which is what keeps one SQLite process fast under load. A change of
one statement (`Statement`) goes to PostgreSQL alone, and the change every move makes is also
written as one statement for it (`OneStatement`), since there each step costs a round trip.
"""

from __future__ import annotations

import logging
from pathlib import Path

from hvbot.database.base import (
    Database,
    DatabaseError,
    Duplicate,
    OneStatement,
    Row,
    Statement,
    StoreUnavailable,
    Transaction,
    Work,
    migrations,
    split_sql,
)
from hvbot.database.postgres import PostgresDatabase
from hvbot.database.postgres import unreachable as postgres_unreachable
from hvbot.database.sqlite import SqliteDatabase
from hvbot.database.sqlite import unreachable as sqlite_unreachable
from hvbot.database.version_watch import VersionWatch
from hvbot.infra.config import POSTGRES_SCHEMES, sqlite_path

__all__ = [
    "Database",
    "DatabaseError",
    "Duplicate",
    "OneStatement",
    "Row",
    "Statement",
    "StoreUnavailable",
    "Transaction",
    "VersionWatch",
    "Work",
    "failed",
    "is_postgresql",
    "is_unreachable",
    "migrations",
    "open_database",
    "split_sql",
]


def is_unreachable(error: BaseException) -> bool:
    """Whether `error` says the database cannot be reached just now (it is restarting, say):
    worth another try, not a traceback. The database said so once already (see
    `Availability`), so a caller logs it at DEBUG at most."""
    return (
        isinstance(error, StoreUnavailable)
        or postgres_unreachable(error)
        or sqlite_unreachable(error)
    )


def failed(logger: logging.Logger, error: BaseException, message: str, *args: object) -> None:
    """Log a failure of work the bot does by itself (a check, an AI seat, a post owed): an
    error with its traceback, but while the database cannot be reached one DEBUG line, as
    each round of every check fails alike and the database said it was away once already
    (`Availability`). What the failed work was doing is tried again at the next round."""
    if is_unreachable(error):
        logger.debug(message + ": %s", *args, error)
    else:
        logger.error(message, *args, exc_info=error)


def is_postgresql(url: str) -> bool:
    return "://" in url and url.split("://", 1)[0] in POSTGRES_SCHEMES


async def open_database(where: str | Path, *, wait_s: float = 0.0) -> Database:
    """Open (and migrate) the database at a `sqlite:///...` or `postgresql://...` URL, or a
    SQLite file's path. Raises DatabaseError with one line when it cannot be used. A
    PostgreSQL server that does not answer yet is waited for up to `wait_s` seconds."""
    text = str(where)
    if is_postgresql(text):
        return await PostgresDatabase.open(text, wait_s=wait_s)
    return await SqliteDatabase.open(sqlite_path(text) if "://" in text else Path(text))
