"""The events table on SQLModel, and the event recorder SQLite and PostgreSQL share.

The database itself refuses UPDATE and DELETE of events and any insert that would leave a gap
in a campaign's sequence or break its hash chain (each backend's triggers, declared in its own
module), so history stays immutable even for someone who bypasses this code.

Each row may also carry the id of the command that appended it (``command_id``, on every event
the command recorded, and ``command_digest`` on its first): a unique index per campaign makes a
command id record once. They are delivery data beside the envelope, not part of it: not hashed,
not exported (see :mod:`yarnlog.app.command_ids`). A journal made before them gets the two
columns and the index at its first append (:meth:`SqlStore.upgrade_schema`).

Beside it, the ``snapshots`` table keeps disposable caches of folded state and views
(:mod:`yarnlog.persistence.sql_snapshots`): a :class:`SqlStore` is both recorders on one engine.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from itertools import starmap
from operator import attrgetter
from typing import Any, ClassVar

from sqlalchemy import Connection, Table, UniqueConstraint, func, inspect, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Field, SQLModel

from yarnlog.core.chain import GENESIS, event_hash, seal
from yarnlog.core.envelope import STORED_FIELDS, NewEvent, StoredEvent
from yarnlog.persistence.protocol import (
    CommandKey,
    ConcurrencyConflict,
    DamagedJournal,
    RecordedCommand,
    RefusedRecords,
    StoreError,
    one_campaign,
)
from yarnlog.persistence.sql_snapshots import CACHE_TABLES, SqlSnapshotRecorder

#: How long opening a journal waits, at most, for another process creating its tables.
SCHEMA_WAIT = 30.0

#: The index that lets a command id record once per campaign (on the first event of each command).
COMMAND_INDEX = "events_command"
COMMAND_INDEX_SQL = (f"CREATE UNIQUE INDEX IF NOT EXISTS {COMMAND_INDEX} ON events (campaign_id, command_id) "
                     "WHERE command_digest IS NOT NULL")


class EventRecord(SQLModel, table=True):
    """The row mapping of :class:`~yarnlog.core.envelope.StoredEvent`. Rows are only ever inserted.

    ``position`` is the database's own insertion order; ``command_id`` and ``command_digest`` say
    which command appended the row (see the module's docstring). The envelope carries none of them.
    """

    __tablename__ = "events"
    # The command index is partial, so it is created by ``COMMAND_INDEX_SQL`` (the same statement on
    # both backends), not declared here: a ``postgresql_where`` would import SQLAlchemy's PostgreSQL
    # dialect into every process, SQLite's too, at a one-shot command's start.
    __table_args__ = (UniqueConstraint("campaign_id", "sequence", name="events_campaign_sequence"),)

    position: int | None = Field(default=None, primary_key=True)
    campaign_id: str = Field(index=True, max_length=64)
    sequence: int
    event_id: str = Field(unique=True, max_length=36)
    event_type: str = Field(index=True, max_length=80)
    schema_version: int
    recorded_at: str
    recorded_by: str
    visibility: str
    payload: str
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    command_id: str | None = Field(default=None, max_length=64)
    command_digest: str | None = Field(default=None, max_length=64)


#: The events table (sqlmodel builds it as ``EventRecord.__table__``, an attribute its types do not declare).
EVENTS: Table = SQLModel.metadata.tables[EventRecord.__tablename__]
#: The envelope's fields as columns, in the envelope's order (a missing column fails at import).
COLUMNS = tuple(EVENTS.c[name] for name in STORED_FIELDS)
#: The columns beside the envelope that say which command appended a row.
COMMAND_COLUMNS = ("command_id", "command_digest")


class SqlStore(SqlSnapshotRecorder):
    """The events table of one database; subclasses give the engine and the guarding triggers.

    Reads and writes run prepared statements (their SQL written once per store) on the driver's
    own cursor: rows come back as the driver's tuples, straight into :class:`StoredEvent`, and
    rows go in as tuples, never as ORM objects or per-row dictionaries. Driver errors are turned
    into SQLAlchemy's exceptions, as SQLAlchemy would raise them, so callers see no difference.

    An append must know the hash it chains to. The store remembers the last ``(sequence, hash)``
    it has seen of each campaign (read or written; history never changes, so that pair stays
    true), and when the caller's expected sequence is that one it inserts at once, without a
    SELECT first: the database's chain trigger refuses the insert if the campaign has moved on
    (or the remembered hash were wrong), and only then does the store read the head to report
    the :class:`ConcurrencyConflict`. What is written never depends on the memory being right.
    A head is remembered only once its own hash has been worked out again from its fields, and
    an append that reads the head checks it the same way (and its link to the event before):
    nothing is chained onto an event that does not match its hash (:class:`DamagedJournal`).
    """

    TRIGGERS: ClassVar[tuple[str, ...]] = ()
    #: The names of the triggers that guard the events table (:meth:`missing_guards`).
    GUARDS: ClassVar[tuple[str, ...]] = ()
    #: The names of the events table's enabled triggers (parameter: the table's name).
    ENABLED_TRIGGERS_SQL: ClassVar[str] = ""

    def __init__(self, engine: Engine, *, create: bool = True):
        self.engine = engine
        dialect = engine.dialect
        self._dbapi_error: Any = dialect.loaded_dbapi.Error
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        quote = dialect.identifier_preparer.quote
        table = quote(EVENTS.name)
        columns = ", ".join(quote(name) for name in STORED_FIELDS)
        campaign, sequence = quote("campaign_id"), quote("sequence")
        self._insert_sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join([mark] * len(STORED_FIELDS))})"
        command_columns = ", ".join(quote(name) for name in COMMAND_COLUMNS)
        # An append's row: the envelope and the command columns (``_append_row`` is one row's values).
        self._append_into = f"INSERT INTO {table} ({columns}, {command_columns})"
        self._append_row = f"({', '.join([mark] * (len(STORED_FIELDS) + len(COMMAND_COLUMNS)))})"
        self._append_sql = f"{self._append_into} VALUES {self._append_row}"
        self._command_sql = (f"SELECT {sequence}, {quote('command_digest')} FROM {table} WHERE {campaign} = {mark} "
                             f"AND {quote('command_id')} = {mark} AND {quote('command_digest')} IS NOT NULL")
        self._command_events_sql = (f"SELECT {columns}, {quote('command_id')} FROM {table} WHERE {campaign} = {mark} "
                                    f"AND {sequence} >= {mark} ORDER BY {sequence} LIMIT {mark}")
        self._mark = mark
        self._select_sql = f"SELECT {columns} FROM {table} WHERE {campaign} = {mark} AND {sequence} > {mark}"
        self._order_sql = f" ORDER BY {sequence}"
        self._upto_sql = f" AND {sequence} <= {mark}"
        self._type_column = quote("event_type")
        self._read_sql = (f"SELECT {columns} FROM {table} WHERE {campaign} = {mark} AND {sequence} > {mark} "
                          f"ORDER BY {sequence}")
        self._read_upto_sql = (f"SELECT {columns} FROM {table} WHERE {campaign} = {mark} AND {sequence} > {mark} "
                               f"AND {sequence} <= {mark} ORDER BY {sequence}")
        self._head_sql = (f"SELECT {sequence}, {quote('hash')} FROM {table} WHERE {campaign} = {mark} "
                          f"ORDER BY {sequence} DESC LIMIT 1")
        # The head and the event before it, whole: an append checks them before chaining onto them.
        self._head_pair_sql = (f"SELECT {columns} FROM {table} WHERE {campaign} = {mark} "
                               f"ORDER BY {sequence} DESC LIMIT 2")
        self._hash_sql = (f"SELECT {quote('hash')} FROM {table} WHERE {campaign} = {mark} "
                          f"AND {sequence} = {mark}")
        # The last (sequence, hash) seen of each campaign: lets an append skip reading the head.
        self._heads: dict[str, tuple[int, str]] = {}
        # The thread's turn (see :meth:`turn`): its connection, and the heads it wrote, to remember once committed.
        self._turn = threading.local()
        if create:
            self.create_schema()

    def create_schema(self) -> None:
        """Create the events table and its guards, and the snapshots table (idempotent); bring a
        journal made by an earlier version up to date. Processes opening a new file at once may find
        it busy beyond the driver's wait (SQLite's switch to WAL is not always waited for): the
        creation, idempotent, is tried again for up to :data:`SCHEMA_WAIT` seconds."""
        deadline = time.monotonic() + SCHEMA_WAIT
        pause = 0.02
        while True:
            try:
                with self._writing() as conn:
                    self._lock_schema(conn)
                    SQLModel.metadata.create_all(conn, tables=[EVENTS, *CACHE_TABLES])
                    self._upgrade(conn)
                    for statement in self._guards(conn):
                        conn.execute(text(statement))
                return
            except OperationalError as exc:
                if not self._busy(exc) or time.monotonic() + pause > deadline:
                    raise StoreError(f"cannot open the journal database: {exc.orig}") from None
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _lock_schema(self, conn: Connection) -> None:
        """Hold other processes' schema creation until ``conn``'s transaction ends (a backend whose
        write transaction already excludes every other writer has nothing more to do)."""

    def _guards(self, conn: Connection) -> tuple[str, ...]:
        """The statements that create the events table's guarding triggers (idempotent)."""
        return self.TRIGGERS

    def upgrade_schema(self) -> bool:
        """Add what an events table made by an earlier version lacks (the command columns and their
        index; no row is touched); whether anything was added."""
        with self._writing() as conn:
            return self._upgrade(conn)

    def _upgrade(self, conn: Connection) -> bool:
        present = {column["name"] for column in inspect(conn).get_columns(EVENTS.name)}
        missing = [name for name in COMMAND_COLUMNS if name not in present]
        for name in missing:
            conn.execute(text(f"ALTER TABLE {EVENTS.name} ADD COLUMN {name} VARCHAR(64)"))
        conn.execute(text(COMMAND_INDEX_SQL))
        return bool(missing)

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        """A connection to read on: the turn's, inside :meth:`turn`, else one from the pool."""
        held = getattr(self._turn, "conn", None)
        if held is not None:
            yield held
            return
        with self.engine.connect() as conn:
            yield conn

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction: the turn's, inside :meth:`turn` (committed when the turn ends)."""
        held = getattr(self._turn, "conn", None)
        if held is not None:
            yield held
            return
        with self._transaction() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A new write transaction, committed when the block ends."""
        with self.engine.begin() as conn:
            yield conn

    def _lock_campaign(self, conn: Connection, campaign_id: str) -> None:
        """Hold the campaign's writes in ``conn``'s transaction (a backend whose write transaction
        already excludes every other writer has nothing more to do)."""

    @contextmanager
    def turn(self, campaign_id: str) -> Iterator[None]:
        held = getattr(self._turn, "conn", None)
        if held is not None:
            yield  # already this thread's turn
            return
        self._turn.remembered = []
        try:
            with self._transaction() as conn:
                self._lock_campaign(conn, campaign_id)
                self._turn.conn = conn
                try:
                    yield
                finally:
                    self._turn.conn = None
        except DBAPIError as exc:  # the lock not granted in time, or the commit refused
            raise self._refused(exc, campaign_id, None) from None
        # Committed: only now are the heads written in the turn true of the database.
        for campaign, last in self._turn.remembered:
            self._remember(campaign, last, sealed_here=True)
        self._turn.remembered = []

    def _busy(self, exc: OperationalError) -> bool:
        """Whether the database turned the write away because another writer holds it."""
        return False

    def _streaming_cursor(self, dbapi_connection: Any) -> Any:
        """A driver cursor whose ``fetchmany`` fetches rows as asked, not the whole result at once.

        SQLite's cursor already steps its statement row by row; PostgreSQL names a server-side one.
        """
        return dbapi_connection.cursor()

    @contextmanager
    def _driver(self, conn: Connection, sql: str, *, many: bool = False, streaming: bool = False) -> Iterator[Any]:
        """The driver's own cursor on ``conn``, to run ``sql`` (prepared: the same text every time).

        A driver error is raised as SQLAlchemy's wrapper of it (``IntegrityError``,
        ``OperationalError``...), exactly what running the statement through SQLAlchemy raises.
        """
        with self._pooled_cursor(conn.connection, sql, conn.invalidate, many=many, streaming=streaming) as cursor:
            yield cursor

    @contextmanager
    def _pooled_cursor(self, pooled: Any, sql: str, invalidate: Callable[[BaseException], None], *,
                       many: bool = False, streaming: bool = False) -> Iterator[Any]:
        """:meth:`_driver` on a pooled DB-API connection (``invalidate`` discards it when the error
        says it is dead)."""
        cursor = self._streaming_cursor(pooled.dbapi_connection) if streaming else pooled.cursor()
        try:
            yield cursor
        except self._dbapi_error as exc:
            invalidated = self.engine.dialect.is_disconnect(exc, pooled.dbapi_connection, cursor)
            if invalidated:
                invalidate(exc)
            raise DBAPIError.instance(sql, None, exc, self._dbapi_error, connection_invalidated=invalidated,
                                      dialect=self.engine.dialect, ismulti=many) from exc
        finally:
            cursor.close()

    def _run(self, conn: Connection, sql: str, params: Sequence[Any], *, many: bool = False) -> Sequence[Any]:
        """Run prepared ``sql`` on the driver's cursor: the rows as the driver's tuples (none for ``many``)."""
        with self._driver(conn, sql, many=many) as cursor:
            if many:
                if len(params) == 1:
                    # One row (a single durable append, the usual case): a plain execute. psycopg's
                    # executemany runs a pipeline, a few more exchanges with the server than one row needs.
                    cursor.execute(sql, params[0])
                else:
                    cursor.executemany(sql, params)
                return []
            cursor.execute(sql, params)
            return cursor.fetchall()

    def _remember(self, campaign_id: str, last: StoredEvent, *, sealed_here: bool = False) -> None:
        """Note the last event seen of a campaign (a later one replaces an earlier one). One read from
        the database is remembered only if it matches its own hash (one hash worked out again)."""
        if sealed_here and getattr(self._turn, "conn", None) is not None:
            self._turn.remembered.append((campaign_id, last))  # true once the turn commits
            return
        known = self._heads.get(campaign_id)
        if (known is None or known[0] < last.sequence) and (sealed_here or _damage(last) is None):
            self._heads[campaign_id] = (last.sequence, last.hash)

    def _known_head(self, campaign_id: str, sequence: int) -> str | None:
        """The hash of the campaign's event ``sequence`` if known without asking the database."""
        if sequence == 0:
            return GENESIS
        known = self._heads.get(campaign_id)
        return known[1] if known is not None and known[0] == sequence else None

    # -- reading --------------------------------------------------------------------------

    def campaigns(self) -> list[str]:
        with self._connection() as conn:
            return list(conn.scalars(select(EVENTS.c.campaign_id).distinct().order_by(EVENTS.c.campaign_id)))

    def last_sequence(self, campaign_id: str) -> int:
        with self._connection() as conn:
            return _last_sequence(conn, campaign_id)

    def read(self, campaign_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        with self._connection() as conn:
            if upto is None:
                rows = self._run(conn, self._read_sql, (campaign_id, after))
            else:
                rows = self._run(conn, self._read_upto_sql, (campaign_id, after, upto))
        records = list(starmap(StoredEvent, rows))
        if records:
            self._remember(campaign_id, records[-1])
        return records

    def head(self, campaign_id: str) -> tuple[int, str] | None:
        with self._connection() as conn:
            rows = self._run(conn, self._head_sql, (campaign_id,))
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    def event_hash(self, campaign_id: str, sequence: int) -> str | None:
        with self._connection() as conn:
            rows = self._run(conn, self._hash_sql, (campaign_id, sequence))
        return str(rows[0][0]) if rows else None

    def recorded_command(self, campaign_id: str, command_id: str) -> RecordedCommand | None:
        try:
            with self._connection() as conn:
                found = self._run(conn, self._command_sql, (campaign_id, command_id))
                if not found:
                    return None
                first, digest = int(found[0][0]), str(found[0][1])
                rows = self._run(conn, self._command_events_sql, (campaign_id, first, MAX_COMMAND_EVENTS))
        except DBAPIError:
            if not self._lacks_command_columns():
                raise
            return None  # a journal made before command ids: no command recorded one
        events = []
        for row in rows:  # the command's events are the run from its first that carry its id
            if row[-1] != command_id:
                break
            events.append(StoredEvent(*row[:-1]))
        return RecordedCommand(digest, events)

    def _lacks_command_columns(self) -> bool:
        """Whether the events table is one made before command ids (False if that cannot be told)."""
        try:
            with self._connection() as conn:
                present = {c["name"] for c in inspect(conn).get_columns(EVENTS.name)}
        except DBAPIError:
            return False
        return bool(present) and not present >= set(COMMAND_COLUMNS)

    def iter_read(self, campaign_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000,
                  event_types: Collection[str] | None = None) -> Iterator[StoredEvent]:
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        sql, params = self._select_sql, [campaign_id, after]
        if upto is not None:
            sql += self._upto_sql
            params.append(upto)
        if event_types is not None:
            types = sorted(event_types)
            if not types:
                return
            sql += f" AND {self._type_column} IN ({', '.join([self._mark] * len(types))})"
            params.extend(types)
        sql += self._order_sql
        last: StoredEvent | None = None
        # One statement, so one consistent view of the journal however long the caller takes.
        with self._connection() as conn, self._driver(conn, sql, streaming=True) as cursor:
            cursor.execute(sql, params)
            while rows := cursor.fetchmany(batch):
                for last in starmap(StoredEvent, rows):
                    yield last
        if last is not None:
            self._remember(campaign_id, last)

    # -- writing --------------------------------------------------------------------------

    def _refused(self, exc: DBAPIError, campaign_id: str, expected_sequence: int | None) -> StoreError:
        """A write the database turned away: another writer holding it (a conflict, to re-read and
        retry) or a fault to report."""
        if isinstance(exc, OperationalError) and self._busy(exc):
            return ConcurrencyConflict(campaign_id, expected_sequence, None)
        return StoreError(f"the journal database refused the write: {exc.orig}")

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent], *,
               command: CommandKey | None = None) -> list[StoredEvent]:
        try:
            return self._append(campaign_id, expected_sequence, events, command)
        except StoreError as exc:
            # A journal made before command ids lacks their columns: add them (no row is touched), once
            # (by a writer outside a turn: a refused statement has ended the turn's transaction).
            if isinstance(exc, (ConcurrencyConflict, DamagedJournal)) or getattr(self._turn, "conn", None) is not None \
                    or not self._lacks_command_columns():
                raise
        try:
            self.upgrade_schema()
        except DBAPIError as exc:
            raise self._refused(exc, campaign_id, expected_sequence) from None
        return self._append(campaign_id, expected_sequence, events, command)

    def _append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent],
                command: CommandKey | None) -> list[StoredEvent]:
        prev_hash = self._known_head(campaign_id, expected_sequence)
        if events and prev_hash is not None:
            records = _sealed(campaign_id, expected_sequence, events, prev_hash)
            try:
                self._insert_appended(_rows(records, command))
            except IntegrityError:
                if getattr(self._turn, "conn", None) is not None:  # a refused statement ends a PostgreSQL transaction
                    raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
                # the campaign moved on (or an id is reused): read the head, as below, to say which
            except DBAPIError as exc:
                raise self._refused(exc, campaign_id, expected_sequence) from None
            else:
                self._remember(campaign_id, records[-1], sealed_here=True)
                return records
        records = []
        try:
            with self._writing() as conn:
                pair = [StoredEvent(*row) for row in self._run(conn, self._head_pair_sql, (campaign_id,))]
                _check_head(campaign_id, pair)
                last, prev_hash = (pair[0].sequence, pair[0].hash) if pair else (0, GENESIS)
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                records = _sealed(campaign_id, last, events, prev_hash)
                if records:
                    self._run(conn, self._append_sql, _rows(records, command), many=True)
        except IntegrityError:
            # Lost the race on the (campaign, sequence) key or the chain trigger, or the command's id
            # was recorded meanwhile: the caller re-reads, and finds which.
            raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
        except DBAPIError as exc:
            raise self._refused(exc, campaign_id, expected_sequence) from None
        if records:
            self._remember(campaign_id, records[-1], sealed_here=True)
        return records

    def _insert_appended(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Insert an append's rows (:func:`_rows`) atomically: in the turn's transaction inside a turn,
        else in a transaction of their own (a backend may do it in fewer exchanges with the server)."""
        with self._writing() as conn:
            self._run(conn, self._append_sql, rows, many=True)

    def append_verbatim(self, records: Sequence[StoredEvent], expected_sequence: int) -> None:
        if not records:
            return
        campaign_id = one_campaign(records)
        try:
            with self._writing() as conn:
                last = _last_sequence(conn, campaign_id)
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                self._insert_all(conn, records)
        except (IntegrityError, OperationalError) as exc:
            # The chain trigger (or the unique keys) refused a record: nothing was written.
            reason = str(exc.orig).strip().splitlines()[0]
            if isinstance(exc, IntegrityError) and "event_id" in reason:
                raise RefusedRecords("the journal refused the import: an event id of the file is already "
                                     "recorded (each event id is the journal's once); nothing imported") from None
            raise StoreError(f"the journal refused the import: {reason}") from None
        self._remember(campaign_id, records[-1])

    def _insert_all(self, conn: Connection, records: Sequence[StoredEvent]) -> None:
        """Insert many checked records in the caller's transaction (a backend may do it faster)."""
        self._run(conn, self._insert_sql, [astuple(r) for r in records], many=True)

    def missing_guards(self) -> list[str]:
        with self._connection() as conn:
            present = set(conn.execute(text(self.ENABLED_TRIGGERS_SQL), {"table": EVENTS.name}).scalars())
        return [name for name in self.GUARDS if name not in present]

    def close(self) -> None:
        self.engine.dispose()


def _sealed(campaign_id: str, last: int, events: Sequence[NewEvent], prev_hash: str) -> list[StoredEvent]:
    """``events`` chained after event ``last`` whose hash is ``prev_hash``."""
    records = []
    for sequence, new in enumerate(events, start=last + 1):
        record = seal(campaign_id, sequence, new, prev_hash)
        prev_hash = record.hash
        records.append(record)
    return records


#: The most events one command is expected to record: a lookup of its events reads at most these rows.
MAX_COMMAND_EVENTS = 10_000


def _rows(records: Sequence[StoredEvent], command: CommandKey | None) -> list[tuple[Any, ...]]:
    """The rows to insert for ``records``: the command's id on each, its digest on the first."""
    if command is None:
        return [(*astuple(r), None, None) for r in records]
    return [(*astuple(r), command.id, command.digest if i == 0 else None) for i, r in enumerate(records)]


def _damage(record: StoredEvent) -> str | None:
    """Why ``record`` does not match its own hash, or None when it does."""
    try:
        payload = json.loads(record.payload)
    except ValueError:
        return "its payload is not JSON"
    if event_hash(record.header(), payload, record.prev_hash) != record.hash:
        return "its fields do not match its hash"
    return None


def _check_head(campaign_id: str, pair: Sequence[StoredEvent]) -> None:
    """Refuse to chain onto a head (``pair[0]``; ``pair[1]`` the event before) that is not sound."""
    if not pair:
        return
    head = pair[0]
    follows = (pair[1].sequence + 1, pair[1].hash) if len(pair) > 1 else (1, GENESIS)
    why = _damage(head)
    if why is None and (head.sequence, head.prev_hash) != follows:
        why = "it does not follow the event before it"
    if why is not None:
        raise DamagedJournal(campaign_id, head.sequence, why)


def _last_sequence(conn: Connection, campaign_id: str) -> int:
    return conn.execute(
        select(func.coalesce(func.max(EVENTS.c.sequence), 0)).where(EVENTS.c.campaign_id == campaign_id)
    ).scalar_one()


#: A record's fields in column order (``dataclasses.astuple`` would deep-copy each value).
astuple: Callable[[StoredEvent], tuple[Any, ...]] = attrgetter(*STORED_FIELDS)
