"""Opening a store from what the user typed: a path, a database URL or ``memory://``."""

from __future__ import annotations

import os
from pathlib import Path

from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.protocol import EventStore

DEFAULT_DB = Path("journals") / "yarnlog.db"
MEMORY_URL = "memory://"


def database_url(db: str | os.PathLike | None = None) -> str:
    """Turn ``--db`` / ``YARNLOG_DB`` (a path or a URL) into a URL."""
    value = str(db) if db else os.environ.get("YARNLOG_DB") or str(DEFAULT_DB)
    if "://" in value:
        if value.startswith("postgresql://") or value.startswith("postgres://"):
            # psycopg 3 is the driver we ship; plain postgresql:// would ask for psycopg2.
            value = "postgresql+psycopg://" + value.split("://", 1)[1]
        return value
    return f"sqlite:///{value}"


def missing_sqlite_file(db: str | os.PathLike | None = None) -> Path | None:
    """The SQLite file ``db`` names when it does not exist yet (None for any other database).

    Cheap on purpose: the command line asks it before it imports any storage code.
    """
    url = database_url(db)
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url.removeprefix("sqlite:///"))
    return None if str(path) in ("", ":memory:") or path.exists() else path


def open_store(db: str | os.PathLike | None = None, *, create: bool = True) -> EventStore:
    """The store the URL or SQLite path names (default ``YARNLOG_DB``); ``create`` makes its schema.

    ``memory://`` is a fresh in-memory store each time it is opened.
    """
    url = database_url(db)
    if url.startswith(MEMORY_URL):
        from yarnlog.persistence.memory import MemoryStore

        return MemoryStore()
    # Each backend is imported only when asked for: the in-memory store needs no SQLAlchemy at all.
    if url.startswith("sqlite"):
        from yarnlog.persistence.sqlite import SqliteStore

        return SqliteStore(url, create=create)
    if url.startswith("postgresql"):
        from yarnlog.persistence.postgres import PostgresStore

        return PostgresStore(url, create=create)
    scheme = url.split("://", 1)[0]
    # What was typed names no database yarnlog can open: bad input (exit 2), not a failing store.
    raise InvalidCommand(f"unsupported journal database {scheme!r}: give a SQLite path, a postgresql:// URL "
                     f"or {MEMORY_URL}")
