"""Where games are stored: one small interface, with SQLite and PostgreSQL behind it.

The repository writes its SQL once, with `?` placeholders and only what both engines accept
(`CAST`s where PostgreSQL cannot guess a parameter's type, `ON CONFLICT DO NOTHING`,
`RETURNING`), against `Database` and `Transaction`. SQLite stays the embedded default that one
process uses; PostgreSQL is for several processes, on one machine or many, sharing one truth.

A transaction is an `async` function of a `Transaction` that awaits nothing but the
transaction's own methods: on PostgreSQL it is awaited in a real transaction; on SQLite it is
driven to its end inside the database thread, many at a time in one commit (see
`hvbot.database.sqlite`), which is what keeps one SQLite process fast under load.
"""

from __future__ import annotations

from pathlib import Path

from hvbot.database.base import (
    Database,
    DatabaseError,
    Duplicate,
    Row,
    Transaction,
    Work,
    migrations,
    split_sql,
)
from hvbot.database.postgres import UNREACHABLE, PostgresDatabase
from hvbot.database.sqlite import SqliteDatabase
from hvbot.runtime.config import POSTGRES_SCHEMES, sqlite_path

__all__ = [
    "Database",
    "DatabaseError",
    "Duplicate",
    "Row",
    "Transaction",
    "Work",
    "is_postgresql",
    "is_unreachable",
    "migrations",
    "open_database",
    "split_sql",
]


def is_unreachable(error: BaseException) -> bool:
    """Whether `error` says the database cannot be reached just now (it is restarting, say):
    worth a warning and another try, not a traceback."""
    return isinstance(error, UNREACHABLE)


def is_postgresql(url: str) -> bool:
    return "://" in url and url.split("://", 1)[0] in POSTGRES_SCHEMES


async def open_database(where: str | Path) -> Database:
    """Open (and migrate) the database at a `sqlite:///...` or `postgresql://...` URL, or a
    SQLite file's path. Raises DatabaseError with one line when it cannot be used."""
    text = str(where)
    if is_postgresql(text):
        return await PostgresDatabase.open(text)
    return await SqliteDatabase.open(sqlite_path(text) if "://" in text else Path(text))
