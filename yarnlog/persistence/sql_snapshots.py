"""The snapshots table on SQLModel: the caches of folded state and views beside the events.

One row per campaign and kind, replaced when a newer one is written: they are not history, carry
no triggers, and are never trusted over the events (see :class:`~yarnlog.persistence.protocol.Snapshot`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import AbstractContextManager

from sqlalchemy import Connection, Table, Text, literal, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Field, SQLModel

from yarnlog.persistence.protocol import Snapshot, StoreError


class SnapshotRecord(SQLModel, table=True):
    """The row mapping of :class:`~yarnlog.persistence.protocol.Snapshot`: a cache, replaced at will.

    One row per campaign and kind; ``fingerprint`` and ``sequence`` say what it was written under
    and at, ``head_hash`` the hash of event ``sequence`` then (checked before it is used).
    """

    __tablename__ = "snapshots"

    campaign_id: str = Field(primary_key=True, max_length=64)
    kind: str = Field(primary_key=True, max_length=80)
    fingerprint: str = Field(max_length=64)
    sequence: int
    head_hash: str = Field(max_length=64)
    data: str = Field(sa_type=Text)
    saved_at: str


#: The snapshots table (disposable caches beside the events).
SNAPSHOTS: Table = SQLModel.metadata.tables[SnapshotRecord.__tablename__]


class SqlSnapshotRecorder:
    """The :class:`~yarnlog.persistence.protocol.SnapshotRecorder` of a SQL database; the store that
    keeps the events gives the engine and its connections."""

    engine: Engine

    def _connection(self) -> AbstractContextManager[Connection]:
        """A connection to read on."""
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[Connection]:
        """A write transaction."""
        raise NotImplementedError

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self.save_snapshots([snapshot])

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        if not snapshots:
            return
        try:
            self._upsert_snapshots(snapshots)
        except DBAPIError:
            # A journal created before snapshots existed (opened without ``create``): add the
            # table, which touches no event, and try once more.
            try:
                with self._writing() as conn:
                    SQLModel.metadata.create_all(conn, tables=[SNAPSHOTS])
                self._upsert_snapshots(snapshots)
            except DBAPIError as exc:
                raise StoreError(f"cannot keep a snapshot: {str(exc.orig).strip().splitlines()[0]}") from None

    def _upsert_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        # Both dialects spell the upsert alike (INSERT ... ON CONFLICT DO UPDATE), each with its own class.
        from sqlalchemy.dialects import postgresql, sqlite

        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        statement = insert(SNAPSHOTS)
        statement = statement.on_conflict_do_update(
            index_elements=[SNAPSHOTS.c.campaign_id, SNAPSHOTS.c.kind],
            set_={name: statement.excluded[name] for name in Snapshot._fields if name not in ("campaign_id", "kind")},
        )
        with self._writing() as conn:  # one transaction, however many rows
            conn.execute(statement, [s._asdict() for s in snapshots])

    def load_snapshot(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        query = select(*(SNAPSHOTS.c[name] for name in Snapshot._fields)).where(
            SNAPSHOTS.c.campaign_id == campaign_id, SNAPSHOTS.c.kind == kind, SNAPSHOTS.c.fingerprint == fingerprint)
        try:
            with self._connection() as conn:
                row = conn.execute(query).first()
        except DBAPIError:
            return None  # no snapshots table yet (an older journal opened read-only): nothing cached
        return Snapshot(*row) if row is not None else None

    def load_snapshots(self, campaign_id: str, kinds: Collection[str], fingerprint: str) -> list[Snapshot]:
        return self.load_each(campaign_id, dict.fromkeys(kinds, fingerprint))

    def load_each(self, campaign_id: str, wanted: Mapping[str, str]) -> list[Snapshot]:
        kinds, found = sorted(wanted), list[Snapshot]()
        try:
            with self._connection() as conn:
                for start in range(0, len(kinds), 500):  # within every driver's limit on parameters
                    query = select(*(SNAPSHOTS.c[name] for name in Snapshot._fields)).where(
                        SNAPSHOTS.c.campaign_id == campaign_id, SNAPSHOTS.c.kind.in_(kinds[start:start + 500]))
                    # One row a kind (its key): one written under another fingerprint is not the one wanted.
                    found.extend(s for s in map(Snapshot._make, conn.execute(query)) if s.fingerprint == wanted[s.kind])
        except DBAPIError:
            return []  # no snapshots table yet (an older journal opened read-only): nothing cached
        return found

    def snapshots(self, campaign_id: str, *, data: bool = True) -> list[Snapshot]:
        columns = (SNAPSHOTS.c[name] if data or name != "data" else literal("").label(name)
                   for name in Snapshot._fields)
        query = select(*columns).where(
            SNAPSHOTS.c.campaign_id == campaign_id).order_by(SNAPSHOTS.c.kind)
        try:
            with self._connection() as conn:
                return [Snapshot(*row) for row in conn.execute(query)]
        except DBAPIError:
            return []
