"""The event store in a SQLite file (the default journal): triggers and SQLite's write locking.

A journal the user may not write (the file, or its directory, read-only) is opened read-only, so it
can still be read, verified and exported; a write to it is refused in one line.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from yarnlog.core.chain import GENESIS, HASHED_FIELDS, hash_of_row
from yarnlog.persistence.protocol import HASH_REFUSED, Snapshot, StoreError
from yarnlog.persistence.sql import SqlStore

#: The SQL function the hash trigger calls: :func:`stored_event_hash` of the row's columns.
HASH_FUNCTION = "yarnlog_event_hash"
HASH_ARGUMENTS = (*HASHED_FIELDS, "payload", "prev_hash")


def _row_hash(*values: Any) -> str:
    """:func:`stored_event_hash` of a row's columns in :data:`HASH_ARGUMENTS`' order (looked up if
    this process has just hashed the same values: :func:`~yarnlog.core.chain.remembered_hashes`)."""
    return hash_of_row(values)


TRIGGERS = (
    """CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
       BEGIN SELECT RAISE(ABORT, 'yarnlog events are append-only: UPDATE refused'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
       BEGIN SELECT RAISE(ABORT, 'yarnlog events are append-only: DELETE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS events_chain_on_insert BEFORE INSERT ON events
       WHEN NEW.sequence <> COALESCE((SELECT MAX(sequence) FROM events
                                      WHERE campaign_id = NEW.campaign_id), 0) + 1
         OR NEW.prev_hash <> COALESCE((SELECT hash FROM events WHERE campaign_id = NEW.campaign_id
                                        AND sequence = NEW.sequence - 1), '{GENESIS}')
       BEGIN SELECT RAISE(ABORT, 'yarnlog events must extend the chain: sequence gap or wrong prev_hash'); END""",
    # Its own statement (other guards may come beside it): the hash must be the hash of the row's
    # own bytes. SQLite has no SHA-256 in SQL, so the store registers HASH_FUNCTION on every
    # connection it opens; a program that does not (the sqlite3 shell) cannot insert events at all.
    f"""CREATE TRIGGER IF NOT EXISTS events_hash_on_insert BEFORE INSERT ON events
       WHEN NEW.hash IS NOT {HASH_FUNCTION}({', '.join(f'NEW.{name}' for name in HASH_ARGUMENTS)})
       BEGIN SELECT RAISE(ABORT, '{HASH_REFUSED}'); END""",
)


class SqliteStore(SqlStore):
    """Events in a SQLite database; writers take the write lock at BEGIN, so none deadlocks."""

    TRIGGERS = TRIGGERS
    GUARDS = ("events_refuse_update", "events_refuse_delete", "events_chain_on_insert", "events_hash_on_insert")
    ENABLED_TRIGGERS_SQL = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :table"

    def __init__(self, url: str, *, create: bool = True):
        path = url.removeprefix("sqlite:///")
        #: The file cannot be written by this user: it is opened read-only, and every write refused.
        self.read_only = False
        if path and path != ":memory:":
            if not create and not Path(path).exists():
                raise StoreError(f"no journal database at {path} (create one with 'yarnlog init')")
            if Path(path).exists() and not _writable(Path(path)):
                self.read_only, url, create = True, _read_only_url(Path(path)), False
            else:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # SQLite serializes writers itself (BEGIN IMMEDIATE below); one waits up to 30 s for the lock
        # (the driver's busy timeout) before its append is reported as a conflict.
        engine = create_engine(url, connect_args={"timeout": 30})
        _make_transactions_explicit(engine, wal=not self.read_only)
        super().__init__(engine, create=create)

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A write transaction that takes the write lock at BEGIN (no lock-upgrade deadlocks): it
        excludes every other writer of the file until it ends, so a turn needs no further lock."""
        if self.read_only:
            raise StoreError(f"the journal {self.path} is read-only (no permission to write it or its "
                             "directory): nothing written")
        with self.engine.connect() as conn:
            conn.info["begin_immediate"] = True
            try:
                with conn.begin():
                    yield conn
            finally:
                conn.info.pop("begin_immediate", None)

    def _insert_appended(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """An append's rows on a pooled driver connection: one row as a statement in autocommit (its
        own transaction, as SQLite runs every statement outside BEGIN), several between BEGIN
        IMMEDIATE and COMMIT. The same statements and triggers as in a SQLAlchemy transaction, without
        building one: the Connection, its begin event and its commit were most of the store's own
        CPU of a durable append. Inside a turn, in the turn's transaction as before."""
        if getattr(self._turn, "conn", None) is not None or self.read_only:
            super()._insert_appended(rows)  # (read-only: refused there, in one line)
            return
        pooled = self.engine.raw_connection()
        driver: Any = pooled.dbapi_connection
        try:
            with self._pooled_cursor(pooled, self._append_sql, pooled.invalidate, many=len(rows) > 1) as cursor:
                if len(rows) == 1:
                    cursor.execute(self._append_sql, rows[0])
                    return
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    cursor.executemany(self._append_sql, rows)
                    cursor.execute("COMMIT")
                except BaseException:
                    if driver.in_transaction:
                        cursor.execute("ROLLBACK")
                    raise
        finally:
            pooled.close()

    def _busy(self, exc: OperationalError) -> bool:
        return "locked" in str(exc.orig).lower()

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        """Keep snapshots, unless the journal is read-only: a cache nobody may write is simply not kept."""
        if not self.read_only:
            super().save_snapshots(snapshots)

    def save_state_rows(self, snapshot: Snapshot, pieces: Mapping[str, str], refs: Collection[str]) -> None:
        if not self.read_only:
            super().save_state_rows(snapshot, pieces, refs)


def _writable(path: Path) -> bool:
    """Whether this user may write the journal: the file, and its directory (where SQLite keeps the
    write-ahead log beside it)."""
    return os.access(path, os.W_OK) and os.access(path.parent or Path("."), os.W_OK)


def _read_only_url(path: Path) -> str:
    """A URL opening ``path`` read-only. In a directory the user cannot write, SQLite cannot make the
    shared-memory file a WAL reader needs, so the file is opened ``immutable`` (no locking: nobody
    with the rights this user lacks should be writing it meanwhile), unless a write-ahead log with
    content lies beside it, which only a locking reader reads."""
    wal = path.with_name(path.name + "-wal")
    immutable = not os.access(path.parent or Path("."), os.W_OK) and not (wal.exists() and wal.stat().st_size)
    return f"sqlite:///file:{quote(str(path))}?mode=ro{'&immutable=1' if immutable else ''}&uri=true"


def _make_transactions_explicit(engine: Engine, *, wal: bool = True) -> None:
    """Let SQLAlchemy, not pysqlite, emit BEGIN, so writers can use BEGIN IMMEDIATE.

    Recipe from the SQLAlchemy SQLite dialect docs ("Serializable isolation / Savepoints").
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        dbapi_connection.create_function(HASH_FUNCTION, len(HASH_ARGUMENTS), _row_hash, deterministic=True)
        if wal:  # a read-only connection may not change the journal mode (a journal is made in WAL)
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("begin_immediate") else "BEGIN")
