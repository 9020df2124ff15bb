"""Append-only storage of events on SQLModel: SQLite by default, PostgreSQL by URL.

The database itself refuses UPDATE and DELETE of events and any insert that would leave a gap
in a campaign's sequence or break its hash chain (triggers on both backends), so history stays
immutable even for someone who bypasses this code. Appends use optimistic concurrency: the
writer states the sequence it last saw, and a writer that lost the race gets
:class:`ConcurrencyConflict` and can re-read and retry.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import UniqueConstraint, event, func, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Field, Session, SQLModel, create_engine, select

from yarnlog.core.chain import GENESIS, canonical, event_hash
from yarnlog.core.referee import YarnlogError

DEFAULT_DB = Path("journals") / "yarnlog.db"


class StoreError(YarnlogError):
    exit_code = 4


class ConcurrencyConflict(StoreError):
    """Another writer appended to the campaign since the caller read it."""

    exit_code = 5

    def __init__(self, campaign_id: str, expected: int, actual: int | None):
        self.campaign_id = campaign_id
        self.expected = expected
        self.actual = actual
        now = "unknown" if actual is None else str(actual)
        super().__init__(
            f"campaign {campaign_id!r} changed while you were writing "
            f"(expected to follow event {expected}, the journal is at {now}); re-read and retry"
        )


class EventRecord(SQLModel, table=True):
    """One stored event. Rows are only ever inserted."""

    __tablename__ = "events"
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

    def envelope(self) -> dict:
        """The stored event as plain data, in the export's shape."""
        return {
            "campaign_id": self.campaign_id,
            "sequence": self.sequence,
            "event_id": self.event_id,
            "event_type": self.event_type,
            "schema_version": self.schema_version,
            "recorded_at": self.recorded_at,
            "recorded_by": self.recorded_by,
            "visibility": self.visibility,
            "payload": json.loads(self.payload),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@dataclass(frozen=True)
class NewEvent:
    """An event to append: everything but its place in the chain.

    ``event_id`` and ``recorded_at`` are set by the caller (the journal service mints them, an
    import carries them), so the same input always produces the same stored bytes.
    """

    event_id: str
    event_type: str
    schema_version: int
    recorded_at: str
    recorded_by: str
    visibility: str
    payload: dict


_SQLITE_TRIGGERS = [
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
]

_POSTGRES_TRIGGERS = [
    """CREATE OR REPLACE FUNCTION yarnlog_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'yarnlog events are append-only: % refused', TG_OP; END $$""",
    """CREATE OR REPLACE TRIGGER events_refuse_change BEFORE UPDATE OR DELETE ON events
       FOR EACH ROW EXECUTE FUNCTION yarnlog_refuse_change()""",
    """CREATE OR REPLACE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
       FOR EACH STATEMENT EXECUTE FUNCTION yarnlog_refuse_change()""",
    f"""CREATE OR REPLACE FUNCTION yarnlog_check_chain() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE last_sequence integer; last_hash text;
       BEGIN
         SELECT sequence, hash INTO last_sequence, last_hash FROM events
          WHERE campaign_id = NEW.campaign_id ORDER BY sequence DESC LIMIT 1;
         IF NEW.sequence <> COALESCE(last_sequence, 0) + 1
            OR NEW.prev_hash <> COALESCE(last_hash, '{GENESIS}') THEN
           RAISE EXCEPTION 'yarnlog events must extend the chain: sequence gap or wrong prev_hash'
             USING ERRCODE = 'unique_violation';
         END IF;
         RETURN NEW;
       END $$""",
    """CREATE OR REPLACE TRIGGER events_chain_on_insert BEFORE INSERT ON events
       FOR EACH ROW EXECUTE FUNCTION yarnlog_check_chain()""",
]


def database_url(db: str | os.PathLike | None = None) -> str:
    """Turn ``--db`` / ``YARNLOG_DB`` (a path or a SQLAlchemy URL) into a URL."""
    value = str(db) if db else os.environ.get("YARNLOG_DB") or str(DEFAULT_DB)
    if "://" in value:
        if value.startswith("postgresql://") or value.startswith("postgres://"):
            # psycopg 3 is the driver we ship; plain postgresql:// would ask for psycopg2.
            value = "postgresql+psycopg://" + value.split("://", 1)[1]
        return value
    return f"sqlite:///{value}"


class EventStore:
    """The events table of one database, which may hold many campaigns."""

    def __init__(self, url: str, *, create: bool = True):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url.removeprefix("sqlite:///")
            if path and path != ":memory:":
                if not create and not Path(path).exists():
                    raise StoreError(f"no journal database at {path} (create one with 'yarnlog init')")
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(url, connect_args={"timeout": 30})
            _make_sqlite_transactions_explicit(self.engine)
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
        if create:
            self.create_schema()

    def create_schema(self) -> None:
        """Create the events table and its guards (idempotent)."""
        try:
            with self._writing() as conn:
                SQLModel.metadata.create_all(conn, tables=[EventRecord.__table__])
                for statement in _SQLITE_TRIGGERS if self.is_sqlite else _POSTGRES_TRIGGERS:
                    conn.execute(text(statement))
        except OperationalError as exc:
            raise StoreError(f"cannot open the journal database: {exc.orig}") from None

    @contextmanager
    def _writing(self) -> Iterator:
        """A write transaction; on SQLite it takes the write lock at BEGIN (no upgrade deadlocks)."""
        with self.engine.connect() as conn:
            conn.info["begin_immediate"] = True
            try:
                with conn.begin():
                    yield conn
            finally:
                conn.info.pop("begin_immediate", None)

    def session(self) -> Session:
        return Session(self.engine)

    # -- reading ------------------------------------------------------------------------

    def campaigns(self) -> list[str]:
        with self.session() as s:
            return list(s.exec(select(EventRecord.campaign_id).distinct().order_by(EventRecord.campaign_id)))

    def last_sequence(self, campaign_id: str) -> int:
        with self.session() as s:
            return s.exec(select(func.coalesce(func.max(EventRecord.sequence), 0)).where(
                EventRecord.campaign_id == campaign_id)).one()

    def read(self, campaign_id: str, *, after: int = 0, upto: int | None = None) -> list[EventRecord]:
        """The campaign's events in sequence order, optionally a window of it."""
        query = select(EventRecord).where(EventRecord.campaign_id == campaign_id, EventRecord.sequence > after)
        if upto is not None:
            query = query.where(EventRecord.sequence <= upto)
        with self.session() as s:
            return list(s.exec(query.order_by(EventRecord.sequence)))

    # -- writing ------------------------------------------------------------------------

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent]) -> list[EventRecord]:
        """Append ``events`` after ``expected_sequence``, all or nothing.

        Raises :class:`ConcurrencyConflict` if the campaign is no longer at ``expected_sequence``.
        """
        records: list[EventRecord] = []
        try:
            with self._writing() as conn:
                row = conn.execute(
                    select(EventRecord.sequence, EventRecord.hash)
                    .where(EventRecord.campaign_id == campaign_id)
                    .order_by(EventRecord.sequence.desc())
                    .limit(1)
                ).first()
                last, prev_hash = (row[0], row[1]) if row else (0, GENESIS)
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                for offset, new in enumerate(events, start=1):
                    record = _record(campaign_id, last + offset, new, prev_hash)
                    prev_hash = record.hash
                    records.append(record)
                if records:
                    conn.execute(EventRecord.__table__.insert(), [_row(r) for r in records])
        except IntegrityError:
            # Lost the race on the (campaign, sequence) key or the chain trigger.
            raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
        except OperationalError as exc:
            if "locked" in str(exc.orig).lower():
                raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
            raise StoreError(f"the journal database refused the write: {exc.orig}") from None
        except DBAPIError as exc:
            raise StoreError(f"the journal database refused the write: {exc.orig}") from None
        return records

    def append_verbatim(self, records: Sequence[EventRecord], expected_sequence: int) -> None:
        """Insert already-chained records (an import), after checking they follow the stored chain."""
        if not records:
            return
        campaign_id = records[0].campaign_id
        try:
            with self._writing() as conn:
                last = conn.execute(
                    select(func.coalesce(func.max(EventRecord.sequence), 0)).where(
                        EventRecord.campaign_id == campaign_id)
                ).scalar_one()
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                conn.execute(EventRecord.__table__.insert(), [_row(r) for r in records])
        except IntegrityError as exc:
            raise StoreError(f"the journal database refused the import: {exc.orig}") from None


def _record(campaign_id: str, sequence: int, new: NewEvent, prev_hash: str) -> EventRecord:
    envelope = {
        "campaign_id": campaign_id,
        "sequence": sequence,
        "event_id": new.event_id,
        "event_type": new.event_type,
        "schema_version": new.schema_version,
        "recorded_at": new.recorded_at,
        "recorded_by": new.recorded_by,
        "visibility": new.visibility,
    }
    return EventRecord(
        **envelope,
        payload=canonical(new.payload),
        prev_hash=prev_hash,
        hash=event_hash(envelope, new.payload, prev_hash),
    )


def _row(record: EventRecord) -> dict:
    return record.model_dump(exclude={"position"})


def _make_sqlite_transactions_explicit(engine: Engine) -> None:
    """Let SQLAlchemy, not pysqlite, emit BEGIN, so writers can use BEGIN IMMEDIATE.

    Recipe from the SQLAlchemy SQLite dialect docs ("Serializable isolation / Savepoints").
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("begin_immediate") else "BEGIN")
