"""The events table on SQLModel, and the store code SQLite and PostgreSQL share.

The database itself refuses UPDATE and DELETE of events and any insert that would leave a gap
in a campaign's sequence or break its hash chain (each backend's triggers, declared in its own
module), so history stays immutable even for someone who bypasses this code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import ClassVar

from sqlalchemy import Connection, Table, UniqueConstraint, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Field, SQLModel

from yarnlog.core.chain import GENESIS, seal
from yarnlog.core.envelope import STORED_FIELDS, NewEvent, StoredEvent
from yarnlog.persistence.protocol import ConcurrencyConflict, StoreError, one_campaign


class EventRecord(SQLModel, table=True):
    """The row mapping of :class:`~yarnlog.core.envelope.StoredEvent`. Rows are only ever inserted.

    ``position`` is the database's own insertion order; the envelope does not carry it.
    """

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


#: The events table (sqlmodel builds it as ``EventRecord.__table__``, an attribute its types do not declare).
EVENTS: Table = SQLModel.metadata.tables[EventRecord.__tablename__]
#: The envelope's fields as columns, in the envelope's order (a missing column fails at import).
COLUMNS = tuple(EVENTS.c[name] for name in STORED_FIELDS)


class SqlStore:
    """The events table of one database; subclasses give the engine and the guarding triggers."""

    TRIGGERS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, engine: Engine, *, create: bool = True):
        self.engine = engine
        if create:
            self.create_schema()

    def create_schema(self) -> None:
        """Create the events table and its guards (idempotent)."""
        try:
            with self._writing() as conn:
                SQLModel.metadata.create_all(conn, tables=[EVENTS])
                for statement in self.TRIGGERS:
                    conn.execute(text(statement))
        except OperationalError as exc:
            raise StoreError(f"cannot open the journal database: {exc.orig}") from None

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction."""
        with self.engine.begin() as conn:
            yield conn

    def _busy(self, exc: OperationalError) -> bool:
        """Whether the database turned the write away because another writer holds it."""
        return False

    # -- reading --------------------------------------------------------------------------

    def campaigns(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.scalars(select(EVENTS.c.campaign_id).distinct().order_by(EVENTS.c.campaign_id)))

    def last_sequence(self, campaign_id: str) -> int:
        with self.engine.connect() as conn:
            return _last_sequence(conn, campaign_id)

    def read(self, campaign_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        query = select(*COLUMNS).where(EVENTS.c.campaign_id == campaign_id, EVENTS.c.sequence > after)
        if upto is not None:
            query = query.where(EVENTS.c.sequence <= upto)
        with self.engine.connect() as conn:
            return [StoredEvent(*row) for row in conn.execute(query.order_by(EVENTS.c.sequence))]

    # -- writing --------------------------------------------------------------------------

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent]) -> list[StoredEvent]:
        records: list[StoredEvent] = []
        try:
            with self._writing() as conn:
                row = conn.execute(
                    select(EVENTS.c.sequence, EVENTS.c.hash)
                    .where(EVENTS.c.campaign_id == campaign_id)
                    .order_by(EVENTS.c.sequence.desc())
                    .limit(1)
                ).first()
                last, prev_hash = (row[0], row[1]) if row else (0, GENESIS)
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                for sequence, new in enumerate(events, start=last + 1):
                    record = seal(campaign_id, sequence, new, prev_hash)
                    prev_hash = record.hash
                    records.append(record)
                if records:
                    conn.execute(EVENTS.insert(), [_row(r) for r in records])
        except IntegrityError:
            # Lost the race on the (campaign, sequence) key or the chain trigger.
            raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
        except OperationalError as exc:
            if self._busy(exc):
                raise ConcurrencyConflict(campaign_id, expected_sequence, None) from None
            raise StoreError(f"the journal database refused the write: {exc.orig}") from None
        except DBAPIError as exc:
            raise StoreError(f"the journal database refused the write: {exc.orig}") from None
        return records

    def append_verbatim(self, records: Sequence[StoredEvent], expected_sequence: int) -> None:
        if not records:
            return
        campaign_id = one_campaign(records)
        try:
            with self._writing() as conn:
                last = _last_sequence(conn, campaign_id)
                if last != expected_sequence:
                    raise ConcurrencyConflict(campaign_id, expected_sequence, last)
                conn.execute(EVENTS.insert(), [_row(r) for r in records])
        except (IntegrityError, OperationalError) as exc:
            # The chain trigger (or the unique keys) refused a record: nothing was written.
            reason = str(exc.orig).strip().splitlines()[0]
            raise StoreError(f"the journal refused the import: {reason}") from None

    def close(self) -> None:
        self.engine.dispose()


def _last_sequence(conn: Connection, campaign_id: str) -> int:
    return conn.execute(
        select(func.coalesce(func.max(EVENTS.c.sequence), 0)).where(EVENTS.c.campaign_id == campaign_id)
    ).scalar_one()


def _row(record: StoredEvent) -> dict:
    return {name: getattr(record, name) for name in STORED_FIELDS}
